// SPDX-License-Identifier: Apache-2.0
// RTL vs model: vertex cache tags (rtl/ia/vertex_tags.sv vs cpp_model/ia/vertex_tags). The unit
// has two output streams (vertices to fetch, triangles by slot); both see random back-pressure
// and are compared packet by packet. Front-end state writes in the input close the batch and
// come out on both streams.
#define CATCH_CONFIG_MAIN
#include "Vvertex_tags.h"
#include "ia/vertex_tags.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct Result {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
};

Result run_bench(const std::vector<IndexPkt>& in, const std::vector<VFetchPkt>& exp_v,
                 const std::vector<PrimPkt>& exp_p, uint64_t seed, double in_gap, double out_stall,
                 const std::string& test) {
  Result res;
  tb::DriverConfig cfg;
  cfg.run = {test, seed, "build/tests/rtl_vertex_tags --rng-seed " + std::to_string(seed)};
  cfg.stall_timeout = 10000;
  tb::VlDriver<Vvertex_tags> drv(cfg);
  Vvertex_tags& dut = drv.dut();
  // Mismatch reports name a state write as such (locate() shows only draw, index and slot).
  const auto wr_v = [](const VFetchPkt& p) {
    return p.wr ? "state write [" + std::to_string(p.wr_idx) + "]=" + std::to_string(p.wr_val) : std::string();
  };
  const auto wr_p = [](const PrimPkt& p) {
    return p.wr ? "state write [" + std::to_string(p.wr_idx) + "]=" + std::to_string(p.wr_val)
                : p.eop ? std::string("end-of-pipe token") : std::string();
  };
  tb::StreamSource<IndexPkt> src(in, in_gap);
  tb::StreamSink<VFetchPkt> vtx("vtx", exp_v, drv.run(), out_stall, wr_v);
  tb::StreamSink<PrimPkt> prim("prim", exp_p, drv.run(), out_stall, wr_p);
  dut.in_valid_i = 0;
  dut.vtx_ready_i = 0;
  dut.prim_ready_i = 0;
  drv.reset();
  while (true) {
    src.drive(drv.rng(), dut.in_valid_i, dut.in_i);
    dut.vtx_ready_i = vtx.ready(drv.rng());
    dut.prim_ready_i = prim.ready(drv.rng());
    drv.eval_low();
    const bool in_fire = src.fire(dut.in_ready_o);
    bool v_fire = false, p_fire = false;
    std::string rep;
    if (!vtx.take(dut.vtx_valid_o, dut.vtx_ready_i, dut.vtx_o, drv.cycle(), rep, &v_fire) ||
        !prim.take(dut.prim_valid_o, dut.prim_ready_i, dut.prim_o, drv.cycle(), rep, &p_fire)) {
      res.report = rep;
      break;
    }
    if (in_fire || v_fire || p_fire) drv.progress();
    drv.edge();
    if (drv.failed()) {
      res.report = drv.assertion_report();
      break;
    }
    if (src.done() && vtx.done() && prim.done() && dut.idle_o) {
      res.ok = vtx.finish(rep) && prim.finish(rep);
      res.report = rep;
      break;
    }
    if (drv.stalled()) {
      res.report = drv.no_progress_report(src.progress("inputs") + ", " + vtx.progress("vertices") + ", " +
                                          prim.progress("triangles"));
      break;
    }
  }
  res.cycles = drv.cycle();
  return res;
}

void check(const std::string& test, const std::vector<IndexPkt>& in, uint64_t seed) {
  model::VertexTags tags;
  std::vector<VFetchPkt> ev;
  std::vector<PrimPkt> ep;
  for (const auto& p : in) {
    tags.process(p, [&ev](const VFetchPkt& v) { ev.push_back(v); }, [&ep](const PrimPkt& t) { ep.push_back(t); });
  }
  for (const auto& pat : tb::kStallPatterns) {
    const Result r = run_bench(in, ev, ep, seed, pat.in_gap, pat.out_stall, test + "/" + pat.name);
    INFO(r.report);
    REQUIRE(r.ok);
    if (pat.in_gap == 0.0 && pat.out_stall == 0.0) {
      std::printf("  %s: %zu input packets -> %llu vertices, %llu triangles (%llu batches, %llu state writes) in %llu "
                  "cycles: %.3f inputs/clock\n",
                  test.c_str(), in.size(), static_cast<unsigned long long>(tags.vertices()),
                  static_cast<unsigned long long>(tags.triangles()), static_cast<unsigned long long>(tags.batches()),
                  static_cast<unsigned long long>(tags.writes()),
                  static_cast<unsigned long long>(r.cycles), static_cast<double>(in.size()) / static_cast<double>(r.cycles));
    }
  }
}

IndexPkt wr(uint32_t i, uint32_t v) {
  IndexPkt p;
  p.wr = 1;
  p.wr_idx = i;
  p.wr_val = v;
  return p;
}

IndexPkt idx(uint32_t v, bool strip, bool last, uint32_t draw = 0) {
  IndexPkt p;
  p.index = v;
  p.strip = strip;
  p.last = last;
  p.draw_id = draw;
  return p;
}

}  // namespace

