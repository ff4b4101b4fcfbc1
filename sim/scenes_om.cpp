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
#include "vec_math.h"

namespace pineda::scenes {

namespace {

rt::BlendDesc blend_desc(rt::Blend src, rt::Blend dst, rt::BlendOp op, rt::Blend src_a, rt::Blend dst_a, rt::BlendOp op_a) {
  rt::BlendDesc d;
  d.render_target.blend_enable = true;
  d.render_target.src_blend = src;
  d.render_target.dest_blend = dst;
  d.render_target.blend_op = op;
  d.render_target.src_blend_alpha = src_a;
  d.render_target.dest_blend_alpha = dst_a;
  d.render_target.blend_op_alpha = op_a;
  return d;
}

// "Over": colour src * src_alpha + dst * (1 - src_alpha), alpha src + dst * (1 - src_alpha).
rt::BlendDesc over_blend() {
  return blend_desc(rt::Blend::SRC_ALPHA, rt::Blend::INV_SRC_ALPHA, rt::BlendOp::ADD, rt::Blend::ONE,
                    rt::Blend::INV_SRC_ALPHA, rt::BlendOp::ADD);
}

}  // namespace

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

  const rt::BlendState s_over = state(over_blend());
  b.check(ctx.set_blend_state(&s_over), "set_blend_state");
  draw(particles(600, 0.08f, 40, 220));

  const rt::BlendState s_add =
      state(blend_desc(rt::Blend::ONE, rt::Blend::ONE, rt::BlendOp::ADD, rt::Blend::ONE, rt::Blend::ONE, rt::BlendOp::ADD));
  b.check(ctx.set_blend_state(&s_add), "set_blend_state");
  draw(particles(200, 0.06f, 10, 60));

  const rt::BlendState s_konst = state(blend_desc(rt::Blend::BLEND_FACTOR, rt::Blend::INV_BLEND_FACTOR,
                                                  rt::BlendOp::REV_SUBTRACT, rt::Blend::SRC_ALPHA_SAT,
                                                  rt::Blend::DEST_ALPHA, rt::BlendOp::MAX));
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

namespace {

// A small output-merger scene: a target of format `fmt`, the front end with per-vertex colour
// (flat: the provoking vertex), helpers for blend states and screen-space quads.
struct OmScene {
  Builder b;
  rt::ImmediateContext& ctx;
  uint32_t w, h;
  std::vector<MeshVertex> v;  // every draw's vertices, uploaded once by `run`
  struct Draw {
    uint32_t first, count;
    rt::BlendState state;
    bool set_state;
    const rt::DepthStencilState* ds;  // set before the draw when not null
    bool gouraud;
  };
  std::vector<Draw> draws;
  rt::Format format;
  rt::Resource* resolve_to = nullptr;  // a 1x target: run() ends with resolve_subresource into it

