// SPDX-License-Identifier: Apache-2.0
// Small textured scenes through the whole pipeline (helper texpipe, issue 15): TEX and COMB
// between INTERP and PW (docs/comb.md section 5). Used by runtime_tests on the golden model
// (exact pixel values) and by runtime_rtl (golden and RTL bit-identical, the same status bits):
// draw_tex_pipe_scene (stage 0 only) and draw_dual_tex_scene (both combiner stages, two textures).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "rt_test_util.h"
#include "runtime.h"

namespace pineda::rt::test {

struct TexPipeResult {
  std::vector<uint32_t> texels;                 // the 16x16 source image (RGBA8)
  std::vector<uint32_t> replace, alpha, mips, fault, after;  // the five 16x16 targets
  std::vector<uint32_t> updated_texels, updated;  // after update_subresource (a DMA COPY) of the texture
  uint32_t status_before = 0, status_after = 0, irq_after = 0;  // STATUS before / after the fault, IRQ_STATUS
  bool ok = true;
};

inline uint32_t tex_pipe_texel(uint32_t x, uint32_t y) {
  return (x * 16u + 1u) | (y * 16u + 2u) << 8 | ((x * y * 7u) & 255u) << 16 | ((x * 37u + y * 11u) & 255u) << 24;
}

// Five draws of a full-target quad (uv 0..1 over 16x16 pixels): REPLACE with point sampling
// (pixel = texel), the same with the alpha test GREATER 127, a 64x64 chain minified 4x with
// trilinear filtering and a LOD bias (MODULATE with the clear colour's white), a view whose
// descriptor was corrupted (an unknown format: TEX fault, zero texels, STATUS.TEX_FAULT), then a
// good draw again (the CP kept running), and a draw after update_subresource rewrote the texture.
inline TexPipeResult draw_tex_pipe_scene(Device& dev) {
  TexPipeResult res;
  auto& ctx = dev.immediate();
  Backend& be = dev.backend();
  const uint32_t clear = 0x11223344u;
  Resource* rts[6] = {};
  for (auto& r : rts) r = make_rt(dev, 16, 16, clear);
  // position (x, y, z) and uv0, two triangles over the viewport
  const float q[] = {-1, 1, 0.5f, 0, 0, 1, 1, 0.5f, 1, 0, -1, -1, 0.5f, 0, 1,
                     1, 1, 0.5f, 1, 0, 1, -1, 0.5f, 1, 1, -1, -1, 0.5f, 0, 1};
  Resource* vb = nullptr;
  dev.create_buffer({sizeof q, BIND_VERTEX_BUFFER}, q, &vb);
  InputLayout l;
  dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}, {Semantic::TEXCOORD0, VertexFormat::F32X2, 0, 12}}, &l);
  ctx.set_input_layout(l);
  ctx.set_vertex_buffer(0, vb, 20);
  ctx.set_viewport({0, 0, 16, 16, 0, 1});
  ctx.set_rasterizer_state({CullMode::NONE, false, true});

  res.texels.resize(256);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) res.texels[y * 16 + x] = tex_pipe_texel(x, y);
  Texture2DDesc td;
  td.width = td.height = 16;
  SubresourceData sd{res.texels.data(), 64};
  Resource* tex = nullptr;
  ShaderResourceView *view = nullptr, *bad = nullptr, *mview = nullptr;
  SamplerState *point = nullptr, *tri = nullptr;
  res.ok = res.ok && dev.create_texture2d(td, &sd, &tex) == Result::OK;
  res.ok = res.ok && dev.create_shader_resource_view(tex, nullptr, &view) == Result::OK;
  res.ok = res.ok && dev.create_shader_resource_view(tex, nullptr, &bad) == Result::OK;
  SamplerDesc sp;
  sp.filter = Filter::MIN_MAG_MIP_POINT;
  res.ok = res.ok && dev.create_sampler_state(sp, &point) == Result::OK;
  // a 64x64 chain (host mips) of a checker-ish gradient
  std::vector<uint32_t> big(64 * 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x)
      big[y * 64 + x] = ((x ^ y) & 8 ? 0xFFu : 0x20u) | (x * 4u) << 8 | (y * 4u) << 16 | 0xFF000000u;
  Texture2DDesc bd;
  bd.width = bd.height = 64;
  bd.mip_levels = 0;
  bd.misc = TEX_MISC_GENERATE_MIPS;
  SubresourceData bsd{big.data(), 256};
  Resource* btex = nullptr;
  res.ok = res.ok && dev.create_texture2d(bd, &bsd, &btex) == Result::OK;
  res.ok = res.ok && dev.create_shader_resource_view(btex, nullptr, &mview) == Result::OK;
  SamplerDesc st;
  st.filter = Filter::MIN_MAG_MIP_LINEAR;
  st.address_u = st.address_v = TextureAddressMode::WRAP;
  st.mip_lod_bias = -0.6f;
  res.ok = res.ok && dev.create_sampler_state(st, &tri) == Result::OK;
  if (!res.ok) return res;

  const auto draw_into = [&](Resource* rt) {
    ctx.set_render_target(rt);
    res.ok = res.ok && ctx.draw(6, 0) == Result::OK;
  };
  ctx.set_shader_resource(0, view);
  ctx.set_sampler(0, point);
  ctx.set_texture_combine(0, TextureCombine::REPLACE);
  draw_into(rts[0]);
  ctx.set_alpha_test(true, ComparisonFunc::GREATER, 127);
  draw_into(rts[1]);
  ctx.set_alpha_test(false);
  ctx.set_shader_resource(0, mview);
  ctx.set_sampler(0, tri);
  ctx.set_texture_combine(0, TextureCombine::MODULATE);
  draw_into(rts[2]);
  res.replace = read_rt(ctx, rts[0]);
  res.alpha = read_rt(ctx, rts[1]);
  res.mips = read_rt(ctx, rts[2]);
  res.status_before = be.read_reg(REG_STATUS);
  // dw2 of the descriptor: FORMAT 15 (unknown) -> TEX_FAULT_TEX_DESC on every quad of the draw
  const uint32_t dw2 = be.memory().read32(bad->descriptor_address() + 8);
  be.memory().write32(bad->descriptor_address() + 8, (dw2 & ~0xFu) | 0xFu);
  ctx.set_shader_resource(0, bad);
  ctx.set_sampler(0, point);
  ctx.set_texture_combine(0, TextureCombine::REPLACE);
  draw_into(rts[3]);
  res.fault = read_rt(ctx, rts[3]);
  res.status_after = be.read_reg(REG_STATUS);
  res.irq_after = be.read_reg(REG_IRQ_STATUS);
  ctx.set_shader_resource(0, view);
  draw_into(rts[4]);
  res.after = read_rt(ctx, rts[4]);
  // Rewrite the sampled texture with a COPY (update_subresource): TEX, whose L1 holds its
  // lines, must forget them (inval after every DMA job) and sample the new texels.
  res.updated_texels.resize(256);
  for (uint32_t i = 0; i < 256; ++i) res.updated_texels[i] = ~res.texels[i] ^ (i * 0x01010101u);
  res.ok = res.ok && ctx.update_subresource(tex, 0, nullptr, res.updated_texels.data(), 64) == Result::OK;
  draw_into(rts[5]);
  res.updated = read_rt(ctx, rts[5]);

  ctx.clear_state();
  for (auto* p : {view, bad, mview}) p->release();
  for (auto* p : {point, tri}) p->release();
  for (auto* r : rts) r->release();
  tex->release();
  btex->release();
  vb->release();
  return res;
}

