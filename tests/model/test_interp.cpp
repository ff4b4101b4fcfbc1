// SPDX-License-Identifier: Apache-2.0
// INTERP (docs/interp.md, docs/numerics.md section 10): the planes and the per-pixel colour and
// texture coordinates against a double-precision perspective reference; affine exactness, flat
// mode, and the defined results of bad 1/w values and pixels outside the triangle.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fp32.h"
#include "interp/interp.h"
#include "setup/iplane.h"
#include "test_util.h"

using namespace pineda;
using namespace pineda::model;

namespace {

struct RefTri {
  std::array<Vtx, 3> v{};
  std::array<VAttr, 3> a{};
};

// Double-precision screen barycentrics at (X, Y) (16.8 units).
std::array<double, 3> screen_bary(const RefTri& t, double X, double Y) {
  const double x0 = double(t.v[0].x), y0 = double(t.v[0].y);
  const double x1 = double(t.v[1].x), y1 = double(t.v[1].y);
  const double x2 = double(t.v[2].x), y2 = double(t.v[2].y);
  const double A = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  const double l1 = ((X - x0) * (y2 - y0) - (Y - y0) * (x2 - x0)) / A;
  const double l2 = ((Y - y0) * (x1 - x0) - (X - x0) * (y1 - y0)) / A;
  return {1.0 - l1 - l2, l1, l2};
}

// The perspective-correct barycentrics (b_k = l_k r_k / sum l_j r_j).
std::array<double, 3> persp_bary(const RefTri& t, double X, double Y) {
  const auto l = screen_bary(t, X, Y);
  double r[3], s = 0;
  for (int k = 0; k < 3; ++k) {
    r[k] = double(fp32::float_of(t.a[k].rhw)) * l[k];
    s += r[k];
  }
  return {r[0] / s, r[1] / s, r[2] / s};
}

double channel(uint32_t c, int ch) { return double((c >> (8 * ch)) & 0xFFu); }

// Runs INTERP over every quad of the triangle's pixel bounding box (texture 1 on; also checks that
// with it off the packet differs only by uv1 = 0); calls
// f(x, y, pixel out, pcolor, uv0, uv1) for each pixel.
template <class F>
void each_pixel(const RefTri& t, bool gouraud, F f) {
  const int64_t a2 = Setup::area2(t.v[0], t.v[1], t.v[2]);
  const InterpTri it = interp_tri(t.v, t.a, a2);
  int64_t xmin = INT64_MAX, xmax = INT64_MIN, ymin = INT64_MAX, ymax = INT64_MIN;
  for (const Vtx& p : t.v) {
    xmin = std::min<int64_t>(xmin, p.x);
    xmax = std::max<int64_t>(xmax, p.x);
    ymin = std::min<int64_t>(ymin, p.y);
    ymax = std::max<int64_t>(ymax, p.y);
  }
  Interp ip;
  for (int64_t qy = std::max<int64_t>(0, ymin / 512); qy <= ymax / 512; ++qy) {
    for (int64_t qx = std::max<int64_t>(0, xmin / 512); qx <= xmax / 512; ++qx) {
      QuadPkt in;
      in.qx = static_cast<uint64_t>(qx);
      in.qy = static_cast<uint64_t>(qy);
      in.mask = 0xF;
      in.color = 0x11223344u;
      in.om.gouraud = gouraud ? 1 : 0;
      in.it = it;
      in.om.comb.tex1 = 1;  // combiner stage 1 samples texture 1: uv1 is computed
      const InterpPkt o = ip.process(in);
      // Without texture 1 the same packet with uv1 = 0 (numerics section 10.3).
      in.om.comb.tex1 = 0;
      InterpPkt o0 = ip.process(in);
      o0.quad.om.comb.tex1 = 1;
      for (int p = 0; p < 4; ++p) {
        REQUIRE(o0.uv1[p].u == 0);
        REQUIRE(o0.uv1[p].v == 0);
        o0.uv1[p] = o.uv1[p];
      }
      REQUIRE(o0 == o);
      for (int p = 0; p < 4; ++p) {
        const int64_t x = 2 * qx + (p & 1), y = 2 * qy + (p >> 1);
        f(x, y, static_cast<uint32_t>(o.pcolor[p].data), o.uv0[p], o.uv1[p]);
      }
    }
  }
}

RefTri random_tri(SceneRng& rng, int64_t extent_px, double rhw_log2_range) {
  for (;;) {
    RefTri t;
    for (auto& p : t.v) {
      p.x = static_cast<int64_t>(rng.range(0, static_cast<uint32_t>(extent_px * 256)));
      p.y = static_cast<int64_t>(rng.range(0, static_cast<uint32_t>(extent_px * 256)));
    }
    const double a2 = std::fabs(double(Setup::area2(t.v[0], t.v[1], t.v[2])));
    double longest = 0;
    for (int k = 0; k < 3; ++k) {
      const double dx = double(t.v[k].x - t.v[(k + 1) % 3].x), dy = double(t.v[k].y - t.v[(k + 1) % 3].y);
      longest = std::max(longest, std::sqrt(dx * dx + dy * dy));
    }
    if (a2 / longest < 4.0 * 256.0) continue;  // no slivers: every altitude >= 4 px
    for (auto& a : t.a) {
      const double e = (double(rng.range(0, 1u << 20)) / double(1u << 20) * 2.0 - 1.0) * rhw_log2_range;
      a.rhw = fp32::bits_of(static_cast<float>(std::exp2(e)));
      a.color = static_cast<uint32_t>(rng.next());
      a.uv0.u = fp32::bits_of(static_cast<float>(rng.range(0, 1u << 16)) / 4096.0f - 8.0f);
      a.uv0.v = fp32::bits_of(static_cast<float>(rng.range(0, 1u << 16)) / 4096.0f - 8.0f);
      a.uv1.u = fp32::bits_of(static_cast<float>(rng.range(0, 1u << 16)) / 64.0f);
      a.uv1.v = fp32::bits_of(-static_cast<float>(rng.range(0, 1u << 16)) / 64.0f);
    }
    return t;
  }
}

}  // namespace

