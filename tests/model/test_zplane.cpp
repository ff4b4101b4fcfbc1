// SPDX-License-Identifier: Apache-2.0
// The depth plane (docs/numerics.md section 9): the FP32 conversions it uses against the host's
// IEEE arithmetic, tile bounds that hold every covered sample, and accuracy against a double
// reference.
#include <cmath>
#include <cstdio>

#include "fp32.h"
#include "rast/zplane_d24.h"
#include "test_util.h"

using namespace pineda;
using test::PX;

TEST_CASE("fp32: from_int equals the host's int64 -> float conversion (round to nearest even)", "[fp32][zplane]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  for (int i = 0; i < 200000; ++i) {
    const int sh = static_cast<int>(rng.range(0, 62));
    const int64_t v = static_cast<int64_t>(rng.next()) >> sh;
    CHECK(fp32::from_int(v) == fp32::bits_of(static_cast<float>(v)));
  }
  CHECK(fp32::from_int(0) == 0u);
  CHECK(fp32::from_int(-(int64_t{1} << 50)) == fp32::bits_of(-1125899906842624.0f));
  CHECK(fp32::from_int((int64_t{1} << 25) + 3) == fp32::bits_of(33554436.0f));  // tie: to even
}

TEST_CASE("fp32: to_fix equals rint(x * 2^frac), saturated", "[fp32][zplane]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  const int fracs[] = {0, 16}, widths[] = {33, 57};
  for (int i = 0; i < 200000; ++i) {
    const uint32_t a = static_cast<uint32_t>(rng.next());
    const int frac = fracs[rng.range(0, 1)], width = widths[rng.range(0, 1)];
    const int64_t lim = (int64_t{1} << (width - 1)) - 1;
    int64_t ref = 0;
    const float f = fp32::float_of(a);
    if (std::isnan(f) || fp32::is_zero_daz(a)) {
      ref = 0;
    } else {
      const long double x = std::ldexp(static_cast<long double>(f), frac);  // exact
      if (x >= static_cast<long double>(lim)) ref = lim;
      else if (x <= -static_cast<long double>(lim)) ref = -lim;
      else ref = static_cast<int64_t>(std::nearbyint(x));  // round to nearest even
    }
    INFO("a " << std::hex << a << std::dec << " frac " << frac << " width " << width);
    CHECK(fp32::to_fix(a, frac, width) == ref);
  }
}

namespace {

uint32_t random_depth(SceneRng& rng) {
  const int64_t k = rng.range(0, 19);
  if (k < 15) return fp32::bits_of(static_cast<float>(rng.range(0, 1 << 24)) / 16777216.0f);
  if (k < 17) return fp32::bits_of(static_cast<float>(rng.range(-3000, 3000)) / 1000.0f);
  return static_cast<uint32_t>(rng.next());  // anything: NaN, Inf, huge, denormal
}

TriPkt random_depth_tri(SceneRng& rng, bool msaa) {
  const int64_t size = rng.chance(30) ? rng.range(16, 3 * PX) : rng.range(3 * PX, 80 * PX);
  const int64_t cx = rng.range(-8 * PX, 72 * PX), cy = rng.range(-8 * PX, 72 * PX);
  int64_t c[6];
  for (int64_t& v : c) v = rng.range(-size, size);
  TriPkt t = test::tri(cx + c[0], cy + c[1], cx + c[2], cy + c[3], cx + c[4], cy + c[5], test::rect(0, 0, 64, 64));
  t.target.msaa = msaa ? 1 : 0;
  for (auto& z : t.z) z.data = random_depth(rng);
  t.zlo = rng.chance(50) ? 0 : static_cast<uint64_t>(rng.range(0, DEPTH_MAX));
  t.zhi = rng.chance(50) ? DEPTH_MAX : static_cast<uint64_t>(rng.range(static_cast<int64_t>(t.zlo), DEPTH_MAX));
  return t;
}

}  // namespace

