// SPDX-License-Identifier: Apache-2.0
// Fine rasterizer (docs/numerics.md section 5): 64 sample tests per raster tile, then the
// tile's non-empty 2x2 quads in a fixed order.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "pineda_contract.h"

namespace pineda::model {

class FineRaster {
 public:
  // The quads of a tile with their coverage (none when the tile's coverage is empty), in the
  // order of numerics section 5.4; an end-of-pipe token gives one token.
  void process(const TilePkt& t, const std::function<void(const QuadPkt&)>& emit);
  std::vector<QuadPkt> process(const TilePkt& t);

  // Bit j*8+i set when sample (i, j) of the tile's 8x8 lattice is covered.
  static uint64_t coverage_mask(const TilePkt& t);
  // The quads of a coverage mask (numerics section 5.4), in order.
  static std::vector<QuadPkt> quads(const TilePkt& t, uint64_t mask);

  uint64_t tiles_in() const { return tiles_in_; }            // tiles evaluated (tokens excluded)
  uint64_t tiles_covered() const { return covered_; }        // ... with a non-empty coverage
  uint64_t quads_emitted() const { return quads_; }
  uint64_t samples_covered() const { return samples_; }
  void reset_counters() { tiles_in_ = covered_ = quads_ = samples_ = 0; }

 private:
  uint64_t tiles_in_ = 0, covered_ = 0, quads_ = 0, samples_ = 0;
};

}  // namespace pineda::model
