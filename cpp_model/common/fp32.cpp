// SPDX-License-Identifier: Apache-2.0
// FP32 arithmetic in integers (docs/numerics.md section 7). The RTL twins are
// rtl/common/fp32_add.sv, fp32_mul.sv, fp32_rcp.sv and fp32_to_fix16_8.sv; each step below
// names the matching step there.
#include "fp32.h"

#include <utility>

namespace pineda::fp32 {

namespace {

constexpr uint32_t HIDDEN = 0x800000u;  // the implicit leading 1 of a normal significand

// Rounds sig24 (bit 23 set) with its guard bit and sticky (OR of every lower bit) to nearest
// even, then packs: a rounded exponent >= 255 is +-Inf, <= 0 is a zero of the same sign (FTZ,
// tininess after rounding).
uint32_t round_pack(uint32_t sign, int32_t exp, uint32_t sig24, bool guard, bool sticky) {
  if (guard && (sticky || (sig24 & 1u))) {
    ++sig24;
    if (sig24 >> 24) {  // 1.111..1 + ulp = 10.000..0
      sig24 >>= 1;
      ++exp;
    }
  }
  if (exp >= 255) return sign | INF;
  if (exp <= 0) return sign;
  return sign | (static_cast<uint32_t>(exp) << 23) | (sig24 & 0x7FFFFFu);
}

}  // namespace

uint32_t add(uint32_t a, uint32_t b) {
  // 1. Specials: NaN, Inf, zeros (denormals are zeros).
  if (is_nan(a) || is_nan(b)) return QNAN;
  const uint32_t sa = a & SIGN, sb = b & SIGN;
  if (is_inf(a)) return (is_inf(b) && sa != sb) ? QNAN : a;
  if (is_inf(b)) return b;
  const bool za = is_zero_daz(a), zb = is_zero_daz(b);
  if (za && zb) return sa & sb;  // -0 + -0 = -0; any other pair of zeros = +0
  if (za) return b;
  if (zb) return a;

  // 2. Order by magnitude (|big| >= |small|); the result takes big's sign.
  uint32_t big = a, small = b;
  if ((b & ~SIGN) > (a & ~SIGN)) std::swap(big, small);
  const int32_t ebig = static_cast<int32_t>(exp_field(big));
  const uint32_t d = exp_field(big) - exp_field(small);

  // 3. Align in 27 bits: 24-bit significand, guard, round, sticky (sticky ORed into bit 0).
  const uint32_t mbig = (frac_field(big) | HIDDEN) << 3;
  uint32_t msmall = (frac_field(small) | HIDDEN) << 3;
  if (d >= 27) {
    msmall = 1;  // only the sticky is left
  } else if (d > 0) {
    const bool st = (msmall & ((1u << d) - 1u)) != 0;
    msmall = (msmall >> d) | (st ? 1u : 0u);
  }

  // 4. Add or subtract magnitudes; normalise so that bit 26 is the leading 1.
  int32_t e = ebig;
  uint32_t r;
  if (sa == sb) {
    r = mbig + msmall;  // < 2^28
    if (r >> 27) {
      r = (r >> 1) | (r & 1u);
      ++e;
    }
  } else {
    r = mbig - msmall;
    if (r == 0) return 0;  // exact cancellation: +0 (round to nearest)
    while (!(r & (1u << 26))) {
      r <<= 1;
      --e;
    }
  }

  // 5. Round to nearest even, then overflow / flush.
  return round_pack(big & SIGN, e, r >> 3, (r >> 2) & 1u, (r & 3u) != 0);
}

uint32_t mul(uint32_t a, uint32_t b) {
  // 1. Specials.
  const uint32_t sign = (a ^ b) & SIGN;
  if (is_nan(a) || is_nan(b)) return QNAN;
  const bool za = is_zero_daz(a), zb = is_zero_daz(b);
  if (is_inf(a) || is_inf(b)) return (za || zb) ? QNAN : (sign | INF);  // 0 * Inf = NaN
  if (za || zb) return sign;

  // 2. 24 x 24 -> 48-bit product in [2^46, 2^48); normalise by at most one bit.
  const uint64_t p = static_cast<uint64_t>(frac_field(a) | HIDDEN) * (frac_field(b) | HIDDEN);
  int32_t e = static_cast<int32_t>(exp_field(a) + exp_field(b)) - 127;
  uint32_t sig;
  bool guard, sticky;
  if (p >> 47) {
    ++e;
    sig = static_cast<uint32_t>(p >> 24);
    guard = (p >> 23) & 1u;
    sticky = (p & 0x7FFFFFu) != 0;
  } else {
    sig = static_cast<uint32_t>(p >> 23);
    guard = (p >> 22) & 1u;
    sticky = (p & 0x3FFFFFu) != 0;
  }

  // 3. Round to nearest even, then overflow / flush.
  return round_pack(sign, e, sig, guard, sticky);
}

uint32_t rcp(uint32_t a) {
  // 1. Specials: 1/NaN = NaN, 1/+-Inf = +-0, 1/+-0 (and denormals) = +-Inf.
  const uint32_t sign = a & SIGN;
  if (is_nan(a)) return QNAN;
  if (is_inf(a)) return sign;
  if (is_zero_daz(a)) return sign | INF;

  // 2. x = M * 2^(e-127) with M = m / 2^23 in [1, 2). A power of two is exact: 2^(127-e).
  const int32_t e = static_cast<int32_t>(exp_field(a));
  if (frac_field(a) == 0) {
    const int32_t re = 254 - e;
    return re <= 0 ? sign : (sign | (static_cast<uint32_t>(re) << 23));
  }

  // 3. Otherwise 1/x = (2/M) * 2^(126-e) with 2/M in (1, 2): q = floor(2^48 / m) has 25 bits
  //    (24-bit significand and the guard bit), the remainder gives the sticky.
  const uint64_t m = frac_field(a) | HIDDEN;
  const uint64_t q = (uint64_t{1} << 48) / m;
  const uint64_t rem = (uint64_t{1} << 48) % m;
  return round_pack(sign, 253 - e, static_cast<uint32_t>(q >> 1), (q & 1u) != 0, rem != 0);
}

int32_t to_fix16_8(uint32_t a) {
  constexpr int32_t kMax = static_cast<int32_t>(FIX16_8_MAX);  // 2^23 - 1
  constexpr int32_t kMin = -kMax - 1;                           // -2^23
  // 1. Specials: NaN -> 0, +-Inf saturate, zeros and denormals -> 0.
  if (is_nan(a)) return 0;
  const bool neg = (a & SIGN) != 0;
  if (is_inf(a)) return neg ? kMin : kMax;
  if (is_zero_daz(a)) return 0;

  // 2. x * 256 = m * 2^(e-142). e >= 142: |x * 256| >= 2^23, saturate (-2^23 itself is exact).
  const int32_t e = static_cast<int32_t>(exp_field(a));
  if (e >= 142) return neg ? kMin : kMax;

  // 3. Shift right by s = 142 - e (capped at 27: anything below 1/8 rounds to 0), keep the
  //    guard bit and sticky, round to nearest even.
  const uint32_t s = e < 116 ? 27u : static_cast<uint32_t>(142 - e);
  const uint64_t ext = (static_cast<uint64_t>(frac_field(a) | HIDDEN) << 27) >> s;  // int.27 frac
  uint32_t mag = static_cast<uint32_t>(ext >> 27);
  const bool guard = (ext >> 26) & 1u;
  const bool sticky = (ext & ((uint64_t{1} << 26) - 1u)) != 0;
  if (guard && (sticky || (mag & 1u))) ++mag;  // mag <= 2^23

  // 4. Sign and saturation (only +2^23 can be out of range here).
  if (neg) return -static_cast<int32_t>(mag);
  return mag > static_cast<uint32_t>(kMax) ? kMax : static_cast<int32_t>(mag);
}

int64_t to_fix(uint32_t a, int frac, int width) {
  const int64_t kMax = (int64_t{1} << (width - 1)) - 1;
  if (is_nan(a) || is_zero_daz(a)) return 0;
  const bool neg = (a & SIGN) != 0;
  if (is_inf(a)) return neg ? -kMax : kMax;
  // x * 2^frac = m * 2^(e - 150 + frac); with 27 guard bits the shift of m is l = e - 123 + frac.
  const int e = static_cast<int>(exp_field(a));
  const int l = e - 123 + frac;
  if (l < 0) return 0;                           // |x * 2^frac| < 2^-3: rounds to 0
  if (l >= width + 3) return neg ? -kMax : kMax;  // |x * 2^frac| >= 2^(width-1)
  // m << l fits width - 1 + 27 bits (<= 89): split it into integer and 27 fraction bits.
  const uint64_t m = frac_field(a) | HIDDEN;
  uint64_t mag = 0, fr = 0;
  if (l >= 27) {
    mag = m << (l - 27);
  } else {
    mag = m >> (27 - l);
    fr = (m << l) & ((uint64_t{1} << 27) - 1u);
  }
  const bool guard = (fr >> 26) & 1u;
  const bool sticky = (fr & ((uint64_t{1} << 26) - 1u)) != 0;
  if (guard && (sticky || (mag & 1u))) ++mag;
  const int64_t v = mag > static_cast<uint64_t>(kMax) ? kMax : static_cast<int64_t>(mag);
  return neg ? -v : v;
}

uint32_t from_int(int64_t v) {
  if (v == 0) return 0;
  const uint32_t sign = v < 0 ? SIGN : 0u;
  const uint64_t mag = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int p = 63;
  while (((mag >> p) & 1u) == 0) --p;  // the leading one
  if (p <= 23) return round_pack(sign, 127 + p, static_cast<uint32_t>(mag << (23 - p)), false, false);
  const uint32_t sig = static_cast<uint32_t>(mag >> (p - 23));
  const bool guard = (mag >> (p - 24)) & 1u;
  const bool sticky = p >= 25 && (mag & ((uint64_t{1} << (p - 24)) - 1u)) != 0;
  return round_pack(sign, 127 + p, sig, guard, sticky);
}

uint32_t from_int128(bits::i128 v) { return from_int128_scaled(v, 0); }

uint32_t from_int128_scaled(bits::i128 v, int scale) {
  if (v == 0) return 0;
  const uint32_t sign = v < 0 ? SIGN : 0u;
  const bits::u128 mag = v < 0 ? bits::u128{0} - static_cast<bits::u128>(v) : static_cast<bits::u128>(v);
  int p = 127;
  while (((mag >> p) & 1u) == 0) --p;  // the leading one
  const int32_t e = 127 + p + scale;
  if (p <= 23) return round_pack(sign, e, static_cast<uint32_t>(mag << (23 - p)), false, false);
  const uint32_t sig = static_cast<uint32_t>(mag >> (p - 23));
  const bool guard = (mag >> (p - 24)) & 1u;
  const bool sticky = p >= 25 && (mag & ((bits::u128{1} << (p - 24)) - 1u)) != 0;
  return round_pack(sign, e, sig, guard, sticky);
}

}  // namespace pineda::fp32
