// SPDX-License-Identifier: Apache-2.0
// Regression scenes: deterministic (from a seed) memory images and command streams built with the
// host runtime (runtime/, docs/runtime.md) over a CaptureBackend, which records what the runtime
// writes to GPU memory and to the host registers without running anything. Each scene creates a
// render target pre-filled with a background colour (a sentinel colour in the row padding and in
// a guard buffer after it), streams its vertices through a dynamic vertex buffer (Map DISCARD /
// NO_OVERWRITE), sets state, draws, and ends with a Flush: an EOP WRITE_REG of the Device's fence
// (FENCE0). An END after the last submission stops the replay.
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

// The runtime's Device for a scene: its heap starts at SCENE_HEAP_BASE with a SCENE_RING_SIZE
// ring as the first allocation (so the ring is at SCENE_HEAP_BASE); its fence is FENCE0.
constexpr uint32_t SCENE_HEAP_BASE = 0x00100000u;
constexpr uint32_t SCENE_RING_SIZE = 0x00100000u;  // 1 MiB
constexpr uint32_t SCENE_FENCE_INDEX = 0;

struct SceneImage {
  std::string name;
  Memory mem;
  // The host register writes the runtime made (start: FENCE0, RING_BASE, RING_SIZE, RING_WPTR = 0,
  // CONTROL = 1; user fences; one RING_WPTR per submission, the last one submitting the END),
  // after IRQ_ENABLE. The harnesses apply them all before running.
  std::vector<std::pair<uint32_t, uint32_t>> reg_writes;
  uint32_t rt_base = 0, rt_pitch = 0, width = 0, height = 0;
  uint32_t fmt = 0;      // RT_FMT_*: how the target stores pixels (docs/om.md section 1)
  uint32_t samples = 1;  // 4: a 4x MSAA target (sample s of pixel (x, y) at rt_base + y*rt_pitch + x*16 + s*4)
  // A 1x target of format fmt the scene resolved the 4x target into with OP_RESOLVE (0: none); the
  // harness shows it as the image and checks it against the model of the resolve.
  uint32_t resolved_base = 0, resolved_pitch = 0;
  uint32_t fence_index = SCENE_FENCE_INDEX;  // the Device's fence register
  uint32_t fence_value = 0;                  // what its last flush writes there
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

// All regression scenes, in a fixed order (what pineda_sim runs by default).
std::vector<SceneInfo> scene_registry();
// Scenes too slow for the default regression (e.g. the whole 69,666-triangle bunny through the
// RTL); run by name (`pineda_sim fe_bunny_full`, `make sim TEST=fe_bunny_full`).
std::vector<SceneInfo> optin_scene_registry();
// Either registry.
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
