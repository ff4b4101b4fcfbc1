// SPDX-License-Identifier: Apache-2.0
// MSAA resolve (docs/om.md section 7, docs/numerics.md section 6): the model of the hardware
// resolve engine (rtl/dma/resolve.sv) behind OP_RESOLVE, and the harness's software resolve on top
// of it.
//
// Each pixel of the rectangle becomes the average of its four samples:
// - RGBA8, BGRA8: every byte (c0 + c1 + c2 + c3 + 2) >> 2;
// - RGBA8_SRGB: R, G, B in linear space, as D3D: v = (L(c0) + L(c1) + L(c2) + L(c3) + 2) >> 2 with
//   L = SRGB_TO_LIN16, then lin16_to_srgb(v) (docs/om.md section 3); A as UNORM8 above;
// - B5G6R5: every field (B 5, G 6, R 5 bits) (f0 + f1 + f2 + f3 + 2) >> 2.
// resolve_lines() is the exact line-write stream of the RTL: row by row from y0, the destination
// lines covering the row's bytes [dst + y*dst_pitch + x0*bpp, dst + y*dst_pitch + x1*bpp) once
// each, left to right, be = those bytes, wdata = the resolved pixels there and 0 elsewhere.
#pragma once

#include <cstdint>
#include <functional>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

// One resolved RGBA8 pixel: each channel (c0 + c1 + c2 + c3 + 2) >> 2.
uint32_t resolve4(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3);
// One resolved pixel of format fmt (RT_FMT_*) from its four samples (the low 16 bits for B5G6R5).
uint32_t resolve_pixel(uint32_t fmt, const uint32_t s[4]);

// Bytes of one 4x pixel (16, or 8 for B5G6R5) and of one 1x pixel (4, or 2).
uint32_t resolve_src_bpp(uint32_t fmt);
uint32_t resolve_dst_bpp(uint32_t fmt);

// The engine's line writes for a checked ResolvePkt, reading the samples from src_mem.
void resolve_lines(const ResolvePkt& r, const Memory& src_mem, const std::function<void(const MemLineReq&)>& emit,
                   const std::function<void()>& on_line = {});
// Applies them to dst_mem; returns the number of line writes.
uint64_t resolve(const ResolvePkt& r, const Memory& src_mem, Memory& dst_mem, const std::function<void()>& on_line = {});

// Resolves a w x h 4x MSAA target of format fmt (sample s of pixel (x, y) at src + y*src_pitch +
// x*P + s*P/4) into a 1x image of the same format at dst + y*dst_pitch + x*P/4: resolve() of the
// whole target.
void resolve_msaa4(const Memory& src_mem, uint32_t src, uint32_t src_pitch, Memory& dst_mem,
                   uint32_t dst, uint32_t dst_pitch, uint32_t w, uint32_t h, uint32_t fmt = RT_FMT_RGBA8);

}  // namespace pineda::model
