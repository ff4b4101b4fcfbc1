// SPDX-License-Identifier: Apache-2.0
// Textured scenes (issue 15; docs/tex.md, docs/comb.md, docs/runtime.md "Textures"): sampled
// textures, views and samplers made with the host runtime, drawn through the front end with the
// combiner. Every scene is small (at most 160x160, a few draws) so that it runs quickly through
// the RTL.
//
// tex_crate[_4x]: two cubes with glmark2's crate-base.png (512x512 RGBA8, the full chain of 10
//   levels made on the host with stb_image_resize), perspective, depth, trilinear, MODULATE with a
//   Gouraud colour from a point light (per-vertex lighting); the 4x one at 4x MSAA.
// tex_floor_point / _bilinear / _trilinear: the same perspective floor to the horizon (a 64x64
//   checker with host mips repeated 64 times: near the camera magnified, at the horizon minified
//   past the last level) with MIN_MAG_MIP_POINT, MIN_MAG_LINEAR_MIP_POINT and MIN_MAG_MIP_LINEAR.
// tex_address_modes: 12 quads of a 4x4 texture with uv in [-1.5, 2.5]: WRAP, MIRROR, CLAMP, BORDER
//   (a border colour), MIRROR_ONCE and four mixed per-axis pairs, point filtered (rows 1, 2) and
//   bilinear (row 3: filtering across the edges of each mode).
// tex_bc: BC1 (the crate, stb_dxt-encoded, trilinear), a hand-made BC1 texture with 3-colour +
//   transparent blocks beside 4-colour ones, BC3 (an alpha disc encoded by stb_dxt) blended over
//   stripes, and a BC1 gradient magnified (point) to show the blocks.
// tex_srgb: one 128x128 image minified (trilinear) as R8G8B8A8_UNORM_SRGB, R8G8B8A8_UNORM,
//   B8G8R8A8_UNORM and B5G6R5_UNORM, side by side on an sRGB target: the sRGB texture is filtered
//   in linear light and shows as the image, the UNORM ones are read as linear values (lighter).
// tex_lod: a 64x64 texture whose 7 levels each have their own colour (level data given per
//   level), minified the same way in 5 quads with LOD bias 0, +2, -1, MIN_LOD 3 and MAX_LOD 0.5.
// tex_combine: the four stage-0 combiner modes (MODULATE, REPLACE, ADD, DECAL) of one RGBA8
//   texture with alpha over the same Gouraud quad, and the same quad untextured.
// tex_foliage: alpha-tested plants (crossed quads of a leaf texture, alpha test GREATER_EQUAL 128,
//   depth LESS with writes: late Z) in an order that needs the killed pixels to leave depth
//   alone, on a ground quad, and an opaque crate drawn after them.
// tex_lightmap: both combiner stages (docs/comb.md): a room corner, floor and back wall, each a
//   tiled base texture (slot 0, uv0, trilinear, MODULATE) times its own low-resolution lightmap
//   (slot 1, uv1 over the whole surface, bilinear, MODULATE) with two coloured lights and a
//   shadow baked in; a poster on the wall lit by the wall's lightmap (its uv1 continues the
//   wall's); a sign whose glow is added by stage 1 (REPLACE then ADD); and a cube with stage 1
//   off (base texture and Gouraud light only), with depth.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scene_builder.h"
#include "scene_list.h"
#include "vec_math.h"

namespace pineda::scenes {

namespace {

const char* const kCratePath = "/usr/share/glmark2/textures/crate-base.png";

// The textured vertex: position F32x3 at 0, colour UNORM8x4 at 12, uv0 F32x2 at 16.
struct TexVertex {
  float x, y, z;
  uint32_t color;
  float u, v;
};
static_assert(sizeof(TexVertex) == 24, "24-byte vertices");

uint32_t rgba_a(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

// A scene with textures: the Builder, the textured input layout, a viewport over the whole
// target, and the views / samplers it made (released with it).
class TexScene {
 public:
  TexScene(const std::string& name, uint32_t w, uint32_t h, uint32_t background, uint32_t samples = 1,
           rt::Format fmt = rt::Format::R8G8B8A8_UNORM)
      : b(name, w, h, 0, background, 64 * 1024, rgba(255, 0, 255), samples, fmt), ctx(b.ctx()), w_(w), h_(h) {
    rt::InputLayout l;
    b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                         {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12},
                                         {rt::Semantic::TEXCOORD0, rt::VertexFormat::F32X2, 0, 16}},
                                        &l),
            "create_input_layout");
    ctx.set_input_layout(l);
    b.check(ctx.set_viewport({0, 0, static_cast<float>(w), static_cast<float>(h), 0, 1}), "set_viewport");
    b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  }
  ~TexScene() {
    for (rt::ShaderResourceView* v : views_) v->release();
    for (rt::SamplerState* s : samplers_) s->release();
  }
  TexScene(const TexScene&) = delete;
  TexScene& operator=(const TexScene&) = delete;