  OmScene(const std::string& name, uint32_t width, uint32_t height, rt::Format fmt, uint32_t background,
          uint32_t samples = 1)
      : b(name, width, height, 0, background, 64 * 1024, rgba(255, 0, 255), samples, fmt), ctx(b.ctx()), w(width),
        h(height), format(fmt) {
    rt::InputLayout l;
    b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                         {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                        &l),
            "create_input_layout");
    ctx.set_input_layout(l);
    b.check(ctx.set_viewport({0, 0, static_cast<float>(w), static_cast<float>(h), 0, 1}), "set_viewport");
    b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  }
  rt::BlendState state(const rt::BlendDesc& d) {
    rt::BlendState s;
    b.check(b.dev().create_blend_state(d, &s), "create_blend_state");
    return s;
  }
  // pixel coordinates -> clip space
  float cx(float x) const { return x / static_cast<float>(w) * 2.0f - 1.0f; }
  float cy(float y) const { return 1.0f - y / static_cast<float>(h) * 2.0f; }
  // an axis-aligned rectangle of pixels [x0, x1) x [y0, y1), two triangles of one colour
  void rect(float x0, float y0, float x1, float y1, uint32_t c) {
    const float a[6][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (const auto& p : a) v.push_back({cx(p[0]), cy(p[1]), 0.5f, c});
  }
  void tri(float x0, float y0, float x1, float y1, float x2, float y2, uint32_t c) {
    v.push_back({cx(x0), cy(y0), 0.5f, c});
    v.push_back({cx(x1), cy(y1), 0.5f, c});
    v.push_back({cx(x2), cy(y2), 0.5f, c});
  }
  // the vertices added since `first` become a draw with blend state `s`
  void draw(uint32_t first, const rt::BlendState& s, const rt::DepthStencilState* ds = nullptr, bool gouraud = false) {
    draws.push_back({first, static_cast<uint32_t>(v.size()) - first, s, true, ds, gouraud});
  }
  uint32_t mark() const { return static_cast<uint32_t>(v.size()); }
  SceneImage run(const float* factor = nullptr) {
    rt::Resource* r = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(MeshVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
    b.check(ctx.set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
    for (const Draw& d : draws) {
      b.check(ctx.set_blend_state(&d.state, factor), "set_blend_state");
      if (d.ds) b.check(ctx.set_depth_stencil_state(d.ds, 0), "set_depth_stencil_state");
      ctx.set_gouraud(d.gouraud);
      b.check(ctx.draw(d.count, d.first), "draw");
    }
    if (resolve_to) {
      b.check(ctx.resolve_subresource(resolve_to, 0, b.target(), 0, format), "resolve_subresource");
      b.image().resolved_base = resolve_to->gpu_address();
      b.image().resolved_pitch = resolve_to->pitch();
    }
    return b.finish();
  }
};

// `n` triangles, corners at offsets `d` (x0, y0, x1, y1, x2, y2) from random points of
// [0, w] x [0, h], of random colours with alpha alpha_lo..alpha_hi, drawn "over" in one draw.
void draw_over(OmScene& s, SceneRng& rng, int n, uint32_t w, uint32_t h, const float (&d)[6], uint32_t alpha_lo,
               uint32_t alpha_hi) {
  const uint32_t first = s.mark();
  for (int i = 0; i < n; ++i) {
    const float x = static_cast<float>(rng.range(0, w)), y = static_cast<float>(rng.range(0, h));
    s.tri(x + d[0], y + d[1], x + d[2], y + d[3], x + d[4], y + d[5],
          static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(alpha_lo, alpha_hi)) << 24);
  }
  s.draw(first, s.state(over_blend()));
}

// D3D11's thirteen single-source factors; for alpha a *_COLOR factor becomes its *_ALPHA.
const rt::Blend kFactors[13] = {rt::Blend::ZERO,          rt::Blend::ONE,           rt::Blend::SRC_COLOR,
                                rt::Blend::INV_SRC_COLOR, rt::Blend::SRC_ALPHA,     rt::Blend::INV_SRC_ALPHA,
                                rt::Blend::DEST_ALPHA,    rt::Blend::INV_DEST_ALPHA, rt::Blend::DEST_COLOR,
                                rt::Blend::INV_DEST_COLOR, rt::Blend::SRC_ALPHA_SAT, rt::Blend::BLEND_FACTOR,
                                rt::Blend::INV_BLEND_FACTOR};
rt::Blend alpha_factor(rt::Blend f) {
  switch (f) {
    case rt::Blend::SRC_COLOR: return rt::Blend::SRC_ALPHA;
    case rt::Blend::INV_SRC_COLOR: return rt::Blend::INV_SRC_ALPHA;
    case rt::Blend::DEST_COLOR: return rt::Blend::DEST_ALPHA;
    case rt::Blend::INV_DEST_COLOR: return rt::Blend::INV_DEST_ALPHA;
    default: return f;
  }
}

// Opaque stripes of varied colour and alpha (the destination the blends read).
void stripes(OmScene& s, SceneRng& rng, const rt::BlendState& opaque) {
  const uint32_t first = s.mark();
  for (uint32_t x = 0; x < s.w; x += 6) {
    const uint32_t c = static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(0, 255)) << 24;
    s.rect(static_cast<float>(x), 0, static_cast<float>(x + 6), static_cast<float>(s.h), c);
  }
  s.draw(first, opaque);
}

}  // namespace

// om_additive: light accumulation: 48 large overlapping "lights" (triangles) added with ONE/ONE
// on a dark, cleared target until channels saturate.
SceneImage scene_om_additive(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 71);
  OmScene s("om_additive", 128, 128, rt::Format::R8G8B8A8_UNORM, rgba(0, 0, 0));
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(8, 10, 16)), "clear_render_target_view");
  const rt::BlendState add = s.state(blend_desc(rt::Blend::ONE, rt::Blend::ONE, rt::BlendOp::ADD, rt::Blend::ONE,
                                                rt::Blend::ONE, rt::BlendOp::ADD));
  const uint32_t first = s.mark();
  for (int i = 0; i < 48; ++i) {
    const float x = static_cast<float>(rng.range(0, 128)), y = static_cast<float>(rng.range(0, 128));
    const float r = static_cast<float>(rng.range(12, 48));
    const uint32_t c = static_cast<uint32_t>(rng.range(10, 70)) | static_cast<uint32_t>(rng.range(10, 70)) << 8 |
                       static_cast<uint32_t>(rng.range(10, 70)) << 16 | 0x20000000u;
    s.tri(x, y - r, x + r, y + r * 0.7f, x - r, y + r * 0.7f, c);
  }
  s.draw(first, add);
  return s.run();
}

