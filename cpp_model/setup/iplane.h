// SPDX-License-Identifier: Apache-2.0
// The interpolation planes (docs/numerics.md section 10): SETUP's 1/w plane and the two
// perspective-barycentric planes of a triangle, with its vertex attributes, as INTERP reads them.
#pragma once

#include <array>
#include <cstdint>

#include "fp32.h"
#include "pineda_contract.h"

namespace pineda::model {

// A plane P(X, Y) = p0 + a*(X - x0) + b*(Y - y0) (2^-IP_FRAC units, 16.8 positions) through the
// values p[k] (FP32) at the three vertices, the FP32 order of the depth plane (section 9.2)
// without the depth scale.
struct IPlaneGrad {
  int64_t a = 0, b = 0, p0 = 0;
};
IPlaneGrad iplane_grad(const std::array<Vtx, 3>& v, const std::array<uint32_t, 3>& p, int64_t area2);

// The normalised 1/w of the three vertices (q_k = rhw_k * 2^(127 - max exponent); all 1.0 when
// an rhw is not a positive normal finite number).
std::array<uint32_t, 3> iplane_q(const std::array<uint32_t, 3>& rhw);

// SETUP's interpolation state of a non-degenerate triangle (API order, area2 its signed doubled
// area, non-zero): planes with c = the value at vertex 0 (org), the colours, uv and deltas.
InterpTri interp_tri(const std::array<Vtx, 3>& v, const std::array<VAttr, 3>& a, int64_t area2);

// A plane's value at the centre of pixel (2*qx, 2*qy) (exact; INTERP's first step).
int64_t iplane_at_quad(const IPlane& p, const Vtx& org, uint64_t qx, uint64_t qy);

}  // namespace pineda::model
