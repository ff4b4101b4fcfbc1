// SPDX-License-Identifier: Apache-2.0
#include "interp/interp.h"

#include <algorithm>

#include "fp32.h"
#include "setup/iplane.h"

namespace pineda::model {

Interp::Bary Interp::bary(bits::i128 w, bits::i128 p1, bits::i128 p2) {
  using namespace fp32;
  Bary l;
  if (w <= 0) return l;  // outside the triangle's 1/w > 0 region: vertex 0's attributes
  const uint32_t rw = rcp(from_int128(w));
  l.l1 = mul(from_int128(p1), rw);
  l.l2 = mul(from_int128(p2), rw);
  return l;
}

int64_t Interp::weight16(uint32_t l) {
  return std::clamp<int64_t>(fp32::to_fix(l, 16, 25), 0, 65536);
}

uint32_t Interp::color(uint32_t c0, uint32_t c1, uint32_t c2, const Bary& l) {
  const int64_t t1 = weight16(l.l1), t2 = weight16(l.l2);
  uint32_t out = 0;
  for (int ch = 0; ch < 4; ++ch) {
    const int64_t a0 = (c0 >> (8 * ch)) & 0xFFu;
    const int64_t d1 = static_cast<int64_t>((c1 >> (8 * ch)) & 0xFFu) - a0;
    const int64_t d2 = static_cast<int64_t>((c2 >> (8 * ch)) & 0xFFu) - a0;
    const int64_t s = (d1 * t1 + d2 * t2 + (int64_t{1} << 15)) >> 16;  // arithmetic shift = floor
    const int64_t c = std::clamp<int64_t>(a0 + s, 0, 255);
    out |= static_cast<uint32_t>(c) << (8 * ch);
  }
  return out;
}

InterpPkt Interp::process(const QuadPkt& q) {
  using namespace fp32;
  InterpPkt o;
  o.quad = q;
  o.quad.it = InterpTri{};  // not needed after INTERP
  if (q.eop) return o;      // tokens pass with every other field 0
  ++quads_;
  const InterpTri& t = q.it;
  // The planes at the centre of the quad's pixel (0, 0), then at its 4 pixels.
  const bits::i128 cw = iplane_at_quad(t.w, q.qx, q.qy);
  const bits::i128 c1 = iplane_at_quad(t.l1, q.qx, q.qy);
  const bits::i128 c2 = iplane_at_quad(t.l2, q.qx, q.qy);
  for (int p = 0; p < 4; ++p) {
    const bits::i128 dx = (p & 1) ? 256 : 0, dy = (p & 2) ? 256 : 0;
    const bits::i128 w = cw + t.w.a * dx + t.w.b * dy;  // |.| < 2^83 (numerics section 10.2)
    const bits::i128 p1 = c1 + t.l1.a * dx + t.l1.b * dy;
    const bits::i128 p2 = c2 + t.l2.a * dx + t.l2.b * dy;
    const Bary l = bary(w, p1, p2);
    o.pcolor[p].data = q.om.gouraud ? color(static_cast<uint32_t>(t.c0), static_cast<uint32_t>(t.c1),
                                                  static_cast<uint32_t>(t.c2), l)
                                          : static_cast<uint32_t>(q.color);
    // uv1 only for a quad whose combiner stage 1 samples texture 1 (else 0: INTERP's one uv
    // datapath computes it in a second clock only for those quads; docs/interp.md section 1).
    const int coords = q.om.comb.tex1 ? 2 : 1;
    for (int i = 0; i < coords; ++i) {
      FVec2 uv;
      uv.u = add(static_cast<uint32_t>(t.t0[i].u), add(mul(l.l1, static_cast<uint32_t>(t.d1[i].u)),
                                                       mul(l.l2, static_cast<uint32_t>(t.d2[i].u))));
      uv.v = add(static_cast<uint32_t>(t.t0[i].v), add(mul(l.l1, static_cast<uint32_t>(t.d1[i].v)),
                                                       mul(l.l2, static_cast<uint32_t>(t.d2[i].v))));
      (i == 0 ? o.uv0 : o.uv1)[p] = uv;
    }
  }
  return o;
}

}  // namespace pineda::model
