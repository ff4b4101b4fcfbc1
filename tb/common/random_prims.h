// SPDX-License-Identifier: Apache-2.0
// Random and directed primitives for the unit benches. Deterministic from the seed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "fp32.h"
#include "pineda_contract.h"

namespace pineda::tb {

class PrimGen {
 public:
  explicit PrimGen(uint64_t seed) : rng_(seed) {}

  int64_t range(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  uint64_t bits64() { return rng_(); }

  // An end-of-pipe token of any stream: only eop = 1.
  template <class Pkt>
  static Pkt token() {
    Pkt p;
    p.eop = 1;
    return p;
  }
  // With probability p, an end-of-pipe token to put in a stream next (tokens may follow each
  // other and may come first).
  template <class Pkt>
  void maybe_token(std::vector<Pkt>& stream, double p) {
    while (chance(p)) stream.push_back(token<Pkt>());
  }

  // A clip rectangle inside a w x h target, sometimes the whole target, sometimes empty.
  Rect clip(uint32_t w, uint32_t h) {
    Rect r;
    if (chance(0.5)) {
      r.x0 = 0, r.y0 = 0, r.x1 = w, r.y1 = h;
    } else {
      r.x0 = range(0, w), r.x1 = range(0, w), r.y0 = range(0, h), r.y1 = range(0, h);
    }
    return r;
  }

  // A triangle of one of several kinds: small, medium, large, sliver, axis-aligned,
  // degenerate, or reaching the 16.8 guard-band extremes. Coordinates in 16.8 around a w x h
  // target.
  TriPkt triangle(uint32_t w, uint32_t h, uint32_t tri_id) {
    TriPkt t;
    const int kind = static_cast<int>(range(0, 7));
    const int64_t W = int64_t{w} * 256, H = int64_t{h} * 256;
    const int64_t lo = -(int64_t{1} << 23), hi = (int64_t{1} << 23) - 1;
    auto pt = [&](int64_t cx, int64_t cy, int64_t rad) {
      Vtx v;
      v.x = std::clamp(cx + range(-rad, rad), lo, hi);
      v.y = std::clamp(cy + range(-rad, rad), lo, hi);
      return v;
    };
    const int64_t cx = range(-W / 4, W + W / 4), cy = range(-H / 4, H + H / 4);
    switch (kind) {
      case 0: for (auto& v : t.v) v = pt(cx, cy, 3 * 256); break;          // tiny
      case 1: for (auto& v : t.v) v = pt(cx, cy, 40 * 256); break;         // medium
      case 2: for (auto& v : t.v) v = pt(W / 2, H / 2, W); break;          // large
      case 3: {                                                            // sliver
        t.v[0] = pt(cx, cy, 0);
        t.v[1] = pt(cx, cy, 200 * 256);
        t.v[2] = t.v[1];
        t.v[2].x = std::clamp(t.v[2].x + range(-300, 300), lo, hi);
        break;
      }
      case 4: {                                                            // axis-aligned, on centres
        const int64_t x0 = range(0, w) * 256 + 128, y0 = range(0, h) * 256 + 128;
        const int64_t dx = range(1, 30) * 256, dy = range(1, 30) * 256;
        t.v[0].x = x0, t.v[0].y = y0;
        t.v[1].x = x0 + dx, t.v[1].y = y0;
        t.v[2].x = x0, t.v[2].y = y0 + (chance(0.5) ? dy : -dy);
        break;
      }
      case 5: {                                                            // degenerate
        t.v[0] = pt(cx, cy, 20 * 256);
        t.v[1] = chance(0.5) ? t.v[0] : pt(cx, cy, 20 * 256);
        t.v[2].x = t.v[0].x + (t.v[1].x - t.v[0].x) * 2;
        t.v[2].y = t.v[0].y + (t.v[1].y - t.v[0].y) * 2;
        t.v[2].x = std::clamp<int64_t>(t.v[2].x, lo, hi);
        t.v[2].y = std::clamp<int64_t>(t.v[2].y, lo, hi);
        break;
      }
      default: {                                                           // guard-band extremes
        for (auto& v : t.v) {
          v.x = chance(0.5) ? (chance(0.5) ? lo : hi) : range(lo, hi);
          v.y = chance(0.5) ? (chance(0.5) ? lo : hi) : range(lo, hi);
        }
        break;
      }
    }
    t.color = static_cast<uint32_t>(rng_());
    t.target.base = static_cast<uint32_t>(rng_()) & ~3u;
    t.target.pitch = w * 4;
    t.clip = clip(w, h);
    t.tri_id = tri_id;
    // Depth (docs/numerics.md section 9): mostly D3D depths in [0, 1], some anywhere, specials.
    for (auto& z : t.z) z.data = depth();
    t.zlo = chance(0.5) ? 0 : range(0, DEPTH_MAX);
    t.zhi = chance(0.5) ? DEPTH_MAX : range(static_cast<int64_t>(t.zlo), DEPTH_MAX);
    t.front = rng_() & 1u;
    t.ds = random_ds();
    return t.canonical();
  }

  // An FP32 depth: in [0, 1] (3/4), near 0 or 1, or arbitrary bits (NaN, Inf, huge, denormal).
  uint32_t depth() {
    const int kind = static_cast<int>(range(0, 15));
    if (kind < 12) return fp32::bits_of(static_cast<float>(range(0, 1 << 24)) / 16777216.0f);
    if (kind == 12) return fp32::bits_of(chance(0.5) ? 0.0f : 1.0f);
    if (kind == 13) return fp32::bits_of(static_cast<float>(range(-4000, 4000)) / 1000.0f);
    return static_cast<uint32_t>(rng_());
  }
  DsState random_ds() {
    DsState d;
    d.base = rng_(), d.pitch = rng_(), d.z_enable = rng_(), d.z_func = rng_(), d.z_write = rng_();
    d.late_z = rng_(), d.hiz = rng_(), d.s_enable = rng_(), d.s_ref = rng_(), d.s_read_mask = rng_();
    d.s_write_mask = rng_(), d.s_front = rng_(), d.s_back = rng_();
    return d.canonical();
  }

 private:
  std::mt19937_64 rng_;
};

// The seed for a test: Catch2's --rng-seed when given, else 1. Printed by the caller.
inline uint64_t test_seed(uint64_t catch_seed) { return catch_seed ? catch_seed : 1; }

}  // namespace pineda::tb
