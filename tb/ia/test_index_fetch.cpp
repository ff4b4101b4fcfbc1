// SPDX-License-Identifier: Apache-2.0
// RTL vs model: index fetch (rtl/ia/index_fetch.sv vs cpp_model/ia/index_fetch).
#define CATCH_CONFIG_MAIN
#include "Vindex_fetch.h"
#include "ia/index_fetch.h"
#include "unit_test_main.h"

using namespace pineda;

TEST_CASE("index_fetch: random indexed and non-indexed instanced draws, bounds, cuts") {
  const uint64_t seed = tb::announce_seed("rtl_index_fetch");
  tb::PrimGen g(seed);
  Memory mem;
  std::vector<IDrawPkt> in;
  uint32_t ib = 0x00400000u;
  size_t writes = 0;
  for (int d = 0; d < 80; ++d) {
    g.maybe_token(in, 0.1);
    // Front-end state writes between draws (the CP sends SET_STATE dwords in [16, 96) this way);
    // sometimes several in a row, sometimes next to tokens.
    while (g.chance(0.25)) {
      IDrawPkt w;
      w.wr = 1;
      w.wr_idx = static_cast<uint32_t>(g.chance(0.9) ? g.range(NUM_STATE, FE_STATE_END - 1) : g.range(0, 255));
      w.wr_val = static_cast<uint32_t>(g.bits64());
      in.push_back(w);
      ++writes;
      g.maybe_token(in, 0.1);
    }
    IDrawPkt p;
    p.indexed = !g.chance(0.2);
    p.index32 = g.chance(0.5);
    p.strip = g.chance(0.5);
    p.restart = g.chance(0.7);
    const uint32_t isz = p.index32 ? 4 : 2;
    const uint32_t n = static_cast<uint32_t>(g.range(0, 90));
    // Index buffer: values in a small range, cut values now and then; odd 16-bit starts.
    p.ib_base = ib + (p.index32 ? 0 : 2 * static_cast<uint32_t>(g.range(0, 1)));
    for (uint32_t k = 0; k < n + 8; ++k) {
      const uint32_t v = g.chance(0.05) ? 0xFFFFFFFFu : static_cast<uint32_t>(g.range(0, 3000));
      const uint32_t a = p.ib_base + k * isz;
      if (p.index32) {
        mem.write32(a, v);
      } else {
        const uint32_t dw = mem.read32(a & ~3u);
        mem.write32(a & ~3u, (a & 2u) ? (dw & 0xFFFFu) | (v << 16) : (dw & 0xFFFF0000u) | (v & 0xFFFFu));
      }
    }
    p.first = static_cast<uint32_t>(g.range(0, 7));
    p.count = n;
    // Sometimes the buffer ends inside the draw (out-of-bounds reads return 0), or before it.
    const int kind = static_cast<int>(g.range(0, 4));
    p.ib_size = kind == 0 ? 0 : kind == 1 ? static_cast<uint32_t>(g.range(0, (n + 8) * isz + 3))
                                          : (n + 8) * isz;
    p.base_vertex = g.chance(0.3) ? static_cast<uint32_t>(g.bits64()) : static_cast<uint32_t>(g.range(0, 100));
    p.instance_count = static_cast<uint32_t>(g.chance(0.1) ? 0 : g.range(1, 3));
    p.start_instance = static_cast<uint32_t>(g.bits64());
    p.draw_id = static_cast<uint32_t>(d);
    in.push_back(p.canonical());
    ib += (n + 16) * 4;
  }
  // The index buffer wraps around 2^32.
  IDrawPkt w;
  w.indexed = 1;
  w.index32 = 1;
  w.ib_base = 0xFFFFFFF8u;
  w.ib_size = 64;
  w.count = 5;
  w.instance_count = 1;
  for (uint32_t k = 0; k < 5; ++k) mem.write32(0xFFFFFFF8u + 4 * k, 10 + k);
  in.push_back(w);
  in.push_back(tb::PrimGen::token<IDrawPkt>());
  model::IndexFetch f;
  std::vector<IndexPkt> exp;
  for (const auto& d : in) {
    for (const auto& p : f.process(d, mem)) exp.push_back(p);
  }
  size_t exp_writes = 0;
  for (const auto& p : exp) exp_writes += p.wr ? 1 : 0;
  std::printf("  %zu index packets (%zu state writes), %llu out of bounds, %llu cuts\n", exp.size(), exp_writes,
              static_cast<unsigned long long>(f.out_of_bounds()), static_cast<unsigned long long>(f.cuts()));
  CHECK(f.out_of_bounds() > 0);
  CHECK(f.cuts() > 0);
  CHECK(writes > 0);
  CHECK(exp_writes == writes);
  tb::LineDramConfig dram;  // the line port: 200 cycles with jitter, 32 bytes per clock
  dram.latency = 200;
  dram.jitter = 100;
  tb::check_unit<Vindex_fetch>("index_fetch.random", in, exp, seed, &mem, dram);
  tb::LineDramConfig slow;  // reduced bandwidth: a line every 20 clocks, short jittered latency
  slow.latency = 10;
  slow.jitter = 40;
  slow.bytes_per_clock = 3.2;
  tb::check_unit<Vindex_fetch>("index_fetch.random.slow", in, exp, seed, &mem, slow);
}

TEST_CASE("index_fetch: bench, one long 16-bit indexed draw", "[.bench]") {
  const uint64_t seed = 1;
  Memory mem;
  IDrawPkt p;
  p.indexed = 1;
  p.ib_base = 0x00400000u;
  p.count = 60000;
  p.ib_size = 2 * p.count;
  p.instance_count = 1;
  for (uint32_t k = 0; k < p.count; k += 2) mem.write32(p.ib_base + 2 * k, k | ((k + 1) << 16));
  const std::vector<IDrawPkt> in{p};
  const auto exp = model::IndexFetch().process(p, mem);
  tb::UnitBenchConfig cfg;
  cfg.seed = seed;
  cfg.in_gap = 0;
  cfg.out_stall = 0;
  cfg.test = "index_fetch.bench";
  const auto r = tb::run_unit_bench<Vindex_fetch>(in, exp, cfg, &mem);
  REQUIRE(r.ok);
  std::printf("index_fetch: %zu indices in %llu cycles = %.3f indices/clock (200-cycle line memory, 32 B/clock)\n", exp.size(),
              static_cast<unsigned long long>(r.cycles), static_cast<double>(exp.size()) / static_cast<double>(r.cycles));
}
