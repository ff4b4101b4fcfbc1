// SPDX-License-Identifier: Apache-2.0
// The output merger's blend arithmetic (cpp_model/om/om_blend, docs/om.md): the integer
// division helpers against exact rationals, the sRGB tables' round trip, identities that must
// hold exactly (ONE/ZERO keeps src or dst bit for bit, in every format), and every blend within
// 1 code of a double-precision evaluation of D3D's formula.
#include <cmath>
#include <cstdio>
#include <random>

#include "om/om_blend.h"
#include "test_util.h"

using namespace pineda;
namespace om = pineda::model::om;

namespace {

OmState state(uint32_t fmt, uint32_t src, uint32_t dst, uint32_t op, uint32_t src_a, uint32_t dst_a, uint32_t op_a) {
  OmState s;
  s.fmt = fmt;
  s.blend = 1;
  s.src = src;
  s.dst = dst;
  s.op = op;
  s.src_a = src_a;
  s.dst_a = dst_a;
  s.op_a = op_a;
  s.factor = 0x80FF4010u;
  return s;
}

double srgb_lin(double x) { return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4); }
double lin_srgb(double x) { return x <= 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1 / 2.4) - 0.055; }

// D3D's formula in doubles on [0, 1] channel values; the result as the format's codes.
std::array<double, 4> ref_decode(uint32_t fmt, uint32_t raw) {
  auto b = [raw](int k) { return ((raw >> (8 * k)) & 255u) / 255.0; };
  switch (fmt) {
    case RT_FMT_BGRA8: return {b(2), b(1), b(0), b(3)};
    case RT_FMT_RGBA8_SRGB: return {srgb_lin(b(0)), srgb_lin(b(1)), srgb_lin(b(2)), b(3)};
    case RT_FMT_B5G6R5: return {((raw >> 11) & 31u) / 31.0, ((raw >> 5) & 63u) / 63.0, (raw & 31u) / 31.0, 1.0};
    default: return {b(0), b(1), b(2), b(3)};
  }
}
double ref_factor(uint32_t code, int ch, const std::array<double, 4>& s, const std::array<double, 4>& d,
                  const std::array<double, 4>& k) {
  switch (code) {
    case BF_ONE: return 1;
    case BF_SRC_COLOR: return s[ch];
    case BF_INV_SRC_COLOR: return 1 - s[ch];
    case BF_SRC_ALPHA: return s[3];
    case BF_INV_SRC_ALPHA: return 1 - s[3];
    case BF_DEST_ALPHA: return d[3];
    case BF_INV_DEST_ALPHA: return 1 - d[3];
    case BF_DEST_COLOR: return d[ch];
    case BF_INV_DEST_COLOR: return 1 - d[ch];
    case BF_SRC_ALPHA_SAT: return ch == 3 ? 1 : std::min(s[3], 1 - d[3]);
    case BF_BLEND_FACTOR: return k[ch];
    case BF_INV_BLEND_FACTOR: return 1 - k[ch];
    default: return 0;
  }
}
double ref_op(uint32_t op, double s, double fs, double d, double fd) {
  switch (op) {
    case BOP_SUBTRACT: return std::clamp(s * fs - d * fd, 0.0, 1.0);
    case BOP_REV_SUBTRACT: return std::clamp(d * fd - s * fs, 0.0, 1.0);
    case BOP_MIN: return std::min(s, d);
    case BOP_MAX: return std::max(s, d);
    default: return std::clamp(s * fs + d * fd, 0.0, 1.0);
  }
}

}  // namespace

TEST_CASE("om: div65535r and div257r round exactly", "[om]") {
  for (uint32_t v = 0; v <= 65535; ++v) REQUIRE(om::div257r(v) == (2 * v + 257) / 514);
  const uint32_t seed = test::base_seed();
  std::printf("om div seed %u\n", seed);
  std::mt19937_64 rng(seed);
  const uint64_t kMax = 65535ull * 65535ull;
  for (uint64_t q = 0; q <= 65535; ++q) {
    for (uint64_t x : {65535 * q + 32767, 65535 * q + 32768, 65535 * q}) {
      if (x <= kMax) REQUIRE(om::div65535r(x) == (2 * x + 65535) / 131070);
    }
  }
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t x = rng() % (kMax + 1);
    REQUIRE(om::div65535r(x) == (2 * x + 65535) / 131070);
  }
}

TEST_CASE("om: sRGB tables round-trip and encode to the nearest sRGB code", "[om]") {
  for (uint32_t c = 0; c < 256; ++c) REQUIRE(om::lin16_to_srgb(om::srgb_to_lin16(c)) == c);
  for (uint32_t v = 0; v <= 65535; ++v) {
    const uint32_t c = om::lin16_to_srgb(v);
    const double exact = 255.0 * lin_srgb(v / 65535.0);
    INFO("v=" << v << " c=" << c << " exact=" << exact);
    REQUIRE(std::fabs(exact - c) <= 0.5 + 1e-9);
  }
}

