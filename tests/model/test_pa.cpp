// SPDX-License-Identifier: Apache-2.0
// Primitive assembly model (cpp_model/pa): clip rules and a watertightness property.
#include <cmath>
#include <map>

#include "fp32.h"
#include "pa/pa.h"
#include "pa_streams.h"
#include "test_util.h"

using namespace pineda;
using model::PrimitiveAssembly;
using pa_test::fb;
using pa_test::P;

namespace {

PrimitiveAssembly::CV cv(float x, float y, float z, float w, uint32_t color = 0xFF204080u) {
  PrimitiveAssembly::CV v;
  v.a = {fb(x), fb(y), fb(z), fb(w), fb(0.25f), fb(0.5f), fb(x + 1), fb(y - 1)};
  v.color = color;
  return v;
}

TriPkt to_tri(const PaTriPkt& p) {
  TriPkt t;
  t.v = p.v;
  t.color = p.color;
  t.target = p.target;
  t.clip = p.clip;
  t.tri_id = p.tri_id;
  return t;
}

// Perspective camera: near 1, far 10, 90 degrees; view (x, y, z) -> clip (x, y, z', z).
std::array<uint32_t, 4> cam(double x, double y, double z) {
  const double n = 1.0, f = 10.0;
  return P(static_cast<float>(x), static_cast<float>(y), static_cast<float>(f / (f - n) * (z - n)), static_cast<float>(z));
}

}  // namespace

TEST_CASE("pa: 2w is fp32 mul by 2", "[pa]") {
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t f : {0u, 1u, 0x400000u, 0x7FFFFFu}) {
      for (uint32_t s : {0u, 0x80000000u}) {
        const uint32_t w = s | (e << 23) | f;
        const uint32_t want = fp32::is_nan(w) ? fp32::QNAN
                              : e == 0        ? s
                              : e >= 254      ? (s | fp32::INF)
                                              : (s | ((e + 1) << 23) | f);
        REQUIRE(PrimitiveAssembly::dbl(w) == want);
      }
    }
  }
}

TEST_CASE("pa: inside vertices unchanged, AB == BA, new vertices on the plane", "[pa]") {
  const auto a = cv(0.2f, 0.1f, 0.5f, 1.0f, 0xFF0000FFu), b = cv(0.3f, -0.4f, -0.7f, 1.3f, 0x00FF00FFu),
             c = cv(-0.6f, 0.2f, 0.4f, 0.9f, 0x0000FFFFu);
  const uint32_t planes = 1u << PrimitiveAssembly::PL_NEAR;
  const auto p1 = PrimitiveAssembly::clip_polygon({a, b, c}, planes);
  const auto p2 = PrimitiveAssembly::clip_polygon({c, b, a}, planes);
  REQUIRE(p1.size() == 4);
  REQUIRE(p2.size() == 4);
  CHECK(p1[0] == a);
  // the two new vertices appear in both, bit for bit (edges ab/ba and bc/cb)
  int shared = 0;
  for (const auto& u : p1)
    for (const auto& v : p2) shared += (u == v) ? 1 : 0;
  CHECK(shared == 4);
  for (const auto& v : p1) {
    if (v == a || v == c) continue;
    CHECK(v.a[PrimitiveAssembly::A_Z] == 0u);
  }
  CHECK(PrimitiveAssembly::intersect(a, b, PrimitiveAssembly::PL_NEAR) ==
        PrimitiveAssembly::intersect(a, b, PrimitiveAssembly::PL_NEAR));
  // -0 is inside; NaN is outside
  CHECK(PrimitiveAssembly::inside(0x80000000u));
  CHECK(!PrimitiveAssembly::inside(fp32::QNAN));
  CHECK(!PrimitiveAssembly::inside(fb(-1e-30f)));
}