TEST_CASE("zplane: every covered sample's depth lies in its tile's [zmin, zmax] and the clamp range", "[zplane]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  uint64_t samples = 0, tiles = 0, tight = 0;
  for (int i = 0; i < 4000; ++i) {
    const TriPkt t = random_depth_tri(rng, rng.chance(50));
    const auto s = setup.process(t);
    if (!s) continue;
    for (const TilePkt& tile : coarse.process(*s)) {
      ++tiles;
      REQUIRE(tile.zlo <= tile.zmin);
      REQUIRE(tile.zmin <= tile.zmax);
      REQUIRE(tile.zmax <= tile.zhi);
      uint64_t lo = DEPTH_MAX + 1, hi = 0;
      for (const QuadPkt& q : fine.process(tile)) {
        for (int n = 0; n < 16; ++n) {
          if (((q.mask >> n) & 1u) == 0) {
            REQUIRE(q.z[n].v == 0);
            continue;
          }
          ++samples;
          REQUIRE(tile.zmin <= q.z[n].v);
          REQUIRE(q.z[n].v <= tile.zmax);
          lo = std::min<uint64_t>(lo, q.z[n].v);
          hi = std::max<uint64_t>(hi, q.z[n].v);
        }
      }
      if (lo == tile.zmin && hi == tile.zmax) ++tight;
    }
  }
  std::printf("  zplane bounds: %llu tiles, %llu samples, %llu tiles with exact bounds\n",
              static_cast<unsigned long long>(tiles), static_cast<unsigned long long>(samples),
              static_cast<unsigned long long>(tight));
  CHECK(samples > 100000);
}

TEST_CASE("zplane: per-sample depth is the plane through the vertices within the FP32 error", "[zplane]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  model::Setup setup;
  model::CoarseRaster coarse;
  model::FineRaster fine;
  uint64_t samples = 0;
  long double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    TriPkt t = random_depth_tri(rng, rng.chance(50));
    for (auto& z : t.z) z.data = fp32::bits_of(static_cast<float>(rng.range(0, 1 << 24)) / 16777216.0f);
    t.zlo = 0;
    t.zhi = DEPTH_MAX;
    const auto s = setup.process(t);
    if (!s) continue;
    const long double S = 16777215.0L;
    const long double x0 = t.v[0].x, y0 = t.v[0].y;
    const long double dx1 = t.v[1].x - x0, dy1 = t.v[1].y - y0, dx2 = t.v[2].x - x0, dy2 = t.v[2].y - y0;
    const long double z0 = fp32::float_of(t.z[0].data) * S, z1 = fp32::float_of(t.z[1].data) * S,
                      z2 = fp32::float_of(t.z[2].data) * S;
    const long double area = dx1 * dy2 - dx2 * dy1;
    const long double a = ((z1 - z0) * dy2 - (z2 - z0) * dy1) / area;
    const long double b = ((z2 - z0) * dx1 - (z1 - z0) * dx2) / area;
    // Error bound: the FP32 numerator (cancellation) and 1/area, a few ulp, times the distance,
    // plus the fixed-point step (2^-17 per 1/256 px) times the distance, plus rounding.
    const long double num = std::fabs((z1 - z0) * dy2) + std::fabs((z2 - z0) * dy1) +
                            std::fabs((z2 - z0) * dx1) + std::fabs((z1 - z0) * dx2);
    if (std::fabs(a) > 65535 || std::fabs(b) > 65535) continue;  // saturated gradient (section 9)
    const bool msaa = t.target.msaa != 0;
    for (const TilePkt& tile : coarse.process(*s)) {
      for (const QuadPkt& q : fine.process(tile)) {
        for (int n = 0; n < 16; ++n) {
          if (((q.mask >> n) & 1u) == 0) continue;
          const int p = msaa ? n / 4 : n, smp = msaa ? n % 4 : 0;
          const int64_t px = 2 * static_cast<int64_t>(q.qx) + (p & 1), py = 2 * static_cast<int64_t>(q.qy) + (p >> 1);
          static const int64_t ox[4] = {-32, 96, -96, 32}, oy[4] = {-96, -32, 32, 96};
          const long double X = px * 256 + 128 + (msaa ? ox[smp] : 0), Y = py * 256 + 128 + (msaa ? oy[smp] : 0);
          const long double dist = std::fabs(X - x0) + std::fabs(Y - y0);
          const long double ref = std::min<long double>(std::max<long double>(z0 + a * (X - x0) + b * (Y - y0), 0), S);
          const long double tol = 1.0L + 0x1p-21L * num * dist / std::fabs(area) + 0x1p-16L * dist + 0x1p-22L * z0;
          const long double err = std::fabs(static_cast<long double>(q.z[n].v) - ref);
          worst = std::max(worst, err);
          INFO("tri " << i << " sample " << n << " depth " << q.z[n].v << " reference " << static_cast<double>(ref));
          REQUIRE(err <= tol);
          ++samples;
        }
      }
    }
  }
  std::printf("  zplane accuracy: %llu samples, largest error %.3f D24 LSB\n",
              static_cast<unsigned long long>(samples), static_cast<double>(worst));
  CHECK(samples > 100000);
}
