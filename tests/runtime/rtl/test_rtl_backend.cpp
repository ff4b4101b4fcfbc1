// SPDX-License-Identifier: Apache-2.0
// The same runtime-built scene on the golden model and on the Verilated RTL: bit-identical memory.
#include <catch2/catch.hpp>

#include "rt_test_util.h"
#include "rtl_backend.h"
#include "runtime.h"
#include "tex_pipe_scene.h"
#include "top/pineda_top.h"

using namespace pineda;
using namespace pineda::rt;

namespace {
// Draws one scene with `draw` (Device& -> a result with .ok) on `golden` and on `rtl`, each on
// its own device: the golden result in *g, the RTL's in *r (the RTL device must not be lost).
template <typename Result, typename Draw>
void draw_on_both(GoldenBackend& golden, RtlBackend& rtl, const Draw& draw, Result* g, Result* r) {
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(60000);
  {
    Device dev(golden, dd);
    *g = draw(dev);
    REQUIRE(g->ok);
  }
  {
    Device dev(rtl, dd);
    *r = draw(dev);
    INFO(dev.last_error());
    REQUIRE(r->ok);
    CHECK_FALSE(dev.lost());
  }
}

// A scene with one faulting view: TEX_FAULT was clear before it and set after it (with its
// interrupt, and no CP error), and the whole memory equals the golden model's.
template <typename Result>
void check_tex_fault_and_memory(const Result& r, GoldenBackend& golden, RtlBackend& rtl) {
  CHECK((r.status_before >> STATUS_TEX_FAULT & 1u) == 0u);
  CHECK((r.status_after >> STATUS_TEX_FAULT & 1u) == 1u);
  CHECK((r.status_after >> STATUS_ERROR & 1u) == 0u);
  CHECK((r.irq_after >> IRQ_TEX_FAULT & 1u) == 1u);
  const auto diff = golden.memory().first_difference(rtl.memory());
  INFO("first difference at 0x" << std::hex << (diff ? *diff : 0));
  CHECK_FALSE(diff.has_value());
}

RtlBackendConfig jittered() {
  RtlBackendConfig rc;
  rc.jitter = 50;
  rc.throttle = 0.1;
  return rc;
}
}  // namespace

TEST_CASE("the same scene built with the runtime gives bit-identical memory on golden and RTL",
          "[runtime][rtl]") {
  const bool use_call = GENERATE(true, false);
  DeviceDesc dd;
  dd.use_call = use_call;
  dd.timeout = std::chrono::milliseconds(60000);
  GoldenBackend golden;
  {
    Device dev(golden, dd);
    const int drawn = test::draw_compare_scene(dev);
    CHECK(drawn > 500);
    CHECK_FALSE(dev.lost());
  }
  RtlBackendConfig rc;
  rc.jitter = 50;
  rc.throttle = 0.1;
  RtlBackend rtl(rc);
  {
    Device dev(rtl, dd);
    CHECK(test::draw_compare_scene(dev) > 500);
    CHECK_FALSE(dev.lost());
    INFO(dev.last_error());
    CHECK(dev.stats().list_calls == (use_call ? 2u : 0u));
  }
  CHECK(golden.memory().page_count() > 0);
  const auto diff = golden.memory().first_difference(rtl.memory());
  INFO("first difference at 0x" << std::hex << (diff ? *diff : 0));
  CHECK_FALSE(diff.has_value());
  CHECK(golden.memory().digest() == rtl.memory().digest());
  CHECK(rtl.cycles() > 1000);
  WARN("RTL cycles: " << rtl.cycles());
}

TEST_CASE("RTL backend: Map READ waits for the draw's fence and sees its pixels", "[runtime][rtl]") {
  RtlBackend rtl;
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(60000);
  Device dev(rtl, dd);
  auto& ctx = dev.immediate();
  Resource* rt = test::make_rt(dev, 16, 16, 0);
  Resource* vb = test::make_vb(dev, test::tri(0, 0, 16, 0, 0, 16));
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb);
  ctx.set_color(test::rgba(1, 2, 3));
  ctx.draw_pretransformed(3, 0);
  const auto px = test::read_rt(ctx, rt);
  REQUIRE(px.size() == 256);
  CHECK(px[1 * 16 + 1] == test::rgba(1, 2, 3));
  CHECK(px[15 * 16 + 15] == 0);
  CHECK(dev.completed_fence() == dev.flushed_fence());
  ctx.clear_state();
  rt->release();
  vb->release();
}

