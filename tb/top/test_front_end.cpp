// SPDX-License-Identifier: Apache-2.0
// The geometry front end inside pineda_top (RTL vs model::PinedaTop on all 13 boundaries, memory
// byte for byte): hand-built command buffers with DRAW_FE draws of object-space meshes through a
// perspective transform that clips them, 16- and 32-bit indices, strips with restart,
// instancing with a per-instance colour, out-of-bounds indices and vertices, NaN positions, path
// switches between DRAW (pre-transformed, IA) and DRAW_FE with end-of-pipe fences, and a COPY of
// a vertex buffer followed by a draw reading it. Each under no stalls and random stalls on every
// boundary with a 200-cycle (jittered) memory.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "command_writer.h"
#include "mem/memory.h"
#include "pineda_contract.h"
#include "tex/tex_gen.h"
#include "top/pineda_top.h"
#include "top_harness.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

constexpr uint32_t kRing = 0x00100000u, kRingSize = 0x00040000u;
constexpr uint32_t kVb = 0x00200000u, kVb1 = 0x00280000u, kIb = 0x00300000u, kLegacyVb = 0x00380000u;
constexpr uint32_t kRt = 0x00400000u, kW = 96, kH = 80, kPitch = kW * 4;

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

struct Mat4 {
  float m[4][4] = {};
};
Mat4 mul(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) r.m[i][j] += a.m[i][k] * b.m[k][j];
  return r;
}
// D3D-style perspective (clip z in [0, w]) for column vectors: clip = P * (x, y, z, 1), w = z.
Mat4 perspective(float fovy, float aspect, float zn, float zf) {
  Mat4 p;
  const float ys = 1.0f / std::tan(fovy / 2), xs = ys / aspect;
  p.m[0][0] = xs;
  p.m[1][1] = ys;
  p.m[2][2] = zf / (zf - zn);
  p.m[2][3] = -zn * zf / (zf - zn);
  p.m[3][2] = 1.0f;
  return p;
}
Mat4 translate_rotate(float tx, float ty, float tz, float ay) {
  Mat4 t;
  const float c = std::cos(ay), s = std::sin(ay);
  t.m[0][0] = c;
  t.m[0][2] = s;
  t.m[1][1] = 1;
  t.m[2][0] = -s;
  t.m[2][2] = c;
  t.m[0][3] = tx;
  t.m[1][3] = ty;
  t.m[2][3] = tz;
  t.m[3][3] = 1;
  return t;
}

// Front-end state for a draw into the test's render target.
void fe_target(CommandWriter& w, uint32_t cull, bool depth_clip = true) {
  w.set_state(FE_VP_X, fbits(0), fbits(0), fbits(float(kW)), fbits(float(kH)), fbits(0), fbits(1),
              cull | (depth_clip ? 0u : 8u), kRt, kPitch, kW | (kH << 16));
}
void fe_matrix(CommandWriter& w, const Mat4& m) {
  std::vector<uint32_t> v;
  for (auto& row : m.m)
    for (float f : row) v.push_back(fbits(f));
  w.set_state(FE_MATRIX0, v);
}

// A (n+1) x (n+1) grid of vertices in the plane y = 0 over [-s, s]^2 (x, z): position F32x3 at
// 0, colour UNORM8x4 at 12, stride 16; returns the vertex count.
uint32_t grid_vertices(Memory& mem, uint32_t base, int n, float s) {
  uint32_t k = 0;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i, ++k) {
      const float x = -s + 2 * s * i / n, z = -s + 2 * s * j / n;
      const float y = 0.3f * std::sin(x * 1.7f) * std::cos(z * 1.3f);
      const uint32_t a = base + k * 16;
      mem.write32(a, fbits(x));
      mem.write32(a + 4, fbits(y));
      mem.write32(a + 8, fbits(z));
      mem.write32(a + 12, 0xFF000000u | ((i * 255 / n) & 0xFF) | (((j * 255 / n) & 0xFF) << 8) | (0x40u << 16));
    }
  }
  return k;
}
std::vector<uint32_t> grid_list(int n) {
  std::vector<uint32_t> ix;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const uint32_t a = j * (n + 1) + i, b = a + 1, c = a + (n + 1), d = c + 1;
      ix.insert(ix.end(), {a, c, b, b, c, d});
    }
  return ix;
}
void write_indices(Memory& mem, uint32_t base, const std::vector<uint32_t>& ix, bool i32) {
  for (size_t k = 0; k < ix.size(); ++k) {
    if (i32) {
      mem.write32(base + static_cast<uint32_t>(4 * k), ix[k]);
    } else {
      mem.write8(base + static_cast<uint32_t>(2 * k), ix[k] & 0xFF);
      mem.write8(base + static_cast<uint32_t>(2 * k + 1), (ix[k] >> 8) & 0xFF);
    }
  }
}
void vertex_layout(CommandWriter& w, uint32_t vb, uint32_t stride, uint32_t size) {
  w.set_state(FE_VB0_BASE, vb, stride, size);
  w.set_state(FE_ATTR_POS, ATTR_FMT_F32X3, ATTR_FMT_UNORM8X4 | (12u << 16), 0u, 0u);
}

