// SPDX-License-Identifier: Apache-2.0
// Property cases for the rasterizer (docs/verification.md, "Rasterizer properties"), shared by
// the model tests (tests/model/test_raster_props.cpp) and the RTL unit benches (tb/setup,
// tb/rast), which run the same triangles through the RTL and check the same properties on the
// RTL's output. Everything is deterministic from a seed; no Catch2 here.
//
//   mesh_cases       closed meshes: regular grids whose shared edges are exactly horizontal or
//                    vertical and whose vertices often sit exactly on samples (pixel centres at
//                    1x, D3D sample positions at 4x), jittered grids, and triangle fans around a
//                    vertex on a sample. Every sample inside is covered exactly once.
//   topleft_cases    D3D11 top-left rule: edges and vertices exactly on samples, every direction.
//   extreme_cases    vertices at the 16.8 guard-band limits (+-2^23), windows anywhere in a
//                    16384 x 16384 target, including its last pixels.
//   tiny_cases       zero-area triangles (culled) and triangles around exactly one sample.
//   scissor_cases    random triangles with scissor rectangles cutting tiles anywhere.
// A case's triangles are checked against covered_expect(): 1 covered, 0 not covered, -1 either
// (a sample exactly on a fan's outer vertex); a brute-force evaluation from the vertices.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "pineda_contract.h"

namespace pineda::cases {

constexpr int64_t PX = 256;
// D3D 4x sample offsets from the pixel centre, 1/256 pixel.
constexpr int64_t SDX[4] = {-32, 96, -96, 32};
constexpr int64_t SDY[4] = {-96, -32, 32, 96};

class Rng {  // splitmix64
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {
    return hi <= lo ? lo : lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return range(0, 99) < percent; }

 private:
  uint64_t s_;
};

struct P2 {
  int64_t x = 0, y = 0;
};

inline Rect rect(uint64_t x0, uint64_t y0, uint64_t x1, uint64_t y1) {
  Rect r;
  r.x0 = x0, r.y0 = y0, r.x1 = x1, r.y1 = y1;
  return r;
}

inline TriPkt make_tri(P2 a, P2 b, P2 c, Rect clip, bool msaa, uint32_t id) {
  TriPkt t;
  t.v[0].x = a.x, t.v[0].y = a.y, t.v[1].x = b.x, t.v[1].y = b.y, t.v[2].x = c.x, t.v[2].y = c.y;
  t.clip = clip;
  t.color = 0xFF000000u | (id * 2654435761u >> 8);
  t.target.base = 0x10000000u;
  t.target.pitch = msaa ? 16384 * 16 : 16384 * 4;
  t.target.msaa = msaa ? 1 : 0;
  t.tri_id = id;
  return t.canonical();
}

// Position of sample s (0 at 1x) of pixel (px, py), 16.8.
inline P2 sample_pos(int64_t px, int64_t py, int s, bool msaa) {
  return {px * PX + 128 + (msaa ? SDX[s] : 0), py * PX + 128 + (msaa ? SDY[s] : 0)};
}

// The edge function of setup (numerics section 2) for v[k] -> v[k+1] of a positively oriented
// triangle, without the bias, and whether it is a top-left edge.
inline int64_t edge_raw(P2 i, P2 j, P2 s, bool& top_left) {
  const int64_t a = i.y - j.y, b = j.x - i.x;
  top_left = a > 0 || (a == 0 && b > 0);
  return a * (s.x - i.x) + b * (s.y - i.y);
}

// Brute-force coverage of sample s of pixel (px, py) by one triangle (clip included).
inline bool brute(const TriPkt& t, int64_t px, int64_t py, int s) {
  if (px < static_cast<int64_t>(t.clip.x0) || px >= static_cast<int64_t>(t.clip.x1) ||
      py < static_cast<int64_t>(t.clip.y0) || py >= static_cast<int64_t>(t.clip.y1)) {
    return false;
  }
  P2 v[3] = {{t.v[0].x, t.v[0].y}, {t.v[1].x, t.v[1].y}, {t.v[2].x, t.v[2].y}};
  const int64_t a2 = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
  if (a2 == 0) return false;
  if (a2 < 0) std::swap(v[1], v[2]);
  const P2 p = sample_pos(px, py, s, t.target.msaa != 0);
  for (int k = 0; k < 3; ++k) {
    bool tl = false;
    const int64_t e = edge_raw(v[k], v[(k + 1) % 3], p, tl);
    if (e < 0 || (e == 0 && !tl)) return false;
  }
  return true;
}

// A set of triangles and what their union must cover.
struct Case {
  std::string what;
  bool msaa = false;
  Rect window;                // the samples checked (pixels); every triangle's clip is inside
  std::vector<TriPkt> tris;   // in draw order
  enum class Expect { RECT, POLYGON, BRUTE_EACH, NONE } expect = Expect::BRUTE_EACH;
  int64_t rx0 = 0, ry0 = 0, rx1 = 0, ry1 = 0;  // RECT: samples with rx0 <= X < rx1, ry0 <= Y < ry1
  std::vector<P2> poly;                          // POLYGON: convex, positively oriented (clockwise)
  Rect clip;                                     // RECT/POLYGON: the clip of every triangle
  int64_t max_count = 1;                         // BRUTE_EACH: samples may be hit by several triangles

