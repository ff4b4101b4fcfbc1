// SPDX-License-Identifier: Apache-2.0
// RTL vs model: coarse rasterizer (rtl/rast/coarse_raster.sv vs cpp_model/rast/coarse_raster).
#define CATCH_CONFIG_MAIN
#include "Vcoarse_raster.h"
#include "raster_cases.h"
#include "rast/coarse_raster.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("coarse_raster: random triangles through model setup, 1x and 4x MSAA") {
  const uint64_t seed = tb::announce_seed("rtl_coarse_raster");
  tb::PrimGen g(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  std::vector<SetupPkt> in;
  std::vector<TilePkt> exp;
  uint64_t tokens = 0;
  for (uint32_t i = 0; in.size() < 1500; ++i) {
    if (g.chance(0.03)) {  // end-of-pipe token: one decision, always emitted
      in.push_back(tb::PrimGen::token<SetupPkt>());
      for (const auto& t : coarse.process(in.back())) exp.push_back(t);
      ++tokens;
    }
    TriPkt tri = g.triangle(256, 256, i);
    tri.target.msaa = g.chance(0.5) ? 1 : 0;
    if (auto s = setup.process(tri)) {
      in.push_back(*s);
      for (const auto& t : coarse.process(*s)) exp.push_back(t);
    }
  }
  const uint64_t decisions = coarse.tiles_visited() + tokens;
  std::printf("  %llu tile decisions (a box walk: %llu), %zu tiles emitted\n",
              static_cast<unsigned long long>(decisions),
              static_cast<unsigned long long>(coarse.tiles_in_bbox() + tokens), exp.size());
  tb::check_unit<Vcoarse_raster>("coarse_raster.random", in, exp, seed);
  // One decision per clock: without stalls the RTL takes the model's decisions plus the
  // pipeline's fill and drain.
  tb::UnitBenchConfig cfg;
  cfg.seed = seed;
  cfg.in_gap = 0;
  cfg.out_stall = 0;
  cfg.test = "coarse_raster.rate";
  const auto r = tb::run_unit_bench<Vcoarse_raster>(in, exp, cfg);
  REQUIRE(r.ok);
  std::printf("  %llu cycles for %llu decisions: %.4f decisions/clock\n",
              static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(decisions),
              static_cast<double>(decisions) / static_cast<double>(r.cycles));
  CHECK(r.cycles <= decisions + 4);
}

TEST_CASE("coarse_raster: rasterizer property cases (meshes, top-left, guard band, tiny, scissor)") {
  const uint64_t seed = tb::announce_seed("rtl_coarse_raster");
  model::Setup setup;
  model::CoarseRaster coarse;
  std::vector<SetupPkt> in;
  std::vector<TilePkt> exp;
  for (const auto& c : cases::all_cases(seed)) {
    for (const auto& t : c.tris) {
      if (auto s = setup.process(t)) {
        in.push_back(*s);
        for (const auto& tile : coarse.process(*s)) exp.push_back(tile);
      }
    }
  }
  tb::check_unit<Vcoarse_raster>("coarse_raster.properties", in, exp, seed);
}
