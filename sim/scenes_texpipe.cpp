// SPDX-License-Identifier: Apache-2.0
// TEX and COMB in the pipeline (issue 15, docs/comb.md section 5; helper texpipe's proof scene).
//
// tex_pipe_cube: a 128x128 target with a depth buffer. A floor receding in perspective with a
//   64x64 checker (full host-made mip chain, trilinear, WRAP, uv up to 12: every level from
//   magnified to the 1x1 end of the chain), a rotating cube with a 32x32 gradient per face
//   (bilinear, MIRROR, MODULATE with per-face vertex colours), a BC1 panel (DECAL; the runtime's
//   BC1 encoder keeps alpha 255, so the panel shows its texels) and an
//   alpha-tested fence in front (point sampling, REPLACE, GREATER 128: the holes show the cube;
//   depth is tested and written early for it, the interim rule of comb.md section 5).
#include <cstdint>
#include <string>
#include <vector>

#include "scene_builder.h"
#include "scene_list.h"
#include "vec_math.h"

namespace pineda::scenes {

namespace {

struct TexVertex {
  float x, y, z;
  uint32_t color;
  float u, v;
};
static_assert(sizeof(TexVertex) == 24, "24-byte vertices");

// A sampled texture of w x h RGBA8 texels (mips: the full chain made on the host) with a view.
rt::ShaderResourceView* make_view(Builder& b, uint32_t w, uint32_t h, const std::vector<uint32_t>& px, bool mips,
                                  rt::TexFormat fmt = rt::TexFormat::R8G8B8A8_UNORM) {
  rt::Texture2DDesc d;
  d.width = w;
  d.height = h;
  d.mip_levels = mips ? 0 : 1;
  d.format = fmt;
  d.misc = (mips ? rt::TEX_MISC_GENERATE_MIPS : 0u) | (fmt != rt::TexFormat::R8G8B8A8_UNORM ? rt::TEX_MISC_INIT_RGBA8 : 0u);
  const rt::SubresourceData sd{px.data(), w * 4};
  rt::Resource* t = nullptr;
  b.check(b.dev().create_texture2d(d, &sd, &t), "create_texture2d");
  rt::ShaderResourceView* v = nullptr;
  b.check(b.dev().create_shader_resource_view(t, nullptr, &v), "create_shader_resource_view");
  t->release();  // the view holds it
  return v;
}

rt::SamplerState* make_sampler(Builder& b, rt::Filter f, rt::TextureAddressMode a, float bias = 0.0f) {
  rt::SamplerDesc d;
  d.filter = f;
  d.address_u = d.address_v = a;
  d.mip_lod_bias = bias;
  rt::SamplerState* s = nullptr;
  b.check(b.dev().create_sampler_state(d, &s), "create_sampler_state");
  return s;
}

void quad(std::vector<TexVertex>& v, const V3 p[4], uint32_t c, float u0, float v0, float u1, float v1) {
  const TexVertex q[4] = {{float(p[0].x), float(p[0].y), float(p[0].z), c, u0, v0},
                          {float(p[1].x), float(p[1].y), float(p[1].z), c, u1, v0},
                          {float(p[2].x), float(p[2].y), float(p[2].z), c, u1, v1},
                          {float(p[3].x), float(p[3].y), float(p[3].z), c, u0, v1}};
  for (int k : {0, 1, 2, 0, 2, 3}) v.push_back(q[k]);
}

}  // namespace

SceneImage scene_tex_pipe_cube(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 151);
  const uint32_t w = 128, h = 128;
  Builder b("tex_pipe_cube", w, h, w * 4, rgba(30, 40, 60));
  rt::ImmediateContext& ctx = b.ctx();
  // depth buffer, LESS, writes on
  rt::TextureDesc td;
  td.width = w;
  td.height = h;
  td.format = rt::Format::D24_UNORM_S8_UINT;
  td.bind = rt::BIND_DEPTH_STENCIL;
  const std::vector<uint32_t> junk(static_cast<size_t>(w) * h, 0x3C00F00Du);
  rt::Resource* ds = b.create_texture(td, junk.data());
  rt::DepthStencilView dsv;
  b.check(b.dev().create_depth_stencil_view(ds, &dsv), "create_depth_stencil_view");
  b.check(ctx.set_render_targets(b.target(), &dsv), "set_render_targets");
  b.check(ctx.clear_depth_stencil_view(dsv, rt::CLEAR_FLAG_DEPTH, 1.0f, 0), "clear_depth_stencil_view");
  rt::DepthStencilState dss;
  b.check(b.dev().create_depth_stencil_state(rt::DepthStencilDesc{}, &dss), "create_depth_stencil_state");
  b.check(ctx.set_depth_stencil_state(&dss, 0), "set_depth_stencil_state");
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12},
                                       {rt::Semantic::TEXCOORD0, rt::VertexFormat::F32X2, 0, 16}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  b.check(ctx.set_viewport({0, 0, float(w), float(h), 0, 1}), "set_viewport");
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  ctx.set_gouraud(true);

  // textures
  std::vector<uint32_t> checker(64 * 64), grad(32 * 32), fence(16 * 16), panel(32 * 32);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x)
      checker[y * 64 + x] = ((x / 8 + y / 8) & 1) ? rgba(230, 220, 200) : rgba(40 + x, 60, 90 + y);
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x)
      grad[y * 32 + x] = (x == 0 || y == 0) ? rgba(255, 255, 255) : rgba(x * 8, y * 8, 255 - x * 4);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      const bool bar = (x % 4) == 0 || (y % 4) == 0;
      fence[y * 16 + x] = bar ? rgba(200, 120, 40) : (rgba(10, 10, 10) & 0x40FFFFFFu);
    }
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x)
      panel[y * 32 + x] = ((x - 16) * (x - 16) + (y - 16) * (y - 16) < 144) ? rgba(250, 40, 40) : (rgba(20, 200, 60) & 0x00FFFFFFu);
  rt::ShaderResourceView* v_checker = make_view(b, 64, 64, checker, true);
  rt::ShaderResourceView* v_grad = make_view(b, 32, 32, grad, false);
  rt::ShaderResourceView* v_fence = make_view(b, 16, 16, fence, false);
  rt::ShaderResourceView* v_panel = make_view(b, 32, 32, panel, false, rt::TexFormat::BC1_UNORM);
  rt::SamplerState* s_tri = make_sampler(b, rt::Filter::MIN_MAG_MIP_LINEAR, rt::TextureAddressMode::WRAP);
  rt::SamplerState* s_bil = make_sampler(b, rt::Filter::MIN_MAG_LINEAR_MIP_POINT, rt::TextureAddressMode::MIRROR);
  rt::SamplerState* s_pt = make_sampler(b, rt::Filter::MIN_MAG_MIP_POINT, rt::TextureAddressMode::WRAP);

  std::vector<TexVertex> v;
  // floor: y = -1, z from -2 to 30
  const V3 floor[4] = {{-12, -1, -2}, {12, -1, -2}, {12, -1, 30}, {-12, -1, 30}};
  const uint32_t floor_first = 0;
  quad(v, floor, rgba(255, 255, 255), 0, 0, 12, 16);
  // cube: 6 faces of the unit cube, uv -0.25..1.25 (MIRROR at the edges)
  const uint32_t cube_first = static_cast<uint32_t>(v.size());
  const V3 c[8] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}};
  const int faces[6][4] = {{0, 1, 2, 3}, {5, 4, 7, 6}, {4, 0, 3, 7}, {1, 5, 6, 2}, {3, 2, 6, 7}, {4, 5, 1, 0}};
  const uint32_t fc[6] = {rgba(255, 255, 255), rgba(255, 200, 200), rgba(200, 255, 200),
                          rgba(200, 200, 255), rgba(255, 255, 160), rgba(160, 255, 255)};
  for (int f = 0; f < 6; ++f) {
    const V3 p[4] = {c[faces[f][0]], c[faces[f][1]], c[faces[f][2]], c[faces[f][3]]};
    quad(v, p, fc[f], -0.25f, -0.25f, 1.25f, 1.25f);
  }
  // BC1 panel (right, behind the cube) and the fence (in front)
  const uint32_t panel_first = static_cast<uint32_t>(v.size());
  const V3 pp[4] = {{0.6, 1.4, 1.5}, {2.2, 1.4, 1.5}, {2.2, -0.2, 1.5}, {0.6, -0.2, 1.5}};
  quad(v, pp, rgba(90, 90, 220), 0, 0, 1, 1);
  const uint32_t fence_first = static_cast<uint32_t>(v.size());
  const V3 fp[4] = {{-1.8, 0.9, -1.6}, {0.4, 0.9, -1.6}, {0.4, -1.0, -1.6}, {-1.8, -1.0, -1.6}};
  quad(v, fp, rgba(255, 255, 255), 0, 0, 3, 3);
  rt::Resource* vb = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(TexVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
  b.check(ctx.set_vertex_buffer(0, vb, sizeof(TexVertex)), "set_vertex_buffer");

  const M4 vp = Camera{{0.4, 1.2, -4.5}, {0, -0.2, 2}, 0.9, 0.5, 60.0}.view_proj();
  const double spin = 0.6 + 0.2 * static_cast<double>(rng.range(-1000, 1000)) / 1000.0;
  // floor: trilinear MODULATE
  ctx.set_transform(to_rt(vp));
  b.check(ctx.set_shader_resource(0, v_checker), "set_shader_resource");
  b.check(ctx.set_sampler(0, s_tri), "set_sampler");
  b.check(ctx.set_texture_combine(0, rt::TextureCombine::MODULATE), "set_texture_combine");
  b.check(ctx.draw(6, floor_first), "draw floor");
  // cube: bilinear MODULATE with per-face colours
  ctx.set_transform(to_rt(vp * translate({0, 0, 0.5}) * rotate_y(spin) * rotate_x(0.45) * scale(0.7)));
  b.check(ctx.set_shader_resource(0, v_grad), "set_shader_resource");
  b.check(ctx.set_sampler(0, s_bil), "set_sampler");
  b.check(ctx.draw(36, cube_first), "draw cube");
  // BC1 panel: DECAL (texture alpha 0 outside the disc shows the vertex colour)
  ctx.set_transform(to_rt(vp));
  b.check(ctx.set_shader_resource(0, v_panel), "set_shader_resource");
  b.check(ctx.set_texture_combine(0, rt::TextureCombine::DECAL), "set_texture_combine");
  b.check(ctx.draw(6, panel_first), "draw panel");
  // fence: point REPLACE with the alpha test
  b.check(ctx.set_shader_resource(0, v_fence), "set_shader_resource");
  b.check(ctx.set_sampler(0, s_pt), "set_sampler");
  b.check(ctx.set_texture_combine(0, rt::TextureCombine::REPLACE), "set_texture_combine");
  b.check(ctx.set_alpha_test(true, rt::ComparisonFunc::GREATER, 128), "set_alpha_test");
  b.check(ctx.draw(6, fence_first), "draw fence");
  b.check(ctx.set_alpha_test(false), "set_alpha_test");
  b.check(ctx.set_texture_combine(0, rt::TextureCombine::DISABLE), "set_texture_combine");
  ctx.set_shader_resource(0, nullptr);
  ctx.set_sampler(0, nullptr);
  for (auto* p : {v_checker, v_grad, v_fence, v_panel}) p->release();
  for (auto* p : {s_tri, s_bil, s_pt}) p->release();
  return b.finish();
}

}  // namespace pineda::scenes
