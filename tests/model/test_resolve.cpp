// SPDX-License-Identifier: Apache-2.0
// MSAA resolve (docs/om.md section 7): the per-pixel averages of every format, the engine's
// line-write stream against a per-pixel reference on random rectangles, and OP_RESOLVE through
// the PinedaTop (ordering after a draw, every error cause, nothing written on an error).
#include <cmath>
#include <random>

#include "command_writer.h"
#include "cp/cp.h"
#include "om/om_blend.h"
#include "dma/resolve.h"
#include "test_util.h"
#include "top/pineda_top.h"

using namespace pineda;
using namespace pineda::model;

namespace {

constexpr uint32_t kRing = 0x00100000u, kRingSize = 0x10000u;
constexpr uint32_t kSrc = 0x00500000u, kDst = 0x00600000u;

double srgb_lin(uint32_t c) {
  const double x = c / 255.0;
  return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
}
double lin_srgb(double x) { return x <= 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1 / 2.4) - 0.055; }

}  // namespace

TEST_CASE("resolve: per-pixel averages of every format", "[resolve]") {
  std::mt19937_64 g(test::base_seed());
  // Equal samples give the sample back in every format.
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    for (int k = 0; k < 2000; ++k) {
      const uint32_t v = static_cast<uint32_t>(g()) & (fmt == RT_FMT_B5G6R5 ? 0xFFFFu : 0xFFFFFFFFu);
      const uint32_t s[4] = {v, v, v, v};
      INFO("fmt " << fmt << " v " << std::hex << v);
      REQUIRE(resolve_pixel(fmt, s) == v);
    }
  }
  // RGBA8 / BGRA8: round half up per byte.
  const uint32_t a[4] = {0x00FF0001u, 0x00FF0000u, 0x01000001u, 0x01000000u};
  CHECK(resolve_pixel(RT_FMT_RGBA8, a) == 0x01800001u);  // (0+0+1+1+2)>>2=1, (2*255+2)>>2=128, (1+1+2)>>2=1
  CHECK(resolve_pixel(RT_FMT_BGRA8, a) == resolve4(a[0], a[1], a[2], a[3]));
  // B5G6R5: each field on its own; no carry between fields.
  const uint32_t b[4] = {0xFFFFu, 0x0000u, 0xFFFFu, 0x0000u};
  CHECK(resolve_pixel(RT_FMT_B5G6R5, b) == ((16u << 11) | (32u << 5) | 16u));
  const uint32_t b2[4] = {0x0001u, 0x0001u, 0x0000u, 0x0000u};  // B = (1+1+2)>>2 = 1
  CHECK(resolve_pixel(RT_FMT_B5G6R5, b2) == 1u);
  // sRGB: R, G, B within one code of D3D's linear average (in doubles), A as UNORM8.
  int worst = 0;
  for (int k = 0; k < 200000; ++k) {
    uint32_t s[4];
    for (auto& x : s) x = static_cast<uint32_t>(g());
    const uint32_t r = resolve_pixel(RT_FMT_RGBA8_SRGB, s);
    CHECK((r >> 24) == (resolve4(s[0], s[1], s[2], s[3]) >> 24));
    for (int c = 0; c < 3; ++c) {
      double lin = 0;
      for (const uint32_t x : s) lin += srgb_lin((x >> (8 * c)) & 0xFFu);
      const double want = 255.0 * lin_srgb(lin / 4);
      const int d = static_cast<int>(std::lround(std::fabs(want - ((r >> (8 * c)) & 0xFFu)) + 0.49));
      worst = std::max(worst, d);
    }
  }
  CHECK(worst <= 1);
  // Black and white samples average to linear 0.5 (sRGB 188), not to code 128.
  const uint32_t bw[4] = {0xFF000000u, 0xFFFFFFFFu, 0xFF000000u, 0xFFFFFFFFu};
  CHECK((resolve_pixel(RT_FMT_RGBA8_SRGB, bw) & 0xFFu) == 188u);
  CHECK((resolve_pixel(RT_FMT_RGBA8, bw) & 0xFFu) == 128u);
}