  // A sampled texture from RGBA8 rows (converted / encoded to `fmt`), `levels` 0 for the full
  // chain made on the host.
  rt::Resource* texture_rgba8(uint32_t w, uint32_t h, rt::TexFormat fmt, const std::vector<uint32_t>& px,
                              uint32_t levels = 0) {
    rt::Texture2DDesc d;
    d.width = w;
    d.height = h;
    d.mip_levels = levels;
    d.format = fmt;
    d.misc = rt::TEX_MISC_INIT_RGBA8 | (levels == 1 ? 0u : static_cast<uint32_t>(rt::TEX_MISC_GENERATE_MIPS));
    const rt::SubresourceData init{px.data(), w * 4};
    return texture(d, &init);
  }
  rt::Resource* texture(const rt::Texture2DDesc& d, const rt::SubresourceData* init) {
    rt::Resource* t = nullptr;
    b.check(b.dev().create_texture2d(d, init, &t), "create_texture2d");
    track(t);
    return t;
  }
  rt::Resource* texture_file(const std::string& path, rt::TexFormat fmt) {
    rt::Resource* t = nullptr;
    b.check(b.dev().create_texture2d_from_file(path, fmt, 0, &t), "create_texture2d_from_file " + path);
    track(t);
    return t;
  }
  rt::ShaderResourceView* view(rt::Resource* t) {
    rt::ShaderResourceView* v = nullptr;
    b.check(b.dev().create_shader_resource_view(t, nullptr, &v), "create_shader_resource_view");
    views_.push_back(v);
    return v;
  }
  rt::SamplerState* sampler(const rt::SamplerDesc& d) {
    rt::SamplerState* s = nullptr;
    b.check(b.dev().create_sampler_state(d, &s), "create_sampler_state");
    samplers_.push_back(s);
    return s;
  }
  static rt::SamplerDesc samp(rt::Filter f, rt::TextureAddressMode a = rt::TextureAddressMode::WRAP) {
    rt::SamplerDesc d;
    d.filter = f;
    d.address_u = d.address_v = d.address_w = a;
    return d;
  }
  // Binds a view and a sampler in slot 0 and selects the stage-0 combiner op.
  void bind(rt::ShaderResourceView* v, rt::SamplerState* s, rt::TextureCombine op = rt::TextureCombine::MODULATE) {
    b.check(ctx.set_shader_resource(0, v), "set_shader_resource");
    b.check(ctx.set_sampler(0, s), "set_sampler");
    b.check(ctx.set_texture_combine(0, op), "set_texture_combine");
  }
  // A draw of a triangle list from its own static vertex buffer.
  void draw(const std::vector<TexVertex>& v) {
    rt::Resource* r = b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(TexVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
    b.check(ctx.set_vertex_buffer(0, r, sizeof(TexVertex)), "set_vertex_buffer");
    b.check(ctx.draw(static_cast<uint32_t>(v.size()), 0), "draw");
  }
  // A screen-space rectangle in pixels (x0, y0)-(x1, y1) at depth z with uv (u0, v0) at the top
  // left and (u1, v1) at the bottom right, corner colours top-left, top-right, bottom-left,
  // bottom-right (identity transform: clip = NDC, w = 1).
  void rect(std::vector<TexVertex>& out, double x0, double y0, double x1, double y1, float u0, float v0, float u1,
            float v1, std::array<uint32_t, 4> c, float z = 0.5f) const {
    const auto cx = [this](double x) { return static_cast<float>(2.0 * x / w_ - 1.0); };
    const auto cy = [this](double y) { return static_cast<float>(1.0 - 2.0 * y / h_); };
    const TexVertex tl{cx(x0), cy(y0), z, c[0], u0, v0}, tr{cx(x1), cy(y0), z, c[1], u1, v0};
    const TexVertex bl{cx(x0), cy(y1), z, c[2], u0, v1}, br{cx(x1), cy(y1), z, c[3], u1, v1};
    out.insert(out.end(), {tl, tr, bl, tr, br, bl});
  }
  // A D24S8 depth buffer cleared to 1 and bound with the given state (LESS with writes by default).
  void depth(const rt::DepthStencilDesc& d = rt::DepthStencilDesc()) {
    rt::TextureDesc td;
    td.width = w_;
    td.height = h_;
    td.samples = b.image().samples;
    td.format = rt::Format::D24_UNORM_S8_UINT;
    td.bind = rt::BIND_DEPTH_STENCIL;
    rt::Resource* ds = b.create_texture(td, nullptr);
    b.check(b.dev().create_depth_stencil_view(ds, &dsv_), "create_depth_stencil_view");
    b.check(ctx.set_render_targets(b.target(), &dsv_), "set_render_targets");
    b.check(ctx.clear_depth_stencil_view(dsv_, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0),
            "clear_depth_stencil_view");
    depth_state(d);
  }
  void depth_state(const rt::DepthStencilDesc& d) {
    rt::DepthStencilState s;
    b.check(b.dev().create_depth_stencil_state(d, &s), "create_depth_stencil_state");
    b.check(ctx.set_depth_stencil_state(&s, 0), "set_depth_stencil_state");
  }
  void transform(const M4& m) { ctx.set_transform(to_rt(m)); }

  Builder b;
  rt::ImmediateContext& ctx;

 private:
  void track(rt::Resource* r) { textures_.push_back(r); }
  uint32_t w_, h_;
  rt::DepthStencilView dsv_;
  std::vector<rt::Resource*> textures_;  // released by the Builder's clear_state / device teardown
  std::vector<rt::ShaderResourceView*> views_;
  std::vector<rt::SamplerState*> samplers_;
};

double jitter(SceneRng& rng, double max) { return max * static_cast<double>(rng.range(-1000, 1000)) / 1000.0; }

uint32_t ch(double v) { return static_cast<uint32_t>(std::clamp(std::lround(v), 0L, 255L)); }

// ---- textures made here ---------------------------------------------------------------------

// A checker of `cell`-texel squares of colours a and b with a one-texel line of colour c along
// each square's top and left edge.
std::vector<uint32_t> checker(uint32_t n, uint32_t cell, uint32_t a, uint32_t b, uint32_t c) {
  std::vector<uint32_t> px(static_cast<size_t>(n) * n);
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      const bool line = x % cell == 0 || y % cell == 0;
      px[y * n + x] = line ? c : (((x / cell) ^ (y / cell)) & 1) ? a : b;
    }
  }
  return px;
}

// A picture with fine detail for minification: diagonal colour bands, 1-texel stripes in the
// top half, a smooth ramp in the bottom half, a white disc.
std::vector<uint32_t> test_picture(uint32_t n) {
  std::vector<uint32_t> px(static_cast<size_t>(n) * n);
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      const double fx = (x + 0.5) / n, fy = (y + 0.5) / n;
      uint32_t c;
      if (y < n / 2) {
        const bool odd = (x + y) & 1;  // 1-texel diagonal stripes: averaged by minification
        c = odd ? rgba(230, 200, 40) : rgba(40, 60, 170);
        if (x < n / 2) c = (x & 1) ? rgba(200, 30, 30) : rgba(30, 190, 60);
      } else {
        c = rgba(ch(255 * fx), ch(255 * (1 - fy) * 2), ch(128 + 120 * std::sin(fx * 9)));
      }
      const double dx = fx - 0.7, dy = fy - 0.7;
      if (dx * dx + dy * dy < 0.02) c = rgba(255, 255, 255);
      px[y * n + x] = c;
    }
  }
  return px;
}

// A leaf sprite: a stem with pairs of elliptic leaves; alpha 255 on the plant, 0 elsewhere.
std::vector<uint32_t> leaf_sprite(uint32_t n) {
  std::vector<uint32_t> px(static_cast<size_t>(n) * n, 0);
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      const double fx = (x + 0.5) / n, fy = (y + 0.5) / n;
      bool on = std::fabs(fx - 0.5) < 0.025 && fy > 0.15;  // the stem
      double shade = 0.7;
      for (int k = 0; k < 4; ++k) {
        const double ly = 0.22 + 0.19 * k, lx = 0.5 + ((k & 1) ? 0.2 : -0.2) * (1.0 - 0.15 * k);
        const double a = (fx - lx) / (0.21 - 0.02 * k), bb = (fy - ly) / 0.09;
        if (a * a + bb * bb < 1.0) {
          on = true;
          shade = 0.75 + 0.25 * (1.0 - (a * a + bb * bb)) - (std::fabs(fy - ly) < 0.012 ? 0.3 : 0.0);  // a vein
        }
      }
      if (on) px[y * n + x] = rgba_a(ch(60 * shade), ch(230 * shade), ch(70 * shade), 255);
    }
  }
  return px;
}

