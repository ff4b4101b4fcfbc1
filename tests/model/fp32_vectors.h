// SPDX-License-Identifier: Apache-2.0
// FP32 test operands shared by the model tests (tests/model/test_fp32.cpp) and the RTL
// harness (tb/common/test_fp32.cpp): the special values and an integer-only random generator
// that favours the exponents and significands where rounding, alignment, cancellation, flushing
// and overflow happen.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "fp32.h"

namespace pineda::test {

// Every special class and the boundaries around them.
inline const std::vector<uint32_t> kSpecials = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x003FFFFF, 0x00400000,
    0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x00800001, 0x00FFFFFF, 0x01000000,
    0x0D000000, 0x1F800000, 0x9F800000, 0x20000000, 0x1FFFFFFF, 0x33800000, 0x33800001,
    0x34000000, 0x3EFFFFFF, 0x3F000000, 0x3F7FFFFE, 0x3F7FFFFF, 0x3F800000, 0xBF800000,
    0x3F800001, 0x3F800002, 0x3FC00000, 0x3FFFFFFF, 0x40000000, 0xC0000000, 0x40400000,
    0x4AFFFFFE, 0x4B000000, 0x4B000001, 0x5F000000, 0x5F800000, 0x5FFFFFFF, 0x7E800000,
    0x7F000000, 0x7F000001, 0x7F7FFFFE, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
    0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF, 0x7FC00000, 0xFFC00000, 0x7FC00001,
    0x7FFFFFFF, 0xFFFFFFFF};

// Integer-only operand generator (no floating point: it runs inside the MXCSR scope too).
class OperandGen {
 public:
  explicit OperandGen(uint64_t seed) : rng_(seed) {}
  uint32_t u32() { return static_cast<uint32_t>(rng_()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  uint32_t special() { return kSpecials[below(static_cast<uint32_t>(kSpecials.size()))]; }

  uint32_t mantissa() {
    switch (below(8)) {
      case 0: return 0;
      case 1: return 0x7FFFFF;
      case 2: return (1u << below(23)) | (below(2) ? (1u << below(23)) : 0u);  // sparse
      case 3: {                                                              // a run of ones
        const uint32_t len = 1 + below(23), at = below(23);
        const uint32_t run = (((1u << len) - 1u) << at) & 0x7FFFFF;
        return below(2) ? run : (~run & 0x7FFFFF);
      }
      default: return u32() & 0x7FFFFF;
    }
  }
  uint32_t exponent() {
    static constexpr uint32_t kExp[] = {0, 1, 2, 3, 62, 63, 64, 125, 126, 127, 128, 129, 190, 191, 252, 253, 254, 255};
    return below(3) ? below(256) : kExp[below(sizeof kExp / sizeof kExp[0])];
  }
  static uint32_t make(uint32_t sign, int64_t exp, uint32_t mant) {
    exp = exp < 0 ? 0 : (exp > 255 ? 255 : exp);
    return (sign << 31) | (static_cast<uint32_t>(exp) << 23) | mant;
  }
  uint32_t structured() { return make(below(2), exponent(), mantissa()); }
  // An operand whose exponent is near `a`'s (alignment, cancellation, carries).
  uint32_t near(uint32_t a) {
    const int64_t e = static_cast<int64_t>(fp32::exp_field(a)) + static_cast<int64_t>(below(61)) - 30;
    if (below(4) == 0) {  // a - tiny change: massive cancellation
      const uint32_t m = fp32::frac_field(a) ^ (1u << below(23)) ^ (below(2) ? 1u : 0u);
      return make(below(2), fp32::exp_field(a) - below(2), m);
    }
    return make(below(2), e, mantissa());
  }
  // An operand whose product with `a` lands near the underflow or the overflow boundary.
  uint32_t product_edge(uint32_t a) {
    const int64_t ea = fp32::exp_field(a);
    const int64_t target = below(2) ? 127 : 127 + 254;
    return make(below(2), target - ea + static_cast<int64_t>(below(7)) - 3, mantissa());
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace pineda::test
