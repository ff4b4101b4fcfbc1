// SPDX-License-Identifier: Apache-2.0
// COMB (docs/comb.md): the combiner's frozen integer arithmetic against a double-precision
// reference over every input (bound: |o - exact| <= 127/255, i.e. round to nearest), planted
// wrong roundings that the same check must reject, the alpha test against an independent
// comparison, and the quad-level behaviour (kill at 1x and 4x, depth cleared, empty quads
// dropped, tokens, stage chaining, reserved modes).
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "comb/combiner.h"
#include "test_util.h"

using namespace pineda;
using namespace pineda::model;

namespace {

constexpr double kBound = 127.0 / 255.0;  // round to nearest of k/255: never a tie

uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }
uint32_t chan(uint32_t v, int k) { return (v >> (8 * k)) & 255u; }

// The exact (double) value of one channel of one stage (docs/comb.md section 2).
double exact(uint32_t mode, int k, uint32_t c, uint32_t t) {
  const double cc = chan(c, k), tc = chan(t, k), ta = chan(t, 3);
  switch (mode) {
    case COMB_MODULATE: return tc * cc / 255.0;
    case COMB_REPLACE: return tc;
    case COMB_ADD: return k == 3 ? tc * cc / 255.0 : std::min(tc + cc, 255.0);
    case COMB_DECAL: return k == 3 ? cc : (tc * ta + cc * (255.0 - ta)) / 255.0;
    default: return cc;
  }
}

using StageFn = std::function<uint32_t(uint32_t mode, uint32_t c, uint32_t t)>;

// Every (colour channel, texel channel) pair of every mode; DECAL also every texel alpha.
// Returns the number of channels outside the bound and the largest error seen.
struct Sweep {
  uint64_t bad = 0, n = 0;
  double max_err = 0;
};
Sweep sweep(const StageFn& fn, uint32_t mode) {
  Sweep s;
  auto check = [&](uint32_t c, uint32_t t) {
    const uint32_t o = fn(mode, c, t);
    for (int k = 0; k < 4; ++k) {
      const double e = std::fabs(double(chan(o, k)) - exact(mode, k, c, t));
      s.max_err = std::max(s.max_err, e);
      ++s.n;
      if (e > kBound + 1e-12) ++s.bad;
    }
  };
  for (uint32_t x = 0; x < 256; ++x) {
    for (uint32_t y = 0; y < 256; ++y) {
      if (mode == COMB_DECAL) {
        for (uint32_t ta = 0; ta < 256; ta += (ta < 4 || ta > 250) ? 1 : 7) check(rgba(x, y, x, y), rgba(y, x, ta, ta));
      } else {
        check(rgba(x, y, x, y), rgba(y, x, y, x));
      }
    }
  }
  return s;
}

// Wrong roundings a careless implementation might freeze; each must fail the sweep.
uint32_t planted(uint32_t mode, uint32_t c, uint32_t t, int variant) {
  auto bad_div = [&](uint32_t n) -> uint32_t {
    switch (variant) {
      case 0: return n >> 8;                    // divide by 256, truncate
      case 1: return (n + 128) >> 8;            // divide by 256, round
      default: return n / 255;                  // truncate
    }
  };
  const uint32_t ta = chan(t, 3);
  uint32_t out = 0;
  for (int k = 0; k < 4; ++k) {
    const uint32_t cc = chan(c, k), tc = chan(t, k);
    uint32_t o = cc;
    switch (mode) {
      case COMB_MODULATE: o = bad_div(tc * cc); break;
      case COMB_REPLACE: o = tc; break;
      case COMB_ADD: o = k == 3 ? bad_div(tc * cc) : std::min(tc + cc, 255u); break;
      case COMB_DECAL: o = k == 3 ? cc : bad_div(tc * ta + cc * (255u - ta)); break;
      default: break;
    }
    out |= std::min(o, 255u) << (8 * k);
  }
  return out;
}

