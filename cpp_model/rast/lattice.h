// SPDX-License-Identifier: Apache-2.0
// The sample lattice of a raster tile (docs/numerics.md section 5.3), shared by setup, the
// coarse and the fine rasterizer. A raster tile is 8x8 samples: 8x8 pixels at 1x, 4x4 pixels x
// 4 samples at 4x MSAA. Sample (i, j) of the tile (i, j = 0..7) has
//   E(i, j) = e + 2^sh * (P(i) + Q(j)),  P(i) = (i>>1)*p1 + (i&1)*p0,  Q(j) = (j>>1)*q1 + (j&1)*q0
// where e is E at sample (0, 0) and, for an edge (A, B):
//   1x: sh = 8, p0 = A, p1 = 2A, q0 = B, q1 = 2B          (one pixel = 256 units)
//   4x: sh = 5, p0 = 4A + 2B, p1 = 8A, q0 = 4B - 2A, q1 = 8B  (1/8 pixel = 32 units)
#pragma once

#include <cstdint>

namespace pineda::model {

// v * 2^sh for a signed v: a left shift of a negative int64_t is undefined in C++17, so the
// shift is a multiplication (same value, same overflow range as the hardware's shift).
inline int64_t shl(int64_t v, int sh) { return v * (int64_t{1} << sh); }

struct EdgeLattice {
  int sh = 8;
  int64_t p0 = 0, p1 = 0, q0 = 0, q1 = 0;

  EdgeLattice(int64_t a, int64_t b, bool msaa) {
    if (msaa) {
      sh = 5, p0 = 4 * a + 2 * b, p1 = 8 * a, q0 = 4 * b - 2 * a, q1 = 8 * b;
    } else {
      sh = 8, p0 = a, p1 = 2 * a, q0 = b, q1 = 2 * b;
    }
  }
  int64_t p(int i) const { return (i >> 1) * p1 + (i & 1) * p0; }
  int64_t q(int j) const { return (j >> 1) * q1 + (j & 1) * q0; }
  // Extremes of P(i) + Q(j) over the 64 samples (i>>1 and i&1 vary independently).
  int64_t max_pq() const { return 3 * pos(p1) + pos(p0) + 3 * pos(q1) + pos(q0); }
  int64_t min_pq() const { return 3 * neg(p1) + neg(p0) + 3 * neg(q1) + neg(q0); }
  // E steps from one raster tile to the next: 4*p1 and 4*q1 in 2^sh units.
  int64_t tile_step_x() const { return shl(4 * p1, sh); }
  int64_t tile_step_y() const { return shl(4 * q1, sh); }

  static int64_t pos(int64_t v) { return v > 0 ? v : 0; }
  static int64_t neg(int64_t v) { return v < 0 ? v : 0; }
};

// Raster-tile size in pixels (log2) and the offset of sample (0, 0) of a pixel from its centre,
// in 1/256 pixel: 1x: the centre; 4x: D3D sample 0 at (-2, -6)/16 pixel.
inline int tile_shift(bool msaa) { return msaa ? 2 : 3; }
inline int64_t sample0_dx(bool msaa) { return msaa ? -32 : 0; }
inline int64_t sample0_dy(bool msaa) { return msaa ? -96 : 0; }

}  // namespace pineda::model
