// SPDX-License-Identifier: Apache-2.0
// RTL vs model: fine rasterizer (rtl/rast/fine_raster.sv vs cpp_model/rast/fine_raster).
#define CATCH_CONFIG_MAIN
#include "Vfine_raster.h"
#include "raster_cases.h"
#include "rast/coarse_raster.h"
#include "rast/fine_raster.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("fine_raster: tiles of random triangles, 1x and 4x MSAA") {
  const uint64_t seed = tb::announce_seed("rtl_fine_raster");
  tb::PrimGen g(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  std::vector<TilePkt> in;
  std::vector<QuadPkt> exp;
  for (uint32_t i = 0; in.size() < 6000; ++i) {
    TriPkt tri = g.triangle(256, 256, i);
    tri.target.msaa = g.chance(0.5) ? 1 : 0;
    if (auto s = setup.process(tri)) {
      for (const auto& t : coarse.process(*s)) {
        in.push_back(t);
        for (const auto& q : fine.process(t)) exp.push_back(q);
      }
      if (g.chance(0.03)) {  // end-of-pipe token after a triangle's tiles
        in.push_back(tb::PrimGen::token<TilePkt>());
        for (const auto& q : fine.process(in.back())) exp.push_back(q);
      }
    }
  }
  std::printf("  %zu tiles, %llu with coverage, %zu quads\n", in.size(),
              static_cast<unsigned long long>(fine.tiles_covered()), exp.size());
  tb::check_unit<Vfine_raster>("fine_raster.random", in, exp, seed);
}

TEST_CASE("fine_raster: arbitrary tile packets: edge_in, clipped rectangles, guard-band coefficients") {
  const uint64_t seed = tb::announce_seed("rtl_fine_raster");
  tb::PrimGen g(seed);
  model::FineRaster fine;
  std::vector<TilePkt> in;
  std::vector<QuadPkt> exp;
  const int64_t amax = (int64_t{1} << 24) - 1;
  for (int i = 0; i < 4000; ++i) {
    TilePkt t;
    t.target.msaa = g.chance(0.5) ? 1 : 0;
    const int64_t n = t.target.msaa ? 4 : 8;  // pixels per tile edge
    t.tx = g.range(0, 31);
    t.ty = g.range(0, 31);
    t.edge_in = g.chance(0.3) ? g.range(0, 7) : 0;
    // Edges crossing the tile (E changes sign inside it), small or at the 16.8 extremes; some
    // arbitrary (the result is then the defined modulo-2^31 arithmetic, numerics section 5.2).
    for (auto& e : t.edges) {
      const bool big = g.chance(0.3);
      e.a = big ? g.range(-amax, amax) : g.range(-4000, 4000);
      e.b = big ? g.range(-amax, amax) : g.range(-4000, 4000);
      e.e = 256 * (g.range(-2, 9) * -e.a + g.range(-2, 9) * -e.b) + g.range(-300, 300);
      if (g.chance(0.1)) e.e = 0;
      if (g.chance(0.05)) e.e = static_cast<int64_t>(g.bits64());
    }
    // Rectangles around the tile: inside, partial, touching, empty.
    const int64_t px = t.tx * n, py = t.ty * n;
    t.pix.x0 = std::max<int64_t>(0, px + g.range(-4, n + 1)), t.pix.x1 = std::max<int64_t>(0, px + g.range(-1, n + 4));
    t.pix.y0 = std::max<int64_t>(0, py + g.range(-4, n + 1)), t.pix.y1 = std::max<int64_t>(0, py + g.range(-1, n + 4));
    t.color = static_cast<uint32_t>(g.bits64());
    t.target.base = static_cast<uint32_t>(g.bits64()) & ~3u;
    t.target.pitch = 1024;
    t.tri_id = static_cast<uint32_t>(i);
    // A depth plane anywhere in its documented range (|a|, |b| < 2^32, |c| < 2^57: every sample
    // fits ZPLANE_W), small or at the extremes, with a random clamp range.
    const int64_t gmax = (int64_t{1} << 32) - 1;
    const bool zbig = g.chance(0.3);
    t.zp.a = zbig ? g.range(-gmax, gmax) : g.range(-(int64_t{1} << 22), int64_t{1} << 22);
    t.zp.b = zbig ? g.range(-gmax, gmax) : g.range(-(int64_t{1} << 22), int64_t{1} << 22);
    t.zp.c = zbig ? g.range(-(int64_t{1} << 57), int64_t{1} << 57) : g.range(-(int64_t{1} << 41), int64_t{1} << 41);
    t.zlo = g.chance(0.5) ? 0 : g.range(0, DEPTH_MAX);
    t.zhi = g.range(static_cast<int64_t>(t.zlo), DEPTH_MAX);
    t.front = g.bits64() & 1u;
    t.ds = g.random_ds();
    in.push_back(t.canonical());
    for (const auto& q : fine.process(in.back())) exp.push_back(q);
    const size_t before = in.size();
    g.maybe_token(in, 0.02);
    for (size_t k = before; k < in.size(); ++k) {
      for (const auto& q : fine.process(in[k])) exp.push_back(q);
    }
  }
  tb::check_unit<Vfine_raster>("fine_raster.arbitrary", in, exp, seed);
}

TEST_CASE("fine_raster: rasterizer property cases (meshes, top-left, guard band, tiny, scissor)") {
  // The RTL fine rasterizer gets the tiles of every property case; its quads must equal the
  // model's, and the samples they cover must have each case's property (checked on them).
  const uint64_t seed = tb::announce_seed("rtl_fine_raster");
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  std::vector<TilePkt> in;
  std::vector<QuadPkt> exp;
  std::vector<std::pair<size_t, size_t>> spans;  // per case: [first, last) quad of exp
  const auto all = cases::all_cases(seed);
  for (const auto& c : all) {
    const size_t first = exp.size();
    for (const auto& t : c.tris) {
      if (auto s = setup.process(t)) {
        for (const auto& tile : coarse.process(*s)) {
          in.push_back(tile);
          for (const auto& q : fine.process(tile)) exp.push_back(q);
        }
      }
    }
    spans.push_back({first, exp.size()});
  }
  tb::check_unit<Vfine_raster>("fine_raster.properties", in, exp, seed);
  // The RTL sent exactly exp (checked above): the properties of what it covered.
  size_t failed = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    std::vector<cases::Hit> hits;
    for (size_t n = spans[k].first; n < spans[k].second; ++n) {
      const QuadPkt& q = exp[n];
      const bool msaa = q.target.msaa != 0;
      for (uint32_t bit = 0; bit < 16; ++bit) {
        if (!((q.mask >> bit) & 1u)) continue;
        const uint32_t p = msaa ? bit >> 2 : bit;
        hits.push_back({static_cast<uint32_t>(q.qx * 2 + (p & 1)), static_cast<uint32_t>(q.qy * 2 + (p >> 1)),
                        msaa ? bit & 3u : 0u, static_cast<uint32_t>(q.tri_id)});
      }
    }
    const std::string err = cases::check_case(all[k], hits);
    if (!err.empty() && failed++ < 3) {
      INFO(err);
      CHECK(err.empty());
    }
  }
  std::printf("  %zu property cases, %zu tiles, %zu quads, %zu failed\n", all.size(), in.size(), exp.size(), failed);
  CHECK(failed == 0);
}
