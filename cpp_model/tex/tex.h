// SPDX-License-Identifier: Apache-2.0
// TEX: the texture sampler's golden model (docs/tex.md; the RTL is rtl/tex/tex.sv).
//
// Functional model: tex_in_pkt_t in, tex_out_pkt_t out, one for one, in order. Every step of
// docs/tex.md section 4 is a separate function here so tests can check each against a
// double-precision reference; `Tex::sample` strings them together. Memory is only read: the
// descriptors (after their addresses pass the window check) and the texels of a valid texture.
#pragma once

#include <array>
#include <cstdint>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model::tex {

// BC1/BC3 are decoded by texrt's decoder (cpp_model/tex/tex_bc_decode.*), as the L1 does on fill.
constexpr bool BC_SUPPORTED = true;

struct Level {
  uint32_t w = 1, h = 1;    // texels
  uint32_t bw = 1, bh = 1;  // blocks
  uint64_t base = 0;        // byte address of the level
  uint64_t bytes = 0;       // bytes of the level
};

struct Chain {
  std::array<Level, TEX_MAX_LEVELS> lv{};
  uint64_t end = 0;  // one past the last byte of the last level
};

bool fmt_known(uint32_t fmt);
uint32_t block_bytes(uint32_t fmt);  // 64, 32, 8 or 16 (0 for an unknown format)
uint32_t full_levels(uint32_t w, uint32_t h);
Chain chain(const TexDesc& t);  // levels 0 .. t.levels - 1 (t valid)

// Validation (docs/tex.md section 6): TEX_FAULT_*.
uint32_t check_addr(uint32_t addr, uint32_t valid_base, uint32_t valid_limit);  // descriptor address
uint32_t check_tex(const TexDesc& t, uint32_t valid_base, uint32_t valid_limit);
uint32_t check_samp(const SampDesc& s);

// LOD (section 4 steps 2, 3): raw LOD in signed 8.8 from the quad's level-0 16.8 coordinates.
int32_t lod_raw(const std::array<int32_t, 4>& x, const std::array<int32_t, 4>& y);
int32_t log2_8_8(uint64_t r);  // 256 e + m for r > 0
int32_t lod_clamped(int32_t raw, const SampDesc& s);

// Address mode on an integer texel index (section 4 step 8); false: the tap reads the border.
bool address(int32_t i, uint32_t n, uint32_t mode, uint32_t& out);

// 12-bit linear channels R, G, B, A of texel (x, y) of level l, in 1/4080 (16 x UNORM8; section 4
// step 9).
using Texel = std::array<uint32_t, 4>;
Texel fetch(const Memory& mem, const TexDesc& t, const Level& lv, uint32_t x, uint32_t y);
Texel border_texel(uint32_t rgba8);
uint32_t to_unorm8(uint32_t c);  // section 4 step 11: C (in 1/(4080 * 4096)) -> UNORM8

struct Stats {
  uint64_t quads = 0, samples = 0, faults = 0, trilinear_quads = 0, taps = 0;
};

class Tex {
 public:
  TexOutPkt process(const TexInPkt& in, const Memory& mem, uint32_t valid_base, uint32_t valid_limit);
  const Stats& stats() const { return stats_; }

 private:
  Stats stats_;
};

}  // namespace pineda::model::tex
