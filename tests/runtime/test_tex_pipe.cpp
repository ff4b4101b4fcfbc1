// SPDX-License-Identifier: Apache-2.0
// TEX and COMB in the model's pipeline (docs/comb.md section 5): a runtime-built textured scene on
// the golden model, checked pixel by pixel, and a TEX fault (bad descriptor: zero texels, sticky
// STATUS.TEX_FAULT and IRQ_TEX_FAULT, the CP goes on). runtime_rtl runs the same scene on the RTL.
#include <catch2/catch.hpp>

#include "runtime.h"
#include "tex_pipe_scene.h"
#include "top/gpu.h"

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
