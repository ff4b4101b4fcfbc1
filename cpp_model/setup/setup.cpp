// SPDX-License-Identifier: Apache-2.0
#include "setup/setup.h"

#include "rast/lattice.h"
#include "setup/iplane.h"
#include "rast/zplane_d24.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace pineda::model {

void check_signed(int64_t v, int width, const char* what) {
  if (!bits::fits_signed(v, width)) {
    throw std::logic_error(std::string("contract width violated: ") + what + " = " + std::to_string(v) +
                           " does not fit " + std::to_string(width) + "-bit signed");
  }
}

void check_signed(bits::i128 v, int width, const char* what) {
  if (!bits::fits_signed128(v, width)) {
    throw std::logic_error(std::string("contract width violated: ") + what + " = " + bits::dec128(v) +
                           " does not fit " + std::to_string(width) + "-bit signed");
  }
}

int64_t Setup::area2(const Vtx& v0, const Vtx& v1, const Vtx& v2) {
  const int64_t a = (v1.x - v0.x) * (v2.y - v0.y) - (v2.x - v0.x) * (v1.y - v0.y);
  check_signed(a, 51, "area2");
  return a;
}

Setup::EdgeFn Setup::edge_fn(const Vtx& vi, const Vtx& vj) {
  EdgeFn f;
  f.a = vi.y - vj.y;
  f.b = vj.x - vi.x;
  check_signed(f.a, DELTA_W, "edge A");
  check_signed(f.b, DELTA_W, "edge B");
  const bool top_left = f.a > 0 || (f.a == 0 && f.b > 0);
  f.bias = top_left ? 0 : -1;
  f.xi = vi.x;
  f.yi = vi.y;
  return f;
}

std::optional<SetupPkt> Setup::process(const TriPkt& tri) {
  if (tri.eop) {  // end-of-pipe token: never culled, not counted
    SetupPkt token;
    token.eop = 1;
    return token;
  }
  ++triangles_;
  std::array<Vtx, 3> v = tri.v;
  for (const Vtx& p : v) {
    check_signed(p.x, COORD_W, "vertex x");
    check_signed(p.y, COORD_W, "vertex y");
  }
  const int64_t a2 = area2(v[0], v[1], v[2]);
  if (a2 == 0) {
    ++culled_zero_area_;
    return std::nullopt;
  }
  if (a2 < 0) std::swap(v[1], v[2]);

  // Sample bounding box, half-open, intersected with clip.
  const int64_t xmin = std::min({v[0].x, v[1].x, v[2].x});
  const int64_t xmax = std::max({v[0].x, v[1].x, v[2].x});
  const int64_t ymin = std::min({v[0].y, v[1].y, v[2].y});
  const int64_t ymax = std::max({v[0].y, v[1].y, v[2].y});
  // The first pixel with a sample >= min, the last with a sample <= max: samples lie within
  // d = 0 (1x: the centre) or 96/256 pixel (4x MSAA) of the centre.
  const int64_t d = tri.target.msaa ? 96 : 0;
  const int64_t px0 = (xmin + 127 - d) >> 8;  // arithmetic shift = floor
  const int64_t px1 = ((xmax - 128 + d) >> 8) + 1;
  const int64_t py0 = (ymin + 127 - d) >> 8;
  const int64_t py1 = ((ymax - 128 + d) >> 8) + 1;
  const int64_t x0 = std::max<int64_t>(px0, static_cast<int64_t>(tri.clip.x0));
  const int64_t x1 = std::min<int64_t>(px1, static_cast<int64_t>(tri.clip.x1));
  const int64_t y0 = std::max<int64_t>(py0, static_cast<int64_t>(tri.clip.y0));
  const int64_t y1 = std::min<int64_t>(py1, static_cast<int64_t>(tri.clip.y1));
  if (x1 <= x0 || y1 <= y0) {
    ++culled_empty_;
    return std::nullopt;
  }
  // Non-empty: 0 <= x0 < x1 <= clip.x1 <= MAX_RT_DIM.
  if (x0 < 0 || y0 < 0 || x1 > int64_t{MAX_RT_DIM} || y1 > int64_t{MAX_RT_DIM}) {
    throw std::logic_error("setup: pixel rectangle outside the render-target range");
  }

  SetupPkt s;
  const bool msaa = tri.target.msaa != 0;
  const int ts = tile_shift(msaa);  // raster tile: 8x8 pixels (1x) or 4x4 pixels (4x)
  s.pix.x0 = static_cast<uint64_t>(x0);
  s.pix.x1 = static_cast<uint64_t>(x1);
  s.pix.y0 = static_cast<uint64_t>(y0);
  s.pix.y1 = static_cast<uint64_t>(y1);
  s.tiles.x0 = static_cast<uint64_t>(x0 >> ts);
  s.tiles.x1 = static_cast<uint64_t>(((x1 - 1) >> ts) + 1);
  s.tiles.y0 = static_cast<uint64_t>(y0 >> ts);
  s.tiles.y1 = static_cast<uint64_t>(((y1 - 1) >> ts) + 1);
  // The walk starts in the column of the topmost vertex (the first, in API order, of the
  // smallest y), clamped to the tile rectangle.
  const Vtx& top = tri.v[tri.v[1].y < tri.v[0].y ? (tri.v[2].y < tri.v[1].y ? 2 : 1) : (tri.v[2].y < tri.v[0].y ? 2 : 0)];
  const int64_t top_col = top.x >> (ts + 8);  // floor(x / tile width in 1/256 px)
  s.start = static_cast<uint64_t>(std::clamp(top_col, static_cast<int64_t>(s.tiles.x0),
                                             static_cast<int64_t>(s.tiles.x1) - 1));

  // e: E at sample 0 of the first pixel of raster tile (start, tiles.y0).
  const int64_t ref_x = (static_cast<int64_t>(s.start) << (ts + 8)) + 128 + sample0_dx(msaa);
  const int64_t ref_y = (static_cast<int64_t>(s.tiles.y0) << (ts + 8)) + 128 + sample0_dy(msaa);
  for (int k = 0; k < 3; ++k) {
    const EdgeFn f = edge_fn(v[k], v[(k + 1) % 3]);
    s.edges[k].a = f.a;
    s.edges[k].b = f.b;
    s.edges[k].e = f.eval(ref_x, ref_y);
    check_signed(s.edges[k].e, EDGE_W, "setup edge e");
  }
  // Depth plane (numerics section 9), from the API order (the plane does not depend on it
  // mathematically; the FP32 evaluation order is fixed on this order).
  const ZGrad g = zplane_grad(tri.v, tri.z, a2);
  s.zp.a = g.a;
  s.zp.b = g.b;
  s.zp.c = g.z0 + g.a * (ref_x - tri.v[0].x) + g.b * (ref_y - tri.v[0].y);
  check_signed(s.zp.c, ZPLANE_W, "setup plane c");
  // Interpolation state (numerics section 10), API order; it rides unchanged to INTERP.
  s.it = interp_tri(tri.v, tri.a, a2);
  s.zlo = tri.zlo;
  s.zhi = tri.zhi;
  s.color = tri.color;
  s.target = tri.target;
  s.tri_id = tri.tri_id;
  s.front = tri.front;
  s.ds = tri.ds;
  s.om = tri.om;
  return s;
}

}  // namespace pineda::model
