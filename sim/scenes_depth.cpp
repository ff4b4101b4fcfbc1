// SPDX-License-Identifier: Apache-2.0
// Depth, stencil and CLEAR scenes (issue 14; docs/depth.md, docs/runtime.md "Depth and stencil").
//
// clear_rects[_4x]: OP_CLEAR through the DMA fill: colour clears of part of the target between
//   draws (one partly outside, one empty), depth-stencil clears (both, depth only, stencil only,
//   rectangles) of a 1x and a 4x MSAA D24S8 texture. Runs without ZS (no depth test needed): the
//   memory image, depth buffers included, must match the model.
// The depth scenes bind a D24S8 depth-stencil view next to the render target, clear both with
//   CLEAR and draw with a depth-stencil state:
//   ds_bunny[_4x]    the bunny (~4,000 tris) with culling off, hidden faces by the depth test;
//   ds_bunny_full    the whole bunny (69,666 tris), opt-in;
//   ds_interpenetrate[_4x]  a sphere through a torus (neither drawn order nor culling sorts them);
//   ds_stencil       a stencil mask written by one draw (REPLACE, depth writes off) and used by the
//                    next (EQUAL / NOT_EQUAL), then a depth-tested draw through the mask;
//   ds_funcs         a test card: the eight depth compare functions on a depth ramp against a
//                    cleared depth, and the eight stencil operations as the pass, fail and
//                    depth-fail operations of front and back faces, each checked by a draw with
//                    stencil EQUAL the expected value (green) over one with NOT_EQUAL (red): with a
//                    correct ZS every stencil strip is green.
//   ds_occlusion[_4x|_nohiz|_greater]  Hi-Z occlusion (docs/depth.md §6): a near wall drawn first
//                    (one triangle over 7/8 of the target), then 3,000 small triangles behind it
//                    (a few in the corner the wall leaves open); _nohiz: the same with
//                    FE_DEPTH.DEPTH_HIZ off (the bench's "cycles with Hi-Z off"); _greater: reversed Z
//                    (depth cleared to 0, GREATER_EQUAL / GREATER), the other Hi-Z direction.
//   ds_hiz_random    random depth work for the Hi-Z property (tests/model/test_hiz_scenes.cpp: the
//                    same scene with FE_DEPTH.DEPTH_HIZ on and off gives identical memory, target and
//                    depth buffer): phases of LESS- or GREATER-mostly draws (writes, functions,
//                    stencil, late Z at random), depth clears of random rectangles and values
//                    between them, 1x or 4x MSAA by seed.
// Until ZS is on main the hardware ignores depth and stencil: those scenes only check that the
// state and the CLEARs are carried bit-exactly (RTL == model), so they are in the opt-in list.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "meshes.h"
#include "scene_builder.h"
#include "scene_list.h"
#include "vec_math.h"

