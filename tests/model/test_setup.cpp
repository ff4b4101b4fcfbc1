// SPDX-License-Identifier: Apache-2.0
// Triangle setup: orientation, top-left bias, culling, bounding box, reference edge values.
#include <set>

#include "test_util.h"

using namespace pineda;
using test::PX;

namespace {
const Rect BIG = test::rect(0, 0, 16384, 16384);
}

TEST_CASE("setup: top-left bias for all edge directions", "[setup]") {
  struct Dir {
    int64_t dx, dy;  // edge vector (screen, y down)
    int64_t bias;
    const char* name;
  };
  const Dir dirs[] = {
      {0, -1, 0, "up (left)"},        {1, -1, 0, "up-right (left)"},   {-1, -1, 0, "up-left (left)"},
      {1, 0, 0, "right (top)"},       {-1, 0, -1, "left (bottom)"},    {0, 1, -1, "down (right)"},
      {1, 1, -1, "down-right (right)"}, {-1, 1, -1, "down-left (right)"},
  };
  for (const Dir& d : dirs) {
    INFO(d.name);
    Vtx a, b;
    a.x = 1000;
    a.y = 2000;
    b.x = a.x + d.dx * 300;
    b.y = a.y + d.dy * 300;
    const auto f = model::Setup::edge_fn(a, b);
    CHECK(f.a == a.y - b.y);
    CHECK(f.b == b.x - a.x);
    CHECK(f.bias == d.bias);
  }
}

TEST_CASE("setup: edges of a clockwise triangle, reference value, tiles", "[setup]") {
  // Clockwise on screen: (10,10) -> (50,12) -> (20,40) pixels.
  const TriPkt t = test::tri(10 * PX, 10 * PX, 50 * PX, 12 * PX, 20 * PX, 40 * PX, BIG);
  model::Setup s;
  const auto p = s.process(t);
  REQUIRE(p);
  CHECK(p->pix == test::rect(10, 10, 50, 40));  // centres >= 10.0 .. < 50.0 -> pixels 10..49 (centre 49.5 < 50)
  CHECK(p->tiles.x0 == 1u);
  CHECK(p->tiles.x1 == 7u);
  CHECK(p->tiles.y0 == 1u);
  CHECK(p->tiles.y1 == 5u);
  const int64_t X = 8 * PX + 128, Y = 8 * PX + 128;
  for (int k = 0; k < 3; ++k) {
    const auto f = model::Setup::edge_fn(t.v[k], t.v[(k + 1) % 3]);
    CHECK(p->edges[k].a == f.a);
    CHECK(p->edges[k].b == f.b);
    CHECK(p->edges[k].e == f.eval(X, Y));
  }
  CHECK(p->color == t.color);
  CHECK(p->target == t.target);
  CHECK(p->tri_id == t.tri_id);
  CHECK(*p == p->canonical());
}

TEST_CASE("setup: negative area swaps v1 and v2", "[setup]") {
  const TriPkt cw = test::tri(10 * PX, 10 * PX, 50 * PX + 3, 12 * PX, 20 * PX, 40 * PX - 7, BIG);
  TriPkt ccw = cw;
  std::swap(ccw.v[1], ccw.v[2]);
  model::Setup s;
  CHECK(model::Setup::area2(ccw.v[0], ccw.v[1], ccw.v[2]) < 0);
  auto a = s.process(cw), b = s.process(ccw);
  REQUIRE(a);
  REQUIRE(b);
  // The interpolation state follows the API order (its attributes belong to the vertices).
  // With rhw = 1 (here: unset, read as 1) W is the constant |area2| * 2^31 in both windings.
  const int64_t a2 = model::Setup::area2(cw.v[0], cw.v[1], cw.v[2]);
  CHECK(a->it.w.a == 0);
  CHECK(a->it.w.b == 0);
  CHECK(a->it.w.c == static_cast<bits::i128>(a2) << 31);
  CHECK(a->it.w == b->it.w);
  CHECK(a->it.l1 == b->it.l2);  // v1 and v2 trade places
  a->it = InterpTri{};
  b->it = InterpTri{};
  CHECK(*a == *b);
}

