// SPDX-License-Identifier: Apache-2.0
// The full model over the regression scenes.
#include <algorithm>

#include "command_writer.h"
#include "png_writer.h"
#include "scenes.h"
#include "test_util.h"
#include "top/pineda_top.h"

using namespace pineda;

namespace {

model::RunResult run_scene(SceneImage& img, model::PinedaTop& gpu) {
  for (const auto& [i, v] : img.reg_writes) gpu.reg_write(i, v);
  std::vector<model::HostAction> actions;
  for (const auto& w : img.wait_releases) actions.push_back({w, 0});
  return gpu.run_with_host(actions);
}

}  // namespace

TEST_CASE("gpu: every scene runs to END with its fence and irq", "[gpu][scenes]") {
  const auto reg = scene_registry();
  REQUIRE(reg.size() == 60);  // 7 screen-space + 7 rasterizer (MSAA) + 6 front-end + 2 CLEAR + 4 depth + 5 Hi-Z + 12 output-merger + 3 Gouraud + 12 textured + 2 glmark2 scenes
  for (const SceneInfo& info : reg) {
    INFO(info.name);
    SceneImage img = info.build(1);
    CHECK(img.name == info.name);
    // the output-merger scenes after om_particles are small on purpose (a few seconds through the RTL)
    // and so are the Gouraud scenes (interp_*) and the textured scenes (tex_*)
    const bool small_om = (info.name.rfind("om_", 0) == 0 && info.name != "om_particles") || info.name.rfind("interp_", 0) == 0 ||
                          info.name.rfind("tex_", 0) == 0;
    CHECK((small_om || img.width >= 256));
    CHECK((small_om || img.height >= 256));
    // Built by the runtime: started with CONTROL = 1, submitted by RING_WPTR writes.
    REQUIRE_FALSE(img.reg_writes.empty());
    CHECK(std::count(img.reg_writes.begin(), img.reg_writes.end(), std::pair<uint32_t, uint32_t>{REG_CONTROL, 1u}) == 1);
    CHECK(img.reg_writes.back().first == uint32_t{REG_RING_WPTR});
    CHECK(img.fence_value >= 1u);
    const Memory before = img.mem;
    model::PinedaTop gpu(img.mem);
    CHECK(run_scene(img, gpu) == model::RunResult::HALTED);
    CHECK(gpu.reg_read(REG_FENCE0 + img.fence_index) == img.fence_value);
    CHECK(gpu.reg_read(REG_ERROR_CAUSE) == ERR_NONE);
    CHECK(gpu.irq());
    REQUIRE_FALSE(gpu.fence_writes().empty());
    CHECK(gpu.fence_writes().back().eop);
    const auto& s = gpu.stats();
    const auto& t = gpu.trace();
    // Every stream carries the end-of-pipe tokens too, once each, in order; a token goes down
    // the path of the last draw (IA for DRAW, the front end for DRAW_FE).
    const size_t tok = s.eop_tokens;
    const auto eops = [](const auto& v) {
      return static_cast<size_t>(std::count_if(v.begin(), v.end(), [](const auto& p) { return p.eop != 0; }));
    };
    const size_t tok_ia = eops(t.cp_draw), tok_fe = eops(t.cp_idraw);
    CHECK(tok >= 1u);
    CHECK(tok_ia + tok_fe == tok);
    CHECK(eops(t.ia_tri) == tok_ia);
    CHECK(eops(t.pa_tri) == tok_fe);
    const size_t fe_writes = static_cast<size_t>(
        std::count_if(t.cp_idraw.begin(), t.cp_idraw.end(), [](const IDrawPkt& p) { return p.wr != 0; }));
    CHECK(s.fe_state_writes == fe_writes);
    CHECK(s.draws + tok == t.cp_draw.size() + t.cp_idraw.size() - fe_writes);
    CHECK(s.triangles_in + tok == t.ia_tri.size() + t.pa_tri.size());
    CHECK(s.triangles_setup + tok == t.setup_tri.size());
    CHECK(s.triangles_in == s.triangles_setup + s.triangles_culled());
    CHECK(s.tiles_emitted + tok == t.coarse_tile.size());
    CHECK(s.quads + tok == t.fine_quad.size());
    CHECK(s.tiles_covered <= s.tiles_emitted);
    // Every scene ends with an EOP fence, down the path of its last draw.
    if (s.fe_draws == 0) {
      CHECK(t.cp_draw.back().eop == 1u);
      CHECK(t.ia_tri.back().eop == 1u);
    } else {
      CHECK(((!t.cp_draw.empty() && t.cp_draw.back().eop) || (!t.cp_idraw.empty() && t.cp_idraw.back().eop)));
    }
    CHECK(t.setup_tri.back().eop == 1u);
    CHECK(t.coarse_tile.back().eop == 1u);
    CHECK(t.fine_quad.back().eop == 1u);
    CHECK(s.pw_lines == t.pw_mem.size());
    CHECK(s.pixels_written > 0);
    CHECK(s.pw_lines > 0);
    CHECK(s.pw_lines <= s.pixels_written);
    CHECK(s.tiles_visited >= s.tiles_emitted);
    // Packets are canonical.
    for (const auto& p : t.cp_draw) CHECK(p == p.canonical());
    for (const auto& p : t.cp_idraw) CHECK(p == p.canonical());
    for (const auto& p : t.pa_tri) CHECK(p == p.canonical());
    for (const auto& p : t.ia_tri) CHECK(p == p.canonical());
    for (const auto& p : t.setup_tri) CHECK(p == p.canonical());
    for (const auto& p : t.fine_quad) CHECK(p == p.canonical());
    for (const auto& p : t.pw_mem) CHECK(p == p.canonical());
    bool tiles_canonical = true;
    for (const auto& p : t.coarse_tile) tiles_canonical = tiles_canonical && p == p.canonical();
    CHECK(tiles_canonical);
    // Every write lands inside the render target: the padding and the rows below are untouched.
    bool inside = true;
    for (const MemLineReq& r : t.pw_mem) {
      for (uint32_t k = 0; k < 16; ++k) {
        if (((r.be >> (4 * k)) & 0xFu) == 0) continue;
        const uint32_t off = static_cast<uint32_t>(r.addr) + 4u * k - img.rt_base;
        inside = inside && off / img.rt_pitch < img.height && (off % img.rt_pitch) / 4 < img.width * img.samples;
      }
    }
    CHECK(inside);
    for (uint32_t y = 0; y < img.height + 8; ++y) {
      const uint32_t x_from = y < img.height ? img.width * img.samples : 0;
      for (uint32_t x = x_from; x < img.rt_pitch / 4; ++x) {
        const uint32_t a = img.rt_base + y * img.rt_pitch + x * 4;
        if (img.mem.read32(a) != before.read32(a)) {
          FAIL("write outside the target at " << std::hex << a);
        }
      }
    }
  }
}

