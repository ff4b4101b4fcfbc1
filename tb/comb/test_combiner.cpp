// SPDX-License-Identifier: Apache-2.0
// RTL vs model: COMB (rtl/comb/combiner.sv vs cpp_model/comb), four stall patterns. Directed:
// every mode of both stages with edge colours (0, 1, 127, 128, 254, 255), every alpha function
// against references around the edges, 1x and 4x kills, quads killed whole (dropped), tokens.
// Random: random state, colours, texels and coverage per quad. The seed is printed; replay
// with --rng-seed.
#define CATCH_CONFIG_MAIN
#include "Vcombiner.h"
#include "comb/combiner.h"
#include "random_prims.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

const uint32_t kEdge[] = {0, 1, 127, 128, 254, 255};

uint32_t edge_rgba(tb::PrimGen& g) {
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= kEdge[g.range(0, 5)] << (8 * k);
  return v;
}

CombState state(uint32_t word) {
  const std::array<uint32_t, 1> w{word & ((1u << CombState::WIDTH) - 1)};
  return CombState::unpack(w.data());
}

uint32_t comb_word(bool tex, uint32_t mode, bool at, uint32_t func, uint32_t ref, bool tex1, uint32_t mode1) {
  return (tex ? 1u << COMB_TEX_ENABLE_BIT : 0u) | mode << COMB_MODE_LSB | (at ? 1u << COMB_ALPHA_TEST_BIT : 0u) |
         func << COMB_ALPHA_FUNC_LSB | ref << COMB_ALPHA_REF_LSB | (tex1 ? 1u << COMB1_TEX_ENABLE_BIT : 0u) |
         mode1 << COMB1_MODE_LSB;
}

// A covered quad with random payload (the fields the combiner only carries are random too).
CombInPkt rand_quad(tb::PrimGen& g, uint32_t word, bool edges) {
  CombInPkt in;
  in.st = state(word);
  QuadPkt& q = in.ip.quad;
  q.qx = static_cast<uint64_t>(g.range(0, 8191));
  q.qy = static_cast<uint64_t>(g.range(0, 8191));
  q.target.msaa = g.chance(0.3) ? 1 : 0;
  q.target.base = g.bits64() & 0xFFFFFFC0u;
  q.mask = q.target.msaa ? static_cast<uint64_t>(g.range(1, 0xFFFF)) : static_cast<uint64_t>(g.range(1, 0xF));
  q.color = g.bits64() & 0xFFFFFFFFu;
  q.tri_id = g.bits64() & 0xFFFFFFFFu;
  q.front = g.chance(0.5) ? 1 : 0;
  q.om.blend = g.chance(0.3) ? 1 : 0;
  q.om.factor = g.bits64() & 0xFFFFFFFFu;
  q.ds.z_enable = 1;
  for (int i = 0; i < 16; ++i) q.z[i].v = ((q.mask >> i) & 1u) ? static_cast<uint64_t>(g.range(0, DEPTH_MAX)) : 0u;
  for (int p = 0; p < 4; ++p) {
    in.ip.pcolor[p].data = edges ? edge_rgba(g) : g.bits64() & 0xFFFFFFFFu;
    in.texel0[p].data = edges ? edge_rgba(g) : g.bits64() & 0xFFFFFFFFu;
    in.texel1[p].data = edges ? edge_rgba(g) : g.bits64() & 0xFFFFFFFFu;
    in.ip.uv0[p].u = g.bits64() & 0xFFFFFFFFu;
    in.ip.uv1[p].v = g.bits64() & 0xFFFFFFFFu;
  }
  return in;
}

CombInPkt token() {
  CombInPkt t;
  t.ip.quad.eop = 1;
  return t;
}

void run(const std::string& name, const std::vector<CombInPkt>& in, uint64_t seed) {
  model::Combiner cb;
  std::vector<InterpPkt> exp;
  for (const auto& p : in) {
    if (auto o = cb.process(p)) exp.push_back(*o);
  }
  std::printf("  %s: %zu quads in, %zu out, %llu pixels killed, %llu quads dropped\n", name.c_str(), in.size(),
              exp.size(), static_cast<unsigned long long>(cb.killed_pixels()),
              static_cast<unsigned long long>(cb.dropped_quads()));
  tb::check_unit<Vcombiner>(name, in, exp, seed);
}

}  // namespace