TEST_CASE("interp: perspective colour and uv against a double reference", "[interp]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  double max_cerr = 0, max_uverr = 0;
  uint64_t pixels = 0;
  for (int i = 0; i < 120; ++i) {
    const int64_t ext = i < 100 ? 64 : 1024;
    const RefTri t = random_tri(rng, ext, 2.0);  // rhw within a factor 16 of each other
    each_pixel(t, true, [&](int64_t x, int64_t y, uint32_t c, const FVec2& uv0, const FVec2& uv1) {
      const double X = double(x * 256 + 128), Y = double(y * 256 + 128);
      const auto l = screen_bary(t, X, Y);
      if (l[0] < 0 || l[1] < 0 || l[2] < 0) return;  // centres inside (closed) only
      ++pixels;
      const auto b = persp_bary(t, X, Y);
      for (int ch = 0; ch < 4; ++ch) {
        double ref = 0;
        for (int k = 0; k < 3; ++k) ref += b[k] * channel(t.a[k].color, ch);
        const double err = std::fabs(channel(c, ch) - ref);
        max_cerr = std::max(max_cerr, err);
        REQUIRE(err <= 1.0);  // docs/numerics.md section 10.4: within 1 LSB of the exact value
      }
      const std::array<const FVec2*, 2> got{&uv0, &uv1};
      for (int s = 0; s < 2; ++s) {
        for (int c2 = 0; c2 < 2; ++c2) {
          double ref = 0, mag = 0;
          for (int k = 0; k < 3; ++k) {
            const FVec2& tv = s == 0 ? t.a[k].uv0 : t.a[k].uv1;
            const double vk = double(fp32::float_of(static_cast<uint32_t>(c2 ? tv.v : tv.u)));
            ref += b[k] * vk;
            mag = std::max(mag, std::fabs(vk));
          }
          const double g = double(fp32::float_of(static_cast<uint32_t>(c2 ? got[s]->v : got[s]->u)));
          const double rel = std::fabs(g - ref) / mag;
          max_uverr = std::max(max_uverr, rel);
          REQUIRE(rel <= std::ldexp(1.0, -20));  // section 10.4
        }
      }
    });
  }
  std::printf("interp: %llu pixels, max colour error %.4f LSB, max uv error %.3g of the largest |uv|\n",
              static_cast<unsigned long long>(pixels), max_cerr, max_uverr);
  CHECK(pixels > 10000);
}

TEST_CASE("interp: rhw = 1 interpolates linearly; exact at the vertices", "[interp]") {
  // Vertices on pixel centres, colours chosen so the screen-linear value is exact everywhere:
  // a right triangle of 16 x 16 px, channel = 16 * dx (px) on the x axis.
  RefTri t;
  t.v[0].x = 128;
  t.v[0].y = 128;
  t.v[1].x = 128 + 16 * 256;
  t.v[1].y = 128;
  t.v[2].x = 128;
  t.v[2].y = 128 + 16 * 256;
  t.a[0].color = 0x00000000u;
  t.a[1].color = 0x000000FFu;  // R: 255 at v1 (16 px): R = 255 * dx / 16
  t.a[2].color = 0x0000F000u;  // G: 240 at v2: G = 15 * dy
  uint64_t n = 0;
  each_pixel(t, true, [&](int64_t x, int64_t y, uint32_t c, const FVec2& uv0, const FVec2&) {
    if (x > 16 || y > 16 || x + y > 16) return;
    ++n;
    const double r = 255.0 * double(x) / 16.0;
    CHECK(channel(c, 0) == std::floor(r + 0.5));  // half up, as the colour rounding
    CHECK(channel(c, 1) == double(15 * y));
    CHECK(channel(c, 2) == 0.0);
    CHECK(uv0.u == 0u);
  });
  CHECK(n == 153);
  // Vertex colours are reproduced exactly at the vertices with perspective too.
  t.a[0].rhw = fp32::bits_of(0.25f);
  t.a[1].rhw = fp32::bits_of(3.0f);
  t.a[2].rhw = fp32::bits_of(1.5f);
  t.a[0].color = 0x80402010u;
  t.a[1].color = 0x01FF7FC3u;
  t.a[2].color = 0xFE00AA55u;
  each_pixel(t, true, [&](int64_t x, int64_t y, uint32_t c, const FVec2&, const FVec2&) {
    if (x == 0 && y == 0) CHECK(c == 0x80402010u);
    if (x == 16 && y == 0) CHECK(c == 0x01FF7FC3u);
    if (x == 0 && y == 16) CHECK(c == 0xFE00AA55u);
  });
}

