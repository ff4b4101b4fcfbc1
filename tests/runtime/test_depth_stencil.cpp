// SPDX-License-Identifier: Apache-2.0
// The runtime's depth-stencil objects and clears (docs/runtime.md "Depth and stencil"):
// D24_UNORM_S8_UINT textures and views, the depth-stencil state, the stencil reference, binding a
// render target with a depth-stencil view, clear_render_target_view / clear_view /
// clear_depth_stencil_view as OP_CLEAR, depth readback through Map, hazards, invalid combinations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

uint32_t header(uint32_t op, uint32_t arg, uint32_t len) { return CommandWriter::header(op, arg, len); }
bool contains(const std::vector<uint32_t>& d, const std::vector<uint32_t>& seq) {
  return std::search(d.begin(), d.end(), seq.begin(), seq.end()) != d.end();
}

Resource* make_ds(Device& dev, uint32_t w, uint32_t h, uint32_t samples = 1, uint32_t init = 0xA5A5A5A5u) {
  std::vector<uint32_t> px(static_cast<size_t>(w) * h * samples, init);
  TextureDesc d;
  d.width = w;
  d.height = h;
  d.samples = samples;
  d.format = Format::D24_UNORM_S8_UINT;
  d.bind = BIND_DEPTH_STENCIL;
  Resource* r = nullptr;
  if (dev.create_texture2d(d, px.data(), &r) != Result::OK) return nullptr;
  return r;
}

// Every sample dword of a texture through Map(READ), row-major (4x: a pixel's 4 samples together).
std::vector<uint32_t> read_samples(ImmediateContext& ctx, Resource* r) {
  Mapped m;
  std::vector<uint32_t> out;
  if (ctx.map(r, MapType::READ, 0, &m) != Result::OK) return out;
  const uint32_t n = r->width() * r->samples();
  out.resize(static_cast<size_t>(n) * r->height());
  for (uint32_t y = 0; y < r->height(); ++y) std::memcpy(&out[static_cast<size_t>(y) * n], m.data + y * m.row_pitch, n * 4);
  ctx.unmap(r);
  return out;
}

}  // namespace

TEST_CASE("depth_to_d24 rounds to nearest and clamps", "[runtime][depth]") {
  CHECK(depth_to_d24(0.0f) == 0);
  CHECK(depth_to_d24(1.0f) == DEPTH_MAX);
  CHECK(depth_to_d24(0.5f) == 8388608u);  // 0.5 * (2^24 - 1) = 8388607.5: ties away from zero
  CHECK(depth_to_d24(-1.0f) == 0);
  CHECK(depth_to_d24(2.0f) == DEPTH_MAX);
}

TEST_CASE("colour clears: the whole target and a rectangle, read back through Map (golden)", "[runtime][clear][golden]") {
  GoldenFixture f(FixtureDesc().target(40, 20, rgba(1, 2, 3)));
  REQUIRE(f.draw(rgba(200, 0, 0)) == Result::OK);
  REQUIRE(f.ctx.wait_idle() == Result::OK);
  const Memory before = f.dev.backend().memory();
  REQUIRE(f.ctx.clear_render_target_view(f.rt, rgba(9, 9, 9)) == Result::OK);  // after the draw
  REQUIRE(f.ctx.clear_view(f.rt, rgba(50, 60, 70), ClearRect{3, 2, 17, 30}) == Result::OK);  // clipped to 20 rows
  REQUIRE(f.ctx.clear_view(f.rt, rgba(0, 0, 0), ClearRect{5, 5, 5, 9}) == Result::OK);     // empty: nothing
  CHECK(f.rt->last_gpu_write() == f.ctx.open_fence());
  REQUIRE(f.ctx.wait_idle() == Result::OK);
  CHECK(writes_outside(f.dev, before, {range_of(f.rt)}) == "");
  const auto px = f.pixels();
  for (uint32_t y = 0; y < 20; ++y) {
    for (uint32_t x = 0; x < 40; ++x) {
      const uint32_t want = (x >= 3 && x < 17 && y >= 2) ? rgba(50, 60, 70) : rgba(9, 9, 9);
      INFO("pixel " << x << "," << y);
      REQUIRE(px[y * 40 + x] == want);
    }
  }
  // A draw after the clear lands on top of it.
  REQUIRE(f.draw(rgba(0, 200, 0)) == Result::OK);
  CHECK(f.pixels()[0] == rgba(0, 200, 0));
}