// ---- a textured cube ---------------------------------------------------------------------------

// A unit cube's 6 faces as 12 triangles, uv 0..1 per face (upright), clockwise from outside,
// coloured by a point light at `light` (object space) per vertex (Gouraud: the colour varies over
// a face).
std::vector<TexVertex> cube(V3 light, V3 tint) {
  const V3 normals[6] = {{0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  std::vector<TexVertex> out;
  for (const V3& n : normals) {
    const V3 up = std::fabs(n.y) > 0.5 ? V3{0, 0, 1} : V3{0, 1, 0};
    const V3 right = cross(n, up);
    TexVertex c[4];
    for (int k = 0; k < 4; ++k) {
      const double u = k & 1, v = k >> 1;
      const V3 p = n * 0.5 + right * (u - 0.5) + up * (0.5 - v);
      const V3 l = normalize(light - p);
      const double d = 0.25 + 0.85 * std::max(0.0, dot(n, l));
      c[k] = {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z),
              rgba(ch(255 * d * tint.x), ch(255 * d * tint.y), ch(255 * d * tint.z)), static_cast<float>(u),
              static_cast<float>(v)};
    }
    // (0, 1, 2) and (1, 3, 2): u right, v down, seen from outside: clockwise.
    for (const int i : {0, 1, 2, 1, 3, 2}) out.push_back(c[i]);
  }
  return out;
}

}  // namespace

// ---- tex_crate[_4x] ------------------------------------------------------------------------------
SceneImage scene_tex_crate(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 81);
  const uint32_t w = 128, h = 128;
  TexScene s(samples == 4 ? "tex_crate_4x" : "tex_crate", w, h, rgba(30, 40, 60), samples);
  s.depth();
  s.b.check(s.ctx.set_rasterizer_state({rt::CullMode::BACK, false, true}), "set_rasterizer_state");
  rt::Resource* crate = s.texture_file(kCratePath, rt::TexFormat::R8G8B8A8_UNORM);
  s.bind(s.view(crate), s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR)));
  s.ctx.set_gouraud(true);
  const M4 vp = Camera{{0, 1.2, -3.2}, {0, 0, 0}, 0.85, 0.5, 30.0}.view_proj();
  const double yaw = 0.6 + jitter(rng, 0.2), pitch = 0.15 + jitter(rng, 0.1);
  // The near cube first, then one behind it (partly hidden: depth test), each lit by its light.
  s.transform(vp * translate({-0.25, 0, -0.3}) * rotate_y(yaw) * rotate_x(pitch) * scale(1.3));
  s.draw(cube({-1.5, 2.0, -2.5}, {1, 1, 1}));
  s.transform(vp * translate({1.1, 0.3, 2.2}) * rotate_y(-yaw * 0.7) * rotate_x(0.4) * scale(1.2));
  s.draw(cube({1.0, 2.0, -2.0}, {1.0, 0.9, 0.7}));
  return s.b.finish();
}


// ---- tex_floor_* ---------------------------------------------------------------------------------
SceneImage scene_tex_floor(const std::string& name, uint32_t seed, uint32_t filter) {
  SceneRng rng(seed * 0x100000001ull + 82);
  const uint32_t w = 160, h = 80;
  TexScene s(name, w, h, rgba(150, 190, 235));
  // 64x64 checker, 8-texel cells with a dark line, host mips: at the horizon it averages to a
  // flat colour with trilinear filtering, while point and bilinear show their mip bands.
  const std::vector<uint32_t> px = checker(64, 8, rgba(235, 225, 200), rgba(180, 60, 40), rgba(40, 40, 40));
  rt::Resource* t = s.texture_rgba8(64, 64, rt::TexFormat::R8G8B8A8_UNORM, px);
  s.bind(s.view(t), s.sampler(TexScene::samp(static_cast<rt::Filter>(filter))), rt::TextureCombine::REPLACE);
  // The camera 0.6 units above the floor, looking slightly down; the floor (a cell is half a unit:
  // about 40 pixels wide at the bottom edge, magnified) reaches z = 300, the horizon, and is cut by
  // the near plane and both sides.
  const double turn = jitter(rng, 0.15);
  s.transform(Camera{{0, 0.6, 0}, {std::sin(turn) * 6, 0, std::cos(turn) * 6}, 0.9, 0.1, 600.0}.view_proj(2.0));
  const float e = 300.0f, k = 0.25f;  // extent (world units), texture repeats per unit
  const uint32_t white = rgba(255, 255, 255);
  const TexVertex a{-e, 0, -8, white, -e * k, -8 * k}, bb{e, 0, -8, white, e * k, -8 * k};
  const TexVertex c{-e, 0, e, white, -e * k, e * k}, d{e, 0, e, white, e * k, e * k};
  // Split in two by x = 0 so that the near triangles are not all one clipped fan.
  const auto mid = [](const TexVertex& p, const TexVertex& q) {
    return TexVertex{(p.x + q.x) / 2, (p.y + q.y) / 2, (p.z + q.z) / 2, p.color, (p.u + q.u) / 2, (p.v + q.v) / 2};
  };
  const TexVertex m0 = mid(a, bb), m1 = mid(c, d);
  s.draw({a, c, m0, m0, c, m1, m0, m1, bb, bb, m1, d});
  return s.b.finish();
}

