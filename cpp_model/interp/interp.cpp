// SPDX-License-Identifier: Apache-2.0
#include "interp/interp.h"

#include <algorithm>

#include "fp32.h"
#include "setup/iplane.h"

namespace pineda::model {

Interp::Bary Interp::bary(bits::i128 w, bits::i128 p1, bits::i128 p2) {
  Bary l;
  if (w <= 0) return l;  // outside the triangle's 1/w > 0 region: vertex 0's attributes
  int k = 82;
  while (((w >> k) & 1) == 0) --k;  // W's leading one (W < 2^83)
  // W rounded to 24 significant bits (half up) as an FP32 value in [1, 2]: the carry of the
  // rounding may reach the exponent (2.0).
  const bits::i128 ws = k >= 24 ? (w >> (k - 24)) : (w << (24 - k));  // floor(W 2^24 / 2^k)
  const uint32_t fw = (uint32_t{127} << 23) + static_cast<uint32_t>((ws >> 1) & 0x7FFFFF) +
                      static_cast<uint32_t>(ws & 1);
  const uint32_t rw = fp32::rcp(fw);  // in [0.5, 1]
  const int64_t r = fp32::exp_field(rw) == 127 ? (int64_t{1} << 24)  // R = rcp 2^24
                                                : static_cast<int64_t>(fp32::frac_field(rw) | 0x800000u);
  auto norm = [&](bits::i128 p) -> int64_t {
    // floor(L 2^25 / 2^k), saturated to +-(2^35 - 1) (|b| >= 2^10)
    const bits::i128 px = p < 0 ? ~p : p;
    if ((px >> (k + 10)) != 0) return p < 0 ? -((int64_t{1} << 35) - 1) : (int64_t{1} << 35) - 1;
    return static_cast<int64_t>(k >= 25 ? (p >> (k - 25)) : (p << (25 - k)));
  };
  auto weight = [&](int64_t n) -> int64_t {
    // round(n r / 2^25) half up, saturated to +-(2^33 - 1)
    const int64_t kMax = (int64_t{1} << (UV_BW - 1)) - 1;
    const int64_t b = (n * r + (int64_t{1} << 24)) >> 25;
    return std::clamp<int64_t>(b, -kMax, kMax);
  };
  l.b1 = weight(norm(p1));
  l.b2 = weight(norm(p2));
  return l;
}

int64_t Interp::weight16(int64_t b) {
  return std::clamp<int64_t>((b + (int64_t{1} << (UV_F - 17))) >> (UV_F - 16), 0, 65536);
}

Interp::Aligned Interp::align(uint32_t t0, uint32_t d1, uint32_t d2) {
  using namespace fp32;
  Aligned a;
  const uint32_t v[3] = {t0, d1, d2};
  for (uint32_t x : v) {
    a.nan = a.nan || exp_field(x) == 0xFFu;
    a.e = std::max(a.e, static_cast<int>(exp_field(x)));
  }
  for (int i = 0; i < 3; ++i) {
    const int e = static_cast<int>(exp_field(v[i]));
    const int64_t sig = e == 0 ? 0 : static_cast<int64_t>(frac_field(v[i]) | 0x800000u) << UV_G;  // DAZ
    const int s = a.e - e;
    const int64_t mag = s >= 24 + UV_G ? 0 : sig >> s;  // truncated
    a.m[i] = (v[i] & SIGN) ? -mag : mag;
  }
  return a;
}

uint32_t Interp::uv_lerp(int64_t b1, int64_t b2, const Aligned& a) {
  if (a.nan) return FP32_QNAN;
  // |b| < 2^33, |m| < 2^26: |s| < 2^60 + 2^50 (62 bits signed)
  const int64_t s = a.m[0] * (int64_t{1} << UV_F) + b1 * a.m[1] + b2 * a.m[2];
  return fp32::from_int128_scaled(s, a.e - 127 - 23 - UV_G - UV_F);
}

uint32_t Interp::color(uint32_t c0, uint32_t c1, uint32_t c2, const Bary& l) {
  const int64_t t1 = weight16(l.b1), t2 = weight16(l.b2);
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
      uv.u = uv_lerp(l.b1, l.b2, align(static_cast<uint32_t>(t.t0[i].u), static_cast<uint32_t>(t.d1[i].u),
                                   static_cast<uint32_t>(t.d2[i].u)));
      uv.v = uv_lerp(l.b1, l.b2, align(static_cast<uint32_t>(t.t0[i].v), static_cast<uint32_t>(t.d1[i].v),
                                   static_cast<uint32_t>(t.d2[i].v)));
      (i == 0 ? o.uv0 : o.uv1)[p] = uv;
    }
  }
  return o;
}

}  // namespace pineda::model