TEST_CASE("pa: reject, pass-through and tokens", "[pa]") {
  pa_test::Streams s;
  s.viewport(0, 0, 100, 100, 100, 100);
  s.tri(P(-0.5f, -0.5f, 0.5f, 1), P(0.5f, -0.5f, 0.5f, 1), P(0, 0.5f, 0.5f, 1));   // in
  s.token();
  s.tri(P(3, -0.5f, 0.5f, 1), P(4, -0.5f, 0.5f, 1), P(3, 0.5f, 0.5f, 1));          // right of the band
  s.tri(P(1.5f, -0.5f, 0.5f, 1), P(1.9f, -0.5f, 0.5f, 1), P(1.5f, 0.5f, 0.5f, 1)); // in the band, off screen
  PrimitiveAssembly pa;
  const auto out = model::run_pa(s.vtx, s.prims, &pa);
  REQUIRE(out.size() == 2);
  CHECK(out[1].eop == 1);
  CHECK(pa.stats().rejected == 1);
  CHECK(pa.stats().culled_empty == 1);
  // (x/w + 1) * 50: -0.5 -> 25 px, snapped 16.8
  CHECK(out[0].v[0].x == 25 * 256);
  CHECK(out[0].v[0].y == 75 * 256);
  CHECK(out[0].attr[2].tex1.u == fb(2.0f));
  CHECK(out[0].attr[0].rhw == fb(1.0f));
  CHECK(out[0].attr[0].z == fb(0.5f));
}

TEST_CASE("pa: a plane cut by near and far and beyond the guard band is watertight", "[pa]") {
  // A tilted plane y = 0.6 z - 3 from z = 0.3 to z = 14 (crosses near = 1 and far = 10), x over
  // [-30, 30] (beyond the guard band): grid with shared vertices, two triangles per cell.
  const int G = 24, N = 256;
  auto vert = [&](int i, int j) {
    const double z = 0.3 + 13.7 * j / G, x = -30.0 + 60.0 * i / G + 0.37 * j / G;
    return cam(x, 0.6 * z - 3.0 + 0.01 * i, z);
  };
  for (uint32_t raster : {0u, 4u}) {
    pa_test::Streams s;
    s.viewport(0, 0, static_cast<float>(N), static_cast<float>(N), N, N);
    s.wr(FE_RASTER, raster);
    for (int j = 0; j < G; ++j) {
      for (int i = 0; i < G; ++i) {
        s.batch({vert(i, j), vert(i + 1, j), vert(i, j + 1), vert(i + 1, j + 1)}, {{{0, 1, 2}}, {{1, 3, 2}}});
      }
    }
    PrimitiveAssembly pa;
    const auto out = model::run_pa(s.vtx, s.prims, &pa);
    CHECK(pa.stats().clipped > 20);
    std::vector<int> count(N * N, 0);
    for (const auto& t : out) {
      for (const auto& [x, y] : test::raster_pixels(to_tri(t))) ++count[y * N + x];
    }
    int twice = 0, holes = 0, covered = 0;
    for (int y = 0; y < N; ++y) {
      for (int x = 0; x < N; ++x) {
        const int c = count[y * N + x];
        covered += c > 0;
        twice += c > 1;
        if (c == 0 && x >= 3 && y >= 3 && x + 3 < N && y + 3 < N && count[y * N + x - 3] && count[y * N + x + 3] &&
            count[(y - 3) * N + x] && count[(y + 3) * N + x]) {
          ++holes;
        }
      }
    }
    INFO("raster " << raster << ": covered " << covered << " pixels, " << twice << " twice, " << holes << " holes");
    CHECK(covered > N * N / 4);
    CHECK(twice == 0);
    CHECK(holes == 0);
  }
}

