// SPDX-License-Identifier: Apache-2.0
// The screen-space scenes: pre-transformed 16.8 triangles drawn with draw_pretransformed (grids,
// fans, slivers, the guard band, scissor, API order, the command processor's commands, MSAA).

#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "scene_builder.h"
#include "scene_list.h"
#include "vec_math.h"

namespace pineda::scenes {

namespace {

std::vector<SceneTri> rows_of(const std::vector<SceneTri>& mesh, int cols, int row0, int row1) {
  const size_t per_row = static_cast<size_t>(cols) * 2;
  return {mesh.begin() + static_cast<long>(per_row * row0), mesh.begin() + static_cast<long>(per_row * row1)};
}

constexpr int32_t kW = 256, kH = 256;  // the rasterizer scenes' target

}  // namespace

// ---- grid_mesh -------------------------------------------------------------------------------

SceneImage scene_grid_mesh(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 1);
  Builder b("grid_mesh", 256, 256, 256 * 4, rgba(24, 24, 40));
  // Main mesh over most of the target: left edge on pixel centres, top edge on pixel boundaries.
  GridMeshParams p;
  p.x0 = 4 * PX + 128;
  p.y0 = 3 * PX;
  p.x1 = 251 * PX + 128;
  p.y1 = 252 * PX + static_cast<int32_t>(rng.range(0, 255));
  p.cols = 14;
  p.rows = 12;
  const std::vector<SceneTri> mesh = make_grid_mesh(p, rng);
  for (int band = 0; band < 4; ++band) b.draw(palette(band), rows_of(mesh, p.cols, band * 3, band * 3 + 3));

  // An overlapping coarser mesh on top, in two draws.
  GridMeshParams q;
  q.x0 = 60 * PX + 77;
  q.y0 = 70 * PX + 179;
  q.x1 = 200 * PX;
  q.y1 = 190 * PX + 128;
  q.cols = 9;
  q.rows = 7;
  q.exact_col_percent = 40;
  q.exact_row_percent = 40;
  const std::vector<SceneTri> over = make_grid_mesh(q, rng);
  b.draw(palette(4), rows_of(over, q.cols, 0, 3));
  b.draw(palette(5), rows_of(over, q.cols, 3, 7));

  // A fine mesh of small cells (about 3 px) in a corner.
  GridMeshParams f;
  f.x0 = 20 * PX;
  f.y0 = 200 * PX + 128;
  f.x1 = 80 * PX + 128;
  f.y1 = 250 * PX;
  f.cols = 20;
  f.rows = 16;
  b.draw(palette(6), make_grid_mesh(f, rng));
  return b.finish();
}

// ---- fans_slivers ----------------------------------------------------------------------------

