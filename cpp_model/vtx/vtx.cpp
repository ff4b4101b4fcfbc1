// SPDX-License-Identifier: Apache-2.0
#include "vtx/vtx.h"

#include "fp32.h"

namespace pineda::model {

VertexTransform::Matrix VertexTransform::identity() {
  Matrix m{};
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = STATE_RESET[FE_MATRIX0 + 4 * r + c];
  }
  return m;
}

void VertexTransform::reset() {
  m_ = identity();
  vertices_ = 0;
}

FVec4 VertexTransform::transform(const Matrix& m, const FVec4& v) {
  const uint32_t in[4] = {static_cast<uint32_t>(v.x), static_cast<uint32_t>(v.y),
                          static_cast<uint32_t>(v.z), static_cast<uint32_t>(v.w)};
  uint32_t out[4];
  for (int r = 0; r < 4; ++r) {
    // ((M[r][0]*x + M[r][1]*y) + M[r][2]*z) + M[r][3]*w, each operation rounded.
    uint32_t s = fp32::add(fp32::mul(m[r][0], in[0]), fp32::mul(m[r][1], in[1]));
    s = fp32::add(s, fp32::mul(m[r][2], in[2]));
    out[r] = fp32::add(s, fp32::mul(m[r][3], in[3]));
  }
  FVec4 o;
  o.x = out[0];
  o.y = out[1];
  o.z = out[2];
  o.w = out[3];
  return o;
}

std::array<VtxInPkt, 4> VertexTransform::matrix_packets(const Matrix& m) {
  std::array<VtxInPkt, 4> p{};
  for (int r = 0; r < 4; ++r) {
    p[r].kind = VTX_KIND_MATRIX_ROW;
    p[r].row = static_cast<uint64_t>(r);
    p[r].pos.x = m[r][0];
    p[r].pos.y = m[r][1];
    p[r].pos.z = m[r][2];
    p[r].pos.w = m[r][3];
  }
  return p;
}

std::optional<ClipVtxPkt> VertexTransform::process(const VtxInPkt& in) {
  if (in.eop) {  // end-of-pipe token: forwarded in order, matrix untouched, not counted
    ClipVtxPkt token;
    token.eop = 1;
    return token;
  }
  if (in.kind == VTX_KIND_MATRIX_ROW) {
    const size_t r = static_cast<size_t>(in.row & 3u);
    m_[r] = {static_cast<uint32_t>(in.pos.x), static_cast<uint32_t>(in.pos.y),
             static_cast<uint32_t>(in.pos.z), static_cast<uint32_t>(in.pos.w)};
    return std::nullopt;
  }
  if (in.kind != VTX_KIND_VERTEX) return std::nullopt;
  ++vertices_;
  ClipVtxPkt o;
  o.pos = transform(m_, in.pos);
  o.color = in.color;
  o.tex0 = in.tex0;
  o.tex1 = in.tex1;
  o.vtx_id = in.vtx_id;
  return o;
}

}  // namespace pineda::model
