// Regression scenes: deterministic (from a seed) memory images with a command ring, vertex buffers
// and a render target pre-filled with a background colour, plus the host register writes that
// start them. Memory map: ring at SCENE_RING_BASE, vertex buffers from SCENE_VB_BASE, render
// target at SCENE_RT_BASE. Every ring ends with an EOP WRITE_REG (FENCE0 = SCENE_FENCE_VALUE)
// and END.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mem/memory.h"

namespace pineda {

constexpr uint32_t SCENE_RING_BASE = 0x00100000u;
constexpr uint32_t SCENE_RING_SIZE = 0x00100000u;  // 1 MiB
constexpr uint32_t SCENE_VB_BASE = 0x01000000u;
constexpr uint32_t SCENE_RT_BASE = 0x10000000u;
constexpr uint32_t SCENE_FENCE_INDEX = 0;
constexpr uint32_t SCENE_FENCE_VALUE = 1;

struct SceneImage {
  std::string name;
  Memory mem;
  std::vector<std::pair<uint32_t, uint32_t>> reg_writes;  // in order, ending with CONTROL = 1
  uint32_t rt_base = 0, rt_pitch = 0, width = 0, height = 0;
  // Host register writes that release the k-th WAIT_REG the CP blocks on (model: when it blocks;
  // RTL harness: when STATUS.WAITING persists).
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> wait_releases;
  uint32_t eop_fence_mask = 1u;  // fences written only by EOP WRITE_REGs (checked every cycle)
};

using SceneBuildFn = std::function<SceneImage(uint32_t seed)>;

struct SceneInfo {
  std::string name;
  SceneBuildFn build;
  std::string description;
};

// All regression scenes, in a fixed order.
std::vector<SceneInfo> scene_registry();
std::optional<SceneInfo> find_scene(const std::string& name);
// Builds the named scene; throws std::invalid_argument for an unknown name.
SceneImage build_scene(const std::string& name, uint32_t seed);

// ---- Mesh helpers, shared with the model tests -------------------------------------------------

// A vertex as stored in the vertex buffer: int32 16.8 fixed point.
struct SceneVertex {
  int32_t x = 0, y = 0;
};
using SceneTri = std::array<SceneVertex, 3>;

// Small deterministic generator (splitmix64), independent of the C++ library's distributions.
class SceneRng {
 public:
  explicit SceneRng(uint64_t seed) : s_(seed) {}
  uint64_t next();
  int64_t range(int64_t lo, int64_t hi);  // uniform in [lo, hi]
  bool chance(uint32_t percent) { return range(0, 99) < percent; }

 private:
  uint64_t s_;
};

// A rows x cols grid over the rectangle [x0, x1] x [y0, y1] (16.8), each cell split into two
// triangles along a random diagonal, every triangle with a random winding. Boundary vertices stay
// on the rectangle; interior vertices are jittered by up to (cell size) / 5 unless they fall on an
// "exact" column/row (no jitter on that axis: exactly vertical/horizontal shared edges) or are
// snapped to a pixel centre. All triangles have non-zero area and the mesh covers the rectangle
// exactly (no fold-over).
struct GridMeshParams {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int cols = 8, rows = 8;
  uint32_t exact_col_percent = 20;   // chance a column is exactly vertical
  uint32_t exact_row_percent = 20;   // chance a row is exactly horizontal
  uint32_t centre_snap_percent = 15; // chance an interior vertex is snapped to a pixel centre
  bool jitter = true;
};
// Triangles in row-major cell order (two per cell).
std::vector<SceneTri> make_grid_mesh(const GridMeshParams& p, SceneRng& rng);

}  // namespace pineda
