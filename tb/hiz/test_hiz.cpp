// SPDX-License-Identifier: Apache-2.0
// RTL vs model: hierarchical Z (rtl/hiz/hiz.sv vs cpp_model/hiz), random scenes with depth
// clears between the tiles (values 1.0, 0.0 and random), LESS- and GREATER-mostly phases, random
// input gaps and output back-pressure.
#define CATCH_CONFIG_MAIN
#include "Vhiz.h"
#include "fp32.h"
#include "hiz/hiz.h"
#include "rast/coarse_raster.h"
#include "setup/setup.h"
#include "random_prims.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct Event {
  bool clear = false;
  ClearPkt c;
  TilePkt t;
};

}  // namespace

TEST_CASE("hiz: tiles of random depth scenes with clears, random stalls") {
  const uint64_t seed = tb::announce_seed("rtl_hiz");
  tb::PrimGen g(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  model::Hiz hiz;  // 64 x 64 raster tiles, as the RTL's default
  std::vector<Event> ev;
  std::vector<TilePkt> exp;
  const uint64_t base = 0x30000000u;
  for (uint32_t i = 0; ev.size() < 12000; ++i) {
    if (i % 40 == 0 || g.chance(0.003)) {
      Event e;
      e.clear = true;
      e.c.depth = g.chance(0.9) ? 1 : 0;
      e.c.target.base = g.chance(0.9) ? base : base + 64;
      e.c.target.msaa = g.chance(0.5) ? 1 : 0;
      const uint64_t x0 = g.range(0, 200), y0 = g.range(0, 200);
      e.c.rect.x0 = g.chance(0.5) ? 0 : x0;
      e.c.rect.y0 = g.chance(0.5) ? 0 : y0;
      e.c.rect.x1 = g.chance(0.5) ? 512 : g.range(static_cast<int64_t>(e.c.rect.x0) + 1, 512);
      e.c.rect.y1 = g.chance(0.5) ? 512 : g.range(static_cast<int64_t>(e.c.rect.y0) + 1, 512);
      e.c.value = g.chance(0.35) ? DEPTH_MAX : g.chance(0.5) ? 0 : g.range(0, DEPTH_MAX);
      e.c.hiz_forget = g.chance(0.12) ? 1 : 0;  // a DMA write met the buffer (other fields ignored)
      e.c = e.c.canonical();
      hiz.clear(e.c);
      ev.push_back(e);
    }
    // A triangle somewhere in (and around) a 300x300 region, 2 to 140 pixels.
    const int64_t px = 256, size = g.chance(0.4) ? g.range(2 * px, 20 * px) : g.range(20 * px, 140 * px);
    const int64_t cx = g.range(-8 * px, 308 * px), cy = g.range(-8 * px, 308 * px);
    TriPkt tri;
    for (auto& v : tri.v) {
      v.x = cx + g.range(-size, size);
      v.y = cy + g.range(-size, size);
    }
    tri.clip.x1 = 300;
    tri.clip.y1 = 300;
    tri.tri_id = i;
    tri.target.msaa = g.chance(0.5) ? 1 : 0;
    tri.ds.z_write = g.chance(0.85) ? 1 : 0;
    tri.zlo = 0;
    tri.zhi = DEPTH_MAX;
    const int64_t zc = g.range(0, 1 << 24);
    for (auto& z : tri.z) {
      const int64_t v = std::clamp<int64_t>(zc + g.range(-(1 << 21), 1 << 21), 0, 1 << 24);
      z.data = fp32::bits_of(static_cast<float>(v) / 16777216.0f);
    }
    tri.ds.base = g.chance(0.9) ? base : base + 64;
    tri.ds.z_enable = g.chance(0.9) ? 1 : 0;
    tri.ds.hiz = g.chance(0.9) ? 1 : 0;
    tri.ds.s_enable = g.chance(0.05) ? 1 : 0;
    tri.ds.late_z = g.chance(0.05) ? 1 : 0;
    // Phases of LESS-mostly and GREATER-mostly work (both directions, and their changes).
    const bool gdir = (i / 300) % 2 == 1;
    tri.ds.z_func = g.chance(0.99) ? (gdir ? (g.chance(0.5) ? CMP_GREATER : CMP_GREATER_EQUAL)
                                           : (g.chance(0.5) ? CMP_LESS : CMP_LESS_EQUAL))
                                   : g.range(0, 7);
    if (auto s = setup.process(tri.canonical())) {
      for (const auto& t : coarse.process(*s)) {
        Event e;
        e.t = t;
        ev.push_back(e);
        if (hiz.process(t)) exp.push_back(t);
      }
    }
    if (g.chance(0.02)) {
      Event e;
      e.t = tb::PrimGen::token<TilePkt>();
      ev.push_back(e);
      exp.push_back(e.t);
    }
  }
  std::printf("  %zu events, %zu tiles out, model: %llu tested, %llu rejected\n", ev.size(), exp.size(),
              static_cast<unsigned long long>(hiz.tested()), static_cast<unsigned long long>(hiz.rejected()));
  REQUIRE(hiz.rejected() > 0);

  for (const double stall : {0.0, 0.4}) {
    auto ctx = tb::make_context(seed);
    Vhiz dut(ctx.get());
    std::mt19937_64 rng(seed + 17);
    std::uniform_real_distribution<double> u(0, 1);
    dut.clk_i = 0;
    dut.rst_ni = 1;
    dut.in_valid_i = 0;
    dut.clear_valid_i = 0;
    dut.out_ready_i = 0;
    dut.eval();
    dut.rst_ni = 0;  // a falling edge: the asynchronous reset
    dut.eval();
    for (int k = 0; k < 2; ++k) {
      dut.clk_i = 1;
      dut.eval();
      dut.clk_i = 0;
      dut.eval();
    }
    dut.rst_ni = 1;
    dut.eval();
    size_t next = 0, got = 0;
    uint64_t cycles = 0;
    bool offer = false;
    while ((next < ev.size() || got < exp.size()) && cycles < 2000000) {
      // Inputs for this cycle.
      if (!offer && next < ev.size()) offer = u(rng) >= stall;
      dut.in_valid_i = 0;
      dut.clear_valid_i = 0;
      if (offer && next < ev.size()) {
        if (ev[next].clear) {
          dut.clear_valid_i = 1;
          tb::pack_sig(ev[next].c, dut.clear_i);
        } else {
          dut.in_valid_i = 1;
          tb::pack_sig(ev[next].t, dut.in_i);
        }
      }
      dut.out_ready_i = u(rng) >= stall;
      dut.clk_i = 0;
      dut.eval();
      const bool in_fire = (dut.in_valid_i && dut.in_ready_o) || (dut.clear_valid_i && dut.clear_ready_o);
      if (dut.out_valid_o && dut.out_ready_i) {
        const TilePkt act = tb::unpack_sig<TilePkt>(dut.out_o);
        REQUIRE(got < exp.size());
        INFO("output " << got << " tile " << exp[got].tx << "," << exp[got].ty << " stall " << stall);
        std::vector<FieldDiff> diffs;
        exp[got].diff(act, "", diffs);
        std::string why;
        for (const auto& d : diffs) why += d.field + " exp " + d.expected_dec + " act " + d.actual_dec + "; ";
        INFO(why);
        REQUIRE(diffs.empty());
        ++got;
      }
      dut.clk_i = 1;
      dut.eval();
      if (in_fire) {
        ++next;
        offer = false;
      }
      ++cycles;
      REQUIRE_FALSE(ctx->gotError());
    }
    std::printf("  stall %.1f: %zu of %zu tiles out in %llu cycles\n", stall, got, exp.size(),
                static_cast<unsigned long long>(cycles));
    CHECK(got == exp.size());
    CHECK(next == ev.size());
  }
}