TEST_CASE("depth-stencil clears: depth, stencil, both, rectangles, 1x and 4x, read back (golden)",
          "[runtime][clear][depth][golden]") {
  for (const uint32_t samples : {1u, 4u}) {
    GoldenFixture f;
    Resource* ds = make_ds(f.dev, 24, 12, samples);
    REQUIRE(ds);
    DepthStencilView dsv;
    REQUIRE(f.dev.create_depth_stencil_view(ds, &dsv) == Result::OK);
    const Memory before = f.dev.backend().memory();
    REQUIRE(f.ctx.clear_depth_stencil_view(dsv, CLEAR_FLAG_DEPTH | CLEAR_FLAG_STENCIL, 1.0f, 0x11) == Result::OK);
    REQUIRE(f.ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_STENCIL, 0.0f, 0x7E, ClearRect{2, 1, 10, 5}) == Result::OK);
    REQUIRE(f.ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_DEPTH, 0.25f, 0, ClearRect{6, 3, 30, 8}) == Result::OK);
    CHECK(ds->last_gpu_write() == f.ctx.open_fence());
    REQUIRE(f.ctx.wait_idle() == Result::OK);
    CHECK(writes_outside(f.dev, before, {range_of(ds)}) == "");
    const auto s = read_samples(f.ctx, ds);
    const uint32_t q = depth_to_d24(0.25f);
    for (uint32_t y = 0; y < 12; ++y) {
      for (uint32_t x = 0; x < 24; ++x) {
        uint32_t depth = DEPTH_MAX, stencil = 0x11;
        if (x >= 2 && x < 10 && y >= 1 && y < 5) stencil = 0x7E;
        if (x >= 6 && y >= 3 && y < 8) depth = q;
        for (uint32_t k = 0; k < samples; ++k) {
          INFO(samples << "x: pixel " << x << "," << y << " sample " << k);
          REQUIRE(s[(y * 24 + x) * samples + k] == (depth | (stencil << 24)));
        }
      }
    }
    ds->release();
  }
}

