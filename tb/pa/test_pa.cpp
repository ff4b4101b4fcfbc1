// SPDX-License-Identifier: Apache-2.0
// RTL vs model: primitive assembly (rtl/pa/pa.sv vs cpp_model/pa). Two input streams (clip-space
// vertices, triangles by slot with state writes and tokens), each offered with random gaps, and
// one output with random back-pressure, compared packet by packet.
#define CATCH_CONFIG_MAIN
#include "Vpa.h"
#include "pa/pa.h"
#include "pa_streams.h"
#include "unit_test_main.h"

using namespace pineda;
using pa_test::P;

namespace {

struct Result {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0, clip_busy = 0, outputs = 0;
};

Result run_bench(const pa_test::Streams& s, const std::vector<PaTriPkt>& exp, uint64_t seed, double in_gap,
                 double out_stall, const std::string& test) {
  Result res;
  tb::DriverConfig cfg;
  cfg.run = {test, seed, "build/tests/rtl_pa --rng-seed " + std::to_string(seed)};
  cfg.stall_timeout = 20000;
  tb::VlDriver<Vpa> drv(cfg);
  Vpa& dut = drv.dut();
  tb::StreamSource<ClipVtxPkt> vtx(s.vtx, in_gap);
  tb::StreamSource<PrimPkt> prim(s.prims, in_gap);
  tb::StreamSink<PaTriPkt> out("pa_tri", exp, drv.run(), out_stall);
  dut.vtx_valid_i = 0;
  dut.prim_valid_i = 0;
  dut.out_ready_i = 0;
  drv.reset();
  while (true) {
    vtx.drive(drv.rng(), dut.vtx_valid_i, dut.vtx_i);
    prim.drive(drv.rng(), dut.prim_valid_i, dut.prim_i);
    dut.out_ready_i = out.ready(drv.rng());
    drv.eval_low();
    const bool v_fire = vtx.fire(dut.vtx_ready_o), p_fire = prim.fire(dut.prim_ready_o);
    bool o_fire = false;
    res.clip_busy += dut.clip_busy_o ? 1 : 0;
    std::string rep;
    if (!out.take(dut.out_valid_o, dut.out_ready_i, dut.out_o, drv.cycle(), rep, &o_fire)) {
      res.report = rep;
      break;
    }
    if (v_fire || p_fire || o_fire) drv.progress();
    drv.edge();
    if (drv.failed()) {
      res.report = drv.assertion_report();
      break;
    }
    if (vtx.done() && prim.done() && out.done() && dut.idle_o) {
      res.ok = out.finish(rep);
      res.report = rep;
      break;
    }
    if (drv.stalled()) {
      res.report = drv.no_progress_report(vtx.progress("vertices") + ", " + prim.progress("prims") + ", " +
                                          out.progress("out"));
      break;
    }
  }
  res.cycles = drv.cycle();
  res.outputs = out.count();
  return res;
}

void check(const std::string& test, const pa_test::Streams& s, uint64_t seed, bool print = false) {
  model::PrimitiveAssembly pa;
  const std::vector<PaTriPkt> exp = model::run_pa(s.vtx, s.prims, &pa);
  for (const auto& pat : tb::kStallPatterns) {
    const Result r = run_bench(s, exp, seed, pat.in_gap, pat.out_stall, test + "/" + pat.name);
    INFO(r.report);
    REQUIRE(r.ok);
    if (print && pat.in_gap == 0.0 && pat.out_stall == 0.0) {
      std::printf("  %s: %llu prims (%llu clipped) -> %zu packets in %llu cycles: %.4f triangles/clock, clipper busy %.1f%%\n",
                  test.c_str(), static_cast<unsigned long long>(pa.stats().prims),
                  static_cast<unsigned long long>(pa.stats().clipped), exp.size(),
                  static_cast<unsigned long long>(r.cycles),
                  static_cast<double>(pa.stats().tris_out) / static_cast<double>(r.cycles),
                  100.0 * static_cast<double>(r.clip_busy) / static_cast<double>(r.cycles));
    }
  }
}

}  // namespace

TEST_CASE("pa: random batches, clipping, culling, state writes and tokens") {
  const uint64_t seed = tb::announce_seed("rtl_pa");
  for (int k = 0; k < 4; ++k) check("random" + std::to_string(k), pa_test::random_streams(seed + static_cast<uint64_t>(k), 25), seed + static_cast<uint64_t>(k));
}

