// SPDX-License-Identifier: Apache-2.0
#include "setup/iplane.h"

#include <algorithm>

#include "setup/setup.h"

namespace pineda::model {

IPlaneGrad iplane_grad(const std::array<Vtx, 3>& v, const std::array<uint32_t, 3>& p, int64_t area2) {
  using namespace fp32;
  const uint32_t fx1 = from_int(v[1].x - v[0].x), fy1 = from_int(v[1].y - v[0].y);
  const uint32_t fx2 = from_int(v[2].x - v[0].x), fy2 = from_int(v[2].y - v[0].y);
  const uint32_t ra = rcp(from_int(area2));
  const uint32_t d1 = sub(p[1], p[0]), d2 = sub(p[2], p[0]);
  const uint32_t nx = sub(mul(d1, fy2), mul(d2, fy1));
  const uint32_t ny = sub(mul(d2, fx1), mul(d1, fx2));
  IPlaneGrad g;
  g.a = to_fix(mul(nx, ra), IP_FRAC, IPGRAD_W);
  g.b = to_fix(mul(ny, ra), IP_FRAC, IPGRAD_W);
  g.p0 = to_fix(p[0], IP_FRAC, IPREF_W);
  return g;
}

std::array<uint32_t, 3> iplane_q(const std::array<uint32_t, 3>& rhw) {
  bool ok = true;
  uint32_t emax = 0;
  for (uint32_t r : rhw) {
    const uint32_t e = fp32::exp_field(r);
    ok = ok && (r & fp32::SIGN) == 0 && e != 0 && e != 0xFFu;
    emax = std::max(emax, e);
  }
  std::array<uint32_t, 3> q{FP32_ONE, FP32_ONE, FP32_ONE};
  if (!ok) return q;
  for (int k = 0; k < 3; ++k) {
    const uint32_t e = fp32::exp_field(rhw[k]);
    const uint32_t ne = e + 127u - emax;  // e <= emax: 127 - (emax - e), below 1: flushed to +0
    q[k] = (e + 127u <= emax) ? 0u : ((ne << 23) | fp32::frac_field(rhw[k]));
  }
  return q;
}

static IPlane to_plane(const IPlaneGrad& g) {
  IPlane p;
  p.a = g.a;
  p.b = g.b;
  p.c = g.p0;
  return p;
}

InterpTri interp_tri(const std::array<Vtx, 3>& v, const std::array<VAttr, 3>& a, int64_t area2) {
  using namespace fp32;
  const std::array<uint32_t, 3> q =
      iplane_q({static_cast<uint32_t>(a[0].rhw), static_cast<uint32_t>(a[1].rhw), static_cast<uint32_t>(a[2].rhw)});
  InterpTri it;
  it.org = v[0];
  it.w = to_plane(iplane_grad(v, q, area2));
  it.l1 = to_plane(iplane_grad(v, {0u, q[1], 0u}, area2));
  it.l2 = to_plane(iplane_grad(v, {0u, 0u, q[2]}, area2));
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

int64_t iplane_at_quad(const IPlane& p, const Vtx& org, uint64_t qx, uint64_t qy) {
  const int64_t dx = static_cast<int64_t>(qx) * 512 + 128 - org.x;
  const int64_t dy = static_cast<int64_t>(qy) * 512 + 128 - org.y;
  const int64_t c = p.c + p.a * dx + p.b * dy;
  check_signed(c, IPLANE_W, "interpolation plane at a quad");
  return c;
}

}  // namespace pineda::model