TEST_CASE("pa: spheres cut by near and far: no sample covered twice per facing", "[pa]") {
  const int R = 16, C = 24, N = 256;
  for (double cz : {1.2, 9.6}) {
    pa_test::Streams s;
    s.viewport(0, 0, static_cast<float>(N), static_cast<float>(N), N, N);
    auto vert = [&](int r, int c) {
      const double th = M_PI * r / R, ph = 2 * M_PI * (c % C) / C;
      const double rad = cz < 5 ? 0.9 : 3.0;
      return cam(rad * std::sin(th) * std::cos(ph) + 0.1, rad * std::cos(th) - 0.05, cz + rad * std::sin(th) * std::sin(ph));
    };
    for (int r = 0; r < R; ++r) {
      for (int c = 0; c < C; ++c) {
        s.batch({vert(r, c), vert(r, c + 1), vert(r + 1, c), vert(r + 1, c + 1)}, {{{0, 1, 2}}, {{1, 3, 2}}});
      }
    }
    for (uint32_t cull : {1u, 2u}) {  // front faces only, then back faces only
      pa_test::Streams t = s;
      t.prims.insert(t.prims.begin(), PrimPkt{});
      t.prims.front().wr = 1;
      t.prims.front().wr_idx = FE_RASTER;
      t.prims.front().wr_val = cull;
      PrimitiveAssembly pa;
      const auto out = model::run_pa(t.vtx, t.prims, &pa);
      CHECK(pa.stats().clipped > 0);
      std::vector<int> count(N * N, 0);
      for (const auto& tr : out) {
        for (const auto& [x, y] : test::raster_pixels(to_tri(tr))) ++count[y * N + x];
      }
      int twice = 0, covered = 0;
      for (int c : count) {
        twice += c > 1;
        covered += c > 0;
      }
      INFO("sphere at z " << cz << " cull " << cull << ": covered " << covered);
      // near the eye every front face lies before the near plane (the silhouette is at z 0.53)
      if (!(cz < 5 && cull == 2)) CHECK(covered > 1000);
      CHECK(twice == 0);
    }
  }
}

TEST_CASE("pa: target.msaa is FE_RT_PITCH[16], the pitch [15:0]", "[pa]") {
  for (bool msaa : {false, true}) {
    pa_test::Streams s;
    s.viewport(0, 0, 100, 100, 100, 100, msaa);
    s.tri(P(-0.5f, -0.5f, 0.5f, 1), P(0.5f, -0.5f, 0.5f, 1), P(0, 0.5f, 0.5f, 1));
    s.wr(FE_RT_PITCH, 0xFFFE0000u | 1234u);  // bits above 16 are ignored
    s.tri(P(-0.5f, -0.5f, 0.5f, 1), P(0.5f, -0.5f, 0.5f, 1), P(0, 0.5f, 0.5f, 1));
    const auto out = model::run_pa(s.vtx, s.prims);
    REQUIRE(out.size() == 2);
    CHECK(out[0].target.msaa == (msaa ? 1u : 0u));
    CHECK(out[0].target.pitch == (msaa ? 1600u : 400u));
    CHECK(out[1].target.msaa == 0u);
    CHECK(out[1].target.pitch == 1234u);
  }
}

// The RTL projects each vertex of a batch once (per slot) and reuses it for every unclipped
// triangle: the model's projection of an unclipped vertex must not depend on the triangle.
TEST_CASE("pa: an unclipped vertex projects the same in every triangle that uses it", "[pa]") {
  pa_test::Streams s;
  s.viewport(3.5f, -7.25f, 1000.0f, 700.0f, 1024, 1024);
  std::vector<std::array<uint32_t, 4>> pos;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i)
      pos.push_back(P(-0.9f + 0.41f * static_cast<float>(i) + 0.013f * static_cast<float>(j),
                      -0.8f + 0.37f * static_cast<float>(j), 0.1f + 0.03f * static_cast<float>(i + j),
                      0.7f + 0.11f * static_cast<float>(i * j % 7)));
  std::vector<std::array<uint32_t, 3>> tris;
  for (uint32_t j = 0; j < 4; ++j)
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t a = j * 5 + i;
      tris.push_back({a, a + 1, a + 5});
      tris.push_back({a + 5, a + 1, a + 6});  // also listed from another vertex first
    }
  s.batch(pos, tris);
  PrimitiveAssembly pa;
  const auto out = model::run_pa(s.vtx, s.prims, &pa);
  REQUIRE(pa.stats().clipped == 0);
  REQUIRE(out.size() == tris.size());
  std::map<uint32_t, std::array<uint64_t, 4>> seen;
  int shared = 0;
  for (size_t t = 0; t < tris.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::array<uint64_t, 4> q = {static_cast<uint64_t>(out[t].v[k].x), static_cast<uint64_t>(out[t].v[k].y),
                                         static_cast<uint64_t>(out[t].attr[k].z), static_cast<uint64_t>(out[t].attr[k].rhw)};
      const auto it = seen.find(tris[t][k]);
      if (it == seen.end()) {
        seen[tris[t][k]] = q;
      } else {
        ++shared;
        CHECK(it->second == q);
      }
    }
  }
  CHECK(shared > 40);
}
