// SPDX-License-Identifier: Apache-2.0
// MSAA resolve (docs/numerics.md section 6): the plain average of a pixel's four samples.
#pragma once

#include <cstdint>

#include "mem/memory.h"

namespace pineda::model {

// One resolved RGBA8 pixel: each channel (c0 + c1 + c2 + c3 + 2) >> 2.
uint32_t resolve4(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3);

// Resolves a w x h 4x MSAA target (sample s of pixel (x, y) at src + y*src_pitch + x*16 + s*4)
// into a 1x RGBA8 image at dst + y*dst_pitch + x*4.
void resolve_msaa4(const Memory& src_mem, uint32_t src, uint32_t src_pitch, Memory& dst_mem,
                   uint32_t dst, uint32_t dst_pitch, uint32_t w, uint32_t h);

}  // namespace pineda::model
