// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the model unit tests.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "om/pixel_writer.h"
#include "pineda_contract.h"
#include "rast/coarse_raster.h"
#include "rast/fine_raster.h"
#include "scenes.h"
#include "setup/setup.h"

namespace pineda::test {

constexpr int64_t PX = 256;

// Base seed for randomised tests: Catch's --rng-seed when given, else a fixed value.
inline uint32_t base_seed() {
  const uint32_t s = Catch::rngSeed();
  return s ? s : 0x5EEDu;
}

inline Rect rect(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1) {
  Rect r;
  r.x0 = x0;
  r.y0 = y0;
  r.x1 = x1;
  r.y1 = y1;
  return r;
}

inline TriPkt tri(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int64_t x2, int64_t y2, Rect clip) {
  TriPkt t;
  t.v[0].x = x0;
  t.v[0].y = y0;
  t.v[1].x = x1;
  t.v[1].y = y1;
  t.v[2].x = x2;
  t.v[2].y = y2;
  t.clip = clip;
  t.color = 0xFF00FF00u;
  t.target.base = 0x10000000u;
  t.target.pitch = 4096;
  return t;
}

inline TriPkt tri(const SceneTri& s, Rect clip) {
  return tri(s[0].x, s[0].y, s[1].x, s[1].y, s[2].x, s[2].y, clip);
}

// Reference coverage of one sample at (X, Y) (16.8) of pixel (px, py), straight from the
// vertices (independent of setup's bbox, tiles and incremental evaluation).
inline bool brute_covered_at(const TriPkt& t, int64_t px, int64_t py, int64_t X, int64_t Y) {
  if (px < static_cast<int64_t>(t.clip.x0) || px >= static_cast<int64_t>(t.clip.x1) ||
      py < static_cast<int64_t>(t.clip.y0) || py >= static_cast<int64_t>(t.clip.y1)) {
    return false;
  }
  std::array<Vtx, 3> v = t.v;
  const int64_t a2 = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
  if (a2 == 0) return false;
  if (a2 < 0) std::swap(v[1], v[2]);
  for (int k = 0; k < 3; ++k) {
    const Vtx& i = v[k];
    const Vtx& j = v[(k + 1) % 3];
    const int64_t A = i.y - j.y, B = j.x - i.x;
    const int64_t e = A * (X - i.x) + B * (Y - i.y);
    const bool top_left = A > 0 || (A == 0 && B > 0);
    if (e < 0 || (e == 0 && !top_left)) return false;
  }
  return true;
}

// D3D 4x MSAA sample offsets from the pixel centre, in 1/256 pixel ((-2,-6), (6,-2), (-6,2),
// (2,6) in 1/16 pixel).
constexpr int64_t MSAA4_DX[4] = {-32, 96, -96, 32};
constexpr int64_t MSAA4_DY[4] = {-96, -32, 32, 96};

// Reference coverage of one pixel (1x: its centre) or of sample s of it (4x).
inline bool brute_covered(const TriPkt& t, int64_t px, int64_t py, int s = -1) {
  if (s < 0) return brute_covered_at(t, px, py, px * 256 + 128, py * 256 + 128);
  return brute_covered_at(t, px, py, px * 256 + 128 + MSAA4_DX[s], py * 256 + 128 + MSAA4_DY[s]);
}

// Samples written for one triangle by SETUP -> COARSE -> FINE -> PW, in order, as (x, y, s)
// with s = 0 at 1x.
struct Sample {
  uint32_t x, y, s;
  bool operator<(const Sample& o) const { return x != o.x ? x < o.x : y != o.y ? y < o.y : s < o.s; }
  bool operator==(const Sample& o) const { return x == o.x && y == o.y && s == o.s; }
};
inline std::vector<Sample> raster_samples(const TriPkt& t) {
  std::vector<Sample> out;
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  const auto st = setup.process(t);
  if (!st) return out;
  const bool msaa = t.target.msaa != 0;
  for (const TilePkt& tile : coarse.process(*st)) {
    for (const QuadPkt& q : fine.process(tile)) {
      for (int bit = 0; bit < 16; ++bit) {
        if (!((q.mask >> bit) & 1u)) continue;
        const int p = msaa ? bit >> 2 : bit;
        if (p >= 4) continue;
        out.push_back({static_cast<uint32_t>(q.qx * 2 + (p & 1)), static_cast<uint32_t>(q.qy * 2 + (p >> 1)),
                       msaa ? static_cast<uint32_t>(bit & 3) : 0u});
      }
    }
  }
  return out;
}

// Pixels written for one triangle at 1x (as (x, y) pairs, in order).
inline std::vector<std::pair<uint32_t, uint32_t>> raster_pixels(const TriPkt& t) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const Sample& s : raster_samples(t)) out.push_back({s.x, s.y});
  return out;
}

}  // namespace pineda::test
