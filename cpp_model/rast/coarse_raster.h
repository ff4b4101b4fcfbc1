// SPDX-License-Identifier: Apache-2.0
// Coarse rasterizer (docs/numerics.md section 4): 8x8 tile corner test and the tile walk.
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

  // The walk (numerics.md section 4.2): the number of tile decisions (clocks) the coarse
  // rasterizer spends on s, calling emit(tx, ty) for each tile that passes the corner test, in
  // walk order (rows ascending; in a row, from the first tile found leftwards, then rightwards).
  // Columns tx = ox, ox + sx, ... and rows ty = oy, oy + sy, ... (mod 2) of the tile rectangle
  // are walked: sx = sy = 1 for a single rasterizer; several rasterizers each walk their own
  // interleaved subset (section 4.3).
  struct Lattice {
    uint32_t sx = 1, sy = 1, ox = 0, oy = 0;
  };
  // Rasterizer r of n (1, 2 or 4) owns raster tile (tx, ty) when owner(n, tx, ty) == r
  // (numerics section 4.3); lattice(n, r) is its set of tiles.
  static uint32_t owner(uint32_t n, uint64_t tx, uint64_t ty) {
    return n == 1 ? 0u : n == 2 ? static_cast<uint32_t>(tx & 1u) : static_cast<uint32_t>((tx & 1u) | ((ty & 1u) << 1));
  }
  static Lattice lattice(uint32_t n, uint32_t r) {
    Lattice l;
    if (n >= 2) l.sx = 2, l.ox = r & 1u;
    if (n >= 4) l.sy = 2, l.oy = r >> 1;
    return l;
  }
  // The tiles of s that one rasterizer (lat) emits, in its walk order; an end-of-pipe token is
  // one decision that emits a token.
  void process(const SetupPkt& s, const Lattice& lat, const std::function<void(const TilePkt&)>& emit);
  static uint64_t walk(const SetupPkt& s, const Lattice& lat,
                       const std::function<void(uint32_t, uint32_t)>& emit);

  uint64_t tiles_visited() const { return visited_; }   // tile decisions (clocks), tokens excluded
  uint64_t tiles_emitted() const { return emitted_; }
  uint64_t tiles_accepted() const { return accepted_; }
  uint64_t tiles_in_bbox() const { return bbox_; }      // what a walk of the whole box would cost
  void reset_counters() { visited_ = emitted_ = accepted_ = bbox_ = 0; }

 private:
  uint64_t visited_ = 0, emitted_ = 0, accepted_ = 0, bbox_ = 0;
};

}  // namespace pineda::model
