// SPDX-License-Identifier: Apache-2.0
// Writes an RGBA8 region of Memory (R at the lowest address) as a PNG, using libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mem/memory.h"

namespace pineda {

// width x height pixels, row y at base + y * pitch (32-bit wrapping), stored in render-target
// format `fmt` (RT_FMT_*: BGRA8 is swizzled, sRGB codes are written as they are (PNG is sRGB),
// B5G6R5 is widened by bit replication with alpha 255). Throws std::runtime_error when the file
// cannot be written.
void write_png(const std::string& path, const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width,
               uint32_t height, uint32_t fmt = 0);
// The same region as tightly packed RGBA8 bytes (width * 4 per row).
std::vector<uint8_t> read_rgba(const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width, uint32_t height,
                               uint32_t fmt = 0);

}  // namespace pineda
