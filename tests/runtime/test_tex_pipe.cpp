// SPDX-License-Identifier: Apache-2.0
// TEX and COMB in the model's pipeline (docs/comb.md section 5): runtime-built textured scenes on
// the golden model, checked pixel by pixel: stage 0 alone with a TEX fault (bad descriptor: zero
// texels, sticky STATUS.TEX_FAULT and IRQ_TEX_FAULT, the CP goes on), and two textures (combiner
// stage 1 sampling slot 1 with uv1, every stage-1 op, a deferred context's list) against COMB's
// arithmetic written out here. runtime_rtl runs the same scenes on the RTL.
#include <catch2/catch.hpp>

#include <algorithm>

#include "runtime.h"
#include "tex_pipe_scene.h"
#include "top/pineda_top.h"

using namespace pineda;
using namespace pineda::rt;

TEST_CASE("textured draws through TEX and COMB: replace, alpha test, trilinear, a TEX fault", "[runtime][texpipe]") {
  GoldenBackend golden;
  DeviceDesc dd;
  Device dev(golden, dd);
  const auto r = test::draw_tex_pipe_scene(dev);
  INFO(dev.last_error());
  REQUIRE(r.ok);
  REQUIRE(r.replace.size() == 256);
  const uint32_t clear = 0x11223344u;
  size_t killed = 0, mips_set = 0;
  for (uint32_t i = 0; i < 256; ++i) {
    INFO("pixel " << i % 16 << ", " << i / 16);
    // point-sampled UNORM8 texels come back exactly; REPLACE writes them
    CHECK(r.replace[i] == r.texels[i]);
    // alpha test GREATER 127: the others keep the clear colour
    const bool pass = (r.texels[i] >> 24) > 127u;
    CHECK(r.alpha[i] == (pass ? r.texels[i] : clear));
    killed += !pass;
    // the faulted draw: zero texels, REPLACE writes 0
    CHECK(r.fault[i] == 0u);
    CHECK(r.after[i] == r.texels[i]);
    CHECK(r.updated[i] == r.updated_texels[i]);
    mips_set += r.mips[i] != clear && r.mips[i] != 0;
  }
  CHECK(killed > 50);
  CHECK(mips_set == 256);
  CHECK((r.status_before >> STATUS_TEX_FAULT & 1u) == 0u);
  CHECK((r.status_after >> STATUS_TEX_FAULT & 1u) == 1u);
  CHECK((r.status_after >> STATUS_ERROR & 1u) == 0u);
  CHECK((r.irq_after >> IRQ_TEX_FAULT & 1u) == 1u);
  CHECK_FALSE(dev.lost());
  const auto& st = golden.gpu().stats();
  CHECK(st.tex_quads == 6u * 72u);  // 64 quads per triangle pair, 8 of them on the shared diagonal twice
  CHECK(st.tex_faults == 72u);
  CHECK(st.comb_killed_pixels == killed);
  // the host clears the sticky bit through IRQ_STATUS (W1C)
  golden.write_reg(REG_IRQ_STATUS, 1u << IRQ_TEX_FAULT);
  CHECK((golden.read_reg(REG_STATUS) >> STATUS_TEX_FAULT & 1u) == 0u);
}

namespace {

// COMB's arithmetic written out independently (docs/comb.md section 2): mul8 = a * b / 255
// rounded to nearest (never a tie: 255 is odd), per channel k (0..3 = R, G, B, A).
uint32_t ch(uint32_t c, uint32_t k) { return c >> (8 * k) & 0xFFu; }
uint32_t mul8(uint32_t a, uint32_t b) { return (2 * a * b + 255) / 510; }
uint32_t pack(const uint32_t c[4]) { return c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24; }
uint32_t modulate(uint32_t t, uint32_t c) {
  uint32_t o[4];
  for (uint32_t k = 0; k < 4; ++k) o[k] = mul8(ch(t, k), ch(c, k));
  return pack(o);
}
uint32_t add(uint32_t t, uint32_t c) {
  uint32_t o[4];
  for (uint32_t k = 0; k < 3; ++k) o[k] = std::min(ch(t, k) + ch(c, k), 255u);
  o[3] = mul8(ch(t, 3), ch(c, 3));
  return pack(o);
}
uint32_t decal(uint32_t t, uint32_t c) {
  uint32_t o[4];
  const uint32_t ta = ch(t, 3);
  for (uint32_t k = 0; k < 3; ++k) o[k] = (2 * (ch(t, k) * ta + ch(c, k) * (255 - ta)) + 255) / 510;
  o[3] = ch(c, 3);
  return pack(o);
}

}  // namespace

TEST_CASE("two textures: combiner stage 1 samples slot 1 with uv1 and combines it with stage 0's result",
          "[runtime][texpipe]") {
  GoldenBackend golden;
  DeviceDesc dd;
  Device dev(golden, dd);
  const auto r = test::draw_dual_tex_scene(dev);
  INFO(dev.last_error() << " / " << dev.immediate().last_error());
  REQUIRE(r.ok);
  CHECK_FALSE(dev.lost());
  for (const auto& img : r.ops) REQUIRE(img.size() == 256);
  REQUIRE(r.deferred.size() == 256);
  size_t light_matters = 0, uv1_matters = 0;
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 16; ++x) {
      INFO("pixel " << x << ", " << y);
      const uint32_t i = y * 16 + x;
      // stage 0: base x colour; stage 1: its op with the lightmap texel at uv1
      const uint32_t s0 = modulate(r.base[i], r.color);
      const uint32_t l = test::dual_tex_light_at(r.light, x, y);
      CHECK(r.ops[0][i] == modulate(l, s0));
      CHECK(r.ops[1][i] == l);
      CHECK(r.ops[2][i] == add(l, s0));
      CHECK(r.ops[3][i] == decal(l, s0));
      CHECK(r.ops[4][i] == s0);
      // the list's draw with the second lightmap, released before the list ran
      CHECK(r.deferred[i] == modulate(test::dual_tex_light_at(r.light2, x, y), s0));
      // the lightmap changes the pixel, and sampling it at uv0 instead of uv1 would too
      light_matters += r.ops[0][i] != s0;
      uv1_matters += modulate(r.light[(y / 2) * 8 + x / 2], s0) != r.ops[0][i];
      // bilinear: textured, not stage 0's result alone
      CHECK(r.bilinear[i] != s0);
      CHECK(r.bilinear[i] != 0x11223344u);
      // stage 1 faulted: texel 0, DECAL with alpha 0 passes stage 0's result
      CHECK(r.fault[i] == s0);
    }
  }
  CHECK(light_matters == 256);
  CHECK(uv1_matters > 200);
  CHECK((r.status_before >> STATUS_TEX_FAULT & 1u) == 0u);
  CHECK((r.status_after >> STATUS_TEX_FAULT & 1u) == 1u);
  CHECK((r.status_after >> STATUS_ERROR & 1u) == 0u);
  CHECK((r.irq_after >> IRQ_TEX_FAULT & 1u) == 1u);
  // two TEX passes per quad when stage 1 samples: 7 draws with both stages, one with stage 0 only;
  // the last draw's stage-1 passes fault
  const auto& st = golden.gpu().stats();
  CHECK(st.tex_quads == (7u * 2u + 1u) * 72u);
  CHECK(st.tex_faults == 72u);
}