TEST_CASE("setup: zero-area and empty culls", "[setup]") {
  model::Setup s;
  CHECK_FALSE(s.process(test::tri(0, 0, 100 * PX, 100 * PX, 50 * PX, 50 * PX, BIG)));  // collinear
  CHECK_FALSE(s.process(test::tri(5 * PX, 5 * PX, 5 * PX, 5 * PX, 5 * PX, 5 * PX, BIG)));  // a point
  CHECK(s.culled_zero_area() == 2u);
  // Between pixel centres: x in [1.6, 2.4] px contains no centre (centres at 1.5 and 2.5).
  CHECK_FALSE(s.process(test::tri(410, 0, 614, 10 * PX, 500, 20 * PX, BIG)));
  // Outside the clip rectangle, and an empty clip.
  CHECK_FALSE(s.process(test::tri(0, 0, 30 * PX, 0, 0, 30 * PX, test::rect(40, 0, 60, 60))));
  CHECK_FALSE(s.process(test::tri(0, 0, 30 * PX, 0, 0, 30 * PX, test::rect(10, 10, 10, 20))));
  CHECK_FALSE(s.process(test::tri(0, 0, 30 * PX, 0, 0, 30 * PX, test::rect(10, 10, 5, 20))));
  // Entirely at negative coordinates.
  CHECK_FALSE(s.process(test::tri(-100 * PX, -100 * PX, -PX, -100 * PX, -100 * PX, -PX, BIG)));
  CHECK(s.culled_empty() == 5u);
}

TEST_CASE("setup: bounding box is exact on pixel centres", "[setup]") {
  model::Setup s;
  struct Case {
    int64_t xmin, xmax;
    uint64_t px0, px1;
  };
  const Case cases[] = {
      {10 * PX + 128, 20 * PX + 128, 10, 21},      // both on centres: included
      {10 * PX + 129, 20 * PX + 127, 11, 20},      // just past the centres: excluded
      {10 * PX + 127, 20 * PX + 129, 10, 21},      // just before the centres
      {10 * PX, 20 * PX, 10, 20},                  // on pixel boundaries
      {-128, 5 * PX + 128, 0, 6},                  // xmin at centre of pixel -1: clipped to 0
      {-(int64_t{1} << 23), (int64_t{1} << 23) - 1, 0, 16384},
  };
  for (const Case& c : cases) {
    INFO(c.xmin << " .. " << c.xmax);
    // Same box in x and y.
    const auto p = s.process(test::tri(c.xmin, c.xmin, c.xmax, c.xmin, c.xmin, c.xmax, BIG));
    REQUIRE(p);
    CHECK(p->pix.x0 == c.px0);
    CHECK(p->pix.x1 == c.px1);
    CHECK(p->pix.y0 == c.px0);
    CHECK(p->pix.y1 == c.px1);
    CHECK(p->tiles.x0 == c.px0 / 8);
    CHECK(p->tiles.x1 == (c.px1 - 1) / 8 + 1);
  }
}

TEST_CASE("setup: clip intersection", "[setup]") {
  model::Setup s;
  const auto p = s.process(test::tri(0, 0, 100 * PX, 0, 0, 100 * PX, test::rect(13, 17, 61, 29)));
  REQUIRE(p);
  CHECK(p->pix == test::rect(13, 17, 61, 29));
  CHECK(p->tiles.x0 == 1u);
  CHECK(p->tiles.y0 == 2u);
  CHECK(p->tiles.x1 == 8u);
  CHECK(p->tiles.y1 == 4u);
}

TEST_CASE("setup: width checks reject out-of-contract input", "[setup]") {
  model::Setup s;
  CHECK_THROWS_AS(s.process(test::tri(int64_t{1} << 23, 0, 0, 5, 7, 0, BIG)), std::logic_error);
  CHECK_THROWS_AS(model::check_signed(int64_t{1} << 49, 50, "x"), std::logic_error);
  CHECK_NOTHROW(model::check_signed(-(int64_t{1} << 49), 50, "x"));
}

TEST_CASE("setup: extreme 16.8 vertices stay within the documented widths", "[setup]") {
  model::Setup s;
  const int64_t MIN = -(int64_t{1} << 23), MAX = (int64_t{1} << 23) - 1;
  const int64_t pts[] = {MIN, MAX, 0, 16384 * PX, MIN + 1, MAX - 1};
  SceneRng rng(test::base_seed());
  for (int it = 0; it < 2000; ++it) {
    int64_t c[6];
    for (auto& v : c) v = rng.chance(70) ? pts[rng.range(0, 5)] : rng.range(MIN, MAX);
    const TriPkt t = test::tri(c[0], c[1], c[2], c[3], c[4], c[5], BIG);
    INFO(t.str());
    const auto p = s.process(t);  // throws on a width violation
    if (p) {
      CHECK(*p == p->canonical());
      model::CoarseRaster coarse;
      // Evaluate the corners of the tile rectangle (the extremes of the walk).
      TilePkt tile;
      for (uint64_t ty : {p->tiles.y0, p->tiles.y1 - 1}) {
        for (uint64_t tx : {p->tiles.x0, p->tiles.x1 - 1}) {
          CHECK_NOTHROW(model::CoarseRaster::test_tile(*p, static_cast<uint32_t>(tx), static_cast<uint32_t>(ty), tile));
        }
      }
    }
  }
}
