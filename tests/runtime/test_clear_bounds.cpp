// SPDX-License-Identifier: Apache-2.0
// Clears write exactly their target (issue 28 item 1): every colour format and D24S8, 1x and 4x,
// odd and even widths, whole-target and rectangle clears on the golden backend; the target's
// bytes (pixels, samples, row padding) are checked against a byte model of the clear, and every
// byte of GPU memory outside the target must be unchanged (`writes_outside`, with neighbours
// allocated before and after the target so that an overflow would land in one).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {

const char* name_of(Format f) {
  switch (f) {
    case Format::R8G8B8A8_UNORM: return "RGBA8";
    case Format::B8G8R8A8_UNORM: return "BGRA8";
    case Format::R8G8B8A8_UNORM_SRGB: return "RGBA8_SRGB";
    case Format::B5G6R5_UNORM: return "B5G6R5";
    case Format::D24_UNORM_S8_UINT: return "D24S8";
  }
  return "?";
}

// A neighbour allocation filled with a pattern.
Resource* make_neighbour(Device& dev, uint8_t seed) {
  std::vector<uint8_t> data(4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(seed + 13 * i);
  Resource* r = nullptr;
  BufferDesc d;
  d.size = static_cast<uint32_t>(data.size());
  d.bind = BIND_VERTEX_BUFFER;
  if (dev.create_buffer(d, data.data(), &r) != Result::OK) return nullptr;
  return r;
}

// What a clear of [x0, x1) x [y0, y1) with `value` (as the CLEAR gets it: per 4-byte unit) does to
// the target's bytes: each sample of each pixel gets the value's low `bytes` bytes, those of
// `byte_mask` (depth alone: bytes 0-2, stencil alone: byte 3).
void model_clear(std::vector<uint8_t>& img, const Resource* r, uint32_t value, ClearRect c, uint32_t byte_mask = 0xFu) {
  const uint32_t bytes = format_bytes(r->format());
  c.x1 = std::min(c.x1, r->width());
  c.y1 = std::min(c.y1, r->height());
  for (uint32_t y = c.y0; y < c.y1; ++y) {
    for (uint32_t x = c.x0; x < c.x1; ++x) {
      for (uint32_t s = 0; s < r->samples(); ++s) {
        const size_t at = static_cast<size_t>(y) * r->pitch() + (static_cast<size_t>(x) * r->samples() + s) * bytes;
        for (uint32_t k = 0; k < bytes; ++k) {
          if (byte_mask >> k & 1u) img[at + k] = static_cast<uint8_t>(value >> (8 * k));
        }
      }
    }
  }
  // A 1x B5G6R5 clear ending at an odd width also fills the row's padding halfword after the last
  // pixel (docs/om.md section 6: it clears pixel pairs; the padding is inside the resource).
  if (r->format() == Format::B5G6R5_UNORM && r->samples() == 1 && (c.x1 & 1u) && c.x1 == r->width() && c.x0 < c.x1) {
    for (uint32_t y = c.y0; y < c.y1; ++y) {
      const size_t at = static_cast<size_t>(y) * r->pitch() + 2 * static_cast<size_t>(c.x1);
      img[at] = static_cast<uint8_t>(value);
      img[at + 1] = static_cast<uint8_t>(value >> 8);
    }
  }
}

}  // namespace

