// SPDX-License-Identifier: Apache-2.0
// The front-end scenes: object-space meshes, cameras and transforms.
// Object-space meshes drawn through the geometry front end (index fetch, vertex fetch, the 4x4
// transform, clipping, viewport, culling): D3D conventions, a left-handed world (x right, y up, z
// into the screen), clip z in [0, w], front faces clockwise on screen, back faces culled. Every
// vertex has a colour (its normal as a tint, lit by one directional light), so that the image
// shows the shape. These scenes predate the depth buffer and use none: objects are drawn back to
// front (the depth scenes are in scenes_depth.cpp).

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

// Scene helpers over the Builder: static buffers, the standard layout, viewport and rasterizer.
class FeScene {
 public:
  FeScene(Builder& b) : b_(b), ctx_(b.ctx()) {
    rt::InputLayout l;
    b_.check(b_.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                           {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                          &l),
             "create_input_layout");
    ctx_.set_input_layout(l);
    b_.check(ctx_.set_viewport({0, 0, static_cast<float>(b.width()), static_cast<float>(b.height()), 0, 1}), "set_viewport");
    b_.check(ctx_.set_rasterizer_state({rt::CullMode::BACK, false, true}), "set_rasterizer_state");
  }
  template <typename T>
  rt::Resource* buffer(const std::vector<T>& data, uint32_t bind) {
    return b_.create_buffer({static_cast<uint32_t>(data.size() * sizeof(T)), bind}, data.data());
  }
  rt::Resource* vertices(const std::vector<MeshVertex>& v) {
    rt::Resource* r = buffer(v, rt::BIND_VERTEX_BUFFER);
    b_.check(ctx_.set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
    return r;
  }
  rt::Resource* indices16(const std::vector<uint32_t>& idx, uint32_t lead = 0) {
    std::vector<uint16_t> s(lead, 0xBEEF);  // `lead` indices before the mesh's (start_index skips them)
    for (uint32_t i : idx) s.push_back(static_cast<uint16_t>(i));
    if (s.size() % 2) s.push_back(0);
    rt::Resource* r = buffer(s, rt::BIND_INDEX_BUFFER);
    b_.check(ctx_.set_index_buffer(r, rt::IndexFormat::R16_UINT), "set_index_buffer");
    return r;
  }
  rt::Resource* indices32(const std::vector<uint32_t>& idx) {
    rt::Resource* r = buffer(idx, rt::BIND_INDEX_BUFFER);
    b_.check(ctx_.set_index_buffer(r, rt::IndexFormat::R32_UINT), "set_index_buffer");
    return r;
  }
  void transform(const M4& m) { ctx_.set_transform(to_rt(m)); }

 private:
  Builder& b_;
  rt::ImmediateContext& ctx_;
};

// fe_torus and fe_torus_strip: above the ring's rim, close enough for the near plane to cut it.
const Camera kRimCamera{{0, 0.55, -1.55}, {0, -0.2, 0.4}, 1.2, 0.45, 30.0};

// A small seed-dependent angle (radians), so that each scene seed gives another image.
double jitter_angle(SceneRng& rng, double max) { return max * static_cast<double>(rng.range(-1000, 1000)) / 1000.0; }

}  // namespace

