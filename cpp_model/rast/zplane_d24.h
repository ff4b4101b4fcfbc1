// SPDX-License-Identifier: Apache-2.0
// The depth plane (docs/numerics.md section 9), shared by PA (the clamp range), setup (the
// plane), the coarse (tile bounds) and the fine rasterizer (per-sample depth).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "fp32.h"
#include "pineda_contract.h"

namespace pineda::model {

constexpr uint32_t kFp32DepthScale = 0x4B7FFFFFu;  // 16777215.0f = 2^24 - 1, exact in FP32

// D24 of a plane value Z (2^-Z_FRAC units): round half up, then clamp to [lo, hi] (lo <= hi).
inline uint32_t zplane_d24(int64_t z, uint32_t lo, uint32_t hi) {
  const int64_t r = (z + (int64_t{1} << (Z_FRAC - 1))) >> Z_FRAC;  // arithmetic shift = floor
  if (r < static_cast<int64_t>(lo)) return lo;
  if (r > static_cast<int64_t>(hi)) return hi;
  return static_cast<uint32_t>(r);
}

// A vertex depth (FP32, D3D [0, 1] range) in plane units: to_fix(z * (2^24 - 1), Z_FRAC, ZREF_W).
inline int64_t zplane_ref(uint32_t z) { return fp32::to_fix(fp32::mul(z, kFp32DepthScale), Z_FRAC, ZREF_W); }

// The clamp bound of a viewport depth (FE_VP_ZMIN / FE_VP_ZMAX): its D24, clamped to [0, DEPTH_MAX].
inline uint32_t zplane_bound(uint32_t v) { return zplane_d24(zplane_ref(v), 0, DEPTH_MAX); }

// The plane's gradients (API vertex order; 16.8 positions; z FP32). area2 is the signed doubled
// area of the API order (non-zero).
struct ZGrad {
  int64_t a = 0, b = 0, z0 = 0;
};
inline ZGrad zplane_grad(const std::array<Vtx, 3>& v, const std::array<Dword, 3>& z, int64_t area2) {
  using namespace fp32;
  const uint32_t zs0 = mul(static_cast<uint32_t>(z[0].data), kFp32DepthScale);
  const uint32_t zs1 = mul(static_cast<uint32_t>(z[1].data), kFp32DepthScale);
  const uint32_t zs2 = mul(static_cast<uint32_t>(z[2].data), kFp32DepthScale);
  const uint32_t fx1 = from_int(v[1].x - v[0].x), fy1 = from_int(v[1].y - v[0].y);
  const uint32_t fx2 = from_int(v[2].x - v[0].x), fy2 = from_int(v[2].y - v[0].y);
  const uint32_t ra = rcp(from_int(area2));
  const uint32_t dz1 = sub(zs1, zs0), dz2 = sub(zs2, zs0);
  const uint32_t nx = sub(mul(dz1, fy2), mul(dz2, fy1));
  const uint32_t ny = sub(mul(dz2, fx1), mul(dz1, fx2));
  ZGrad g;
  g.a = to_fix(mul(nx, ra), Z_FRAC, ZGRAD_W);
  g.b = to_fix(mul(ny, ra), Z_FRAC, ZGRAD_W);
  g.z0 = to_fix(zs0, Z_FRAC, ZREF_W);
  return g;
}

}  // namespace pineda::model