// om_factors: the test card: every colour op (5) x source factor (13) x destination factor (13),
// one 4x4-pixel cell each (alpha uses the same factors, *_COLOR as *_ALPHA, and the same op),
// over opaque stripes of varied colour and alpha, with a blend constant. 845 blend states.
SceneImage scene_om_factors(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 73);
  OmScene s("om_factors", 112, 160, rt::Format::R8G8B8A8_UNORM, rgba(0, 0, 0));
  stripes(s, rng, s.state(rt::BlendDesc{}));
  for (uint32_t op = 0; op < 5; ++op) {
    const float ox = static_cast<float>((op % 2) * 56 + 2), oy = static_cast<float>((op / 2) * 53 + 1);
    for (uint32_t i = 0; i < 13; ++i) {
      for (uint32_t j = 0; j < 13; ++j) {
        const rt::BlendOp o = static_cast<rt::BlendOp>(op + 1);
        const rt::BlendState st =
            s.state(blend_desc(kFactors[i], kFactors[j], o, alpha_factor(kFactors[i]), alpha_factor(kFactors[j]), o));
        const uint32_t first = s.mark();
        const uint32_t c = static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(0, 255)) << 24;
        s.rect(ox + 4.0f * static_cast<float>(j), oy + 4.0f * static_cast<float>(i), ox + 4.0f * static_cast<float>(j + 1),
               oy + 4.0f * static_cast<float>(i + 1), c);
        s.draw(first, st);
      }
    }
  }
  const float k[4] = {0.3f, 0.6f, 0.9f, 0.5f};
  return s.run(k);
}

// om_writemask: every render-target write mask (16), without and with "over" blending, as
// translucent bars across opaque stripes.
SceneImage scene_om_writemask(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 79);
  OmScene s("om_writemask", 64, 64, rt::Format::R8G8B8A8_UNORM, rgba(0, 0, 0));
  stripes(s, rng, s.state(rt::BlendDesc{}));
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t blend = 0; blend < 2; ++blend) {
      rt::BlendDesc d = blend ? over_blend() : rt::BlendDesc{};
      d.render_target.render_target_write_mask = static_cast<uint8_t>(m);
      const uint32_t first = s.mark();
      const float y = static_cast<float>(m * 4), x = blend ? 32.0f : 0.0f;
      s.rect(x, y, x + 32.0f, y + 4.0f, static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | 0x90000000u);
      s.draw(first, s.state(d));
    }
  }
  return s.run();
}