// ---- fe_sphere --------------------------------------------------------------------------------
// Three UV spheres (1,840 triangles each, 32-bit indices) from one vertex buffer holding three
// tinted copies of the vertices (selected with base_vertex) and one index buffer reached through
// an offset and start_index. The nearest sphere is cut by the near plane (its cap is clipped
// away, showing the culled back faces' background) and reaches beyond the view on two sides (guard
// band); the middle one leaves the view on the right; the far one is small.
SceneImage scene_fe_sphere(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 11);
  Builder b("fe_sphere", 256, 256, 256 * 4, rgba(12, 16, 28));
  FeScene fe(b);
  const Mesh s = make_uv_sphere(40, 24);
  std::vector<MeshVertex> v;
  const V3 tints[3] = {{1.0, 0.55, 0.45}, {0.5, 1.0, 0.6}, {0.55, 0.7, 1.0}};
  for (const V3& t : tints) {
    const auto c = mesh_vertices(s, t);
    v.insert(v.end(), c.begin(), c.end());
  }
  fe.vertices(v);
  std::vector<uint32_t> idx(5, 0xDEADBEEFu);  // 5 indices skipped by start_index
  idx.insert(idx.end(), s.idx.begin(), s.idx.end());
  std::vector<uint32_t> ib_data(1, 0xFFFFFFFFu);  // one more skipped by the binding's offset
  ib_data.insert(ib_data.end(), idx.begin(), idx.end());
  rt::Resource* ib = fe.buffer(ib_data, rt::BIND_INDEX_BUFFER);
  b.check(b.ctx().set_index_buffer(ib, rt::IndexFormat::R32_UINT, 4), "set_index_buffer");
  const Camera cam{{0, 0, 0}, {0, 0, 1}, 1.1, 0.5, 40.0};
  const M4 vp = cam.view_proj();
  const uint32_t n = static_cast<uint32_t>(s.idx.size()), nv = static_cast<uint32_t>(s.pos.size());
  const double spin = jitter_angle(rng, 0.3);
  struct Obj {
    V3 at;
    double radius;
    int tint;
  };
  const Obj objs[3] = {{{-0.1, 0.25, 9.0}, 0.8, 2}, {{2.2, 0.3, 4.2}, 1.1, 1}, {{-0.55, -0.45, 1.3}, 1.0, 0}};
  for (const Obj& o : objs) {  // far to near
    fe.transform(vp * translate(o.at) * scale(o.radius) * rotate_x(0.4 + spin) * rotate_y(spin));
    b.check(b.ctx().draw_indexed(n, 5, static_cast<int32_t>(nv * o.tint)), "draw_indexed");
  }
  return b.finish();
}

// ---- fe_torus ---------------------------------------------------------------------------------
// A torus (1,536 triangles, 16-bit indices) seen from above its rim: the near plane cuts the
// near side of the ring and the ring leaves the view left and right. Its vertices sit at vertex
// 100 of the buffer, its index values are stored 300 too high and base_vertex is -200. A second,
// smaller torus lies behind it.
SceneImage scene_fe_torus(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 12);
  Builder b("fe_torus", 256, 256, 256 * 4, rgba(20, 14, 24));
  FeScene fe(b);
  const double yaw = jitter_angle(rng, 0.25);
  // Rings start on the far side (+z, angle pi/2) so that the near side is drawn last.
  const Torus t = make_torus(1.0, 0.32, 48, 16, kPi / 2 - yaw);
  std::vector<MeshVertex> v(100, MeshVertex{1e9f, 1e9f, 1e9f, 0xFF0000FFu});  // never referenced
  const auto tv = mesh_vertices(t.mesh, {1.0, 0.8, 0.5});
  v.insert(v.end(), tv.begin(), tv.end());
  fe.vertices(v);
  std::vector<uint32_t> idx;
  for (uint32_t i : t.mesh.idx) idx.push_back(i + 300);
  fe.indices16(idx);
  const M4 vp = kRimCamera.view_proj();
  const uint32_t n = static_cast<uint32_t>(idx.size());
  fe.transform(vp * translate({0.7, 0.9, 3.6}) * rotate_x(1.1) * scale(0.6));
  b.check(b.ctx().draw_indexed(n, 0, -200), "draw_indexed");
  fe.transform(vp * rotate_y(yaw));
  b.check(b.ctx().draw_indexed(n, 0, -200), "draw_indexed");
  return b.finish();
}