SceneImage scene_fans_slivers(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 2);
  Builder b("fans_slivers", 256, 256, 256 * 4, rgba(16, 32, 24));
  for (int fan = 0; fan < 4; ++fan) {
    SceneVertex c{static_cast<int32_t>(rng.range(56 * PX, 200 * PX)), static_cast<int32_t>(rng.range(56 * PX, 200 * PX))};
    if (fan == 0) c = {snap_centre(c.x), snap_centre(c.y)};  // centre exactly on a pixel centre
    const int n = fan == 0 ? 16 : static_cast<int>(rng.range(6, 24));
    const double phase = fan == 0 ? 0.0 : static_cast<double>(rng.range(0, 999)) / 1000.0;
    const double radius = static_cast<double>(rng.range(30 * PX, 70 * PX));
    std::vector<SceneVertex> ring;
    for (int i = 0; i < n; ++i) {
      const double ang = 2 * kPi * (i + phase) / n;
      const double r = fan == 0 ? radius : radius * (0.9 + 0.2 * static_cast<double>(rng.range(0, 100)) / 100.0);
      ring.push_back({c.x + static_cast<int32_t>(std::lround(r * std::cos(ang))),
                      c.y + static_cast<int32_t>(std::lround(r * std::sin(ang)))});
    }
    std::vector<SceneTri> tris;
    for (int i = 0; i < n; ++i) tris.push_back({c, ring[i], ring[(i + 1) % n]});
    b.draw(palette(fan), tris);
  }
  // Long thin slivers: the third vertex is a small perpendicular offset from the middle.
  for (int d = 0; d < 2; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 20; ++i) {
      SceneVertex p0{static_cast<int32_t>(rng.range(-8 * PX, 264 * PX)), static_cast<int32_t>(rng.range(-8 * PX, 264 * PX))};
      SceneVertex p1{static_cast<int32_t>(rng.range(-8 * PX, 264 * PX)), static_cast<int32_t>(rng.range(-8 * PX, 264 * PX))};
      if (i % 5 == 0) p1.y = p0.y;  // along a row
      if (i % 5 == 1) p1.x = p0.x;  // along a column
      const double dx = p1.x - p0.x, dy = p1.y - p0.y;
      const double len = std::max(1.0, std::sqrt(dx * dx + dy * dy));
      const double t = static_cast<double>(rng.range(13, 400));  // 0.05 .. 1.56 px
      const SceneVertex m{static_cast<int32_t>((int64_t{p0.x} + p1.x) / 2 + std::lround(-dy / len * t)),
                          static_cast<int32_t>((int64_t{p0.y} + p1.y) / 2 + std::lround(dx / len * t))};
      tris.push_back(random_winding({p0, m, p1}, rng));
    }
    b.draw(palette(4 + d), tris);
  }
  return b.finish();
}

// ---- rasterizer scenes at 1x and 4x MSAA ---------------------------------------------------


// Two triangles covering the whole 256 x 256 target (vertices outside it).
SceneImage scene_quad_full(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 11);
  Builder b(samples == 4 ? "quad_full_4x" : "quad_full", kW, kH, kW * 4 * samples, rgba(0, 0, 0), 64 * 1024,
            rgba(255, 0, 255), samples);
  const int32_t m = static_cast<int32_t>(rng.range(1, 3 * PX));
  const SceneVertex a{-m, -m}, c{kW * PX + m, -m}, d{kW * PX + m, kH * PX + m}, e{-m, kH * PX + m};
  b.draw(palette(3), {random_winding({a, c, d}, rng), random_winding({a, d, e}, rng)});
  return b.finish();
}

// 10,000 tiny triangles (1/16 .. 4 pixels) in 4 draws: tiny_10k and, from another seed,
// tiny_10k_4x.
SceneImage scene_tiny(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + (samples == 4 ? 12 : 4));
  Builder b(samples == 4 ? "tiny_10k_4x" : "tiny_10k", kW, kH, kW * 4 * samples, rgba(8, 8, 8), 10000 * 3 * VERTEX_BYTES, rgba(255, 0, 255), samples);
  for (int d = 0; d < 4; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 2500; ++i) {
      const int32_t cx = static_cast<int32_t>(rng.range(0, kW * PX - 1)), cy = static_cast<int32_t>(rng.range(0, kH * PX - 1));
      const int32_t s = static_cast<int32_t>(rng.range(16, 4 * PX));
      SceneTri t;
      for (auto& v : t) v = {cx + static_cast<int32_t>(rng.range(-s, s)), cy + static_cast<int32_t>(rng.range(-s, s))};
      tris.push_back(t);
    }
    b.draw(palette(d), tris);
  }
  return b.finish();
}