TEST_CASE("clears write exactly their target: every format x 1x/4x x odd/even width, whole and rectangles (golden)",
          "[runtime][clear][golden][robustness]") {
  const Format formats[] = {Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM, Format::R8G8B8A8_UNORM_SRGB,
                            Format::B5G6R5_UNORM, Format::D24_UNORM_S8_UINT};
  for (const Format fmt : formats) {
    for (const uint32_t samples : {1u, 4u}) {
      for (const uint32_t width : {13u, 14u}) {
        const bool depth = fmt == Format::D24_UNORM_S8_UINT;
        const bool pairs = fmt == Format::B5G6R5_UNORM && samples == 1;  // 1x B5G6R5: even x only
        INFO(name_of(fmt) << " " << samples << "x, " << width << " wide");
        GoldenFixture f;
        Device& dev = f.dev;
        ImmediateContext& ctx = f.ctx;
        // Neighbours on both sides (height 64: the size is a multiple of 256, so the allocation
        // after the target starts right at its end).
        Resource* before_n = make_neighbour(dev, 0x11);
        TextureDesc td;
        td.width = width;
        td.height = 64;
        td.samples = samples;
        td.format = fmt;
        td.bind = depth ? BIND_DEPTH_STENCIL : BIND_RENDER_TARGET;
        Resource* t = nullptr;
        REQUIRE(dev.create_texture2d(td, nullptr, &t) == Result::OK);
        Resource* after_n = make_neighbour(dev, 0x77);
        REQUIRE(before_n);
        REQUIRE(after_n);
        // The target's every byte (padding included) a pattern, through Map.
        std::vector<uint8_t> img(t->size());
        for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(0x5A + 7 * i);
        Mapped m;
        REQUIRE(ctx.map(t, MapType::WRITE, 0, &m) == Result::OK);
        REQUIRE(m.size == t->size());
        std::memcpy(m.data, img.data(), img.size());
        REQUIRE(ctx.unmap(t) == Result::OK);
        REQUIRE(ctx.wait_idle() == Result::OK);
        const Memory before = dev.backend().memory();

        // A rectangle inside the target (odd x0 where the format allows it) and one ending at its
        // width (a 4x row's last pixel, and the row after it, are where an overflow would show).
        const ClearRect inner = pairs ? ClearRect{2, 3, (width - 2) & ~1u, 9} : ClearRect{1, 3, width - 2, 9};
        const ClearRect to_edge = pairs ? ClearRect{4, 10, width, 12} : ClearRect{5, 10, width, 12};
        const ClearRect clipped{pairs ? 6u : 7u, 60, 100, 100};  // clipped to the target
        if (depth) {
          DepthStencilView dsv;
          REQUIRE(dev.create_depth_stencil_view(t, &dsv) == Result::OK);
          const uint32_t both = depth_to_d24(0.75f) | 0x3Cu << 24;
          REQUIRE(ctx.clear_depth_stencil_view(dsv, CLEAR_FLAG_DEPTH | CLEAR_FLAG_STENCIL, 0.75f, 0x3C) == Result::OK);
          model_clear(img, t, both, ClearRect{0, 0, MAX_RT_DIM, MAX_RT_DIM});
          REQUIRE(ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_DEPTH, 0.25f, 0, inner) == Result::OK);
          model_clear(img, t, depth_to_d24(0.25f), inner, 0x7u);
          REQUIRE(ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_STENCIL, 0.0f, 0xC3, to_edge) == Result::OK);
          model_clear(img, t, 0xC3u << 24, to_edge, 0x8u);
          REQUIRE(ctx.clear_depth_stencil_rect(dsv, CLEAR_FLAG_DEPTH | CLEAR_FLAG_STENCIL, 1.0f, 0x01, clipped) ==
                  Result::OK);
          model_clear(img, t, DEPTH_MAX | 0x01u << 24, clipped);
        } else {
          const uint32_t colours[] = {rgba(200, 100, 50), rgba(10, 240, 130), rgba(255, 0, 255), rgba(33, 66, 99)};
          REQUIRE(ctx.clear_render_target_view(t, colours[0]) == Result::OK);
          model_clear(img, t, clear_value(fmt, colours[0]), ClearRect{0, 0, MAX_RT_DIM, MAX_RT_DIM});
          REQUIRE(ctx.clear_view(t, colours[1], inner) == Result::OK);
          model_clear(img, t, clear_value(fmt, colours[1]), inner);
          REQUIRE(ctx.clear_view(t, colours[2], to_edge) == Result::OK);
          model_clear(img, t, clear_value(fmt, colours[2]), to_edge);
          REQUIRE(ctx.clear_view(t, colours[3], clipped) == Result::OK);
          model_clear(img, t, clear_value(fmt, colours[3]), clipped);
        }
        REQUIRE(ctx.wait_idle() == Result::OK);

        // Nothing outside the target changed...
        CHECK(writes_outside(dev, before, {range_of(t)}) == "");
        // ... and the target holds exactly what the clears write.
        std::vector<uint8_t> got(t->size());
        dev.backend().memory().read(t->gpu_address(), got.data(), got.size());
        size_t bad = 0;
        for (size_t i = 0; i < got.size(); ++i) {
          if (got[i] == img[i]) continue;
          if (bad++ == 0) {
            const uint32_t row = static_cast<uint32_t>(i / t->pitch()), col = static_cast<uint32_t>(i % t->pitch());
            const uint32_t px_bytes = format_bytes(fmt) * samples;
            UNSCOPED_INFO("first wrong byte: row " << row << ", byte " << col << " (pixel " << col / px_bytes
                                                   << "): " << int{got[i]} << ", want " << int{img[i]});
          }
        }
        CHECK(bad == 0);

        ctx.clear_state();
        t->release();
        before_n->release();
        after_n->release();
      }
    }
  }
}
