// SPDX-License-Identifier: Apache-2.0
// Primitive assembly model (cpp_model/pa): per-vertex attributes (1/w, colour, tex0, tex1)
// through assembly, trivial accept and clipping (docs/numerics.md section 8.2 step 4), and the
// merge into tri_pkt_t.a (model::PinedaTop).
#include <algorithm>
#include <cmath>
#include <random>

#include "fp32.h"
#include "ia/ia.h"
#include "pa/pa.h"
#include "pa_streams.h"
#include "test_util.h"

using namespace pineda;
using model::PrimitiveAssembly;
using pa_test::fb;
using pa_test::P;

namespace {

using CV = PrimitiveAssembly::CV;

double fl(uint32_t u) { return static_cast<double>(fp32::float_of(u)); }

uint32_t chan(uint32_t c, int ch) { return (c >> (8 * ch)) & 0xFFu; }

// The unit's own input vertex of slot s of the batch that prim p reads (single-batch streams).
const ClipVtxPkt& slot_vtx(const pa_test::Streams& s, size_t batch_first, uint32_t slot) {
  return s.vtx.at(batch_first + slot);
}

}  // namespace

TEST_CASE("pa attributes: unclipped triangles pass 1/w, colour and coordinates through, in API order", "[pa]") {
  const uint64_t seed = test::base_seed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  pa_test::Streams s;
  s.viewport(0, 0, 640, 480, 640, 480);
  // One batch of 24 in-view vertices (no clipping), 40 triangles with random slot triples.
  std::vector<std::array<uint32_t, 4>> pos;
  for (int i = 0; i < 24; ++i) {
    const double w = uni(0.5, 4.0);
    pos.push_back(P(static_cast<float>(uni(-0.9, 0.9) * w), static_cast<float>(uni(-0.9, 0.9) * w),
                    static_cast<float>(uni(0.05, 0.95) * w), static_cast<float>(w)));
  }
  std::vector<std::array<uint32_t, 3>> tris;
  for (int t = 0; t < 40; ++t) {
    tris.push_back({static_cast<uint32_t>(rng() % 24), static_cast<uint32_t>(rng() % 24),
                    static_cast<uint32_t>(rng() % 24)});
  }
  s.batch(pos, tris);
  pa_test::randomize_attrs(s, seed + 1);  // NaN payloads and Inf included: passed bit for bit
  PrimitiveAssembly pa;
  const auto out = model::run_pa(s.vtx, s.prims, &pa);
  REQUIRE(pa.stats().clipped == 0);
  REQUIRE(out.size() > 10);  // the rest are degenerate (repeated slots) or culled
  for (const PaTriPkt& t : out) {
    const PrimPkt& p = s.prims.at(s.prims.size() - tris.size() + t.prim_id);
    const uint32_t sl[3] = {static_cast<uint32_t>(p.s0), static_cast<uint32_t>(p.s1), static_cast<uint32_t>(p.s2)};
    CHECK(t.color == slot_vtx(s, 0, sl[0]).color);  // flat: the provoking vertex v0
    for (int k = 0; k < 3; ++k) {
      const ClipVtxPkt& v = slot_vtx(s, 0, sl[k]);
      INFO("prim " << t.prim_id << " vertex " << k);
      CHECK(t.attr[k].rhw == fp32::rcp(static_cast<uint32_t>(v.pos.w)));
      CHECK(t.attr[k].color == v.color);
      CHECK(t.attr[k].tex0.u == v.tex0.u);
      CHECK(t.attr[k].tex0.v == v.tex0.v);
      CHECK(t.attr[k].tex1.u == v.tex1.u);
      CHECK(t.attr[k].tex1.v == v.tex1.v);
    }
  }
}

