// SPDX-License-Identifier: Apache-2.0
// RTL vs model: vertex fetch (rtl/ia/vertex_fetch.sv vs cpp_model/ia/vertex_fetch) on the line
// port (harness/line_dram). Besides the output stream (bit for bit), the bench counts the line
// read requests the RTL issues and compares them with the model's prediction
// (VertexFetch::lines_read(): the fetch cache's tags are mirrored exactly), under the four stall
// patterns with 200-cycle memory and jitter, at full and at reduced bandwidth.
#define CATCH_CONFIG_MAIN
#include "Vvertex_fetch.h"
#include "ia/vertex_fetch.h"
#include "ia/vertex_tags.h"
#include "line_dram.h"
#include "mem_port.h"
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

struct VfResult {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
  uint64_t reads = 0;  // read requests accepted by the memory
  uint64_t first_out = 0, last_out = 0, outs = 0;  // cycles of the first and last output, outputs
};

// The unit bench (tb/common/unit_bench.h) with the read requests counted.
VfResult run_vf(const std::vector<VFetchPkt>& in, const std::vector<VtxInPkt>& exp, uint64_t seed, double in_gap,
                double out_stall, const tb::LineDramConfig& dcfg, Memory& mem, const std::string& test) {
  VfResult res;
  tb::DriverConfig cfg;
  cfg.run = {test, seed, "build/tests/rtl_vertex_fetch --rng-seed " + std::to_string(seed)};
  tb::VlDriver<Vvertex_fetch> drv(cfg);
  Vvertex_fetch& dut = drv.dut();
  tb::LineDramConfig dc = dcfg;
  dc.seed = seed * 31 + 7;
  tb::LineDram dram(mem, dc);
  tb::StreamSource<VFetchPkt> src(in, in_gap);
  tb::StreamSink<VtxInPkt> out("out", exp, drv.run(), out_stall);
  dut.in_valid_i = 0;
  dut.out_ready_i = 0;
  tb::pack_sig(MemPortRsp{}, dut.mem_i);
  drv.reset();
  while (true) {
    src.drive(drv.rng(), dut.in_valid_i, dut.in_i);
    dut.out_ready_i = out.ready(drv.rng());
    const tb::MemPortCycle m = tb::mem_port_settle(drv, dram);  // drives mem_i, eval_low
    const bool in_fire = src.fire(dut.in_ready_o);
    const bool req_fire = m.req_fire;
    const bool rsp_fire = m.rsp_fire;
    const MemLineReq req = m.out.req;
    bool out_fire = false;
    std::string rep;
    if (!out.take(dut.out_valid_o, dut.out_ready_i, dut.out_o, drv.cycle(), rep, &out_fire)) {
      res.report = rep;
      break;
    }
    if (req_fire && req.we) {
      res.report = drv.head("WRITE REQUEST") + "\n";
      break;
    }
    if (in_fire || out_fire || req_fire || rsp_fire) drv.progress();
    res.reads += req_fire ? 1 : 0;
    if (out_fire) {
      if (res.outs++ == 0) res.first_out = drv.cycle();
      res.last_out = drv.cycle();
    }
    if (!tb::edge_with_dram(drv, dram, req_fire, req, rsp_fire, res.report)) break;
    if (src.done() && out.done() && dut.idle_o && dram.outstanding() == 0) {
      // Nothing more may come out, and no further read may be issued (cycles not counted).
      const bool extra = drv.more_after_end(
          16,
          [&] {
            dut.in_valid_i = 0;
            MemPortRsp idle;
            idle.req_ready = 1;
            tb::pack_sig(idle, dut.mem_i);
            dut.out_ready_i = 1;
          },
          [&] { return dut.out_valid_o || tb::unpack_sig<MemPortReq>(dut.mem_o).valid; });
      res.ok = !extra && out.finish(rep);
      res.report = extra ? "EXTRA OUTPUT OR READ test=" + test + " seed=" + std::to_string(seed) : rep;
      break;
    }
    if (drv.stalled()) {
      res.report = drv.no_progress_report(src.progress("inputs") + ", " + out.progress("outputs"));
      break;
    }
  }
  res.cycles = drv.cycle();
  return res;
}