// 400 long thin slivers (50 .. 360 pixels long, 0.05 .. 2 pixels wide) in every direction.
SceneImage scene_slivers(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 13);
  Builder b(samples == 4 ? "slivers_4x" : "slivers", kW, kH, kW * 4 * samples, rgba(16, 16, 24), 64 * 1024,
            rgba(255, 0, 255), samples);
  for (int d = 0; d < 4; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 100; ++i) {
      const double ang = static_cast<double>(rng.range(0, 3599)) * (2 * kPi) / 3600.0;
      const double len = static_cast<double>(rng.range(50 * PX, 360 * PX));
      const SceneVertex p0{static_cast<int32_t>(rng.range(-20 * PX, 276 * PX)), static_cast<int32_t>(rng.range(-20 * PX, 276 * PX))};
      const SceneVertex p1{p0.x + static_cast<int32_t>(std::lround(len * std::cos(ang))),
                           p0.y + static_cast<int32_t>(std::lround(len * std::sin(ang)))};
      const double w = static_cast<double>(rng.range(13, 2 * PX));
      const SceneVertex p2{p0.x + static_cast<int32_t>(std::lround(-std::sin(ang) * w)),
                           p0.y + static_cast<int32_t>(std::lround(std::cos(ang) * w))};
      tris.push_back(random_winding({p0, p1, p2}, rng));
    }
    b.draw(palette(8 + d), tris);
  }
  return b.finish();
}

// A dense mesh: 64 x 64 cells of 4 pixels (8,192 triangles), jittered, shared edges exact or on
// pixel centres.
SceneImage scene_dense_mesh(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 14);
  Builder b(samples == 4 ? "dense_mesh_4x" : "dense_mesh", kW, kH, kW * 4 * samples, rgba(24, 24, 40),
            8192 * 3 * VERTEX_BYTES, rgba(255, 0, 255), samples);
  GridMeshParams p;
  p.x0 = 0;
  p.y0 = 0;
  p.x1 = kW * PX;
  p.y1 = kH * PX;
  p.cols = 64;
  p.rows = 64;
  const std::vector<SceneTri> mesh = make_grid_mesh(p, rng);
  for (int band = 0; band < 8; ++band) b.draw(palette(band), rows_of(mesh, p.cols, band * 8, band * 8 + 8));
  return b.finish();
}

// ---- guard_band ------------------------------------------------------------------------------

SceneImage scene_guard_band(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 3);
  Builder b("guard_band", 256, 256, 256 * 4, rgba(32, 32, 32));
  constexpr int32_t MIN = -(1 << 23);     // -32768.0
  constexpr int32_t MAX = (1 << 23) - 1;  // +32767.996
  constexpr int32_t I32MIN = INT32_MIN, I32MAX = INT32_MAX;
  auto jit = [&rng](int32_t v) { return v + static_cast<int32_t>(rng.range(0, 255)); };
  // Exact 16.8 extremes: half-plane below the main diagonal.
  b.draw(palette(0), {{{{MIN, MIN}, {MAX, MAX}, {MIN, MAX}}}});
  // int32 extremes that saturate: a nearly horizontal band crossing the viewport.
  b.draw(palette(1), {{{{I32MIN, jit(40 * PX)}, {I32MAX, jit(100 * PX)}, {jit(128 * PX), jit(160 * PX)}}},
                      {{{I32MAX, jit(200 * PX)}, {I32MIN, jit(90 * PX)}, {jit(30 * PX), jit(250 * PX)}}}});
  // Vertical wedges from far above and below.
  b.draw(palette(2), {{{{jit(100 * PX), I32MIN}, {jit(140 * PX), I32MAX}, {jit(60 * PX), 0x01000000}}},
                      {{{jit(220 * PX), MIN}, {jit(180 * PX), MAX}, {jit(250 * PX), MAX}}}});
  // Values just past the range (0x800000 saturates to MAX, 0xFF7FFFFF to MIN) and a wedge from
  // the far right with a vertex inside the viewport.
  b.draw(palette(3), {{{{static_cast<int32_t>(0x00800000), static_cast<int32_t>(0xFF7FFFFF)},
                        {jit(200 * PX), jit(250 * PX)},
                        {MAX, MAX}}},
                      {{{MIN, jit(10 * PX)}, {jit(20 * PX), jit(30 * PX)}, {MIN, jit(60 * PX)}}}});
  // Entirely outside the viewport (bounding-box cull) and a huge triangle whose only visible
  // part is a corner.
  b.draw(palette(4), {{{{MIN, MIN}, {-PX, MIN}, {MIN, -PX}}},
                      {{{300 * PX, 10 * PX}, {MAX, 20 * PX}, {400 * PX, MAX}}},
                      {{{MAX, MIN}, {jit(236 * PX), MAX}, {MAX, MAX}}}});
  return b.finish();
}

