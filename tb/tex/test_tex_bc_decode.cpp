// SPDX-License-Identifier: Apache-2.0
// rtl/tex/tex_bc_decode.sv (combinational) against cpp_model/tex/tex_bc_decode, driven directly
// (no clock), and the model against the stb_dxt encoder (Debian libstb-dev):
//   - hand-computed palettes (the numeric contract of docs/tex.md "BC decode", not just RTL == model);
//   - every pair of 5/6-bit colour endpoints in both modes and every (a0, a1) alpha pair, with
//     indices that select every palette entry (this is what proves the RTL's reciprocal divisions);
//   - the mode edges: c0 == c1, c0 == c1 + 1, a0 == a1, a0 == a1 + 1, 0 and 255;
//   - random blocks, RTL vs model ([.long] runs 40 M);
//   - stb_dxt: blocks encoded by stb_compress_dxt_block decode as the encoder meant them (see the
//     test case comments for the bounds).
// Each case prints its seed; `--rng-seed N` replays it.
#define CATCH_CONFIG_MAIN
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "Vtex_bc_decode.h"
#include "tex/tex_bc_decode.h"
#include "unit_test_main.h"
#include "vl_driver.h"

#define STB_DXT_STATIC
#define STB_DXT_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <stb/stb_dxt.h>
#pragma GCC diagnostic pop

using namespace pineda;
namespace tex = pineda::model::tex;

namespace {

struct Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtex_bc_decode> m;
  uint64_t n = 0, bad = 0;
  std::string first;
  explicit Dut(uint64_t seed)
      : ctx(tb::make_context(seed)), m(std::make_unique<Vtex_bc_decode>(ctx.get(), "tex_bc_decode")) {}

  tex::BcTexels rtl(uint64_t lo, uint64_t hi, bool bc3) {
    m->block_i.at(0) = static_cast<uint32_t>(lo);
    m->block_i.at(1) = static_cast<uint32_t>(lo >> 32);
    m->block_i.at(2) = static_cast<uint32_t>(hi);
    m->block_i.at(3) = static_cast<uint32_t>(hi >> 32);
    m->bc3_i = bc3;
    m->eval();
    tex::BcTexels t{};
    for (int i = 0; i < 16; ++i) t[i] = m->texel_o.at(i);
    return t;
  }

  void check(uint64_t lo, uint64_t hi, bool bc3) {
    ++n;
    const tex::BcTexels want = tex::bc_decode_block(lo, hi, bc3), got = rtl(lo, hi, bc3);
    if (want != got && ++bad <= 8) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "MISMATCH %s block=%016llx%016llx\n", bc3 ? "BC3" : "BC1",
                    static_cast<unsigned long long>(hi), static_cast<unsigned long long>(lo));
      first += buf;
      for (int i = 0; i < 16; ++i) {
        if (want[i] != got[i]) {
          std::snprintf(buf, sizeof buf, "  texel %d: expected(model)=%08x actual(rtl)=%08x\n", i, want[i], got[i]);
          first += buf;
        }
      }
    }
  }
  void require() {
    std::printf("  %llu blocks, %llu mismatches\n", static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(bad));
    INFO(first);
    REQUIRE(bad == 0);
    REQUIRE(n > 0);
    REQUIRE(!ctx->gotError());
  }
};

uint64_t colour_block(uint32_t c0, uint32_t c1, uint32_t idx) {
  return static_cast<uint64_t>(c0 & 0xFFFFu) | static_cast<uint64_t>(c1 & 0xFFFFu) << 16 |
         static_cast<uint64_t>(idx) << 32;
}
// alpha block: a0, a1, then 16 3-bit indices
uint64_t alpha_block(uint32_t a0, uint32_t a1, uint64_t idx48) {
  return (a0 & 0xFFu) | (a1 & 0xFFu) << 8 | (idx48 & 0xFFFFFFFFFFFFull) << 16;
}
constexpr uint32_t kIdx0123 = 0xE4E4E4E4u;                // texel t selects colour t % 4
constexpr uint64_t kIdx0to7 = 0xFAC688FAC688ull;          // texel t selects alpha t % 8
uint32_t ch(uint32_t texel, int c) { return (texel >> (8 * c)) & 0xFFu; }

}  // namespace