TEST_CASE("gpu: scenes are deterministic and tracing does not change results", "[gpu][scenes][nosan]") {
  for (const SceneInfo& info : scene_registry()) {
    INFO(info.name);
    SceneImage a = info.build(7), b = info.build(7), c = info.build(8);
    CHECK(a.mem == b.mem);
    CHECK(a.reg_writes == b.reg_writes);  // the same ring and submissions, bit for bit
    CHECK(a.mem.digest() != c.mem.digest());
    model::PinedaTop ga(a.mem), gb(b.mem);
    gb.set_trace_enabled(false);
    run_scene(a, ga);
    run_scene(b, gb);
    CHECK(a.mem == b.mem);
    CHECK(gb.trace().pw_mem.empty());
    CHECK(ga.stats().pixels_written == gb.stats().pixels_written);
  }
}

TEST_CASE("gpu: tiny_10k has 10,000 triangles; scissor target is not a multiple of 8", "[gpu][scenes]") {
  SceneImage img = build_scene("tiny_10k", 3);
  model::PinedaTop gpu(img.mem);
  run_scene(img, gpu);
  CHECK(gpu.stats().triangles_in == 10000u);
  const SceneImage s = build_scene("scissor", 3);
  CHECK(s.width % 8 != 0);
  CHECK(s.height % 8 != 0);
  CHECK_THROWS_AS(build_scene("no_such_scene", 1), std::invalid_argument);
  CHECK_FALSE(find_scene("no_such_scene"));
}

TEST_CASE("gpu: process order follows the pipeline (tile walk, pixel order)", "[gpu]") {
  Memory mem;
  model::PinedaTop gpu(mem);
  DrawPkt d;
  d.vb_base = 0x1000;
  d.vertex_count = 3;
  d.color = 0xFFFFFFFFu;
  d.target.base = 0x100000;
  d.target.pitch = 64 * 4;
  d.clip = test::rect(0, 0, 64, 64);
  const int32_t v[6] = {3 * 256, 2 * 256, 40 * 256, 9 * 256, 12 * 256, 30 * 256};
  for (int i = 0; i < 6; ++i) mem.write32(0x1000 + 4 * i, static_cast<uint32_t>(v[i]));
  gpu.process_draw(d);
  const auto& t = gpu.trace();
  REQUIRE(t.coarse_tile.size() > 1);
  for (size_t i = 1; i < t.coarse_tile.size(); ++i) {
    const auto& p = t.coarse_tile[i - 1];
    const auto& q = t.coarse_tile[i];
    CHECK((q.ty > p.ty || (q.ty == p.ty && q.tx != p.tx)));  // rows ascending (walk order in a row)
  }
  // Memory holds the written pixels at once; the colour cache writes them back on a flush, and
  // its lines carry exactly those dwords.
  REQUIRE(t.pw_mem.empty());
  gpu.flush_pixels();
  REQUIRE(!t.pw_mem.empty());
  Memory lines;
  for (const MemLineReq& r : t.pw_mem) {
    model::PixelWriter::apply(r, lines);
    for (uint32_t k = 0; k < 16; ++k) {
      if ((r.be >> (4 * k)) & 0xFu) CHECK(mem.read32(static_cast<uint32_t>(r.addr) + 4 * k) == 0xFFFFFFFFu);
    }
  }
  uint32_t px = 0;
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      const uint32_t a = 0x100000u + y * 256u + x * 4u;
      CHECK(lines.read32(a) == mem.read32(a));
      px += mem.read32(a) == 0xFFFFFFFFu;
    }
  }
  CHECK(px == gpu.stats().pixels_written);
}