// ---- scissor ---------------------------------------------------------------------------------

SceneImage scene_scissor(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 5);
  const uint32_t w = 261, h = 259;
  Builder b("scissor", w, h, (w + 11) * 4, rgba(40, 40, 40));
  const int32_t W = static_cast<int32_t>(w) * PX, H = static_cast<int32_t>(h) * PX;
  // Two triangles covering more than the whole target, plus a jittered inner triangle.
  auto cover = [&](int32_t margin) {
    const SceneVertex a{-margin, -margin}, c{W + margin, -margin}, d{W + margin, H + margin}, e{-margin, H + margin};
    return std::vector<SceneTri>{random_winding({a, c, d}, rng), random_winding({a, d, e}, rng)};
  };
  auto scissor = [&b](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) { b.scissor(x0, x1, y0, y1); };
  b.draw(palette(3), cover(PX));                     // reset scissor: whole target
  scissor(20, 100, 30, 90);
  b.draw(palette(0), cover(0));
  scissor(200, 400, 150, 300);                       // partly outside: clipped to the target
  b.draw(palette(1), cover(5 * PX));
  scissor(50, 50, 10, 200);                          // empty (x1 == x0)
  b.draw(palette(2), cover(PX));
  scissor(120, 80, 10, 200);                         // inverted
  b.draw(palette(2), cover(PX));
  scissor(300, 400, 0, 0xFFFF);                      // entirely right of the target
  b.draw(palette(2), cover(PX));
  scissor(101, 109, 201, 203);                       // odd, sub-tile
  b.draw(palette(4), cover(PX));
  scissor(0, 0xFFFF, 253, 0xFFFF);                   // last partial tile row
  b.draw(palette(5), cover(PX));
  scissor(255, 261, 0, 259);                         // last partial tile column
  b.draw(palette(6), cover(PX));
  // A triangle crossing several scissor edges.
  scissor(static_cast<uint32_t>(rng.range(130, 140)), 190, static_cast<uint32_t>(rng.range(40, 50)), 120);
  b.draw(palette(7), {random_winding({{{100 * PX, 20 * PX}, {230 * PX + 77, 80 * PX}, {150 * PX, 140 * PX + 200}}}, rng)});
  scissor(0, 0xFFFF, 0, 0xFFFF);
  b.draw(palette(8), {random_winding({{{5 * PX, 160 * PX}, {70 * PX, 250 * PX}, {10 * PX, 258 * PX + 128}}}, rng)});
  return b.finish();
}

// ---- cp_commands -----------------------------------------------------------------------------
// The CP's commands end to end, as the runtime uses them: a CopyBufferRegion-style COPY of a vertex buffer
// from an unaligned staging offset, then draws reading the copy from command lists recorded on
// deferred contexts and nested (the ring CALLs L1, L1 CALLs L2 and ends with a tail-call JUMP to
// L3), a GPU-side wait on a user fence that the host signals mid-run (WAIT_REG; the first host
// write does not satisfy it), end-of-pipe user-fence signals with an INTERRUPT (FENCE1 is EOP-only
// and checked every cycle), a top-of-pipe signal (FENCE2), and a second COPY of part of the
// rendered target to an unaligned destination (which must see every earlier pixel write).