// ---- tex_address_modes ---------------------------------------------------------------------------
SceneImage scene_tex_address_modes(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 83);
  const uint32_t w = 160, h = 160;
  TexScene s("tex_address_modes", w, h, rgba(50, 50, 50));
  // 4x4: red grows to the right, green downwards, a white texel top left, a blue one top right.
  std::vector<uint32_t> px(16);
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) px[y * 4 + x] = rgba(40 + 70 * x, 40 + 70 * y, 40);
  }
  px[0] = rgba(255, 255, 255);
  px[3] = rgba(30, 60, 255);
  rt::Resource* t = s.texture_rgba8(4, 4, rt::TexFormat::R8G8B8A8_UNORM, px, 1);
  rt::ShaderResourceView* v = s.view(t);
  using A = rt::TextureAddressMode;
  const std::array<std::pair<A, A>, 8> modes = {{{A::WRAP, A::WRAP},
                                                 {A::MIRROR, A::MIRROR},
                                                 {A::CLAMP, A::CLAMP},
                                                 {A::BORDER, A::BORDER},
                                                 {A::MIRROR_ONCE, A::MIRROR_ONCE},
                                                 {A::WRAP, A::CLAMP},
                                                 {A::MIRROR, A::BORDER},
                                                 {A::BORDER, A::MIRROR_ONCE}}};
  const float border[4] = {0.2f, 0.55f + static_cast<float>(jitter(rng, 0.1)), 0.9f, 1.0f};
  const uint32_t white = rgba(255, 255, 255);
  // Rows 0 and 1: the eight pairs point filtered; row 2: the first four bilinear.
  for (uint32_t k = 0; k < 12; ++k) {
    const auto [mu, mv] = modes[k % 8];
    rt::SamplerDesc d = TexScene::samp(k < 8 ? rt::Filter::MIN_MAG_MIP_POINT : rt::Filter::MIN_MAG_LINEAR_MIP_POINT);
    d.address_u = mu;
    d.address_v = mv;
    std::copy(border, border + 4, d.border_color);
    s.bind(v, s.sampler(d), rt::TextureCombine::REPLACE);
    const double x0 = 4 + 39 * (k % 4), y0 = 4 + 52 * (k / 4);
    std::vector<TexVertex> q;
    s.rect(q, x0, y0, x0 + 35, y0 + 48, -1.5f, -1.5f, 2.5f, 2.5f, {white, white, white, white});
    s.draw(q);
  }
  return s.b.finish();
}

namespace {

// BC1 block: endpoints c0, c1 (B5G6R5) and 16 2-bit indices, texel t at bits 2t.
std::array<uint8_t, 8> bc1_block(uint16_t c0, uint16_t c1, const std::array<uint32_t, 16>& idx) {
  uint32_t bits = 0;
  for (uint32_t t = 0; t < 16; ++t) bits |= (idx[t] & 3u) << (2 * t);
  return {static_cast<uint8_t>(c0), static_cast<uint8_t>(c0 >> 8), static_cast<uint8_t>(c1),
          static_cast<uint8_t>(c1 >> 8), static_cast<uint8_t>(bits), static_cast<uint8_t>(bits >> 8),
          static_cast<uint8_t>(bits >> 16), static_cast<uint8_t>(bits >> 24)};
}

void bc1_append(std::vector<uint8_t>& v, const std::array<uint8_t, 8>& blk) { v.insert(v.end(), blk.begin(), blk.end()); }

void alpha_test(TexScene& s, bool on) {
  s.b.check(s.ctx.set_alpha_test(on, rt::ComparisonFunc::GREATER_EQUAL, 128), "set_alpha_test");
}

void set_blend(TexScene& s, const rt::BlendState* bs) { s.b.check(s.ctx.set_blend_state(bs), "set_blend_state"); }

rt::BlendState blend_over(TexScene& s) {
  rt::BlendDesc over;
  over.render_target.blend_enable = true;
  over.render_target.src_blend = rt::Blend::SRC_ALPHA;
  over.render_target.dest_blend = rt::Blend::INV_SRC_ALPHA;
  over.render_target.src_blend_alpha = rt::Blend::ONE;
  over.render_target.dest_blend_alpha = rt::Blend::INV_SRC_ALPHA;
  rt::BlendState bs;
  s.b.check(s.b.dev().create_blend_state(over, &bs), "create_blend_state");
  return bs;
}

// Untextured diagonal-ish stripes (Gouraud) behind the translucent quads.
void stripes(TexScene& s, uint32_t w, uint32_t h) {
  std::vector<TexVertex> q;
  for (uint32_t i = 0; i * 8 < w; ++i) {
    const uint32_t c = (i & 1) ? rgba(220, 220, 220) : rgba(60, 70, 90);
    s.rect(q, i * 8.0, 0, i * 8.0 + 8, h, 0, 0, 0, 0, {c, c, (i & 1) ? rgba(250, 200, 120) : c, c}, 0.9f);
  }
  s.b.check(s.ctx.set_texture_combine(0, rt::TextureCombine::DISABLE), "set_texture_combine");
  s.ctx.set_gouraud(true);
  s.draw(q);
}

}  // namespace

// ---- tex_bc --------------------------------------------------------------------------------------
SceneImage scene_tex_bc(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 84);
  const uint32_t w = 160, h = 80;
  TexScene s("tex_bc", w, h, rgba(20, 20, 20));
  stripes(s, w, h);
  const uint32_t white = rgba(255, 255, 255);
  std::vector<TexVertex> q;
  // Top left: the crate as BC1 (stb_dxt), full chain, trilinear, opaque.
  rt::Resource* crate = s.texture_file(kCratePath, rt::TexFormat::BC1_UNORM);
  s.bind(s.view(crate), s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR)), rt::TextureCombine::REPLACE);
  s.rect(q, 2, 2, 78, 38, 0, 0, 1, 1, {white, white, white, white});
  s.draw(q);
  // Top right: 16x16 BC1 by hand. Blocks alternate between 3-colour mode (c0 <= c1: index 2 the
  // midpoint, 3 transparent black) and 4-colour mode (c0 > c1); blended "over" the stripes, so the
  // transparent texels show the stripes through.
  const rt::BlendState over = blend_over(s);
  set_blend(s, &over);
  std::vector<uint8_t> bc1;
  for (uint32_t by = 0; by < 4; ++by) {
    for (uint32_t bx = 0; bx < 4; ++bx) {
      std::array<uint32_t, 16> idx{};
      for (uint32_t t = 0; t < 16; ++t) {
        const uint32_t x = bx * 4 + t % 4, y = by * 4 + t / 4;
        const int dx = static_cast<int>(2 * x) - 15, dy = static_cast<int>(2 * y) - 15;
        const int r2 = dx * dx + dy * dy;
        idx[t] = r2 > 200 ? 3u : r2 > 120 ? 2u : r2 > 40 ? 1u : 0u;
      }
      const bool three = ((bx ^ by) & 1) == 0;
      const uint16_t lo = static_cast<uint16_t>(0x001F + (static_cast<uint16_t>(rng.range(0, 15)) << 6));  // bluish
      const uint16_t hi = 0xFBE0;                                                                          // orange
      if (three) {
        bc1_append(bc1, bc1_block(lo, hi, idx));  // lo <= hi: 3-colour + transparent
      } else {
        for (uint32_t& i : idx) i = i == 3 ? 1u : i;  // 4-colour: every texel opaque
        bc1_append(bc1, bc1_block(hi, lo, idx));
      }
    }
  }
  rt::Texture2DDesc d;
  d.width = d.height = 16;
  d.format = rt::TexFormat::BC1_UNORM;
  const rt::SubresourceData init{bc1.data(), 4 * 8};
  s.bind(s.view(s.texture(d, &init)), s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_POINT)),
         rt::TextureCombine::REPLACE);
  q.clear();
  s.rect(q, 82, 2, 158, 38, 0, 0, 1, 1, {white, white, white, white});
  s.draw(q);
  // Bottom left: BC3 (stb_dxt) of a disc whose alpha falls off outwards, bilinear, blended.
  std::vector<uint32_t> disc(32 * 32);
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const double dx = (x + 0.5) / 16 - 1, dy = (y + 0.5) / 16 - 1, r = std::sqrt(dx * dx + dy * dy);
      disc[y * 32 + x] = rgba_a(ch(255 * (1 - r * 0.5)), ch(120 + 100 * dx), ch(200 - 150 * r), ch(255 * (1.1 - r)));
    }
  }
  rt::Resource* bc3 = s.texture_rgba8(32, 32, rt::TexFormat::BC3_UNORM, disc);
  s.bind(s.view(bc3), s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR, rt::TextureAddressMode::CLAMP)),
         rt::TextureCombine::REPLACE);
  q.clear();
  s.rect(q, 2, 42, 78, 78, 0, 0, 1, 1, {white, white, white, white});
  s.draw(q);
  // Bottom right: a colour ramp as BC1 (stb_dxt), magnified with point filtering: the 4x4 blocks
  // and their 4-entry palettes are visible; MODULATE with a Gouraud colour.
  std::vector<uint32_t> ramp(16 * 16);
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 16; ++x) ramp[y * 16 + x] = rgba(ch(x * 17), ch(255 - y * 17), ch((x + y) * 8));
  }
  rt::Resource* bc1r = s.texture_rgba8(16, 16, rt::TexFormat::BC1_UNORM, ramp, 1);
  set_blend(s, nullptr);
  s.bind(s.view(bc1r), s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_POINT)), rt::TextureCombine::MODULATE);
  q.clear();
  s.rect(q, 82, 42, 158, 78, 0, 0, 1, 1, {white, rgba(255, 160, 160), rgba(160, 160, 255), white});
  s.draw(q);
  return s.b.finish();
}

