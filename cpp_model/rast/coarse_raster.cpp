// SPDX-License-Identifier: Apache-2.0
#include "rast/coarse_raster.h"

#include "rast/zplane_d24.h"

#include <stdexcept>

#include "rast/lattice.h"
#include "setup/setup.h"

namespace pineda::model {

namespace {

// Whether tile (tx, ty) passes each class of edge (numerics section 4.1).
struct TileTest {
  bool pass_l = true;  // every edge with A > 0 (rejects on the left) has max >= 0
  bool pass_r = true;  // ... A < 0 (rejects on the right)
  bool pass_0 = true;  // ... A == 0 (rejects whole rows)
};

// E at sample (0, 0) of raster tile (tx, ty); setup's e is at (start, tiles.y0).
int64_t tile_e(const SetupPkt& s, int k, const EdgeLattice& l, int64_t tx, int64_t ty) {
  const int64_t dx = tx - static_cast<int64_t>(s.start);
  const int64_t dy = ty - static_cast<int64_t>(s.tiles.y0);
  return s.edges[k].e + l.tile_step_x() * dx + l.tile_step_y() * dy;
}

TileTest tile_test(const SetupPkt& s, int64_t tx, int64_t ty) {
  TileTest t;
  for (int k = 0; k < 3; ++k) {
    const int64_t a = s.edges[k].a;
    const EdgeLattice l(a, s.edges[k].b, s.target.msaa != 0);
    const int64_t mx = tile_e(s, k, l, tx, ty) + shl(l.max_pq(), l.sh);
    if (mx >= 0) continue;
    if (a > 0) t.pass_l = false;
    if (a < 0) t.pass_r = false;
    if (a == 0) t.pass_0 = false;
  }
  return t;
}

}  // namespace

bool CoarseRaster::test_tile(const SetupPkt& s, uint32_t tx, uint32_t ty, TilePkt& out) {
  bool reject = false;
  uint64_t inside = 0;
  for (int k = 0; k < 3; ++k) {
    const int64_t a = s.edges[k].a;
    const int64_t b = s.edges[k].b;
    const EdgeLattice l(a, b, s.target.msaa != 0);
    const int64_t et = tile_e(s, k, l, tx, ty);
    const int64_t mx = et + shl(l.max_pq(), l.sh);
    const int64_t mn = et + shl(l.min_pq(), l.sh);
    check_signed(et, EDGE_W, "coarse Et");
    check_signed(mx, EDGE_W, "coarse max");
    check_signed(mn, EDGE_W, "coarse min");
    if (mx < 0) reject = true;
    if (mn >= 0) inside |= 1u << k;
    out.edges[k].a = a;
    out.edges[k].b = b;
    out.edges[k].e = et;
  }
  out.tx = tx;
  out.ty = ty;
  out.edge_in = inside;
  out.pix = s.pix;
  out.color = s.color;
  out.target = s.target;
  out.tri_id = s.tri_id;
  out.front = s.front;
  out.ds = s.ds;
  out.om = s.om;
  out.it = s.it;
  // Depth plane at the tile's first sample and its D24 bounds over the tile's 64 samples
  // (numerics section 9): the plane's extremes over the lattice, rounded and clamped like a
  // sample, so every sample's depth lies between them.
  {
    const EdgeLattice l(s.zp.a, s.zp.b, s.target.msaa != 0);
    const int64_t dx = static_cast<int64_t>(tx) - static_cast<int64_t>(s.start);
    const int64_t dy = static_cast<int64_t>(ty) - static_cast<int64_t>(s.tiles.y0);
    const int64_t ct = s.zp.c + l.tile_step_x() * dx + l.tile_step_y() * dy;
    const int64_t zmx = ct + shl(l.max_pq(), l.sh);
    const int64_t zmn = ct + shl(l.min_pq(), l.sh);
    check_signed(ct, ZPLANE_W, "coarse plane c");
    check_signed(zmx, ZPLANE_W, "coarse plane max");
    check_signed(zmn, ZPLANE_W, "coarse plane min");
    out.zp.a = s.zp.a;
    out.zp.b = s.zp.b;
    out.zp.c = ct;
    out.zlo = s.zlo;
    out.zhi = s.zhi;
    out.zmin = zplane_d24(zmn, static_cast<uint32_t>(s.zlo), static_cast<uint32_t>(s.zhi));
    out.zmax = zplane_d24(zmx, static_cast<uint32_t>(s.zlo), static_cast<uint32_t>(s.zhi));
  }
  return !reject;
}

uint64_t CoarseRaster::walk(const SetupPkt& s, const Lattice& lat,
                            const std::function<void(uint32_t, uint32_t)>& emit) {
  const int64_t sx = lat.sx, sy = lat.sy;
  // First column and row of the lattice inside the tile rectangle.
  const int64_t x0 = static_cast<int64_t>(s.tiles.x0) + ((static_cast<int64_t>(s.tiles.x0) - lat.ox) & (sx - 1));
  const int64_t y0 = static_cast<int64_t>(s.tiles.y0) + ((static_cast<int64_t>(s.tiles.y0) - lat.oy) & (sy - 1));
  const int64_t x1 = static_cast<int64_t>(s.tiles.x1), y1 = static_cast<int64_t>(s.tiles.y1);
  if (x0 >= x1 || y0 >= y1) return 0;
  // The walk starts at column `start`, or next to it when another rasterizer owns that column.
  int64_t c = static_cast<int64_t>(s.start);
  if (((c - lat.ox) & (sx - 1)) != 0) c += c + 1 < x1 ? 1 : -1;
  enum class Phase { SEEK, LEFT, RIGHT } phase = Phase::SEEK;
  uint64_t clocks = 0;
  int64_t ty = y0, first = c;  // first: the row's first emitted tile
  bool right_ok = false;                // the tile right of `first` passes (it is emitted next)
  int seek = 0;                         // this row's search direction so far: -1 left, +1 right
  while (true) {
    ++clocks;  // one decision per clock
    const TileTest t = tile_test(s, c, ty);
    const bool at_left = c - sx < x0, has_right = c + sx < x1;
    bool next_row = false;
    switch (phase) {
      case Phase::SEEK:
        // The tiles passing the A > 0 edges are a right half-line of the row, those passing the
        // A < 0 edges a left half-line: search towards their intersection; the row is empty when
        // it is (no tile passes both, or the search has to turn back).
        if (!t.pass_0 || (!t.pass_l && !t.pass_r)) {
          next_row = true;
        } else if (!t.pass_l) {  // left of the row's tiles
          if (seek < 0 || !has_right) {
            next_row = true;
          } else {
            c += sx;
            seek = 1;
          }
        } else if (!t.pass_r) {  // right of them
          if (seek > 0 || at_left) {
            next_row = true;
          } else {
            c -= sx;
            seek = -1;
          }
        } else {
          emit(static_cast<uint32_t>(c), static_cast<uint32_t>(ty));
          first = c;
          right_ok = has_right && tile_test(s, c + sx, ty).pass_r;
          if (!at_left && tile_test(s, c - sx, ty).pass_l) {
            c -= sx;
            phase = Phase::LEFT;
          } else if (right_ok) {
            c += sx;
            phase = Phase::RIGHT;
          } else {
            next_row = true;
          }
        }
        break;
      case Phase::LEFT:  // c passes
        emit(static_cast<uint32_t>(c), static_cast<uint32_t>(ty));
        if (!at_left && tile_test(s, c - sx, ty).pass_l) {
          c -= sx;
        } else if (right_ok) {
          c = first + sx;
          phase = Phase::RIGHT;
        } else {
          next_row = true;
        }
        break;
      case Phase::RIGHT:  // c passes
        emit(static_cast<uint32_t>(c), static_cast<uint32_t>(ty));
        if (has_right && tile_test(s, c + sx, ty).pass_r) {
          c += sx;
        } else {
          next_row = true;
        }
        break;
    }
    if (!next_row) continue;
    // Next row, starting below the last tile emitted (or where the search ended).
    if (ty + sy >= y1) break;
    ty += sy;
    phase = Phase::SEEK;
    seek = 0;
  }
  return clocks;
}

void CoarseRaster::process(const SetupPkt& s, const std::function<void(const TilePkt&)>& emit) {
  process(s, Lattice{}, emit);
}

void CoarseRaster::process(const SetupPkt& s, const Lattice& lat, const std::function<void(const TilePkt&)>& emit) {
  if (s.eop) {  // end-of-pipe token: one decision, always emitted
    TilePkt token;
    token.eop = 1;
    emit(token);
    return;
  }
  // The rectangle's tiles of this lattice (all of them for a single rasterizer).
  auto count = [](uint64_t a, uint64_t b, uint32_t step, uint32_t off) -> uint64_t {
    const uint64_t first = a + ((a - off) & (step - 1));  // the first owned column (row) >= a
    return first < b ? (b - first + step - 1) / step : 0;
  };
  bbox_ += count(s.tiles.x0, s.tiles.x1, lat.sx, lat.ox) * count(s.tiles.y0, s.tiles.y1, lat.sy, lat.oy);
  visited_ += walk(s, lat, [&](uint32_t tx, uint32_t ty) {
    TilePkt t;
    if (!test_tile(s, tx, ty, t)) throw std::logic_error("coarse: walk emitted a rejected tile");
    ++emitted_;
    if (t.edge_in == 7) ++accepted_;
    emit(t);
  });
}

std::vector<TilePkt> CoarseRaster::process(const SetupPkt& s) {
  std::vector<TilePkt> out;
  process(s, [&out](const TilePkt& t) { out.push_back(t); });
  return out;
}

}  // namespace pineda::model
