// SPDX-License-Identifier: Apache-2.0
// Equivalence of the two kinds of draw (issue 12, defect 3): a front-end draw (OP_DRAW_FE) of a
// triangle whose screen positions are exactly representable in FP32 and 16.8, and the
// pre-transformed draw (OP_DRAW) of those snapped positions, must cover the same samples, at 1x
// and at 4x MSAA, on the golden model. PA's cull must therefore use exactly SETUP's sample box.
//
// Exactness: identity transform, w = 1, viewport (0, 0, V, V) with V a power of two. For a
// screen position X (16.8), clip x = X / (128 V) - 1 and y = 1 - Y / (128 V) are exact floats,
// and the projection (x + 1) * V/2 and (1 - y) * V/2 gives X back exactly.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

constexpr uint32_t RT = 64;  // the render target, RT x RT pixels

struct Tri {
  int32_t x[3], y[3];  // 16.8
};

struct Renderer {
  GoldenBackend be;
  Device dev{be, DeviceDesc{}};
  ImmediateContext& ctx = dev.immediate();
  InputLayout layout;

  Renderer() {
    REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &layout) == Result::OK);
  }

  // Every byte of the render target (all samples), after one draw on a cleared target.
  std::vector<uint8_t> render(const Tri& t, uint32_t samples, uint32_t viewport, bool front_end) {
    TextureDesc td;
    td.width = td.height = RT;
    td.samples = samples;
    td.bind = BIND_RENDER_TARGET;
    std::vector<uint32_t> clear(static_cast<size_t>(RT) * RT * samples, 0);
    Resource* rt = nullptr;
    REQUIRE(dev.create_texture2d(td, clear.data(), &rt) == Result::OK);
    REQUIRE(ctx.set_render_target(rt) == Result::OK);
    Resource* vb = nullptr;
    if (front_end) {
      const double h = 128.0 * viewport;
      std::vector<float> v;
      for (int k = 0; k < 3; ++k) {
        v.push_back(static_cast<float>(t.x[k] / h - 1.0));
        v.push_back(static_cast<float>(1.0 - t.y[k] / h));
        v.push_back(0.5f);
        // Exactness of the construction (a failure here is a test bug, not a GPU bug).
        REQUIRE(static_cast<double>(v[v.size() - 3]) == t.x[k] / h - 1.0);
        REQUIRE(static_cast<double>(v[v.size() - 2]) == 1.0 - t.y[k] / h);
      }
      REQUIRE(dev.create_buffer({static_cast<uint32_t>(v.size() * 4), BIND_VERTEX_BUFFER}, v.data(), &vb) == Result::OK);
      ctx.set_input_layout(layout);
      REQUIRE(ctx.set_vertex_buffer(0, vb, 12) == Result::OK);
      const float vf = static_cast<float>(viewport);
      REQUIRE(ctx.set_viewport({0, 0, vf, vf, 0, 1}) == Result::OK);
      REQUIRE(ctx.set_rasterizer_state({CullMode::NONE, false, true}) == Result::OK);
      REQUIRE(ctx.draw(3, 0) == Result::OK);
    } else {
      std::vector<int32_t> v = {t.x[0], t.y[0], t.x[1], t.y[1], t.x[2], t.y[2]};
      vb = make_vb(dev, v);
      REQUIRE(vb);
      REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
      ctx.set_color(0xFFFFFFFFu);
      REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);
    }
    Mapped m;
    REQUIRE(ctx.map(rt, MapType::READ, 0, &m) == Result::OK);
    std::vector<uint8_t> out;
    for (uint32_t y = 0; y < RT; ++y) out.insert(out.end(), m.data + y * m.row_pitch, m.data + y * m.row_pitch + RT * 4 * samples);
    REQUIRE(ctx.unmap(rt) == Result::OK);
    ctx.clear_state();
    vb->release();
    rt->release();
    return out;
  }

  // Which samples were written (any non-zero byte of the sample).
  static std::vector<bool> covered(const std::vector<uint8_t>& px) {
    std::vector<bool> c(px.size() / 4);
    for (size_t i = 0; i < c.size(); ++i) c[i] = px[4 * i] | px[4 * i + 1] | px[4 * i + 2] | px[4 * i + 3];
    return c;
  }

  // Number of covered samples by each path; fails when they differ.
  size_t check(const Tri& t, uint32_t samples, uint32_t viewport) {
    const std::vector<bool> pt = covered(render(t, samples, viewport, false));
    const std::vector<bool> fe = covered(render(t, samples, viewport, true));
    size_t n = 0;
    for (bool b : pt) n += b;
    INFO("triangle (" << t.x[0] << "," << t.y[0] << ") (" << t.x[1] << "," << t.y[1] << ") (" << t.x[2] << ","
                      << t.y[2] << ") 16.8, " << samples << "x, viewport " << viewport << ", DRAW covers " << n
                      << " samples");
    CHECK(fe == pt);
    return n;
  }
};

