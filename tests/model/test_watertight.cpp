// SPDX-License-Identifier: Apache-2.0
// Watertightness: every pixel centre inside a mesh's outer boundary is covered exactly once.
#include <vector>

#include "test_util.h"

using namespace pineda;
using test::PX;

namespace {

// Rasterizes every triangle of a mesh over a 72x72 clip and checks coverage counts against the
// outer rectangle [x0, x1) x [y0, y1) (its left/top sides are left/top edges, so included).
void check_mesh(const GridMeshParams& p, uint32_t seed) {
  SceneRng rng(seed);
  const std::vector<SceneTri> mesh = make_grid_mesh(p, rng);
  const int N = 72;
  const Rect clip = test::rect(0, 0, N, N);
  std::vector<int> count(N * N, 0);
  for (const SceneTri& t : mesh) {
    for (const auto& [x, y] : test::raster_pixels(test::tri(t, clip))) ++count[y * N + x];
  }
  int bad = 0;
  for (int py = 0; py < N && bad < 5; ++py) {
    for (int px = 0; px < N && bad < 5; ++px) {
      const int64_t X = px * PX + 128, Y = py * PX + 128;
      const int want = (p.x0 <= X && X < p.x1 && p.y0 <= Y && Y < p.y1) ? 1 : 0;
      if (count[py * N + px] != want) {
        ++bad;
        INFO("seed " << seed << " grid " << p.cols << "x" << p.rows << " rect [" << p.x0 << "," << p.x1 << ")x[" << p.y0
                     << "," << p.y1 << ") pixel " << px << "," << py << " covered " << count[py * N + px] << " times");
        CHECK(count[py * N + px] == want);
      }
    }
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("watertight: random jittered grid meshes", "[watertight]") {
  const uint32_t base = test::base_seed();
  SceneRng pick(base);
  for (int it = 0; it < 300; ++it) {
    const uint32_t seed = base + 1000u * static_cast<uint32_t>(it);
    GridMeshParams p;
    p.cols = static_cast<int>(pick.range(1, 14));
    p.rows = static_cast<int>(pick.range(1, 14));
    // Rectangles from -8 to 80 px (partly outside the clip), corners anywhere in 1/256 px,
    // sometimes on pixel centres or pixel boundaries.
    p.x0 = static_cast<int32_t>(pick.range(-8 * PX, 30 * PX));
    p.y0 = static_cast<int32_t>(pick.range(-8 * PX, 30 * PX));
    p.x1 = p.x0 + static_cast<int32_t>(pick.range(p.cols * 2 * PX, 50 * PX + p.cols * 2 * PX));
    p.y1 = p.y0 + static_cast<int32_t>(pick.range(p.rows * 2 * PX, 50 * PX + p.rows * 2 * PX));
    if (it % 3 == 0) {
      p.x0 = (p.x0 & ~255) + 128;
      p.y1 = (p.y1 & ~255) + 128;
    }
    if (it % 5 == 0) {
      p.y0 &= ~255;
      p.x1 &= ~255;
    }
    p.exact_col_percent = static_cast<uint32_t>(pick.range(0, 60));
    p.exact_row_percent = static_cast<uint32_t>(pick.range(0, 60));
    p.centre_snap_percent = static_cast<uint32_t>(pick.range(0, 50));
    check_mesh(p, seed);
  }
}

TEST_CASE("watertight: exact horizontal/vertical edges and vertices on pixel centres", "[watertight]") {
  const uint32_t base = test::base_seed();
  for (int it = 0; it < 60; ++it) {
    const uint32_t seed = base + 77u * static_cast<uint32_t>(it);
    GridMeshParams p;
    // Regular grid whose lines all pass through pixel centres: every grid vertex is a centre and
    // every horizontal/vertical edge runs along a row/column of centres.
    const int cell = 1 + it % 6;
    p.cols = 4 + it % 5;
    p.rows = 3 + it % 7;
    p.x0 = (3 + it % 4) * PX + 128;
    p.y0 = (2 + it % 3) * PX + 128;
    p.x1 = p.x0 + p.cols * cell * PX;
    p.y1 = p.y0 + p.rows * cell * PX;
    p.jitter = it % 2 == 0;  // unjittered: all edges exact; jittered: mixed
    p.exact_col_percent = 80;
    p.exact_row_percent = 80;
    p.centre_snap_percent = 100;
    check_mesh(p, seed);
  }
}
