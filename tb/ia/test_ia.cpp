// SPDX-License-Identifier: Apache-2.0
// RTL vs model: input assembler (rtl/ia/ia.sv vs cpp_model/ia/ia), reading its
// vertex buffers over the line port (LineDram) with random latency and reduced bandwidth. The
// vertex buffers start at any dword, so the assembler's groups (InDwords dwords, aligned) start
// and end partial and a triangle straddles them at every offset; and its rate on one long draw.
#define CATCH_CONFIG_MAIN
#include "Via.h"
#include "ia/ia.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("ia: draws of random vertex buffers, saturation, leftovers") {
  const uint64_t seed = tb::announce_seed("rtl_ia");
  tb::PrimGen g(seed);
  Memory mem;
  std::vector<DrawPkt> in;
  uint32_t vb = 0x01000000u;
  for (int d = 0; d < 60; ++d) {
    DrawPkt dp;
    const uint32_t n = static_cast<uint32_t>(g.chance(0.2) ? g.range(0, 5) : g.range(3, 300));
    const uint32_t first = static_cast<uint32_t>(g.range(0, 8));
    dp.vb_base = vb;
    dp.first_vertex = first;
    dp.vertex_count = n;
    for (uint32_t i = 0; i < (first + n) * 2; ++i) {
      const int kind = static_cast<int>(g.range(0, 9));
      const uint32_t v = kind == 0   ? 0x7fffffffu
                         : kind == 1 ? 0x80000000u
                         : kind == 2 ? (1u << 23)
                         : kind == 3 ? static_cast<uint32_t>(-(1 << 23) - 1)
                                     : static_cast<uint32_t>(g.range(-300000, 300000));
      mem.write32(vb + i * 4, v);
    }
    vb += (first + n) * 8 + 64 + 4 * static_cast<uint32_t>(g.range(0, 15));  // any dword of a line
    dp.color = static_cast<uint32_t>(g.bits64());
    dp.target.base = 0x10000000u;
    dp.target.pitch = 1024;
    dp.clip.x0 = 0, dp.clip.y0 = 0, dp.clip.x1 = 256, dp.clip.y1 = 256;
    dp.draw_id = static_cast<uint32_t>(d);
    g.maybe_token(in, 0.15);  // end-of-pipe tokens between draws (no read, no tri_id)
    in.push_back(dp.canonical());
  }
  // A draw whose vertex addresses wrap around 2^32.
  DrawPkt wrap = in.back();
  wrap.vb_base = 0xFFFFFFF0u;
  wrap.first_vertex = 0;
  wrap.vertex_count = 6;
  for (uint32_t i = 0; i < 12; ++i) mem.write32(0xFFFFFFF0u + i * 4, i * 1000);
  in.push_back(wrap);
  wrap.vb_base = 0xFFFFFFF4u;  // the same, starting on an odd dword
  wrap.vertex_count = 5;
  in.push_back(wrap);
  in.push_back(tb::PrimGen::token<DrawPkt>());
  model::InputAssembler ia;
  std::vector<TriPkt> exp;
  for (const auto& d : in) {
    for (const auto& t : ia.process(d, mem)) exp.push_back(t);
  }
  tb::LineDramConfig dram;
  dram.latency = 200;
  dram.jitter = 100;
  dram.bytes_per_clock = 8;  // a quarter of the default: the reader waits on bandwidth too
  tb::check_unit<Via>("ia.random", in, exp, seed, &mem, dram);
}

// Rate: one long draw from an odd dword, no stalls, 200 cycles, 32 bytes/clock. InDwords = 4
// consumes a triangle every 1.5 clocks: 6,000 dwords in ~1,500 clocks after the first line
// arrives. 1 dword per clock (the IA before) would need 6,000.
TEST_CASE("ia: rate on one long draw") {
  Memory mem;
  DrawPkt dp;
  dp.vb_base = 0x00200004u;
  dp.vertex_count = 3000;
  dp.color = 0xff00ff00u;
  for (uint32_t i = 0; i < dp.vertex_count * 2; ++i) mem.write32(dp.vb_base + 4 * i, i * 37u);
  const std::vector<DrawPkt> in{dp};
  const auto exp = model::InputAssembler().process(dp, mem);
  tb::UnitBenchConfig cfg;
  cfg.seed = 1;
  cfg.in_gap = 0;
  cfg.out_stall = 0;
  cfg.test = "ia.rate";
  const auto r = tb::run_unit_bench<Via>(in, exp, cfg, &mem);
  INFO(r.report);
  REQUIRE(r.ok);
  const double dw = static_cast<double>(dp.vertex_count * 2) / static_cast<double>(r.cycles - 200);
  std::printf("ia: %zu triangles in %llu cycles: %.2f vertex dwords/clock after the 200-cycle latency\n",
              exp.size(), static_cast<unsigned long long>(r.cycles), dw);
  CHECK(dw >= 3.5);
}