// ---- fe_torus_strip ---------------------------------------------------------------------------
// The torus as triangle strips with restart: one strip per ring segment, cut by 0xFFFF (16-bit
// indices), the near plane cutting it as in fe_torus; a second torus as 32-bit strips cut by
// 0xFFFFFFFF; a non-indexed strip (a ribbon) across the view.
SceneImage scene_fe_torus_strip(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 13);
  Builder b("fe_torus_strip", 256, 256, 256 * 4, rgba(16, 22, 20));
  FeScene fe(b);
  const double yaw = jitter_angle(rng, 0.25);
  const Torus t = make_torus(1.0, 0.32, 40, 14, kPi / 2 - yaw);
  const Torus t2 = make_torus(0.8, 0.3, 24, 10, 0.3);
  auto v = mesh_vertices(t.mesh, {0.6, 1.0, 0.8});
  const uint32_t base2 = static_cast<uint32_t>(v.size());
  const auto v2 = mesh_vertices(t2.mesh, {1.0, 0.6, 0.9});
  v.insert(v.end(), v2.begin(), v2.end());
  // The ribbon: a zigzag of 2 x 13 vertices, non-indexed.
  const uint32_t ribbon = static_cast<uint32_t>(v.size());
  for (int k = 0; k <= 12; ++k) {
    const double x = -1.6 + 0.27 * k, y = 0.25 * std::sin(k * 0.7);
    for (int e = 0; e < 2; ++e) {
      const V3 n = normalize({0, std::cos(k * 0.7) * 0.3, -1});
      v.push_back({static_cast<float>(x), static_cast<float>(y + (e ? -0.12 : 0.12)), 0, shade(n, {1, 1, 0.5})});
    }
  }
  fe.vertices(v);
  const std::vector<uint32_t> s1 = torus_strips(t, INDEX_CUT_16);
  rt::Resource* ib16 = fe.indices16(s1);
  std::vector<uint32_t> s2 = torus_strips(t2, INDEX_CUT_32);
  for (uint32_t& i : s2) {
    if (i != INDEX_CUT_32) i += base2;
  }
  rt::Resource* ib32 = fe.buffer(s2, rt::BIND_INDEX_BUFFER);
  rt::ImmediateContext& ctx = b.ctx();
  b.check(ctx.set_primitive_topology(rt::PrimitiveTopology::TRIANGLE_STRIP, true), "set_primitive_topology");
  const M4 vp = kRimCamera.view_proj();
  // Far: the 32-bit torus, standing up behind the ring.
  fe.transform(vp * translate({-0.7, 0.4, 3.5}) * rotate_x(1.3) * rotate_y(yaw));
  b.check(ctx.set_index_buffer(ib32, rt::IndexFormat::R32_UINT), "set_index_buffer");
  b.check(ctx.draw_indexed(static_cast<uint32_t>(s2.size()), 0, 0), "draw_indexed");
  // The ring, cut by the near plane.
  fe.transform(vp * rotate_y(yaw));
  b.check(ctx.set_index_buffer(ib16, rt::IndexFormat::R16_UINT), "set_index_buffer");
  b.check(ctx.draw_indexed(static_cast<uint32_t>(s1.size()), 0, 0), "draw_indexed");
  // The ribbon in front, culling off: it turns, so both of its sides are seen.
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  fe.transform(vp * translate({0.2, -0.05, 1.6}) * rotate_y(0.5 + yaw));
  b.check(ctx.draw(26, ribbon), "draw");
  return b.finish();
}