TEST_CASE("pa: directed clip cases") {
  const uint64_t seed = tb::announce_seed("rtl_pa");
  pa_test::Streams s;
  s.viewport(0, 0, 256, 256, 256, 256);
  const float W = 1.0f;
  s.tri(P(-0.5f, -0.5f, 0.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));      // inside
  s.tri(P(-0.5f, -0.5f, -0.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));     // one out near
  s.tri(P(-0.5f, -0.5f, -0.5f, W), P(0.5f, -0.5f, -0.2f, W), P(0.0f, 0.5f, 0.5f, W));    // two out near
  s.tri(P(-0.5f, -0.5f, 1.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));      // one out far
  s.tri(P(-0.5f, -0.5f, 1.5f, W), P(0.5f, -0.5f, 1.2f, W), P(0.0f, 0.5f, 0.5f, W));      // two out far
  s.tri(P(-3.0f, -0.5f, 0.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));      // left guard band
  s.tri(P(-0.5f, -0.5f, 0.5f, W), P(5.0f, -0.5f, 0.5f, W), P(4.0f, 0.5f, 0.5f, W));      // right, two out
  s.tri(P(-0.5f, -3.5f, 0.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));      // bottom
  s.tri(P(-0.5f, -0.5f, 0.5f, W), P(0.5f, 9.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));       // top
  s.tri(P(-1.5f, -0.5f, 0.5f, W), P(1.5f, -0.5f, 0.5f, W), P(0.0f, 1.9f, 0.5f, W));      // beyond the viewport, inside the band
  s.tri(P(-9.0f, -9.0f, 0.5f, W), P(9.0f, -9.0f, 0.5f, W), P(0.0f, 9.0f, 0.5f, W));      // spans the band on every side
  s.tri(P(-9.0f, -9.0f, -0.5f, 0.1f), P(9.0f, -9.0f, 2.5f, 2.0f), P(0.0f, 9.0f, 0.5f, -1.0f));  // every plane
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(0.5f, -0.5f, 0.5f, 1e-7f), P(0.0f, 0.5f, 0.5f, 1.0f));   // w ~ 0
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(0.5f, -0.5f, 0.0f, 0.0f), P(0.0f, 0.5f, 0.5f, 1.0f));    // w = 0
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(0.5f, -0.5f, 0.5f, -1.0f), P(0.0f, 0.5f, -0.5f, -1.0f)); // behind the eye
  s.tri(P(-0.001f, -0.5f, -1e-3f, 1.0f), P(0.001f, -0.5f, 1e-3f, 1.0f), P(0.0f, 0.9f, -2e-3f, 1.0f));  // sliver across near
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(std::nanf(""), -0.5f, 0.5f, 1.0f), P(0.0f, 0.5f, 0.5f, 1.0f));  // NaN
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(INFINITY, -0.5f, 0.5f, 1.0f), P(0.0f, 0.5f, 0.5f, 1.0f));      // +Inf x
  s.tri(P(-0.5f, -0.5f, 0.5f, 1.0f), P(0.5f, -0.5f, 0.5f, INFINITY), P(0.0f, 0.5f, 0.5f, 1.0f));      // +Inf w
  s.tri(P(0, 0, 0, 0), P(0, 0, 0, 0), P(0, 0, 0, 0));                                                  // degenerate
  s.tri(P(-1e38f, -1e38f, 0.5f, W), P(3e38f, -1e38f, 0.5f, W), P(-1e38f, 3e38f, 0.5f, W));  // |dI - dO| > 2^126 (issue 12)
  s.tri(P(-3e38f, -3e38f, 0.5f, W), P(3e38f, -3e38f, 0.5f, W), P(-3e38f, 3e38f, 0.5f, W));  // dI - dO overflows
  s.wr(FE_RASTER, 8);  // depth clip off
  s.tri(P(-0.5f, -0.5f, -0.5f, W), P(0.5f, -0.5f, 2.5f, W), P(0.0f, 0.5f, 0.5f, W));
  for (uint32_t r = 0; r < 8; ++r) {  // culling modes and winding
    s.wr(FE_RASTER, r);
    s.tri(P(-0.5f, -0.5f, 0.5f, W), P(0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W));
    s.tri(P(-0.5f, -0.5f, 0.5f, W), P(0.0f, 0.5f, 0.5f, W), P(0.5f, -0.5f, 0.5f, W));
    s.token();
  }
  s.wr(FE_RASTER, 0);
  s.tri(P(0.1f, 0.1f, 0.5f, W), P(0.101f, 0.1f, 0.5f, W), P(0.1f, 0.101f, 0.5f, W));  // between sample centres
  s.token();
  // Issue 12: a sliver that covers one 4x sample and no pixel centre (64x64 viewport, 16.8
  // positions (14098,1696) (14117,2577) (14053,2555): x = X/8192 - 1, y = 1 - Y/8192).
  s.viewport(0, 0, 64, 64, 64, 64, true);
  s.tri(P(14098 / 8192.0f - 1, 1 - 1696 / 8192.0f, 0.5f, W), P(14117 / 8192.0f - 1, 1 - 2577 / 8192.0f, 0.5f, W),
        P(14053 / 8192.0f - 1, 1 - 2555 / 8192.0f, 0.5f, W));
  s.token();
  model::PrimitiveAssembly pa;
  const auto exp = model::run_pa(s.vtx, s.prims, &pa);
  CHECK(pa.stats().clipped >= 10);
  CHECK(pa.stats().nan >= 1);
  CHECK(pa.stats().culled_face == 4);  // modes 1, 2, 5, 6 cull one of the pair
  CHECK(pa.stats().culled_empty >= 1);
  check("directed", s, seed);
}

