// SPDX-License-Identifier: Apache-2.0
// Coarse and fine rasterizers against brute-force evaluation, and D3D11 top-left examples.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "test_util.h"

using namespace pineda;
using test::PX;

namespace {

// A random triangle around a 64x64 region, sizes from sub-pixel to the whole region.
TriPkt random_tri(SceneRng& rng, Rect clip) {
  const int64_t size = rng.chance(30) ? rng.range(16, 3 * PX) : rng.range(3 * PX, 80 * PX);
  const int64_t cx = rng.range(-8 * PX, 72 * PX), cy = rng.range(-8 * PX, 72 * PX);
  int64_t c[6];
  for (int i = 0; i < 6; i += 2) {
    c[i] = cx + rng.range(-size, size);
    c[i + 1] = cy + rng.range(-size, size);
    if (rng.chance(15)) c[i] = (c[i] & ~int64_t{255}) + 128;  // on a pixel centre
    if (rng.chance(15)) c[i + 1] = (c[i + 1] & ~int64_t{255}) + 128;
  }
  if (rng.chance(10)) c[3] = c[1];  // horizontal edge
  if (rng.chance(10)) c[4] = c[0];  // vertical edge
  TriPkt t = test::tri(c[0], c[1], c[2], c[3], c[4], c[5], clip);
  t.tri_id = rng.next() & 0xFFFFFFFFu;
  return t;
}

Rect random_clip(SceneRng& rng) {
  if (rng.chance(50)) return test::rect(0, 0, 64, 64);
  const uint64_t x0 = static_cast<uint64_t>(rng.range(0, 40)), y0 = static_cast<uint64_t>(rng.range(0, 40));
  return test::rect(x0, y0, x0 + static_cast<uint64_t>(rng.range(1, 30)), y0 + static_cast<uint64_t>(rng.range(1, 30)));
}

}  // namespace

TEST_CASE("coarse: corner test agrees with per-sample evaluation", "[coarse]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  model::Setup setup;
  uint64_t rejected = 0, accepted = 0;
  for (int it = 0; it < 3000; ++it) {
    const TriPkt t = random_tri(rng, random_clip(rng));
    const auto s = setup.process(t);
    if (!s) continue;
    INFO(t.str());
    std::array<Vtx, 3> v = t.v;
    if (model::Setup::area2(v[0], v[1], v[2]) < 0) std::swap(v[1], v[2]);
    // Walk order and emitted set.
    model::CoarseRaster coarse;
    auto tiles = coarse.process(*s);
    // The walk order (numerics section 4.2) differs from row-major inside a row; compare sets.
    std::sort(tiles.begin(), tiles.end(), [](const TilePkt& p, const TilePkt& q) {
      return p.ty != q.ty ? p.ty < q.ty : p.tx < q.tx;
    });
    size_t next = 0;
    for (uint64_t ty = s->tiles.y0; ty < s->tiles.y1; ++ty) {
      for (uint64_t tx = s->tiles.x0; tx < s->tiles.x1; ++tx) {
        bool any_edge_all_out = false, all_in = true;
        for (int k = 0; k < 3; ++k) {
          const auto f = model::Setup::edge_fn(v[k], v[(k + 1) % 3]);
          bool all_out = true;
          for (int j = 0; j < 8; ++j) {
            for (int i = 0; i < 8; ++i) {
              const int64_t e = f.eval(static_cast<int64_t>(tx * 8 + i) * 256 + 128, static_cast<int64_t>(ty * 8 + j) * 256 + 128);
              if (e >= 0) all_out = false;
              if (e < 0) all_in = false;
            }
          }
          if (all_out) any_edge_all_out = true;
        }
        const bool emitted = next < tiles.size() && tiles[next].tx == tx && tiles[next].ty == ty;
        INFO("tile " << tx << "," << ty);
        if (!emitted) {
          ++rejected;
          CHECK(any_edge_all_out);
        } else {
          const TilePkt& tp = tiles[next++];
          CHECK_FALSE(any_edge_all_out);  // the corner test is exact per edge
          CHECK((tp.edge_in == 7u) == all_in);
          if (tp.edge_in == 7u) ++accepted;
          for (int k = 0; k < 3; ++k) {
            const auto f = model::Setup::edge_fn(v[k], v[(k + 1) % 3]);
            CHECK(tp.edges[k].e == f.eval(static_cast<int64_t>(tx * 8) * 256 + 128, static_cast<int64_t>(ty * 8) * 256 + 128));
          }
          CHECK(tp.pix == s->pix);
          CHECK(tp.tri_id == s->tri_id);
          CHECK(tp == tp.canonical());
        }
      }
    }
    CHECK(next == tiles.size());
  }
  CHECK(rejected > 0);
  CHECK(accepted > 0);
}

