// SPDX-License-Identifier: Apache-2.0
#include "om/resolve.h"

namespace pineda::model {

uint32_t resolve4(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
  uint32_t out = 0;
  for (int sh = 0; sh < 32; sh += 8) {
    const uint32_t sum = ((c0 >> sh) & 0xFFu) + ((c1 >> sh) & 0xFFu) + ((c2 >> sh) & 0xFFu) + ((c3 >> sh) & 0xFFu);
    out |= ((sum + 2) >> 2) << sh;
  }
  return out;
}

void resolve_msaa4(const Memory& src_mem, uint32_t src, uint32_t src_pitch, Memory& dst_mem,
                   uint32_t dst, uint32_t dst_pitch, uint32_t w, uint32_t h) {
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      const uint32_t p = src + y * src_pitch + x * 16;
      dst_mem.write32(dst + y * dst_pitch + x * 4,
                      resolve4(src_mem.read32(p), src_mem.read32(p + 4), src_mem.read32(p + 8), src_mem.read32(p + 12)));
    }
  }
}

}  // namespace pineda::model