TEST_CASE("tex_bc_decode: hand-computed palettes", "[tex_bc_decode]") {
  const uint64_t seed = tb::announce_seed("rtl_tex_bc_decode");
  Dut d(seed);
  // 4-colour: white -> black: 255, 0, (2*255+1)/3 = 170, (255+1)/3 = 85
  tex::BcTexels t = d.rtl(colour_block(0xFFFF, 0x0000, kIdx0123), 0, false);
  CHECK(t[0] == 0xFFFFFFFFu);
  CHECK(t[1] == 0xFF000000u);
  CHECK(t[2] == 0xFFAAAAAAu);
  CHECK(t[3] == 0xFF555555u);
  // 3-colour: black, white, (0 + 255 + 1) / 2 = 128, transparent black
  t = d.rtl(colour_block(0x0000, 0xFFFF, kIdx0123), 0, false);
  CHECK(t[0] == 0xFF000000u);
  CHECK(t[1] == 0xFFFFFFFFu);
  CHECK(t[2] == 0xFF808080u);
  CHECK(t[3] == 0x00000000u);
  // bit replication: r5 = 1 -> 8, g6 = 1 -> 4, b5 = 16 -> 132; c1 = 0: 4-colour
  t = d.rtl(colour_block(0x0830, 0x0000, kIdx0123), 0, false);
  CHECK(t[0] == 0xFF840408u);
  // 1/3 point of (8, 4, 132) and 0: (16+1)/3 = 5, (8+1)/3 = 3, (264+1)/3 = 88; 2/3: 3, 1, 44
  CHECK(t[2] == 0xFF580305u);
  CHECK(t[3] == 0xFF2C0103u);
  // BC3 uses 4 colours whatever the order; 8-alpha mode 255 -> 0
  t = d.rtl(alpha_block(255, 0, kIdx0to7), colour_block(0x0000, 0xFFFF, kIdx0123), true);
  const uint32_t a8[8] = {255, 0, 219, 182, 146, 109, 73, 36};
  for (int i = 0; i < 16; ++i) CHECK((t[i] >> 24) == a8[i % 8]);
  CHECK((t[2] & 0xFFFFFFu) == 0x555555u);
  CHECK((t[3] & 0xFFFFFFu) == 0xAAAAAAu);
  // 6-alpha mode 0 -> 255: 51, 102, 153, 204, then 0 and 255
  t = d.rtl(alpha_block(0, 255, kIdx0to7), colour_block(0xFFFF, 0x0000, kIdx0123), true);
  const uint32_t a6[8] = {0, 255, 51, 102, 153, 204, 0, 255};
  for (int i = 0; i < 16; ++i) CHECK((t[i] >> 24) == a6[i % 8]);
  // 8-alpha mode, rounding: a0 = 10, a1 = 0: (60+3)/7 = 9, (50+3)/7 = 7 (exact 7.14), (40+3)/7 = 6 (5.71)
  t = d.rtl(alpha_block(10, 0, kIdx0to7), 0, true);
  CHECK((t[2] >> 24) == 9);
  CHECK((t[3] >> 24) == 7);
  CHECK((t[4] >> 24) == 6);
  for (uint64_t lo : {colour_block(0xFFFF, 0, kIdx0123), colour_block(0, 0xFFFF, kIdx0123), colour_block(0x0830, 0, kIdx0123)}) {
    d.check(lo, 0, false);
  }
  d.require();
}