SceneImage scene_cp_commands(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 7);
  const uint32_t w = 256, h = 256;
  Builder b("cp_commands", w, h, w * 4, rgba(20, 20, 60));
  GridMeshParams gp;
  gp.x0 = 4 * PX;
  gp.y0 = 4 * PX;
  gp.x1 = static_cast<int32_t>(w - 4) * PX;
  gp.y1 = static_cast<int32_t>(h - 4) * PX;
  gp.cols = 8;
  gp.rows = 6;
  const std::vector<SceneTri> mesh = make_grid_mesh(gp, rng);
  // Staging buffer: 3 bytes of padding, then the vertices (so the copy's source is unaligned).
  std::vector<uint8_t> bytes(3, 0xA5);
  for (const SceneTri& t : mesh) {
    for (const SceneVertex& v : t) {
      for (int32_t c : {v.x, v.y}) {
        for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(static_cast<uint32_t>(c) >> (8 * k)));
      }
    }
  }
  const uint32_t vb_bytes = static_cast<uint32_t>(bytes.size() - 3);
  rt::Resource* staging = b.create_buffer({static_cast<uint32_t>(bytes.size()), 0}, bytes.data());
  rt::Resource* vb = b.create_buffer({vb_bytes, rt::BIND_VERTEX_BUFFER}, nullptr);
  rt::Resource* readback = b.create_buffer({4 * w * 10 + 3, 0}, nullptr);
  rt::Fence* eop = b.create_fence(true);  // FENCE1: end-of-pipe signals, each with an INTERRUPT
  rt::Fence* top = b.create_fence();      // FENCE2: a top-of-pipe signal
  rt::Fence* host = b.create_fence();     // FENCE3: signalled by the host, waited on by the GPU
  const uint32_t nvtx = static_cast<uint32_t>(mesh.size() * 3);
  const uint32_t half = (nvtx / 6) * 3;

  // L2: second colour, first half of the mesh. L3: a TOP signal and a small draw. L1: runs L2,
  // draws the rest, signals FENCE1 = 1 and ends with L3 (a tail call).
  auto record = [&b, vb](const std::function<void(rt::DeferredContext&)>& body) {
    std::unique_ptr<rt::DeferredContext> dc;
    b.check(b.dev().create_deferred_context({}, &dc), "create_deferred_context");
    b.check(dc->set_render_target(b.target()), "set_render_target", dc.get());
    b.check(dc->set_pretransformed_vertex_buffer(vb), "set_pretransformed_vertex_buffer", dc.get());
    body(*dc);
    rt::CommandList* list = nullptr;
    b.check(dc->finish_command_list(false, &list), "finish_command_list", dc.get());
    return std::unique_ptr<rt::CommandList, void (*)(rt::CommandList*)>(list, [](rt::CommandList* l) { l->release(); });
  };
  auto l2 = record([&](rt::DeferredContext& dc) {
    dc.set_color(palette(1));
    b.check(dc.draw_pretransformed(half, 0), "draw", &dc);
  });
  auto l3 = record([&](rt::DeferredContext& dc) {
    b.check(dc.signal(top, 0x33, rt::SignalStage::TOP_OF_PIPE), "signal", &dc);
    dc.set_color(palette(4));
    b.check(dc.draw_pretransformed(3, 0), "draw", &dc);
  });
  auto l1 = record([&](rt::DeferredContext& dc) {
    b.check(dc.execute_command_list(l2.get(), true), "execute_command_list", &dc);
    dc.set_color(palette(2));
    b.check(dc.draw_pretransformed(nvtx - half, half), "draw", &dc);
    b.check(dc.signal(eop, 1), "signal", &dc);
    b.check(dc.execute_command_list(l3.get(), true), "execute_command_list", &dc);
  });

  rt::ImmediateContext& ctx = b.ctx();
  b.check(ctx.copy_region(vb, 0, staging, 3, vb_bytes), "copy_region");
  b.check(ctx.execute_command_list(l1.get(), true), "execute_command_list");
  b.check(ctx.wait(host, 5), "wait");  // released by the host (FENCE3 = 4, then 6)
  b.check(ctx.set_pretransformed_vertex_buffer(vb), "set_pretransformed_vertex_buffer");
  ctx.set_color(palette(5));
  b.scissor(20, 100, 30, 90);
  b.check(ctx.draw_pretransformed(half, 0), "draw");
  b.check(ctx.signal(eop, 2), "signal");
  b.check(ctx.copy_region(readback, 1, b.target(), 4 * w * 40, 4 * w * 10 + 2), "copy_region");  // rows 40..49 and 2 bytes
  SceneImage& img = b.image();
  img.wait_releases.push_back({{REG_FENCE0 + host->register_index(), 4}, {REG_FENCE0 + host->register_index(), 6}});
  img.eop_fence_mask = (1u << SCENE_FENCE_INDEX) | (1u << eop->register_index());
  return b.finish();
}

