// SPDX-License-Identifier: Apache-2.0
// RTL vs model: pixel writer (rtl/om/pixel_writer.sv vs cpp_model/om/pixel_writer). The
// checked stream is the memory requests; the final memory is compared too, and the end-of-pipe
// completions (see unit_bench.h).
#define CATCH_CONFIG_MAIN
#include "Vpixel_writer.h"
#include "om/pixel_writer.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("pixel_writer: random quads at 1x and 4x MSAA, bases and pitches") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed);
  model::PixelWriter pw;
  std::vector<QuadPkt> in;
  std::vector<MemReq> exp;
  Memory model_mem;
  for (int i = 0; i < 2400; ++i) {
    // End-of-pipe tokens: no write; the bench checks each completion waits for every earlier
    // write's acknowledgement and that there is one per token.
    g.maybe_token(in, 0.05);
    QuadPkt c;
    c.qx = g.range(0, 8191);
    c.qy = g.range(0, 8191);
    c.target.msaa = g.chance(0.5) ? 1 : 0;
    const int kind = static_cast<int>(g.range(0, 3));
    c.mask = kind == 0 ? 0xFFFFu : kind == 1 ? (1ull << g.range(0, 15)) : (g.bits64() & 0xFFFFu);
    // 1x: only bits 0..3 are pixels (bits above are ignored); a quad always covers something.
    if ((c.target.msaa ? c.mask : (c.mask & 0xFu)) == 0) c.mask |= 1;
    c.color = static_cast<uint32_t>(g.bits64());
    c.target.base = static_cast<uint32_t>(g.bits64()) & ~3u;
    c.target.pitch = static_cast<uint32_t>(g.range(0, 65535)) & ~3u;
    c.tri_id = static_cast<uint32_t>(i);
    in.push_back(c.canonical());
    for (const auto& r : pw.process(in.back())) {
      exp.push_back(r);
      model::PixelWriter::apply(r, model_mem);
    }
  }
  for (const auto& p : tb::kStallPatterns) {
    Memory rtl_mem;
    tb::UnitBenchConfig cfg;
    cfg.seed = seed;
    cfg.in_gap = p.in_gap;
    cfg.out_stall = p.out_stall;
    cfg.dram.latency = 50;
    cfg.dram.jitter = 30;
    cfg.test = std::string("pixel_writer/") + p.name;
    const auto r = tb::run_unit_bench<Vpixel_writer>(in, exp, cfg, &rtl_mem);
    INFO(r.report);
    REQUIRE(r.ok);
    REQUIRE(rtl_mem == model_mem);
  }
}
