// SPDX-License-Identifier: Apache-2.0
// Pictures of a mismatch: the render target of two memories (the model's and the RTL's) compared
// pixel by pixel (a 4x MSAA pixel differs when any of its samples does), a diff image marking the
// differing pixels, and the triangle that last wrote a pixel in the model (its quads' tri_id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mem/memory.h"
#include "top/pineda_top.h"

namespace pineda {

// A render target in memory: w x h pixels, row y at base + y * pitch, 1 or 4 samples per pixel,
// each stored in format fmt (RT_FMT_*: 4 bytes, or 2 for B5G6R5).
struct TargetView {
  uint32_t base = 0, pitch = 0, width = 0, height = 0, samples = 1;
  uint32_t fmt = 0;
};

// Tightly packed RGBA8 pixels (R first), row-major.
struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;
};

// The target as an image, decoded from its format as write_png does (4x MSAA: each sample
// decoded, then resolved with the plain average of docs/numerics.md section 6).
Image target_image(const Memory& mem, const TargetView& t);
void write_image_png(const std::string& path, const Image& img);

struct PixelDiff {
  uint64_t pixels = 0;                          // pixels that differ
  std::optional<std::pair<uint32_t, uint32_t>> first;  // the first in row-major order
  Image picture;  // the expected image greyed and dimmed, each differing pixel solid red
};
PixelDiff diff_targets(const Memory& expected, const Memory& actual, const TargetView& t);

// The tri_id of the last quad of the model's trace (fine_quad boundary) that covers pixel (x, y)
// of the target at `base`, if any.
std::optional<uint32_t> last_triangle_at(const model::Trace& trace, uint32_t base, uint32_t x, uint32_t y);

// On a mismatch: writes <dir>/<name>.model.png, <dir>/<name>.rtl.png and <dir>/<name>.diff.png and
// returns a line naming the differing pixels, the first one and the triangle that wrote it.
std::string write_mismatch_images(const std::string& dir, const std::string& name, const Memory& model_mem,
                                  const Memory& rtl_mem, const TargetView& t, const model::Trace* trace);

}  // namespace pineda