// om_srgb / om_srgb_unorm: the same translucent gradient bars and additive splats on an sRGB
// target (blended in linear space: stored codes are decoded, blended, re-encoded) and on a UNORM
// one, to compare.
namespace {
SceneImage srgb_scene(const char* name, rt::Format fmt, uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 83);
  OmScene s(name, 64, 64, fmt, rgba(0, 0, 0));
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(40, 90, 160)), "clear_render_target_view");
  const rt::BlendState over = s.state(over_blend());
  uint32_t first = s.mark();
  for (uint32_t i = 0; i < 16; ++i) {  // alpha 16 .. 255 in 16 bars, white and red
    const uint32_t a = 15 + i * 16;
    s.rect(static_cast<float>(i * 4), 0, static_cast<float>(i * 4 + 4), 32, 0x00FFFFFFu | a << 24);
    s.rect(static_cast<float>(i * 4), 32, static_cast<float>(i * 4 + 4), 64, 0x000000FFu | a << 24);
  }
  s.draw(first, over);
  const rt::BlendState add = s.state(blend_desc(rt::Blend::ONE, rt::Blend::ONE, rt::BlendOp::ADD, rt::Blend::ONE,
                                                rt::Blend::ONE, rt::BlendOp::ADD));
  first = s.mark();
  for (int i = 0; i < 12; ++i) {
    const float x = static_cast<float>(rng.range(0, 64)), y = static_cast<float>(rng.range(0, 64));
    s.tri(x, y - 14, x + 12, y + 8, x - 12, y + 8, static_cast<uint32_t>(rng.range(0, 0x404040)) | 0x10000000u);
  }
  s.draw(first, add);
  return s.run();
}
}  // namespace

SceneImage scene_om_srgb(uint32_t seed) { return srgb_scene("om_srgb", rt::Format::R8G8B8A8_UNORM_SRGB, seed); }
SceneImage scene_om_srgb_unorm(uint32_t seed) { return srgb_scene("om_srgb_unorm", rt::Format::R8G8B8A8_UNORM, seed); }

// om_b5g6r5: a B5G6R5 target of odd width (95 x 64, 2-byte pixels: halfword byte enables, pixel
// pairs in a dword): a colour clear, plain triangles, "over" blending and a green-only write mask
// (it cuts through the pixel's bytes: read-modify-write without blending).
SceneImage scene_om_b5g6r5(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 89);
  OmScene s("om_b5g6r5", 95, 64, rt::Format::B5G6R5_UNORM, rgba(0, 0, 0));
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(200, 120, 40)), "clear_render_target_view");
  const auto some = [&](uint32_t n, uint32_t alpha_lo) {
    for (uint32_t i = 0; i < n; ++i) {
      const float x = static_cast<float>(rng.range(0, 95)), y = static_cast<float>(rng.range(0, 64));
      const float r = static_cast<float>(rng.range(3, 14));
      s.tri(x, y - r, x + r, y + r, x - r, y + r * 0.5f,
            static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(alpha_lo, 255)) << 24);
    }
  };
  uint32_t first = s.mark();
  some(30, 255);
  s.draw(first, s.state(rt::BlendDesc{}));
  first = s.mark();
  some(60, 30);
  s.draw(first, s.state(blend_desc(rt::Blend::SRC_ALPHA, rt::Blend::INV_SRC_ALPHA, rt::BlendOp::ADD, rt::Blend::ONE,
                                   rt::Blend::ZERO, rt::BlendOp::ADD)));
  rt::BlendDesc g;
  g.render_target.render_target_write_mask = rt::COLOR_WRITE_ENABLE_GREEN;
  first = s.mark();
  some(20, 255);
  s.draw(first, s.state(g));
  return s.run();
}