  // RECT/POLYGON: 1 covered exactly once, 0 not covered, -1 at most once.
  int expect_at(int64_t px, int64_t py, int s) const {
    if (px < static_cast<int64_t>(clip.x0) || px >= static_cast<int64_t>(clip.x1) ||
        py < static_cast<int64_t>(clip.y0) || py >= static_cast<int64_t>(clip.y1)) {
      return 0;
    }
    const P2 p = sample_pos(px, py, s, msaa);
    if (expect == Expect::RECT) return (rx0 <= p.x && p.x < rx1 && ry0 <= p.y && p.y < ry1) ? 1 : 0;
    int zeros = 0, zero_tl = 0;
    for (size_t k = 0; k < poly.size(); ++k) {
      bool tl = false;
      const int64_t e = edge_raw(poly[k], poly[(k + 1) % poly.size()], p, tl);
      if (e < 0) return 0;
      if (e == 0) {
        ++zeros;
        zero_tl += tl ? 1 : 0;
      }
    }
    if (zeros == 0) return 1;
    if (zeros == 1) return zero_tl;
    return -1;  // on an outer vertex
  }
};

// Checks the samples covered by a case's triangles (as (x, y, s) per triangle, from the model or
// the RTL). Returns "" or the first problems.
struct Hit {
  uint32_t x, y, s, tri;
};
inline std::string check_case(const Case& c, const std::vector<Hit>& hits) {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int> count;
  std::ostringstream err;
  int bad = 0;
  const int ns = c.msaa ? 4 : 1;
  for (const Hit& h : hits) {
    if (h.x < c.window.x0 || h.x >= c.window.x1 || h.y < c.window.y0 || h.y >= c.window.y1 ||
        h.s >= static_cast<uint32_t>(ns)) {
      if (bad++ < 5) err << "  sample (" << h.x << "," << h.y << ") s" << h.s << " outside the window\n";
      continue;
    }
    ++count[{h.x, h.y, h.s}];
    if (c.expect == Case::Expect::BRUTE_EACH && !brute(c.tris.at(h.tri), h.x, h.y, static_cast<int>(h.s))) {
      if (bad++ < 5) err << "  sample (" << h.x << "," << h.y << ") s" << h.s << " covered by triangle #" << h.tri
                         << " but not by brute force\n";
    }
  }
  for (uint64_t py = c.window.y0; py < c.window.y1; ++py) {
    for (uint64_t px = c.window.x0; px < c.window.x1; ++px) {
      for (int s = 0; s < ns; ++s) {
        const auto it = count.find({static_cast<uint32_t>(px), static_cast<uint32_t>(py), static_cast<uint32_t>(s)});
        const int got = it == count.end() ? 0 : it->second;
        int want = 0;
        bool ok = true;
        switch (c.expect) {
          case Case::Expect::RECT:
          case Case::Expect::POLYGON:
            want = c.expect_at(static_cast<int64_t>(px), static_cast<int64_t>(py), s);
            ok = want < 0 ? got <= 1 : got == want;
            break;
          case Case::Expect::BRUTE_EACH:
            want = 0;
            for (const TriPkt& t : c.tris) want += brute(t, static_cast<int64_t>(px), static_cast<int64_t>(py), s) ? 1 : 0;
            ok = got == want && got <= c.max_count;
            break;
          case Case::Expect::NONE:
            ok = got == 0;
            break;
        }
        if (!ok && bad++ < 5) {
          err << "  sample (" << px << "," << py << ") s" << s << " covered " << got << " times, expected "
              << (want < 0 ? std::string("at most once") : std::to_string(want)) << "\n";
        }
      }
    }
  }
  if (bad == 0) return "";
  std::ostringstream out;
  out << c.what << (c.msaa ? " (4x)" : " (1x)") << ": " << bad << " problems\n" << err.str();
  return out.str();
}

// ---- generators -------------------------------------------------------------------------------

// `count` cases of one family from one Rng(seed): fill(c, rng, it) makes case `it` (c.msaa set).
template <class Fill>
std::vector<Case> cases_of(uint64_t seed, int count, bool msaa, Fill&& fill) {
  Rng rng(seed);
  std::vector<Case> out;
  for (int it = 0; it < count; ++it) {
    Case c;
    c.msaa = msaa;
    fill(c, rng, it);
    out.push_back(c);
  }
  return out;
}

// Closed meshes over a window of `n` x `n` pixels at (ox, oy).
inline std::vector<Case> mesh_cases(uint64_t seed, int count, bool msaa, int64_t ox = 0, int64_t oy = 0) {
  const int64_t n = 40;
  return cases_of(seed, count, msaa, [&](Case& c, Rng& rng, int it) {
    c.window = rect(static_cast<uint64_t>(ox), static_cast<uint64_t>(oy), static_cast<uint64_t>(ox + n),
                    static_cast<uint64_t>(oy + n));
    c.clip = c.window;
    const int64_t bx = ox * PX, by = oy * PX;
    uint32_t id = 0;
    auto on_sample = [&](P2 p) {  // nearest sample of a random index (1x: the pixel centre)
      const int s = msaa ? static_cast<int>(rng.range(0, 3)) : 0;
      return sample_pos(p.x >> 8, p.y >> 8, s, msaa);
    };
    if (it % 3 != 2) {
      // A grid of cols x rows cells of 3..8 pixels (any 16.8 corner), split along random
      // diagonals, random windings. Rows and columns are exact (horizontal / vertical shared
      // edges) unless jittered; interior vertices often sit exactly on a sample.
      c.expect = Case::Expect::RECT;
      c.what = "grid mesh #" + std::to_string(it);
      const int cols = static_cast<int>(rng.range(1, 8)), rows = static_cast<int>(rng.range(1, 8));
      const int64_t cw = rng.range(3 * PX, 4 * PX + 255), ch = rng.range(3 * PX, 4 * PX + 255);
      int64_t x0 = bx + rng.range(-3 * PX, 6 * PX), y0 = by + rng.range(-3 * PX, 6 * PX);
      if (rng.chance(30)) x0 = sample_pos((x0 >> 8), 0, static_cast<int>(rng.range(0, 3)), msaa).x;
      if (rng.chance(30)) y0 = sample_pos(0, (y0 >> 8), static_cast<int>(rng.range(0, 3)), msaa).y;
      c.rx0 = x0, c.ry0 = y0, c.rx1 = x0 + cols * cw, c.ry1 = y0 + rows * ch;
      const bool jitter = it % 3 == 1;
      std::vector<P2> v(static_cast<size_t>((cols + 1) * (rows + 1)));
      std::vector<int64_t> colx(cols + 1), rowy(rows + 1);
      for (int i = 0; i <= cols; ++i) colx[i] = x0 + i * cw;
      for (int j = 0; j <= rows; ++j) rowy[j] = y0 + j * ch;
      // Some whole interior rows / columns moved onto a sample row / column (still exact).
      for (int i = 1; i < cols; ++i)
        if (rng.chance(40)) colx[i] = sample_pos(colx[i] >> 8, 0, static_cast<int>(rng.range(0, 3)), msaa).x;
      for (int j = 1; j < rows; ++j)
        if (rng.chance(40)) rowy[j] = sample_pos(0, rowy[j] >> 8, static_cast<int>(rng.range(0, 3)), msaa).y;
      for (int j = 0; j <= rows; ++j) {
        for (int i = 0; i <= cols; ++i) {
          P2 p{colx[i], rowy[j]};
          const bool interior = i > 0 && i < cols && j > 0 && j < rows;
          if (interior && rng.chance(jitter ? 50 : 25)) p = on_sample(p);  // < 1/2 pixel away
          if (interior && jitter && rng.chance(50)) {
            p.x += rng.range(-cw / 6, cw / 6);
            p.y += rng.range(-ch / 6, ch / 6);
          }
          v[static_cast<size_t>(j * (cols + 1) + i)] = p;
        }
      }
      for (int j = 0; j < rows; ++j) {
        for (int i = 0; i < cols; ++i) {
          const P2 a = v[static_cast<size_t>(j * (cols + 1) + i)], b = v[static_cast<size_t>(j * (cols + 1) + i + 1)];
          const P2 cc = v[static_cast<size_t>((j + 1) * (cols + 1) + i + 1)], d = v[static_cast<size_t>((j + 1) * (cols + 1) + i)];
          std::array<std::array<P2, 3>, 2> t = {{{a, b, cc}, {a, cc, d}}};
          if (rng.chance(50)) t = {{{a, b, d}, {b, cc, d}}};
          for (auto& tri : t) {
            if (rng.chance(50)) std::swap(tri[1], tri[2]);  // either winding
            const int rot = static_cast<int>(rng.range(0, 2));
            std::rotate(tri.begin(), tri.begin() + rot, tri.end());
            c.tris.push_back(make_tri(tri[0], tri[1], tri[2], c.clip, msaa, id++));
          }
        }
      }
    } else {
      // A fan: a convex polygon (a regular polygon of 3..12 corners, jittered) around a centre
      // vertex on a sample; spokes from the centre to every corner.
      c.expect = Case::Expect::POLYGON;
      c.what = "fan #" + std::to_string(it);
      const int m = static_cast<int>(rng.range(3, 12));
      const P2 centre = sample_pos(ox + rng.range(12, 28), oy + rng.range(12, 28), static_cast<int>(rng.range(0, 3)), msaa);
      const double r = static_cast<double>(rng.range(4 * PX, 11 * PX));
      const double phase = static_cast<double>(rng.range(0, 628)) / 100.0;
      for (int k = 0; k < m; ++k) {
        const double ang = phase + 6.283185307179586 * k / m;  // clockwise on screen (y down)
        P2 p{centre.x + static_cast<int64_t>(r * std::cos(ang)), centre.y + static_cast<int64_t>(r * std::sin(ang))};
        if (rng.chance(40)) p = on_sample(p);
        c.poly.push_back(p);
      }
      // Keep it convex and clockwise: drop corners that are not strictly convex.
      bool changed = true;
      while (changed && c.poly.size() > 3) {
        changed = false;
        for (size_t k = 0; k < c.poly.size(); ++k) {
          const P2 a = c.poly[(k + c.poly.size() - 1) % c.poly.size()], b = c.poly[k], d = c.poly[(k + 1) % c.poly.size()];
          if ((b.x - a.x) * (d.y - a.y) - (d.x - a.x) * (b.y - a.y) <= 0) {
            c.poly.erase(c.poly.begin() + static_cast<long>(k));
            changed = true;
            break;
          }
        }
      }
      for (size_t k = 0; k < c.poly.size(); ++k) {
        std::array<P2, 3> tri = {centre, c.poly[k], c.poly[(k + 1) % c.poly.size()]};
        if (rng.chance(50)) std::swap(tri[1], tri[2]);
        c.tris.push_back(make_tri(tri[0], tri[1], tri[2], c.clip, msaa, id++));
      }
    }
  });
}

// D3D11 top-left rule cases: small triangles and rectangles whose edges and vertices lie exactly
// on samples, in all eight edge directions, both windings; checked against brute force.
inline std::vector<Case> topleft_cases(uint64_t seed, int count, bool msaa) {
  return cases_of(seed, count, msaa, [&](Case& c, Rng& rng, int it) {
    c.what = "top-left #" + std::to_string(it);
    c.window = rect(0, 0, 24, 24);
    c.expect = Case::Expect::BRUTE_EACH;
    auto pick = [&](int64_t lo, int64_t hi) {
      return sample_pos(rng.range(lo, hi), rng.range(lo, hi), static_cast<int>(rng.range(0, 3)), msaa);
    };
    // A triangle with a horizontal, a vertical or a diagonal edge through samples.
    const P2 a = pick(4, 18);
    P2 b = pick(4, 18), d = pick(4, 18);
    const int kind = it % 4;
    if (kind == 0) b.y = a.y;                   // horizontal edge a-b (top or bottom)
    if (kind == 1) b.x = a.x;                   // vertical edge a-b (left or right)
    if (kind == 2) { b.x = a.x + (b.y - a.y); } // 45-degree edge
    if (kind == 3) { d = {a.x + (b.x - a.x) * 2, a.y + (b.y - a.y) * 2}; d.x += rng.range(-1, 1) * 32; }
    std::array<P2, 3> t = {a, b, d};
    if (rng.chance(50)) std::swap(t[1], t[2]);
    c.tris.push_back(make_tri(t[0], t[1], t[2], rect(0, 0, 24, 24), msaa, 0));
    // Its mirror images share the edges with opposite directions: a square split both ways.
    const P2 q0 = pick(2, 8), q2 = {q0.x + rng.range(1, 10) * PX, q0.y + rng.range(1, 10) * PX};
    const P2 q1 = {q2.x, q0.y}, q3 = {q0.x, q2.y};
    c.tris.push_back(make_tri(q0, q1, q2, rect(0, 0, 24, 24), msaa, 1));
    c.tris.push_back(make_tri(q0, q2, q3, rect(0, 0, 24, 24), msaa, 2));
    c.max_count = 2;  // the first triangle may overlap the square
  });
}

// Vertices at the 16.8 limits; a 24 x 24 window somewhere in a 16384 x 16384 target (often at
// its corners and last pixels); brute force on the window.
inline std::vector<Case> extreme_cases(uint64_t seed, int count, bool msaa) {
  const int64_t lo = -(int64_t{1} << 23), hi = (int64_t{1} << 23) - 1;
  return cases_of(seed, count, msaa, [&](Case& c, Rng& rng, int it) {
    c.what = "guard band #" + std::to_string(it);
    const int64_t w = 24;
    const int corner = static_cast<int>(rng.range(0, 4));
    const int64_t wx = corner == 0 ? 0 : corner == 1 ? 16384 - w : rng.range(0, 16384 - w);
    const int64_t wy = corner == 2 ? 16384 - w : corner == 1 ? 0 : rng.range(0, 16384 - w);
    c.window = rect(static_cast<uint64_t>(wx), static_cast<uint64_t>(wy), static_cast<uint64_t>(wx + w),
                    static_cast<uint64_t>(wy + w));
    c.expect = Case::Expect::BRUTE_EACH;
    c.max_count = 1000;
    for (int k = 0; k < 4; ++k) {
      P2 p[3];
      for (auto& q : p) {
        const int pick = static_cast<int>(rng.range(0, 3));
        q.x = pick == 0 ? lo : pick == 1 ? hi : rng.range(lo, hi);
        q.y = rng.chance(50) ? (rng.chance(50) ? lo : hi) : rng.range(lo, hi);
      }
      // Sometimes an edge passes through the window exactly on a sample.
      if (rng.chance(40)) p[0] = sample_pos(wx + rng.range(0, w - 1), wy + rng.range(0, w - 1), static_cast<int>(rng.range(0, 3)), msaa);
      c.tris.push_back(make_tri(p[0], p[1], p[2], c.window, msaa, static_cast<uint32_t>(k)));
    }
  });
}

// Zero-area triangles (nothing) and triangles around exactly one sample.
inline std::vector<Case> tiny_cases(uint64_t seed, int count, bool msaa) {
  return cases_of(seed, count, msaa, [&](Case& c, Rng& rng, int it) {
    c.window = rect(0, 0, 20, 20);
    const P2 s = sample_pos(rng.range(1, 18), rng.range(1, 18), static_cast<int>(rng.range(0, 3)), msaa);
    if (it % 2 == 0) {
      c.what = "zero area #" + std::to_string(it);
      c.expect = Case::Expect::NONE;
      const P2 d{rng.range(-900, 900), rng.range(-900, 900)};
      const int64_t k = rng.range(-3, 3);
      c.tris.push_back(make_tri(s, s, s, c.window, msaa, 0));                                   // a point
      c.tris.push_back(make_tri(s, {s.x + d.x, s.y + d.y}, {s.x + k * d.x, s.y + k * d.y}, c.window, msaa, 1));  // a line
      c.tris.push_back(make_tri(s, {s.x + d.x, s.y}, {s.x + 2 * d.x, s.y}, c.window, msaa, 2));  // horizontal line
    } else {
      c.what = "one sample #" + std::to_string(it);
      c.expect = Case::Expect::BRUTE_EACH;
      // Strictly around the sample, at most 31/256 pixel away: no other sample is that close.
      const int64_t r = rng.range(2, 31);
      std::array<P2, 3> t = {P2{s.x - r, s.y - rng.range(1, r)}, P2{s.x + r, s.y - rng.range(1, r)}, P2{s.x + rng.range(-r + 1, r - 1), s.y + r}};
      if (rng.chance(50)) std::swap(t[1], t[2]);
      c.tris.push_back(make_tri(t[0], t[1], t[2], c.window, msaa, 0));
    }
  });
}

// Random triangles with scissor rectangles cutting tiles anywhere (not on tile boundaries).
inline std::vector<Case> scissor_cases(uint64_t seed, int count, bool msaa) {
  return cases_of(seed, count, msaa, [&](Case& c, Rng& rng, int it) {
    c.what = "scissor #" + std::to_string(it);
    c.window = rect(0, 0, 48, 48);
    c.expect = Case::Expect::BRUTE_EACH;
    c.max_count = 1000;
    for (int k = 0; k < 6; ++k) {
      const uint64_t x0 = static_cast<uint64_t>(rng.range(0, 40)), y0 = static_cast<uint64_t>(rng.range(0, 40));
      const Rect clip = rect(x0, y0, std::min<uint64_t>(48, x0 + static_cast<uint64_t>(rng.range(0, 20))),
                             std::min<uint64_t>(48, y0 + static_cast<uint64_t>(rng.range(0, 20))));
      const int64_t size = rng.range(PX, 40 * PX);
      const int64_t cx = rng.range(-4 * PX, 52 * PX), cy = rng.range(-4 * PX, 52 * PX);
      P2 p[3];
      for (auto& q : p) q = {cx + rng.range(-size, size), cy + rng.range(-size, size)};
      c.tris.push_back(make_tri(p[0], p[1], p[2], clip, msaa, static_cast<uint32_t>(k)));
    }
  });
}

// Every property case, 1x and 4x.
inline std::vector<Case> all_cases(uint64_t seed, int scale = 1) {
  std::vector<Case> out;
  for (bool msaa : {false, true}) {
    const uint64_t s = seed * 16 + (msaa ? 8 : 0);
    for (auto& c : mesh_cases(s + 1, 60 * scale, msaa)) out.push_back(std::move(c));
    for (auto& c : mesh_cases(s + 2, 6 * scale, msaa, 16384 - 40, 16384 - 40)) out.push_back(std::move(c));
    for (auto& c : topleft_cases(s + 3, 60 * scale, msaa)) out.push_back(std::move(c));
    for (auto& c : extreme_cases(s + 4, 40 * scale, msaa)) out.push_back(std::move(c));
    for (auto& c : tiny_cases(s + 5, 60 * scale, msaa)) out.push_back(std::move(c));
    for (auto& c : scissor_cases(s + 6, 30 * scale, msaa)) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace pineda::cases
