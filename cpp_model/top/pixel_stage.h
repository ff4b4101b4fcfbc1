// SPDX-License-Identifier: Apache-2.0
// The pixel stage, twin of rtl/top/pixel_stage.sv: INTERP's quads -> TEX (stage 0 when
// om.comb.tex, then stage 1 when om.comb.tex1) -> COMB, in order (docs/comb.md section 5).
// COMB's output (alpha-killed pixels cleared; a quad left empty is dropped) goes on to ZS's late
// port and PW.
#pragma once

#include <cstdint>
#include <optional>

#include "comb/combiner.h"
#include "cp/cp.h"
#include "mem/memory.h"
#include "pineda_contract.h"
#include "tex/tex.h"

namespace pineda::model {

// TEX's input for INTERP's quad and combiner stage `stage` (0 or 1): live = pixels with a covered
// sample; stage 0 samples uv0 with the draw's FE_TEX0 / FE_SAMP0 (om.tex, om.samp), stage 1 uv1
// with FE_TEX1 / FE_SAMP1 (om.tex1, om.samp1); tag = the stage. A quad sends stage 0 when
// om.comb.tex and then stage 1 when om.comb.tex1 (tex_stages); pineda_top builds the same packets.
TexInPkt tex_in(const InterpPkt& ip, uint32_t stage = 0);
// The stages a quad samples, in TEX's order: bit 0 stage 0, bit 1 stage 1 (0 for a token).
uint32_t tex_stages(const QuadPkt& q);

class PixelStage {
 public:
  void reset();
  // One quad or token from INTERP: its texels (a stage that does not sample, and every token, gets
  // texel 0), then COMB. A TEX fault is not fatal: that stage's texels are 0 and the CP's sticky
  // STATUS.TEX_FAULT is set (cp.tex_fault()); decoding goes on. nullopt: the alpha test killed
  // every pixel of the quad.
  std::optional<InterpPkt> process(const InterpPkt& ip, const Memory& mem, CommandProcessor& cp);

  const tex::Tex& tex() const { return tex_; }
  const Combiner& comb() const { return comb_; }

 private:
  tex::Tex tex_;
  Combiner comb_;
};

}  // namespace pineda::model