TEST_CASE("a clear recorded in a deferred context clears the storage the resource has when it runs (golden)",
          "[runtime][clear][deferred][golden]") {
  GoldenFixture f(FixtureDesc().target(16, 8, rgba(1, 1, 1)));
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(f.dev.create_deferred_context({}, &dc) == Result::OK);
  REQUIRE(dc->clear_view(f.rt, rgba(7, 8, 9), ClearRect{0, 4, 16, 8}) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  REQUIRE(f.ctx.execute_command_list(list, true) == Result::OK);
  const auto px = f.pixels();
  CHECK(px[0] == rgba(1, 1, 1));
  CHECK(px[4 * 16] == rgba(7, 8, 9));
  CHECK(px[8 * 16 - 1] == rgba(7, 8, 9));
  list->release();
}

TEST_CASE_METHOD(ManualFixture, "clears and depth-stencil state are encoded as OP_CLEAR and FE state",
                 "[runtime][clear][depth]") {
  Resource* ds = make_ds(dev, 16, 16);
  REQUIRE(ds);
  DepthStencilView dsv;
  REQUIRE(dev.create_depth_stencil_view(ds, &dsv) == Result::OK);
  REQUIRE(ctx.clear_render_target_view(rt, 0x11223344u) == Result::OK);
  REQUIRE(ctx.clear_depth_stencil_view(dsv, CLEAR_FLAG_DEPTH, 0.5f, 9) == Result::OK);
  REQUIRE(ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_STENCIL, 0.0f, 0x80, ClearRect{1, 2, 3, 4}) == Result::OK);
  // A front-end draw without a depth-stencil view writes no depth state...
  Resource* pos = bind_clip_positions({-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f}, 16, 16);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  auto d = submitted_dwords(be);
  const uint32_t ds_ops = (1u << CLEAR_DEPTH_BIT);
  CHECK(contains(d, {header(OP_CLEAR, 1u << CLEAR_COLOR_BIT, 5), rt->gpu_address(), 16 * 4, 16u << 16, 16u << 16, 0x11223344u}));
  CHECK(contains(d, {header(OP_CLEAR, ds_ops, 5), ds->gpu_address(), 16 * 4, 16u << 16, 16u << 16, 8388608u | (9u << 24)}));
  CHECK(contains(d, {header(OP_CLEAR, 1u << CLEAR_STENCIL_BIT, 5), ds->gpu_address(), 16 * 4, 1u | (3u << 16),
                     2u | (4u << 16), 0x80000000u}));
  for (size_t i = 0; i < d.size(); ++i) {  // no SET_STATE reaches FE_DEPTH..FE_STENCIL or FE_STENCIL_OPS
    if (bits::field(d[i], CMD_OP_MSB, CMD_OP_LSB) != OP_SET_STATE) continue;
    const uint32_t first = bits::field(d[i], CMD_ARG_MSB, CMD_ARG_LSB), n = bits::field(d[i], CMD_LEN_MSB, CMD_LEN_LSB);
    CHECK_FALSE((first <= FE_STENCIL && first + n > FE_DS_BASE));
    CHECK_FALSE((first <= FE_STENCIL_OPS && first + n > FE_STENCIL_OPS));
    i += n;
  }
  // ...with one, the state's words and the reference.
  DepthStencilDesc desc;
  desc.depth_func = ComparisonFunc::GREATER_EQUAL;
  desc.depth_write = false;
  desc.stencil_enable = true;
  desc.stencil_read_mask = 0x0F;
  desc.stencil_write_mask = 0xF0;
  desc.front = {StencilOp::INCR, StencilOp::DECR_SAT, StencilOp::REPLACE, ComparisonFunc::EQUAL};
  desc.back = {StencilOp::ZERO, StencilOp::INVERT, StencilOp::INCR_SAT, ComparisonFunc::NOT_EQUAL};
  DepthStencilState st;
  REQUIRE(dev.create_depth_stencil_state(desc, &st) == Result::OK);
  REQUIRE(ctx.set_render_targets(rt, &dsv) == Result::OK);
  REQUIRE(ctx.set_depth_stencil_state(&st, 0x5A) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  CHECK(ds->last_gpu_write() == ctx.open_fence());
  REQUIRE(ctx.flush() == Result::OK);
  d = submitted_dwords(be);
  const uint32_t depth = (1u << DEPTH_ENABLE_BIT) | (CMP_GREATER_EQUAL << DEPTH_FUNC_LSB) | (1u << DEPTH_HIZ_BIT);
  const uint32_t sten = (1u << STENCIL_ENABLE_BIT) | (0x5Au << STENCIL_REF_LSB) | (0x0Fu << STENCIL_READ_MASK_LSB) |
                        (0xF0u << STENCIL_WRITE_MASK_LSB);
  const auto face = [](uint32_t f, uint32_t fail, uint32_t zf, uint32_t pass) {
    return (f << SFACE_FUNC_LSB) | (fail << SFACE_FAIL_LSB) | (zf << SFACE_ZFAIL_LSB) | (pass << SFACE_PASS_LSB);
  };
  const uint32_t ops = (face(CMP_EQUAL, SOP_INCR, SOP_DECR_SAT, SOP_REPLACE) << STENCIL_FRONT_LSB) |
                       (face(CMP_NOT_EQUAL, SOP_ZERO, SOP_INVERT, SOP_INCR_SAT) << STENCIL_BACK_LSB);
  CHECK(contains(d, {header(OP_SET_STATE, FE_DS_BASE, 4), ds->gpu_address(), 16 * 4, depth, sten}));
  CHECK(contains(d, {header(OP_SET_STATE, FE_STENCIL_OPS, 1), ops}));
  // D3D11's default state (null): depth LESS with writes, no stencil.
  REQUIRE(ctx.set_depth_stencil_state(nullptr, 0) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  d = submitted_dwords(be);
  const uint32_t def = (1u << DEPTH_ENABLE_BIT) | (CMP_LESS << DEPTH_FUNC_LSB) | (1u << DEPTH_WRITE_BIT) | (1u << DEPTH_HIZ_BIT);
  CHECK(contains(d, {header(OP_SET_STATE, FE_DEPTH, 2), def, FE_STENCIL_RESET}));
  pos->release();
  ds->release();
}

TEST_CASE_METHOD(ManualFixture, "invalid depth-stencil combinations are rejected with a message", "[runtime][depth][errors]") {
  DepthStencilView dsv;
  // A depth view of a colour texture.
  CHECK(dev.create_depth_stencil_view(rt, &dsv) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("D24_UNORM_S8_UINT") != std::string::npos);
  CHECK(dev.create_depth_stencil_view(nullptr, &dsv) == Result::INVALID_ARG);
  // Format and bind flags that do not go together.
  TextureDesc td;
  td.width = td.height = 8;
  td.format = Format::D24_UNORM_S8_UINT;
  td.bind = BIND_DEPTH_STENCIL | BIND_RENDER_TARGET;
  Resource* bad = nullptr;
  CHECK(dev.create_texture2d(td, nullptr, &bad) == Result::INVALID_ARG);
  td.format = Format::R8G8B8A8_UNORM;
  td.bind = BIND_DEPTH_STENCIL;
  CHECK(dev.create_texture2d(td, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(bad == nullptr);
  // Mismatched sizes and sample counts between the render target (16x16, 1x) and the view.
  Resource* small = make_ds(dev, 8, 16);
  Resource* msaa = make_ds(dev, 16, 16, 4);
  Resource* good = make_ds(dev, 16, 16);
  REQUIRE((small && msaa && good));
  DepthStencilView v_small, v_msaa, v_good;
  REQUIRE(dev.create_depth_stencil_view(small, &v_small) == Result::OK);
  REQUIRE(dev.create_depth_stencil_view(msaa, &v_msaa) == Result::OK);
  REQUIRE(dev.create_depth_stencil_view(good, &v_good) == Result::OK);
  CHECK(ctx.set_render_targets(rt, &v_small) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("8x16") != std::string::npos);
  CHECK(ctx.set_render_targets(rt, &v_msaa) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("samples") != std::string::npos);
  CHECK(ctx.set_render_targets(rt, &v_good) == Result::OK);
  // Clears: a colour clear of a depth texture, bad flags, a depth outside [0, 1].
  CHECK(ctx.clear_render_target_view(good, 0) == Result::INVALID_ARG);
  CHECK(ctx.clear_depth_stencil_view(v_good, 0, 0.5f, 0) == Result::INVALID_ARG);
  CHECK(ctx.clear_depth_stencil_view(v_good, 4, 0.5f, 0) == Result::INVALID_ARG);
  CHECK(ctx.clear_depth_stencil_view(v_good, CLEAR_FLAG_DEPTH, 1.5f, 0) == Result::INVALID_ARG);
  CHECK(ctx.clear_depth_stencil_view(DepthStencilView{}, CLEAR_FLAG_DEPTH, 0.5f, 0) == Result::INVALID_ARG);
  Mapped m;
  REQUIRE(ctx.map(good, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.clear_depth_stencil_view(v_good, CLEAR_FLAG_DEPTH, 0.5f, 0) == Result::INVALID_CALL);  // mapped
  ctx.unmap(good);
  // State objects: functions and operations out of range, an 8-bit reference.
  DepthStencilDesc desc;
  DepthStencilState st;
  desc.depth_func = static_cast<ComparisonFunc>(0);
  CHECK(dev.create_depth_stencil_state(desc, &st) == Result::INVALID_ARG);
  desc = DepthStencilDesc{};
  desc.back.pass = static_cast<StencilOp>(9);
  CHECK(dev.create_depth_stencil_state(desc, &st) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("back") != std::string::npos);
  CHECK(ctx.set_depth_stencil_state(nullptr, 256) == Result::INVALID_ARG);
  ctx.clear_state();
  small->release();
  msaa->release();
  good->release();
}
