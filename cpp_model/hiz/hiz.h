// SPDX-License-Identifier: Apache-2.0
// Hierarchical Z (docs/depth.md section 6): per raster tile, a conservative bound of the depth
// buffer, tested against each tile's zmin / zmax between the coarse and the fine rasterizer
// (RTL: rtl/hiz/hiz.sv, one per rasterizer in raster_array; the model's PinedaTop has one per
// rasterizer too).
//
// Directions: LESS / LESS_EQUAL ("L") need the tile's farthest depth (an upper bound of the
// buffer), GREATER / GREATER_EQUAL ("G") its nearest (a lower bound). One word per tile holds the
// bound of one direction, with an "exact" flag:
//  - exact = 1: the value is valid in either direction while the direction is not fixed (a
//    tile fully inside a depth clear: every sample holds the clear value), and in the fixed
//    direction once it is (a tightening update);
//  - exact = 0: the value is a bound in the clear's direction (clear_dir) only.
// A depth clear guesses the direction of the words it cannot make exact (value 0: G,
// DEPTH_MAX: L, else the direction of the last depth write seen); the first depth-writing tile
// after the clear fixes the direction; a depth write of the other direction (or a NOT_EQUAL /
// ALWAYS write) disables Hi-Z until the next depth clear.
//
// Rules (every one keeps "never rejects a sample the exact depth test would pass"):
//  - The bounds belong to one depth buffer (ds.base) and MSAA mode, set by a depth clear; tiles
//    of another buffer are neither tested nor used for updates. Before the first clear nothing
//    is rejected.
//  - A word is used for direction D when (the direction is not fixed, or it is D) and (exact or
//    clear_dir == D); otherwise the tile is passed untested.
//  - Reject (z_enable, hiz, stencil off): LESS zmin >= bound; LESS_EQUAL zmin > bound;
//    GREATER zmax <= bound; GREATER_EQUAL zmax < bound.
//  - Update (tighten): a tile not rejected, depth write of direction D, stencil off, not late Z,
//    all 64 samples inside the triangle (edge_in == 7) and the tile inside pix: L: bound =
//    min(bound, zmax); G: bound = max(bound, zmin); exact = 1. Other writes of direction D only
//    move the buffer away from the bound.
//  - A depth clear: tiles fully inside its rectangle get {exact, value}; others (not exact, in
//    the clear's direction) keep their bound if it is valid in that direction and the state was
//    not disabled / of another buffer (else no information: DEPTH_MAX for L, 0 for G), and the
//    ones it touches are widened to include the value (L: max, G: min).
//  - Raster tiles outside the covered area (TilesX x TilesY) are never rejected.
#pragma once

#include <cstdint>
#include <vector>

#include "pineda_contract.h"

namespace pineda::model {

class Hiz {
 public:
  explicit Hiz(uint32_t tiles_x = 64, uint32_t tiles_y = 64);
  void reset();
  // A packet of the CP's HIZ port: a depth clear (clear_pkt_t with depth = 1: rect in pixels of
  // target) or a forget (hiz_forget = 1, the other fields ignored); anything else is ignored.
  void clear(const ClearPkt& c);
  // A forget (clear_pkt_t.hiz_forget: the CP saw a DMA write into the buffer): nothing is tested
  // or updated until the next depth clear.
  void forget() { bound_set_ = false; }
  // One tile decision: true when the tile goes on to FINE, false when it is rejected.
  bool process(const TilePkt& t);

  uint32_t bound(uint32_t tx, uint32_t ty) const { return bound_[ty * tiles_x_ + tx] & DEPTH_MAX; }
  bool enabled() const { return enabled_; }
  bool greater() const { return fixed_ ? dir_g_ : clear_g_; }  // the direction in force
  uint64_t tested() const { return tested_; }
  uint64_t rejected() const { return rejected_; }

  static constexpr uint32_t EXACT = 1u << 24;  // word bit 24: the exact flag

 private:
  uint32_t tiles_x_, tiles_y_;
  std::vector<uint32_t> bound_;  // {exact, bound[23:0]}
  bool bound_set_ = false;       // a depth clear named the buffer
  bool enabled_ = true;
  bool clear_g_ = false;         // direction of the words that are not exact (the clear's guess)
  bool fixed_ = false;           // a depth write fixed the direction since the clear
  bool dir_g_ = false;           // ... to G
  bool last_g_ = false;          // direction of the last depth write seen (the next clear's guess)
  uint64_t base_ = 0, msaa_ = 0;
  uint64_t tested_ = 0, rejected_ = 0;
};

}  // namespace pineda::model
