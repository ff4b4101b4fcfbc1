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

  // The perspective barycentrics (FP32) of the pixel whose plane values are w, p1, p2.
  struct Bary {
    uint32_t l1 = 0, l2 = 0;
  };
  static Bary bary(bits::i128 w, bits::i128 p1, bits::i128 p2);
  // One RGBA8 colour from the vertex colours and the barycentrics.
  static uint32_t color(uint32_t c0, uint32_t c1, uint32_t c2, const Bary& l);
  // The barycentric as a 0.16 weight, clamped to [0, 65536].
  static int64_t weight16(uint32_t l);

  uint64_t quads() const { return quads_; }
  void reset_counters() { quads_ = 0; }

 private:
  uint64_t quads_ = 0;
};

}  // namespace pineda::model
