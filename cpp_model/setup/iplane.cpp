// SPDX-License-Identifier: Apache-2.0
#include "setup/iplane.h"

#include <algorithm>

#include "setup/setup.h"

namespace pineda::model {

std::array<uint64_t, 3> iplane_q(const std::array<uint32_t, 3>& rhw) {
  bool ok = true;
  uint32_t emax = 0;
  for (uint32_t r : rhw) {
    const uint32_t e = fp32::exp_field(r);
    ok = ok && (r & fp32::SIGN) == 0 && e != 0 && e != 0xFFu;
    emax = std::max(emax, e);
  }
  const uint64_t one = uint64_t{1} << (IPQ_W - 1);
  std::array<uint64_t, 3> q{one, one, one};
  if (!ok) return q;
  for (int k = 0; k < 3; ++k) {
    const uint32_t s = emax - fp32::exp_field(rhw[k]);
    const uint64_t sig9 = static_cast<uint64_t>(0x800000u | fp32::frac_field(rhw[k])) << 9;  // < 2^33
    q[k] = s >= 34 ? 0u : ((sig9 >> s) + 1u) >> 1;  // round(sig * 2^(8 - s)), half up
  }
  return q;
}

InterpTri interp_tri(const std::array<Vtx, 3>& v, const std::array<VAttr, 3>& a, int64_t area2) {
  using namespace fp32;
  const std::array<uint64_t, 3> q =
      iplane_q({static_cast<uint32_t>(a[0].rhw), static_cast<uint32_t>(a[1].rhw), static_cast<uint32_t>(a[2].rhw)});
  // L_k = sigma * Q_k * E_k with E_k the unbiased edge function of the edge v[k+1] -> v[k+2]
  // (API order; E_k(v[k]) = area2) and sigma the sign of area2, so that every L_k >= 0 inside.
  std::array<IPlane, 3> l;
  for (int k = 0; k < 3; ++k) {
    const Vtx& vi = v[static_cast<size_t>((k + 1) % 3)];
    const Vtx& vj = v[static_cast<size_t>((k + 2) % 3)];
    const int64_t ak = vi.y - vj.y, bk = vj.x - vi.x;             // |.| < 2^24
    const int64_t ek = ak * (128 - vi.x) + bk * (128 - vi.y);     // E_k at (128, 128): |.| < 2^49
    const int64_t sq = area2 < 0 ? -static_cast<int64_t>(q[static_cast<size_t>(k)]) : static_cast<int64_t>(q[static_cast<size_t>(k)]);
    l[static_cast<size_t>(k)].a = sq * ak;
    l[static_cast<size_t>(k)].b = sq * bk;
    l[static_cast<size_t>(k)].c = static_cast<bits::i128>(sq) * ek;
  }
  InterpTri it;
  it.w.a = l[0].a + l[1].a + l[2].a;
  it.w.b = l[0].b + l[1].b + l[2].b;
  it.w.c = l[0].c + l[1].c + l[2].c;
  it.l1 = l[1];
  it.l2 = l[2];
  for (const IPlane* p : {&it.w, &it.l1, &it.l2}) {
    check_signed(p->a, IPGRAD_W, "interpolation plane a");
    check_signed(p->b, IPGRAD_W, "interpolation plane b");
    check_signed(p->c, IPLANE_W, "interpolation plane c");
  }
  it.c0 = a[0].color;
  it.c1 = a[1].color;
  it.c2 = a[2].color;
  for (int i = 0; i < 2; ++i) {
    const auto uv = [&a, i](int k) -> const FVec2& { return i == 0 ? a[static_cast<size_t>(k)].uv0 : a[static_cast<size_t>(k)].uv1; };
    it.t0[i] = uv(0);
    it.d1[i].u = sub(static_cast<uint32_t>(uv(1).u), static_cast<uint32_t>(uv(0).u));
    it.d1[i].v = sub(static_cast<uint32_t>(uv(1).v), static_cast<uint32_t>(uv(0).v));
    it.d2[i].u = sub(static_cast<uint32_t>(uv(2).u), static_cast<uint32_t>(uv(0).u));
    it.d2[i].v = sub(static_cast<uint32_t>(uv(2).v), static_cast<uint32_t>(uv(0).v));
  }
  return it;
}

bits::i128 iplane_at_quad(const IPlane& p, uint64_t qx, uint64_t qy) {
  const bits::i128 c = p.c + 512 * (static_cast<bits::i128>(p.a) * static_cast<int64_t>(qx) +
                                    static_cast<bits::i128>(p.b) * static_cast<int64_t>(qy));
  check_signed(c, IPLANE_W, "interpolation plane at a quad");
  return c;
}

}  // namespace pineda::model