// ---- two textures: combiner stage 1 (slot 1, uv1) ----------------------------------------------

struct DualTexResult {
  std::vector<uint32_t> base, light, light2;  // the 16x16 base (slot 0) and the 8x8 lightmaps (slot 1)
  uint32_t color = 0;                         // the flat vertex colour
  // stage 0 MODULATE (base x colour), then stage 1 = MODULATE, REPLACE, ADD, DECAL, DISABLE
  std::array<std::vector<uint32_t>, 5> ops;
  std::vector<uint32_t> deferred;  // MODULATE x MODULATE with light2, from a deferred context's list
  std::vector<uint32_t> bilinear;  // MODULATE x MODULATE, a 4x4 lightmap magnified with bilinear filtering
  std::vector<uint32_t> fault;     // MODULATE x DECAL with slot 1's descriptor corrupted (stage 1 faults)
  uint32_t status_before = 0, status_after = 0, irq_after = 0;  // STATUS before / after the fault, IRQ_STATUS
  bool ok = true;
};

inline uint32_t dual_tex_light_texel(uint32_t x, uint32_t y, uint32_t salt) {
  // every channel strictly inside (0, 255), different per texel: a stage that reads the wrong
  // texel, no texel or the other slot's texture changes the product
  return (40u + 25u * x + salt) | (60u + 20u * y) << 8 | (200u - 15u * x - 10u * y + salt) << 16 |
         (250u - 9u * (x + y) - salt) << 24;
}