// ---- tex_srgb ------------------------------------------------------------------------------------
SceneImage scene_tex_srgb(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 85);
  const uint32_t w = 160, h = 84;
  TexScene s("tex_srgb", w, h, rgba(40, 40, 40), 1, rt::Format::R8G8B8A8_UNORM_SRGB);
  const std::vector<uint32_t> pic = test_picture(128);
  const rt::TexFormat fmts[4] = {rt::TexFormat::R8G8B8A8_UNORM_SRGB, rt::TexFormat::R8G8B8A8_UNORM,
                                 rt::TexFormat::B8G8R8A8_UNORM, rt::TexFormat::B5G6R5_UNORM};
  rt::SamplerState* tri = s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR));
  rt::SamplerState* bil = s.sampler(TexScene::samp(rt::Filter::MIN_MAG_LINEAR_MIP_POINT));
  const uint32_t white = rgba(255, 255, 255);
  const float u0 = 0.40f + static_cast<float>(jitter(rng, 0.02)), v0 = 0.40f;
  for (uint32_t k = 0; k < 4; ++k) {
    rt::ShaderResourceView* v = s.view(s.texture_rgba8(128, 128, fmts[k], pic));
    const double x0 = 4 + 39 * k;
    std::vector<TexVertex> q;
    // Top: the whole picture minified 128 -> 36 (trilinear); bottom: 16x16 texels magnified.
    s.bind(v, tri, rt::TextureCombine::REPLACE);
    s.rect(q, x0, 4, x0 + 36, 40, 0, 0, 1, 1, {white, white, white, white});
    s.draw(q);
    q.clear();
    s.bind(v, bil, rt::TextureCombine::REPLACE);
    s.rect(q, x0, 44, x0 + 36, 80, u0, v0, u0 + 0.125f, v0 + 0.125f, {white, white, white, white});
    s.draw(q);
  }
  return s.b.finish();
}

// ---- tex_lod -------------------------------------------------------------------------------------
SceneImage scene_tex_lod(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 86);
  const uint32_t w = 160, h = 40;
  TexScene s("tex_lod", w, h, rgba(30, 30, 30));
  // 64x64, 7 levels given one by one, each its own colour (a 2-texel checker of it and a darker
  // shade): which levels a quad samples shows in its colour.
  const uint32_t colours[7] = {rgba(230, 40, 40),  rgba(240, 140, 30), rgba(230, 220, 40), rgba(50, 200, 60),
                               rgba(40, 200, 220), rgba(50, 80, 230),  rgba(200, 60, 210)};
  std::vector<std::vector<uint32_t>> levels(7);
  std::vector<rt::SubresourceData> init(7);
  for (uint32_t l = 0; l < 7; ++l) {
    const uint32_t n = 64u >> l, c = colours[l];
    const uint32_t dark = rgba((c & 0xFF) / 2, (c >> 8 & 0xFF) / 2, (c >> 16 & 0xFF) / 2);
    levels[l].resize(static_cast<size_t>(n) * n);
    for (uint32_t y = 0; y < n; ++y) {
      for (uint32_t x = 0; x < n; ++x) levels[l][y * n + x] = ((x / 2 + y / 2) & 1) ? dark : c;
    }
    init[l] = {levels[l].data(), n * 4};
  }
  rt::Texture2DDesc d;
  d.width = d.height = 64;
  d.mip_levels = 7;
  d.format = rt::TexFormat::R8G8B8A8_UNORM;
  d.misc = rt::TEX_MISC_INIT_RGBA8;
  rt::ShaderResourceView* v = s.view(s.texture(d, init.data()));
  // 64 texels over 28 pixels: LOD about 1.2. Then bias +2, bias -1, MIN_LOD 3, MAX_LOD 0.5.
  const float bias = static_cast<float>(jitter(rng, 0.1));
  const uint32_t white = rgba(255, 255, 255);
  for (uint32_t k = 0; k < 5; ++k) {
    rt::SamplerDesc sd = TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR);
    sd.mip_lod_bias = bias + (k == 1 ? 2.0f : k == 2 ? -1.0f : 0.0f);
    if (k == 3) sd.min_lod = 3.0f;
    if (k == 4) sd.max_lod = 0.5f;
    s.bind(v, s.sampler(sd), rt::TextureCombine::REPLACE);
    std::vector<TexVertex> q;
    const double x0 = 4 + 31 * k;
    s.rect(q, x0, 6, x0 + 28, 34, 0, 0, 1, 1, {white, white, white, white});
    s.draw(q);
  }
  return s.b.finish();
}

