// Fine rasterizer (docs/numerics.md section 5): 64 sample tests per tile.
#pragma once

#include <cstdint>
#include <optional>

#include "pineda_contract.h"

namespace pineda::model {

class FineRaster {
 public:
  // The coverage packet of a tile, or nothing when its mask is zero.
  std::optional<CovPkt> process(const TilePkt& t);
  // Bit j*8+i set when sample (i, j) of the tile is covered.
  static uint64_t coverage_mask(const TilePkt& t);

  uint64_t tiles_in() const { return tiles_in_; }
  uint64_t tiles_emitted() const { return emitted_; }
  uint64_t samples_covered() const { return samples_; }
  void reset_counters() { tiles_in_ = emitted_ = samples_ = 0; }

 private:
  uint64_t tiles_in_ = 0, emitted_ = 0, samples_ = 0;
};

}  // namespace pineda::model
