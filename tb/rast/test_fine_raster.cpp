// RTL vs model: fine rasterizer (rtl/rast/fine_raster.sv vs cpp_model/rast/fine_raster).
#define CATCH_CONFIG_MAIN
#include "Vfine_raster.h"
#include "rast/coarse_raster.h"
#include "rast/fine_raster.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("fine_raster: tiles of random triangles") {
  const uint64_t seed = tb::announce_seed("rtl_fine_raster");
  tb::PrimGen g(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  std::vector<TilePkt> in;
  std::vector<CovPkt> exp;
  for (uint32_t i = 0; in.size() < 6000; ++i) {
    if (auto s = setup.process(g.triangle(256, 256, i))) {
      for (const auto& t : coarse.process(*s)) {
        in.push_back(t);
        if (auto c = fine.process(t)) exp.push_back(*c);
      }
      if (g.chance(0.03)) {  // end-of-pipe token after a triangle's tiles
        in.push_back(tb::PrimGen::token<TilePkt>());
        exp.push_back(*fine.process(in.back()));
      }
    }
  }
  tb::check_unit<Vfine_raster>("fine_raster.random", in, exp, seed);
}

TEST_CASE("fine_raster: arbitrary tile packets, including accept and clipped rectangles") {
  const uint64_t seed = tb::announce_seed("rtl_fine_raster");
  tb::PrimGen g(seed);
  model::FineRaster fine;
  std::vector<TilePkt> in;
  std::vector<CovPkt> exp;
  for (int i = 0; i < 3000; ++i) {
    TilePkt t;
    t.tx = g.range(0, 31);
    t.ty = g.range(0, 31);
    t.accept = g.chance(0.2);
    // Edges crossing the tile: E(i, j) = e + 256*(i*a + j*b) changes sign inside it.
    for (auto& e : t.edges) {
      e.a = g.range(-4000, 4000);
      e.b = g.range(-4000, 4000);
      e.e = 256 * (g.range(-2, 9) * -e.a + g.range(-2, 9) * -e.b) + g.range(-300, 300);
      if (g.chance(0.1)) e.e = 0;
    }
    // Rectangles around the tile: inside, partial, touching, empty.
    const int64_t px = t.tx * 8, py = t.ty * 8;
    t.pix.x0 = std::max<int64_t>(0, px + g.range(-4, 9)), t.pix.x1 = std::max<int64_t>(0, px + g.range(-1, 12));
    t.pix.y0 = std::max<int64_t>(0, py + g.range(-4, 9)), t.pix.y1 = std::max<int64_t>(0, py + g.range(-1, 12));
    t.color = static_cast<uint32_t>(g.bits64());
    t.target.base = static_cast<uint32_t>(g.bits64()) & ~3u;
    t.target.pitch = 1024;
    t.tri_id = static_cast<uint32_t>(i);
    in.push_back(t.canonical());
    if (auto c = fine.process(in.back())) exp.push_back(*c);
  }
  tb::check_unit<Vfine_raster>("fine_raster.arbitrary", in, exp, seed);
}