TEST_CASE("tex_bc_decode: every endpoint pair, both modes, every alpha pair", "[tex_bc_decode]") {
  const uint64_t seed = tb::announce_seed("rtl_tex_bc_decode");
  std::mt19937_64 rng(seed);
  Dut d(seed);
  // colour: every (x0, x1) in 64 x 64 gives every green pair and (through x & 31 and x >> 1) every
  // red and blue pair; each as BC1 both ways round (4- and 3-colour mode) and as BC3.
  for (uint32_t x0 = 0; x0 < 64; ++x0) {
    for (uint32_t x1 = 0; x1 < 64; ++x1) {
      const uint32_t c0 = (x0 & 31u) << 11 | x0 << 5 | (x0 >> 1);
      const uint32_t c1 = (x1 & 31u) << 11 | x1 << 5 | (x1 >> 1);
      const uint32_t c0b = (x0 >> 1) << 11 | x0 << 5 | (x0 & 31u);
      const uint32_t c1b = (x1 >> 1) << 11 | x1 << 5 | (x1 & 31u);
      for (uint32_t idx : {kIdx0123, static_cast<uint32_t>(rng())}) {
        d.check(colour_block(c0, c1, idx), 0, false);
        d.check(colour_block(c0b, c1b, idx), 0, false);
        d.check(alpha_block(static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), rng()), colour_block(c0, c1, idx), true);
        d.check(alpha_block(static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), rng()), colour_block(c0b, c1b, idx), true);
      }
    }
  }
  // alpha: every (a0, a1), indices covering all 8 entries
  for (uint32_t a0 = 0; a0 < 256; ++a0) {
    for (uint32_t a1 = 0; a1 < 256; ++a1) {
      d.check(alpha_block(a0, a1, kIdx0to7), rng(), true);
    }
  }
  d.require();
}

TEST_CASE("tex_bc_decode: mode edges", "[tex_bc_decode]") {
  const uint64_t seed = tb::announce_seed("rtl_tex_bc_decode");
  std::mt19937_64 rng(seed);
  Dut d(seed);
  // c0 == c1: BC1 3-colour mode (index 3 transparent black); BC3 still 4 colours (all equal)
  for (int i = 0; i < 20000; ++i) {
    const uint32_t c = static_cast<uint32_t>(rng()) & 0xFFFFu;
    const uint32_t idx = (i & 1) ? kIdx0123 : static_cast<uint32_t>(rng());
    const uint64_t eq = colour_block(c, c, idx);
    d.check(eq, 0, false);
    d.check(alpha_block(c & 0xFF, c & 0xFF, rng()), eq, true);
    const tex::BcTexels t = tex::bc_decode_block(colour_block(c, c, kIdx0123), 0, false);
    REQUIRE(t[3] == 0u);
    REQUIRE(t[2] == t[0]);
    if (c > 0) {  // c0 = c1 + 1: 4-colour; c0 = c1 - 1: 3-colour
      d.check(colour_block(c, c - 1, idx), 0, false);
      d.check(colour_block(c - 1, c, idx), 0, false);
      REQUIRE(tex::bc_decode_block(colour_block(c, c - 1, kIdx0123), 0, false)[3] >> 24 == 255u);
      REQUIRE(tex::bc_decode_block(colour_block(c - 1, c, kIdx0123), 0, false)[3] == 0u);
    }
  }
  for (uint32_t a = 0; a < 256; ++a) {
    d.check(alpha_block(a, a, kIdx0to7), rng(), true);
    d.check(alpha_block(a, a, rng()), rng(), true);
    if (a > 0) {
      d.check(alpha_block(a, a - 1, kIdx0to7), rng(), true);
      d.check(alpha_block(a - 1, a, kIdx0to7), rng(), true);
    }
    for (uint32_t e : {0u, 255u}) {
      d.check(alpha_block(a, e, kIdx0to7), rng(), true);
      d.check(alpha_block(e, a, kIdx0to7), rng(), true);
    }
  }
  for (uint32_t e0 : {0x0000u, 0xFFFFu, 0x001Fu, 0x07E0u, 0xF800u}) {
    for (uint32_t e1 : {0x0000u, 0xFFFFu, 0x001Fu, 0x07E0u, 0xF800u}) {
      for (uint32_t idx : {0u, 0x55555555u, 0xAAAAAAAAu, 0xFFFFFFFFu, kIdx0123}) {
        d.check(colour_block(e0, e1, idx), 0, false);
        d.check(alpha_block(e0 & 0xFF, e1 & 0xFF, 0xFFFFFFFFFFFFull), colour_block(e0, e1, idx), true);
      }
    }
  }
  d.require();
}