// ---- fe_instanced -----------------------------------------------------------------------------
// Instancing: a colour per instance from vertex buffer 1 (UNORM8x4, the per-instance slot) with
// positions from slot 0. Six spheres (288 triangles), each one draw_indexed_instanced of three
// instances with its own transform and start_instance (the instances overlap exactly: the last
// one's colour is what shows); an octahedron drawn non-indexed with draw_instanced; the nearest
// sphere cut by the near plane.
SceneImage scene_fe_instanced(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 14);
  Builder b("fe_instanced", 256, 256, 256 * 4, rgba(24, 24, 24));
  FeScene fe(b);
  rt::ImmediateContext& ctx = b.ctx();
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 1, 4}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  const Mesh s = make_uv_sphere(16, 10);
  std::vector<MeshVertex> v = mesh_vertices(s);
  const uint32_t octa = static_cast<uint32_t>(v.size());
  const V3 corners[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  Mesh o;
  o.pos.assign(corners, corners + 6);
  for (int sx : {0, 1}) {
    for (int sy : {2, 3}) {
      for (int sz : {4, 5}) add_outward(o, static_cast<uint32_t>(sx), static_cast<uint32_t>(sy), static_cast<uint32_t>(sz), {});
    }
  }
  for (uint32_t i : o.idx) v.push_back({static_cast<float>(o.pos[i].x), static_cast<float>(o.pos[i].y), static_cast<float>(o.pos[i].z), 0});
  fe.vertices(v);
  fe.indices16(s.idx, 3);  // 3 leading indices: start_index 3
  // Per-instance data, 8 bytes each: a dword the layout skips, then the colour.
  std::vector<uint32_t> inst;
  for (uint32_t i = 0; i < 24; ++i) {
    inst.push_back(0xDEADBEEFu);
    inst.push_back(i % 3 == 2 ? palette(i / 3) : rgba(40 * (i % 3), 40, 40));  // the third of each draw shows
  }
  rt::Resource* ivb = fe.buffer(inst, rt::BIND_VERTEX_BUFFER);
  b.check(ctx.set_vertex_buffer(1, ivb, 8), "set_vertex_buffer");
  const double spin = jitter_angle(rng, 0.5);
  const M4 vp = Camera{{0, 0, 0}, {0, 0, 1}, 1.2, 0.5, 40.0}.view_proj();
  const V3 at[6] = {{-1.9, 1.0, 6}, {0, 1.1, 6.5}, {1.9, 1.0, 6}, {-1.8, -0.9, 5}, {0.2, -1.6, 5.5}, {0.45, -0.4, 1.0}};
  const uint32_t n = static_cast<uint32_t>(s.idx.size());
  for (uint32_t k = 0; k < 6; ++k) {  // far to near; the octahedron before the nearest sphere
    if (k == 5) {
      fe.transform(vp * translate({-0.6, 0.1, 3.0}) * rotate_y(0.6 + spin) * rotate_x(0.5) * scale(0.5));
      b.check(ctx.draw_instanced(24, 3, octa, 18), "draw_instanced");
    }
    fe.transform(vp * translate(at[k]) * rotate_y(spin + k) * scale(k == 5 ? 0.75 : 0.9));
    b.check(ctx.draw_indexed_instanced(n, 3, 3, 0, 3 * k), "draw_indexed_instanced");
  }
  return b.finish();
}

// ---- fe_bunny ---------------------------------------------------------------------------------
// The glmark2 bunny (32-bit indices): `triangles` = 0 is the whole mesh (69,666 triangles), else
// meshopt_simplify's reduction; in file order or after meshopt_optimizeVertexCache.
SceneImage scene_fe_bunny(const std::string& name, uint32_t seed, size_t triangles, bool optimise) {
  SceneRng rng(seed * 0x100000001ull + 15);
  Builder b(name, 256, 256, 256 * 4, rgba(30, 30, 36));
  FeScene fe(b);
  const Mesh& m = bunny_mesh();
  fe.vertices(mesh_vertices(m, {1.0, 0.9, 0.8}));
  const std::vector<uint32_t> idx = bunny_indices(triangles, optimise);
  fe.indices32(idx);
  const double yaw = 0.6 + jitter_angle(rng, 0.2);
  const M4 vp = Camera{{0, 0.25, -2.3}, {0, 0.05, 0}, 0.95, 0.5, 20.0}.view_proj();
  fe.transform(vp * rotate_y(yaw) * rotate_x(-0.2));
  b.check(b.ctx().draw_indexed(static_cast<uint32_t>(idx.size()), 0, 0), "draw_indexed");
  return b.finish();
}

}  // namespace pineda::scenes
