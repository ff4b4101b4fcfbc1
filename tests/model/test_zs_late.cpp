// SPDX-License-Identifier: Apache-2.0
// Late Z with the alpha kill (docs/comb.md section 5, docs/depth.md section 4): the model's
// pixel stage kills pixels; a late quad's killed pixels write no depth and no stencil, an early
// quad's do (which is why alpha-tested draws run late). Then the ordering rule of the two-port
// ZS design as an executable check: quads flow early port -> pixel path (random latency, in
// order) -> late port; late quads are tested at the late port, early ones at the early port,
// and an early quad waits while late quads are in flight. The result must equal the model's
// sequential order for every seed, and the same simulation without the wait must not.
#include <cstdio>
#include <deque>
#include <random>

#include "mem/memory.h"
#include "test_util.h"
#include "zs/zs.h"

using namespace pineda;
using namespace pineda::model;

namespace {

constexpr uint32_t kBase = 0x100000u, kPitch = 256u;

DsState depth_state(uint32_t func, bool late) {
  DsState d;
  d.base = kBase;
  d.pitch = kPitch;
  d.z_enable = 1;
  d.z_func = func;
  d.z_write = 1;
  d.late_z = late ? 1 : 0;
  return d;
}

QuadPkt make_quad(uint32_t qx, uint32_t qy, bool msaa, uint64_t mask, const DsState& ds, uint32_t z) {
  QuadPkt q;
  q.qx = qx;
  q.qy = qy;
  q.target.msaa = msaa ? 1 : 0;
  q.mask = mask;
  q.ds = ds;
  for (int i = 0; i < 16; ++i) q.z[i].v = ((mask >> i) & 1u) ? z : 0u;
  return q;
}

Memory cleared() {
  Memory m;
  m.fill32(kBase, kPitch / 4 * 64, DEPTH_MAX);  // depth 1.0, stencil 0
  return m;
}

struct Item {
  QuadPkt q;
  uint32_t kill = 0;
};

// Draws of 1..12 quads over a 4 x 4-quad region, each draw early or late (late draws with random
// alpha kills), depth functions and depths from small sets, stencil REPLACE with the draw's ref
// on some draws (order-dependent), 1x and 4x.
std::vector<Item> stream(uint64_t seed, bool msaa) {
  std::mt19937_64 r(seed);
  auto rnd = [&](uint32_t n) { return static_cast<uint32_t>(r() % n); };
  std::vector<Item> v;
  const uint32_t funcs[] = {CMP_LESS, CMP_LESS_EQUAL, CMP_GREATER, CMP_ALWAYS, CMP_NOT_EQUAL};
  for (int d = 0; d < 40; ++d) {
    const bool late = rnd(2) == 1;
    DsState ds = depth_state(funcs[rnd(5)], late);
    if (rnd(3) == 0) {
      ds.s_enable = 1;
      ds.s_ref = rnd(256);
      ds.s_read_mask = 0xFF;
      ds.s_write_mask = 0xFF;
      // STENCIL_FACE_*: func ALWAYS, fail KEEP, zfail KEEP, pass REPLACE
      const uint64_t face = CMP_ALWAYS | uint64_t{SOP_REPLACE} << SFACE_PASS_LSB;
      ds.s_front = face;
      ds.s_back = face;
    }
    const int n = 1 + static_cast<int>(rnd(12));
    for (int k = 0; k < n; ++k) {
      Item it;
      const uint64_t mask = msaa ? 1 + rnd(0xFFFF) : 1 + rnd(0xF);
      it.q = make_quad(rnd(4), rnd(4), msaa, mask, ds, rnd(8) * 0x100000u);
      it.kill = late ? rnd(16) : 0u;
      it.q.front = 1;
      v.push_back(it);
    }
  }
  return v;
}

struct Run {
  std::vector<QuadPkt> out;
  Memory mem;
};

Run sequential(const std::vector<Item>& in) {
  Run r{{}, cleared()};
  Zs zs;
  for (const auto& it : in) {
    if (auto o = zs.process(it.q, r.mem, it.kill)) r.out.push_back(*o);
  }
  return r;
}

// The two-port ZS: early port, an in-order pixel path of random latency, late port.
Run two_port(const std::vector<Item>& in, uint64_t seed, bool drain) {
  std::mt19937_64 r(seed * 7919 + 1);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(r) < p; };
  Run res{{}, cleared()};
  struct Flight {
    Item it;
    bool tested;
  };
  std::deque<Flight> path;
  size_t next = 0;
  int late_inflight = 0;
  while (next < in.size() || !path.empty()) {
    if (!path.empty() && chance(0.3)) {  // late port
      Flight f = path.front();
      path.pop_front();
      if (f.tested) {
        res.out.push_back(f.it.q);
      } else {
        const QuadPkt o = Zs::test(Zs::pixel_stage(f.it.q, f.it.kill), res.mem);
        --late_inflight;
        if (o.mask) res.out.push_back(o);
      }
    }
    if (next < in.size() && chance(0.7)) {  // early port
      const Item& it = in[next];
      if (it.q.ds.late_z) {
        path.push_back({it, false});
        ++late_inflight;
        ++next;
      } else if (!drain || late_inflight == 0) {
        const QuadPkt o = Zs::pixel_stage(Zs::test(it.q, res.mem), it.kill);
        if (o.mask) path.push_back({{o, 0}, true});
        ++next;
      }
    }
  }
  return res;
}

}  // namespace

