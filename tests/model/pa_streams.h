// SPDX-License-Identifier: Apache-2.0
// Stream builders for primitive assembly tests (tests/model/test_pa.cpp, tb/pa/test_pa.cpp):
// batches of clip-space vertices, triangles by slot, state writes and tokens.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "fp32.h"
#include "pineda_contract.h"

namespace pineda::pa_test {

inline uint32_t fb(float f) { return fp32::bits_of(f); }

struct Streams {
  std::vector<ClipVtxPkt> vtx;
  std::vector<PrimPkt> prims;
  uint32_t prim_id = 0;

  void wr(uint32_t idx, uint32_t val) {
    PrimPkt p;
    p.wr = 1;
    p.wr_idx = idx;
    p.wr_val = val;
    prims.push_back(p);
  }
  void token() {
    PrimPkt p;
    p.eop = 1;
    prims.push_back(p);
  }
  // A viewport and target: W x H at (x, y), depth [0, 1], scissor = whole target; msaa sets
  // FE_RT_PITCH[16] (target.msaa).
  void viewport(float x, float y, float w, float h, uint32_t rt_w, uint32_t rt_h, bool msaa = false) {
    wr(FE_VP_X, fb(x));
    wr(FE_VP_Y, fb(y));
    wr(FE_VP_W, fb(w));
    wr(FE_VP_H, fb(h));
    wr(FE_VP_ZMIN, fb(0.0f));
    wr(FE_VP_ZMAX, fb(1.0f));
    wr(FE_RT_BASE, 0x100000);
    wr(FE_RT_PITCH, (rt_w * (msaa ? 16u : 4u)) | (msaa ? 0x10000u : 0u));
    wr(FE_RT_SIZE, rt_w | (rt_h << 16));
  }
  // One batch: the vertices (positions x, y, z, w; colour and tex derived from the index) and
  // its triangles (slot triples, in order; the last one closes the batch).
  void batch(const std::vector<std::array<uint32_t, 4>>& pos, const std::vector<std::array<uint32_t, 3>>& tris,
             const std::vector<uint32_t>* colors = nullptr) {
    for (size_t i = 0; i < pos.size(); ++i) {
      ClipVtxPkt v;
      v.pos.x = pos[i][0];
      v.pos.y = pos[i][1];
      v.pos.z = pos[i][2];
      v.pos.w = pos[i][3];
      v.color = colors ? (*colors)[i] : (0xFF000000u | (static_cast<uint32_t>(i * 37) & 0xFFu) |
                                         ((static_cast<uint32_t>(i * 91) & 0xFFu) << 8) |
                                         ((static_cast<uint32_t>(255 - i * 13) & 0xFFu) << 16));
      v.tex0.u = fb(static_cast<float>(i) * 0.25f);
      v.tex0.v = fb(1.0f - static_cast<float>(i) * 0.125f);
      v.tex1.u = fb(static_cast<float>(i));
      v.tex1.v = fb(-static_cast<float>(i));
      v.vtx_id = static_cast<uint32_t>(i) | (i == 0 ? 32u : 0u);  // bit 5: first of the batch
      vtx.push_back(v);
    }
    for (size_t t = 0; t < tris.size(); ++t) {
      PrimPkt p;
      p.s0 = tris[t][0];
      p.s1 = tris[t][1];
      p.s2 = tris[t][2];
      p.last = t + 1 == tris.size();
      p.prim_id = prim_id++;
      prims.push_back(p);
    }
  }
  // A single triangle as its own batch.
  void tri(const std::array<uint32_t, 4>& a, const std::array<uint32_t, 4>& b, const std::array<uint32_t, 4>& c) {
    batch({a, b, c}, {{0, 1, 2}});
  }
};

inline std::array<uint32_t, 4> P(float x, float y, float z, float w) { return {fb(x), fb(y), fb(z), fb(w)}; }

// A random attribute word: mostly finite FP32 of any magnitude, sometimes a NaN (quiet or
// signalling, any payload and sign), +-Inf, +-0, a denormal or a random bit pattern.
inline uint32_t random_attr_word(std::mt19937_64& rng) {
  const uint32_t r = static_cast<uint32_t>(rng());
  switch (r % 16) {
    case 0: return 0x7F800001u | (static_cast<uint32_t>(rng()) & 0x807FFFFFu);  // NaN (any payload, sign)
    case 1: return (r & 0x80000000u) | 0x7F800000u;                              // +-Inf
    case 2: return r & 0x80000000u;                                              // +-0
    case 3: return (r & 0x80000000u) | (static_cast<uint32_t>(rng()) & 0x7FFFFFu);  // denormal
    case 4: return static_cast<uint32_t>(rng());                                 // any bits
    default: {
      const float f = std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
      return fb(f);
    }
  }
}

// Replace every vertex's colour and texture coordinates by random values (random RGBA8;
// random_attr_word for the coordinates). A separate generator: positions are not touched.
inline void randomize_attrs(Streams& s, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (ClipVtxPkt& v : s.vtx) {
    v.color = static_cast<uint32_t>(rng());
    v.tex0.u = random_attr_word(rng);
    v.tex0.v = random_attr_word(rng);
    v.tex1.u = random_attr_word(rng);
    v.tex1.v = random_attr_word(rng);
  }
}

// Random streams: batches of up to 32 vertices with positions mostly in view, some beyond the
// guard band, behind the eye, across near/far, w near 0, and rare NaN / Inf; random state writes
// (cull modes, winding, depth clip, viewport, scissor) and tokens between triangles; random
// colours and texture coordinates (randomize_attrs, NaN and Inf included).
inline Streams random_streams(uint64_t seed, int batches) {
  std::mt19937_64 rng(seed);
  auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto chance = [&](double p) { return uni(0, 1) < p; };
  auto irange = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Streams s;
  s.viewport(0, 0, 640, 480, 640, 480);
  for (int b = 0; b < batches; ++b) {
    if (chance(0.3)) {
      s.wr(FE_RASTER, static_cast<uint32_t>(irange(0, 15)));
    }
    if (chance(0.1)) {
      // drawn last argument first, as GCC evaluated them when they were call arguments
      const uint32_t rh = static_cast<uint32_t>(irange(1, 2048)), rw = static_cast<uint32_t>(irange(1, 2048));
      const float vh = static_cast<float>(irange(1, 2000)), vw = static_cast<float>(irange(1, 2000));
      const float vy = static_cast<float>(irange(-50, 100)), vx = static_cast<float>(irange(-50, 100));
      s.viewport(vx, vy, vw, vh, rw, rh, (rh & 1u) != 0);  // 4x MSAA for odd heights
    }
    if (chance(0.1)) s.wr(FE_SCISSOR_X, static_cast<uint32_t>(irange(0, 300)) | (static_cast<uint32_t>(irange(0, 700)) << 16));
    if (chance(0.1)) s.wr(FE_SCISSOR_Y, static_cast<uint32_t>(irange(0, 300)) | (static_cast<uint32_t>(irange(0, 700)) << 16));
    if (chance(0.1)) s.token();
    const int n = irange(3, 32);
    const double spread = chance(0.3) ? 6.0 : 1.3;
    std::vector<std::array<uint32_t, 4>> pos;
    for (int i = 0; i < n; ++i) {
      double w = chance(0.15) ? uni(-0.5, 0.5) : uni(0.2, 5.0);
      if (chance(0.03)) w = uni(-1e-5, 1e-5);
      const double x = uni(-spread, spread) * std::abs(w) + uni(-0.2, 0.2);
      const double y = uni(-spread, spread) * std::abs(w) + uni(-0.2, 0.2);
      const double z = uni(-0.4, 1.4) * std::abs(w);
      std::array<uint32_t, 4> p = {fb(static_cast<float>(x)), fb(static_cast<float>(y)), fb(static_cast<float>(z)),
                                   fb(static_cast<float>(w))};
      if (chance(0.01)) p[static_cast<size_t>(irange(0, 3))] = chance(0.5) ? 0x7FC00001u : (chance(0.5) ? 0x7F800000u : 0xFF800000u);
      if (chance(0.01)) p[static_cast<size_t>(irange(0, 3))] = static_cast<uint32_t>(rng());
      pos.push_back(p);
    }
    std::vector<std::array<uint32_t, 3>> tris;
    const int nt = irange(1, 24);
    for (int t = 0; t < nt; ++t) {
      tris.push_back({static_cast<uint32_t>(irange(0, n - 1)), static_cast<uint32_t>(irange(0, n - 1)),
                      static_cast<uint32_t>(irange(0, n - 1))});
    }
    // interleave state writes and tokens inside the batch's triangles
    const size_t before = s.prims.size();
    s.batch(pos, tris);
    if (chance(0.3)) {
      PrimPkt w;
      w.wr = 1;
      w.wr_idx = FE_RASTER;
      w.wr_val = static_cast<uint32_t>(irange(0, 15));
      s.prims.insert(s.prims.begin() + static_cast<long>(before + static_cast<size_t>(irange(0, nt - 1))), w);
    }
    if (chance(0.2)) {
      PrimPkt e;
      e.eop = 1;
      s.prims.insert(s.prims.begin() + static_cast<long>(before + static_cast<size_t>(irange(0, nt - 1))), e);
    }
  }
  s.token();
  randomize_attrs(s, seed ^ 0xA77B5EEDull);
  return s;
}

}  // namespace pineda::pa_test
