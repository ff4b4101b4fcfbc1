// SPDX-License-Identifier: Apache-2.0
// INTERP's precision on large clipped triangles (issue 29; docs/numerics.md section 10.4): a
// floor receding to the horizon drawn as two triangles whose near vertices lie beyond the +-2w
// guard band (PA clips them into fans) against the same floor as 24 x 24 small quads and against
// double-precision evaluations: of the very triangles INTERP is given (snapped vertices, FP32 1/w
// and coordinates: INTERP's own error, everywhere up to the horizon) and of the floor itself at
// every pixel centre where a texel covers at least a pixel (there snapping errors stay small too).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "fp32.h"
#include "interp/interp.h"
#include "pa/pa.h"
#include "pa_streams.h"
#include "setup/setup.h"
#include "test_util.h"

using namespace pineda;
using pa_test::P;

namespace {

// The floor y = -1 of a camera at the origin looking down +z (clip x = X, y = Y, w = Z, z = w/2),
// X in [-H, H], Z in [ZN, ZF]; u = 8 (X + H) / 2H, v = 32 (Z - ZN) / (ZF - ZN); texture 256 texels.
constexpr double H = 40.0, ZN = 0.25, ZF = 400.0, TEX = 256.0;
constexpr int VW = 640, VH = 480;

double u_of(double x) { return 8.0 * (x + H) / (2.0 * H); }
double v_of(double z) { return 32.0 * (z - ZN) / (ZF - ZN); }

// The exact texture coordinates at the centre of pixel (px, py): the floor point on its ray.
bool reference(int64_t px, int64_t py, double& u, double& v) {
  const double nx = (double(px) + 0.5) / (VW / 2.0) - 1.0;
  const double ny = 1.0 - (double(py) + 0.5) / (VH / 2.0);
  if (ny >= 0) return false;
  const double z = -1.0 / ny, x = nx * z;
  if (z < ZN || z > ZF || x < -H || x > H) return false;
  u = u_of(x);
  v = v_of(z);
  return true;
}

// Renders the floor as n x n quads through PA (clipping, projection, snap), SETUP's planes and
// INTERP; returns uv0 (in texels) at every pixel centre inside (closed) a triangle; *own is the
// largest difference (texels) from the exact perspective interpolation of the same triangle.
std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> render(int n, uint64_t* clipped, double* own) {
  *own = 0;
  pa_test::Streams s;
  s.viewport(0, 0, VW, VH, VW, VH);
  s.wr(FE_RASTER, 0);  // no culling
  std::vector<std::array<uint32_t, 4>> pos;
  std::vector<std::array<uint32_t, 3>> tris;
  std::vector<std::pair<double, double>> uv;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const double x = -H + 2.0 * H * i / n;
      const double z = ZN + (ZF - ZN) * j / n;
      pos.push_back(P(float(x), -1.0f, float(z * 0.5), float(z)));
      uv.emplace_back(u_of(x), v_of(z));
    }
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const uint32_t a = uint32_t(j * (n + 1) + i), b = a + 1, c = a + uint32_t(n + 1), d = c + 1;
      tris.push_back({a, b, d});
      tris.push_back({a, d, c});
    }
  }
  // One batch per triangle (a batch holds up to 32 vertices).
  for (const auto& t : tris) {
    s.batch({pos[t[0]], pos[t[1]], pos[t[2]]}, {{0, 1, 2}});
    for (int k = 0; k < 3; ++k) {
      ClipVtxPkt& cv = s.vtx[s.vtx.size() - 3 + size_t(k)];
      cv.tex0.u = fp32::bits_of(float(uv[t[size_t(k)]].first));
      cv.tex0.v = fp32::bits_of(float(uv[t[size_t(k)]].second));
    }
  }
  model::PrimitiveAssembly pa;
  const auto out = model::run_pa(s.vtx, s.prims, &pa);
  *clipped = pa.stats().clipped;
  std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> px;
  model::Setup setup;
  model::Interp ip;
  for (const PaTriPkt& pt : out) {
    const TriPkt t = model::pa_to_tri(pt);
    const auto sp = setup.process(t);
    if (!sp) continue;
    const int64_t a2 = model::Setup::area2(t.v[0], t.v[1], t.v[2]);
    const double sg = a2 < 0 ? -1.0 : 1.0;
    for (uint64_t qy = sp->pix.y0 / 2; qy <= (sp->pix.y1 - 1) / 2; ++qy) {
      for (uint64_t qx = sp->pix.x0 / 2; qx <= (sp->pix.x1 - 1) / 2; ++qx) {
        QuadPkt q;
        q.qx = qx;
        q.qy = qy;
        q.mask = 0xF;
        q.it = sp->it;
        const InterpPkt o = ip.process(q);
        for (int p = 0; p < 4; ++p) {
          const int64_t x = int64_t(2 * qx) + (p & 1), y = int64_t(2 * qy) + (p >> 1);
          const int64_t X = 256 * x + 128, Y = 256 * y + 128;
          bool in = true;
          for (int k = 0; k < 3; ++k) {
            const Vtx& vi = t.v[size_t(k)];
            const Vtx& vj = t.v[size_t((k + 1) % 3)];
            const double e = double((vi.y - vj.y) * (X - vi.x) + (vj.x - vi.x) * (Y - vi.y));
            in = in && sg * e >= 0;
          }
          if (!in) continue;
          // The exact perspective interpolation of this triangle (double).
          const double x0 = double(t.v[0].x), y0 = double(t.v[0].y), x1 = double(t.v[1].x), y1 = double(t.v[1].y);
          const double x2 = double(t.v[2].x), y2 = double(t.v[2].y), A = double(a2);
          const double l1 = ((double(X) - x0) * (y2 - y0) - (double(Y) - y0) * (x2 - x0)) / A;
          const double l2 = ((double(Y) - y0) * (x1 - x0) - (double(X) - x0) * (y1 - y0)) / A;
          const double l[3] = {1.0 - l1 - l2, l1, l2};
          double r[3], rs = 0, eu = 0, ev = 0;
          for (int k = 0; k < 3; ++k) {
            r[k] = l[k] * double(fp32::float_of(uint32_t(t.a[size_t(k)].rhw)));
            rs += r[k];
          }
          for (int k = 0; k < 3; ++k) {
            eu += r[k] / rs * double(fp32::float_of(uint32_t(t.a[size_t(k)].uv0.u)));
            ev += r[k] / rs * double(fp32::float_of(uint32_t(t.a[size_t(k)].uv0.v)));
          }
          const double gu = double(fp32::float_of(uint32_t(o.uv0[p].u))), gv = double(fp32::float_of(uint32_t(o.uv0[p].v)));
          *own = std::max(*own, std::max(std::fabs(gu - eu), std::fabs(gv - ev)) * TEX);
          px[{x, y}] = {double(fp32::float_of(uint32_t(o.uv0[p].u))) * TEX,
                        double(fp32::float_of(uint32_t(o.uv0[p].v))) * TEX};
        }
      }
    }
  }
  return px;
}