TEST_CASE("pa attributes: a near-clipped triangle's new vertices carry the analytic values", "[pa]") {
  // v0, v1 inside, v2 behind the near plane (z < 0); both crossing edges are cut at t = 1/2
  // exactly, so every new attribute has an exact expected value.
  pa_test::Streams s;
  s.viewport(0, 0, 640, 480, 640, 480);
  s.batch({P(-0.5f, -0.5f, 0.5f, 1.0f), P(0.5f, -0.5f, 0.5f, 1.0f), P(0.0f, 1.0f, -0.5f, 2.0f)}, {{0, 1, 2}},
          nullptr);
  s.vtx[0].color = 0x00000000u;
  s.vtx[1].color = 0x10203040u;
  s.vtx[2].color = 0xFFFFFFFFu;
  const float uv[3][4] = {{0, 0, 8, -8}, {1, 0, 16, -4}, {0.5f, 1, -2, 100}};
  for (int i = 0; i < 3; ++i) {
    s.vtx[i].tex0.u = fb(uv[i][0]);
    s.vtx[i].tex0.v = fb(uv[i][1]);
    s.vtx[i].tex1.u = fb(uv[i][2]);
    s.vtx[i].tex1.v = fb(uv[i][3]);
  }
  PrimitiveAssembly pa;
  const auto out = model::run_pa(s.vtx, s.prims, &pa);
  REQUIRE(pa.stats().clipped == 1);
  // polygon [v0, v1, n12, n20] -> fan (v0, v1, n12), (v0, n12, n20)
  REQUIRE(out.size() == 2);
  auto mid_color = [](uint32_t a, uint32_t b) {  // T = 128: (a*128 + b*128 + 128) >> 8 per channel
    uint32_t c = 0;
    for (int ch = 0; ch < 4; ++ch) c |= ((chan(a, ch) * 128 + chan(b, ch) * 128 + 128) >> 8) << (8 * ch);
    return c;
  };
  const uint32_t rhw_new = fp32::rcp(fb(1.5f));  // w of both new vertices: (1 + 2) / 2
  // n12 = (v1 + v2) / 2, n20 = (v0 + v2) / 2 (the intersection runs from the inside vertex)
  const PaAttr& n12 = out[0].attr[2];
  const PaAttr& n20 = out[1].attr[2];
  CHECK(out[1].attr[1] == n12);
  CHECK(n12.rhw == rhw_new);
  CHECK(n20.rhw == rhw_new);
  CHECK(fp32::float_of(n12.rhw) == Approx(1.0 / 1.5).epsilon(1e-7));
  CHECK(n12.color == mid_color(0x10203040u, 0xFFFFFFFFu));
  CHECK(n12.color == 0x889098A0u);  // R = (0x40 + 0xFF + 1) / 2 = 0xA0, ... A = (0x10 + 0xFF + 1) / 2 = 0x88
  CHECK(n20.color == 0x80808080u);
  CHECK(n12.tex0.u == fb(0.75f));
  CHECK(n12.tex0.v == fb(0.5f));
  CHECK(n12.tex1.u == fb(7.0f));
  CHECK(n12.tex1.v == fb(48.0f));
  CHECK(n20.tex0.u == fb(0.25f));
  CHECK(n20.tex0.v == fb(0.5f));
  CHECK(n20.tex1.u == fb(3.0f));
  CHECK(n20.tex1.v == fb(46.0f));
  // the original vertices are untouched, 1/w = 1
  for (const PaTriPkt& t : out) {
    CHECK(t.attr[0].color == 0u);
    CHECK(t.attr[0].rhw == FP32_ONE);
    CHECK(t.attr[0].tex1.u == fb(8.0f));
    CHECK(t.color == 0u);  // flat colour: the input v0's
  }
  CHECK(out[0].attr[1].color == 0x10203040u);
  CHECK(out[0].attr[1].tex1.v == fb(-4.0f));
}