CombInPkt quad(uint32_t st_word, bool msaa, uint64_t mask) {
  CombInPkt in;
  in.st = CombState::unpack(std::array<uint32_t, 1>{st_word}.data());
  in.ip.quad.qx = 5;
  in.ip.quad.qy = 7;
  in.ip.quad.target.msaa = msaa ? 1 : 0;
  in.ip.quad.mask = mask;
  for (int i = 0; i < 16; ++i) in.ip.quad.z[i].v = ((mask >> i) & 1u) ? 1000u + i : 0u;
  return in;
}

uint32_t comb_word(bool tex, uint32_t mode, bool at, uint32_t func, uint32_t ref, bool tex1 = false, uint32_t mode1 = 0) {
  return (tex ? 1u << COMB_TEX_ENABLE_BIT : 0u) | mode << COMB_MODE_LSB | (at ? 1u << COMB_ALPHA_TEST_BIT : 0u) |
         func << COMB_ALPHA_FUNC_LSB | ref << COMB_ALPHA_REF_LSB | (tex1 ? 1u << COMB1_TEX_ENABLE_BIT : 0u) |
         mode1 << COMB1_MODE_LSB;
}

}  // namespace

TEST_CASE("comb: div255 is round(n/255) for every n of the contract's range", "[comb]") {
  for (uint32_t n = 0; n <= 65025; ++n) {
    const double e = std::fabs(double(Combiner::div255(n)) - n / 255.0);
    if (e > kBound + 1e-12) FAIL("div255(" << n << ") = " << Combiner::div255(n));
  }
  CHECK(Combiner::mul8(255, 255) == 255);
  CHECK(Combiner::mul8(255, 0) == 0);
  CHECK(Combiner::mul8(128, 255) == 128);
  CHECK(Combiner::mul8(1, 128) == 1);   // 0.502 -> 1
  CHECK(Combiner::mul8(1, 127) == 0);   // 0.498 -> 0
}

TEST_CASE("comb: every mode against the double reference, every input", "[comb]") {
  const StageFn model = [](uint32_t m, uint32_t c, uint32_t t) { return Combiner::stage(m, c, t); };
  for (uint32_t mode = 0; mode < 8; ++mode) {
    const Sweep s = sweep(model, mode);
    std::printf("comb mode %u: %llu channels, max |o - exact| = %.4f (bound %.4f)\n", mode,
                static_cast<unsigned long long>(s.n), s.max_err, kBound);
    CHECK(s.bad == 0);
  }
  // Edges by hand.
  CHECK(Combiner::stage(COMB_MODULATE, 0xFFFFFFFFu, 0x80402010u) == 0x80402010u);
  CHECK(Combiner::stage(COMB_MODULATE, 0u, 0xFFFFFFFFu) == 0u);
  CHECK(Combiner::stage(COMB_REPLACE, 0x12345678u, 0x9ABCDEF0u) == 0x9ABCDEF0u);
  CHECK(Combiner::stage(COMB_ADD, rgba(200, 55, 0, 255), rgba(100, 200, 0, 128)) == rgba(255, 255, 0, 128));
  CHECK(Combiner::stage(COMB_DECAL, rgba(10, 20, 30, 77), rgba(200, 100, 50, 255)) == rgba(200, 100, 50, 77));
  CHECK(Combiner::stage(COMB_DECAL, rgba(10, 20, 30, 77), rgba(200, 100, 50, 0)) == rgba(10, 20, 30, 77));
  for (uint32_t m = 4; m < 8; ++m) CHECK(Combiner::stage(m, 0x11223344u, 0xFFFFFFFFu) == 0x11223344u);
}

TEST_CASE("comb: planted wrong roundings fail the same check", "[comb]") {
  for (int variant = 0; variant < 3; ++variant) {
    const StageFn bad = [variant](uint32_t m, uint32_t c, uint32_t t) { return planted(m, c, t, variant); };
    for (uint32_t mode : {COMB_MODULATE, COMB_ADD, COMB_DECAL}) {
      const Sweep s = sweep(bad, mode);
      INFO("variant " << variant << " mode " << mode);
      CHECK(s.bad > 0);
    }
  }
}

