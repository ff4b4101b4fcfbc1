// SPDX-License-Identifier: Apache-2.0
#include "hiz/hiz.h"

#include <algorithm>

#include "rast/lattice.h"

namespace pineda::model {

Hiz::Hiz(uint32_t tiles_x, uint32_t tiles_y) : tiles_x_(tiles_x), tiles_y_(tiles_y) { reset(); }

void Hiz::reset() {
  bound_.assign(static_cast<size_t>(tiles_x_) * tiles_y_, DEPTH_MAX);
  bound_set_ = false;
  enabled_ = true;
  base_ = msaa_ = 0;
  tested_ = rejected_ = 0;
}

void Hiz::clear(const ClearPkt& c) {
  if (!c.depth) return;
  const bool was_disabled = !enabled_ || !bound_set_ || c.target.base != base_ || c.target.msaa != msaa_;
  const int ts = tile_shift(c.target.msaa != 0);
  const uint32_t v = static_cast<uint32_t>(c.value) & DEPTH_MAX;
  for (uint32_t ty = 0; ty < tiles_y_; ++ty) {
    for (uint32_t tx = 0; tx < tiles_x_; ++tx) {
      uint32_t& b = bound_[ty * tiles_x_ + tx];
      const uint64_t x0 = uint64_t{tx} << ts, x1 = uint64_t{tx + 1} << ts;
      const uint64_t y0 = uint64_t{ty} << ts, y1 = uint64_t{ty + 1} << ts;
      const bool full = c.rect.x0 <= x0 && x1 <= c.rect.x1 && c.rect.y0 <= y0 && y1 <= c.rect.y1;
      const bool touch = c.rect.x0 < x1 && x0 < c.rect.x1 && c.rect.y0 < y1 && y0 < c.rect.y1;
      if (was_disabled) b = DEPTH_MAX;  // stale: the buffer may have grown
      if (full) b = v;
      else if (touch) b = std::max(b, v);
    }
  }
  bound_set_ = true;
  enabled_ = true;
  base_ = c.target.base;
  msaa_ = c.target.msaa;
}

bool Hiz::process(const TilePkt& t) {
  if (t.eop) return true;
  const DsState& d = t.ds;
  if (!bound_set_ || !d.z_enable || d.base != base_ || t.target.msaa != msaa_) return true;
  const bool less = d.z_func == CMP_LESS || d.z_func == CMP_LESS_EQUAL;
  if (d.z_write && !less && d.z_func != CMP_NEVER && d.z_func != CMP_EQUAL) enabled_ = false;
  if (!enabled_ || t.tx >= tiles_x_ || t.ty >= tiles_y_) return true;
  uint32_t& b = bound_[t.ty * tiles_x_ + t.tx];
  if (less && d.hiz && !d.s_enable) {
    ++tested_;
    const bool reject = d.z_func == CMP_LESS ? t.zmin >= b : t.zmin > b;
    if (reject) {
      ++rejected_;
      return false;
    }
  }
  const int ts = tile_shift(t.target.msaa != 0);
  const bool in_pix = t.pix.x0 <= (t.tx << ts) && ((t.tx + 1) << ts) <= t.pix.x1 &&
                      t.pix.y0 <= (t.ty << ts) && ((t.ty + 1) << ts) <= t.pix.y1;
  if (less && d.z_write && !d.s_enable && !d.late_z && t.edge_in == 7 && in_pix) {
    b = std::min<uint32_t>(b, static_cast<uint32_t>(t.zmax));
  }
  return true;
}

}  // namespace pineda::model