TEST_CASE("fine: masks and whole-triangle coverage equal brute force", "[fine]") {
  const uint32_t seed = test::base_seed() + 1;
  INFO("seed " << seed);
  SceneRng rng(seed);
  for (int it = 0; it < 3000; ++it) {
    const TriPkt t = random_tri(rng, random_clip(rng));
    INFO(t.str());
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (const auto& p : test::raster_pixels(t)) CHECK(got.insert(p).second);  // no pixel twice
    for (int64_t py = 0; py < 64; ++py) {
      for (int64_t px = 0; px < 64; ++px) {
        const bool want = test::brute_covered(t, px, py);
        const bool have = got.count({static_cast<uint32_t>(px), static_cast<uint32_t>(py)}) != 0;
        if (want != have) {
          INFO("pixel " << px << "," << py);
          CHECK(want == have);
        }
      }
    }
  }
}

TEST_CASE("fine: quad order inside a tile and empty masks", "[fine]") {
  // A tile fully inside (every edge inside) clipped by pix to a 3x2 window.
  TilePkt t;
  t.tx = 1;
  t.ty = 2;
  t.edge_in = 7;
  t.pix = test::rect(10, 17, 13, 19);
  model::FineRaster fine;
  CHECK(model::FineRaster::coverage_mask(t) == ((uint64_t{0x1C} << 8) | (uint64_t{0x1C} << 16)));
  // pixels x 10..12, y 17..18: quads (5, 8) (x 10..11, y 16..17), (6, 8), (5, 9), (6, 9), in
  // row-major quad order, pixel bit p = (y&1)*2 + (x&1).
  const auto q = fine.process(t);
  REQUIRE(q.size() == 4);
  CHECK((q[0].qx == 5 && q[0].qy == 8 && q[0].mask == 0xCu));
  CHECK((q[1].qx == 6 && q[1].qy == 8 && q[1].mask == 0x4u));
  CHECK((q[2].qx == 5 && q[2].qy == 9 && q[2].mask == 0x3u));
  CHECK((q[3].qx == 6 && q[3].qy == 9 && q[3].mask == 0x1u));
  t.pix = test::rect(0, 0, 8, 16);  // does not reach tile (1, 2)
  CHECK(fine.process(t).empty());
  // 4x: the tile is 4x4 pixels (4..7, 8..11), 2x2 quads; bit 4*p + s.
  t.target.msaa = 1;
  t.pix = test::rect(5, 8, 6, 9);  // one pixel: (5, 8), pixel 1 of quad (2, 4)
  const auto m = fine.process(t);
  REQUIRE(m.size() == 1);
  CHECK((m[0].qx == 2 && m[0].qy == 4 && m[0].mask == 0xF0u));
}