// ---- overlap_order ---------------------------------------------------------------------------

SceneImage scene_overlap_order(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 6);
  Builder b("overlap_order", 256, 256, 256 * 4, rgba(20, 20, 20));
  auto pt = [&rng](int lo, int hi) {
    return SceneVertex{static_cast<int32_t>(rng.range(lo * PX, hi * PX)), static_cast<int32_t>(rng.range(lo * PX, hi * PX))};
  };
  // Eight large overlapping triangles, alternating winding, one draw each, with top-of-pipe
  // signals of four user fences (FENCE1..4) in between.
  const std::array<rt::Fence*, 4> fences{b.create_fence(), b.create_fence(), b.create_fence(), b.create_fence()};
  for (uint32_t i = 0; i < 8; ++i) {
    SceneTri t{pt(-20, 276), pt(-20, 276), pt(-20, 276)};
    if (area2(t[0], t[1], t[2]) < 0) std::swap(t[1], t[2]);
    if (i % 2) std::swap(t[1], t[2]);
    b.draw(palette(i), {t});
    b.check(b.ctx().signal(fences[i % 4], 0x100 + i, rt::SignalStage::TOP_OF_PIPE), "signal");
  }
  // One draw with several overlapping triangles and a leftover vertex (count = 3n + 1).
  {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 4; ++i) tris.push_back({pt(80, 176), pt(80, 176), pt(80, 176)});
    uint32_t first = b.add_tris(tris);
    b.add_vertices({pt(0, 255)});
    b.ctx().set_color(rgba(255, 255, 255));
    b.check(b.ctx().draw_pretransformed(static_cast<uint32_t>(tris.size() * 3 + 1), first), "draw");
  }
  // Draws that produce no triangle, and a debug marker (a NOP with a payload).
  b.check(b.ctx().draw_pretransformed(0, 0), "draw");
  b.check(b.ctx().draw_pretransformed(2, 0), "draw");
  b.check(b.ctx().set_marker("overlap_order"), "set_marker");
  // A draw from a second vertex buffer (VB_BASE change, first_vertex 1), then back.
  {
    std::vector<SceneVertex> v{pt(0, 10)};  // vertex 0: skipped by first_vertex = 1
    for (int i = 0; i < 2; ++i) {
      SceneTri t{pt(30, 226), pt(30, 226), pt(30, 226)};
      v.insert(v.end(), t.begin(), t.end());
    }
    rt::Resource* vb2 = b.create_buffer({static_cast<uint32_t>(v.size()) * VERTEX_BYTES, rt::BIND_VERTEX_BUFFER}, v.data());
    b.check(b.ctx().set_pretransformed_vertex_buffer(vb2), "set_pretransformed_vertex_buffer");
    b.ctx().set_color(palette(9));  // VB_BASE and COLOR in one SET_STATE
    b.check(b.ctx().draw_pretransformed(6, 1), "draw");
    b.check(b.ctx().set_pretransformed_vertex_buffer(b.vertex_buffer()), "set_pretransformed_vertex_buffer");
  }
  // Finally a triangle of each winding sharing an edge, on top of everything.
  const SceneVertex a{40 * PX + 128, 200 * PX}, c{216 * PX, 200 * PX}, top{128 * PX, 150 * PX + 128},
      bottom{128 * PX + 37, 250 * PX};
  b.draw(palette(10), {{{a, top, c}}});     // clockwise on screen
  b.draw(palette(11), {{{a, c, bottom}}});  // also clockwise; shares the edge a-c
  b.draw(palette(12), {{{a, bottom, c}}});  // same triangle, other winding, over the previous one
  return b.finish();
}

}  // namespace pineda::scenes