// om_bgra8: a B8G8R8A8 target: a colour clear, opaque and "over" triangles.
SceneImage scene_om_bgra8(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 97);
  OmScene s("om_bgra8", 64, 64, rt::Format::B8G8R8A8_UNORM, rgba(0, 0, 0));
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(30, 160, 90)), "clear_render_target_view");
  draw_over(s, rng, 40, 64, 64, {0, -10, 10, 8, -9, 6}, 40, 255);
  return s.run();
}

// om_resolve_4x: MSAA resolve in hardware (OP_RESOLVE, docs/om.md section 7). A 4x
// R8G8B8A8_UNORM_SRGB target of odd size (90x50: rows of 4x samples and of resolved pixels that
// end inside a line, pitches that are not line multiples): a clear, opaque and "over" triangles
// with edges through pixels, then resolve_subresource into a 1x sRGB target (pre-filled with a
// sentinel). The RTL's resolve engine must write the model's bytes (sRGB averaged in linear
// space); the image is the GPU's 1x target.
SceneImage scene_om_resolve_4x(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 101);
  const uint32_t w = 90, h = 50;
  OmScene s("om_resolve_4x", w, h, rt::Format::R8G8B8A8_UNORM_SRGB, rgba(0, 0, 0), 4);
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(20, 40, 120)), "clear_render_target_view");
  rt::TextureDesc td{w, h, 0, rt::BIND_RENDER_TARGET};
  td.format = rt::Format::R8G8B8A8_UNORM_SRGB;
  const std::vector<uint32_t> sentinel(static_cast<size_t>(w) * h, rgba(255, 0, 255));
  s.resolve_to = s.b.create_texture(td, sentinel.data());
  uint32_t first = s.mark();
  for (int i = 0; i < 30; ++i) {
    const float x = static_cast<float>(rng.range(0, w)), y = static_cast<float>(rng.range(0, h));
    s.tri(x, y - 14, x + 17, y + 9, x - 12, y + 11, static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | 0xFF000000u);
  }
  s.draw(first, s.state(rt::BlendDesc{}));
  draw_over(s, rng, 60, w, h, {0, -9, 8, 7, -10, 5}, 40, 220);
  return s.run();
}

