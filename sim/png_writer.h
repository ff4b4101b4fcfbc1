// SPDX-License-Identifier: Apache-2.0
// Writes an RGBA8 region of Memory (R at the lowest address) as a PNG, using libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mem/memory.h"

namespace pineda {

// width x height pixels, row y at base + y * pitch (32-bit wrapping). Throws std::runtime_error
// when the file cannot be written.
void write_png(const std::string& path, const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width,
               uint32_t height);
// The same region as tightly packed RGBA8 bytes (width * 4 per row).
std::vector<uint8_t> read_rgba(const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width, uint32_t height);

}  // namespace pineda