// TEX and COMB in pineda_top (docs/comb.md section 5): point-sampled REPLACE, the alpha test,
// a trilinear minified chain and a bad descriptor (TEX fault: zero texels, STATUS.TEX_FAULT,
// the CP keeps going), bit-identical memory and the same status bits on golden and RTL.
TEST_CASE("a textured scene through TEX and COMB is bit-identical on golden and RTL, with a TEX fault",
          "[runtime][rtl][texpipe]") {
  GoldenBackend golden;
  RtlBackend rtl(jittered());
  test::TexPipeResult g, r;
  draw_on_both(golden, rtl, [](Device& dev) { return test::draw_tex_pipe_scene(dev); }, &g, &r);
  CHECK(r.replace == g.replace);
  CHECK(r.alpha == g.alpha);
  CHECK(r.mips == g.mips);
  CHECK(r.fault == g.fault);
  CHECK(r.after == g.after);
  CHECK(r.updated == g.updated);
  CHECK(r.updated == r.updated_texels);  // TEX forgot the old lines after the COPY
  CHECK(r.replace == r.texels);
  check_tex_fault_and_memory(r, golden, rtl);
  CHECK(rtl.read_reg(REG_PERF0 + PERF_TEX_QUADS) == 6u * 72u);
  CHECK(rtl.read_reg(REG_PERF0 + PERF_TEX_LINE_BYTES) > 0u);
  WARN("RTL cycles: " << rtl.cycles() << ", TEX quads " << rtl.read_reg(REG_PERF0 + PERF_TEX_QUADS) << ", samples "
                      << rtl.read_reg(REG_PERF0 + PERF_TEX_SAMPLES) << ", texels " << rtl.read_reg(REG_PERF0 + PERF_TEX_TEXELS)
                      << ", lines " << rtl.read_reg(REG_PERF0 + PERF_TEX_LINES) << ", line bytes "
                      << rtl.read_reg(REG_PERF0 + PERF_TEX_LINE_BYTES));
}

// Both combiner stages (docs/comb.md section 5): stage 0 MODULATE of slot 0 (uv0) and every
// stage-1 op of slot 1 (uv1: a lightmap mirrored and repeated), a deferred context's list with
// another lightmap, a bilinear lightmap, a TEX fault in stage 1 only; every image, the status
// bits and the whole memory equal the golden model's, and the stage-1 pixels are the lightmap's
// (REPLACE), so a stage 1 that sampled nothing or the wrong coordinates would fail on both.
TEST_CASE("two textures through both combiner stages are bit-identical on golden and RTL", "[runtime][rtl][texpipe]") {
  GoldenBackend golden;
  RtlBackend rtl(jittered());
  test::DualTexResult g, r;
  draw_on_both(golden, rtl, [](Device& dev) { return test::draw_dual_tex_scene(dev); }, &g, &r);
  for (size_t k = 0; k < r.ops.size(); ++k) {
    INFO("stage-1 op " << k);
    CHECK(r.ops[k] == g.ops[k]);
  }
  CHECK(r.deferred == g.deferred);
  CHECK(r.bilinear == g.bilinear);
  CHECK(r.fault == g.fault);
  CHECK(r.fault == r.ops[4]);  // stage 1 faulted: DECAL of texel 0 passes stage 0's result
  // stage 1 REPLACE shows the lightmap texel at uv1 in every pixel
  REQUIRE(r.ops[1].size() == 256);
  for (uint32_t i = 0; i < 256; ++i) CHECK(r.ops[1][i] == test::dual_tex_light_at(r.light, i % 16, i / 16));
  CHECK(r.ops[0] != r.ops[4]);  // MODULATE with the lightmap differs from stage 0 alone
  check_tex_fault_and_memory(r, golden, rtl);
  // a TEX pass per sampling stage: 7 draws with both stages, one with stage 0 only, 72 quads each
  CHECK(rtl.read_reg(REG_PERF0 + PERF_TEX_QUADS) == (7u * 2u + 1u) * 72u);
  CHECK(rtl.read_reg(REG_PERF0 + PERF_TEX_QUADS) == golden.gpu().stats().tex_quads);
  WARN("RTL cycles: " << rtl.cycles() << ", TEX passes " << rtl.read_reg(REG_PERF0 + PERF_TEX_QUADS) << ", texels "
                      << rtl.read_reg(REG_PERF0 + PERF_TEX_TEXELS) << ", lines " << rtl.read_reg(REG_PERF0 + PERF_TEX_LINES));
}