// ---- tex_combine ---------------------------------------------------------------------------------
SceneImage scene_tex_combine(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 87);
  const uint32_t w = 160, h = 64;
  TexScene s("tex_combine", w, h, rgba(25, 25, 35));
  // 32x32 RGBA8: a blue-white checker with alpha 255 on a ring, 90 inside it, 170 outside.
  std::vector<uint32_t> px(32 * 32);
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const double dx = (x + 0.5) / 16 - 1, dy = (y + 0.5) / 16 - 1, r = std::sqrt(dx * dx + dy * dy);
      const uint32_t a = r > 0.55 && r < 0.85 ? 255 : r <= 0.55 ? 90 : 170;
      px[y * 32 + x] = ((x / 4 + y / 4) & 1) ? rgba_a(240, 240, 250, a) : rgba_a(30, 90, 200, a);
    }
  }
  rt::ShaderResourceView* v = s.view(s.texture_rgba8(32, 32, rt::TexFormat::R8G8B8A8_UNORM, px));
  rt::SamplerState* smp = s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR));
  s.ctx.set_gouraud(true);
  const uint32_t ca = static_cast<uint32_t>(rng.range(120, 255));
  const std::array<uint32_t, 4> c = {rgba_a(255, 60, 60, 255), rgba_a(60, 255, 60, ca), rgba_a(60, 60, 255, 128),
                                     rgba_a(255, 255, 60, 40)};
  const rt::TextureCombine ops[5] = {rt::TextureCombine::MODULATE, rt::TextureCombine::REPLACE, rt::TextureCombine::ADD,
                                     rt::TextureCombine::DECAL, rt::TextureCombine::DISABLE};
  for (uint32_t k = 0; k < 5; ++k) {
    s.bind(v, smp, ops[k]);
    std::vector<TexVertex> q;
    const double x0 = 4 + 31 * k;
    s.rect(q, x0, 4, x0 + 28, 60, 0, 0, 1, 2, c);
    s.draw(q);
  }
  return s.b.finish();
}

// ---- tex_foliage ---------------------------------------------------------------------------------
// Whether the alpha-tested plants write depth. With late Z (docs/comb.md section 5) they do, and
// are drawn near to far before an opaque crate, so a killed pixel that wrote depth would hide
// what is drawn behind it later. Without late Z (a killed pixel would already have written its
// depth early) they only test depth and are drawn far to near after the crate.
constexpr bool kFoliageDepthWrites = true;  // late Z (ZS late port): plants write depth after the alpha kill

SceneImage scene_tex_foliage(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 88);
  const uint32_t w = 128, h = 128;
  TexScene s("tex_foliage", w, h, rgba(140, 180, 230));
  s.depth();
  const M4 vp = Camera{{0, 1.15, -3.4}, {0, 0.55, 0.4}, 0.9, 0.3, 40.0}.view_proj();
  s.transform(vp);
  // The ground: untextured, Gouraud, opaque (early Z).
  s.ctx.set_gouraud(true);
  const uint32_t g0 = rgba(70, 120, 40), g1 = rgba(110, 90, 50);
  const float e = 6.0f;
  s.draw({{-e, 0, -e, g0, 0, 0}, {-e, 0, e, g1, 0, 0}, {e, 0, -e, g1, 0, 0},
          {e, 0, -e, g1, 0, 0}, {-e, 0, e, g1, 0, 0}, {e, 0, e, g0, 0, 0}});
  // Plants: two crossed quads each, three rows of three, near row first.
  std::vector<TexVertex> plants;
  const uint32_t top = rgba(255, 255, 240), bottom = rgba(120, 140, 110);
  for (int k = 0; k < 9; ++k) {
    const double px = -1.3 + 1.3 * (k % 3) + jitter(rng, 0.3), pz = -1.0 + 1.1 * (k / 3) + jitter(rng, 0.2);
    const double size = 1.1 + jitter(rng, 0.15), turn = jitter(rng, 1.5);
    for (int c = 0; c < 2; ++c) {
      const double a = turn + c * kPi / 2, dx = std::cos(a) * size / 2, dz = std::sin(a) * size / 2;
      const float x0 = static_cast<float>(px - dx), x1 = static_cast<float>(px + dx);
      const float z0 = static_cast<float>(pz - dz), z1 = static_cast<float>(pz + dz), y1 = static_cast<float>(size * 1.2);
      const TexVertex tl{x0, y1, z0, top, 0, 0}, tr{x1, y1, z1, top, 1, 0};
      const TexVertex bl{x0, 0, z0, bottom, 0, 1}, br{x1, 0, z1, bottom, 1, 1};
      plants.insert(plants.end(), {tl, tr, bl, tr, br, bl});
    }
  }
  rt::Resource* leaf_tex = s.texture_rgba8(64, 64, rt::TexFormat::R8G8B8A8_UNORM, leaf_sprite(64));
  rt::ShaderResourceView* leaf = s.view(leaf_tex);
  rt::SamplerState* leaf_samp = s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR, rt::TextureAddressMode::CLAMP));
  rt::ShaderResourceView* crate = s.view(s.texture_file(kCratePath, rt::TexFormat::BC1_UNORM));
  rt::SamplerState* crate_samp = s.sampler(TexScene::samp(rt::Filter::MIN_MAG_MIP_LINEAR));
  const auto draw_plants = [&](bool near_first) {
    s.bind(leaf, leaf_samp);
    alpha_test(s, true);
    rt::DepthStencilDesc d;
    d.depth_write = kFoliageDepthWrites;
    s.depth_state(d);
    s.transform(vp);
    if (near_first) {
      s.draw(plants);
    } else {
      std::vector<TexVertex> far_first;
      for (size_t row = 3; row-- > 0;) far_first.insert(far_first.end(), plants.begin() + row * 36, plants.begin() + row * 36 + 36);
      s.draw(far_first);
    }
  };
  // An opaque crate (alpha test off, depth writes on: early Z) between the first and second rows.
  const auto draw_crate = [&]() {
    alpha_test(s, false);
    s.depth_state(rt::DepthStencilDesc());
    s.bind(crate, crate_samp);
    s.transform(vp * translate({0.55, 0.4, 0.55}) * rotate_y(0.5 + jitter(rng, 0.2)) * scale(0.8));
    s.draw(cube({-1.5, 2.0, -2.5}, {1, 1, 1}));
  };
  if (kFoliageDepthWrites) {
    draw_plants(true);
    draw_crate();
  } else {
    draw_crate();
    draw_plants(false);
  }
  return s.b.finish();
}

