// SPDX-License-Identifier: Apache-2.0
#include "ia/ia.h"

#include <algorithm>

namespace pineda::model {

int64_t InputAssembler::saturate(uint32_t raw) {
  const int64_t v = static_cast<int32_t>(raw);
  return std::clamp<int64_t>(v, -(int64_t{1} << 23), (int64_t{1} << 23) - 1);
}

void InputAssembler::process(const DrawPkt& draw, const Memory& mem,
                             const std::function<void(const TriPkt&)>& emit) {
  if (draw.eop) {  // end-of-pipe token: forwarded after the earlier draws' triangles
    TriPkt token;
    token.eop = 1;
    emit(token);
    return;
  }
  const uint32_t base = static_cast<uint32_t>(draw.vb_base) + static_cast<uint32_t>(draw.first_vertex) * VERTEX_BYTES;
  const uint64_t tris = draw.vertex_count / 3;
  uint32_t addr = base;
  for (uint64_t t = 0; t < tris; ++t) {
    TriPkt p;
    for (int k = 0; k < 3; ++k) {
      p.v[k].x = saturate(mem.read32(addr));
      p.v[k].y = saturate(mem.read32(addr + 4));
      addr += VERTEX_BYTES;
    }
    p.color = draw.color;
    p.target = draw.target;
    p.clip = draw.clip;
    p.tri_id = tri_id_++;
    p.front = 1;  // screen-space triangles have no facing: front (docs/depth.md)
    for (auto& a : p.a) {  // per-vertex attributes: 1/w = 1.0, the draw colour, uv 0 (vattr_t)
      a.rhw = FP32_ONE;
      a.color = draw.color;
    }
    emit(p);
  }
}

std::vector<TriPkt> InputAssembler::process(const DrawPkt& draw, const Memory& mem) {
  std::vector<TriPkt> out;
  process(draw, mem, [&out](const TriPkt& t) { out.push_back(t); });
  return out;
}

}  // namespace pineda::model