// Runs the model (with the cache, as the RTL is built) and the RTL under the four stall patterns:
// outputs bit for bit, line read requests equal to the model's lines_read(); then once more
// with a tenth of the bandwidth and a short latency with jitter.
model::VertexFetch check(const std::string& test, const std::vector<VFetchPkt>& in, Memory& mem, uint64_t seed) {
  model::VertexFetch vf;
  std::vector<VtxInPkt> exp;
  for (const auto& p : in) {
    for (const auto& v : vf.process(p, mem)) exp.push_back(v);
  }
  tb::LineDramConfig dram;
  dram.latency = 200;
  dram.jitter = 100;
  {
    tb::LineDramConfig slow;
    slow.latency = 20;
    slow.jitter = 30;
    slow.bytes_per_clock = 3.2;
    const VfResult r = run_vf(in, exp, seed, 0.1, 0.2, slow, mem, test + "/slow memory");
    INFO(r.report);
    REQUIRE(r.ok);
    CHECK(r.reads == vf.lines_read());
  }
  for (const auto& pat : tb::kStallPatterns) {
    const VfResult r = run_vf(in, exp, seed, pat.in_gap, pat.out_stall, dram, mem, test + "/" + pat.name);
    INFO(r.report);
    REQUIRE(r.ok);
    INFO(test << "/" << pat.name << " seed=" << seed << ": RTL line read requests " << r.reads
              << ", model predicts " << vf.lines_read());
    CHECK(r.reads == vf.lines_read());
    if (pat.in_gap == 0.0 && pat.out_stall == 0.0) {
      std::printf("  %s: %llu vertices in %llu cycles, %llu lines read (%llu line hits, %llu groups, %llu out of "
                  "bounds)\n",
                  test.c_str(), static_cast<unsigned long long>(vf.vertices()),
                  static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.reads),
                  static_cast<unsigned long long>(vf.line_hits()), static_cast<unsigned long long>(vf.groups()),
                  static_cast<unsigned long long>(vf.out_of_bounds()));
    }
  }
  return vf;
}

}  // namespace

TEST_CASE("vertex_fetch: random layouts, formats, bounds, instances, matrix writes, cache hits and evictions") {
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
  // A buffer across 2^32 (lines wrap to address 0).
  for (uint32_t k = 0; k < 64; ++k) mem.write32(0xFFFFFF00u + 4 * k, 0x40000000u + k);
  std::vector<VFetchPkt> in;
  for (int layout = 0; layout < 40; ++layout) {
    // Bases: dword aligned but rarely line aligned, sometimes not even dword aligned (the low
    // bits are ignored; the cache rule uses the byte address).
    const uint32_t b0 = g.chance(0.1) ? 0xFFFFFF00u + 4 * static_cast<uint32_t>(g.range(0, 8))
                                      : vb0 + 4 * static_cast<uint32_t>(g.range(0, 8)) +
                                            (g.chance(0.1) ? static_cast<uint32_t>(g.range(1, 3)) : 0u);
    in.push_back(wr(FE_VB0_BASE, b0));
    in.push_back(wr(FE_VB0_STRIDE, 4 * static_cast<uint32_t>(g.range(0, 12))));
    in.push_back(wr(FE_VB0_SIZE, b0 >= 0xFFFFFF00u ? static_cast<uint32_t>(g.range(0, 220))
                                                   : static_cast<uint32_t>(g.range(0, 3000))));
    in.push_back(wr(FE_VB1_BASE, vb1 + 4 * static_cast<uint32_t>(g.range(0, 4))));
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
    // Index patterns: random (few hits), sequential (neighbours share lines), a small range
    // (many hits, also on lines still in flight), far apart (aliasing sets: evictions).
    const int pattern = static_cast<int>(g.range(0, 3));
    const uint32_t nv = static_cast<uint32_t>(g.range(1, 80));
    const uint32_t start = static_cast<uint32_t>(g.range(0, 200));
    for (uint32_t v = 0; v < nv; ++v) {
      VFetchPkt p;
      switch (pattern) {
        case 0: p.index = static_cast<uint32_t>(g.range(0, 300)); break;
        case 1: p.index = start + v; break;
        case 2: p.index = start + static_cast<uint32_t>(g.range(0, 6)); break;
        default: p.index = start + 64 * static_cast<uint32_t>(g.range(0, 3)) + static_cast<uint32_t>(g.range(0, 1)); break;
      }
      if (g.chance(0.05)) p.index = static_cast<uint32_t>(g.bits64());
      p.inst_id = static_cast<uint32_t>(g.range(0, 30));
      p.slot = v & 31u;
      p.first = (v & 31u) == 0u;
      p.draw_id = static_cast<uint32_t>(layout);
      in.push_back(p);
    }
  }
  const auto vf = check("vertex_fetch.random", in, mem, seed);
  CHECK(vf.out_of_bounds() > 0);
  CHECK(vf.line_hits() > 0);
  CHECK(vf.line_misses() > 0);
  CHECK(vf.groups() > vf.vertices());  // some vertices need more than one group
}