// om_alpha_to_coverage: alpha to coverage at 4x MSAA with depth, resolved by the hardware
// (docs/comb.md section 3b, docs/om.md section 8). A 4x RGBA8 target with a 4x D24S8 buffer, 96x64:
// opaque stripes far away (z 0.8, depth LESS with writes); then, with AlphaToCoverageEnable and depth
// writes on (the draw is late Z: COMB removes samples before ZS tests and writes them), Gouraud
// ramps whose alpha runs from 0 at the left to 255 at the right (the five coverage levels side by
// side, each kept sample's depth written) and leaf-like triangles of random alpha (z 0.4); then an
// opaque band at z 0.6, behind the ramps: it shows exactly through the samples the ramps did not
// keep. OP_RESOLVE averages the samples into a 1x target (each level an exact n/4 mix).
SceneImage scene_om_alpha_to_coverage(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 109);
  const uint32_t w = 96, h = 64;
  OmScene s("om_alpha_to_coverage", w, h, rt::Format::R8G8B8A8_UNORM, rgba(0, 0, 0), 4);
  rt::TextureDesc dtd{w, h, 0, rt::BIND_DEPTH_STENCIL};
  dtd.format = rt::Format::D24_UNORM_S8_UINT;
  dtd.samples = 4;
  const std::vector<uint32_t> junk(static_cast<size_t>(w) * h * 4, 0x5A00C0DEu);
  rt::Resource* depth = s.b.create_texture(dtd, junk.data());
  rt::DepthStencilView dsv;
  s.b.check(s.b.dev().create_depth_stencil_view(depth, &dsv), "create_depth_stencil_view");
  s.b.check(s.ctx.set_render_targets(s.b.target(), &dsv), "set_render_targets");
  s.b.check(s.ctx.clear_render_target_view(s.b.target(), rgba(16, 20, 32)), "clear_render_target_view");
  s.b.check(s.ctx.clear_depth_stencil_view(dsv, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0),
            "clear_depth_stencil_view");
  rt::TextureDesc td{w, h, 0, rt::BIND_RENDER_TARGET};
  const std::vector<uint32_t> sentinel(static_cast<size_t>(w) * h, rgba(255, 0, 255));
  s.resolve_to = s.b.create_texture(td, sentinel.data());
  rt::DepthStencilState less;
  s.b.check(s.b.dev().create_depth_stencil_state(rt::DepthStencilDesc{}, &less), "create_depth_stencil_state");
  const rt::BlendState opaque = s.state(rt::BlendDesc{});
  rt::BlendDesc a2c_desc;
  a2c_desc.alpha_to_coverage_enable = true;
  const rt::BlendState a2c = s.state(a2c_desc);
  const auto at = [&](float x, float y, float z, uint32_t c) { s.v.push_back({s.cx(x), s.cy(y), z, c}); };

  uint32_t first = s.mark();
  for (uint32_t x = 0; x < w; x += 8) {
    const uint32_t c = static_cast<uint32_t>(rng.range(0x404040, 0xFFFFFF)) | 0xFF000000u;
    const float x0 = static_cast<float>(x), x1 = static_cast<float>(x + 8);
    for (const auto& p : {std::pair<float, float>{x0, 0}, {x1, 0}, {x0, 64}, {x1, 0}, {x1, 64}, {x0, 64}}) at(p.first, p.second, 0.8f, c);
  }
  s.draw(first, opaque, &less);

  first = s.mark();
  for (int r = 0; r < 3; ++r) {  // ramps: alpha 0 at x 2, 255 at x 94
    const float y0 = 4.0f + 10.0f * static_cast<float>(r), y1 = y0 + 8.0f;
    const uint32_t rgb = static_cast<uint32_t>(rng.range(0x202020, 0xFFFFFF)) & 0xFFFFFFu;
    const uint32_t a0 = rgb, a1 = rgb | 0xFF000000u;
    at(2, y0, 0.4f, a0), at(94, y0, 0.4f, a1), at(2, y1, 0.4f, a0);
    at(94, y0, 0.4f, a1), at(94, y1, 0.4f, a1), at(2, y1, 0.4f, a0);
  }
  for (int i = 0; i < 24; ++i) {  // leaves: random alpha per vertex
    const float x = static_cast<float>(rng.range(0, w)), y = static_cast<float>(rng.range(34, h));
    const auto c = [&]() { return static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(0, 255)) << 24; };
    at(x, y - 7, 0.4f, c()), at(x + 9, y + 4, 0.4f, c()), at(x - 8, y + 6, 0.4f, c());
  }
  s.draw(first, a2c, &less, true);

  first = s.mark();
  const uint32_t band = rgba(250, 230, 40);
  for (const auto& p : {std::pair<float, float>{0, 20}, {96, 40}, {0, 48}, {96, 40}, {96, 56}, {0, 48}}) at(p.first, p.second, 0.6f, band);
  s.draw(first, opaque, &less);
  return s.run();
}

// om_logic_ops: the logic-op test card (D3D11.1 LogicOp, docs/om.md section 2b): over opaque
// stripes of varied colour and alpha, every LOP_* in a 24x16 cell: a rectangle, then a triangle
// across it and the next cell (so an op also meets the result of an op, and its neighbour's),
// every third op with a write mask (red and alpha only). RGBA8, 96x64.
SceneImage scene_om_logic_ops(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 103);
  OmScene s("om_logic_ops", 96, 64, rt::Format::R8G8B8A8_UNORM, rgba(0, 0, 0));
  stripes(s, rng, s.state(rt::BlendDesc{}));
  for (uint32_t op = 0; op < 16; ++op) {
    rt::BlendDesc d;
    d.render_target.logic_op_enable = true;
    d.render_target.logic_op = static_cast<rt::LogicOp>(op);
    if (op % 3 == 2) d.render_target.render_target_write_mask = rt::COLOR_WRITE_ENABLE_RED | rt::COLOR_WRITE_ENABLE_ALPHA;
    const rt::BlendState st = s.state(d);
    const float x = static_cast<float>((op % 4) * 24), y = static_cast<float>((op / 4) * 16);
    const auto colour = [&]() { return static_cast<uint32_t>(rng.range(0, 0xFFFFFF)) | static_cast<uint32_t>(rng.range(0, 255)) << 24; };
    const uint32_t first = s.mark();
    s.rect(x + 2, y + 2, x + 20, y + 14, colour());
    s.tri(x + 6, y + 1, x + 30, y + 9, x + 10, y + 15, colour());
    s.draw(first, st);
  }
  return s.run();
}

