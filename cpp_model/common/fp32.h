// SPDX-License-Identifier: Apache-2.0
// The one definition of Pineda's FP32 arithmetic (docs/numerics.md section 7), shared by every
// model unit; rtl/common/fp32_*.sv implement the same functions bit for bit.
//
// Values are IEEE-754 binary32 bit patterns held in uint32_t. Everything here is integer
// arithmetic: the host FPU is never used to define a result (tests compare against it).
//
//  - add, sub, mul: IEEE-754 binary32, round to nearest even, with
//      * denormal inputs read as zero of the same sign (DAZ);
//      * results whose rounded value (rounded to 24 bits with an unbounded exponent) is below
//        2^-126 in magnitude flushed to zero with the sign of the exact result (FTZ, tininess
//        after rounding: what x86 SSE does with MXCSR.FTZ|DAZ);
//      * overflow to +-Inf; every NaN result is FP32_QNAN (0x7FC00000), whatever the inputs.
//  - rcp: 1/x correctly rounded (round to nearest even), with the same DAZ/FTZ/NaN rules:
//    rcp(x) == IEEE 1.0f / x under FTZ|DAZ for every x (max error 0.5 ulp).
//  - to_fix16_8: x * 256 rounded to nearest even to a signed 24-bit integer (16.8 fixed point),
//    NaN -> 0, +-Inf and out-of-range values saturate to [-2^23, 2^23 - 1].
#pragma once

#include <cstdint>
#include <cstring>

#include "pineda_contract.h"

namespace pineda::fp32 {

constexpr uint32_t SIGN = 0x80000000u;
constexpr uint32_t INF = 0x7F800000u;
constexpr uint32_t QNAN = FP32_QNAN;

uint32_t add(uint32_t a, uint32_t b);
inline uint32_t sub(uint32_t a, uint32_t b) { return add(a, b ^ SIGN); }  // a + (-b)
uint32_t mul(uint32_t a, uint32_t b);
uint32_t rcp(uint32_t a);
int32_t to_fix16_8(uint32_t a);
// x * 2^frac rounded to nearest even to an integer, saturated to [-(2^(width-1) - 1),
// 2^(width-1) - 1] (symmetric); NaN, zeros and denormals -> 0, +-Inf saturate
// (docs/numerics.md section 9; 25 <= width <= 63).
int64_t to_fix(uint32_t a, int frac, int width);
// A signed integer rounded to nearest even to FP32 (exact up to 24 significant bits).
uint32_t from_int(int64_t v);
// The same rounding for a wider integer (INTERP's plane values, docs/numerics.md section 10).
uint32_t from_int128(bits::i128 v);
// v * 2^scale rounded the same way: the exponent is offset before the packing, so a result
// below 2^-126 flushes to a zero of v's sign and one of 2^128 or more is +-Inf (INTERP's uv,
// docs/numerics.md section 10.3; from_int128(v) == from_int128_scaled(v, 0)).
uint32_t from_int128_scaled(bits::i128 v, int scale);

// Classification of a bit pattern (denormals count as zero: DAZ).
inline uint32_t exp_field(uint32_t a) { return (a >> 23) & 0xFFu; }
inline uint32_t frac_field(uint32_t a) { return a & 0x7FFFFFu; }
inline bool is_nan(uint32_t a) { return exp_field(a) == 0xFFu && frac_field(a) != 0; }
inline bool is_inf(uint32_t a) { return exp_field(a) == 0xFFu && frac_field(a) == 0; }
inline bool is_zero_daz(uint32_t a) { return exp_field(a) == 0; }

// Conversions for tests and readable constants only (never part of a definition).
inline uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace pineda::fp32