namespace {
void random_blocks(uint64_t seed, uint64_t count) {
  std::mt19937_64 rng(seed);
  Dut d(seed);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t lo = rng(), hi = rng();
    d.check(lo, hi, (i & 1) != 0);
  }
  d.require();
}
}  // namespace

TEST_CASE("tex_bc_decode: random blocks, RTL vs model", "[tex_bc_decode]") {
  random_blocks(tb::announce_seed("rtl_tex_bc_decode"), 2000000);
}

TEST_CASE("tex_bc_decode: random blocks, long", "[tex_bc_decode][.long]") {
  random_blocks(tb::announce_seed("rtl_tex_bc_decode"), 40000000);
}

namespace {

// 565 -> 888 as the decoder expands it (bit replication)
uint32_t exact565(uint32_t c) {
  return tex::bc_expand5(c >> 11) | tex::bc_expand6((c >> 5) & 63u) << 8 | tex::bc_expand5(c & 31u) << 16;
}

// A source block of the kind `kind`: 0 noise, 1 gradient, 2 two exact 565 colours, 3 flat.
void make_block(std::mt19937_64& rng, int kind, uint8_t* px) {
  const uint32_t ca = exact565(static_cast<uint32_t>(rng()) & 0xFFFFu);
  const uint32_t cb = exact565(static_cast<uint32_t>(rng()) & 0xFFFFu);
  const int a_lo = static_cast<int>(rng() % 256), a_hi = static_cast<int>(rng() % 256);
  const int gx = static_cast<int>(rng() % 3), gy = static_cast<int>(rng() % 3);
  for (int i = 0; i < 16; ++i) {
    const int x = i % 4, y = i / 4;
    const bool pick = (rng() & 1) != 0;
    for (int c = 0; c < 4; ++c) {
      int v = 0;
      if (kind == 0) {
        v = static_cast<int>(rng() % 256);
      } else if (kind == 1) {
        const int lo = c < 3 ? static_cast<int>(ch(ca, c)) : a_lo, hi = c < 3 ? static_cast<int>(ch(cb, c)) : a_hi;
        const int num = gx * x + gy * y, den = std::max(1, 3 * gx + 3 * gy);
        v = lo + (hi - lo) * num / den;
      } else if (kind == 2) {
        v = c < 3 ? static_cast<int>(ch(pick ? cb : ca, c)) : (pick ? a_hi : a_lo);
      } else {
        v = c < 3 ? static_cast<int>(ch(ca, c)) : a_lo;
      }
      px[4 * i + c] = static_cast<uint8_t>(v);
    }
  }
}

uint64_t le64(const uint8_t* b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | b[i];
  return v;
}

}  // namespace

