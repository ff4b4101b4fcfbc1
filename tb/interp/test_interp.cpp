// SPDX-License-Identifier: Apache-2.0
// RTL vs model: INTERP (rtl/interp/interp.sv vs cpp_model/interp), random stalls. Inputs: quads of
// real triangles (SETUP's planes at random quads, perspective 1/w, flat and Gouraud), random
// planes with extreme values (every plane value within the contract's |P| < 2^62), W <= 0,
// special FP32 texture coordinates (NaN, Inf, denormals, huge), quads with and without texture 1
// (om.comb.tex1: uv1 in a second clock, else 0), and end-of-pipe tokens.
#define CATCH_CONFIG_MAIN
#include "Vinterp.h"
#include "fp32.h"
#include "interp/interp.h"
#include "random_prims.h"
#include "setup/iplane.h"
#include "setup/setup.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

uint32_t rand_fp32(tb::PrimGen& g) {
  static const uint32_t special[] = {0u, 0x80000000u, 0x7F800000u, 0xFF800000u, FP32_QNAN, 0x7F800001u,
                                     0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u, FP32_ONE};
  if (g.chance(0.1)) return special[g.range(0, 11)];
  if (g.chance(0.5)) return fp32::bits_of(static_cast<float>(g.range(-(1 << 20), 1 << 20)) / 4096.0f);
  return static_cast<uint32_t>(g.bits64());
}

int64_t rand_signed(tb::PrimGen& g, int bits) {
  const int sh = static_cast<int>(g.range(0, bits - 1));
  const int64_t lim = (int64_t{1} << (bits - 1)) - 1;
  return std::clamp<int64_t>(static_cast<int64_t>(g.bits64()) >> (64 - bits + sh), -lim, lim);
}

IPlane rand_plane(tb::PrimGen& g) {
  IPlane p;
  p.a = rand_signed(g, IPGRAD_W);
  p.b = rand_signed(g, IPGRAD_W);
  // c, the value at pixel (0, 0), below 2^82: with |a|, |b| < 2^56 every pixel's value is then
  // below 2^83, as the contract guarantees.
  const int sh = static_cast<int>(g.range(0, 81));
  p.c = static_cast<bits::i128>((static_cast<bits::u128>(g.bits64()) << 64) | g.bits64()) >> (128 - 82 + sh);
  if (g.chance(0.1)) p.c = -p.c;
  return p;
}

void rand_quad(tb::PrimGen& g, QuadPkt& q) {
  q.qx = static_cast<uint64_t>(g.range(0, 8191));
  q.qy = static_cast<uint64_t>(g.range(0, 8191));
  q.mask = static_cast<uint64_t>(g.range(1, 0xFFFF));
  q.color = static_cast<uint64_t>(g.bits64() & 0xFFFFFFFFu);
  q.tri_id = static_cast<uint64_t>(g.range(0, 1 << 30));
  q.target.msaa = g.chance(0.3) ? 1 : 0;
  q.om.gouraud = g.chance(0.8) ? 1 : 0;
  q.om.blend = g.chance(0.2) ? 1 : 0;
  q.om.comb.tex = g.chance(0.7) ? 1 : 0;
  q.om.comb.tex1 = g.chance(0.3) ? 1 : 0;  // two clocks in INTERP, uv1 computed (else 0)
  for (auto& z : q.z) z.v = static_cast<uint64_t>(g.range(0, DEPTH_MAX));
}

QuadPkt token() {
  QuadPkt p;
  p.eop = 1;
  return p;
}

}  // namespace

