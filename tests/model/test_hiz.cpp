// SPDX-License-Identifier: Apache-2.0
// Hierarchical Z (cpp_model/hiz): never rejects a tile holding a sample that the exact depth
// test would pass, on random scenes against a per-sample reference depth buffer; and it does
// reject occluded tiles.
#include <cstdio>

#include "fp32.h"
#include "hiz/hiz.h"
#include "test_util.h"

using namespace pineda;
using test::PX;

namespace {

constexpr int kW = 128, kH = 128;  // pixels

struct RefDepth {
  bool msaa = false;
  std::vector<uint32_t> d = std::vector<uint32_t>(kW * kH * 4, DEPTH_MAX);
  uint32_t& at(int64_t x, int64_t y, int s) { return d[static_cast<size_t>((y * kW + x) * 4 + s)]; }
};

ClearPkt depth_clear(uint64_t base, bool msaa, Rect r, uint32_t v) {
  ClearPkt c;
  c.depth = 1;
  c.target.base = base;
  c.target.msaa = msaa ? 1 : 0;
  c.rect = r;
  c.value = v;
  return c;
}

void apply_clear(RefDepth& ref, const ClearPkt& c) {
  for (uint64_t y = c.rect.y0; y < c.rect.y1; ++y)
    for (uint64_t x = c.rect.x0; x < c.rect.x1; ++x)
      for (int s = 0; s < 4; ++s) ref.at(static_cast<int64_t>(x), static_cast<int64_t>(y), s) = static_cast<uint32_t>(c.value);
}

// Runs one triangle's tiles through HIZ; checks every rejected tile against the reference and
// applies the passing samples' writes. Returns the number of rejected tiles.
uint64_t draw(const TriPkt& t, model::Hiz& hiz, RefDepth& ref, uint64_t& tiles, uint64_t base) {
  static model::Setup setup;
  static model::CoarseRaster coarse;
  static model::FineRaster fine;
  uint64_t rejected = 0;
  const auto s = setup.process(t);
  if (!s) return 0;
  const bool msaa = t.target.msaa != 0;
  for (const TilePkt& tile : coarse.process(*s)) {
    ++tiles;
    const bool pass = hiz.process(tile);
    if (!pass) ++rejected;
    for (const QuadPkt& q : fine.process(tile)) {
      if (t.ds.base != base) continue;  // another depth buffer: not the reference's
      for (int n = 0; n < 16; ++n) {
        if (((q.mask >> n) & 1u) == 0) continue;
        const int p = msaa ? n / 4 : n, smp = msaa ? n % 4 : 0;
        const int64_t x = 2 * static_cast<int64_t>(q.qx) + (p & 1), y = 2 * static_cast<int64_t>(q.qy) + (p >> 1);
        uint32_t& stored = ref.at(x, y, smp);
        const uint32_t nz = static_cast<uint32_t>(q.z[n].v);
        const bool zpass = !t.ds.z_enable || cmp_pass(static_cast<uint32_t>(t.ds.z_func), nz, stored);
        if (!pass) {
          INFO("rejected tile " << tile.tx << "," << tile.ty << " sample (" << x << "," << y << "," << smp
                                << ") new " << nz << " stored " << stored << " func " << t.ds.z_func);
          REQUIRE_FALSE(zpass);
          continue;
        }
        if (zpass && t.ds.z_enable && t.ds.z_write) stored = nz;
      }
    }
  }
  return rejected;
}

// g: the scene's direction (GREATER / GREATER_EQUAL mostly, else LESS / LESS_EQUAL mostly).
TriPkt scene_tri(SceneRng& rng, bool msaa, uint64_t base, bool g = false) {
  const int64_t size = rng.chance(40) ? rng.range(2 * PX, 20 * PX) : rng.range(20 * PX, 140 * PX);
  const int64_t cx = rng.range(-8 * PX, (kW + 8) * PX), cy = rng.range(-8 * PX, (kH + 8) * PX);
  int64_t c[6];
  for (int64_t& v : c) v = rng.range(-size, size);
  TriPkt t = test::tri(cx + c[0], cy + c[1], cx + c[2], cy + c[3], cx + c[4], cy + c[5], test::rect(0, 0, kW, kH));
  t.target.msaa = msaa ? 1 : 0;
  const int64_t zc = rng.range(0, 1 << 24);
  for (auto& z : t.z) {
    const int64_t v = std::clamp<int64_t>(zc + rng.range(-(1 << 21), 1 << 21), 0, 1 << 24);
    z.data = fp32::bits_of(static_cast<float>(v) / 16777216.0f);
  }
  t.zlo = 0;
  t.zhi = DEPTH_MAX;
  t.ds.base = rng.chance(95) ? base : base + 0x100000u;  // now and then another buffer
  t.ds.z_enable = rng.chance(95) ? 1 : 0;
  t.ds.z_write = rng.chance(85) ? 1 : 0;
  t.ds.hiz = rng.chance(90) ? 1 : 0;
  t.ds.s_enable = rng.chance(5) ? 1 : 0;
  t.ds.z_func = rng.chance(50) ? CMP_LESS : rng.chance(90) ? CMP_LESS_EQUAL : static_cast<uint64_t>(rng.range(0, 7));
  if (g) {
    t.ds.z_func = rng.chance(50) ? CMP_GREATER : rng.chance(90) ? CMP_GREATER_EQUAL : static_cast<uint64_t>(rng.range(0, 7));
  }
  return t;
}

}  // namespace

