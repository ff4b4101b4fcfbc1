// Coarse rasterizer (docs/numerics.md section 4): 8x8 tile corner test, row by row.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "pineda_contract.h"

namespace pineda::model {

class CoarseRaster {
 public:
  std::vector<TilePkt> process(const SetupPkt& s);
  void process(const SetupPkt& s, const std::function<void(const TilePkt&)>& emit);

  // Tile decision for tile (tx, ty) of s: fills `out` and returns false when rejected.
  static bool test_tile(const SetupPkt& s, uint32_t tx, uint32_t ty, TilePkt& out);

  uint64_t tiles_visited() const { return visited_; }
  uint64_t tiles_emitted() const { return emitted_; }
  uint64_t tiles_accepted() const { return accepted_; }
  void reset_counters() { visited_ = emitted_ = accepted_ = 0; }

 private:
  uint64_t visited_ = 0, emitted_ = 0, accepted_ = 0;
};

}  // namespace pineda::model
