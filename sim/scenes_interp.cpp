// SPDX-License-Identifier: Apache-2.0
// Attribute interpolation scenes (issue 15, docs/interp.md): Gouraud shading through INTERP.
//
// interp_gouraud[_4x]: a UV sphere and a torus with strongly varying vertex colours (a colour per
//   vertex from its normal or its position) through the front end with perspective and depth,
//   FE_SHADE.SHADE_GOURAUD on (Context::set_gouraud): every pixel gets the perspective-correct
//   colour of its centre (at 4x MSAA too, all samples of a pixel). The torus crosses the near
//   plane, so PA clips some of its triangles into fans (their vertex colours come from the
//   clipper).
// interp_flat_vs_gouraud: the same sphere twice, flat (left: the provoking vertex's colour per
//   triangle) and Gouraud (right), then a translucent Gouraud band blended over both (SRC_ALPHA /
//   INV_SRC_ALPHA, per-vertex alpha): the blend unit takes each pixel's own colour.
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

// Vertex colours that change a lot across a triangle: the normal mapped to RGB.
uint32_t normal_colour(V3 n, uint32_t alpha = 255) {
  const auto ch = [](double v) { return static_cast<uint32_t>(std::clamp(std::lround(127.5 + 127.5 * v), 0L, 255L)); };
  return ch(n.x) | ch(n.y) << 8 | ch(n.z) << 16 | alpha << 24;
}

std::vector<MeshVertex> rainbow_vertices(const Mesh& m) {
  std::vector<MeshVertex> v(m.pos.size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = {static_cast<float>(m.pos[i].x), static_cast<float>(m.pos[i].y), static_cast<float>(m.pos[i].z),
            normal_colour(m.normal[i])};
  }
  return v;
}

double jitter(SceneRng& rng, double max) { return max * static_cast<double>(rng.range(-1000, 1000)) / 1000.0; }

// The render target plus a cleared D24S8 depth buffer (depth LESS, writes on), the
// position + colour input layout, the viewport; culling off.
void depth_setup(Builder& b, uint32_t samples) {
  rt::ImmediateContext& ctx = b.ctx();
  rt::TextureDesc td;
  td.width = b.width();
  td.height = b.height();
  td.samples = samples;
  td.format = rt::Format::D24_UNORM_S8_UINT;
  td.bind = rt::BIND_DEPTH_STENCIL;
  const std::vector<uint32_t> junk(static_cast<size_t>(td.width) * td.height * samples, 0x3C00F00Du);
  rt::Resource* ds = b.create_texture(td, junk.data());
  rt::DepthStencilView dsv;
  b.check(b.dev().create_depth_stencil_view(ds, &dsv), "create_depth_stencil_view");
  b.check(ctx.set_render_targets(b.target(), &dsv), "set_render_targets");
  b.check(ctx.clear_depth_stencil_view(dsv, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0), "clear_depth_stencil_view");
  rt::DepthStencilDesc d;  // LESS, writes on
  rt::DepthStencilState s;
  b.check(b.dev().create_depth_stencil_state(d, &s), "create_depth_stencil_state");
  b.check(ctx.set_depth_stencil_state(&s, 0), "set_depth_stencil_state");
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  b.check(ctx.set_viewport({0, 0, static_cast<float>(b.width()), static_cast<float>(b.height()), 0, 1}), "set_viewport");
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
}