TEST_CASE("hiz: never rejects a tile with a sample the exact depth test passes (random scenes)", "[hiz][nosan]") {
  const uint32_t seed = test::base_seed();
  INFO("seed " << seed);
  SceneRng rng(seed);
  uint64_t tiles = 0, rejected = 0;
  uint64_t tested_g = 0, rejected_g = 0;
  for (int scene = 0; scene < 80; ++scene) {
    const bool msaa = rng.chance(50);
    const bool g = scene % 2 == 1;                   // half the scenes GREATER-mostly
    const bool flip = rng.chance(10);                // ... and some switch direction half way
    const uint64_t base = 0x20000000u;
    model::Hiz hiz;
    RefDepth ref;
    ref.msaa = msaa;
    const int nclear = static_cast<int>(rng.range(1, 3));
    int next_clear = 0;
    for (int i = 0; i < 300; ++i) {
      if (next_clear < nclear && (i == 0 || rng.chance(1))) {
        ++next_clear;
        Rect r = test::rect(0, 0, kW, kH);
        if (i > 0 && rng.chance(50)) {
          const uint64_t x0 = static_cast<uint64_t>(rng.range(0, kW - 1)), y0 = static_cast<uint64_t>(rng.range(0, kH - 1));
          r = test::rect(x0, y0, static_cast<uint64_t>(rng.range(static_cast<int64_t>(x0) + 1, kW)),
                         static_cast<uint64_t>(rng.range(static_cast<int64_t>(y0) + 1, kH)));
        }
        const uint32_t far = g ? 0u : DEPTH_MAX;  // the usual clear of the direction
        const ClearPkt c = depth_clear(base, msaa, r, static_cast<uint32_t>(rng.chance(70) ? far : rng.range(0, DEPTH_MAX)));
        hiz.clear(c);
        apply_clear(ref, c);
      }
      const uint64_t t0 = hiz.tested(), r0 = hiz.rejected();
      const bool gi = flip && i >= 150 ? !g : g;
      rejected += draw(scene_tri(rng, msaa, base, gi), hiz, ref, tiles, base);
      if (gi) tested_g += hiz.tested() - t0, rejected_g += hiz.rejected() - r0;
    }
  }
  std::printf("  hiz random scenes, GREATER direction: %llu tested, %llu rejected\n",
              static_cast<unsigned long long>(tested_g), static_cast<unsigned long long>(rejected_g));
  CHECK(rejected_g > 0);
  std::printf("  hiz random scenes: %llu tiles, %llu rejected\n", static_cast<unsigned long long>(tiles),
              static_cast<unsigned long long>(rejected));
  CHECK(rejected > 0);
}

