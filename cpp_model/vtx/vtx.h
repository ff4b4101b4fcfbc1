// SPDX-License-Identifier: Apache-2.0
// Vertex transform (rtl/vtx/vtx.sv; docs/contract.md section 5.1, docs/numerics.md section 7.5).
// In model::PinedaTop's front end between vertex fetch (vf_vtx) and PA (vtx_clip).
//
// A stream of VtxInPkt in order: VTX_KIND_MATRIX_ROW packets replace one row of the position
// matrix (reset: identity) for the vertices behind them; each VTX_KIND_VERTEX packet gives one
// ClipVtxPkt with, for each row r, clip[r] = ((M[r][0]*x + M[r][1]*y) + M[r][2]*z) + M[r][3]*w
// in FP32 (fp32::mul, fp32::add; no fused multiply-add) and colour, texture coordinates and
// vtx_id passed through. Other kinds are consumed and ignored. An end-of-pipe token (eop = 1)
// leaves as a ClipVtxPkt token (every other field 0), in order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "pineda_contract.h"

namespace pineda::model {

class VertexTransform {
 public:
  using Matrix = std::array<std::array<uint32_t, 4>, 4>;  // [row][column], FP32 bit patterns

  VertexTransform() { reset(); }
  void reset();

  // The output for a vertex; nothing for a matrix row (or a reserved kind).
  std::optional<ClipVtxPkt> process(const VtxInPkt& in);

  // M * v in the documented order, for one position.
  static FVec4 transform(const Matrix& m, const FVec4& v);
  // The four MATRIX_ROW packets that load m.
  static std::array<VtxInPkt, 4> matrix_packets(const Matrix& m);
  static Matrix identity();

  const Matrix& matrix() const { return m_; }
  uint64_t vertices() const { return vertices_; }

 private:
  Matrix m_{};
  uint64_t vertices_ = 0;
};

}  // namespace pineda::model
