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

// Reference coverage of one pixel, straight from the vertices (independent of setup's bbox,
// tiles and incremental evaluation).
inline bool brute_covered(const TriPkt& t, int64_t px, int64_t py) {
  if (px < static_cast<int64_t>(t.clip.x0) || px >= static_cast<int64_t>(t.clip.x1) ||
      py < static_cast<int64_t>(t.clip.y0) || py >= static_cast<int64_t>(t.clip.y1)) {
    return false;
  }
  std::array<Vtx, 3> v = t.v;
  const int64_t a2 = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
  if (a2 == 0) return false;
  if (a2 < 0) std::swap(v[1], v[2]);
  const int64_t X = px * 256 + 128, Y = py * 256 + 128;
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

// Pixels written for one triangle by SETUP -> COARSE -> FINE -> PW (as (x, y) pairs, in order).
inline std::vector<std::pair<uint32_t, uint32_t>> raster_pixels(const TriPkt& t) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  const auto s = setup.process(t);
  if (!s) return out;
  for (const TilePkt& tile : coarse.process(*s)) {
    const auto c = fine.process(tile);
    if (!c) continue;
    for (int bit = 0; bit < 64; ++bit) {
      if ((c->mask >> bit) & 1u) out.push_back({static_cast<uint32_t>(c->tx * 8 + (bit & 7)), static_cast<uint32_t>(c->ty * 8 + (bit >> 3))});
    }
  }
  return out;
}

}  // namespace pineda::test