struct Scene {
  std::string name;
  Memory mem;
  std::vector<uint32_t> cmds;
};

// Runs a scene on the model and the RTL (each throttle setting) and compares everything.
void run_scene(const Scene& s, uint64_t seed) {
  Memory model_mem = s.mem;
  model_mem.fill32(kRt, kPitch / 4 * kH, 0xFF202020u);
  Memory base = model_mem;
  const auto regs = place_in_ring(model_mem, kRing, kRingSize, s.cmds, 0);
  place_in_ring(base, kRing, kRingSize, s.cmds, 0);
  model::PinedaTop gpu(model_mem);
  gpu.reg_write(REG_IRQ_ENABLE, 0xFFFFFFFFu);
  for (const auto& [i, v] : regs) gpu.reg_write(i, v);
  gpu.run();
  const model::Trace& tr = gpu.trace();
  const model::Stats& st = gpu.stats();
  std::printf("  %s: %llu fe draws, %llu indices, %llu vertices (ACMR %.3f, hit rate %.3f), %llu batches, "
              "%llu prims -> %llu tris (%llu clipped, %llu rejected, %llu NaN, %llu face-culled), %llu pixels\n",
              s.name.c_str(), (unsigned long long)st.fe_draws, (unsigned long long)st.indices,
              (unsigned long long)st.vc_vertices, st.acmr(), st.hit_rate(), (unsigned long long)st.vc_batches,
              (unsigned long long)st.pa_prims, (unsigned long long)st.pa_tris_out,
              (unsigned long long)st.pa_clipped, (unsigned long long)st.pa_rejected,
              (unsigned long long)st.pa_nan, (unsigned long long)st.pa_culled_face,
              (unsigned long long)st.pixels_written);
  REQUIRE(gpu.cp().halted());
  REQUIRE_FALSE(gpu.cp().error());
  for (const double thr : {0.0, 0.3}) {
    Memory rtl_mem = base;
    tb::TopConfig cfg;
    cfg.dram.latency = 200;
    cfg.dram.jitter = thr > 0 ? 60 : 0;
    cfg.dram.bytes_per_clock = thr > 0 ? 20.0 : 32.0;  // reduced bandwidth with the stalls
    cfg.throttle = thr;
    cfg.seed = seed;
    cfg.rt_base = kRt;
    cfg.rt_pitch = kPitch;
    cfg.eop_fence_mask = 0x1Eu;  // FENCE1..4 are written only by end-of-pipe WRITE_REGs
    if (const char* f = std::getenv("FST")) cfg.fst_path = f;  // FST=out.fst: waveform of the run
    tb::TopHarness h(rtl_mem, cfg, tb::RunId{s.name, seed, "build/tests/rtl_front_end --rng-seed " + std::to_string(seed)});
    h.reg_write(REG_IRQ_ENABLE, 0xFFFFFFFFu);
    for (const auto& [i, v] : regs) h.reg_write(i, v);
    const tb::ExpectedStreams exp = tb::expect_all(tr);
    const tb::TopResult r = h.run(exp);
    INFO(s.name << " throttle=" << thr << " seed=" << seed << "\n" << r.report);
    REQUIRE(r.ok);
    std::printf("    throttle %.1f: %llu cycles, front end busy %llu, clipper busy %llu\n", thr,
                (unsigned long long)r.cycles, (unsigned long long)r.fe_busy, (unsigned long long)r.pa_clip_busy);
    for (uint32_t f = 0; f < NUM_FENCES; ++f) CHECK(r.fences[f] == gpu.reg_read(REG_FENCE0 + f));
    CHECK(r.status == gpu.reg_read(REG_STATUS));
    const auto d = model_mem.first_difference(rtl_mem);
    INFO("memory differs at " << (d ? *d : 0));
    CHECK_FALSE(d.has_value());
  }
}