TEST_CASE("pa attributes: clip intersections interpolate every attribute with the position's t", "[pa]") {
  // Random edges from an inside to an outside vertex of each plane; the new vertex's
  // coordinates within a few ulps of the exact (1 - t) a_I + t a_O, t = dI / (dI - dO) in double,
  // its colour within 1 of the exact value and equal to the documented integer formula.
  const uint64_t seed = test::base_seed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  int tested = 0;
  double worst_ulps = 0;
  for (int it = 0; it < 20000; ++it) {
    auto vtx = [&]() {
      const double w = uni(-1.0, 4.0);
      CV v;
      v.a = {fb(static_cast<float>(uni(-3, 3) * std::abs(w))), fb(static_cast<float>(uni(-3, 3) * std::abs(w))),
             fb(static_cast<float>(uni(-0.5, 1.5) * std::abs(w))), fb(static_cast<float>(w)),
             fb(static_cast<float>(uni(-10, 10))), fb(static_cast<float>(uni(-1, 1))),
             fb(static_cast<float>(uni(0, 1000))), fb(static_cast<float>(uni(-1e-3, 1e-3)))};
      v.color = static_cast<uint32_t>(rng());
      return v;
    };
    const CV a = vtx(), b = vtx();
    const int plane = static_cast<int>(rng() % PrimitiveAssembly::NUM_PLANES);
    const uint32_t da = PrimitiveAssembly::dist(plane, a), db = PrimitiveAssembly::dist(plane, b);
    const bool ia = PrimitiveAssembly::inside(da), ib = PrimitiveAssembly::inside(db);
    if (ia == ib) continue;
    const CV& in = ia ? a : b;
    const CV& o = ia ? b : a;
    const double dI = fl(ia ? da : db), dO = fl(ia ? db : da);
    if (dI - dO < 1e-3) continue;  // nearly parallel: t is ill-conditioned in FP32
    const double t = dI / (dI - dO);
    const CV r = PrimitiveAssembly::intersect(in, o, plane);
    ++tested;
    INFO("plane " << plane << " t " << t);
    for (int k = PrimitiveAssembly::A_U0; k <= PrimitiveAssembly::A_V1; ++k) {
      const double ai = fl(in.a[k]), ao = fl(o.a[k]);
      const double want = (1 - t) * ai + t * ao;
      const double got = fl(r.a[k]);
      // t, s = 1 - t, two products and a sum, each rounded once: a few ulps of the terms
      const double scale = std::abs(ai) + std::abs(ao);
      const double err = std::abs(got - want) / (scale * std::ldexp(1.0, -24));
      worst_ulps = std::max(worst_ulps, err);
      CHECK(err <= 16.0);
    }
    // the same t as the position: w (when the plane does not set it) uses identical operations
    if (plane != PrimitiveAssembly::PL_W) {
      CV aw = in, ow = o;
      aw.a[PrimitiveAssembly::A_U0] = in.a[PrimitiveAssembly::A_W];
      ow.a[PrimitiveAssembly::A_U0] = o.a[PrimitiveAssembly::A_W];
      CHECK(PrimitiveAssembly::intersect(aw, ow, plane).a[PrimitiveAssembly::A_U0] == r.a[PrimitiveAssembly::A_W]);
    }
    // colour: T = clamp(to_fix16_8(t), 0, 256), (cI (256 - T) + cO T + 128) >> 8 per channel
    for (int ch = 0; ch < 4; ++ch) {
      const double ci = chan(in.color, ch), co = chan(o.color, ch);
      const double exact = (1 - t) * ci + t * co;
      CHECK(std::abs(static_cast<double>(chan(r.color, ch)) - exact) <= 1.0);
    }
  }
  std::printf("  pa attributes: %d random intersections, worst coordinate error %.2f ulp of |a_I| + |a_O|\n", tested,
              worst_ulps);
  CHECK(tested > 5000);
}

TEST_CASE("pa attributes: NaN and Inf coordinates never change positions, culling or colours", "[pa]") {
  // The same random streams (clipping, culling, NaN/Inf positions) with finite coordinates and
  // with random NaN / Inf / denormal / garbage coordinates: identical triangles, positions, z,
  // 1/w and colours; a NaN coordinate out is the input's bits (unclipped) or FP32_QNAN (clipped).
  const uint64_t seed = test::base_seed();
  for (int k = 0; k < 4; ++k) {
    INFO("seed " << seed + k);
    pa_test::Streams clean = pa_test::random_streams(seed + static_cast<uint64_t>(k), 25);
    for (ClipVtxPkt& v : clean.vtx) {
      v.tex0.u = fb(1.0f);
      v.tex0.v = fb(-2.0f);
      v.tex1.u = fb(0.5f);
      v.tex1.v = fb(3.0f);
    }
    pa_test::Streams wild = clean;
    std::mt19937_64 rng(seed + 100 + static_cast<uint64_t>(k));
    for (ClipVtxPkt& v : wild.vtx) {
      const uint32_t specials[] = {0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7F800000u, 0xFF800000u, 0x00000001u, 0x80000000u};
      v.tex0.u = specials[rng() % 7];
      v.tex0.v = specials[rng() % 7];
      v.tex1.u = pa_test::random_attr_word(rng);
      v.tex1.v = pa_test::random_attr_word(rng);
    }
    PrimitiveAssembly pc, pw;
    const auto oc = model::run_pa(clean.vtx, clean.prims, &pc);
    const auto ow = model::run_pa(wild.vtx, wild.prims, &pw);
    REQUIRE(oc.size() == ow.size());
    REQUIRE(pc.stats().clipped > 0);
    for (size_t i = 0; i < oc.size(); ++i) {
      INFO("packet " << i);
      REQUIRE(oc[i].v == ow[i].v);
      CHECK(oc[i].color == ow[i].color);
      CHECK(oc[i].front == ow[i].front);
      CHECK(oc[i].tri_id == ow[i].tri_id);
      for (int j = 0; j < 3; ++j) {
        CHECK(oc[i].attr[j].z == ow[i].attr[j].z);
        CHECK(oc[i].attr[j].rhw == ow[i].attr[j].rhw);
        CHECK(oc[i].attr[j].color == ow[i].attr[j].color);
        for (uint32_t c : {static_cast<uint32_t>(ow[i].attr[j].tex0.u), static_cast<uint32_t>(ow[i].attr[j].tex0.v)}) {
          // inputs are NaN, Inf, denormal or zero: a clipped vertex gets QNAN, +-Inf or +-0
          const bool ok = c == 0x7FC00000u || c == 0x7F800001u || c == 0xFFFFFFFFu || fp32::is_inf(c) ||
                          c == 0x00000001u || c == 0x80000000u || c == 0u;
          CHECK(ok);
        }
      }
    }
  }
}