// ---- tex_lightmap --------------------------------------------------------------------------------
namespace {

// Two texture coordinates: position F32x3 at 0, colour UNORM8x4 at 12, uv0 F32x2 at 16, uv1 F32x2
// at 24.
struct LmVertex {
  float x, y, z;
  uint32_t color;
  float u0, v0, u1, v1;
};
static_assert(sizeof(LmVertex) == 32, "32-byte vertices");

// A light baked into a lightmap: position, colour (0..1 per channel), strength.
struct BakedLight {
  V3 p;
  V3 c;
  double k;
};

// A w x h lightmap of the rectangle origin + s * du + t * dv (s, t in [0, 1], texel centres) with
// normal n: an ambient term plus each light's n.l / (1 + d^2), times `shadow` (0..1) at (s, t).
template <typename Shadow>
std::vector<uint32_t> bake(uint32_t w, uint32_t h, V3 origin, V3 du, V3 dv, V3 n, const std::vector<BakedLight>& lights,
                           Shadow shadow) {
  std::vector<uint32_t> px(static_cast<size_t>(w) * h);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      const double s = (x + 0.5) / w, t = (y + 0.5) / h;
      const V3 p = origin + du * s + dv * t;
      V3 e{0.16, 0.16, 0.2};  // ambient
      for (const BakedLight& l : lights) {
        const V3 d = l.p - p;
        const double d2 = dot(d, d), nl = std::max(0.0, dot(n, normalize(d)));
        e = e + l.c * (l.k * nl / (1.0 + d2));
      }
      const double sh = shadow(s, t);
      px[y * w + x] = rgba(ch(255 * std::min(1.0, e.x * sh)), ch(255 * std::min(1.0, e.y * sh)),
                           ch(255 * std::min(1.0, e.z * sh)));
    }
  }
  return px;
}

}  // namespace