// The model against the stb_dxt encoder (STB_DXT_HIGHQUAL). Bounds, per texel and channel:
//  - colour, every kind: |ours - stb's own palette entry| <= 1, where stb's entry is
//    stb__EvalColors (the encoder's view: same 565 expansion, (2a+b)/3 truncated where we round,
//    and no 3-colour mode: stb always writes c0 >= c1); when c0 == c1 both see one colour.
//  - colour, two exact 565 colours: ours == source exactly (proves endpoint order, index layout,
//    row-major texel order and the bit replication against an independent encoder).
//  - BC3 alpha: |ours - source| <= ceil((max - min) / 14) + 1: stb takes min/max as endpoints in
//    the 8-alpha mode and picks the nearest of 8 levels (half a step (max-min)/14), +1 for the
//    palette's rounding; exact when the block has one or two alpha values.
TEST_CASE("tex_bc_decode: model decodes stb_dxt's blocks as encoded", "[tex_bc_decode][stb]") {
  const uint64_t seed = tb::announce_seed("rtl_tex_bc_decode");
  std::mt19937_64 rng(seed);
  uint64_t blocks = 0, bad = 0;
  double sq_err[4] = {0, 0, 0, 0};
  uint64_t sq_n[4] = {0, 0, 0, 0};
  std::string first;
  for (int i = 0; i < 200000; ++i) {
    const int kind = i % 4;
    const bool bc3 = (i / 4) % 2 != 0;
    uint8_t px[64], out[16] = {};
    make_block(rng, kind, px);
    if (!bc3) {
      for (int t = 0; t < 16; ++t) px[4 * t + 3] = 255;  // stb: constant alpha when not stored
    }
    stb_compress_dxt_block(out, px, bc3 ? 1 : 0, STB_DXT_HIGHQUAL);
    const uint64_t lo = le64(out), hi = le64(out + 8);
    const tex::BcTexels t = tex::bc_decode_block(lo, hi, bc3);
    const uint64_t cb = bc3 ? hi : lo;
    unsigned char stb_pal[16];
    stb__EvalColors(stb_pal, static_cast<unsigned short>(cb & 0xFFFF), static_cast<unsigned short>((cb >> 16) & 0xFFFF));
    int amin = 255, amax = 0;
    for (int k = 0; k < 16; ++k) {
      amin = std::min<int>(amin, px[4 * k + 3]);
      amax = std::max<int>(amax, px[4 * k + 3]);
    }
    const int abound = (amax - amin + 13) / 14 + 1;
    ++blocks;
    bool ok = true;
    for (int k = 0; k < 16; ++k) {
      const int ci = static_cast<int>((cb >> (32 + 2 * k)) & 3u);
      for (int c = 0; c < 4; ++c) {
        const int ours = static_cast<int>(ch(t[k], c)), src = px[4 * k + c];
        sq_err[kind] += static_cast<double>((ours - src) * (ours - src));
        ++sq_n[kind];
        if (c < 3) {
          int stb_v = stb_pal[4 * ci + c];
          if ((cb & 0xFFFF) == ((cb >> 16) & 0xFFFF)) stb_v = stb_pal[c];
          if (std::abs(ours - stb_v) > 1) ok = false;
          if (kind >= 2 && ours != src) ok = false;
        } else if (bc3) {
          if (std::abs(ours - src) > abound) ok = false;
          if (kind >= 2 && ours != src) ok = false;
        } else if (ours != 255) {
          ok = false;
        }
      }
    }
    if (!ok && ++bad <= 4) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "BAD kind=%d %s block=%016llx%016llx\n", kind, bc3 ? "BC3" : "BC1",
                    static_cast<unsigned long long>(hi), static_cast<unsigned long long>(lo));
      first += buf;
      for (int k = 0; k < 16; ++k) {
        std::snprintf(buf, sizeof buf, "  texel %d: src=%02x%02x%02x%02x ours=%08x\n", k, px[4 * k + 3], px[4 * k + 2],
                      px[4 * k + 1], px[4 * k], t[k]);
        first += buf;
      }
    }
  }
  const char* names[4] = {"noise", "gradient", "two-colour", "flat"};
  for (int k = 0; k < 4; ++k) {
    std::printf("  stb_dxt round trip, %s blocks: RMS error %.2f (of 255) per channel\n", names[k],
                std::sqrt(sq_err[k] / static_cast<double>(sq_n[k])));
  }
  std::printf("  %llu blocks, %llu out of bounds\n", static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(bad));
  INFO(first);
  REQUIRE(bad == 0);
}