// The lightmap texel stage 1 reads at pixel (x, y) of draw_dual_tex_scene's quad: uv1 = (1 - u0,
// 2 v0) with WRAP on an 8x8 lightmap, point sampled: mirrored in x (two pixels per texel), twice
// over in y (one pixel per texel).
inline uint32_t dual_tex_light_at(const std::vector<uint32_t>& light, uint32_t x, uint32_t y) {
  return light[(y % 8) * 8 + (7 - x / 2)];
}

// Every draw covers a 16x16 target with one quad: positions, a flat colour, uv0 over [0, 1]
// (the 16x16 base texture 1:1, point sampled: pixel = texel) and uv1 = (1 - u0, 2 v0) (the 8x8
// lightmap point sampled, WRAP). Stage 0 is MODULATE (base x colour); stage 1 goes through its four
// ops and DISABLE. A deferred context records the MODULATE x MODULATE draw with a second lightmap;
// its view, sampler and texture are released before the list runs (the list holds them), with
// other allocations made in between. Then a 4x4 lightmap magnified with bilinear filtering
// (CLAMP): compared between backends only. Last, stage 1 DECAL with a view of the lightmap whose
// descriptor was corrupted (FORMAT 15): stage 1's pass faults and gives texel 0, whose alpha 0
// makes DECAL pass stage 0's result; STATUS.TEX_FAULT is set.
inline DualTexResult draw_dual_tex_scene(Device& dev) {
  DualTexResult res;
  auto& ctx = dev.immediate();
  const uint32_t clear = 0x11223344u;
  Resource* rts[8] = {};
  for (auto& r : rts) r = make_rt(dev, 16, 16, clear);
  res.color = 0xE6C8FAF0u;  // (240, 250, 200, 230)
  // position (x, y, z), colour, uv0, uv1: 32-byte vertices, two triangles over the viewport
  struct V {
    float x, y, z;
    uint32_t c;
    float u0, v0, u1, v1;
  };
  static_assert(sizeof(V) == 32, "32-byte vertices");
  const auto vtx = [&](float x, float y) {
    const float u = (x + 1) / 2, v = (1 - y) / 2;
    return V{x, y, 0.5f, res.color, u, v, 1 - u, 2 * v};
  };
  const V q[6] = {vtx(-1, 1), vtx(1, 1), vtx(-1, -1), vtx(1, 1), vtx(1, -1), vtx(-1, -1)};
  Resource* vb = nullptr;
  res.ok = res.ok && dev.create_buffer({sizeof q, BIND_VERTEX_BUFFER}, q, &vb) == Result::OK;
  InputLayout l;
  res.ok = res.ok && dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0},
                                              {Semantic::COLOR, VertexFormat::UNORM8X4, 0, 12},
                                              {Semantic::TEXCOORD0, VertexFormat::F32X2, 0, 16},
                                              {Semantic::TEXCOORD1, VertexFormat::F32X2, 0, 24}},
                                             &l) == Result::OK;
  const auto setup = [&](Context& c, Resource* rt) {
    c.set_input_layout(l);
    res.ok = res.ok && c.set_vertex_buffer(0, vb, sizeof(V)) == Result::OK;
    res.ok = res.ok && c.set_viewport({0, 0, 16, 16, 0, 1}) == Result::OK;
    res.ok = res.ok && c.set_rasterizer_state({CullMode::NONE, false, true}) == Result::OK;
    res.ok = res.ok && c.set_render_target(rt) == Result::OK;
  };

  res.base.resize(256);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) res.base[y * 16 + x] = tex_pipe_texel(x, y);
  res.light.resize(64);
  res.light2.resize(64);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      res.light[y * 8 + x] = dual_tex_light_texel(x, y, 0);
      res.light2[y * 8 + x] = dual_tex_light_texel(x, y, 3);
    }
  std::vector<uint32_t> small(16);
  for (uint32_t i = 0; i < 16; ++i) small[i] = dual_tex_light_texel(i % 4, i / 4, 1) ^ (i & 1 ? 0x00300000u : 0x30u);
  Resource *base = nullptr, *light = nullptr, *light2 = nullptr, *lsmall = nullptr;
  ShaderResourceView *vbase = nullptr, *vlight = nullptr, *vlight2 = nullptr, *vsmall = nullptr;
  SamplerState *point = nullptr, *point_wrap = nullptr, *point_wrap2 = nullptr, *bil = nullptr;
  const auto tex = [&](uint32_t n, const std::vector<uint32_t>& px, Resource** t, ShaderResourceView** v) {
    Texture2DDesc td;
    td.width = td.height = n;
    const SubresourceData sd{px.data(), 4 * n};
    res.ok = res.ok && dev.create_texture2d(td, &sd, t) == Result::OK;
    res.ok = res.ok && dev.create_shader_resource_view(*t, nullptr, v) == Result::OK;
  };
  tex(16, res.base, &base, &vbase);
  tex(8, res.light, &light, &vlight);
  tex(8, res.light2, &light2, &vlight2);
  tex(4, small, &lsmall, &vsmall);
  SamplerDesc sp;
  sp.filter = Filter::MIN_MAG_MIP_POINT;
  res.ok = res.ok && dev.create_sampler_state(sp, &point) == Result::OK;
  sp.address_u = sp.address_v = TextureAddressMode::WRAP;
  res.ok = res.ok && dev.create_sampler_state(sp, &point_wrap) == Result::OK;
  res.ok = res.ok && dev.create_sampler_state(sp, &point_wrap2) == Result::OK;
  SamplerDesc sb;
  sb.filter = Filter::MIN_MAG_LINEAR_MIP_POINT;
  res.ok = res.ok && dev.create_sampler_state(sb, &bil) == Result::OK;
  if (!res.ok) return res;

  // The four stage-1 ops and DISABLE over stage 0's MODULATE.
  setup(ctx, rts[0]);
  res.ok = res.ok && ctx.set_shader_resource(0, vbase) == Result::OK && ctx.set_sampler(0, point) == Result::OK;
  res.ok = res.ok && ctx.set_shader_resource(1, vlight) == Result::OK && ctx.set_sampler(1, point_wrap) == Result::OK;
  res.ok = res.ok && ctx.set_texture_combine(0, TextureCombine::MODULATE) == Result::OK;
  const TextureCombine ops[5] = {TextureCombine::MODULATE, TextureCombine::REPLACE, TextureCombine::ADD,
                                 TextureCombine::DECAL, TextureCombine::DISABLE};
  for (uint32_t k = 0; k < 5; ++k) {
    res.ok = res.ok && ctx.set_texture_combine(1, ops[k]) == Result::OK;
    res.ok = res.ok && ctx.set_render_target(rts[k]) == Result::OK && ctx.draw(6, 0) == Result::OK;
  }
  // Slot 1 unbound on the immediate context: only the list below keeps light2 alive.
  ctx.set_shader_resource(1, nullptr);
  ctx.set_sampler(1, nullptr);

  // A deferred context records MODULATE x MODULATE with light2; the application lets go of
  // light2's texture, view and sampler before the list runs.
  std::unique_ptr<DeferredContext> dc;
  res.ok = res.ok && dev.create_deferred_context({}, &dc) == Result::OK;
  if (!res.ok) return res;
  setup(*dc, rts[5]);
  res.ok = res.ok && dc->set_shader_resource(0, vbase) == Result::OK && dc->set_sampler(0, point) == Result::OK;
  res.ok = res.ok && dc->set_shader_resource(1, vlight2) == Result::OK && dc->set_sampler(1, point_wrap2) == Result::OK;
  res.ok = res.ok && dc->set_texture_combine(0, TextureCombine::MODULATE) == Result::OK;
  res.ok = res.ok && dc->set_texture_combine(1, TextureCombine::MODULATE) == Result::OK;
  res.ok = res.ok && dc->draw(6, 0) == Result::OK;
  CommandList* list = nullptr;
  res.ok = res.ok && dc->finish_command_list(false, &list) == Result::OK;
  if (!res.ok) return res;
  vlight2->release();
  point_wrap2->release();
  light2->release();
  ctx.flush();  // deferred destruction runs: what nothing holds any more is freed
  // allocations that would take freed memory, filled with junk
  std::vector<uint32_t> junk(64, 0xDEADBEEFu);
  Resource* junk_bufs[4] = {};
  for (auto& j : junk_bufs) res.ok = res.ok && dev.create_buffer({256, 0}, junk.data(), &j) == Result::OK;
  res.ok = res.ok && ctx.execute_command_list(list, true) == Result::OK;
  list->release();

  // A 4x4 lightmap magnified with bilinear filtering (the same uv1, CLAMP: the bottom half
  // reads the last row).
  res.ok = res.ok && ctx.set_shader_resource(1, vsmall) == Result::OK && ctx.set_sampler(1, bil) == Result::OK;
  res.ok = res.ok && ctx.set_texture_combine(1, TextureCombine::MODULATE) == Result::OK;
  res.ok = res.ok && ctx.set_render_target(rts[6]) == Result::OK && ctx.draw(6, 0) == Result::OK;

  for (uint32_t k = 0; k < 5; ++k) res.ops[k] = read_rt(ctx, rts[k]);
  res.deferred = read_rt(ctx, rts[5]);
  res.bilinear = read_rt(ctx, rts[6]);

  // A fault in stage 1 only: dw2 of a fresh view's descriptor gets FORMAT 15 (unknown).
  Backend& be = dev.backend();
  res.status_before = be.read_reg(REG_STATUS);
  ShaderResourceView* vbad = nullptr;
  res.ok = res.ok && dev.create_shader_resource_view(light, nullptr, &vbad) == Result::OK;
  if (!res.ok) return res;
  const uint32_t dw2 = be.memory().read32(vbad->descriptor_address() + 8);
  be.memory().write32(vbad->descriptor_address() + 8, (dw2 & ~0xFu) | 0xFu);
  res.ok = res.ok && ctx.set_shader_resource(1, vbad) == Result::OK && ctx.set_sampler(1, point_wrap) == Result::OK;
  res.ok = res.ok && ctx.set_texture_combine(1, TextureCombine::DECAL) == Result::OK;
  res.ok = res.ok && ctx.set_render_target(rts[7]) == Result::OK && ctx.draw(6, 0) == Result::OK;
  res.fault = read_rt(ctx, rts[7]);
  res.status_after = be.read_reg(REG_STATUS);
  res.irq_after = be.read_reg(REG_IRQ_STATUS);

  ctx.clear_state();
  dc.reset();
  for (auto* j : junk_bufs) {
    if (j) j->release();
  }
  for (auto* p : {vbase, vlight, vsmall, vbad}) p->release();
  for (auto* p : {point, point_wrap, bil}) p->release();
  for (auto* r : rts) r->release();
  for (auto* t : {base, light, lsmall}) t->release();
  vb->release();
  return res;
}

}  // namespace pineda::rt::test