// The fast path (unclipped triangles: cached projections) and the slow path (the clipping
// sequencer) interleaved in one batch, with tokens, state writes (cull mode, depth clip, target
// and MSAA, and viewport writes inside and between batches, while the next bank is already
// loaded and projected) between them.
TEST_CASE("pa: fast and slow paths interleaved, viewport writes while banks are projected") {
  const uint64_t seed = tb::announce_seed("rtl_pa");
  pa_test::Streams s;
  s.viewport(0, 0, 256, 256, 256, 256);
  auto ins = [&](size_t at, uint32_t idx, uint32_t val) {
    PrimPkt w;
    w.wr = 1;
    w.wr_idx = idx;
    w.wr_val = val;
    s.prims.insert(s.prims.begin() + static_cast<long>(at), w);
  };
  auto ins_token = [&](size_t at) {
    PrimPkt e;
    e.eop = 1;
    s.prims.insert(s.prims.begin() + static_cast<long>(at), e);
  };
  // slots 0..7 in view, 8 before near, 9 beyond the right guard band, 10 behind the eye,
  // 11 NaN, 12..13 beyond the right band too (12, 13 and 9 reject together)
  const std::vector<std::array<uint32_t, 4>> pos = {
      P(-0.5f, -0.5f, 0.5f, 1), P(0.5f, -0.5f, 0.5f, 1), P(0.0f, 0.5f, 0.5f, 1), P(-0.8f, 0.7f, 0.2f, 1),
      P(0.6f, 0.6f, 0.9f, 2), P(-0.3f, -0.9f, 0.1f, 0.5f), P(0.9f, 0.1f, 0.3f, 1), P(-0.9f, 0.2f, 0.7f, 1.5f),
      P(0.1f, 0.1f, -0.5f, 1), P(3.0f, 0.2f, 0.5f, 1), P(0.2f, 0.3f, 0.5f, -1), P(std::nanf(""), 0, 0.5f, 1),
      P(3.0f, -0.5f, 0.5f, 1), P(4.0f, 0.5f, 0.5f, 1)};
  const std::vector<std::array<uint32_t, 3>> tris = {
      {0, 1, 2}, {0, 1, 8}, {2, 3, 4}, {3, 4, 9}, {4, 5, 6}, {9, 12, 13}, {5, 6, 7}, {0, 10, 1},
      {6, 7, 0}, {1, 11, 2}, {7, 0, 1}, {8, 9, 10}, {1, 2, 3}, {2, 2, 3}, {3, 1, 0}, {4, 6, 5}};
  for (int b = 0; b < 10; ++b) {
    const size_t before = s.prims.size();
    s.batch(pos, tris);
    // inside the batch: cull mode / winding / depth clip, a token, target + MSAA, and (b odd) a
    // viewport write between two triangles (outside what vertex tags sends, handled all the same)
    ins(before + 2 + static_cast<size_t>(b % 5), FE_RASTER, static_cast<uint32_t>(b * 3) & 15u);
    ins_token(before + 5 + static_cast<size_t>(b % 3));
    ins(before + 9, FE_RT_PITCH, (b & 2) ? (0x10000u | 4096u) : 1024u);
    if (b & 1) ins(before + 11, FE_VP_X, pa_test::fb(static_cast<float>(b)));
    // between batches: a new viewport (the next batch's vertices are already in, projected with
    // the old one), sometimes only a depth range
    if (b % 3 == 2) {
      s.wr(FE_VP_ZMIN, pa_test::fb(0.25f));
      s.wr(FE_VP_ZMAX, pa_test::fb(0.75f));
    } else {
      s.viewport(static_cast<float>(b * 7), static_cast<float>(b * 3), 200.0f + static_cast<float>(b * 11),
                 180.0f + static_cast<float>(b * 5), 512, 512, (b & 1) != 0);
    }
    if (b % 4 == 3) s.token();
  }
  // single-triangle batches, each after a viewport write: the cache is emptied again and again
  for (int b = 0; b < 12; ++b) {
    s.wr(FE_VP_W, pa_test::fb(100.0f + static_cast<float>(b * 13)));
    s.tri(P(-0.5f, -0.5f, 0.5f, 1), P(0.5f, -0.5f + 0.01f * static_cast<float>(b), 0.5f, 1), P(0.0f, 0.5f, 0.5f, 1));
    if (b % 3 == 0) s.tri(P(-0.5f, -0.5f, -0.5f, 1), P(0.5f, -0.5f, 0.5f, 1), P(0.0f, 0.5f, 0.5f, 1));
  }
  // full batches of distinct vertices whose few triangles use the first slots only: a batch is
  // done (its bank freed and loaded again) while the rest of it is still being projected
  for (int b = 0; b < 8; ++b) {
    std::vector<std::array<uint32_t, 4>> p32;
    for (int i = 0; i < 32; ++i) {
      const float f = static_cast<float>(b * 32 + i);
      p32.push_back(P(-0.8f + 0.005f * f, -0.7f + 0.0037f * f, 0.3f + 0.001f * f, 1.0f + 0.01f * f));
    }
    if (b % 4 == 3) {
      s.batch(p32, {{0, 1, 2}, {2, 1, 3}, {0, 5, 1}});
    } else {
      s.batch(p32, {{0, 1, 2}});
    }
  }
  s.token();
  model::PrimitiveAssembly pa;
  const auto exp = model::run_pa(s.vtx, s.prims, &pa);
  CHECK(pa.stats().clipped >= 20);
  CHECK(pa.stats().rejected >= 10);
  CHECK(pa.stats().nan >= 10);
  CHECK(pa.stats().tris_out >= 100);
  bool msaa0 = false, msaa1 = false;
  for (const auto& t : exp) {
    if (t.eop) continue;
    msaa0 = msaa0 || t.target.msaa == 0;
    msaa1 = msaa1 || t.target.msaa == 1;
  }
  CHECK(msaa0);
  CHECK(msaa1);
  check("fast/slow", s, seed);
  for (uint64_t k = 1; k < 4; ++k) check("fast/slow", s, seed + k);
}

