// SPDX-License-Identifier: Apache-2.0
// COMB (docs/comb.md): the fixed-function texture combiner, two stages, and the alpha test.
// One quad per call; rtl/comb/combiner.sv computes the same bits.
#pragma once

#include <cstdint>
#include <optional>

#include "pineda_contract.h"

namespace pineda::model {

class Combiner {
 public:
  // round(n / 255) for 0 <= n <= 65025: x = n + 128, (x + (x >> 8)) >> 8.
  static uint32_t div255(uint32_t n) {
    const uint32_t x = n + 128u;
    return (x + (x >> 8)) >> 8;
  }
  // mul8(a, b) = round(a * b / 255), the UNORM8 product.
  static uint32_t mul8(uint32_t a, uint32_t b) { return div255(a * b); }
  // One stage on one pixel: mode COMB_*, c the colour, t the texel (RGBA8, R in [7:0]).
  // Modes 4..7 are reserved and pass the colour.
  static uint32_t stage(uint32_t mode, uint32_t c, uint32_t t);
  // Alpha to coverage (docs/comb.md section 3b): the samples of a pixel kept for its final alpha
  // `a` (UNORM8). 4x: n = (4a + 128) >> 8 samples (0 below 32, 1 from 32, 2 from 96, 3 from 160,
  // 4 from 224), the mask A2C_MASK[n] = 0x0, 0x1, 0x9, 0xB, 0xF (bit s: sample s; the same for
  // every pixel, no dithering). 1x: 1 (kept) when a >= 128, else 0.
  static uint32_t a2c_mask(uint32_t a, bool msaa);
  // The stages and the alpha test on one pixel's colour; returns the colour, *killed when the
  // alpha test fails.
  static uint32_t pixel(const CombState& st, uint32_t color, uint32_t texel0, uint32_t texel1, bool* killed);

  // A quad -> the combined quad (INTERP's format, for PW): pcolor combined, killed pixels'
  // coverage and depth cleared, and with st.a2c the samples alpha to coverage drops. Nothing when every covered pixel is killed; end-of-pipe tokens
  // pass unchanged.
  std::optional<InterpPkt> process(const CombInPkt& in);

  uint64_t quads() const { return quads_; }
  uint64_t killed_pixels() const { return killed_; }
  uint64_t dropped_quads() const { return dropped_; }
  uint64_t a2c_dropped_samples() const { return a2c_; }  // covered samples alpha to coverage removed

 private:
  uint64_t quads_ = 0, killed_ = 0, dropped_ = 0, a2c_ = 0;
};

}  // namespace pineda::model
