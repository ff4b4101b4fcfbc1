// SPDX-License-Identifier: Apache-2.0
// Output-merger scenes (issue 16; docs/om.md).
//
// om_particles: 1,200 small overlapping translucent triangles in clusters of 24 (clip-space
//   positions, per-vertex RGBA8 colour with alpha, flat shaded by the provoking vertex) drawn
//   back to front through the geometry front end in four draws with four blend states: "over"
//   (SRC_ALPHA / INV_SRC_ALPHA, alpha ONE / INV_SRC_ALPHA), additive (ONE / ONE), a blend
//   constant (BLEND_FACTOR / INV_BLEND_FACTOR with MAX for alpha) and a write mask (red and alpha
//   only, no blending), then a plain opaque draw (no blending) over part of it. Every pixel is
//   read-modify-written many times in API order: the image must be the model's bit for bit,
//   with any number of rasterizers, stalls and memory latency.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "meshes.h"
#include "scene_builder.h"
#include "scene_list.h"

namespace pineda::scenes {

SceneImage scene_om_particles(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 61);
  const uint32_t w = 256, h = 256;
  Builder b("om_particles", w, h, w * 4, rgba(24, 32, 48));
  rt::ImmediateContext& ctx = b.ctx();
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  b.check(ctx.set_viewport({0, 0, static_cast<float>(w), static_cast<float>(h), 0, 1}), "set_viewport");
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");

  const auto unit = [&]() { return static_cast<float>(rng.range(-1000, 1000)) / 1000.0f; };
  const auto byte = [&](int64_t lo, int64_t hi) { return static_cast<uint32_t>(rng.range(lo, hi)); };
  // n triangles of size up to `size` (clip units) in clusters of 24 around random centres (a
  // puff of smoke: the colour cache keeps a cluster's lines, so its blends hit), back to front.
  const auto particles = [&](uint32_t n, float size, uint32_t alpha_lo, uint32_t alpha_hi) {
    std::vector<MeshVertex> v;
    float ccx = 0, ccy = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (i % 24 == 0) ccx = unit() * 0.85f, ccy = unit() * 0.85f;
      const float cx = ccx + unit() * 0.06f, cy = ccy + unit() * 0.06f;
      const uint32_t c = byte(20, 255) | byte(20, 255) << 8 | byte(20, 255) << 16 | byte(alpha_lo, alpha_hi) << 24;
      for (int k = 0; k < 3; ++k) {
        v.push_back({cx + unit() * size, cy + unit() * size, 0.5f, k == 0 ? c : byte(0, 0xFFFFFF)});
      }
    }
    return v;
  };
  const auto state = [&](const rt::BlendDesc& d) {
    rt::BlendState s;
    b.check(b.dev().create_blend_state(d, &s), "create_blend_state");
    return s;
  };
  const auto draw = [&](const std::vector<MeshVertex>& v) {
    rt::Resource* r = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(MeshVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
    b.check(ctx.set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
    b.check(ctx.draw(static_cast<uint32_t>(v.size()), 0), "draw");
  };

  rt::BlendDesc over;
  over.render_target.blend_enable = true;
  over.render_target.src_blend = rt::Blend::SRC_ALPHA;
  over.render_target.dest_blend = rt::Blend::INV_SRC_ALPHA;
  over.render_target.src_blend_alpha = rt::Blend::ONE;
  over.render_target.dest_blend_alpha = rt::Blend::INV_SRC_ALPHA;
  const rt::BlendState s_over = state(over);
  b.check(ctx.set_blend_state(&s_over), "set_blend_state");
  draw(particles(600, 0.08f, 40, 220));

  rt::BlendDesc add;
  add.render_target.blend_enable = true;
  add.render_target.src_blend = rt::Blend::ONE;
  add.render_target.dest_blend = rt::Blend::ONE;
  add.render_target.src_blend_alpha = rt::Blend::ONE;
  add.render_target.dest_blend_alpha = rt::Blend::ONE;
  const rt::BlendState s_add = state(add);
  b.check(ctx.set_blend_state(&s_add), "set_blend_state");
  draw(particles(200, 0.06f, 10, 60));

  rt::BlendDesc konst;
  konst.render_target.blend_enable = true;
  konst.render_target.src_blend = rt::Blend::BLEND_FACTOR;
  konst.render_target.dest_blend = rt::Blend::INV_BLEND_FACTOR;
  konst.render_target.blend_op = rt::BlendOp::REV_SUBTRACT;
  konst.render_target.src_blend_alpha = rt::Blend::SRC_ALPHA_SAT;
  konst.render_target.dest_blend_alpha = rt::Blend::DEST_ALPHA;
  konst.render_target.blend_op_alpha = rt::BlendOp::MAX;
  const rt::BlendState s_konst = state(konst);
  const float factor[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  b.check(ctx.set_blend_state(&s_konst, factor), "set_blend_state");
  draw(particles(200, 0.06f, 0, 255));

  rt::BlendDesc mask;
  mask.render_target.render_target_write_mask = rt::COLOR_WRITE_ENABLE_RED | rt::COLOR_WRITE_ENABLE_ALPHA;
  const rt::BlendState s_mask = state(mask);
  b.check(ctx.set_blend_state(&s_mask), "set_blend_state");
  draw(particles(100, 0.06f, 0, 255));

  b.check(ctx.set_blend_state(nullptr), "set_blend_state");  // opaque again
  draw(particles(100, 0.05f, 255, 255));
  return b.finish();
}

}  // namespace pineda::scenes
