// Coarse and fine rasterizers against brute-force evaluation, and D3D11 top-left examples.
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
    const auto tiles = coarse.process(*s);
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
          CHECK(tp.accept == (all_in ? 1u : 0u));
          if (tp.accept) ++accepted;
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

TEST_CASE("fine: pixel order inside a tile and empty masks", "[fine]") {
  // A tile fully inside (accept) clipped by pix to a 3x2 window.
  TilePkt t;
  t.tx = 1;
  t.ty = 2;
  t.accept = 1;
  t.pix = test::rect(10, 17, 13, 19);
  model::FineRaster fine;
  const auto c = fine.process(t);
  REQUIRE(c);
  // pixels x 10..12 (i = 2..4), y 17..18 (j = 1..2)
  CHECK(c->mask == ((uint64_t{0x1C} << 8) | (uint64_t{0x1C} << 16)));
  t.pix = test::rect(0, 0, 8, 16);  // does not reach tile (1, 2)
  CHECK_FALSE(fine.process(t));
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