TEST_CASE("resolve: the engine's line writes against a per-pixel reference", "[resolve]") {
  std::mt19937_64 g(test::base_seed() + 7);
  auto r = [&](uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(g() % (hi - lo + 1)); };
  for (int k = 0; k < 400; ++k) {
    ResolvePkt p;
    p.fmt = r(0, 3);
    const uint32_t sbpp = resolve_src_bpp(static_cast<uint32_t>(p.fmt)), dbpp = sbpp / 4;
    const uint32_t w = r(1, 70), h = r(1, 9);
    p.src = kSrc + sbpp * r(0, 20);
    p.dst = kDst + 4 * r(0, 40);
    p.src_pitch = sbpp * (w + r(0, 6));
    p.dst_pitch = 4 * ((w * dbpp + 3) / 4 + r(0, 5));
    p.rect.x0 = r(0, w - 1);
    p.rect.x1 = r(static_cast<uint32_t>(p.rect.x0) + 1, w);
    p.rect.y0 = r(0, h - 1);
    p.rect.y1 = r(static_cast<uint32_t>(p.rect.y0) + 1, h);
    Memory mem;
    for (uint32_t a = 0; a < 0x4000; a += 4) mem.write32(kSrc + a, static_cast<uint32_t>(g()));
    Memory ref = mem;
    for (uint32_t y = static_cast<uint32_t>(p.rect.y0); y < p.rect.y1; ++y) {
      for (uint32_t x = static_cast<uint32_t>(p.rect.x0); x < p.rect.x1; ++x) {
        uint32_t s[4];
        for (uint32_t i = 0; i < 4; ++i) {
          const uint32_t sa = static_cast<uint32_t>(p.src + y * p.src_pitch + x * sbpp + i * dbpp);
          s[i] = dbpp == 2 ? (mem.read32(sa) >> (8 * (sa & 2u))) & 0xFFFFu : mem.read32(sa);
        }
        const uint32_t v = resolve_pixel(static_cast<uint32_t>(p.fmt), s);
        const uint32_t da = static_cast<uint32_t>(p.dst + y * p.dst_pitch + x * dbpp);
        ref.write8(da, static_cast<uint8_t>(v));
        ref.write8(da + 1, static_cast<uint8_t>(v >> 8));
        if (dbpp == 4) {
          ref.write8(da + 2, static_cast<uint8_t>(v >> 16));
          ref.write8(da + 3, static_cast<uint8_t>(v >> 24));
        }
      }
    }
    // Line writes: ascending within a row, be only on the row's bytes, 0 data elsewhere.
    uint64_t prev = 0;
    uint32_t row_start_lines = 0;
    resolve_lines(p, mem, [&](const MemLineReq& q) {
      REQUIRE(q.be != 0);
      for (uint32_t b = 0; b < LINE_BYTES; ++b) {
        if (!((q.be >> b) & 1u)) REQUIRE(((q.wdata[b / 4].data >> (8 * (b % 4))) & 0xFFu) == 0);
      }
      if (q.addr <= prev) ++row_start_lines;
      prev = q.addr;
    });
    CHECK(row_start_lines <= p.rect.y1 - p.rect.y0);
    Memory out = mem;
    resolve(p, mem, out);
    for (uint32_t a = 0; a < 0x4000; ++a) {
      INFO("case " << k << " fmt " << p.fmt << " byte " << std::hex << kDst + a);
      REQUIRE(out.read8(kDst + a) == ref.read8(kDst + a));
    }
  }
}