// Runs the scene with the commands of `w`, ended (END), as its command stream.
void run_scene(Scene& s, CommandWriter& w, uint64_t seed) {
  w.end();
  s.cmds = w.dwords();
  run_scene(s, seed);
}

}  // namespace

TEST_CASE("front end: an indexed grid through a perspective camera that clips it") {
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  for (const bool i32 : {false, true}) {
    Scene s;
    s.name = i32 ? "fe.grid32" : "fe.grid16";
    const int n = 12;
    const uint32_t nv = grid_vertices(s.mem, kVb, n, 1.6f);
    const auto ix = grid_list(n);
    write_indices(s.mem, kIb, ix, i32);
    CommandWriter w;
    fe_target(w, PA_CULL_NONE);
    vertex_layout(w, kVb, 16, nv * 16);
    // The camera sits close to the grid: the near plane and the sides cut it.
    fe_matrix(w, mul(perspective(1.2f, float(kW) / kH, 0.5f, 6.0f), translate_rotate(0.1f, -0.4f, 1.2f, 0.6f)));
    w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * (i32 ? 4 : 2));
    w.draw_fe(CommandWriter::FE_INDEXED | (i32 ? CommandWriter::FE_INDEX32 : 0), 0, static_cast<uint32_t>(ix.size()));
    w.write_reg(1, 0x11, true);
    run_scene(s, w, seed);
  }
}

TEST_CASE("front end: strips with restart, instancing with a per-instance colour, culling") {
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  Scene s;
  s.name = "fe.strips_instances";
  const int n = 8;
  const uint32_t nv = grid_vertices(s.mem, kVb, n, 1.0f);
  // One strip per grid row, separated by the 16-bit cut.
  std::vector<uint32_t> ix;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i <= n; ++i) {
      ix.push_back(j * (n + 1) + i);
      ix.push_back((j + 1) * (n + 1) + i);
    }
    ix.push_back(INDEX_CUT_16);
  }
  write_indices(s.mem, kIb, ix, false);
  for (uint32_t k = 0; k < 4; ++k) s.mem.write32(kVb1 + 4 * k, 0xFF000000u | (0x3Fu << (8 * (k % 3))) | (k * 0x30u));
  CommandWriter w;
  fe_target(w, PA_CULL_BACK);
  vertex_layout(w, kVb, 16, nv * 16);
  w.set_state(FE_VB1_BASE, kVb1, 4u, 16u);
  w.set_state(FE_ATTR_COLOR, ATTR_FMT_UNORM8X4 | 8u);  // colour from buffer 1 (per instance)
  fe_matrix(w, mul(perspective(1.0f, float(kW) / kH, 0.2f, 20.0f), translate_rotate(0, -0.5f, 3.5f, 0.3f)));
  w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * 2);
  // 5 instances; the 5th reads past buffer 1 (colour 0, opaque black is not produced: zeros).
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_STRIP | CommandWriter::FE_RESTART, 0,
            static_cast<uint32_t>(ix.size()), 0, 5, 0);
  // The same strips without restart (the cut index is then an out-of-range vertex) and front culling.
  w.set_state(FE_RASTER, PA_CULL_FRONT | 4u);
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_STRIP, 0, static_cast<uint32_t>(ix.size()), 0, 1, 2);
  w.write_reg(2, 0x22, true);
  run_scene(s, w, seed);
}