namespace pineda::scenes {

namespace {

// A depth-stencil target matching the Builder's render target, bound with it, cleared.
class DepthScene {
 public:
  DepthScene(Builder& b, uint32_t samples, float clear_depth = 1.0f, uint8_t clear_stencil = 0)
      : b_(b), ctx_(b.ctx()) {
    rt::TextureDesc td;
    td.width = b.width();
    td.height = b.height();
    td.samples = samples;
    td.format = rt::Format::D24_UNORM_S8_UINT;
    td.bind = rt::BIND_DEPTH_STENCIL;
    // Garbage in the buffer before the clear: a clear that misses a sample shows in the image.
    const std::vector<uint32_t> junk(static_cast<size_t>(td.width) * td.height * samples, 0x3C00F00Du);
    ds_ = b.create_texture(td, junk.data());
    b.check(b.dev().create_depth_stencil_view(ds_, &dsv_), "create_depth_stencil_view");
    b.check(ctx_.set_render_targets(b.target(), &dsv_), "set_render_targets");
    b.check(ctx_.clear_depth_stencil_view(dsv_, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, clear_depth, clear_stencil),
            "clear_depth_stencil_view");
    rt::InputLayout l;
    b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                         {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                        &l),
            "create_input_layout");
    ctx_.set_input_layout(l);
    b.check(ctx_.set_viewport({0, 0, static_cast<float>(b.width()), static_cast<float>(b.height()), 0, 1}), "set_viewport");
    b.check(ctx_.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  }
  rt::DepthStencilState state(const rt::DepthStencilDesc& d) {
    rt::DepthStencilState s;
    b_.check(b_.dev().create_depth_stencil_state(d, &s), "create_depth_stencil_state");
    return s;
  }
  void use(const rt::DepthStencilDesc& d, uint32_t ref = 0) {
    const rt::DepthStencilState s = state(d);
    b_.check(ctx_.set_depth_stencil_state(&s, ref), "set_depth_stencil_state");
  }
  rt::Resource* vertices(const std::vector<MeshVertex>& v) {
    rt::Resource* r = b_.create_buffer({static_cast<uint32_t>(v.size() * sizeof(MeshVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
    b_.check(ctx_.set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
    return r;
  }
  rt::Resource* indices32(const std::vector<uint32_t>& idx) {
    rt::Resource* r = b_.create_buffer({static_cast<uint32_t>(idx.size() * 4), rt::BIND_INDEX_BUFFER}, idx.data());
    b_.check(ctx_.set_index_buffer(r, rt::IndexFormat::R32_UINT), "set_index_buffer");
    return r;
  }
  const rt::DepthStencilView& dsv() const { return dsv_; }
  rt::Resource* resource() const { return ds_; }

 private:
  Builder& b_;
  rt::ImmediateContext& ctx_;
  rt::Resource* ds_ = nullptr;
  rt::DepthStencilView dsv_;
};

double jitter(SceneRng& rng, double max) { return max * static_cast<double>(rng.range(-1000, 1000)) / 1000.0; }

}  // namespace

// ---- clear_rects --------------------------------------------------------------------------------
SceneImage scene_clear_rects(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 41);
  const uint32_t w = 264, h = 256;
  Builder b(samples == 4 ? "clear_rects_4x" : "clear_rects", w, h, w * 4 * samples + 64, rgba(10, 20, 40), 64 * 1024,
            rgba(255, 0, 255), samples);
  rt::ImmediateContext& ctx = b.ctx();
  const auto tri = [&](int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t x2, int32_t y2) {
    return SceneTri{{{x0 * PX, y0 * PX}, {x1 * PX, y1 * PX}, {x2 * PX, y2 * PX}}};
  };
  const auto rnd = [&](int64_t lo, int64_t hi) { return static_cast<uint32_t>(rng.range(lo, hi)); };
  b.draw(palette(0), {tri(0, 0, 264, 0, 0, 256), tri(264, 0, 264, 256, 0, 256)});
  // Colour clears between draws: random rectangles (every x alignment), one partly outside
  // (clipped), one empty.
  for (uint32_t k = 0; k < 6; ++k) {
    const uint32_t x0 = rnd(0, 220), y0 = rnd(0, 220);
    b.check(ctx.clear_view(b.target(), palette(k + 1), {x0, y0, x0 + rnd(1, 100), y0 + rnd(1, 80)}), "clear_view");
    const auto c = [&](uint32_t hi) { return static_cast<int32_t>(rnd(0, hi)); };
    b.draw(palette(k + 8), {tri(c(260), c(250), c(260), c(250), c(260), c(250))});
  }
  b.check(ctx.clear_view(b.target(), rgba(250, 250, 250), {230, 220, 400, 300}), "clear_view");
  b.check(ctx.clear_view(b.target(), rgba(0, 0, 0), {40, 40, 40, 60}), "clear_view");
  // Depth-stencil textures at 1x and 4x: both, depth only, stencil only, rectangles.
  for (const uint32_t s : {1u, 4u}) {
    rt::TextureDesc td;
    td.width = 77;
    td.height = 33;
    td.samples = s;
    td.pitch = 77 * 4 * s + 4 * (s == 1 ? 3 : 0);
    td.format = rt::Format::D24_UNORM_S8_UINT;
    td.bind = rt::BIND_DEPTH_STENCIL;
    const std::vector<uint32_t> junk(static_cast<size_t>(td.pitch / 4) * td.height, 0xDEADBEEFu);
    rt::Resource* ds = b.create_texture(td, junk.data());
    rt::DepthStencilView v;
    b.check(b.dev().create_depth_stencil_view(ds, &v), "create_depth_stencil_view");
    b.check(ctx.clear_depth_stencil_view(v, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0x11), "clear");
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t x0 = rnd(0, 70), y0 = rnd(0, 30);
      const rt::ClearRect r{x0, y0, x0 + rnd(1, 30), y0 + rnd(1, 12)};
      const uint32_t flags = k % 2 ? rt::CLEAR_FLAG_STENCIL : rt::CLEAR_FLAG_DEPTH;
      b.check(ctx.clear_depth_stencil_rect(v, flags, static_cast<float>(rnd(0, 1000)) / 1000.0f,
                                           static_cast<uint8_t>(rnd(0, 255)), r),
              "clear_depth_stencil_rect");
    }
  }
  b.draw(palette(15), {tri(100, 20, 160, 100, 60, 120)});  // a draw after the last clear
  return b.finish();
}

// ---- ds_bunny -----------------------------------------------------------------------------------
SceneImage scene_ds_bunny(const std::string& name, uint32_t seed, size_t triangles, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 42);
  Builder b(name, 256, 256, 256 * 4 * samples, rgba(30, 30, 36), 64 * 1024, rgba(255, 0, 255), samples);
  DepthScene ds(b, samples);
  b.check(b.ctx().clear_render_target_view(b.target(), rgba(24, 28, 40)), "clear_render_target_view");
  rt::DepthStencilDesc d;  // D3D11's default: LESS, writes on
  ds.use(d);
  const Mesh& m = bunny_mesh();
  ds.vertices(mesh_vertices(m, {1.0, 0.9, 0.8}));
  const std::vector<uint32_t> idx = bunny_indices(triangles, false);
  ds.indices32(idx);
  const double yaw = 0.6 + jitter(rng, 0.2);
  const M4 vp = Camera{{0, 0.25, -2.3}, {0, 0.05, 0}, 0.95, 0.5, 20.0}.view_proj();
  b.ctx().set_transform(to_rt(vp * rotate_y(yaw) * rotate_x(-0.2)));
  // Culling off: back faces are drawn too (file order), the depth test hides them.
  b.check(b.ctx().draw_indexed(static_cast<uint32_t>(idx.size()), 0, 0), "draw_indexed");
  return b.finish();
}

// ---- ds_interpenetrate ----------------------------------------------------------------------------
SceneImage scene_ds_interpenetrate(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 43);
  Builder b(samples == 4 ? "ds_interpenetrate_4x" : "ds_interpenetrate", 256, 256, 256 * 4 * samples, rgba(16, 16, 24),
            64 * 1024, rgba(255, 0, 255), samples);
  DepthScene ds(b, samples);
  rt::ImmediateContext& ctx = b.ctx();
  b.check(ctx.set_rasterizer_state({rt::CullMode::BACK, false, true}), "set_rasterizer_state");
  rt::DepthStencilDesc d;
  d.depth_func = rt::ComparisonFunc::LESS_EQUAL;
  ds.use(d);
  const Mesh s = make_uv_sphere(32, 20);
  const Torus t = make_torus(1.0, 0.3, 48, 16, 0.0);
  std::vector<MeshVertex> v = mesh_vertices(t.mesh, {1.0, 0.75, 0.45});
  const uint32_t sphere_base = static_cast<uint32_t>(v.size());
  const auto sv = mesh_vertices(s, {0.5, 0.8, 1.0});
  v.insert(v.end(), sv.begin(), sv.end());
  ds.vertices(v);
  std::vector<uint32_t> idx = t.mesh.idx;
  const uint32_t sphere_first = static_cast<uint32_t>(idx.size());
  idx.insert(idx.end(), s.idx.begin(), s.idx.end());
  ds.indices32(idx);
  const double spin = jitter(rng, 0.3);
  const M4 vp = Camera{{0, 1.2, -3.2}, {0, 0, 0}, 0.9, 0.5, 20.0}.view_proj();
  // The sphere first (nearest parts and farthest mixed), then the torus through it.
  ctx.set_transform(to_rt(vp * translate({0.9, 0, 0}) * scale(0.55)));
  b.check(ctx.draw_indexed(static_cast<uint32_t>(s.idx.size()), sphere_first, static_cast<int32_t>(sphere_base)), "draw_indexed");
  ctx.set_transform(to_rt(vp * rotate_y(spin) * rotate_x(0.35)));
  b.check(ctx.draw_indexed(sphere_first, 0, 0), "draw_indexed");
  return b.finish();
}

// ---- ds_stencil ---------------------------------------------------------------------------------
SceneImage scene_ds_stencil(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 44);
  Builder b("ds_stencil", 192, 192, 192 * 4, rgba(20, 20, 20));
  DepthScene ds(b, 1, 1.0f, 0);
  rt::ImmediateContext& ctx = b.ctx();
  // Screen-space quads and a star in clip space (identity transform), z per vertex.
  const auto ndc = [&](double px, double py, double z, uint32_t c) {
    return MeshVertex{static_cast<float>(2.0 * px / 192 - 1), static_cast<float>(1 - 2.0 * py / 192), static_cast<float>(z), c};
  };
  std::vector<MeshVertex> v;
  // Draw 0: the mask, a star of 10 triangles around the centre.
  const double cx = 96 + jitter(rng, 8), cy = 96 + jitter(rng, 8);
  for (int k = 0; k < 10; ++k) {
    const double a0 = k * 2 * kPi / 10, a1 = (k + 1) * 2 * kPi / 10, r = k % 2 ? 40 : 85;
    v.push_back(ndc(cx, cy, 0.5, rgba(60, 60, 200)));
    v.push_back(ndc(cx + r * std::cos(a0), cy + r * std::sin(a0), 0.5, rgba(60, 60, 200)));
    v.push_back(ndc(cx + (k % 2 ? 85 : 40) * std::cos(a1), cy + (k % 2 ? 85 : 40) * std::sin(a1), 0.5, rgba(60, 60, 200)));
  }
  const auto quad = [&](double x0, double y0, double x1, double y1, double zl, double zr, uint32_t c) {
    v.push_back(ndc(x0, y0, zl, c));
    v.push_back(ndc(x1, y0, zr, c));
    v.push_back(ndc(x0, y1, zl, c));
    v.push_back(ndc(x1, y0, zr, c));
    v.push_back(ndc(x1, y1, zr, c));
    v.push_back(ndc(x0, y1, zl, c));
  };
  const uint32_t q_in = static_cast<uint32_t>(v.size());
  quad(0, 0, 192, 192, 0.6, 0.6, rgba(240, 200, 40));  // inside the mask
  const uint32_t q_out = static_cast<uint32_t>(v.size());
  quad(0, 0, 192, 192, 0.6, 0.6, rgba(40, 90, 60));    // outside the mask
  const uint32_t q_ramp = static_cast<uint32_t>(v.size());
  quad(20, 70, 172, 122, 0.3, 0.9, rgba(230, 60, 60));  // through the mask, depth-tested
  ds.vertices(v);
  ctx.set_transform(rt::Matrix4::identity());
  // The mask: stencil REPLACE with ref 1, no depth writes.
  rt::DepthStencilDesc mask;
  mask.depth_enable = false;
  mask.stencil_enable = true;
  mask.front.pass = mask.back.pass = rt::StencilOp::REPLACE;
  ds.use(mask, 1);
  b.check(ctx.draw(30, 0), "draw");
  // Inside: EQUAL 1 (writes depth 0.6); outside: NOT_EQUAL 1.
  rt::DepthStencilDesc in;
  in.stencil_enable = true;
  in.stencil_write_mask = 0;
  in.front.func = in.back.func = rt::ComparisonFunc::EQUAL;
  ds.use(in, 1);
  b.check(ctx.draw(6, q_in), "draw");
  rt::DepthStencilDesc out = in;
  out.front.func = out.back.func = rt::ComparisonFunc::NOT_EQUAL;
  out.depth_write = false;
  ds.use(out, 1);
  b.check(ctx.draw(6, q_out), "draw");
  // A depth ramp 0.3 .. 0.9 through the mask: visible inside the star where it is nearer than 0.6,
  // everywhere outside it (depth 1.0 there), and it increments the stencil where it passes.
  rt::DepthStencilDesc ramp;
  ramp.stencil_enable = true;
  ramp.front.pass = ramp.back.pass = rt::StencilOp::INCR_SAT;
  ds.use(ramp, 0);
  b.check(ctx.draw(6, q_ramp), "draw");
  return b.finish();
}

// ---- ds_funcs -----------------------------------------------------------------------------------
SceneImage scene_ds_funcs(uint32_t seed) {
  (void)seed;  // the card is fixed
  const uint32_t W = 256, H = 160, cell = 32;
  Builder b("ds_funcs", W, H, W * 4, rgba(40, 40, 40));
  DepthScene ds(b, 1, 0.5f, 0);
  rt::ImmediateContext& ctx = b.ctx();
  ctx.set_transform(rt::Matrix4::identity());
  std::vector<MeshVertex> v;
  const auto ndc = [&](double px, double py, double z, uint32_t c) {
    return MeshVertex{static_cast<float>(2.0 * px / W - 1), static_cast<float>(1 - 2.0 * py / H), static_cast<float>(z), c};
  };
  // A quad; `back` reverses its winding (a back face: front faces are clockwise on screen).
  const auto quad = [&](double x0, double y0, double x1, double y1, double zl, double zr, uint32_t c, bool back) {
    const uint32_t first = static_cast<uint32_t>(v.size());
    MeshVertex a = ndc(x0, y0, zl, c), bb = ndc(x1, y0, zr, c), cc = ndc(x0, y1, zl, c), dd = ndc(x1, y1, zr, c);
    if (back) {
      v.insert(v.end(), {a, cc, bb, bb, cc, dd});
    } else {
      v.insert(v.end(), {a, bb, cc, bb, dd, cc});
    }
    return first;
  };
  // Row 0: depth function f (D3D11 value f + 1) on a ramp 0.25 .. 0.75 against the cleared 0.5.
  std::vector<uint32_t> zq;
  for (uint32_t f = 0; f < 8; ++f) zq.push_back(quad(f * cell + 2, 2, f * cell + cell - 2, cell - 2, 0.25, 0.75, palette(f), false));
  // Rows 1-4: stencil operation op as pass (row 1), fail (row 2), depth-fail (row 3) operation of a
  // front face, and as pass operation of a back face (row 4). Stencil cleared to 0xFF in columns
  // 0-3 and 0x00 in columns 4-7 (saturation and wrap show), reference 0x5A, write mask 0xFF but
  // 0x0F in the back-face row.
  struct Strip {
    uint32_t row, op;
    uint32_t stencil0;
    bool back;
    uint8_t wmask;
  };
  std::vector<Strip> strips;
  for (uint32_t row = 1; row <= 4; ++row) {
    for (uint32_t op = 0; op < 8; ++op) strips.push_back({row, op, op < 4 ? 0xFFu : 0x00u, row == 4, row == 4 ? uint8_t{0x0F} : uint8_t{0xFF}});
  }
  // Operations in the column order: KEEP, ZERO, REPLACE, INCR_SAT | DECR_SAT, INVERT, INCR, DECR.
  const auto apply = [](uint32_t op, uint32_t s, uint32_t ref) -> uint32_t {
    switch (op) {
      case 0: return s;
      case 1: return 0;
      case 2: return ref;
      case 3: return std::min<uint32_t>(s + 1, 255);
      case 4: return s == 0 ? 0 : s - 1;
      case 5: return ~s & 0xFF;
      case 6: return (s + 1) & 0xFF;
      default: return (s - 1) & 0xFF;
    }
  };
  const uint32_t ref = 0x5A;
  std::vector<uint32_t> sq, chk_ok, chk_bad;
  for (const Strip& s : strips) {
    const double x0 = s.op * cell + 2, y0 = s.row * cell + 2;
    sq.push_back(quad(x0, y0, x0 + cell - 4, y0 + cell - 4, 0.25, 0.25, rgba(90, 90, 90), s.back));
    chk_bad.push_back(quad(x0 + 4, y0 + 4, x0 + cell - 8, y0 + cell - 8, 0.1, 0.1, rgba(220, 30, 30), false));
    chk_ok.push_back(quad(x0 + 4, y0 + 4, x0 + cell - 8, y0 + cell - 8, 0.1, 0.1, rgba(30, 220, 30), false));
  }
  ds.vertices(v);
  // Stencil columns: 0xFF in columns 0-3, 0x00 in 4-7 (rectangle clears of stencil alone).
  b.check(ctx.clear_depth_stencil_rect(ds.dsv(), rt::CLEAR_FLAG_STENCIL, 0, 0xFF, {0, cell, 4 * cell, H}), "clear");
  b.check(ctx.clear_depth_stencil_rect(ds.dsv(), rt::CLEAR_FLAG_STENCIL, 0, 0x00, {4 * cell, cell, 8 * cell, H}), "clear");
  for (uint32_t f = 0; f < 8; ++f) {
    rt::DepthStencilDesc d;
    d.depth_func = static_cast<rt::ComparisonFunc>(f + 1);
    d.depth_write = false;
    ds.use(d);
    b.check(ctx.draw(6, zq[f]), "draw");
  }
  for (size_t k = 0; k < strips.size(); ++k) {
    const Strip& s = strips[k];
    const auto op = static_cast<rt::StencilOp>(s.op + 1);
    rt::DepthStencilDesc d;
    d.depth_write = false;
    d.stencil_enable = true;
    d.stencil_write_mask = s.wmask;
    rt::DepthStencilOpDesc& face = s.back ? d.back : d.front;
    switch (s.row) {
      case 1: case 4: face.pass = op; break;                                   // stencil and depth pass
      case 2: face.fail = op; face.func = rt::ComparisonFunc::NEVER; break;     // stencil fails
      default: face.depth_fail = op; d.depth_func = rt::ComparisonFunc::NEVER; break;  // depth fails
    }
    ds.use(d, ref);
    b.check(ctx.draw(6, sq[k]), "draw");
  }
  // Checks: red where the stencil is not the expected value, green where it is.
  for (size_t k = 0; k < strips.size(); ++k) {
    const Strip& s = strips[k];
    const uint32_t want = (s.stencil0 & ~uint32_t{s.wmask}) | (apply(s.op, s.stencil0, ref) & s.wmask);
    rt::DepthStencilDesc d;
    d.depth_enable = false;
    d.stencil_enable = true;
    d.stencil_write_mask = 0;
    d.front.func = rt::ComparisonFunc::NOT_EQUAL;
    ds.use(d, want);
    b.check(ctx.draw(6, chk_bad[k]), "draw");
    d.front.func = rt::ComparisonFunc::EQUAL;
    ds.use(d, want);
    b.check(ctx.draw(6, chk_ok[k]), "draw");
  }
  return b.finish();
}

// ---- ds_occlusion -------------------------------------------------------------------------------
SceneImage scene_ds_occlusion(const std::string& name, uint32_t seed, uint32_t samples, bool hiz, bool greater) {
  SceneRng rng(seed * 0x100000001ull + 45);
  const uint32_t W = 256, H = 256;
  Builder b(name, W, H, W * 4 * samples, rgba(12, 12, 20), 64 * 1024, rgba(255, 0, 255), samples);
  DepthScene ds(b, samples, greater ? 0.0f : 1.0f, 0);
  rt::ImmediateContext& ctx = b.ctx();
  ctx.set_transform(rt::Matrix4::identity());
  // Depth d in [0, 1] as "distance": reversed Z stores 1 - d.
  const auto zof = [&](double d) { return static_cast<float>(greater ? 1.0 - d : d); };
  const auto ndc = [&](double px, double py, double d, uint32_t c) {
    return MeshVertex{static_cast<float>(2.0 * px / W - 1), static_cast<float>(1 - 2.0 * py / H), zof(d), c};
  };
  std::vector<MeshVertex> v;
  // The wall: x + y < 1.75 W, at distance 0.2 .. 0.3 (a slight slope).
  v.push_back(ndc(0, 0, 0.2, rgba(200, 190, 170)));
  v.push_back(ndc(1.75 * W, 0, 0.3, rgba(170, 160, 140)));
  v.push_back(ndc(0, 1.75 * H, 0.3, rgba(150, 140, 120)));
  // Behind it: 3,000 triangles of 6 to 30 pixels at distance 0.4 .. 0.95, front faces (clockwise).
  const uint32_t n = 3000;
  for (uint32_t k = 0; k < n; ++k) {
    const double cx = static_cast<double>(rng.range(0, W * 16)) / 16.0, cy = static_cast<double>(rng.range(0, H * 16)) / 16.0;
    const double r = static_cast<double>(rng.range(6 * 16, 30 * 16)) / 32.0;
    const double d = static_cast<double>(rng.range(400, 950)) / 1000.0;
    const double a = static_cast<double>(rng.range(0, 6283)) / 1000.0;
    const uint32_t c = palette(k % 16);
    for (int j = 0; j < 3; ++j) {
      const double t = a + j * 2.0943951;  // clockwise on screen (y down)
      v.push_back(ndc(cx + r * std::cos(t), cy + r * std::sin(t), d + 0.01 * j, c));
    }
  }
  ds.vertices(v);
  rt::DepthStencilDesc d;
  d.depth_func = greater ? rt::ComparisonFunc::GREATER_EQUAL : rt::ComparisonFunc::LESS;
  d.hiz = hiz;
  ds.use(d);
  b.check(ctx.draw(3, 0), "draw");  // the wall
  d.depth_func = greater ? rt::ComparisonFunc::GREATER : rt::ComparisonFunc::LESS_EQUAL;
  ds.use(d);
  b.check(ctx.draw(3 * n, 3), "draw");
  return b.finish();
}

// ---- ds_hiz_random ------------------------------------------------------------------------------
SceneImage scene_ds_hiz_random(const std::string& name, uint32_t seed, bool hiz) {
  SceneRng rng(seed * 0x100000001ull + 46);
  const uint32_t samples = rng.chance(50) ? 4 : 1;
  const uint32_t W = 256, H = 256;
  Builder b(name, W, H, W * 4 * samples, rgba(8, 8, 8), 64 * 1024, rgba(255, 0, 255), samples);
  DepthScene ds(b, samples, 1.0f, 0);
  rt::ImmediateContext& ctx = b.ctx();
  ctx.set_transform(rt::Matrix4::identity());
  const auto ndc = [&](double px, double py, double z, uint32_t c) {
    return MeshVertex{static_cast<float>(2.0 * px / W - 1), static_cast<float>(1 - 2.0 * py / H), static_cast<float>(z), c};
  };
  std::vector<MeshVertex> v;
  const uint32_t per_draw = 25, draws = 24;
  for (uint32_t k = 0; k < per_draw * draws; ++k) {
    // Large (walls, fully covered tiles) and small triangles, partly outside the target.
    const double size = rng.chance(12) ? static_cast<double>(rng.range(60, 200)) : static_cast<double>(rng.range(4, 40));
    const double cx = static_cast<double>(rng.range(-20, W + 20)), cy = static_cast<double>(rng.range(-20, H + 20));
    const double z = static_cast<double>(rng.range(0, 1000)) / 1000.0;
    for (int j = 0; j < 3; ++j) {
      const double dz = static_cast<double>(rng.range(-80, 80)) / 1000.0;
      v.push_back(ndc(cx + static_cast<double>(rng.range(-1000, 1000)) * size / 1000.0,
                      cy + static_cast<double>(rng.range(-1000, 1000)) * size / 1000.0, std::clamp(z + dz, 0.0, 1.0),
                      palette(k % 16)));
    }
  }
  ds.vertices(v);
  // Snapshots of depth rows between draws (COPY from the depth buffer: ZS must write back the
  // dirty lines of the rows it copies and may keep others, docs/depth.md "span"), and snapshot
  // rows copied back into the depth buffer (ZS must drop the lines, Hi-Z forget the buffer). The
  // snapshot buffer is compared with the model's like all memory.
  const uint32_t pitch = W * 4 * samples;
  rt::Resource* snap = b.create_buffer({pitch * H, 0}, nullptr);
  bool g = false;
  for (uint32_t d = 0; d < draws; ++d) {
    if (rng.chance(20)) {
      const uint32_t y0 = static_cast<uint32_t>(rng.range(0, H - 1));
      const uint32_t n = static_cast<uint32_t>(rng.range(1, std::min<int64_t>(32, H - y0)));
      const uint32_t skew = static_cast<uint32_t>(rng.range(0, 63));  // any alignment
      b.check(ctx.copy_region(snap, y0 * pitch, ds.resource(), y0 * pitch + skew, n * pitch - skew), "copy_region");
    }
    if (rng.chance(15)) {  // rows of the snapshot copied back: a DMA write into the depth buffer,
                           // which Hi-Z must forget (docs/depth.md section 6, "forget")
      const uint32_t y0 = static_cast<uint32_t>(rng.range(0, H - 1));
      const uint32_t n = static_cast<uint32_t>(rng.range(1, std::min<int64_t>(64, H - y0)));
      b.check(ctx.copy_region(ds.resource(), y0 * pitch, snap, y0 * pitch, n * pitch), "copy_region");
    }
    if (d % 6 == 0 && rng.chance(70)) g = !g;  // phases of one direction
    if (rng.chance(25)) {                       // a depth clear (sometimes with stencil), a rectangle or all
      const uint32_t x0 = static_cast<uint32_t>(rng.range(0, W - 1)), y0 = static_cast<uint32_t>(rng.range(0, H - 1));
      const rt::ClearRect r = rng.chance(50) ? rt::ClearRect{0, 0, W, H}
                                             : rt::ClearRect{x0, y0, static_cast<uint32_t>(rng.range(x0 + 1, W)),
                                                             static_cast<uint32_t>(rng.range(y0 + 1, H))};
      const float val = rng.chance(60) ? (g ? 0.0f : 1.0f) : static_cast<float>(rng.range(0, 1000)) / 1000.0f;
      b.check(ctx.clear_depth_stencil_rect(ds.dsv(), rt::CLEAR_FLAG_DEPTH | (rng.chance(30) ? rt::CLEAR_FLAG_STENCIL : 0u),
                                           val, static_cast<uint8_t>(rng.range(0, 3)), r),
              "clear_depth_stencil_rect");
    }
    rt::DepthStencilDesc dd;
    const uint32_t f = static_cast<uint32_t>(rng.range(0, 99));
    if (f < 80) {
      dd.depth_func = g ? (f % 2 ? rt::ComparisonFunc::GREATER : rt::ComparisonFunc::GREATER_EQUAL)
                        : (f % 2 ? rt::ComparisonFunc::LESS : rt::ComparisonFunc::LESS_EQUAL);
    } else {
      dd.depth_func = static_cast<rt::ComparisonFunc>(rng.range(1, 8));  // any, a change of direction too
    }
    dd.depth_write = rng.chance(85);
    dd.depth_enable = rng.chance(95);
    dd.late_z = rng.chance(10);
    dd.hiz = hiz;
    if (rng.chance(10)) {  // stencil: write 1 where drawn, or test against it
      dd.stencil_enable = true;
      dd.front.func = dd.back.func = rng.chance(50) ? rt::ComparisonFunc::ALWAYS : rt::ComparisonFunc::EQUAL;
      dd.front.pass = dd.back.pass = rt::StencilOp::INCR_SAT;
    }
    ds.use(dd, 1);
    b.check(ctx.draw(3 * per_draw, 3 * per_draw * d), "draw");
  }
  return b.finish();
}

}  // namespace pineda::scenes