void bind_vertices(Builder& b, const std::vector<MeshVertex>& v) {
  rt::Resource* r = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(MeshVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
  b.check(b.ctx().set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
}

void bind_indices(Builder& b, const std::vector<uint32_t>& idx) {
  rt::Resource* r = b.create_buffer({static_cast<uint32_t>(idx.size() * 4), rt::BIND_INDEX_BUFFER}, idx.data());
  b.check(b.ctx().set_index_buffer(r, rt::IndexFormat::R32_UINT), "set_index_buffer");
}

}  // namespace

// ---- interp_gouraud -----------------------------------------------------------------------------
SceneImage scene_interp_gouraud(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 71);
  const uint32_t w = 160, h = 160;
  Builder b(samples == 4 ? "interp_gouraud_4x" : "interp_gouraud", w, h, w * 4 * samples, rgba(20, 20, 28), 64 * 1024,
            rgba(255, 0, 255), samples);
  depth_setup(b, samples);
  rt::ImmediateContext& ctx = b.ctx();
  ctx.set_gouraud(true);
  const Mesh s = make_uv_sphere(24, 14);
  const Torus t = make_torus(1.0, 0.35, 32, 12, 0.0);
  std::vector<MeshVertex> v = rainbow_vertices(s);
  const uint32_t torus_base = static_cast<uint32_t>(v.size());
  const auto tv = rainbow_vertices(t.mesh);
  v.insert(v.end(), tv.begin(), tv.end());
  bind_vertices(b, v);
  std::vector<uint32_t> idx = s.idx;
  const uint32_t torus_first = static_cast<uint32_t>(idx.size());
  idx.insert(idx.end(), t.mesh.idx.begin(), t.mesh.idx.end());
  bind_indices(b, idx);
  const M4 vp = Camera{{0, 0.5, -3.0}, {0, 0, 0}, 0.9, 0.6, 20.0}.view_proj();
  const double spin = jitter(rng, 0.3);
  ctx.set_transform(to_rt(vp * translate({0.35, 0.1, 0.4}) * rotate_y(0.5 + spin) * scale(0.8)));
  b.check(ctx.draw_indexed(torus_first, 0, 0), "draw_indexed");
  // The torus tilted towards the camera: its near side crosses the near plane (clipped fans).
  ctx.set_transform(to_rt(vp * translate({-0.3, -0.25, -1.9}) * rotate_x(0.5 + spin) * rotate_y(spin) * scale(0.8)));
  b.check(ctx.draw_indexed(static_cast<uint32_t>(t.mesh.idx.size()), torus_first, static_cast<int32_t>(torus_base)),
          "draw_indexed");
  return b.finish();
}

// ---- interp_flat_vs_gouraud ---------------------------------------------------------------------
SceneImage scene_interp_flat_vs_gouraud(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 72);
  const uint32_t w = 224, h = 112;
  Builder b("interp_flat_vs_gouraud", w, h, w * 4, rgba(16, 24, 32));
  depth_setup(b, 1);
  rt::ImmediateContext& ctx = b.ctx();
  const Mesh s = make_uv_sphere(16, 10);
  std::vector<MeshVertex> v = rainbow_vertices(s);
  // A band of two triangles in front of both spheres, alpha and colour per vertex.
  const uint32_t band = static_cast<uint32_t>(v.size());
  const float z = 0.2f;
  v.push_back({-0.95f, -0.15f, z, rgba(255, 40, 40) & 0x40FFFFFFu});
  v.push_back({0.95f, -0.15f, z, rgba(40, 255, 40) & 0xE0FFFFFFu});
  v.push_back({-0.95f, -0.55f, z, rgba(40, 40, 255) & 0xA0FFFFFFu});
  v.push_back({0.95f, -0.15f, z, rgba(40, 255, 40) & 0xE0FFFFFFu});
  v.push_back({0.95f, -0.55f, z, rgba(255, 255, 40) & 0x20FFFFFFu});
  v.push_back({-0.95f, -0.55f, z, rgba(40, 40, 255) & 0xA0FFFFFFu});
  bind_vertices(b, v);
  bind_indices(b, s.idx);
  const M4 vp = Camera{{0, 0.4, -3.0}, {0, 0, 0}, 0.7, 0.5, 20.0}.view_proj(2.0);
  const double spin = jitter(rng, 0.4);
  for (int k = 0; k < 2; ++k) {
    ctx.set_gouraud(k == 1);  // left flat, right Gouraud
    ctx.set_transform(to_rt(vp * translate({k == 0 ? -1.05 : 1.05, 0, 0}) * rotate_y(spin) * rotate_x(0.3)));
    b.check(ctx.draw_indexed(static_cast<uint32_t>(s.idx.size()), 0, 0), "draw_indexed");
  }
  // The band: clip-space positions, blended over (depth test on, no depth writes needed).
  rt::BlendDesc over;
  over.render_target.blend_enable = true;
  over.render_target.src_blend = rt::Blend::SRC_ALPHA;
  over.render_target.dest_blend = rt::Blend::INV_SRC_ALPHA;
  over.render_target.src_blend_alpha = rt::Blend::ONE;
  over.render_target.dest_blend_alpha = rt::Blend::INV_SRC_ALPHA;
  rt::BlendState bs;
  b.check(b.dev().create_blend_state(over, &bs), "create_blend_state");
  b.check(ctx.set_blend_state(&bs), "set_blend_state");
  ctx.set_gouraud(true);
  ctx.set_transform(rt::Matrix4::identity());
  b.check(ctx.draw(6, band), "draw");
  return b.finish();
}

}  // namespace pineda::scenes