TEST_CASE("om: ONE/ZERO passes src, ZERO/ONE keeps dst, bit for bit in every format", "[om]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    const OmState keep = state(fmt, BF_ZERO, BF_ONE, BOP_ADD, BF_ZERO, BF_ONE, BOP_ADD);
    const OmState pass = state(fmt, BF_ONE, BF_ZERO, BOP_ADD, BF_ONE, BF_ZERO, BOP_ADD);
    OmState off = pass;
    off.blend = 0;
    for (int i = 0; i < 200000; ++i) {
      const uint32_t src = rng(), dst = fmt == RT_FMT_B5G6R5 ? (rng() & 0xFFFFu) : rng();
      REQUIRE(om::blend_pixel(keep, src, dst) == dst);
      REQUIRE(om::blend_pixel(pass, src, dst) == om::blend_pixel(off, src, dst));
      if (fmt == RT_FMT_RGBA8) REQUIRE(om::blend_pixel(pass, src, dst) == src);
      if (fmt == RT_FMT_BGRA8)
        REQUIRE(om::blend_pixel(pass, src, dst) == ((src & 0xFF00FF00u) | (src >> 16 & 0xFFu) | (src & 0xFFu) << 16));
    }
  }
}

TEST_CASE("om: write masks keep the masked channels' stored bits", "[om]") {
  const uint32_t seed = test::base_seed() + 1;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    for (uint32_t m = 0; m < 16; ++m) {
      OmState s = state(fmt, BF_SRC_ALPHA, BF_INV_SRC_ALPHA, BOP_ADD, BF_ONE, BF_ZERO, BOP_ADD);
      s.mask_off = m;
      const uint32_t wb = om::write_bits(fmt, m);
      for (int i = 0; i < 2000; ++i) {
        const uint32_t src = rng(), dst = fmt == RT_FMT_B5G6R5 ? (rng() & 0xFFFFu) : rng();
        OmState all = s;
        all.mask_off = 0;
        const uint32_t full = om::blend_pixel(all, src, dst), got = om::blend_pixel(s, src, dst);
        REQUIRE((got & ~wb) == (dst & ~wb));
        REQUIRE((got & wb) == (full & wb));
      }
    }
  }
}

TEST_CASE("om: every factor and op is within one code of D3D's formula in doubles", "[om]") {
  const uint32_t seed = test::base_seed() + 2;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const uint32_t factors[] = {BF_ZERO, BF_ONE, BF_SRC_COLOR, BF_INV_SRC_COLOR, BF_SRC_ALPHA, BF_INV_SRC_ALPHA,
                              BF_DEST_ALPHA, BF_INV_DEST_ALPHA, BF_DEST_COLOR, BF_INV_DEST_COLOR, BF_SRC_ALPHA_SAT,
                              BF_BLEND_FACTOR, BF_INV_BLEND_FACTOR};
  uint64_t n = 0;
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    for (uint32_t op = 0; op < 5; ++op) {
      for (uint32_t fs : factors) {
        for (uint32_t fd : factors) {
          OmState s = state(fmt, fs, fd, op, fd, fs, 4 - op);
          s.factor = rng();
          for (int i = 0; i < 40; ++i, ++n) {
            const uint32_t src = rng(), dst = fmt == RT_FMT_B5G6R5 ? (rng() & 0xFFFFu) : rng();
            const uint32_t got = om::blend_pixel(s, src, dst);
            const auto S = ref_decode(RT_FMT_RGBA8, src), D = ref_decode(fmt, dst), K = ref_decode(RT_FMT_RGBA8, s.factor);
            const auto G = ref_decode(fmt, got);
            for (int ch = 0; ch < (fmt == RT_FMT_B5G6R5 ? 3 : 4); ++ch) {
              const bool a = ch == 3;
              const double want = ref_op(a ? s.op_a : s.op, S[ch], ref_factor(a ? s.src_a : s.src, ch, S, D, K), D[ch],
                                         ref_factor(a ? s.dst_a : s.dst, ch, S, D, K));
              double w = want, g = G[ch], scale = fmt == RT_FMT_B5G6R5 ? (ch == 1 ? 63.0 : 31.0) : 255.0;
              if (fmt == RT_FMT_RGBA8_SRGB && !a) {
                w = lin_srgb(want);
                g = lin_srgb(G[ch]);
              }
              INFO("fmt=" << fmt << " op=" << op << " fs=" << fs << " fd=" << fd << " ch=" << ch << " src=" << src
                          << " dst=" << dst << " got=" << got << " want=" << w * scale);
              REQUIRE(std::fabs(g * scale - w * scale) <= 1.0 + 1e-6);
            }
          }
        }
      }
    }
  }
  std::printf("om: %llu blends within one code of the double reference\n", static_cast<unsigned long long>(n));
}