TEST_CASE("hiz: an occluding wall drawn first rejects the tiles behind it", "[hiz]") {
  for (const int mode : {0, 1, 2, 3, 4, 5}) {
    // mode: 1x / 4x MSAA; LESS with a clear to 1.0; GREATER (reversed Z) with a clear to 0.0;
    // GREATER with a clear to 0.5 after LESS work (the clear guesses L, the first draw fixes G).
    const bool msaa = mode % 2 == 1, g = mode >= 2, mid = mode >= 4;
    model::Hiz hiz;
    RefDepth ref;
    if (mid) {  // earlier LESS work on the buffer: the clear's guess is L
      const ClearPkt c0 = depth_clear(0x20000000u, msaa, test::rect(0, 0, kW, kH), DEPTH_MAX);
      hiz.clear(c0);
      apply_clear(ref, c0);
      TriPkt t = test::tri(0, 0, 8 * PX, 0, 0, 8 * PX, test::rect(0, 0, kW, kH));
      t.target.msaa = msaa ? 1 : 0;
      t.zhi = DEPTH_MAX;
      t.ds.base = 0x20000000u, t.ds.z_enable = 1, t.ds.z_write = 1, t.ds.hiz = 1, t.ds.z_func = CMP_LESS;
      uint64_t n = 0;
      draw(t, hiz, ref, n, 0x20000000u);
    }
    const ClearPkt c = depth_clear(0x20000000u, msaa, test::rect(0, 0, kW, kH),
                                   mid ? DEPTH_MAX / 2 : g ? 0u : DEPTH_MAX);
    hiz.clear(c);
    apply_clear(ref, c);
    uint64_t tiles = 0;
    const uint32_t near = fp32::bits_of(g ? 0.75f : 0.25f), far = fp32::bits_of(g ? 0.25f : 0.75f);
    for (int k = 0; k < 2; ++k) {  // the wall: two triangles over the whole target
      TriPkt t = k == 0 ? test::tri(0, 0, kW * PX, 0, 0, kH * PX, test::rect(0, 0, kW, kH))
                        : test::tri(kW * PX, 0, kW * PX, kH * PX, 0, kH * PX, test::rect(0, 0, kW, kH));
      t.target.msaa = msaa ? 1 : 0;
      for (auto& z : t.z) z.data = near;
      t.zhi = DEPTH_MAX;
      t.ds.base = 0x20000000u, t.ds.z_enable = 1, t.ds.z_write = 1, t.ds.hiz = 1;
      t.ds.z_func = g ? CMP_GREATER : CMP_LESS;
      draw(t, hiz, ref, tiles, 0x20000000u);
    }
    CHECK(hiz.greater() == g);
    SceneRng rng(7);
    uint64_t behind = 0, rejected = 0;
    for (int i = 0; i < 200; ++i) {
      TriPkt t = scene_tri(rng, msaa, 0x20000000u);
      for (auto& z : t.z) z.data = far;
      t.ds.base = 0x20000000u, t.ds.z_enable = 1, t.ds.z_write = 1, t.ds.hiz = 1, t.ds.s_enable = 0;
      t.ds.z_func = g ? (i % 2 ? CMP_GREATER : CMP_GREATER_EQUAL) : (i % 2 ? CMP_LESS : CMP_LESS_EQUAL);
      const uint64_t before = tiles;
      rejected += draw(t, hiz, ref, tiles, 0x20000000u);
      behind += tiles - before;
    }
    std::printf("  hiz occlusion (%s, %s): %llu tiles behind the wall, %llu rejected\n", msaa ? "4x" : "1x",
                mid ? "GREATER, clear 0.5" : g ? "GREATER" : "LESS",
                static_cast<unsigned long long>(behind), static_cast<unsigned long long>(rejected));
    // Tiles on the wall's diagonal are covered by neither triangle alone: their bound stays open.
    CHECK(rejected * 10 >= behind * 8);
    CHECK(hiz.enabled());
  }
}

TEST_CASE("hiz: a change of direction disables it until the next depth clear", "[hiz]") {
  model::Hiz hiz;
  RefDepth ref;
  const ClearPkt c = depth_clear(0x20000000u, false, test::rect(0, 0, kW, kH), DEPTH_MAX);
  hiz.clear(c);
  apply_clear(ref, c);
  uint64_t tiles = 0;
  const auto wall = [&](float z, uint64_t func, bool write) {
    uint64_t rej = 0;
    for (int k = 0; k < 2; ++k) {
      TriPkt t = k == 0 ? test::tri(0, 0, kW * PX, 0, 0, kH * PX, test::rect(0, 0, kW, kH))
                        : test::tri(kW * PX, 0, kW * PX, kH * PX, 0, kH * PX, test::rect(0, 0, kW, kH));
      for (auto& v : t.z) v.data = fp32::bits_of(z);
      t.zhi = DEPTH_MAX;
      t.ds.base = 0x20000000u, t.ds.z_enable = 1, t.ds.z_write = write ? 1 : 0, t.ds.hiz = 1, t.ds.z_func = func;
      rej += draw(t, hiz, ref, tiles, 0x20000000u);
    }
    return rej;
  };
  wall(0.25f, CMP_LESS, true);
  CHECK(wall(0.5f, CMP_LESS, false) > 0);        // behind the wall
  CHECK(wall(0.5f, CMP_GREATER, false) == 0);    // the other direction: not tested
  CHECK(hiz.enabled());
  wall(0.75f, CMP_GREATER_EQUAL, true);          // a GREATER write: disabled
  CHECK_FALSE(hiz.enabled());
  CHECK(wall(0.5f, CMP_LESS, false) == 0);
  const ClearPkt c2 = depth_clear(0x20000000u, false, test::rect(0, 0, kW, kH), 0);
  hiz.clear(c2);
  apply_clear(ref, c2);
  CHECK(hiz.enabled());
  wall(0.5f, CMP_GREATER, true);
  CHECK(hiz.greater());
  CHECK(wall(0.25f, CMP_GREATER, true) > 0);
}
