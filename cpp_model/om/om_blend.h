// SPDX-License-Identifier: Apache-2.0
// Output-merger blend arithmetic (docs/om.md): the twin of rtl/om/om_blend.sv.
//
// Every channel is carried as a U16 (value / 65535): UNORM8 x is x * 257 (exact), sRGB codes go
// through SRGB_TO_LIN16, B5G6R5 channels are widened to 8 bits by bit replication first.
// A blended channel is round(clamp(src*Fs OP dst*Fd, 0, 65535^2) / 65535) (div65535r), MIN/MAX
// take the U16 operands; the result is encoded for the format (div257r, LIN16_TO_SRGB_T, or
// div65535r(v * 31 | 63)) and channels switched off by the write mask keep the stored bits.
#pragma once

#include <array>
#include <cstdint>

#include "pineda_contract.h"

namespace pineda::model::om {

using Rgba16 = std::array<uint32_t, 4>;  // R, G, B, A, each 0..65535

// round(x / 65535) for x in [0, 65535^2] (no ties: 65535 is odd).
inline uint32_t div65535r(uint64_t x) {
  const uint64_t t = x + 32767u;
  return static_cast<uint32_t>((t + 1u + (t >> 16)) >> 16);
}
// round(v / 257) for v in [0, 65535] (no ties: 257 is odd): U16 -> UNORM8.
inline uint32_t div257r(uint32_t v) { return (v + 128u - ((v + 128u) >> 8)) >> 8; }

uint32_t srgb_to_lin16(uint32_t code);  // SRGB_TO_LIN16[code & 255]
uint32_t lin16_to_srgb(uint32_t v);     // number of c in 1..255 with LIN16_TO_SRGB_T[c] <= v

uint32_t bytes_per_pixel(uint32_t fmt);   // 2 for RT_FMT_B5G6R5, else 4
Rgba16 decode_dst(uint32_t fmt, uint32_t raw);   // the stored pixel (low 16 bits for B5G6R5)
Rgba16 decode_src(uint32_t rgba8);               // the quad colour (linear RGBA8 UNORM)
uint32_t encode(uint32_t fmt, const Rgba16& v);  // raw pixel bits (low 16 for B5G6R5)
// Bits of the raw pixel that the write mask lets through (mask_off: bit 0 R, 1 G, 2 B, 3 A).
uint32_t write_bits(uint32_t fmt, uint32_t mask_off);
// Bytes of the pixel written at all (bit k: byte k; B5G6R5 pixels have 2 bytes).
uint32_t write_bytes(uint32_t fmt, uint32_t mask_off);
// Whether the result depends on the stored pixel beyond whole bytes (blending, a logic op, or a
// B5G6R5 mask that cuts through a byte): the pixel writer reads the destination for these.
bool needs_dst(const OmState& s);

uint32_t factor(uint32_t code, int ch, const Rgba16& s, const Rgba16& d, const Rgba16& k);
uint32_t combine(uint32_t op, uint32_t s, uint32_t fs, uint32_t d, uint32_t fd);
// The new raw pixel: blended (or the source when blending is off), encoded, merged with dst under
// the write mask. Bits beyond the format's width are 0. With s.lop_en the blend is ignored and the
// encoded source goes through pineda::logic_op(s.lop, ., dst) (generated, pineda_contract.h) before the write mask.
uint32_t blend_pixel(const OmState& s, uint32_t src_rgba8, uint32_t dst_raw);

}  // namespace pineda::model::om