TEST_CASE("front end: out-of-bounds indices and vertices, NaN positions, non-indexed draws") {
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  Scene s;
  s.name = "fe.bounds_nan";
  const int n = 6;
  const uint32_t nv = grid_vertices(s.mem, kVb, n, 1.0f);
  s.mem.write32(kVb + 5 * 16 + 4, 0x7FC00001u);  // vertex 5: y = NaN
  s.mem.write32(kVb + 9 * 16 + 0, 0xFF800000u);  // vertex 9: x = -Inf
  auto ix = grid_list(n);
  ix[7] = 100000;  // beyond the vertex buffer: reads zeros
  write_indices(s.mem, kIb, ix, false);
  CommandWriter w;
  fe_target(w, PA_CULL_NONE);
  vertex_layout(w, kVb, 16, (nv - 3) * 16);  // the last three vertices are out of bounds
  fe_matrix(w, mul(perspective(1.1f, float(kW) / kH, 0.3f, 10.0f), translate_rotate(0, -0.3f, 2.2f, -0.4f)));
  // The index buffer ends in the middle of the index list: the rest read 0.
  w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * 2 - 37);
  w.draw_fe(CommandWriter::FE_INDEXED, 3, static_cast<uint32_t>(ix.size()), 2);
  w.draw_fe(0, 10, 30);  // non-indexed: vertices 10 .. 39
  w.draw_fe(0, 0, 0);    // nothing
  // 300 triangles over 5 vertices: batches close only at VTX_BATCH_TRIS triangles, which the
  // triangle FIFO in front of PA must hold whole (else vertex tags and PA wait on each other).
  {
    std::vector<uint32_t> rep;
    for (uint32_t k = 0; k < 900; ++k) rep.push_back(20 + (k * 3 + k / 3) % 5);
    write_indices(s.mem, kIb + 0x8000, rep, true);
    w.set_state(FE_IB_BASE, kIb + 0x8000, 900u * 4);
    w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_INDEX32, 0, 900);
  }
  w.draw_fe(CommandWriter::FE_INDEXED, 0, 9, 0, 0, 0);  // zero instances: nothing
  w.write_reg(3, 0x33, true);
  run_scene(s, w, seed);
}

TEST_CASE("front end: path switches with DRAW, fences, and a COPY of the vertex buffer") {
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  Scene s;
  s.name = "fe.paths_copy";
  const int n = 5;
  const uint32_t nv = grid_vertices(s.mem, kVb + 0x10000, n, 1.0f);  // the copy source
  const auto ix = grid_list(n);
  write_indices(s.mem, kIb, ix, true);
  // Legacy pre-snapped vertices (int32 16.8): a few triangles.
  const int32_t lv[] = {2 << 8, 2 << 8, 40 << 8, 5 << 8, 10 << 8, 60 << 8,
                        60 << 8, 10 << 8, 90 << 8, 70 << 8, 50 << 8, 75 << 8};
  for (uint32_t k = 0; k < 12; ++k) s.mem.write32(kLegacyVb + 4 * k, static_cast<uint32_t>(lv[k]));
  CommandWriter w;
  w.set_state(ST_VB_BASE, kLegacyVb, 0xFF00FF00u, kRt, kPitch, kW | (kH << 16));
  fe_target(w, PA_CULL_NONE);
  vertex_layout(w, kVb, 16, nv * 16);
  fe_matrix(w, mul(perspective(1.0f, float(kW) / kH, 0.5f, 8.0f), translate_rotate(0.2f, -0.3f, 2.0f, 0.2f)));
  w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * 4);
  w.copy(kVb + 0x10000, kVb, nv * 16);  // the draw below reads the copy
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_INDEX32, 0, static_cast<uint32_t>(ix.size()));
  w.draw(0, 3);
  w.write_reg(4, 1, true);
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_INDEX32, 6, 24, 1);
  w.write_reg(4, 2, true);
  w.write_reg(5, 7, false);
  w.draw(3, 3);
  w.set_state(FE_MATRIX0 + 3, fbits(0.3f));  // a matrix change between draws
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_INDEX32, 0, static_cast<uint32_t>(ix.size()));
  w.write_reg(4, 3, true);
  run_scene(s, w, seed);
}