namespace {

// The test's quads; tex1: -1 random om.comb.tex1 (rand_quad), 0 or 1 every quad's.
std::vector<QuadPkt> make_quads(tb::PrimGen& g, int tex1) {
  std::vector<QuadPkt> in;
  // Quads of real triangles: SETUP's planes moved to random quads around the triangle.
  for (int i = 0; i < 150; ++i) {
    std::array<Vtx, 3> v{};
    const int64_t cx = g.range(0, 2000 * 256), cy = g.range(0, 2000 * 256), r = g.range(256, 400 * 256);
    for (auto& p : v) {
      p.x = cx + g.range(-r, r);
      p.y = cy + g.range(-r, r);
    }
    const int64_t a2 = model::Setup::area2(v[0], v[1], v[2]);
    if (a2 == 0) continue;
    std::array<VAttr, 3> a{};
    for (auto& at : a) {
      at.rhw = g.chance(0.1) ? rand_fp32(g) : fp32::bits_of(static_cast<float>(g.range(1, 1 << 16)) / 4096.0f);
      at.color = static_cast<uint32_t>(g.bits64());
      at.uv0.u = rand_fp32(g);
      at.uv0.v = rand_fp32(g);
      at.uv1.u = rand_fp32(g);
      at.uv1.v = rand_fp32(g);
    }
    const InterpTri it = model::interp_tri(v, a, a2);
    for (int k = 0; k < 12; ++k) {
      QuadPkt p;
      rand_quad(g, p);
      p.qx = static_cast<uint64_t>(std::clamp<int64_t>((cx + g.range(-r, r)) / 512, 0, 8191));
      p.qy = static_cast<uint64_t>(std::clamp<int64_t>((cy + g.range(-r, r)) / 512, 0, 8191));
      p.it = it;
      if (tex1 >= 0) p.om.comb.tex1 = static_cast<uint64_t>(tex1);
      in.push_back(p);
    }
    while (g.chance(0.02)) in.push_back(token());
  }
  // Random planes and attributes, extreme values included.
  for (int i = 0; i < 1500; ++i) {
    QuadPkt p;
    rand_quad(g, p);
    p.it.w = rand_plane(g);
    p.it.l1 = rand_plane(g);
    p.it.l2 = rand_plane(g);
    if (g.chance(0.2)) {  // small positive W
      p.it.w.c = (p.it.w.c < 0 ? -p.it.w.c : p.it.w.c) >> g.range(0, 80);
      p.it.w.a >>= g.range(0, 56);
      p.it.w.b >>= g.range(0, 56);
    }
    p.it.c0 = g.bits64() & 0xFFFFFFFFu;
    p.it.c1 = g.bits64() & 0xFFFFFFFFu;
    p.it.c2 = g.bits64() & 0xFFFFFFFFu;
    for (int j = 0; j < 2; ++j) {
      p.it.t0[j].u = rand_fp32(g);
      p.it.t0[j].v = rand_fp32(g);
      p.it.d1[j].u = rand_fp32(g);
      p.it.d1[j].v = rand_fp32(g);
      p.it.d2[j].u = rand_fp32(g);
      p.it.d2[j].v = rand_fp32(g);
    }
    if (tex1 >= 0) p.om.comb.tex1 = static_cast<uint64_t>(tex1);
    in.push_back(p);
    while (g.chance(0.01)) in.push_back(token());
  }
  in.push_back(token());
  return in;
}

void run(const char* name, int tex1) {
  const uint64_t seed = tb::announce_seed("rtl_interp");
  tb::PrimGen g(seed);
  const std::vector<QuadPkt> in = make_quads(g, tex1);
  model::Interp interp;
  std::vector<InterpPkt> exp;
  for (const auto& p : in) exp.push_back(interp.process(p));
  tb::check_unit<Vinterp>(name, in, exp, seed);
}

}  // namespace

TEST_CASE("interp: real and random planes, flat and Gouraud, texture 1 on and off, tokens, random stalls") {
  run("interp", -1);
}

// Rates: single-texture quads one per clock, quads that sample texture 1 one per 2 clocks.
TEST_CASE("interp: every quad without texture 1 (one per clock)") { run("interp_tex0", 0); }
TEST_CASE("interp: every quad with texture 1 (uv0 and uv1: one per 2 clocks)") { run("interp_tex1", 1); }
