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
  clear_g_ = fixed_ = dir_g_ = last_g_ = false;
  base_ = msaa_ = 0;
  tested_ = rejected_ = 0;
}

void Hiz::clear(const ClearPkt& c) {
  if (c.hiz_forget) {
    forget();
    return;
  }
  if (!c.depth) return;
  const bool stale = !enabled_ || !bound_set_ || c.target.base != base_ || c.target.msaa != msaa_;
  const int ts = tile_shift(c.target.msaa != 0);
  const uint32_t v = static_cast<uint32_t>(c.value) & DEPTH_MAX;
  const bool g = v == 0 ? true : v == DEPTH_MAX ? false : last_g_;  // the clear's direction
  const uint32_t none = g ? 0u : DEPTH_MAX;                          // no information
  // An old word is a bound in direction g when it was valid for g.
  const bool dir_ok = !fixed_ || dir_g_ == g;
  for (uint32_t ty = 0; ty < tiles_y_; ++ty) {
    for (uint32_t tx = 0; tx < tiles_x_; ++tx) {
      uint32_t& w = bound_[ty * tiles_x_ + tx];
      const uint64_t x0 = uint64_t{tx} << ts, x1 = uint64_t{tx + 1} << ts;
      const uint64_t y0 = uint64_t{ty} << ts, y1 = uint64_t{ty + 1} << ts;
      const bool full = c.rect.x0 <= x0 && x1 <= c.rect.x1 && c.rect.y0 <= y0 && y1 <= c.rect.y1;
      const bool touch = c.rect.x0 < x1 && x0 < c.rect.x1 && c.rect.y0 < y1 && y0 < c.rect.y1;
      const bool ok = !stale && dir_ok && ((w & EXACT) != 0 || clear_g_ == g);
      uint32_t b = ok ? (w & DEPTH_MAX) : none;
      if (full) {
        w = EXACT | v;
      } else {
        if (touch) b = g ? std::min(b, v) : std::max(b, v);
        w = b;
      }
    }
  }
  bound_set_ = true;
  enabled_ = true;
  clear_g_ = g;
  fixed_ = false;
  base_ = c.target.base;
  msaa_ = c.target.msaa;
}

bool Hiz::process(const TilePkt& t) {
  if (t.eop) return true;
  const DsState& d = t.ds;
  if (!bound_set_ || !d.z_enable || d.base != base_ || t.target.msaa != msaa_) return true;
  const bool fl = d.z_func == CMP_LESS || d.z_func == CMP_LESS_EQUAL;
  const bool fg = d.z_func == CMP_GREATER || d.z_func == CMP_GREATER_EQUAL;
  const bool writes = d.z_write && d.z_func != CMP_NEVER && d.z_func != CMP_EQUAL;
  // The word's validity for this tile's direction, from the state before this tile.
  const bool dir_ok = (fl || fg) && (!fixed_ || dir_g_ == fg);
  if (writes) {
    if (!fl && !fg) {
      enabled_ = false;  // NOT_EQUAL / ALWAYS: the buffer may move either way
    } else {
      last_g_ = fg;
      if (!fixed_) {
        fixed_ = true;
        dir_g_ = fg;
      } else if (dir_g_ != fg) {
        enabled_ = false;  // a change of direction
      }
    }
  }
  if (!enabled_ || t.tx >= tiles_x_ || t.ty >= tiles_y_) return true;
  uint32_t& w = bound_[t.ty * tiles_x_ + t.tx];
  if (!dir_ok || ((w & EXACT) == 0 && clear_g_ != fg)) return true;
  const uint32_t b = w & DEPTH_MAX;
  const uint32_t zmin = static_cast<uint32_t>(t.zmin), zmax = static_cast<uint32_t>(t.zmax);
  if (d.hiz && !d.s_enable) {
    ++tested_;
    bool reject = false;
    switch (d.z_func) {
      case CMP_LESS: reject = zmin >= b; break;
      case CMP_LESS_EQUAL: reject = zmin > b; break;
      case CMP_GREATER: reject = zmax <= b; break;
      default: reject = zmax < b; break;  // GREATER_EQUAL
    }
    if (reject) {
      ++rejected_;
      return false;
    }
  }
  const int ts = tile_shift(t.target.msaa != 0);
  const bool in_pix = t.pix.x0 <= (t.tx << ts) && ((t.tx + 1) << ts) <= t.pix.x1 &&
                      t.pix.y0 <= (t.ty << ts) && ((t.ty + 1) << ts) <= t.pix.y1;
  if (writes && !d.s_enable && !d.late_z && t.edge_in == 7 && in_pix) {
    w = EXACT | (fg ? std::max(b, zmin) : std::min(b, zmax));
  }
  return true;
}

}  // namespace pineda::model
