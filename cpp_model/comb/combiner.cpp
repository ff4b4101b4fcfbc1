// SPDX-License-Identifier: Apache-2.0
#include "comb/combiner.h"

namespace pineda::model {

namespace {
uint32_t ch(uint32_t v, int k) { return (v >> (8 * k)) & 255u; }
}  // namespace

uint32_t Combiner::stage(uint32_t mode, uint32_t c, uint32_t t) {
  const uint32_t ta = ch(t, 3);
  uint32_t out = 0;
  for (int k = 0; k < 4; ++k) {
    const uint32_t cc = ch(c, k), tc = ch(t, k);
    uint32_t o = cc;
    switch (mode) {
      case COMB_MODULATE: o = mul8(tc, cc); break;
      case COMB_REPLACE: o = tc; break;
      case COMB_ADD: o = k == 3 ? mul8(tc, cc) : (tc + cc > 255u ? 255u : tc + cc); break;
      case COMB_DECAL: o = k == 3 ? cc : div255(tc * ta + cc * (255u - ta)); break;
      default: break;  // reserved: the colour passes
    }
    out |= o << (8 * k);
  }
  return out;
}

uint32_t Combiner::a2c_mask(uint32_t a, bool msaa) {
  if (!msaa) return a >= 128u ? 1u : 0u;
  static constexpr uint32_t kMask[5] = {0x0u, 0x1u, 0x9u, 0xBu, 0xFu};
  return kMask[(4u * (a & 255u) + 128u) >> 8];
}

uint32_t Combiner::pixel(const CombState& st, uint32_t color, uint32_t texel0, uint32_t texel1, bool* killed) {
  uint32_t c = color;
  if (st.tex) c = stage(static_cast<uint32_t>(st.mode), c, texel0);
  if (st.tex1) c = stage(static_cast<uint32_t>(st.mode1), c, texel1);
  *killed = st.alpha_test &&
            !cmp_pass(static_cast<uint32_t>(st.alpha_func), c >> 24, static_cast<uint32_t>(st.alpha_ref));
  return c;
}

std::optional<InterpPkt> Combiner::process(const CombInPkt& in) {
  InterpPkt out = in.ip;
  if (in.ip.quad.eop) return out;
  ++quads_;
  const bool msaa = in.ip.quad.target.msaa != 0;
  uint64_t mask = in.ip.quad.mask;
  for (int p = 0; p < 4; ++p) {
    bool killed = false;
    out.pcolor[p].data = pixel(in.st, static_cast<uint32_t>(in.ip.pcolor[p].data),
                               static_cast<uint32_t>(in.texel0[p].data), static_cast<uint32_t>(in.texel1[p].data),
                               &killed);
    const uint64_t bits = msaa ? uint64_t{0xF} << (4 * p) : uint64_t{1} << p;
    if (killed) {
      if (mask & bits) ++killed_;
      mask &= ~bits;
      continue;
    }
    if (in.st.a2c) {
      const uint64_t keep = uint64_t{a2c_mask(static_cast<uint32_t>(out.pcolor[p].data) >> 24, msaa)} << (msaa ? 4 * p : p);
      const uint64_t off = mask & bits & ~keep;
      for (uint64_t b = off; b; b &= b - 1) ++a2c_;
      mask &= ~off;
    }
  }
  out.quad.mask = mask;
  for (int i = 0; i < 16; ++i) {
    if (!((mask >> i) & 1u)) out.quad.z[i].v = 0;
  }
  if (mask == 0) {
    ++dropped_;
    return std::nullopt;
  }
  return out;
}

}  // namespace pineda::model
