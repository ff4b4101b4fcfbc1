// SPDX-License-Identifier: Apache-2.0
// References for the FP32 definition (cpp_model/common/fp32.h), computed with the host FPU:
//
//  - host_*: the x86 SSE instruction itself (addss, mulss, divss) with MXCSR.FTZ and DAZ set
//    (x86-64 only; `HostFtzDaz` sets and restores MXCSR around a batch). This is the hardware
//    behaviour the definition follows: tininess is detected after rounding.
//  - emu_*: portable. DAZ is applied to the inputs, the operation is computed in double (exact
//    for a product; for a sum, quotient or any of them rounded once to 53 bits, and rounding
//    that again to 24 bits is innocuous since 53 >= 2*24 + 2), the value is rounded to 24 bits
//    with an unbounded exponent (scaled by 2^64 first when small), and a rounded value below
//    2^-126 is flushed to a zero of the same sign. Flushing the host's denormal result instead
//    would be wrong: 0x3F7FFFFF * 0x00800000 rounds to the normal 0x00800000 at denormal
//    precision but is 2^-126 - 2^-150 (tiny) at 24 bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "fp32.h"

namespace pineda::test {

inline uint32_t daz(uint32_t a) { return fp32::is_zero_daz(a) ? (a & fp32::SIGN) : a; }

// Rounds an exactly or innocuously rounded double result to an FP32 bit pattern with FTZ
// (tininess after rounding), overflow to Inf and the canonical NaN.
inline uint32_t emu_round(double r) {
  if (std::isnan(r)) return fp32::QNAN;
  if (r == 0.0) return std::signbit(r) ? fp32::SIGN : 0u;
  const double kScale = 18446744073709551616.0;  // 2^64
  const bool small = std::fabs(r) < 0x1p-100;
  const float scaled = static_cast<float>(small ? r * kScale : r);  // 24-bit rounding
  if (std::fabs(static_cast<double>(scaled)) < (small ? 0x1p-126 * kScale : 0x1p-126)) {
    return std::signbit(r) ? fp32::SIGN : 0u;
  }
  return fp32::bits_of(small ? static_cast<float>(static_cast<double>(scaled) / kScale) : scaled);
}

inline double dbl(uint32_t a) { return static_cast<double>(fp32::float_of(daz(a))); }
inline uint32_t emu_add(uint32_t a, uint32_t b) { return emu_round(dbl(a) + dbl(b)); }
inline uint32_t emu_mul(uint32_t a, uint32_t b) { return emu_round(dbl(a) * dbl(b)); }
inline uint32_t emu_rcp(uint32_t a) { return emu_round(1.0 / dbl(a)); }

// Reference float -> 16.8: x * 256 is exact in double; nearbyint rounds to nearest even.
inline int32_t emu_to_fix16_8(uint32_t a) {
  const double v = dbl(a) * 256.0;
  if (std::isnan(v)) return 0;
  const double r = std::nearbyint(v);
  if (r >= 8388607.0) return 8388607;
  if (r <= -8388608.0) return -8388608;
  return static_cast<int32_t>(r);
}

// NaN results compare as the canonical NaN (the host returns its own NaN patterns).
inline uint32_t canon(uint32_t a) { return fp32::is_nan(a) ? fp32::QNAN : a; }

#if defined(__x86_64__)
#define PINEDA_HOST_SSE 1
// Sets MXCSR.FTZ (bit 15) and DAZ (bit 6) for its lifetime. Only integer code may run inside.
class HostFtzDaz {
 public:
  HostFtzDaz() {
    asm volatile("stmxcsr %0" : "=m"(saved_));
    const uint32_t v = saved_ | (1u << 15) | (1u << 6);
    asm volatile("ldmxcsr %0" : : "m"(v));
  }
  ~HostFtzDaz() { asm volatile("ldmxcsr %0" : : "m"(saved_)); }
  HostFtzDaz(const HostFtzDaz&) = delete;
  HostFtzDaz& operator=(const HostFtzDaz&) = delete;

 private:
  uint32_t saved_ = 0;
};
// asm volatile: the compiler can neither fold these nor move them across the MXCSR writes.
inline uint32_t host_add(uint32_t a, uint32_t b) {
  float x = fp32::float_of(a);
  const float y = fp32::float_of(b);
  asm volatile("addss %1, %0" : "+x"(x) : "x"(y));
  return canon(fp32::bits_of(x));
}
inline uint32_t host_mul(uint32_t a, uint32_t b) {
  float x = fp32::float_of(a);
  const float y = fp32::float_of(b);
  asm volatile("mulss %1, %0" : "+x"(x) : "x"(y));
  return canon(fp32::bits_of(x));
}
inline uint32_t host_rcp(uint32_t a) {
  float x = 1.0f;
  const float y = fp32::float_of(a);
  asm volatile("divss %1, %0" : "+x"(x) : "x"(y));
  return canon(fp32::bits_of(x));
}
#endif

}  // namespace pineda::test
