// RTL vs model: coarse rasterizer (rtl/rast/coarse_raster.sv vs cpp_model/rast/coarse_raster).
#define CATCH_CONFIG_MAIN
#include "Vcoarse_raster.h"
#include "rast/coarse_raster.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("coarse_raster: random triangles through model setup") {
  const uint64_t seed = tb::announce_seed("rtl_coarse_raster");
  tb::PrimGen g(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  std::vector<SetupPkt> in;
  std::vector<TilePkt> exp;
  for (uint32_t i = 0; in.size() < 1500; ++i) {
    if (g.chance(0.03)) {  // end-of-pipe token: one decision, always emitted
      in.push_back(tb::PrimGen::token<SetupPkt>());
      for (const auto& t : coarse.process(in.back())) exp.push_back(t);
    }
    if (auto s = setup.process(g.triangle(256, 256, i))) {
      in.push_back(*s);
      for (const auto& t : coarse.process(*s)) exp.push_back(t);
    }
  }
  std::printf("  %llu tile decisions, %zu tiles emitted\n",
              static_cast<unsigned long long>(coarse.tiles_visited()), exp.size());
  tb::check_unit<Vcoarse_raster>("coarse_raster.random", in, exp, seed);
}