TEST_CASE("vertex_fetch: cache edge cases: buffer ends inside a line, two-line elements, invalidation, matrix rows") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_fetch");
  Memory mem;
  const uint32_t vb = 0x00700004u;  // not line aligned
  for (uint32_t k = 0; k < 256; ++k) mem.write32(0x00700000u + 4 * k, 0x3F800000u + k);
  std::vector<VFetchPkt> in = {wr(FE_VB0_BASE, vb), wr(FE_VB0_STRIDE, 20), wr(FE_VB0_SIZE, 20 * 10 + 8),
                               wr(FE_ATTR_POS, ATTR_FMT_F32X4), wr(FE_ATTR_COLOR, ATTR_FMT_UNORM8X4 | (16u << 16))};
  const auto vert = [](uint32_t index, uint32_t slot) {
    VFetchPkt p;
    p.index = index;
    p.slot = slot;
    return p;
  };
  // Vertex 0: its line starts before the buffer; vertices crossing a line boundary take two lines;
  // vertex 10 partly outside (position in bounds, colour not), 11 out of bounds.
  for (uint32_t v = 0; v < 12; ++v) in.push_back(vert(v, v));
  for (uint32_t v = 0; v < 12; ++v) in.push_back(vert(11 - v, v));  // again: hits
  in.push_back(wr(FE_VP_X, 0));                                        // invalidates
  for (uint32_t v = 0; v < 12; ++v) in.push_back(vert(v, v));
  in[in.size() - 12].first = 1;
  // Matrix writes between vertices (rows in order), back to back.
  in.push_back(wr(FE_MATRIX0 + 5, 0x40000000u));
  in.push_back(wr(FE_MATRIX0 + 6, 0x40400000u));
  in.push_back(vert(3, 0));
  in.push_back(wr(FE_MATRIX0 + 15, 0xBF800000u));
  // Position and texture coordinates 200 bytes apart: two groups per vertex; tex1 in the second
  // buffer: three.
  in.push_back(wr(FE_VB0_STRIDE, 8));
  in.push_back(wr(FE_VB0_SIZE, 1000));
  in.push_back(wr(FE_VB1_BASE, 0x00700300u));
  in.push_back(wr(FE_VB1_STRIDE, 12));
  in.push_back(wr(FE_VB1_SIZE, 1000));
  in.push_back(wr(FE_ATTR_POS, ATTR_FMT_F32X2));
  in.push_back(wr(FE_ATTR_COLOR, 0));
  in.push_back(wr(FE_ATTR_TEX0, ATTR_FMT_F32X2 | (200u << 16)));
  in.push_back(wr(FE_ATTR_TEX1, ATTR_FMT_F32X3 | 8u | (4u << 16)));
  for (uint32_t v = 0; v < 20; ++v) {
    VFetchPkt p = vert(v, v);
    p.inst_id = v / 3;
    p.first = v == 0;
    p.draw_id = 1;
    in.push_back(p);
  }
  const auto vf = check("vertex_fetch.cache_edges", in, mem, seed);
  CHECK(vf.line_hits() > 0);
  CHECK(vf.groups() == vf.vertices() + 40);  // the last 20 vertices: three groups each
  // Without the cache the same stream reads more lines.
  model::VertexFetch nc(false);
  for (const auto& p : in) nc.process(p, mem);
  CHECK(nc.line_hits() == 0u);
  CHECK(nc.lines_read() > vf.lines_read());
}