TEST_CASE("interp: flat mode gives the quad's colour; bad rhw reads as 1", "[interp]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed + 1);
  for (int i = 0; i < 20; ++i) {
    const RefTri t = random_tri(rng, 32, 3.0);
    each_pixel(t, false, [&](int64_t, int64_t, uint32_t c, const FVec2&, const FVec2&) { CHECK(c == 0x11223344u); });
  }
  const uint32_t bad[] = {FP32_QNAN, fp32::INF, 0u, 0x80000000u, fp32::bits_of(-1.0f), 0x00000001u /* denormal */};
  for (uint32_t b : bad) {
    RefTri t = random_tri(rng, 32, 3.0), t1 = t;
    t.a[static_cast<size_t>(rng.range(0, 2))].rhw = b;
    for (auto& a : t1.a) a.rhw = FP32_ONE;
    std::vector<uint32_t> c0, c1;
    each_pixel(t, true, [&](int64_t, int64_t, uint32_t c, const FVec2&, const FVec2&) { c0.push_back(c); });
    each_pixel(t1, true, [&](int64_t, int64_t, uint32_t c, const FVec2&, const FVec2&) { c1.push_back(c); });
    CHECK(c0 == c1);
  }
  // The normalisation keeps ratios: scaling every rhw by 2^k changes nothing.
  RefTri t = random_tri(rng, 32, 3.0), t2 = t;
  for (auto& a : t2.a) a.rhw = fp32::mul(a.rhw, fp32::bits_of(1024.0f));
  std::vector<uint32_t> c0, c1;
  each_pixel(t, true, [&](int64_t, int64_t, uint32_t c, const FVec2&, const FVec2&) { c0.push_back(c); });
  each_pixel(t2, true, [&](int64_t, int64_t, uint32_t c, const FVec2&, const FVec2&) { c1.push_back(c); });
  CHECK(c0 == c1);
}

TEST_CASE("interp: extreme planes and pixels far outside stay defined", "[interp]") {
  // W <= 0: vertex 0's attributes; huge weights clamp; colours stay in range by construction.
  CHECK(Interp::bary(0, 5, 5).b1 == 0);
  CHECK(Interp::bary(-7, 5, 5).b2 == 0);
  CHECK(Interp::bary(5, 5, 0).b1 == int64_t{1} << Interp::UV_F);  // L1 = W: exactly 1
  CHECK(std::abs(Interp::bary(3, 1, 2).b1 * 3 - (int64_t{1} << Interp::UV_F)) <= 3);  // 1/3 within 1 LSB
  CHECK(Interp::weight16(-(int64_t{3} << Interp::UV_F)) == 0);
  CHECK(Interp::weight16((int64_t{1} << 33) - 1) == 65536);
  CHECK(Interp::bary(1, int64_t{1} << 57, -(int64_t{1} << 57)).b1 == (int64_t{1} << 33) - 1);  // saturated
  const Interp::Bary far = Interp::bary(1, int64_t{1} << 57, -(int64_t{1} << 57));
  CHECK(Interp::color(0x00000000u, 0xFFFFFFFFu, 0x00000000u, far) == 0xFFFFFFFFu);
  // A sliver (1/256 px high, 16384 px wide) and a huge triangle: every quad of a row evaluates.
  RefTri t;
  t.v[0].x = 0;
  t.v[0].y = 0;
  t.v[1].x = 16383 * 256;
  t.v[1].y = 1;
  t.v[2].x = 0;
  t.v[2].y = 2;
  t.a[0].rhw = fp32::bits_of(1e-30f);
  t.a[1].rhw = fp32::bits_of(1e30f);
  t.a[1].color = 0xFFFFFFFFu;
  const InterpTri it = interp_tri(t.v, t.a, Setup::area2(t.v[0], t.v[1], t.v[2]));
  Interp ip;
  for (uint64_t qx = 0; qx < 8192; qx += 97) {
    QuadPkt in;
    in.qx = qx;
    in.qy = 8191;
    in.om.gouraud = 1;
    in.it = it;
    (void)ip.process(in);
  }
  CHECK(ip.quads() > 80);
}
