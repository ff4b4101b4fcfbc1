// SPDX-License-Identifier: Apache-2.0
// make_grid_mesh: the jittered shared-edge grids of the screen-space scenes and the model tests.

#include <stdexcept>
#include <vector>

#include "scene_builder.h"
#include "scenes.h"

namespace pineda {

using scenes::area2;
using scenes::PX;
using scenes::random_winding;
using scenes::snap_centre;

std::vector<SceneTri> make_grid_mesh(const GridMeshParams& p, SceneRng& rng) {
  if (p.cols < 1 || p.rows < 1 || p.x1 <= p.x0 || p.y1 <= p.y0) throw std::invalid_argument("make_grid_mesh: bad grid");
  const int nx = p.cols + 1, ny = p.rows + 1;
  const int64_t cw = (int64_t{p.x1} - p.x0) / p.cols, ch = (int64_t{p.y1} - p.y0) / p.rows;
  std::vector<int32_t> gx(nx), gy(ny);
  std::vector<bool> exact_col(nx, true), exact_row(ny, true);
  for (int i = 0; i < nx; ++i) {
    gx[i] = i == p.cols ? p.x1 : static_cast<int32_t>(p.x0 + (int64_t{p.x1} - p.x0) * i / p.cols);
    if (i > 0 && i < p.cols) {
      exact_col[i] = !p.jitter || rng.chance(p.exact_col_percent);
      if (exact_col[i] && cw >= 4 * PX && rng.chance(50)) gx[i] = snap_centre(gx[i]);
    }
  }
  for (int j = 0; j < ny; ++j) {
    gy[j] = j == p.rows ? p.y1 : static_cast<int32_t>(p.y0 + (int64_t{p.y1} - p.y0) * j / p.rows);
    if (j > 0 && j < p.rows) {
      exact_row[j] = !p.jitter || rng.chance(p.exact_row_percent);
      if (exact_row[j] && ch >= 4 * PX && rng.chance(50)) gy[j] = snap_centre(gy[j]);
    }
  }
  const int64_t rx = cw / 5, ry = ch / 5;
  std::vector<SceneVertex> v(static_cast<size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      SceneVertex& q = v[static_cast<size_t>(j) * nx + i];
      q = {gx[i], gy[j]};
      if (!exact_col[i]) q.x += static_cast<int32_t>(rng.range(-rx, rx));
      if (!exact_row[j]) q.y += static_cast<int32_t>(rng.range(-ry, ry));
      const bool interior = i > 0 && i < p.cols && j > 0 && j < p.rows;
      if (interior && p.jitter && cw >= 4 * PX && ch >= 4 * PX && rng.chance(p.centre_snap_percent)) {
        if (!exact_col[i]) q.x = snap_centre(q.x);
        if (!exact_row[j]) q.y = snap_centre(q.y);
      }
    }
  }
  std::vector<SceneTri> tris;
  tris.reserve(static_cast<size_t>(p.cols) * p.rows * 2);
  for (int j = 0; j < p.rows; ++j) {
    for (int i = 0; i < p.cols; ++i) {
      const SceneVertex a = v[static_cast<size_t>(j) * nx + i], b = v[static_cast<size_t>(j) * nx + i + 1];
      const SceneVertex c = v[static_cast<size_t>(j + 1) * nx + i + 1], d = v[static_cast<size_t>(j + 1) * nx + i];
      SceneTri t0{a, b, c}, t1{a, c, d};
      if (rng.chance(50) || area2(a, b, c) <= 0 || area2(a, c, d) <= 0) {
        t0 = {a, b, d};
        t1 = {b, c, d};
      }
      if (area2(t0[0], t0[1], t0[2]) <= 0 || area2(t1[0], t1[1], t1[2]) <= 0) {
        t0 = {a, b, c};
        t1 = {a, c, d};
        if (area2(t0[0], t0[1], t0[2]) <= 0 || area2(t1[0], t1[1], t1[2]) <= 0) {
          throw std::logic_error("make_grid_mesh: folded cell");
        }
      }
      tris.push_back(random_winding(t0, rng));
      tris.push_back(random_winding(t1, rng));
    }
  }
  return tris;
}

}  // namespace pineda