uint32_t seed_of() {
  const uint32_t s = Catch::rngSeed();
  return s ? s : 0x5EED12u;
}

}  // namespace

TEST_CASE("front end: the thin 4x triangle of issue 12 is not culled", "[runtime][fe][equiv]") {
  Renderer r;
  const Tri t = {{14098, 14117, 14053}, {1696, 2577, 2555}};
  CHECK(r.check(t, 4, RT) == 1);  // one sample, through both paths
  CHECK(r.check(t, 1, RT) == 0);
}

TEST_CASE("front end: FE draws and pre-transformed draws of the snapped positions cover the same samples",
          "[runtime][fe][equiv]") {
  const uint32_t seed = seed_of();
  std::printf("[runtime_tests] fe/draw equivalence: seed=%u (replay: build/tests/runtime_tests --rng-seed %u \"[equiv]\")\n",
              seed, seed);
  std::mt19937 rng(seed);
  auto uni = [&](int32_t lo, int32_t hi) { return std::uniform_int_distribution<int32_t>(lo, hi)(rng); };
  Renderer r;
  size_t nonempty[2] = {0, 0};
  const int N = 200;  // per kind and sample count
  for (uint32_t samples : {1u, 4u}) {
    for (int kind = 0; kind < 3; ++kind) {
      for (int i = 0; i < N; ++i) {
        Tri t{};
        uint32_t vp = RT;
        const int32_t lim = static_cast<int32_t>(RT) * 256;
        if (kind == 0) {  // slivers: a long edge and a third vertex within a pixel of it
          t.x[0] = uni(0, lim), t.y[0] = uni(0, lim);
          t.x[1] = uni(0, lim), t.y[1] = uni(0, lim);
          const int32_t f = uni(0, 256);
          t.x[2] = std::min(lim, std::max(0, t.x[0] + (t.x[1] - t.x[0]) * f / 256 + uni(-200, 200)));
          t.y[2] = std::min(lim, std::max(0, t.y[0] + (t.y[1] - t.y[0]) * f / 256 + uni(-200, 200)));
        } else if (kind == 1) {  // tiny: within 2 pixels
          const int32_t cx = uni(0, lim - 512), cy = uni(0, lim - 512);
          for (int k = 0; k < 3; ++k) t.x[k] = cx + uni(0, 512), t.y[k] = cy + uni(0, 512);
        } else {  // huge: a 4096-pixel viewport, vertices anywhere in it, one near the target
          vp = 4096;
          const int32_t big = static_cast<int32_t>(vp) * 256;
          for (int k = 0; k < 3; ++k) t.x[k] = uni(0, big), t.y[k] = uni(0, big);
          t.x[0] = uni(0, lim), t.y[0] = uni(0, lim);
        }
        if (r.check(t, samples, vp)) ++nonempty[samples == 4];
      }
    }
  }
  std::printf("[runtime_tests] fe/draw equivalence: %d triangles, %zu (1x) and %zu (4x) cover samples\n", 6 * N,
              nonempty[0], nonempty[1]);
  CHECK(nonempty[0] > 100);
  CHECK(nonempty[1] > 100);
}
