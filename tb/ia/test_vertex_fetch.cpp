// RTL vs model: vertex fetch (rtl/ia/vertex_fetch.sv vs cpp_model/ia/vertex_fetch).
#define CATCH_CONFIG_MAIN
#include "Vvertex_fetch.h"
#include "ia/vertex_fetch.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {
VFetchPkt wr(uint32_t idx, uint32_t val) {
  VFetchPkt p;
  p.wr = 1;
  p.wr_idx = idx;
  p.wr_val = val;
  return p;
}
}  // namespace

TEST_CASE("vertex_fetch: random layouts, formats, bounds, instances, matrix writes") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_fetch");
  tb::PrimGen g(seed);
  Memory mem;
  // Two vertex buffers of random dwords: small floats, special values, arbitrary bits.
  const uint32_t vb0 = 0x00500000u, vb1 = 0x00600000u;
  for (uint32_t k = 0; k < 4096; ++k) {
    const int kind = static_cast<int>(g.range(0, 5));
    const uint32_t v = kind == 0   ? static_cast<uint32_t>(g.bits64())
                       : kind == 1 ? 0x7F800000u | static_cast<uint32_t>(g.range(0, 1)) << 22
                       : kind == 2 ? static_cast<uint32_t>(g.range(0, 0x3F800000))
                                   : 0x3F000000u + static_cast<uint32_t>(g.range(0, 0x1000000));
    mem.write32(vb0 + 4 * k, v);
    mem.write32(vb1 + 4 * k, v ^ 0x80000000u);
  }
  std::vector<VFetchPkt> in;
  for (int layout = 0; layout < 40; ++layout) {
    in.push_back(wr(FE_VB0_BASE, vb0 + 4 * static_cast<uint32_t>(g.range(0, 8))));
    in.push_back(wr(FE_VB0_STRIDE, 4 * static_cast<uint32_t>(g.range(0, 12))));
    in.push_back(wr(FE_VB0_SIZE, static_cast<uint32_t>(g.range(0, 3000))));
    in.push_back(wr(FE_VB1_BASE, vb1));
    in.push_back(wr(FE_VB1_STRIDE, 4 * static_cast<uint32_t>(g.range(0, 8))));
    in.push_back(wr(FE_VB1_SIZE, static_cast<uint32_t>(g.range(0, 200))));
    for (uint32_t a = 0; a < 4; ++a) {
      const uint32_t fmt = static_cast<uint32_t>(g.range(0, 7));  // 6, 7 reserved: not fetched
      const uint32_t buf = g.chance(0.2) ? 8u : 0u;
      in.push_back(wr(FE_ATTR_POS + a, fmt | buf | (4 * static_cast<uint32_t>(g.range(0, 6))) << 16));
    }
    if (g.chance(0.3)) {
      in.push_back(wr(FE_MATRIX0 + static_cast<uint32_t>(g.range(0, 15)), static_cast<uint32_t>(g.bits64())));
    }
    if (g.chance(0.1)) in.push_back(wr(static_cast<uint32_t>(g.range(0, 255)), 5));  // other indices: ignored
    const uint32_t nv = static_cast<uint32_t>(g.range(1, 40));
    for (uint32_t v = 0; v < nv; ++v) {
      VFetchPkt p;
      p.index = g.chance(0.05) ? static_cast<uint32_t>(g.bits64()) : static_cast<uint32_t>(g.range(0, 300));
      p.inst_id = static_cast<uint32_t>(g.range(0, 30));
      p.slot = v & 31u;
      p.last = v + 1 == nv;
      p.draw_id = static_cast<uint32_t>(layout);
      in.push_back(p);
    }
  }
  model::VertexFetch vf;
  std::vector<VtxInPkt> exp;
  for (const auto& p : in) {
    for (const auto& v : vf.process(p, mem)) exp.push_back(v);
  }
  std::printf("  %llu vertices, %llu dwords read, %llu attributes out of bounds\n",
              static_cast<unsigned long long>(vf.vertices()), static_cast<unsigned long long>(vf.dwords_read()),
              static_cast<unsigned long long>(vf.out_of_bounds()));
  CHECK(vf.out_of_bounds() > 0);
  tb::DramConfig dram;
  dram.latency = 200;
  dram.jitter = 100;
  tb::check_unit<Vvertex_fetch>("vertex_fetch.random", in, exp, seed, &mem, dram);
}

TEST_CASE("vertex_fetch: bench, F32x4 position + UNORM8x4 colour + 2 x F32x2", "[.bench]") {
  Memory mem;
  const uint32_t vb0 = 0x00500000u;
  for (uint32_t k = 0; k < 9 * 4096; ++k) mem.write32(vb0 + 4 * k, 0x3F800000u + k);
  std::vector<VFetchPkt> in = {wr(FE_VB0_BASE, vb0), wr(FE_VB0_STRIDE, 36), wr(FE_VB0_SIZE, 36 * 4096),
                               wr(FE_ATTR_POS, ATTR_FMT_F32X4), wr(FE_ATTR_COLOR, ATTR_FMT_UNORM8X4 | (16u << 16)),
                               wr(FE_ATTR_TEX0, ATTR_FMT_F32X2 | (20u << 16)),
                               wr(FE_ATTR_TEX1, ATTR_FMT_F32X2 | (28u << 16))};
  for (uint32_t v = 0; v < 4096; ++v) {
    VFetchPkt p;
    p.index = v;
    p.slot = v & 31u;
    p.last = (v & 31u) == 31u;
    in.push_back(p);
  }
  model::VertexFetch vf;
  std::vector<VtxInPkt> exp;
  for (const auto& p : in) {
    for (const auto& v : vf.process(p, mem)) exp.push_back(v);
  }
  tb::UnitBenchConfig cfg;
  cfg.in_gap = 0;
  cfg.out_stall = 0;
  cfg.test = "vertex_fetch.bench";
  const auto r = tb::run_unit_bench<Vvertex_fetch>(in, exp, cfg, &mem);
  REQUIRE(r.ok);
  std::printf("vertex_fetch: %zu vertices (9 dwords each) in %llu cycles = %.3f vertices/clock, %.2f dwords/clock\n",
              exp.size(), static_cast<unsigned long long>(r.cycles),
              static_cast<double>(exp.size()) / static_cast<double>(r.cycles),
              9.0 * static_cast<double>(exp.size()) / static_cast<double>(r.cycles));
}
