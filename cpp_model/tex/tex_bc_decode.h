// SPDX-License-Identifier: Apache-2.0
// BC1 / BC3 block decoder (docs/tex.md "BC decode"): the twin of rtl/tex/tex_bc_decode.sv.
//
// A block is 16 bytes, byte 0 in bits 7:0 of `lo` (little-endian as stored in memory); BC1 uses
// only `lo`. The 16 texels come back row-major (texel 4*y + x), each RGBA8 packed as
// R | G << 8 | B << 16 | A << 24.
//   565 -> 888 by bit replication: r8 = r5 << 3 | r5 >> 2, g8 = g6 << 2 | g6 >> 4.
//   Colour palette on the expanded 8-bit endpoints e0, e1 (per channel):
//     4-colour (BC1 with c0 > c1 as 16-bit values, BC3 always):
//       p2 = (2*e0 + e1 + 1) / 3,  p3 = (e0 + 2*e1 + 1) / 3            (round to nearest, no ties)
//     3-colour (BC1 with c0 <= c1): p2 = (e0 + e1 + 1) / 2 (ties up), p3 = transparent black 0.
//   BC1 alpha is 255 except p3 of the 3-colour mode.
//   BC3 alpha palette on a0, a1 (bytes 0, 1), i = 1..6 / 1..4:
//     a0 > a1:  a[1+i] = ((7-i)*a0 + i*a1 + 3) / 7                       (round to nearest)
//     a0 <= a1: a[1+i] = ((5-i)*a0 + i*a1 + 2) / 5, a6 = 0, a7 = 255
//   Indices: BC1 2 bits per texel from bit 32 (texel t at bit 32 + 2t); BC3 alpha 3 bits per
//   texel from bit 16 (texel t at bit 16 + 3t), colour block in bytes 8..15.
#pragma once

#include <array>
#include <cstdint>

namespace pineda::model::tex {

using BcTexels = std::array<uint32_t, 16>;

// 5- and 6-bit channels widened to 8 bits by bit replication.
inline uint32_t bc_expand5(uint32_t v) { return (v << 3) | (v >> 2); }
inline uint32_t bc_expand6(uint32_t v) { return (v << 2) | (v >> 4); }

// The colour palette of a 64-bit colour block: 4 RGBA8 entries.
std::array<uint32_t, 4> bc_colour_palette(uint64_t colour_block, bool force_four);
// The BC3 alpha palette of a0, a1: 8 entries.
std::array<uint32_t, 8> bc_alpha_palette(uint32_t a0, uint32_t a1);

// Decodes one block (bc3 false: BC1 in lo; true: BC3, alpha block in lo, colour block in hi).
BcTexels bc_decode_block(uint64_t lo, uint64_t hi, bool bc3);

}  // namespace pineda::model::tex
