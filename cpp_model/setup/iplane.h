// SPDX-License-Identifier: Apache-2.0
// The interpolation planes (docs/numerics.md section 10): SETUP's three exact integer planes
// W = L0 + L1 + L2, L1, L2 of a triangle (L_k = Q_k * E_k, E_k its integer edge functions, Q_k
// the normalised 1/w), with its vertex attributes, as INTERP reads them.
#pragma once

#include <array>
#include <cstdint>

#include "fp32.h"
#include "pineda_contract.h"

namespace pineda::model {

// The normalised 1/w of the three vertices as unsigned IPQ_W-bit integers: with e the largest
// exponent field and s_k = e - e_k, Q_k = round(sig_k * 2^(8 - s_k)) (half up; sig_k the 24-bit
// significand), so the largest is in [2^31, 2^32); all 2^31 (1.0) when an rhw is not a positive
// normal finite number.
std::array<uint64_t, 3> iplane_q(const std::array<uint32_t, 3>& rhw);

// SETUP's interpolation state of a non-degenerate triangle (API order, area2 its signed doubled
// area, non-zero): the planes (c at the centre of pixel (0, 0)), the colours, uv and deltas.
InterpTri interp_tri(const std::array<Vtx, 3>& v, const std::array<VAttr, 3>& a, int64_t area2);

// A plane's value at the centre of pixel (2*qx, 2*qy): c + 512*(a*qx + b*qy) (exact; INTERP's
// first step).
bits::i128 iplane_at_quad(const IPlane& p, uint64_t qx, uint64_t qy);

}  // namespace pineda::model