TEST_CASE("top-left rule: D3D11 examples", "[fine][topleft]") {
  const Rect clip = test::rect(0, 0, 64, 64);
  auto pixels = [](const TriPkt& t) {
    std::set<std::pair<uint32_t, uint32_t>> s;
    for (const auto& p : test::raster_pixels(t)) s.insert(p);
    return s;
  };
  const int64_t h = 128;  // half a pixel
  // Upper-left half of the 4x4 block of centres (0.5..3.5): top edge and left edge on centres
  // (included), hypotenuse through centres (a right edge: excluded).
  const TriPkt ul = test::tri(h, h, 4 * PX + h, h, h, 4 * PX + h, clip);
  std::set<std::pair<uint32_t, uint32_t>> want_ul;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x + y <= 3; ++x) want_ul.insert({x, y});
  CHECK(pixels(ul) == want_ul);
  // Lower-right half: bottom and right edges on centres (excluded), hypotenuse now a left edge.
  const TriPkt lr = test::tri(4 * PX + h, 4 * PX + h, h, 4 * PX + h, 4 * PX + h, h, clip);
  std::set<std::pair<uint32_t, uint32_t>> want_lr;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x)
      if (x + y >= 4) want_lr.insert({x, y});
  CHECK(pixels(lr) == want_lr);
  // Together they cover the 4x4 block of centres exactly once.
  CHECK(want_ul.size() + want_lr.size() == 16);
  // Either winding gives the same coverage.
  TriPkt ul_ccw = ul;
  std::swap(ul_ccw.v[1], ul_ccw.v[2]);
  CHECK(pixels(ul_ccw) == want_ul);

  // A sample on a vertex: covered only when both edges through it are top or left.
  CHECK(pixels(ul).count({0, 0}) == 1);  // top + left
  CHECK(pixels(ul).count({4, 0}) == 0);  // top + right
  CHECK(pixels(ul).count({0, 4}) == 0);  // left + bottom... (hypotenuse is right)

  // Axis-aligned rectangle [2.5, 6.5) x [1.5, 3.5) split along a diagonal: left/top in, right/bottom out.
  const SceneVertex a{2 * PX + h, PX + h}, b{6 * PX + h, PX + h}, c{6 * PX + h, 3 * PX + h}, d{2 * PX + h, 3 * PX + h};
  std::set<std::pair<uint32_t, uint32_t>> rect_px = pixels(test::tri({a, b, c}, clip));
  for (const auto& p : pixels(test::tri({a, c, d}, clip))) CHECK(rect_px.insert(p).second);
  std::set<std::pair<uint32_t, uint32_t>> want_rect;
  for (uint32_t y = 1; y < 3; ++y)
    for (uint32_t x = 2; x < 6; ++x) want_rect.insert({x, y});
  CHECK(rect_px == want_rect);

  // A thin triangle covering no sample centre produces nothing.
  CHECK(pixels(test::tri(PX + 10, PX + 10, 3 * PX, PX + 20, PX + 10, PX + 100, clip)).empty());
}

TEST_CASE("coarse: the walk emits every passing tile and visits few others", "[coarse][walk]") {
  // Random triangles of every shape, with many long slivers in every direction, over a
  // 2048x2048 target; for each: the walk's emitted tiles are exactly the tiles passing the
  // corner test (brute force over the box), and its decisions are bounded by the passing tiles
  // plus a term linear in the box's sides (a box walk costs the box's area).
  const uint32_t seed = test::base_seed() + 7;
  INFO("seed " << seed);
  std::printf("[model_tests] coarse walk: seed=%u (replay: build/tests/model_tests --rng-seed %u \"[walk]\")\n",
              seed, seed);
  SceneRng rng(seed);
  const Rect clip = test::rect(0, 0, 2048, 2048);
  uint64_t visited = 0, passing = 0, bbox = 0, sliver_visited = 0, sliver_passing = 0, sliver_bbox = 0;
  for (int it = 0; it < 1500; ++it) {
    const bool sliver = it % 2 == 0;
    int64_t c[6];
    const int64_t cx = rng.range(-100 * PX, 2100 * PX), cy = rng.range(-100 * PX, 2100 * PX);
    const int64_t len = rng.range(1, 1500) * PX;
    if (sliver) {  // a long thin triangle: two vertices far apart, the third near the first
      const double ang = static_cast<double>(rng.range(0, 3599)) * 3.14159265358979 / 1800.0;
      c[0] = cx, c[1] = cy;
      c[2] = cx + static_cast<int64_t>(static_cast<double>(len) * std::cos(ang));
      c[3] = cy + static_cast<int64_t>(static_cast<double>(len) * std::sin(ang));
      c[4] = cx + rng.range(-3 * PX, 3 * PX), c[5] = cy + rng.range(-3 * PX, 3 * PX);
    } else {
      for (int i = 0; i < 6; ++i) c[i] = (i % 2 ? cy : cx) + rng.range(-len, len);
    }
    const TriPkt t = test::tri(c[0], c[1], c[2], c[3], c[4], c[5], clip);
    model::Setup setup;
    const auto s = setup.process(t);
    if (!s) continue;
    INFO(t.str());
    std::vector<std::pair<uint32_t, uint32_t>> want, got;
    for (uint64_t ty = s->tiles.y0; ty < s->tiles.y1; ++ty) {
      for (uint64_t tx = s->tiles.x0; tx < s->tiles.x1; ++tx) {
        TilePkt tp;
        if (model::CoarseRaster::test_tile(*s, static_cast<uint32_t>(tx), static_cast<uint32_t>(ty), tp)) {
          want.push_back({static_cast<uint32_t>(tx), static_cast<uint32_t>(ty)});
        }
      }
    }
    const uint64_t v = model::CoarseRaster::walk(*s, {}, [&](uint32_t tx, uint32_t ty) { got.push_back({tx, ty}); });
    CHECK(got.size() == want.size());
    std::sort(got.begin(), got.end(), [](const auto& p, const auto& q) {
      return p.second != q.second ? p.second < q.second : p.first < q.first;
    });
    CHECK(got == want);
    const uint64_t w = s->tiles.x1 - s->tiles.x0, h = s->tiles.y1 - s->tiles.y0;
    CHECK(v <= want.size() + h + 3 * w);
    visited += v;
    passing += want.size();
    bbox += w * h;
    if (sliver) {
      sliver_visited += v;
      sliver_passing += want.size();
      sliver_bbox += w * h;
    }
  }
  std::printf("  all: %llu passing tiles, %llu decisions (%.3f per passing tile), box walk %llu (%.2f)\n",
              static_cast<unsigned long long>(passing), static_cast<unsigned long long>(visited),
              static_cast<double>(visited) / static_cast<double>(passing), static_cast<unsigned long long>(bbox),
              static_cast<double>(bbox) / static_cast<double>(passing));
  std::printf("  slivers: %llu passing tiles, %llu decisions (%.3f per passing tile), box walk %llu (%.2f)\n",
              static_cast<unsigned long long>(sliver_passing), static_cast<unsigned long long>(sliver_visited),
              static_cast<double>(sliver_visited) / static_cast<double>(sliver_passing),
              static_cast<unsigned long long>(sliver_bbox),
              static_cast<double>(sliver_bbox) / static_cast<double>(sliver_passing));
}