TEST_CASE("zs late: killed pixels write no depth or stencil late, and do early", "[zs][late]") {
  for (int msaa = 0; msaa < 2; ++msaa) {
    for (int late = 0; late < 2; ++late) {
      DsState ds = depth_state(CMP_LESS, late != 0);
      ds.s_enable = 1;
      ds.s_ref = 0x5A;
      ds.s_read_mask = 0xFF;
      ds.s_write_mask = 0xFF;
      ds.s_front = CMP_ALWAYS | uint64_t{SOP_REPLACE} << SFACE_PASS_LSB;
      const QuadPkt q = make_quad(1, 1, msaa != 0, msaa ? 0xFFFF : 0xF, ds, 0x123456);
      QuadPkt qf = q;
      qf.front = 1;
      Memory m = cleared();
      Zs zs;
      const auto o = zs.process(qf, m, 0x2);  // pixel 1 fails the alpha test
      REQUIRE(o.has_value());
      const uint64_t px1 = msaa ? 0xF0 : 0x2;
      CHECK((o->mask & px1) == 0);
      CHECK(o->mask == ((msaa ? 0xFFFFu : 0xFu) & ~px1));
      // pixel 1 is (3, 2); pixel 0 is (2, 2)
      const uint32_t spp = msaa ? 4 : 1;
      const uint32_t a1 = kBase + 2 * kPitch + 3 * 4 * spp, a0 = kBase + 2 * kPitch + 2 * 4 * spp;
      INFO("msaa " << msaa << " late " << late);
      CHECK(m.read32(a0) == (0x5Au << 24 | 0x123456u));
      CHECK(m.read32(a1) == (late ? uint32_t{DEPTH_MAX} : (0x5Au << 24 | 0x123456u)));
      CHECK(zs.samples_tested() == (late ? 3u : 4u) * spp);
    }
  }
}

TEST_CASE("zs late: without a kill, early and late give the same outputs and memory", "[zs][late]") {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::vector<Item> in = stream(seed, seed & 1);
    for (auto& it : in) it.kill = 0;
    std::vector<Item> early = in, late = in;
    for (auto& it : early) it.q.ds.late_z = 0;
    for (auto& it : late) it.q.ds.late_z = 1;
    const Run a = sequential(early), b = sequential(late);
    CHECK(a.mem == b.mem);
    REQUIRE(a.out.size() == b.out.size());
    for (size_t i = 0; i < a.out.size(); ++i) {
      QuadPkt x = a.out[i], y = b.out[i];
      x.ds.late_z = y.ds.late_z = 0;
      CHECK(x == y);
    }
  }
}

TEST_CASE("zs late: the two-port order (early waits for late quads in flight) equals the model's", "[zs][late]") {
  int bad_without_drain = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const std::vector<Item> in = stream(seed, seed % 3 == 0);
    const Run ref = sequential(in);
    const Run two = two_port(in, seed, true);
    INFO("seed " << seed);
    CHECK(two.mem == ref.mem);
    REQUIRE(two.out.size() == ref.out.size());
    for (size_t i = 0; i < ref.out.size(); ++i) CHECK(two.out[i] == ref.out[i]);
    // The planted bug: the early port does not wait.
    const Run bad = two_port(in, seed, false);
    if (bad.mem != ref.mem || bad.out.size() != ref.out.size()) {
      ++bad_without_drain;
    } else {
      for (size_t i = 0; i < ref.out.size(); ++i) {
        if (bad.out[i] != ref.out[i]) {
          ++bad_without_drain;
          break;
        }
      }
    }
  }
  std::printf("zs late: without the wait, %d of 40 streams differ from the model\n", bad_without_drain);
  CHECK(bad_without_drain > 10);
}

TEST_CASE("zs late: the two port functions (early, pixel stage, late) equal process()", "[zs][late]") {
  // Zs::early and Zs::late are the RTL's ports (zs.sv, LatePort = 1); in sequential order,
  // with the pixel path's kill in between (an emptied quad dropped unless it is late-Z, which the
  // late port drops), they must give process()'s outputs and memory.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<Item> in = stream(seed, seed % 2 == 0);
    const Run ref = sequential(in);
    Run two{{}, cleared()};
    Zs zs;
    size_t late_empty = 0;
    for (const auto& it : in) {
      const auto e = zs.early(it.q, two.mem);
      if (!e) continue;
      InterpPkt p;
      p.quad = Zs::pixel_stage(*e, it.kill);
      if (p.quad.mask == 0 && !Zs::late_quad(it.q)) continue;
      late_empty += p.quad.mask == 0 ? 1 : 0;
      const auto l = zs.late(p, two.mem);
      if (l) two.out.push_back(l->quad);
    }
    INFO("seed " << seed);
    CHECK(two.mem == ref.mem);
    REQUIRE(two.out.size() == ref.out.size());
    for (size_t i = 0; i < ref.out.size(); ++i) CHECK(two.out[i] == ref.out[i]);
    if (seed == 1) std::printf("zs late: seed 1, %zu late quads emptied by the kill reach the late port\n", late_empty);
  }
}