TEST_CASE("pa: throughput and clipper occupancy", "[.bench]") {
  const uint64_t seed = tb::announce_seed("rtl_pa");
  pa_test::Streams in_view, mixed;
  in_view.viewport(0, 0, 640, 480, 640, 480);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-0.9f, 0.9f);
  for (int b = 0; b < 40; ++b) {  // a 4x4-vertex grid patch per batch, 18 triangles, none clipped
    std::vector<std::array<uint32_t, 4>> pos;
    const float ox = u(rng), oy = u(rng);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) pos.push_back(P(ox * 0.5f + 0.1f * static_cast<float>(i), oy * 0.5f + 0.1f * static_cast<float>(j), 0.5f, 1.0f));
    std::vector<std::array<uint32_t, 3>> tris;
    for (uint32_t j = 0; j < 3; ++j)
      for (uint32_t i = 0; i < 3; ++i) {
        const uint32_t a = j * 4 + i;
        tris.push_back({a, a + 1, a + 4});
        tris.push_back({a + 1, a + 5, a + 4});
      }
    in_view.batch(pos, tris);
  }
  check("bench/in-view grid", in_view, seed, true);
  {  // the same with a viewport write before every batch (the next bank is projected again)
    pa_test::Streams vp;
    size_t b = 0, nv = 0;
    for (const auto& p : in_view.prims) {
      if (!p.wr && !p.eop && nv == 0) vp.wr(FE_VP_X, pa_test::fb(static_cast<float>(b++ % 7)));
      vp.prims.push_back(p);
      nv = p.last ? 0 : nv + 1;
    }
    vp.vtx = in_view.vtx;
    check("bench/in-view grid, viewport write per batch", vp, seed, true);
  }
  check("bench/random (30% clipped)", pa_test::random_streams(seed, 60), seed, true);
}
