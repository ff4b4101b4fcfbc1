// SPDX-License-Identifier: Apache-2.0
#include "top/pixel_stage.h"

namespace pineda::model {

TexInPkt tex_in(const InterpPkt& ip, uint32_t stage) {
  const QuadPkt& q = ip.quad;
  TexInPkt t;
  for (size_t p = 0; p < 4; ++p) {
    t.tc[p] = stage ? ip.uv1[p] : ip.uv0[p];
    const uint64_t cov = q.target.msaa ? (q.mask >> (4 * p)) & 0xFu : (q.mask >> p) & 1u;
    if (cov != 0) t.live |= 1u << p;
  }
  t.tex = stage ? q.om.tex1 : q.om.tex;
  t.samp = stage ? q.om.samp1 : q.om.samp;
  t.tag = stage;
  return t;
}

uint32_t tex_stages(const QuadPkt& q) {
  if (q.eop) return 0;
  return static_cast<uint32_t>((q.om.comb.tex ? 1u : 0u) | (q.om.comb.tex1 ? 2u : 0u));
}

void PixelStage::reset() {
  tex_ = tex::Tex{};
  comb_ = Combiner{};
}

std::optional<InterpPkt> PixelStage::process(const InterpPkt& ip, const Memory& mem, CommandProcessor& cp) {
  CombInPkt ci;
  ci.ip = ip;
  ci.st = ip.quad.om.comb;
  const uint32_t stages = tex_stages(ip.quad);
  for (uint32_t stage = 0; stage < 2; ++stage) {
    if (!((stages >> stage) & 1u)) continue;
    const TexOutPkt to = tex_.process(tex_in(ip, stage), mem, cp.valid_base(), cp.valid_limit());
    if (to.fault != TEX_FAULT_NONE) cp.tex_fault();
    for (size_t p = 0; p < 4; ++p) (stage ? ci.texel1 : ci.texel0)[p] = to.color[p];
  }
  return comb_.process(ci);
}

}  // namespace pineda::model
