// SPDX-License-Identifier: Apache-2.0
// RTL vs model: triangle setup (rtl/setup/setup.sv vs cpp_model/setup).
#define CATCH_CONFIG_MAIN
#include "Vsetup.h"
#include "raster_cases.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {
std::vector<SetupPkt> expected(const std::vector<TriPkt>& in) {
  model::Setup s;
  std::vector<SetupPkt> out;
  for (const auto& t : in) {
    if (auto o = s.process(t)) out.push_back(*o);
  }
  return out;
}
TriPkt tri(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int64_t x2, int64_t y2, uint32_t id) {
  TriPkt t;
  t.v[0].x = x0, t.v[0].y = y0, t.v[1].x = x1, t.v[1].y = y1, t.v[2].x = x2, t.v[2].y = y2;
  t.color = 0xff00ff00u;
  t.target.base = 0x10000000u;
  t.target.pitch = 1024;
  t.clip.x0 = 0, t.clip.y0 = 0, t.clip.x1 = 256, t.clip.y1 = 256;
  t.tri_id = id;
  return t.canonical();
}
// Random vertex attributes for the interpolation planes (numerics section 10): 1/w over a wide
// range, sometimes a bad one (NaN, Inf, 0, negative, denormal), special texture coordinates.
void random_attrs(tb::PrimGen& g, TriPkt& t) {
  static const uint32_t special[] = {0u, 0x80000000u, 0x7F800000u, 0xFF800000u, FP32_QNAN,
                                     0x00000001u, 0xBF800000u, 0x7F7FFFFFu, 0x00800000u};
  for (auto& a : t.a) {
    a.rhw = g.chance(0.05) ? special[g.range(0, 8)]
                           : (static_cast<uint64_t>(g.range(1, 254)) << 23) | static_cast<uint64_t>(g.range(0, 0x7FFFFF));
    if (g.chance(0.5)) a.rhw = (static_cast<uint64_t>(g.range(110, 140)) << 23) | (a.rhw & 0x7FFFFFu);
    a.color = g.bits64() & 0xFFFFFFFFu;
    a.uv0.u = g.chance(0.05) ? special[g.range(0, 8)] : g.bits64() & 0xFFFFFFFFu;
    a.uv0.v = g.bits64() & 0xFFFFFFFFu;
    a.uv1.u = g.bits64() & 0xFFFFFFFFu;
    a.uv1.v = g.chance(0.05) ? special[g.range(0, 8)] : g.bits64() & 0xFFFFFFFFu;
  }
}
}  // namespace

TEST_CASE("setup: random triangles of every kind") {
  const uint64_t seed = tb::announce_seed("rtl_setup");
  tb::PrimGen g(seed);
  std::vector<TriPkt> in;
  for (uint32_t i = 0; i < 4000; ++i) {
    g.maybe_token(in, 0.02);  // end-of-pipe tokens: never culled
    in.push_back(g.triangle(256, 256, i));
    in.back().target.msaa = g.chance(0.5) ? 1 : 0;  // 4x MSAA: 4x4-pixel raster tiles
    random_attrs(g, in.back());
  }
  tb::check_unit<Vsetup>("setup.random", in, expected(in), seed);
}

TEST_CASE("setup: directed edges, windings, extremes and culls") {
  const uint64_t seed = tb::announce_seed("rtl_setup");
  const int64_t lo = -(int64_t{1} << 23), hi = (int64_t{1} << 23) - 1;
  std::vector<TriPkt> in;
  uint32_t id = 0;
  // Both windings of the same triangle, every rotation.
  const int64_t p[3][2] = {{128, 128}, {2048 + 128, 128}, {128, 2048 + 128}};
  for (int rot = 0; rot < 3; ++rot) {
    const auto& a = p[rot];
    const auto& b = p[(rot + 1) % 3];
    const auto& c = p[(rot + 2) % 3];
    in.push_back(tri(a[0], a[1], b[0], b[1], c[0], c[1], id++));
    in.push_back(tri(a[0], a[1], c[0], c[1], b[0], b[1], id++));
  }
  in.push_back(tri(lo, lo, hi, lo, lo, hi, id++));          // whole guard band
  in.push_back(tri(hi, hi, lo, hi, hi, lo, id++));
  in.push_back(tri(lo, hi, hi, hi, 0, lo, id++));
  in.push_back(tri(100, 100, 100, 100, 100, 100, id++));    // point
  in.push_back(tri(0, 0, 5000, 5000, 10000, 10000, id++));  // collinear
  in.push_back(tri(129, 129, 200, 129, 129, 200, id++));    // covers no centre
  in.push_back(tri(128, 128, 384, 128, 128, 384, id++));    // one-pixel corner on centres
  tb::check_unit<Vsetup>("setup.directed", in, expected(in), seed);
}

TEST_CASE("setup: rasterizer property cases (meshes, top-left, guard band, tiny, scissor)") {
  const uint64_t seed = tb::announce_seed("rtl_setup");
  std::vector<TriPkt> in;
  for (const auto& c : cases::all_cases(seed)) {
    for (const auto& t : c.tris) in.push_back(t);
  }
  tb::check_unit<Vsetup>("setup.properties", in, expected(in), seed);
}
