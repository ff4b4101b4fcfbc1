// SPDX-License-Identifier: Apache-2.0
// BC1 / BC3 block decoder: see tex_bc_decode.h and docs/tex.md "BC decode".
#include "tex/tex_bc_decode.h"

namespace pineda::model::tex {

std::array<uint32_t, 4> bc_colour_palette(uint64_t colour_block, bool force_four) {
  const uint32_t c0 = static_cast<uint32_t>(colour_block & 0xFFFFu);
  const uint32_t c1 = static_cast<uint32_t>((colour_block >> 16) & 0xFFFFu);
  const uint32_t e0[3] = {bc_expand5(c0 >> 11), bc_expand6((c0 >> 5) & 63u), bc_expand5(c0 & 31u)};
  const uint32_t e1[3] = {bc_expand5(c1 >> 11), bc_expand6((c1 >> 5) & 63u), bc_expand5(c1 & 31u)};
  const bool four = force_four || c0 > c1;
  std::array<uint32_t, 4> p{};
  for (int ch = 0; ch < 3; ++ch) {
    const uint32_t a = e0[ch], b = e1[ch];
    uint32_t v2, v3;
    if (four) {
      v2 = (2u * a + b + 1u) / 3u;
      v3 = (a + 2u * b + 1u) / 3u;
    } else {
      v2 = (a + b + 1u) / 2u;
      v3 = 0u;
    }
    p[0] |= a << (8 * ch);
    p[1] |= b << (8 * ch);
    p[2] |= v2 << (8 * ch);
    p[3] |= v3 << (8 * ch);
  }
  p[0] |= 0xFF000000u;
  p[1] |= 0xFF000000u;
  p[2] |= 0xFF000000u;
  if (four) p[3] |= 0xFF000000u;
  return p;
}

std::array<uint32_t, 8> bc_alpha_palette(uint32_t a0, uint32_t a1) {
  std::array<uint32_t, 8> p{};
  p[0] = a0;
  p[1] = a1;
  if (a0 > a1) {
    for (uint32_t i = 1; i <= 6; ++i) p[1 + i] = ((7u - i) * a0 + i * a1 + 3u) / 7u;
  } else {
    for (uint32_t i = 1; i <= 4; ++i) p[1 + i] = ((5u - i) * a0 + i * a1 + 2u) / 5u;
    p[6] = 0u;
    p[7] = 255u;
  }
  return p;
}

BcTexels bc_decode_block(uint64_t lo, uint64_t hi, bool bc3) {
  const uint64_t colour = bc3 ? hi : lo;
  const std::array<uint32_t, 4> pal = bc_colour_palette(colour, bc3);
  BcTexels t{};
  for (int i = 0; i < 16; ++i) t[i] = pal[(colour >> (32 + 2 * i)) & 3u];
  if (bc3) {
    const std::array<uint32_t, 8> ap = bc_alpha_palette(static_cast<uint32_t>(lo & 0xFFu),
                                                        static_cast<uint32_t>((lo >> 8) & 0xFFu));
    for (int i = 0; i < 16; ++i) t[i] = (t[i] & 0x00FFFFFFu) | ap[(lo >> (16 + 3 * i)) & 7u] << 24;
  }
  return t;
}

}  // namespace pineda::model::tex