TEST_CASE("pixel writer: COPY right after draws (no fence), 1x and 4x, a frame ending without a fence") {
  // The colour cache holds the draws' lines when each COPY comes: the copy must see them (PW is
  // flushed before the job reaches the DMA), later draws dirty the lines again, and the frame ends
  // with no end-of-pipe fence (the harness's host read flushes PW). pw_mem is compared line write
  // by line write, memory byte for byte.
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  Scene s;
  s.name = "pw.copy_after_draw";
  const int n = 8;
  const uint32_t nv = grid_vertices(s.mem, kVb, n, 1.2f);
  const auto ix = grid_list(n);
  write_indices(s.mem, kIb, ix, true);
  constexpr uint32_t kRt4 = kRt + 0x40000u, kPitch4 = kW * 16, kDst = kRt + 0x80000u;
  const int32_t lv[] = {1 << 8, 1 << 8, 90 << 8, 6 << 8, 20 << 8, 75 << 8,
                        5 << 8, 70 << 8, 95 << 8, 79 << 8, 80 << 8, 2 << 8};
  for (uint32_t k = 0; k < 12; ++k) s.mem.write32(kLegacyVb + 4 * k, static_cast<uint32_t>(lv[k]));
  CommandWriter w;
  fe_target(w, PA_CULL_NONE);
  vertex_layout(w, kVb, 16, nv * 16);
  fe_matrix(w, mul(perspective(1.0f, float(kW) / kH, 0.5f, 8.0f), translate_rotate(0.1f, -0.2f, 2.2f, 0.4f)));
  w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * 4);
  w.draw_fe(CommandWriter::FE_INDEXED | CommandWriter::FE_INDEX32, 0, static_cast<uint32_t>(ix.size()));
  w.copy(kRt + 20 * kPitch + 8, kDst + 3, 30 * kPitch - 13);  // rows 20..49, unaligned both ends
  // Pre-transformed triangles over the same pixels (1x), then a 4x target, each copied at once.
  w.set_state(ST_VB_BASE, kLegacyVb, 0xFF3060C0u, kRt, kPitch, kW | (kH << 16));
  w.draw(0, 6);
  w.copy(kRt, kDst + 0x10000, kH * kPitch);
  w.set_state(ST_VB_BASE, kLegacyVb, 0xFFC06030u, kRt4, kPitch4 | 0x10000u, kW | (kH << 16));
  w.draw(0, 6);
  w.copy(kRt4 + 7 * kPitch4, kDst + 0x20000, 40 * kPitch4);
  // Dirty again, and the frame ends with no fence.
  w.draw(3, 3);
  w.set_state(ST_VB_BASE, kLegacyVb, 0xFF0000FFu, kRt, kPitch, kW | (kH << 16));
  w.draw(0, 3);
  run_scene(s, w, seed);
}

