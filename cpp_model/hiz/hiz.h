// SPDX-License-Identifier: Apache-2.0
// Hierarchical Z (docs/depth.md section 6): per raster tile, a conservative bound of the depth
// buffer (the largest depth any of its samples can hold, for LESS / LESS_EQUAL), tested against
// each tile's zmin between the coarse and the fine rasterizer. Model only this session: the RTL
// unit (rtl/hiz) is not built yet.
//
// Rules (every one keeps "never rejects a sample the exact depth test would pass"):
//  - The bounds belong to one depth buffer (ds.base) and MSAA mode, set by a depth clear; tiles
//    of another buffer are neither tested nor used for updates. Before the first clear nothing
//    is rejected.
//  - Bounds start at DEPTH_MAX (no information: a zmin can never fail against it, see test()).
//  - A depth clear sets the bound of every raster tile fully inside its rectangle to the clear
//    value and raises the others it touches to at least that value; after a disable (below),
//    every tile outside the rectangle goes back to DEPTH_MAX.
//  - Reject a tile (z_enable, hiz, stencil off, func LESS: zmin >= bound; LESS_EQUAL: zmin > bound).
//  - Update (tighten): a tile not rejected, z_enable && z_write, func LESS / LESS_EQUAL, stencil
//    off, not late Z, all 64 samples inside the triangle (edge_in == 7) and the tile inside pix:
//    bound = min(bound, zmax). Depth writes of LESS / LESS_EQUAL otherwise only lower the buffer.
//  - Any other depth write to the buffer (GREATER, GREATER_EQUAL, NOT_EQUAL, ALWAYS with
//    z_write) may raise it: Hi-Z is disabled until the next depth clear.
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
  // A depth clear (clear_pkt_t with depth = 1): rect in pixels of target.
  void clear(const ClearPkt& c);
  // One tile decision: true when the tile goes on to FINE, false when it is rejected.
  bool process(const TilePkt& t);

  uint32_t bound(uint32_t tx, uint32_t ty) const { return bound_[ty * tiles_x_ + tx]; }
  bool enabled() const { return enabled_; }
  uint64_t tested() const { return tested_; }
  uint64_t rejected() const { return rejected_; }

 private:
  uint32_t tiles_x_, tiles_y_;
  std::vector<uint32_t> bound_;
  bool bound_set_ = false;   // a depth clear named the buffer
  bool enabled_ = true;
  uint64_t base_ = 0, msaa_ = 0;
  uint64_t tested_ = 0, rejected_ = 0;
};

}  // namespace pineda::model