SceneImage scene_tex_lightmap(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 89);
  const uint32_t w = 128, h = 96;
  TexScene s("tex_lightmap", w, h, rgba(10, 10, 16));
  rt::InputLayout l;
  s.b.check(s.b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                           {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12},
                                           {rt::Semantic::TEXCOORD0, rt::VertexFormat::F32X2, 0, 16},
                                           {rt::Semantic::TEXCOORD1, rt::VertexFormat::F32X2, 0, 24}},
                                          &l),
            "create_input_layout");
  s.ctx.set_input_layout(l);
  s.depth();
  s.transform(Camera{{0.2, 1.7, -1.6}, {0, 0.9, 4.0}, 0.95, 0.3, 30.0}.view_proj(4.0 / 3.0));
  const auto draw = [&](const std::vector<LmVertex>& v) {
    rt::Resource* r = s.b.create_buffer({static_cast<uint32_t>(v.size() * sizeof(LmVertex)), rt::BIND_VERTEX_BUFFER}, v.data());
    s.b.check(s.ctx.set_vertex_buffer(0, r, sizeof(LmVertex)), "set_vertex_buffer");
    s.b.check(s.ctx.draw(static_cast<uint32_t>(v.size()), 0), "draw");
  };
  // A quad of corners a (uv0 0,0 / uv1 s0,t0), b (u), c (u, v), d (v), colour white.
  const auto quad = [](std::vector<LmVertex>& out, V3 a, V3 du, V3 dv, float ru, float rv, float s0, float t0, float s1,
                       float t1) {
    const auto vtx = [&](double fu, double fv) {
      const V3 p = a + du * fu + dv * fv;
      return LmVertex{static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z), rgba(255, 255, 255),
                      static_cast<float>(fu * ru), static_cast<float>(fv * rv),
                      static_cast<float>(s0 + fu * (s1 - s0)), static_cast<float>(t0 + fv * (t1 - t0))};
    };
    const LmVertex p00 = vtx(0, 0), p10 = vtx(1, 0), p11 = vtx(1, 1), p01 = vtx(0, 1);
    out.insert(out.end(), {p00, p10, p01, p10, p11, p01});
  };
  // The room: floor y = 0, x in [-3, 3], z in [0, 5]; back wall z = 5, y in [0, 3].
  const V3 floor_o{-3, 0, 5}, floor_u{6, 0, 0}, floor_v{0, 0, -5};  // s along x, t towards the camera
  const V3 wall_o{-3, 3, 5}, wall_u{6, 0, 0}, wall_v{0, -3, 0};     // s along x, t downwards
  const std::vector<BakedLight> lights = {
      {{-1.6 + jitter(rng, 0.3), 2.4, 3.6}, {1.0, 0.75, 0.45}, 2.6},  // a warm lamp, left
      {{2.1, 1.2 + jitter(rng, 0.2), 4.4}, {0.35, 0.55, 1.0}, 1.6},   // a blue light, right
  };
  // The cube's shadow on the floor (away from the warm lamp) and a soft one at the wall's foot.
  const V3 cube_at{0.9 + jitter(rng, 0.15), 0.4, 2.6};
  const auto floor_shadow = [&](double fs, double ft) {
    const V3 p = floor_o + floor_u * fs + floor_v * ft;
    const double dx = p.x - (cube_at.x + 0.45), dz = p.z - (cube_at.z - 0.35);
    return 0.35 + 0.65 * std::min(1.0, (dx * dx + dz * dz) / 0.5);
  };
  const auto wall_shadow = [](double, double ft) { return 0.55 + 0.45 * std::min(1.0, (1.0 - ft) * 4.0); };
  const std::vector<uint32_t> floor_lm = bake(16, 16, floor_o, floor_u, floor_v, {0, 1, 0}, lights, floor_shadow);
  const std::vector<uint32_t> wall_lm = bake(16, 8, wall_o, wall_u, wall_v, {0, 0, -1}, lights, wall_shadow);
  // Base textures: floor tiles and bricks (64x64, host mips), a poster, a sign and its glow.
  const std::vector<uint32_t> tiles = checker(64, 16, rgba(225, 215, 190), rgba(150, 120, 90), rgba(70, 60, 50));
  std::vector<uint32_t> bricks(64 * 64), poster(32 * 32), sign(32 * 16), glow(8 * 4), wood(32 * 32);
  for (uint32_t y = 0; y < 64; ++y) {
    for (uint32_t x = 0; x < 64; ++x) {
      const uint32_t row = y / 8, xo = (x + (row & 1) * 8) % 16;
      const bool mortar = y % 8 == 0 || xo == 0;
      const uint32_t tint = (x * 7 + y * 13) % 23;
      bricks[y * 64 + x] = mortar ? rgba(200, 195, 185) : rgba(170 + tint, 80 + tint, 60 + tint / 2);
    }
  }
  for (uint32_t y = 0; y < 32; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const double dx = (x + 0.5) / 16 - 1, dy = (y + 0.5) / 16 - 0.8;
      const bool frame = x < 2 || x > 29 || y < 2 || y > 29;
      poster[y * 32 + x] = frame ? rgba(40, 30, 20)
                           : dx * dx + dy * dy < 0.3 ? rgba(240, 200, 60)
                                                     : rgba(ch(60 + 5 * y), 90, ch(200 - 4 * y));
      wood[y * 32 + x] = rgba(ch(150 + 40 * std::sin(x * 0.9 + y * 0.15)), ch(100 + 25 * std::sin(x * 0.9)), 60);
    }
  }
  for (uint32_t y = 0; y < 16; ++y) {
    for (uint32_t x = 0; x < 32; ++x) {
      const bool letter = y >= 4 && y < 12 && x >= 3 && x < 29 && (x % 5 != 2) && !(y == 7 && x % 5 == 4);
      sign[y * 32 + x] = letter ? rgba(255, 90, 140) : rgba(30, 20, 40);
    }
  }
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      const double dx = (x + 0.5) / 4 - 1, dy = (y + 0.5) / 2 - 1;
      const double g = std::max(0.0, 1.0 - (dx * dx + dy * dy) * 0.8);
      glow[y * 8 + x] = rgba(ch(200 * g), ch(60 * g), ch(110 * g));
    }
  }
  using F = rt::Filter;
  using A = rt::TextureAddressMode;
  rt::ShaderResourceView* v_tiles = s.view(s.texture_rgba8(64, 64, rt::TexFormat::R8G8B8A8_UNORM, tiles));
  rt::ShaderResourceView* v_bricks = s.view(s.texture_rgba8(64, 64, rt::TexFormat::R8G8B8A8_UNORM, bricks));
  rt::ShaderResourceView* v_poster = s.view(s.texture_rgba8(32, 32, rt::TexFormat::R8G8B8A8_UNORM, poster));
  rt::ShaderResourceView* v_sign = s.view(s.texture_rgba8(32, 16, rt::TexFormat::R8G8B8A8_UNORM, sign, 1));
  rt::ShaderResourceView* v_wood = s.view(s.texture_rgba8(32, 32, rt::TexFormat::R8G8B8A8_UNORM, wood));
  rt::ShaderResourceView* v_floor_lm = s.view(s.texture_rgba8(16, 16, rt::TexFormat::R8G8B8A8_UNORM, floor_lm, 1));
  rt::ShaderResourceView* v_wall_lm = s.view(s.texture_rgba8(16, 8, rt::TexFormat::R8G8B8A8_UNORM, wall_lm, 1));
  rt::ShaderResourceView* v_glow = s.view(s.texture_rgba8(8, 4, rt::TexFormat::R8G8B8A8_UNORM, glow, 1));
  rt::SamplerState* s_tri = s.sampler(TexScene::samp(F::MIN_MAG_MIP_LINEAR));
  rt::SamplerState* s_lm = s.sampler(TexScene::samp(F::MIN_MAG_LINEAR_MIP_POINT, A::CLAMP));
  rt::SamplerState* s_sign = s.sampler(TexScene::samp(F::MIN_MAG_MIP_POINT, A::CLAMP));
  const auto stage1 = [&](rt::ShaderResourceView* v, rt::SamplerState* smp, rt::TextureCombine op) {
    s.b.check(s.ctx.set_shader_resource(1, v), "set_shader_resource 1");
    s.b.check(s.ctx.set_sampler(1, smp), "set_sampler 1");
    s.b.check(s.ctx.set_texture_combine(1, op), "set_texture_combine 1");
  };
  std::vector<LmVertex> q;
  // Floor and wall: tiles / bricks x their lightmaps.
  s.bind(v_tiles, s_tri);
  stage1(v_floor_lm, s_lm, rt::TextureCombine::MODULATE);
  quad(q, floor_o, floor_u, floor_v, 6, 5, 0, 0, 1, 1);
  draw(q);
  q.clear();
  s.bind(v_bricks, s_tri);
  stage1(v_wall_lm, s_lm, rt::TextureCombine::MODULATE);
  quad(q, wall_o, wall_u, wall_v, 4, 2, 0, 0, 1, 1);
  draw(q);
  // The poster, just in front of the wall: the wall's lightmap at the poster's place.
  const double px0 = -2.3, px1 = -0.9, py0 = 2.4, py1 = 1.0;
  q.clear();
  s.bind(v_poster, s_tri);
  quad(q, {px0, py0, 4.98}, {px1 - px0, 0, 0}, {0, py1 - py0, 0}, 1, 1, static_cast<float>((px0 + 3) / 6),
       static_cast<float>((3 - py0) / 3), static_cast<float>((px1 + 3) / 6), static_cast<float>((3 - py1) / 3));
  draw(q);
  // The sign: REPLACE, then its glow added by stage 1.
  q.clear();
  s.bind(v_sign, s_sign, rt::TextureCombine::REPLACE);
  stage1(v_glow, s_lm, rt::TextureCombine::ADD);
  quad(q, {0.4, 2.5, 4.98}, {1.8, 0, 0}, {0, -0.9, 0}, 1, 1, 0, 0, 1, 1);
  draw(q);
  // The cube: stage 1 off (its base texture and Gouraud light; slot 1 stays bound), and one
  // stage-1-only-off quad of floor tiles in front of it.
  s.b.check(s.ctx.set_texture_combine(1, rt::TextureCombine::DISABLE), "set_texture_combine 1");
  s.bind(v_wood, s_tri);
  s.ctx.set_gouraud(true);
  const M4 vp = Camera{{0.2, 1.7, -1.6}, {0, 0.9, 4.0}, 0.95, 0.3, 30.0}.view_proj(4.0 / 3.0);
  s.transform(vp * translate(cube_at) * rotate_y(0.5 + jitter(rng, 0.2)) * scale(0.8));
  q.clear();
  for (const TexVertex& t : cube({-2.0, 3.0, -1.0}, {1, 1, 1})) q.push_back({t.x, t.y, t.z, t.color, t.u, t.v, 0, 0});
  draw(q);
  s.ctx.set_gouraud(false);
  s.transform(vp);
  q.clear();
  s.bind(v_tiles, s_tri);
  quad(q, {-2.2, 0.01, 1.2}, {1.2, 0, 0}, {0, 0, -0.8}, 1, 1, 0, 0, 1, 1);
  draw(q);
  return s.b.finish();
}

}  // namespace pineda::scenes