TEST_CASE("vertex_tags: random lists and strips with cuts, repeats, instances, tokens and state writes") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_tags");
  tb::PrimGen g(seed);
  std::vector<IndexPkt> in;
  const auto rand_wr = [&g]() {
    return wr(static_cast<uint32_t>(g.range(NUM_STATE, FE_STATE_END - 1)), static_cast<uint32_t>(g.bits64()));
  };
  for (int d = 0; d < 60; ++d) {
    g.maybe_token(in, 0.1);
    while (g.chance(0.3)) {  // state writes between draws, as the CP sends them
      in.push_back(rand_wr());
      g.maybe_token(in, 0.1);
    }
    const bool strip = g.chance(0.5);
    const uint32_t range = static_cast<uint32_t>(g.range(1, 120));
    const uint32_t count = static_cast<uint32_t>(g.range(0, 200));
    const uint32_t inst = static_cast<uint32_t>(g.range(1, 2));
    for (uint32_t i = 0; i < inst; ++i) {
      for (uint32_t k = 0; k < count; ++k) {
        IndexPkt p = idx(static_cast<uint32_t>(g.range(0, range - 1)), strip, k + 1 == count, static_cast<uint32_t>(d));
        if (strip && g.chance(0.04)) {
          p.cut = 1;
          p.index = 0;
        }
        p.inst_id = i;
        in.push_back(p);
        // Rarely a write (or a token) in the middle of an instance: closes the batch, keeps the
        // assembly window (docs/frontend.md §3).
        if (k + 1 < count && g.chance(0.01)) in.push_back(g.chance(0.7) ? rand_wr() : tb::PrimGen::token<IndexPkt>());
      }
    }
  }
  in.push_back(tb::PrimGen::token<IndexPkt>());
  size_t nw = 0;
  for (const auto& p : in) nw += p.wr ? 1 : 0;
  std::printf("  %zu state writes in the input\n", nw);
  CHECK(nw > 0);
  check("vertex_tags.random", in, seed);
}

TEST_CASE("vertex_tags: state writes between draws, back to back, mid-strip, after a token") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_tags");
  std::vector<IndexPkt> in;
  in.push_back(wr(FE_VB0_BASE, 0x1000));  // before anything: no batch to close
  in.push_back(wr(FE_VB0_SIZE, 0x2000));  // back to back
  for (uint32_t k = 0; k < 9; ++k) in.push_back(idx(k, false, k == 8, 1));
  in.push_back(wr(FE_ATTR_POS, 4));       // between draws (the batch is already closed)
  for (uint32_t k = 0; k < 12; ++k) {     // a strip with a write after its 5th index
    in.push_back(idx(k % 7, true, k == 11, 2));
    if (k == 4) in.push_back(wr(FE_MATRIX0 + 3, 0x3F800000u));
  }
  for (uint32_t k = 0; k < 8; ++k) {      // a list with a write between a triangle's 1st and 2nd index
    in.push_back(idx(100 + k, false, k == 7, 3));
    if (k == 3) in.push_back(wr(FE_RASTER, 2));
  }
  in.push_back(tb::PrimGen::token<IndexPkt>());
  in.push_back(wr(FE_VP_X, 5));           // after a token
  model::VertexTags tags;
  std::vector<VFetchPkt> ev;
  std::vector<PrimPkt> ep;
  for (const auto& p : in) {
    tags.process(p, [&ev](const VFetchPkt& v) { ev.push_back(v); }, [&ep](const PrimPkt& t) { ep.push_back(t); });
  }
  CHECK(tags.writes() == 6u);
  CHECK(tags.triangles() == 3u + 10u + 2u);
  REQUIRE(ev.size() >= 2);
  CHECK(ev[0].wr == 1u);
  CHECK(ev[1].wr == 1u);
  CHECK(ep.back().wr == 1u);
  CHECK(ep.back().wr_idx == FE_VP_X);
  check("vertex_tags.writes", in, seed);
}

TEST_CASE("vertex_tags: a grid as a list and as strips; all-new triangles; degenerate triangles") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_tags");
  const uint32_t n = 24;
  std::vector<IndexPkt> list, strips, fresh, degen;
  std::vector<uint32_t> l;
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x + 1 < n; ++x) {
      const uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      for (uint32_t v : {a, b, c, c, b, d}) l.push_back(v);
    }
  }
  for (size_t k = 0; k < l.size(); ++k) list.push_back(idx(l[k], false, k + 1 == l.size()));
  // One strip per row, separated by cuts.
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      strips.push_back(idx(y * n + x, true, false));
      strips.push_back(idx((y + 1) * n + x, true, false));
    }
    IndexPkt cut = idx(0, true, y + 2 == n);
    cut.cut = 1;
    strips.push_back(cut);
  }
  for (uint32_t k = 0; k < 3 * 400; ++k) fresh.push_back(idx(k, false, k + 1 == 3 * 400));
  for (uint32_t k = 0; k < 300; ++k) degen.push_back(idx(k / 2 % 7, k % 5 != 0, k + 1 == 300));
  check("vertex_tags.grid_list", list, seed);
  check("vertex_tags.grid_strips", strips, seed);
  check("vertex_tags.all_misses", fresh, seed);
  check("vertex_tags.degenerate", degen, seed);
  // 500 triangles over 6 vertices: every reference hits after the first few, so only the
  // VTX_BATCH_TRIS cap closes batches (8 batches, the last with 52 triangles).
  std::vector<IndexPkt> reuse;
  for (uint32_t k = 0; k < 3 * 500; ++k) reuse.push_back(idx((k * 7 + k / 3) % 6, false, k + 1 == 3 * 500));
  std::vector<VFetchPkt> vv;
  std::vector<PrimPkt> pp;
  model::VertexTags vt;
  for (const auto& p : reuse) vt.process(p, [&](const VFetchPkt& v) { vv.push_back(v); }, [&](const PrimPkt& t) { pp.push_back(t); });
  CHECK(vt.batches() == 8u);
  uint32_t in_batch = 0;
  for (const auto& t : pp) {
    ++in_batch;
    CHECK(in_batch <= VTX_BATCH_TRIS);
    if (t.last) in_batch = 0;
  }
  check("vertex_tags.batch_triangle_cap", reuse, seed);
}