struct Err {
  double max = 0;
  uint64_t n = 0;
  void add(double e) {
    max = std::max(max, e);
    ++n;
  }
};

}  // namespace

TEST_CASE("interp floor: a clipped floor to the horizon is within 1/256 texel of exact", "[interp][interp_floor]") {
  uint64_t clipped2 = 0, clipped24 = 0;
  double own_big = 0, own_tess = 0;
  const auto big = render(1, &clipped2, &own_big);
  const auto tess = render(24, &clipped24, &own_tess);
  CHECK(clipped2 >= 2);  // both large triangles reach beyond the guard band
  // Pixels where a texel covers at least a pixel (|d uv / d px| <= 1 texel).
  const auto magnified = [](const std::pair<int64_t, int64_t>& p) {
    double u, v, ux, vx, uy, vy;
    if (!reference(p.first, p.second, u, v) || !reference(p.first + 1, p.second, ux, vx) ||
        !reference(p.first, p.second + 1, uy, vy)) {
      return false;
    }
    return std::max({std::fabs(ux - u), std::fabs(vx - v), std::fabs(uy - u), std::fabs(vy - v)}) * TEX <= 1.0;
  };
  Err e_big, e_tess, e_diff;
  for (const auto& [p, uv] : big) {
    double u, v;
    if (!magnified(p) || !reference(p.first, p.second, u, v)) continue;
    e_big.add(std::max(std::fabs(uv.first - u * TEX), std::fabs(uv.second - v * TEX)));
    const auto it = tess.find(p);
    if (it != tess.end()) {
      e_diff.add(std::max(std::fabs(uv.first - it->second.first), std::fabs(uv.second - it->second.second)));
    }
  }
  for (const auto& [p, uv] : tess) {
    double u, v;
    if (!magnified(p) || !reference(p.first, p.second, u, v)) continue;
    e_tess.add(std::max(std::fabs(uv.first - u * TEX), std::fabs(uv.second - v * TEX)));
  }
  std::printf("interp floor: %zu px; against the same triangles exactly: clipped %.6f, tessellated %.6f texel; "
              "magnified %llu px against the floor: clipped %.6f, tessellated %.6f, clipped vs tessellated %.6f texel\n",
              big.size(), own_big, own_tess, (unsigned long long)e_big.n, e_big.max, e_tess.max, e_diff.max);
  CHECK(big.size() > 100000);
  CHECK(e_big.n > 50000);
  CHECK(own_big <= 1.0 / 256);  // docs/numerics.md section 10.4
  CHECK(own_tess <= 1.0 / 256);
  CHECK(e_big.max <= 1.0 / 256);   // docs/numerics.md section 10.4
  CHECK(e_tess.max <= 1.0 / 256);
  CHECK(e_diff.max <= 1.0 / 256);
}
