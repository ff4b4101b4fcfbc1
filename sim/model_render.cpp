// SPDX-License-Identifier: Apache-2.0
#include "model_render.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <stdexcept>

#include "meshes.h"
#include "scene_builder.h"
#include "vec_math.h"

namespace pineda {

namespace {

using scenes::M4;
using scenes::V3;

constexpr double kDeg = 3.141592653589793 / 180.0;

// The textured vertex (scenes_tex.cpp's TexVertex): position F32x3 at 0, colour UNORM8x4 at 12,
// uv0 F32x2 at 16.
struct TexVertex {
  float x, y, z;
  uint32_t color;
  float u, v;
};
static_assert(sizeof(TexVertex) == 24, "24-byte vertices");

// What a textured draw binds, released (views and samplers hold their own references while bound)
// before the Builder tears the device down.
struct Bindings {
  rt::Resource* texture = nullptr;
  rt::ShaderResourceView* view = nullptr;
  rt::SamplerState* sampler = nullptr;
  Bindings() = default;
  Bindings(const Bindings&) = delete;
  Bindings& operator=(const Bindings&) = delete;
  ~Bindings() {
    if (view) view->release();
    if (sampler) sampler->release();
    if (texture) texture->release();
  }
};

M4 rot_z(double a) {
  M4 r;
  r.m[0][0] = std::cos(a);
  r.m[0][1] = -std::sin(a);
  r.m[1][0] = std::sin(a);
  r.m[1][1] = std::cos(a);
  return r;
}

V3 xform_dir(const M4& m, V3 v) {
  return {m.m[0][0] * v.x + m.m[0][1] * v.y + m.m[0][2] * v.z, m.m[1][0] * v.x + m.m[1][1] * v.y + m.m[1][2] * v.z,
          m.m[2][0] * v.x + m.m[2][1] * v.y + m.m[2][2] * v.z};
}
V3 xform_point(const M4& m, V3 v) {
  const V3 d = xform_dir(m, v);
  return {d.x + m.m[0][3], d.y + m.m[1][3], d.z + m.m[2][3]};
}

uint8_t unorm8(double c) { return static_cast<uint8_t>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0)); }

}  // namespace