TEST_CASE("comb: alpha test, every function, every alpha and reference", "[comb]") {
  const std::function<bool(int, int)> ref[8] = {
      [](int, int) { return false; },        std::less<int>(),          std::equal_to<int>(),
      std::less_equal<int>(),                std::greater<int>(),       std::not_equal_to<int>(),
      std::greater_equal<int>(),             [](int, int) { return true; }};
  for (uint32_t f = 0; f < 8; ++f) {
    for (int a = 0; a < 256; ++a) {
      for (int r = 0; r < 256; ++r) {
        if (cmp_pass(f, uint32_t(a), uint32_t(r)) != ref[f](a, r))
          FAIL("func " << f << " a " << a << " ref " << r);
      }
    }
  }
}

TEST_CASE("comb: quads: kill at 1x and 4x, depth cleared, dropped quads, tokens, stages", "[comb]") {
  Combiner cb;
  SECTION("no texture, no alpha test: the quad passes unchanged") {
    CombInPkt in = quad(0, false, 0xB);
    for (int p = 0; p < 4; ++p) in.ip.pcolor[p].data = 0x01020304u * uint32_t(p + 1);
    for (int p = 0; p < 4; ++p) in.texel0[p].data = 0xFFFFFFFFu;
    const auto out = cb.process(in);
    REQUIRE(out.has_value());
    CHECK(*out == in.ip);
  }
  SECTION("alpha test kills pixels at 1x") {
    CombInPkt in = quad(comb_word(true, COMB_MODULATE, true, CMP_GREATER_EQUAL, 128), false, 0xF);
    const uint32_t ta[4] = {255, 127, 128, 0};
    for (int p = 0; p < 4; ++p) {
      in.ip.pcolor[p].data = 0xFFFFFFFFu;
      in.texel0[p].data = rgba(1, 2, 3, ta[p]);
    }
    const auto out = cb.process(in);
    REQUIRE(out.has_value());
    CHECK(out->quad.mask == 0x5);
    CHECK(out->quad.z[0].v == 1000);
    CHECK(out->quad.z[1].v == 0);
    CHECK(out->quad.z[2].v == 1002);
    CHECK(out->quad.z[3].v == 0);
    CHECK(out->pcolor[0].data == rgba(1, 2, 3, 255));
    CHECK(cb.killed_pixels() == 2);
  }
  SECTION("alpha test kills all four samples of a pixel at 4x") {
    CombInPkt in = quad(comb_word(false, 0, true, CMP_LESS, 100), true, 0xF3F1);
    for (int p = 0; p < 4; ++p) in.ip.pcolor[p].data = rgba(0, 0, 0, p == 2 ? 100 : 50);
    const auto out = cb.process(in);
    REQUIRE(out.has_value());
    CHECK(out->quad.mask == 0xF0F1);
    for (int s = 8; s < 12; ++s) CHECK(out->quad.z[s].v == 0);
    CHECK(out->quad.z[13].v == 1013);
  }
  SECTION("a quad with every pixel killed is dropped; a token passes") {
    CombInPkt in = quad(comb_word(false, 0, true, CMP_NEVER, 0), false, 0x6);
    CHECK_FALSE(cb.process(in).has_value());
    CHECK(cb.dropped_quads() == 1);
    CombInPkt tok;
    tok.ip.quad.eop = 1;
    tok.st = in.st;
    const auto out = cb.process(tok);
    REQUIRE(out.has_value());
    CHECK(out->quad.eop == 1);
  }
  SECTION("stage 1 takes stage 0's result as its colour; the test reads the final alpha") {
    const uint32_t w = comb_word(true, COMB_MODULATE, true, CMP_EQUAL, 64, true, COMB_MODULATE);
    CombInPkt in = quad(w, false, 0x1);
    in.ip.pcolor[0].data = rgba(255, 255, 255, 255);
    in.texel0[0].data = rgba(128, 255, 0, 128);
    in.texel1[0].data = rgba(128, 128, 128, 128);
    const auto out = cb.process(in);
    REQUIRE(out.has_value());
    CHECK(out->pcolor[0].data == rgba(Combiner::mul8(128, 128), 128, 0, 64));
    CHECK(out->quad.mask == 0x1);
  }
}