TEST_CASE("combiner: every mode of both stages, every alpha function, edge values") {
  const uint64_t seed = tb::announce_seed("rtl_combiner");
  tb::PrimGen g(seed);
  std::vector<CombInPkt> in;
  // Every stage-0 mode x stage-1 mode (reserved codes included), texturing on/off, edge colours.
  for (uint32_t m0 = 0; m0 < 8; ++m0) {
    for (uint32_t m1 = 0; m1 < 8; ++m1) {
      for (int en = 0; en < 4; ++en) {
        for (int k = 0; k < 3; ++k) in.push_back(rand_quad(g, comb_word(en & 1, m0, false, 0, 0, en & 2, m1), true));
      }
    }
  }
  // Every alpha function against references at and around the colour's alpha.
  for (uint32_t f = 0; f < 8; ++f) {
    for (uint32_t ref : kEdge) {
      for (int k = 0; k < 6; ++k) {
        const bool tex = g.chance(0.5);
        in.push_back(rand_quad(g, comb_word(tex, static_cast<uint32_t>(g.range(0, 3)), true, f, ref, false, 0), true));
      }
    }
    in.push_back(token());
  }
  in.push_back(token());
  run("directed", in, seed);
}

TEST_CASE("combiner: random state, colours and coverage, tokens, random stalls") {
  const uint64_t seed = tb::announce_seed("rtl_combiner");
  tb::PrimGen g(seed);
  std::vector<CombInPkt> in;
  for (int i = 0; i < 3000; ++i) {
    uint32_t w = static_cast<uint32_t>(g.bits64());
    if (g.chance(0.5)) w &= ~(4u << COMB_MODE_LSB | 4u << COMB1_MODE_LSB);  // mostly the defined modes
    in.push_back(rand_quad(g, w, g.chance(0.3)));
    while (g.chance(0.02)) in.push_back(token());
  }
  in.push_back(token());
  run("random", in, seed);
}

TEST_CASE("combiner: alpha to coverage, every alpha at 1x and 4x, with and without the alpha test") {
  const uint64_t seed = tb::announce_seed("rtl_combiner");
  tb::PrimGen g(seed);
  // The documented mapping, written out independently of the model: 4x keeps n samples,
  // n = #{32, 96, 160, 224 <= a}, masks 0x0, 0x1, 0x9, 0xB, 0xF; 1x keeps the pixel when a >= 128.
  const auto want = [](uint32_t a, bool msaa) -> uint32_t {
    const uint32_t n = (a >= 32) + (a >= 96) + (a >= 160) + (a >= 224);
    const uint32_t m4[5] = {0x0, 0x1, 0x9, 0xB, 0xF};
    return msaa ? m4[n] : (a >= 128 ? 1u : 0u);
  };
  std::vector<CombInPkt> in;
  uint64_t checked = 0;
  for (const bool msaa : {false, true}) {
    for (uint32_t a = 0; a < 256; ++a) {
      for (int at = 0; at < 2; ++at) {
        // stage 0 MODULATE with a texel of alpha 255 now and then: the mask follows the final alpha
        const bool tex = g.chance(0.3);
        const uint32_t w = comb_word(tex, COMB_MODULATE, at != 0, CMP_GREATER, 200, false, 0) | 1u << COMB_ALPHA_TO_COVERAGE_BIT;
        CombInPkt q = rand_quad(g, w, false);
        q.ip.quad.target.msaa = msaa ? 1 : 0;
        q.ip.quad.mask = msaa ? 0xFFFFu : 0xFu;
        for (int i = 0; i < 16; ++i) q.ip.quad.z[i].v = ((q.ip.quad.mask >> i) & 1u) ? 1000u + i : 0u;
        for (int p = 0; p < 4; ++p) {
          const uint32_t ap = (a + 61u * p) & 255u;  // four alphas per quad
          q.ip.pcolor[p].data = (q.ip.pcolor[p].data & 0xFFFFFFu) | ap << 24;
          q.texel0[p].data |= 0xFF000000u;
        }
        in.push_back(q);
        // the model against the mapping
        model::Combiner cb;
        const auto o = cb.process(q);
        uint64_t m = 0;
        for (uint32_t p = 0; p < 4; ++p) {
          const uint32_t ap = (a + 61u * p) & 255u;
          const bool killed = at != 0 && !(ap > 200u);
          if (!killed) m |= uint64_t{want(ap, msaa)} << (msaa ? 4 * p : p);
        }
        if (m == 0) {
          REQUIRE(!o.has_value());
        } else {
          REQUIRE(o.has_value());
          REQUIRE(o->quad.mask == m);
        }
        ++checked;
      }
    }
    in.push_back(token());
  }
  // 1x and 4x quads with random partial coverage
  for (int i = 0; i < 400; ++i) {
    const uint32_t w = static_cast<uint32_t>(g.bits64()) & ~(4u << COMB_MODE_LSB | 4u << COMB1_MODE_LSB);
    in.push_back(rand_quad(g, w | 1u << COMB_ALPHA_TO_COVERAGE_BIT, g.chance(0.5)));
  }
  in.push_back(token());
  REQUIRE(checked == 1024);
  run("a2c", in, seed);
}