TEST_CASE("resolve: OP_RESOLVE through the PinedaTop, errors", "[resolve][cp]") {
  Memory base;
  for (uint32_t a = 0; a < 0x2000; a += 4) base.write32(kSrc + a, 0x01020304u * (a / 4 + 1));
  {
    Memory mem = base;
    model::PinedaTop gpu(mem);
    CommandWriter w;
    // 8x4 4x target at kSrc (pitch 128), resolved whole, then one pixel of it again as sRGB.
    w.resolve(RT_FMT_RGBA8, kSrc, 128, kDst, 32, 0, 0, 8, 4);
    w.resolve(RT_FMT_RGBA8_SRGB, kSrc, 128, kDst + 0x100, 32, 3, 2, 4, 3).end();
    for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, w.dwords())) gpu.reg_write(i, v);
    REQUIRE(gpu.run() == model::RunResult::HALTED);
    CHECK(gpu.stats().resolves == 2);
    for (uint32_t y = 0; y < 4; ++y) {
      for (uint32_t x = 0; x < 8; ++x) {
        const uint32_t p = kSrc + y * 128 + x * 16;
        CHECK(mem.read32(kDst + y * 32 + x * 4) ==
              resolve4(base.read32(p), base.read32(p + 4), base.read32(p + 8), base.read32(p + 12)));
      }
    }
    CHECK(mem.read32(kDst + 0x100 + 2 * 32 + 2 * 4) == 0);
    CHECK(mem.read32(kDst + 0x100 + 2 * 32 + 3 * 4) != 0);
    CHECK(mem.read32(kDst + 0x100 + 2 * 32 + 4 * 4) == 0);
  }
  struct Bad {
    uint32_t fmt, src, sp, dst, dp, x0, y0, x1, y1, cause;
  };
  const Bad bads[] = {
      {0, kSrc, 128, kDst, 32, 3, 0, 3, 4, ERR_BAD_ARG},        // empty
      {0, kSrc, 128, kDst, 32, 0, 2, 8, 1, ERR_BAD_ARG},        // empty (y)
      {0, kSrc, 128, kDst, 32, 0, 0, 16385, 1, ERR_BAD_ARG},    // x1 > MAX_RT_DIM
      {0, kSrc + 4, 128, kDst, 32, 0, 0, 8, 4, ERR_BAD_ADDR},   // src not 16-aligned
      {3, kSrc + 8, 128, kDst, 32, 0, 0, 8, 4, ERR_BAD_ADDR + 100},  // B5G6R5: 8-aligned is fine
      {0, kSrc, 120, kDst, 32, 0, 0, 7, 4, ERR_BAD_ADDR},       // src pitch
      {0, kSrc, 128, kDst + 2, 32, 0, 0, 8, 4, ERR_BAD_ADDR},   // dst
      {0, kSrc, 128, kDst, 30, 0, 0, 7, 4, ERR_BAD_ADDR},       // dst pitch
      {0, kSrc, 128, 0x00FFFFF0u, 32, 0, 0, 8, 4, ERR_BAD_ADDR},  // dst above VALID_LIMIT
      {0, kSrc, 128, kSrc + 64, 32, 0, 0, 8, 4, ERR_BAD_ARG},   // overlapping spans
  };
  for (const Bad& b : bads) {
    INFO("dst " << std::hex << b.dst << " src " << b.src);
    Memory mem = base;
    model::PinedaTop gpu(mem);
    CommandWriter w;
    w.nop(0).resolve(b.fmt, b.src, b.sp, b.dst, b.dp, b.x0, b.y0, b.x1, b.y1).end();
    for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, w.dwords())) gpu.reg_write(i, v);
    gpu.reg_write(REG_VALID_LIMIT, 0x00FFFFFFu);
    if (b.cause == ERR_BAD_ADDR + 100) {
      CHECK(gpu.run() == model::RunResult::HALTED);
      continue;
    }
    CHECK(gpu.run() == model::RunResult::ERROR);
    CHECK(gpu.reg_read(REG_ERROR_CAUSE) == b.cause);
    CHECK(gpu.reg_read(REG_ERROR_ADDR) == kRing + 4);
    CHECK(gpu.reg_read(REG_RING_RPTR) == 4);
    CHECK(gpu.reg_read(REG_IRQ_STATUS) & (1u << IRQ_ERROR));
    for (uint32_t a = 0; a < 0x400; a += 4) REQUIRE(mem.read32(kDst + a) == 0);  // nothing written
  }
}
