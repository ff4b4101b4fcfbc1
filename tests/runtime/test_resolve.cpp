// SPDX-License-Identifier: Apache-2.0
// resolve_subresource (docs/om.md section 7): the checks and their messages, the OP_RESOLVE it
// encodes, and on the golden backend the 1x image it leaves: the model's per-pixel average of what
// earlier draws wrote into the 4x target.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "dma/resolve.h"
#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {
Resource* make_target(Device& dev, uint32_t w, uint32_t h, uint32_t samples, Format f, uint32_t pitch = 0) {
  TextureDesc d;
  d.width = w;
  d.height = h;
  d.pitch = pitch;
  d.bind = BIND_RENDER_TARGET;
  d.samples = samples;
  d.format = f;
  Resource* r = nullptr;
  if (dev.create_texture2d(d, nullptr, &r) != Result::OK) return nullptr;
  return r;
}
}  // namespace

TEST_CASE_METHOD(ManualFixture, "resolve_subresource: checks with messages, OP_RESOLVE encoding",
                 "[runtime][resolve][errors]") {
  Resource* ms = make_target(dev, 15, 8, 4, Format::R8G8B8A8_UNORM);
  Resource* one = make_target(dev, 15, 8, 1, Format::R8G8B8A8_UNORM);
  Resource* one_small = make_target(dev, 14, 8, 1, Format::R8G8B8A8_UNORM);
  Resource* ms_bgra = make_target(dev, 15, 8, 4, Format::B8G8R8A8_UNORM);
  Resource* ms_565 = make_target(dev, 15, 8, 4, Format::B5G6R5_UNORM);
  Resource* one_565 = make_target(dev, 15, 8, 1, Format::B5G6R5_UNORM);
  Resource* ms_odd = make_target(dev, 15, 8, 4, Format::R8G8B8A8_UNORM, 15 * 16 + 4);  // pitch not a multiple of 16
  REQUIRE(ms);
  REQUIRE(one);
  REQUIRE(one_small);
  REQUIRE(ms_bgra);
  REQUIRE(ms_565);
  REQUIRE(one_565);
  REQUIRE(ms_odd);
  Resource* buf = nullptr;
  REQUIRE(dev.create_buffer({4096, 0}, nullptr, &buf) == Result::OK);
  const Format F = Format::R8G8B8A8_UNORM;
  struct Bad {
    Resource *dst, *src;
    uint32_t dsub, ssub;
    Format f;
    Result r;
    const char* msg;
  };
  const Bad bads[] = {
      {nullptr, ms, 0, 0, F, Result::INVALID_ARG, "null"},
      {one, one, 0, 0, F, Result::INVALID_ARG, "same resource"},
      {one, ms, 1, 0, F, Result::INVALID_ARG, "subresource"},
      {one, ms, 0, 1, F, Result::INVALID_ARG, "subresource"},
      {one, one_small, 0, 0, F, Result::INVALID_ARG, "not a 4x"},
      {ms_bgra, ms, 0, 0, F, Result::INVALID_ARG, "not a 1x"},
      {one, buf, 0, 0, F, Result::INVALID_ARG, "BIND_RENDER_TARGET"},
      {one, ms, 0, 0, Format::D24_UNORM_S8_UINT, Result::INVALID_ARG, "colour render-target format"},
      {one, ms, 0, 0, static_cast<Format>(77), Result::INVALID_ARG, "colour render-target format"},
      {one, ms, 0, 0, Format::B8G8R8A8_UNORM, Result::INVALID_ARG, "format differs"},
      {one, ms_bgra, 0, 0, Format::B8G8R8A8_UNORM, Result::INVALID_ARG, "format differs"},
      {one_small, ms, 0, 0, F, Result::INVALID_ARG, "size"},
      {one, ms_odd, 0, 0, F, Result::INVALID_ARG, "multiple of a 4x pixel"},
  };
  for (const Bad& b : bads) {
    INFO(b.msg);
    CHECK(ctx.resolve_subresource(b.dst, b.dsub, b.src, b.ssub, b.f) == b.r);
    CHECK(ctx.last_error().find(b.msg) != std::string::npos);
  }
  Mapped m;
  REQUIRE(ctx.map(one, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.resolve_subresource(one, 0, ms, 0, F) == Result::INVALID_CALL);  // mapped
  ctx.unmap(one);
  REQUIRE(ctx.resolve_subresource(one, 0, ms, 0, F) == Result::OK);
  REQUIRE(ctx.resolve_subresource(one_565, 0, ms_565, 0, Format::B5G6R5_UNORM) == Result::OK);
  CHECK(one->last_gpu_write() == ctx.open_fence());
  CHECK(ms->last_gpu_read() == ctx.open_fence());
  REQUIRE(ctx.flush() == Result::OK);
  const auto d = submitted_dwords(be);
  const std::vector<uint32_t> want = {CommandWriter::header(OP_RESOLVE, RT_FMT_RGBA8, OP_RESOLVE_LEN), ms->gpu_address(),
                                      one->gpu_address(), 15u * 16 | (15u * 4 << 16), 15u << 16, 8u << 16};
  CHECK(std::search(d.begin(), d.end(), want.begin(), want.end()) != d.end());
  const std::vector<uint32_t> want565 = {CommandWriter::header(OP_RESOLVE, RT_FMT_B5G6R5, OP_RESOLVE_LEN),
                                         ms_565->gpu_address(), one_565->gpu_address(), 15u * 8 | (32u << 16)};
  CHECK(std::search(d.begin(), d.end(), want565.begin(), want565.end()) != d.end());
  for (Resource* r : {ms, one, one_small, ms_bgra, ms_565, one_565, ms_odd, buf}) r->release();
}

TEST_CASE("resolve_subresource: the 1x image is the average of what the draws wrote (golden)",
          "[runtime][resolve][golden]") {
  for (const Format f : {Format::R8G8B8A8_UNORM, Format::R8G8B8A8_UNORM_SRGB, Format::B8G8R8A8_UNORM,
                         Format::B5G6R5_UNORM}) {
    INFO("format " << static_cast<uint32_t>(f));
    GoldenFixture fx(FixtureDesc().target(16, 16).unbound());
    Resource* ms = make_target(fx.dev, 24, 12, 4, f);
    Resource* one = make_target(fx.dev, 24, 12, 1, f);
    REQUIRE(ms);
    REQUIRE(one);
    REQUIRE(fx.ctx.clear_render_target_view(ms, rgba(200, 40, 10)) == Result::OK);
    // Two overlapping triangles (clip space): edges cut through pixels, so samples differ.
    Resource* pos = fx.bind_clip_positions({-1, -1, 0.5f, 0.9f, -0.7f, 0.5f, -0.3f, 1, 0.5f,
                                            -0.8f, 0.9f, 0.5f, 1, 0.3f, 0.5f, 0.1f, -1, 0.5f}, 24, 12);
    REQUIRE(fx.ctx.set_render_target(ms) == Result::OK);
    fx.ctx.set_color(rgba(10, 250, 90));
    REQUIRE(fx.ctx.draw(6, 0) == Result::OK);
    REQUIRE(fx.ctx.resolve_subresource(one, 0, ms, 0, f) == Result::OK);
    fx.ctx.clear_state();
    Mapped a, b;
    REQUIRE(fx.ctx.map(ms, MapType::READ, 0, &a) == Result::OK);
    REQUIRE(fx.ctx.map(one, MapType::READ, 0, &b) == Result::OK);
    Memory src, want;
    src.write(0, a.data, static_cast<size_t>(ms->pitch()) * 12);
    const uint32_t fmt = rt_format_code(f);
    model::resolve_msaa4(src, 0, ms->pitch(), want, 0, one->pitch(), 24, 12, fmt);
    int mixed = 0;
    for (uint32_t y = 0; y < 12; ++y) {
      for (uint32_t x = 0; x < 24 * format_bytes(f); ++x) {
        REQUIRE(b.data[y * b.row_pitch + x] == want.read8(y * one->pitch() + x));
      }
      for (uint32_t x = 0; x < 24; ++x) {
        const uint32_t p = y * ms->pitch() + x * 4 * format_bytes(f);
        if (src.read32(p) != src.read32(p + 2 * format_bytes(f))) ++mixed;
      }
    }
    CHECK(mixed > 0);  // some pixels are on an edge: the average is not a copy of sample 0
    fx.ctx.unmap(ms);
    fx.ctx.unmap(one);
    pos->release();
    ms->release();
    one->release();
  }
}