TEST_CASE("pa attributes: the merge puts PA's 1/w, colour and coordinates into tri_pkt_t.a", "[pa]") {
  // OP_DRAW's triangles: 1/w = 1.0, the draw colour, coordinates 0 (input assembler).
  model::InputAssembler ia;
  Memory mem;
  for (uint32_t i = 0; i < 6; ++i) {
    mem.write32(0x100 + i * 8, (i % 3) * 256 * 10);
    mem.write32(0x104 + i * 8, (i / 3 + i % 2) * 256 * 10);
  }
  DrawPkt d;
  d.vb_base = 0x100;
  d.vertex_count = 6;
  d.color = 0x11223344u;
  d.clip = test::rect(0, 0, 64, 64);
  const auto tris = ia.process(d, mem);
  REQUIRE(tris.size() == 2);
  for (const TriPkt& t : tris) {
    for (const VAttr& a : t.a) {
      CHECK(a.rhw == FP32_ONE);
      CHECK(a.color == 0x11223344u);
      CHECK(a.uv0 == FVec2{});
      CHECK(a.uv1 == FVec2{});
    }
  }
  DrawPkt tok;
  tok.eop = 1;
  const auto t2 = ia.process(tok, mem);
  REQUIRE(t2.size() == 1);
  TriPkt want_tok;
  want_tok.eop = 1;
  CHECK(t2[0] == want_tok);  // a token carries a = 0
}

TEST_CASE("pa attributes: pa_to_tri copies every field, attributes per vertex in order", "[pa]") {
  std::mt19937_64 rng(test::base_seed());
  auto r32 = [&] { return static_cast<uint32_t>(rng()); };
  for (int it = 0; it < 100; ++it) {
    PaTriPkt p;
    for (int k = 0; k < 3; ++k) {
      p.v[k].x = static_cast<int32_t>(r32() << 8) >> 8;
      p.v[k].y = static_cast<int32_t>(r32() << 8) >> 8;
      p.attr[k].z = r32();
      p.attr[k].rhw = r32();
      p.attr[k].color = r32();
      p.attr[k].tex0.u = r32();
      p.attr[k].tex0.v = r32();
      p.attr[k].tex1.u = r32();
      p.attr[k].tex1.v = r32();
    }
    p.color = r32();
    p.tri_id = r32();
    p.front = r32() & 1u;
    p.zlo = r32() & 0xFFFFFFu;
    p.zhi = r32() & 0xFFFFFFu;
    p.target.base = r32();
    const TriPkt t = model::pa_to_tri(p);
    CHECK(t.v == p.v);
    CHECK(t.color == p.color);
    CHECK(t.tri_id == p.tri_id);
    CHECK(t.front == p.front);
    CHECK(t.zlo == p.zlo);
    CHECK(t.zhi == p.zhi);
    CHECK(t.target == p.target);
    for (int k = 0; k < 3; ++k) {
      CHECK(t.z[k].data == p.attr[k].z);
      CHECK(t.a[k].rhw == p.attr[k].rhw);
      CHECK(t.a[k].color == p.attr[k].color);
      CHECK(t.a[k].uv0 == p.attr[k].tex0);
      CHECK(t.a[k].uv1 == p.attr[k].tex1);
    }
  }
}