namespace {

// The vertex stream of the 24 x 24 grid list (docs/frontend.md §3) through the model's vertex
// tags, with F32x4 position + UNORM8x4 colour + 2 x F32x2 in one 36-byte vertex.
std::vector<VFetchPkt> grid_stream(Memory& mem, uint32_t n) {
  const uint32_t vb0 = 0x00500000u;
  for (uint32_t k = 0; k < 9 * n * n; ++k) mem.write32(vb0 + 4 * k, 0x3F800000u + k);
  std::vector<VFetchPkt> in = {wr(FE_VB0_BASE, vb0), wr(FE_VB0_STRIDE, 36), wr(FE_VB0_SIZE, 36 * n * n),
                               wr(FE_ATTR_POS, ATTR_FMT_F32X4), wr(FE_ATTR_COLOR, ATTR_FMT_UNORM8X4 | (16u << 16)),
                               wr(FE_ATTR_TEX0, ATTR_FMT_F32X2 | (20u << 16)),
                               wr(FE_ATTR_TEX1, ATTR_FMT_F32X2 | (28u << 16))};
  std::vector<uint32_t> l;
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x + 1 < n; ++x) {
      const uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      for (uint32_t v : {a, b, c, c, b, d}) l.push_back(v);
    }
  }
  model::VertexTags tags;
  for (size_t k = 0; k < l.size(); ++k) {
    IndexPkt p;
    p.index = l[k];
    p.last = k + 1 == l.size();
    tags.process(p, [&in](const VFetchPkt& v) { in.push_back(v); }, [](const PrimPkt&) {});
  }
  return in;
}

void bench(const std::string& name, const std::vector<VFetchPkt>& in, Memory& mem) {
  model::VertexFetch vf, nc(false);
  std::vector<VtxInPkt> exp;
  for (const auto& p : in) {
    for (const auto& v : vf.process(p, mem)) exp.push_back(v);
    nc.process(p, mem);
  }
  tb::LineDramConfig dram;  // 200 cycles, 32 bytes per clock
  const VfResult r = run_vf(in, exp, 1, 0.0, 0.0, dram, mem, name);
  INFO(r.report);
  REQUIRE(r.ok);
  CHECK(r.reads == vf.lines_read());
  const double nv = static_cast<double>(vf.vertices());
  std::printf("%s: %llu vertices in %llu cycles = %.3f vertices/clock; %llu lines read = %.2f bytes per vertex "
              "(%.1f %% of lines hit; without the cache %llu lines)\n",
              name.c_str(), static_cast<unsigned long long>(vf.vertices()), static_cast<unsigned long long>(r.cycles),
              nv / static_cast<double>(r.cycles), static_cast<unsigned long long>(r.reads),
              64.0 * static_cast<double>(r.reads) / nv,
              100.0 * static_cast<double>(vf.line_hits()) / static_cast<double>(vf.line_hits() + vf.line_misses()),
              static_cast<unsigned long long>(nc.lines_read()));
  // The rate once the first vertex is out (the first memory round trip excluded): what the unit
  // sustains on the stream.
  const uint64_t span = r.last_out - r.first_out + 1;
  std::printf("%s: first vertex out at cycle %llu; then %llu outputs in %llu cycles = %.3f per clock\n",
              name.c_str(), static_cast<unsigned long long>(r.first_out), static_cast<unsigned long long>(r.outs),
              static_cast<unsigned long long>(span), static_cast<double>(r.outs) / static_cast<double>(span));
}

}  // namespace

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
    p.first = (v & 31u) == 0u;
    in.push_back(p);
  }
  bench("vertex_fetch.bench sequential 4096", in, mem);
}

TEST_CASE("vertex_fetch: bench, 24 x 24 grid list through the vertex tags", "[.bench]") {
  Memory mem;
  bench("vertex_fetch.bench grid 24x24", grid_stream(mem, 24), mem);
}

TEST_CASE("vertex_fetch: bench, 64 x 64 grid list through the vertex tags", "[.bench]") {
  Memory mem;
  bench("vertex_fetch.bench grid 64x64", grid_stream(mem, 64), mem);
}
