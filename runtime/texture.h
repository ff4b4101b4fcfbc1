// SPDX-License-Identifier: Apache-2.0
// Host-side texture data for the sampler (docs/tex.md section 2, docs/runtime.md "Textures"):
// the mip chain layout in 4x4 blocks, conversion of application data into it (swizzle, RGBA8 to
// each format, BC1/BC3 encoding with stb_dxt), mip generation with stb_image_resize and image
// loading with stb_image. No Device state: the runtime (device.cpp, context.cpp) and the tests use
// these directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pineda_contract.h"

namespace pineda::rt {

// Sampled texture formats (DXGI_FORMAT names; the values are the hardware's TEX_FMT_*).
enum class TexFormat : uint32_t {
  R8G8B8A8_UNORM = TEX_FMT_RGBA8,
  B8G8R8A8_UNORM = TEX_FMT_BGRA8,
  B5G6R5_UNORM = TEX_FMT_B5G6R5,
  R8G8B8A8_UNORM_SRGB = TEX_FMT_RGBA8_SRGB,
  BC1_UNORM = TEX_FMT_BC1,
  BC3_UNORM = TEX_FMT_BC3,
};

namespace tex {

bool format_valid(TexFormat f);
bool is_bc(TexFormat f);
const char* format_name(TexFormat f);
uint32_t bytes_per_block(TexFormat f);  // 4x4 texels: 64, 32, 8 (BC1) or 16 (BC3)
uint32_t bytes_per_texel(TexFormat f);  // the application's uncompressed rows: 4 or 2; 0 for BC
// Levels of a full chain: floor(log2(max(w, h))) + 1.
uint32_t full_chain_levels(uint32_t w, uint32_t h);

struct Level {
  uint32_t width = 0, height = 0;        // max(1, W >> l), max(1, H >> l)
  uint32_t blocks_x = 0, blocks_y = 0;   // ceil(width / 4), ceil(height / 4)
  uint32_t offset = 0;                   // from level 0, 64-byte aligned
  uint32_t bytes = 0;                    // blocks_x * blocks_y * bytes_per_block
};
// Levels 0..levels-1 of a W x H texture; *total: the chain's size (end of the last level).
std::vector<Level> chain_layout(uint32_t w, uint32_t h, uint32_t levels, TexFormat f, uint32_t* total = nullptr);

// A rectangle of whole blocks of one level: block columns [bx0, bx1), rows [by0, by1).
struct BlockRect {
  uint32_t bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
};

// Block bytes of `rect` of a level (row-major over the rect's blocks, as they sit in each block
// row of the level) from application data whose texel (0, 0) is the rect's top-left texel:
//   rgba8 true:  RGBA8 rows (R byte 0), row_pitch bytes apart, for every format (converted:
//                BGRA swap, B5G6R5 rounded to nearest, BC1/BC3 encoded with stb_dxt
//                STB_DXT_HIGHQUAL; BC1 stores RGB only, alpha ignored);
//   rgba8 false: the format's own data: texel rows (4 or 2 bytes per texel) or, for BC, rows of
//                blocks (row_pitch bytes apart, one row per 4 texel rows).
// `level_w`, `level_h` bound the texels present: blocks past the level's edge are padded by
// repeating the last texel column / row (so BC encodes only real texels' colours).
std::vector<uint8_t> encode_blocks(TexFormat f, bool rgba8, const void* data, uint32_t row_pitch, const BlockRect& rect,
                                   uint32_t level_w, uint32_t level_h);

// Levels 1..levels-1 from an RGBA8 level 0 (tight rows) with stb_image_resize: box filter (a
// 2:1 reduction averages 2x2 texels; odd sizes weigh fractional coverage), clamped edges, each
// channel on its own (no alpha weighting); with `srgb` R, G, B are averaged in linear light and
// re-encoded (alpha linear). Each level is made from the one before, like D3D's GenerateMips.
// Returns levels-1 RGBA8 images, tight rows.
std::vector<std::vector<uint8_t>> generate_mips_rgba8(const uint8_t* level0, uint32_t w, uint32_t h, uint32_t levels,
                                                      bool srgb);

// Loads a PNG/JPEG/... as RGBA8 with stb_image. False (and *error) when it cannot.
bool load_image_rgba8(const std::string& path, std::vector<uint8_t>* rgba, uint32_t* w, uint32_t* h,
                      std::string* error);

}  // namespace tex
}  // namespace pineda::rt