TEST_CASE("gpu: error stops the run; reset restarts", "[gpu]") {
  Memory mem;
  CommandWriter w;
  w.write_reg(0, 5, false).raw(0x42000000u).write_reg(1, 6, false).end();
  model::PinedaTop gpu(mem);
  for (const auto& [i, v] : place_in_ring(mem, 0x100000, 4096, w.dwords())) gpu.reg_write(i, v);
  CHECK(gpu.run() == model::RunResult::ERROR);
  CHECK(gpu.reg_read(REG_FENCE0) == 5u);
  CHECK(gpu.reg_read(REG_FENCE0 + 1) == 0u);
  CHECK(gpu.reg_read(REG_ERROR_CAUSE) == ERR_BAD_OPCODE);
  CHECK(gpu.reg_read(REG_ERROR_ADDR) == 0x100008u);
  gpu.reset();
  CHECK(gpu.reg_read(REG_ERROR_CAUSE) == ERR_NONE);
  CHECK(gpu.run() == model::RunResult::DISABLED);
}

TEST_CASE("png: writes a readable file", "[png]") {
  SceneImage img = build_scene("overlap_order", 1);
  const std::string path = "build/tests/model_png_test.png";
  REQUIRE_NOTHROW(write_png(path, img.mem, img.rt_base, img.rt_pitch, img.width, img.height));
  FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  unsigned char sig[8] = {};
  CHECK(std::fread(sig, 1, 8, f) == 8u);
  std::fclose(f);
  CHECK(sig[1] == 'P');
  CHECK(sig[2] == 'N');
  CHECK(sig[3] == 'G');
  const auto px = read_rgba(img.mem, img.rt_base, img.rt_pitch, img.width, img.height);
  CHECK(px.size() == size_t{img.width} * img.height * 4);
  CHECK(px[3] == 0xFF);
}

TEST_CASE("gpu: the abort check runs on work done, quads included, so a huge draw stops within a few thousand quads",
          "[gpu][abort]") {
  // tests/fuzz/corpus/cp/huge_target_long_draw: a 4x target of 4,096 x 4,096 pixels and a DRAW of
  // triangles covering it, the fuzz_cp set-up (its abort check gives up at the second call).
  // Polled on tiles alone, 8k tiles of 16 quads each ran (5-10 s under ASan with the trace on).
  const uint8_t seed[] = {0x02, 0x00, 0x00, 0x01, 0x00, 0x80, 0x01, 0x00, 0x00, 0xff, 0x00, 0xff, 0x05, 0x20, 0x00, 0x01,
                          0x00, 0xc0, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10, 0x3a, 0x10, 0x40, 0x00, 0x01, 0xff, 0xff,
                          0x00, 0x00, 0xff, 0xff, 0x02, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0xf5,
                          0x01, 0x00, 0x80, 0x31, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f};
  constexpr uint32_t RING = 0x00010000u, N = sizeof seed / 4;
  Memory mem;
  for (uint32_t i = 0; i < 256; ++i) mem.write32(0x00018000u + 4 * i, (i * 0x9E3779B9u) >> 8);
  mem.write(RING, seed, N * 4);
  model::PinedaTop gpu(mem);
  uint64_t polls = 0;
  gpu.set_abort_check([&polls] { return ++polls > 1; });
  gpu.reg_write(REG_VALID_BASE, 0x00010000u);
  gpu.reg_write(REG_VALID_LIMIT, 0x0001FFFFu);
  gpu.reg_write(REG_RING_BASE, RING);
  gpu.reg_write(REG_RING_SIZE, N * 4 + 4);
  gpu.reg_write(REG_RING_WPTR, N * 4);
  gpu.reg_write(REG_CONTROL, 1);
  CHECK_THROWS_AS(gpu.run(100000), model::GpuAborted);
  CHECK(polls == 2);
  CHECK(gpu.work() == 2 * model::PinedaTop::ABORT_POLL_WORK);
  CHECK(gpu.trace().fine_quad.size() <= 2 * model::PinedaTop::ABORT_POLL_WORK);
}
