// SPDX-License-Identifier: Apache-2.0
// INTERP (docs/interp.md, docs/numerics.md section 10): per-pixel perspective-correct colour and
// texture coordinates of a quad, at the pixel centres, from SETUP's planes. One quad per call;
// rtl/interp/interp.sv computes the same bits.
#pragma once

#include <array>
#include <cstdint>

#include "pineda_contract.h"

namespace pineda::model {

class Interp {
 public:
  // A quad that left ZS (its `it` from SETUP) -> per-pixel colour and texture coordinates (uv1
  // only when q.om.comb.tex1, else 0).
  InterpPkt process(const QuadPkt& q);

  // The perspective barycentrics b_k = L_k / W of the pixel whose plane values are w, p1, p2, as
  // signed fixed-point numbers with UV_F fraction bits, saturated to +-(2^(UV_BW-1) - 1)
  // (docs/numerics.md section 10.3: W normalised and rounded to 24 bits, one FP32 reciprocal,
  // integer products); 0 where w <= 0.
  struct Bary {
    int64_t b1 = 0, b2 = 0;
  };
  static Bary bary(bits::i128 w, bits::i128 p1, bits::i128 p2);
  // One RGBA8 colour from the vertex colours and the barycentrics.
  static uint32_t color(uint32_t c0, uint32_t c1, uint32_t c2, const Bary& l);
  // The barycentric as a 0.16 weight (rounded half up), clamped to [0, 65536].
  static int64_t weight16(int64_t b);

  // Texture coordinates in block floating point (docs/numerics.md section 10.3): one component's
  // t0, d1, d2 as signed integers M_i * 2^(e - 176) (UV_G = 2 guard bits below the largest
  // significand), NaN if any of the three is NaN or +-Inf.
  static constexpr int UV_G = 2;   // guard bits of the aligned significands
  static constexpr int UV_F = 24;  // fraction bits of the fixed-point barycentrics
  static constexpr int UV_BW = 34; // their width (signed, |b| < 2^9)
  struct Aligned {
    int64_t m[3] = {0, 0, 0};  // |m| < 2^(24 + UV_G)
    int e = 0;                 // the largest exponent field of the three (0: all zero)
    bool nan = false;
  };
  static Aligned align(uint32_t t0, uint32_t d1, uint32_t d2);
  // u = t0 + b1 d1 + b2 d2 in integers, one rounding to FP32 at the end.
  static uint32_t uv_lerp(int64_t b1, int64_t b2, const Aligned& a);

  uint64_t quads() const { return quads_; }
  void reset_counters() { quads_ = 0; }

 private:
  uint64_t quads_ = 0;
};

}  // namespace pineda::model