SceneImage build_model_scene(const LoadedMesh& mesh, const RenderOptions& o, const std::string& name,
                             const std::string& model_path, RenderInfo* info) {
  RenderInfo inf;
  // Fit: the bounding box's centre at the origin, the farthest vertex at distance 1.
  V3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (const auto& p : mesh.pos) {
    lo = {std::min(lo.x, double{p[0]}), std::min(lo.y, double{p[1]}), std::min(lo.z, double{p[2]})};
    hi = {std::max(hi.x, double{p[0]}), std::max(hi.y, double{p[1]}), std::max(hi.z, double{p[2]})};
  }
  const V3 centre = (lo + hi) * 0.5;
  double radius = 0;
  for (const auto& p : mesh.pos) radius = std::max(radius, std::sqrt(scenes::dot(V3{p[0], p[1], p[2]} - centre, V3{p[0], p[1], p[2]} - centre)));
  if (!(radius > 0) || !std::isfinite(radius)) throw std::runtime_error(model_path + ": the model has no extent");
  // Model files are right-handed (assimp's convention, counter-clockwise front faces); the
  // hardware's world is left-handed: mirroring z maps one onto the other with the same picture on
  // screen, so front faces stay counter-clockwise there (FE_RASTER front CCW).
  M4 mirror;
  mirror.m[2][2] = -1;
  const M4 world = scenes::rotate_x(o.rotate[0] * kDeg) * scenes::rotate_y(o.rotate[1] * kDeg) * rot_z(o.rotate[2] * kDeg) *
                   mirror * scenes::scale(1.0 / radius) * scenes::translate(centre * -1.0);
  const double fovy = o.fov * kDeg, aspect = static_cast<double>(o.width) / o.height;
  const double fit = 1.0 / std::sin(std::min(fovy, fovy * std::min(aspect, 1.0)) / 2);  // the unit sphere fills the view
  const double dist = o.distance > 0 ? o.distance : fit * 1.05;
  const double yaw = o.yaw * kDeg, pitch = o.pitch * kDeg;
  const V3 eye{dist * std::cos(pitch) * std::sin(yaw), dist * std::sin(pitch), -dist * std::cos(pitch) * std::cos(yaw)};
  const M4 view = scenes::look_at_lh(eye, {0, 0, 0}, {0, 1, 0});
  const double zn = std::max(0.01, dist - 1.5), zf = dist + 1.5;
  const M4 proj = scenes::perspective_lh(fovy, aspect, zn, zf);
  // The camera's axes in the world (rows of the view rotation); light from the upper left, in front.
  const V3 ax{view.m[0][0], view.m[0][1], view.m[0][2]}, ay{view.m[1][0], view.m[1][1], view.m[1][2]},
      az{view.m[2][0], view.m[2][1], view.m[2][2]};
  const V3 lv = scenes::normalize({-0.45, 0.6, -0.65});
  const V3 light = scenes::normalize(ax * lv.x + ay * lv.y + az * lv.z);
  const V3 to_eye = az * -1.0;
  const V3 half = scenes::normalize(light + to_eye);

  // Texture: --texture, else the material's own diffuse texture if it is found next to the model.
  std::string tex_path = o.texture;
  if (tex_path.empty() && o.file_texture) {
    for (const Material& m : mesh.materials) {
      if (m.diffuse_texture.empty() || m.diffuse_texture[0] == '*') continue;
      const auto p = std::filesystem::path(model_path).parent_path() / m.diffuse_texture;
      if (std::filesystem::exists(p)) {
        tex_path = p.string();
        break;
      }
    }
  }
  if (!tex_path.empty() && !mesh.has_uv) {
    inf.note = "the model has no texture coordinates: texture " + tex_path + " not used";
    tex_path.clear();
  }
  const bool textured = !tex_path.empty();

  // Face normals: every triangle gets its own three vertices with its normal.
  LoadedMesh faces;
  const LoadedMesh* src = &mesh;
  if (o.face_normals) {
    faces.materials = mesh.materials;
    faces.has_uv = mesh.has_uv;
    for (size_t t = 0; t < mesh.triangles(); ++t) {
      const uint32_t* v = &mesh.idx[3 * t];
      const V3 a{mesh.pos[v[0]][0], mesh.pos[v[0]][1], mesh.pos[v[0]][2]}, b{mesh.pos[v[1]][0], mesh.pos[v[1]][1], mesh.pos[v[1]][2]},
          c{mesh.pos[v[2]][0], mesh.pos[v[2]][1], mesh.pos[v[2]][2]};
      const V3 n = scenes::normalize(scenes::cross(b - a, c - a));  // outward for counter-clockwise faces
      for (int k = 0; k < 3; ++k) {
        faces.idx.push_back(static_cast<uint32_t>(faces.pos.size()));
        faces.pos.push_back(mesh.pos[v[k]]);
        faces.normal.push_back({static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z)});
        faces.uv.push_back(mesh.uv[v[k]]);
        faces.color.push_back(mesh.color[v[k]]);
        faces.material.push_back(mesh.material[v[k]]);
      }
    }
    src = &faces;
  }

  // Per-vertex lighting (world space). A texture modulates the whole lit colour in the combiner
  // (MODULATE), as a fixed-function pipeline without a separate specular colour does.
  std::vector<uint32_t> colour(src->pos.size());
  for (size_t i = 0; i < src->pos.size(); ++i) {
    const LoadedMesh& mesh_ = *src;
    const Material& m = mesh_.materials[mesh_.material[i]];
    const V3 n = scenes::normalize(xform_dir(world, {mesh_.normal[i][0], mesh_.normal[i][1], mesh_.normal[i][2]}));
    const double nl = std::max(0.0, scenes::dot(n, light));
    const double nh = std::max(0.0, scenes::dot(n, half));
    const double spec = (m.shininess > 0 && nl > 0) ? std::pow(nh, std::clamp(double{m.shininess}, 1.0, 256.0)) : 0.0;
    const bool amb_set = m.ambient[0] + m.ambient[1] + m.ambient[2] > 0.01;
    uint8_t c[4];
    for (int k = 0; k < 3; ++k) {
      const double kd = m.diffuse[k] * mesh_.color[i][k];
      const double ka = (amb_set ? m.ambient[k] : kd) * 0.25;
      c[k] = unorm8(m.emissive[k] + ka + kd * nl * 0.9 + m.specular[k] * spec * 0.6);
    }
    c[3] = 255;
    colour[i] = uint32_t{c[0]} | (uint32_t{c[1]} << 8) | (uint32_t{c[2]} << 16) | (uint32_t{c[3]} << 24);
  }

  // File order (the depth buffer resolves visibility), or painter's order with --sort: triangles
  // far to near by the view depth of their centroid.
  std::vector<uint32_t> order(src->triangles());
  std::iota(order.begin(), order.end(), 0u);
  if (o.sort) {
    const M4 vw = view * world;
    std::vector<double> depth(order.size());
    for (size_t t = 0; t < order.size(); ++t) {
      double z = 0;
      for (int k = 0; k < 3; ++k) {
        const auto& p = src->pos[src->idx[3 * t + static_cast<size_t>(k)]];
        z += xform_point(vw, {p[0], p[1], p[2]}).z;
      }
      depth[t] = z;
    }
    std::stable_sort(order.begin(), order.end(), [&depth](uint32_t a, uint32_t b) { return depth[a] > depth[b]; });
  }
  std::vector<uint32_t> idx;
  idx.reserve(src->idx.size());
  for (uint32_t t : order) idx.insert(idx.end(), src->idx.begin() + 3 * t, src->idx.begin() + 3 * t + 3);

  scenes::Builder b(name, o.width, o.height, o.width * 4 * o.samples, o.background, 256, scenes::rgba(255, 0, 255), o.samples);
  Bindings bound;  // declared after the Builder: released before it
  rt::ImmediateContext& ctx = b.ctx();

  // A D24S8 depth buffer with the target's sample count, cleared to 1; D3D11's default state
  // (LESS, writes on, no stencil; Hi-Z on).
  rt::TextureDesc dd;
  dd.width = o.width;
  dd.height = o.height;
  dd.samples = o.samples;
  dd.format = rt::Format::D24_UNORM_S8_UINT;
  dd.bind = rt::BIND_DEPTH_STENCIL;
  rt::DepthStencilView dsv;
  b.check(b.dev().create_depth_stencil_view(b.create_texture(dd, nullptr), &dsv), "create_depth_stencil_view");
  b.check(ctx.set_render_targets(b.target(), &dsv), "set_render_targets");
  b.check(ctx.clear_depth_stencil_view(dsv, rt::CLEAR_FLAG_DEPTH | rt::CLEAR_FLAG_STENCIL, 1.0f, 0), "clear_depth_stencil_view");
  rt::DepthStencilState dss;
  b.check(b.dev().create_depth_stencil_state(rt::DepthStencilDesc(), &dss), "create_depth_stencil_state");
  b.check(ctx.set_depth_stencil_state(&dss, 0), "set_depth_stencil_state");

  // Vertices: position and lit colour, and uv0 when textured. Model files put v = 0 at the bottom
  // of the image (OpenGL's convention, which assimp keeps); D3D's texture origin is the top left.
  std::vector<rt::InputElement> elements{{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                             {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}};
  std::vector<uint8_t> vdata;
  uint32_t stride = 0;
  if (textured) {
    elements.push_back({rt::Semantic::TEXCOORD0, rt::VertexFormat::F32X2, 0, 16});
    std::vector<TexVertex> v(src->pos.size());
    for (size_t i = 0; i < v.size(); ++i) {
      v[i] = {src->pos[i][0], src->pos[i][1], src->pos[i][2], colour[i], src->uv[i][0], 1.0f - src->uv[i][1]};
    }
    stride = sizeof(TexVertex);
    vdata.resize(v.size() * sizeof(TexVertex));
    std::memcpy(vdata.data(), v.data(), vdata.size());
  } else {
    std::vector<scenes::MeshVertex> v(src->pos.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = {src->pos[i][0], src->pos[i][1], src->pos[i][2], colour[i]};
    stride = sizeof(scenes::MeshVertex);
    vdata.resize(v.size() * sizeof(scenes::MeshVertex));
    std::memcpy(vdata.data(), v.data(), vdata.size());
  }
  rt::InputLayout layout;
  b.check(b.dev().create_input_layout(elements, &layout), "create_input_layout");
  ctx.set_input_layout(layout);
  rt::Resource* vb = b.create_buffer({static_cast<uint32_t>(vdata.size()), rt::BIND_VERTEX_BUFFER}, vdata.data());
  b.check(ctx.set_vertex_buffer(0, vb, stride), "set_vertex_buffer");
  if (src->pos.size() <= 0xFFFF) {
    std::vector<uint16_t> s(idx.begin(), idx.end());
    if (s.size() % 2) s.push_back(0);
    rt::Resource* ib = b.create_buffer({static_cast<uint32_t>(s.size() * 2), rt::BIND_INDEX_BUFFER}, s.data());
    b.check(ctx.set_index_buffer(ib, rt::IndexFormat::R16_UINT), "set_index_buffer");
  } else {
    rt::Resource* ib = b.create_buffer({static_cast<uint32_t>(idx.size() * 4), rt::BIND_INDEX_BUFFER}, idx.data());
    b.check(ctx.set_index_buffer(ib, rt::IndexFormat::R32_UINT), "set_index_buffer");
  }

  // The texture: RGBA8 with the full mip chain made on the host, sampled trilinear with WRAP,
  // modulating the lit colour.
  if (textured) {
    b.check(b.dev().create_texture2d_from_file(tex_path, rt::TexFormat::R8G8B8A8_UNORM, 0, &bound.texture),
            "create_texture2d_from_file " + tex_path);
    b.check(b.dev().create_shader_resource_view(bound.texture, nullptr, &bound.view), "create_shader_resource_view");
    rt::SamplerDesc sd;
    sd.filter = rt::Filter::MIN_MAG_MIP_LINEAR;
    sd.address_u = sd.address_v = sd.address_w = rt::TextureAddressMode::WRAP;
    b.check(b.dev().create_sampler_state(sd, &bound.sampler), "create_sampler_state");
    b.check(ctx.set_shader_resource(0, bound.view), "set_shader_resource");
    b.check(ctx.set_sampler(0, bound.sampler), "set_sampler");
    b.check(ctx.set_texture_combine(0, rt::TextureCombine::MODULATE), "set_texture_combine");
    inf.texture = tex_path;
  }
  // Face normals light the three vertices of a triangle alike: flat. Vertex normals: Gouraud.
  ctx.set_gouraud(!o.face_normals);

  b.check(ctx.set_viewport({0, 0, static_cast<float>(o.width), static_cast<float>(o.height), 0, 1}), "set_viewport");
  const rt::CullMode cull = o.cull == Cull::NONE ? rt::CullMode::NONE : o.cull == Cull::FRONT ? rt::CullMode::FRONT : rt::CullMode::BACK;
  b.check(ctx.set_rasterizer_state({cull, true, true}), "set_rasterizer_state");
  const M4 mvp = proj * view * world;
  rt::Matrix4 m;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) m.m[i][j] = static_cast<float>(mvp.m[i][j]);
  }
  ctx.set_transform(m);
  b.check(ctx.draw_indexed(static_cast<uint32_t>(idx.size()), 0, 0), "draw_indexed");
  inf.vertices = src->pos.size();
  inf.triangles = idx.size() / 3;
  if (info) *info = inf;
  return b.finish();
}

}  // namespace pineda