// om_transparent_bunny: transparent objects over the depth-tested bunny (128x128, 1x). The
// bunny (~1,500 triangles) opaque with depth LESS and writes on; then, sorted back to front with
// the depth test on and depth writes off, "over"-blended: a translucent pane behind the bunny, a
// translucent sphere beside it (back faces, then front faces: the classic two-pass order) and a
// pane in front of its lower half. The bunny hides what is behind it, the panes and sphere tint
// what is behind them, nothing translucent writes depth.
SceneImage scene_om_transparent_bunny(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 107);
  const uint32_t w = 128, h = 128;
  Builder b("om_transparent_bunny", w, h, w * 4, rgba(24, 28, 40));
  rt::ImmediateContext& ctx = b.ctx();
  rt::TextureDesc td{w, h, 0, rt::BIND_DEPTH_STENCIL};
  td.format = rt::Format::D24_UNORM_S8_UINT;
  const std::vector<uint32_t> junk(static_cast<size_t>(w) * h, 0x3C00F00Du);
  rt::Resource* ds = b.create_texture(td, junk.data());
  rt::DepthStencilView dsv;
  b.check(b.dev().create_depth_stencil_view(ds, &dsv), "create_depth_stencil_view");
  b.check(ctx.set_render_targets(b.target(), &dsv), "set_render_targets");
  b.check(ctx.clear_render_target_view(b.target(), rgba(24, 28, 40)), "clear_render_target_view");
  b.check(ctx.clear_depth_stencil_view(dsv, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0), "clear_depth_stencil_view");
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  b.check(ctx.set_viewport({0, 0, static_cast<float>(w), static_cast<float>(h), 0, 1}), "set_viewport");
  const auto ds_state = [&](bool write) {
    rt::DepthStencilDesc d;  // LESS
    d.depth_write = write;
    rt::DepthStencilState st;
    b.check(b.dev().create_depth_stencil_state(d, &st), "create_depth_stencil_state");
    return st;
  };
  const auto blend_state = [&](const rt::BlendDesc& d) {
    rt::BlendState st;
    b.check(b.dev().create_blend_state(d, &st), "create_blend_state");
    return st;
  };
  const double j = static_cast<double>(rng.range(-1000, 1000)) / 1000.0;

  // One vertex buffer: the bunny, the sphere, the two panes.
  std::vector<MeshVertex> v = mesh_vertices(bunny_mesh(), {1.0, 0.9, 0.8});
  std::vector<uint32_t> idx = bunny_indices(1500, false);
  const uint32_t bunny_count = static_cast<uint32_t>(idx.size());
  const uint32_t sphere_base = static_cast<uint32_t>(v.size()), sphere_first = static_cast<uint32_t>(idx.size());
  const Mesh sphere = make_uv_sphere(20, 12);
  for (MeshVertex mv : mesh_vertices(sphere, {0.4, 0.7, 1.0})) {
    mv.color = (mv.color & 0xFFFFFFu) | 0x70000000u;  // alpha 112
    v.push_back(mv);
  }
  idx.insert(idx.end(), sphere.idx.begin(), sphere.idx.end());
  const uint32_t sphere_count = static_cast<uint32_t>(sphere.idx.size());
  // panes: world-space quads at constant z (two triangles each)
  const auto pane = [&](double x0, double y0, double x1, double y1, double z, uint32_t c) {
    const uint32_t base = static_cast<uint32_t>(v.size()) - sphere_base;  // indices relative to sphere_base
    for (const auto& p : {std::pair<double, double>{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}})
      v.push_back({static_cast<float>(p.first), static_cast<float>(p.second), static_cast<float>(z), c});
    idx.insert(idx.end(), {base, base + 1, base + 2, base + 1, base + 3, base + 2});
  };
  const uint32_t far_first = static_cast<uint32_t>(idx.size());
  pane(-1.3, -0.5, 0.1 + 0.1 * j, 1.0, 0.45, (rgba(220, 80, 60) & 0xFFFFFFu) | 120u << 24);
  const uint32_t near_first = static_cast<uint32_t>(idx.size());
  pane(-0.3, -1.0, 1.3, 0.15, -0.8, (rgba(80, 220, 120) & 0xFFFFFFu) | 90u << 24);
  rt::Resource* vb = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(MeshVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
  b.check(ctx.set_vertex_buffer(0, vb, sizeof(MeshVertex)), "set_vertex_buffer");
  rt::Resource* ib = b.create_buffer({static_cast<uint32_t>(idx.size() * 4), rt::BIND_INDEX_BUFFER}, idx.data());
  b.check(ctx.set_index_buffer(ib, rt::IndexFormat::R32_UINT), "set_index_buffer");

  const M4 vp = Camera{{0, 0.25, -2.3}, {0, 0.05, 0}, 0.95, 0.5, 20.0}.view_proj();
  // 1. the opaque bunny, depth LESS with writes, culling off
  const rt::DepthStencilState opaque_ds = ds_state(true), glass_ds = ds_state(false);
  b.check(ctx.set_depth_stencil_state(&opaque_ds, 0), "set_depth_stencil_state");
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  ctx.set_transform(to_rt(vp * rotate_y(0.6 + 0.2 * j) * rotate_x(-0.2)));
  b.check(ctx.draw_indexed(bunny_count, 0, 0), "draw_indexed");
  // 2. translucent, back to front: depth test on, writes off, "over"
  rt::BlendDesc over;
  over.render_target.blend_enable = true;
  over.render_target.src_blend = rt::Blend::SRC_ALPHA;
  over.render_target.dest_blend = rt::Blend::INV_SRC_ALPHA;
  over.render_target.src_blend_alpha = rt::Blend::ONE;
  over.render_target.dest_blend_alpha = rt::Blend::INV_SRC_ALPHA;
  const rt::BlendState over_st = blend_state(over);
  b.check(ctx.set_blend_state(&over_st), "set_blend_state");
  b.check(ctx.set_depth_stencil_state(&glass_ds, 0), "set_depth_stencil_state");
  ctx.set_transform(to_rt(vp));
  b.check(ctx.draw_indexed(near_first - far_first, far_first, static_cast<int32_t>(sphere_base)), "draw_indexed");
  ctx.set_transform(to_rt(vp * translate({0.55, 0.35 + 0.1 * j, -0.15}) * scale(0.38)));
  b.check(ctx.set_rasterizer_state({rt::CullMode::FRONT, false, true}), "set_rasterizer_state");  // back faces
  b.check(ctx.draw_indexed(sphere_count, sphere_first, static_cast<int32_t>(sphere_base)), "draw_indexed");
  b.check(ctx.set_rasterizer_state({rt::CullMode::BACK, false, true}), "set_rasterizer_state");  // front faces
  b.check(ctx.draw_indexed(sphere_count, sphere_first, static_cast<int32_t>(sphere_base)), "draw_indexed");
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  ctx.set_transform(to_rt(vp));
  b.check(ctx.draw_indexed(static_cast<uint32_t>(idx.size()) - near_first, near_first, static_cast<int32_t>(sphere_base)),
          "draw_indexed");
  return b.finish();
}

}  // namespace pineda::scenes
