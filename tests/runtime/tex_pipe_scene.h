// SPDX-License-Identifier: Apache-2.0
// A small textured scene through the whole pipeline (helper texpipe, issue 15): TEX and COMB
// between INTERP and PW (docs/comb.md section 5). Used by runtime_tests on the golden model
// (exact pixel values) and by runtime_rtl (golden and RTL bit-identical, the same status bits).
#pragma once

#include <cstdint>
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

}  // namespace pineda::rt::test