TEST_CASE("coarse: interleaved walks of 2 and 4 rasterizers partition the tiles", "[coarse][walk]") {
  const uint32_t seed = test::base_seed() + 8;
  INFO("seed " << seed);
  SceneRng rng(seed);
  const Rect clip = test::rect(0, 0, 512, 512);
  for (int it = 0; it < 800; ++it) {
    const int64_t cx = rng.range(-10 * PX, 520 * PX), cy = rng.range(-10 * PX, 520 * PX);
    const int64_t len = rng.range(1, 300) * PX;
    int64_t c[6];
    for (int i = 0; i < 6; ++i) c[i] = (i % 2 ? cy : cx) + rng.range(-len, len);
    const auto s = model::Setup().process(test::tri(c[0], c[1], c[2], c[3], c[4], c[5], clip));
    if (!s) continue;
    std::vector<std::pair<uint32_t, uint32_t>> all;
    model::CoarseRaster::walk(*s, {}, [&](uint32_t tx, uint32_t ty) { all.push_back({tx, ty}); });
    std::sort(all.begin(), all.end(), [](const auto& p, const auto& q) {
      return p.second != q.second ? p.second < q.second : p.first < q.first;
    });
    for (uint32_t n : {2u, 4u}) {
      for (uint32_t r = 0; r < n; ++r) {
        model::CoarseRaster::Lattice lat;
        lat.sx = 2;
        lat.sy = n == 4 ? 2 : 1;
        lat.ox = r & 1u;
        lat.oy = n == 4 ? r >> 1 : 0;
        std::vector<std::pair<uint32_t, uint32_t>> mine, want;
        model::CoarseRaster::walk(*s, lat, [&](uint32_t tx, uint32_t ty) { mine.push_back({tx, ty}); });
        for (const auto& p : all) {
          if ((p.first & 1u) == lat.ox && (n == 2 || (p.second & 1u) == lat.oy)) want.push_back(p);
        }
        INFO("rasterizer " << r << " of " << n);
        auto row_major = [](const auto& p, const auto& q) {
          return p.second != q.second ? p.second < q.second : p.first < q.first;
        };
        std::sort(mine.begin(), mine.end(), row_major);
        std::sort(want.begin(), want.end(), row_major);
        CHECK(mine == want);
      }
    }
  }
}
