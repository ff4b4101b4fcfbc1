// SPDX-License-Identifier: Apache-2.0
// Round trips of every contract packet through pack/unpack, including negative signed fields.
#include <random>

#include "test_util.h"

using namespace pineda;

namespace {

struct Rand {
  std::mt19937_64 g;
  uint64_t u(int width) { return g() & bits::mask(width); }
  int64_t s(int width) { return bits::sext(g(), width); }
};

Vtx rvtx(Rand& r) { Vtx v; v.x = r.s(24); v.y = r.s(24); return v; }
Rect rrect(Rand& r) { return test::rect(r.u(15), r.u(15), r.u(15), r.u(15)); }
TRect rtrect(Rand& r) { TRect t; t.x0 = r.u(13); t.y0 = r.u(13); t.x1 = r.u(13); t.y1 = r.u(13); return t; }
Target rtarget(Rand& r) { Target t; t.base = r.u(32); t.pitch = r.u(16); t.msaa = r.u(1); return t; }
Edge redge(Rand& r) { Edge e; e.a = r.s(25); e.b = r.s(25); e.e = r.s(50); return e; }

template <typename P>
void round_trip(const P& p) {
  const typename P::Words w = p.pack();
  const P q = P::unpack(w.data());
  std::vector<FieldDiff> d;
  p.diff(q, "", d);
  INFO(P::SV_NAME << " " << p.str());
  CHECK(d.empty());
  CHECK(q == p);
  CHECK(p.canonical() == p);
  CHECK(q.pack() == w);
  // Bits above WIDTH stay zero.
  const int top = P::WIDTH % 32;
  if (top) CHECK((w[P::WORDS - 1] >> top) == 0u);
}

}  // namespace

TEST_CASE("contract: every packet survives pack/unpack", "[contract]") {
  Rand r{std::mt19937_64(test::base_seed())};
  for (int it = 0; it < 200; ++it) {
    round_trip(rvtx(r));
    round_trip(rrect(r));
    round_trip(rtrect(r));
    round_trip(rtarget(r));
    round_trip(redge(r));
    DrawPkt d;
    d.vb_base = r.u(32); d.first_vertex = r.u(32); d.vertex_count = r.u(32); d.color = r.u(32);
    d.target = rtarget(r); d.clip = rrect(r); d.draw_id = r.u(16);
    round_trip(d);
    TriPkt t;
    for (auto& v : t.v) v = rvtx(r);
    t.color = r.u(32); t.target = rtarget(r); t.clip = rrect(r); t.tri_id = r.u(32);
    round_trip(t);
    SetupPkt s;
    for (auto& e : s.edges) e = redge(r);
    s.tiles = rtrect(r); s.start = r.u(13); s.pix = rrect(r); s.color = r.u(32); s.target = rtarget(r); s.tri_id = r.u(32);
    round_trip(s);
    TilePkt tp;
    tp.tx = r.u(13); tp.ty = r.u(13); tp.edge_in = r.u(3);
    for (auto& e : tp.edges) e = redge(r);
    tp.pix = rrect(r); tp.color = r.u(32); tp.target = rtarget(r); tp.tri_id = r.u(32);
    round_trip(tp);
    QuadPkt c;
    c.qx = r.u(13); c.qy = r.u(13); c.mask = r.u(16); c.color = r.u(32); c.target = rtarget(r); c.tri_id = r.u(32);
    round_trip(c);
    MemLineReq m;
    m.we = r.u(1); m.addr = r.u(32); m.be = r.u(64); m.src = r.u(4); m.tag = r.u(8);
    for (auto& w : m.wdata) w.data = r.u(32);
    round_trip(m);
    MemLineRsp rs;
    rs.we = r.u(1); rs.src = r.u(4); rs.tag = r.u(8);
    for (auto& w : rs.rdata) w.data = r.u(32);
    round_trip(rs);
  }
}

TEST_CASE("contract: signed fields at their extremes", "[contract]") {
  for (int64_t x : {int64_t{-1}, -(int64_t{1} << 23), (int64_t{1} << 23) - 1, int64_t{0}, int64_t{-256}}) {
    Vtx v;
    v.x = x;
    v.y = -x - 1;
    round_trip(v);
  }
  Vtx m1;
  m1.x = -1;
  CHECK((m1.pack()[0] >> 24) == 0xFFu);  // x occupies [47:24]
  CHECK((m1.pack()[1] & 0xFFFFu) == 0xFFFFu);
  Edge e;
  e.a = -(int64_t{1} << 24);
  e.b = (int64_t{1} << 24) - 1;
  e.e = -(int64_t{1} << 49);
  round_trip(e);
  e.e = (int64_t{1} << 49) - 1;
  e.a = -1;
  round_trip(e);
  SetupPkt s;
  s.edges[0] = e;
  s.edges[2].e = -12345678901234;
  round_trip(s);
  // Out-of-range values are what canonical() folds away.
  Vtx big;
  big.x = int64_t{1} << 23;
  CHECK(big.canonical().x == -(int64_t{1} << 23));
}

TEST_CASE("contract: generated constants are consistent with the docs", "[contract]") {
  CHECK(DrawPkt::WIDTH == 254);
  CHECK(OmState::WIDTH == 220);  // 71 (with FE_LOGIC_OP) + FE_TEX0, FE_SAMP0, FE_TEX1, FE_SAMP1 (32 each), comb_state_t (21)
  CHECK(TriPkt::WIDTH == 1363);  // 787 + 3 x vattr_t (192)
  CHECK(SetupPkt::WIDTH == 2111);  // + interp_tri_t (1074)
  CHECK(TilePkt::WIDTH == 2123);
  CHECK(QuadPkt::WIDTH == 1939);
  CHECK(MemLineReq::WIDTH == 621);
  CHECK(MemLineRsp::WIDTH == 525);
  CHECK(std::string(BOUNDARY_NAMES[0]) == "cp_draw");
  CHECK(std::string(BOUNDARY_NAMES[4]) == "fine_quad");
  CHECK(std::string(BOUNDARY_NAMES[5]) == "pw_mem");
}
