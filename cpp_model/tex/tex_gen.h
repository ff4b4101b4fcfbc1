// SPDX-License-Identifier: Apache-2.0
// Random textures, samplers and quads for the TEX tests (tests/model/test_tex.cpp, tb/tex).
// Header only; everything is drawn from the caller's std::mt19937 so a seed replays a run.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "mem/memory.h"
#include "pineda_contract.h"
#include "tex/tex.h"

namespace pineda::model::tex::gen {

inline uint32_t rnd(std::mt19937& r, uint32_t lo, uint32_t hi) {  // inclusive
  return std::uniform_int_distribution<uint32_t>(lo, hi)(r);
}

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline void put_desc(Memory& mem, uint32_t addr, const uint32_t* w) {
  for (int k = 0; k < 8; ++k) mem.write32(addr + 4 * k, w[k]);
}

// A texture of the given shape with random texel bytes over its whole chain; the descriptor at
// `desc_addr`. Returns the chain's end.
inline uint64_t make_texture(Memory& mem, std::mt19937& r, uint32_t desc_addr, uint32_t base, uint32_t fmt,
                             uint32_t w, uint32_t h, uint32_t levels, bool smooth = false) {
  TexDesc t;
  t.base = base;
  t.width = w;
  t.height = h;
  t.fmt = fmt;
  t.levels = levels;
  put_desc(mem, desc_addr, t.pack().data());
  const Chain c = chain(t);
  if (smooth) {  // a gradient per level (so filtered values are easy to eyeball)
    for (uint32_t l = 0; l < levels; ++l)
      for (uint64_t a = c.lv[l].base; a < c.lv[l].base + c.lv[l].bytes; ++a)
        mem.write8(static_cast<uint32_t>(a), static_cast<uint8_t>((a * 7 + l * 40) & 255));
  } else {
    for (uint64_t a = base; a < c.end; a += 4) mem.write32(static_cast<uint32_t>(a), r());
  }
  return c.end;
}

inline SampDesc random_sampler(std::mt19937& r) {
  SampDesc s;
  s.min = rnd(r, 0, 1);
  s.mag = rnd(r, 0, 1);
  s.mip = rnd(r, 0, 2);
  s.addr_u = rnd(r, 0, 4);
  s.addr_v = rnd(r, 0, 4);
  s.lod_bias = static_cast<int32_t>(rnd(r, 0, 3) ? 0 : rnd(r, 0, 1024)) - (rnd(r, 0, 1) ? 512 : 0);
  s.min_lod = rnd(r, 0, 3) ? 0 : rnd(r, 0, 600);
  s.max_lod = rnd(r, 0, 3) ? 4095 : rnd(r, static_cast<uint32_t>(s.min_lod), 4095);
  s.border = r();
  return s;
}

// A quad around a random centre with random screen-space derivatives (LOD about -3 .. 12);
// `wild` (1 in 8) puts huge, negative, infinite or NaN coordinates in.
inline TexInPkt random_quad(std::mt19937& r, uint32_t tex, uint32_t samp, bool wild_ok) {
  TexInPkt q;
  q.tex = tex;
  q.samp = samp;
  q.live = rnd(r, 0, 4) ? 15u : rnd(r, 0, 15);
  q.tag = rnd(r, 0, 65535);
  const float cu = std::ldexp(static_cast<float>(rnd(r, 0, 1 << 20)) / (1 << 20) * 6.0f - 3.0f, 0);
  const float cv = static_cast<float>(rnd(r, 0, 1 << 20)) / (1 << 20) * 6.0f - 3.0f;
  const float scale = std::ldexp(1.0f, -static_cast<int>(rnd(r, 0, 15)));
  const float dux = (static_cast<float>(rnd(r, 0, 2000)) - 1000.0f) / 1000.0f * scale;
  const float dvx = (static_cast<float>(rnd(r, 0, 2000)) - 1000.0f) / 1000.0f * scale;
  const float duy = (static_cast<float>(rnd(r, 0, 2000)) - 1000.0f) / 1000.0f * scale;
  const float dvy = (static_cast<float>(rnd(r, 0, 2000)) - 1000.0f) / 1000.0f * scale;
  for (int p = 0; p < 4; ++p) {
    const float px = static_cast<float>(p & 1), py = static_cast<float>(p >> 1);
    q.tc[p].u = fbits(cu + dux * px + duy * py);
    q.tc[p].v = fbits(cv + dvx * px + dvy * py);
  }
  if (wild_ok && rnd(r, 0, 7) == 0) {
    static const uint32_t wild[] = {0x7FC00000u, 0xFFC00001u, 0x7F800000u, 0xFF800000u, 0x4F000000u, 0xCF000000u,
                                    0x47000000u, 0xC6FFFE00u, 0x80000000u, 0x00000001u, 0x3F800000u, 0xBF800000u};
    const int k = static_cast<int>(rnd(r, 1, 4));
    for (int i = 0; i < k; ++i) {
      const int p = static_cast<int>(rnd(r, 0, 3));
      (rnd(r, 0, 1) ? q.tc[p].u : q.tc[p].v) = wild[rnd(r, 0, 11)];
    }
  }
  return q;
}

}  // namespace pineda::model::tex::gen