// Combiner stage 1 without stage 0 (FE_COMBINE with COMB1_TEX_ENABLE and COMB_TEX_ENABLE clear;
// docs/comb.md section 5): the runtime never emits it (D3D9: a disabled stage 0 disables stage 1),
// but the command stream allows it, so pixel_stage sends such a quad to TEX once, for stage 1 only
// (tag 1, uv1), and the combiner passes the interpolated colour through stage 0. Draws of every
// stage mix follow each other without a fence, so their quads meet in pixel_stage: stage-1-only
// behind an untextured draw, behind a two-stage draw and before a stage-0-only draw.
TEST_CASE("pixel stage: combiner stage 1 without stage 0 among untextured and two-stage draws") {
  const uint64_t seed = tb::announce_seed("rtl_front_end");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Scene s;
  s.name = "fe.comb1_only";
  // A (n+1) x (n+1) grid facing the camera: position F32x3 at 0, colour UNORM8x4 at 12, uv0 F32x2 at 16, uv1 at 24.
  const int n = 6;
  uint32_t nv = 0;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i, ++nv) {
      const float x = -0.6f + 1.2f * i / n, y = -0.6f + 1.2f * j / n;  // in the z = 0 plane, bent
      const uint32_t a = kVb + nv * 32;
      s.mem.write32(a, fbits(x));
      s.mem.write32(a + 4, fbits(y));
      s.mem.write32(a + 8, fbits(0.15f * std::sin(x * 4.0f)));
      s.mem.write32(a + 12, 0xFF000000u | ((i * 255 / n) & 0xFF) | (((j * 255 / n) & 0xFF) << 8) | (0x80u << 16));
      s.mem.write32(a + 16, fbits(3.0f * i / n));  // uv0: the base texture repeated 3 times
      s.mem.write32(a + 20, fbits(3.0f * j / n));
      s.mem.write32(a + 24, fbits(0.05f + 0.9f * i / n));  // uv1: once over the grid
      s.mem.write32(a + 28, fbits(0.05f + 0.9f * j / n));
    }
  }
  const auto ix = grid_list(n);
  write_indices(s.mem, kIb, ix, false);
  // Textures: a 64x64 RGBA8 chain (trilinear) for stage 0, a 16x8 sRGB and a 32x32 BC1 for stage 1.
  constexpr uint32_t kTex0 = 0x00500000u, kTex1 = 0x00500020u, kTex2 = 0x00500040u;
  constexpr uint32_t kSamp0 = 0x00500100u, kSamp1 = 0x00500120u, kSamp2 = 0x00500140u;
  model::tex::gen::make_texture(s.mem, rng, kTex0, 0x00600000u, TEX_FMT_RGBA8, 64, 64, 7);
  model::tex::gen::make_texture(s.mem, rng, kTex1, 0x00610000u, TEX_FMT_RGBA8_SRGB, 16, 8, 1, true);
  model::tex::gen::make_texture(s.mem, rng, kTex2, 0x00620000u, TEX_FMT_BC1, 32, 32, 1);
  const auto sampler = [&](uint32_t addr, uint32_t filter, uint32_t mip, uint32_t mode) {
    SampDesc d;
    d.min = d.mag = filter;
    d.mip = mip;
    d.addr_u = d.addr_v = mode;
    d.max_lod = 4095;
    d.border = 0xFF3060C0u;
    model::tex::gen::put_desc(s.mem, addr, d.pack().data());
  };
  sampler(kSamp0, TEX_FILTER_LINEAR, TEX_MIP_LINEAR, TEX_ADDR_WRAP);
  sampler(kSamp1, TEX_FILTER_LINEAR, TEX_MIP_NONE, TEX_ADDR_MIRROR);
  sampler(kSamp2, TEX_FILTER_POINT, TEX_MIP_NONE, TEX_ADDR_BORDER);
  const uint32_t stage0 = 1u << COMB_TEX_ENABLE_BIT | COMB_MODULATE << COMB_MODE_LSB;
  const auto stage1 = [](uint32_t mode) { return 1u << COMB1_TEX_ENABLE_BIT | mode << COMB1_MODE_LSB; };

  CommandWriter w;
  fe_target(w, PA_CULL_NONE);
  w.set_state(FE_VB0_BASE, kVb, 32u, nv * 32);
  w.set_state(FE_ATTR_POS, ATTR_FMT_F32X3, ATTR_FMT_UNORM8X4 | (12u << 16), ATTR_FMT_F32X2 | (16u << 16),
              ATTR_FMT_F32X2 | (24u << 16));
  w.set_state(FE_SHADE, 1u << SHADE_GOURAUD_BIT);
  w.set_state(FE_IB_BASE, kIb, static_cast<uint32_t>(ix.size()) * 2);
  w.set_state(FE_TEX0, kTex0, kSamp0);
  w.set_state(FE_TEX1, kTex1, kSamp1);
  const Mat4 proj = perspective(1.1f, float(kW) / kH, 0.3f, 12.0f);
  struct Draw {
    float tx, ty;
    uint32_t combine;
    bool other_tex1;  // stage 1 samples the BC1 texture with the border sampler
  };
  const Draw draws[] = {
      {-1.3f, 0.7f, 0u, false},                                    // untextured
      {0.0f, 0.7f, stage1(COMB_MODULATE), false},                  // stage 1 only, behind it
      {1.3f, 0.7f, stage0 | stage1(COMB_ADD), false},              // both stages
      {-1.3f, -0.7f, stage1(COMB_DECAL), true},                    // stage 1 only, other texture
      {0.0f, -0.7f, stage0, true},                                 // stage 0 only
      {1.3f, -0.7f, stage1(COMB_REPLACE) | 1u << COMB_ALPHA_TEST_BIT | CMP_GREATER << COMB_ALPHA_FUNC_LSB | 100u << COMB_ALPHA_REF_LSB,
       true},                                                      // stage 1 only with an alpha test
  };
  bool tex1_is_other = false;
  for (const Draw& d : draws) {
    if (d.other_tex1 != tex1_is_other) {
      w.set_state(FE_TEX1, d.other_tex1 ? kTex2 : kTex1, d.other_tex1 ? kSamp2 : kSamp1);
      tex1_is_other = d.other_tex1;
    }
    w.set_state(FE_COMBINE, d.combine);
    fe_matrix(w, mul(proj, translate_rotate(d.tx, d.ty, 4.0f, 0.5f)));
    w.draw_fe(CommandWriter::FE_INDEXED, 0, static_cast<uint32_t>(ix.size()));
  }
  w.write_reg(1, 0x31, true);
  run_scene(s, w, seed);
}
