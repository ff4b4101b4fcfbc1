// SPDX-License-Identifier: Apache-2.0
// Object-space meshes for the front-end scenes (see meshes.h).

#include "meshes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <meshoptimizer.h>
#include <tiny_obj_loader.h>

#include "scene_builder.h"

namespace pineda::scenes {

void compute_normals(Mesh& m) {
  m.normal.assign(m.pos.size(), V3{});
  for (size_t t = 0; t + 2 < m.idx.size(); t += 3) {
    const uint32_t a = m.idx[t], b = m.idx[t + 1], c = m.idx[t + 2];
    const V3 n = cross(m.pos[b] - m.pos[a], m.pos[c] - m.pos[a]);
    for (uint32_t v : {a, b, c}) m.normal[v] = m.normal[v] + n;
  }
  for (V3& n : m.normal) n = normalize(n);
}

uint32_t shade(V3 n, V3 tint) {
  const V3 light = normalize({-0.4, 0.7, -0.6});  // towards the light
  const double k = 0.3 + 0.7 * std::max(0.0, dot(n, light));
  auto ch = [k](double base, double t) {
    return static_cast<uint32_t>(std::clamp(std::lround(255.0 * k * (0.55 + 0.45 * base) * t), 0L, 255L));
  };
  return rgba(ch(n.x, tint.x), ch(n.y, tint.y), ch(n.z, tint.z));
}

std::vector<MeshVertex> mesh_vertices(const Mesh& m, V3 tint) {
  std::vector<MeshVertex> v(m.pos.size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = {static_cast<float>(m.pos[i].x), static_cast<float>(m.pos[i].y), static_cast<float>(m.pos[i].z),
            shade(m.normal[i], tint)};
  }
  return v;
}

void add_outward(Mesh& m, uint32_t a, uint32_t b, uint32_t c, V3 inside) {
  const V3 n = cross(m.pos[b] - m.pos[a], m.pos[c] - m.pos[a]);
  const V3 centroid = (m.pos[a] + m.pos[b] + m.pos[c]) * (1.0 / 3.0);
  if (dot(n, centroid - inside) < 0) std::swap(b, c);
  m.idx.insert(m.idx.end(), {a, b, c});
}

Mesh make_uv_sphere(int slices, int stacks) {
  Mesh m;
  m.pos.push_back({0, 1, 0});
  for (int i = 1; i < stacks; ++i) {
    const double phi = kPi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double th = 2 * kPi * j / slices;
      m.pos.push_back({std::sin(phi) * std::cos(th), std::cos(phi), std::sin(phi) * std::sin(th)});
    }
  }
  m.pos.push_back({0, -1, 0});
  const uint32_t south = static_cast<uint32_t>(m.pos.size() - 1);
  auto at = [slices](int ring, int j) { return static_cast<uint32_t>(1 + ring * slices + (j % slices)); };
  for (int j = 0; j < slices; ++j) add_outward(m, 0, at(0, j), at(0, j + 1), {});
  for (int i = 0; i + 1 < stacks - 1; ++i) {
    for (int j = 0; j < slices; ++j) {
      add_outward(m, at(i, j), at(i + 1, j), at(i + 1, j + 1), {});
      add_outward(m, at(i, j), at(i + 1, j + 1), at(i, j + 1), {});
    }
  }
  for (int j = 0; j < slices; ++j) add_outward(m, south, at(stacks - 2, j + 1), at(stacks - 2, j), {});
  m.normal = m.pos;  // the unit sphere's normals are its positions
  return m;
}

Torus make_torus(double R, double r, int rings, int sides, double phase) {
  Torus t;
  t.rings = rings;
  t.sides = sides;
  for (int i = 0; i < rings; ++i) {
    const double u = phase + 2 * kPi * i / rings;
    const V3 dir{std::cos(u), 0, std::sin(u)};
    for (int j = 0; j < sides; ++j) {
      const double v = 2 * kPi * j / sides;
      const V3 n = dir * std::cos(v) + V3{0, std::sin(v), 0};
      t.mesh.pos.push_back(dir * R + n * r);
      t.mesh.normal.push_back(n);
    }
  }
  for (int i = 0; i < rings; ++i) {
    for (int j = 0; j < sides; ++j) {
      const V3 c = (t.tube_centre(i) + t.tube_centre(i + 1)) * 0.5;
      add_outward(t.mesh, t.at(i, j), t.at(i + 1, j), t.at(i + 1, j + 1), c);
      add_outward(t.mesh, t.at(i, j), t.at(i + 1, j + 1), t.at(i, j + 1), c);
    }
  }
  return t;
}

std::vector<uint32_t> torus_strips(const Torus& t, uint32_t cut) {
  std::vector<uint32_t> s;
  for (int i = 0; i < t.rings; ++i) {
    // Strip triangle 0 is (a0, b0, a1); flip the pair order if that faces inwards.
    const V3 c = (t.tube_centre(i) + t.tube_centre(i + 1)) * 0.5;
    const V3 p0 = t.mesh.pos[t.at(i, 0)], p1 = t.mesh.pos[t.at(i + 1, 0)], p2 = t.mesh.pos[t.at(i, 1)];
    const bool flip = dot(cross(p1 - p0, p2 - p0), (p0 + p1 + p2) * (1.0 / 3.0) - c) < 0;
    if (i) s.push_back(cut);
    for (int j = 0; j <= t.sides; ++j) {
      const uint32_t a = t.at(i, j), b = t.at(i + 1, j);
      s.push_back(flip ? b : a);
      s.push_back(flip ? a : b);
    }
  }
  return s;
}

namespace {
const char* const BUNNY_OBJ = "/usr/share/glmark2/models/bunny.obj";
}  // namespace

const Mesh& bunny_mesh() {
  static const Mesh mesh = [] {
    tinyobj::ObjReaderConfig cfg;
    cfg.triangulate = true;
    cfg.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromFile(BUNNY_OBJ, cfg))
      throw std::runtime_error(std::string("cannot load ") + BUNNY_OBJ + " (Debian package glmark2-data): " + reader.Error());
    Mesh m;
    const auto& v = reader.GetAttrib().vertices;
    for (size_t i = 0; i + 2 < v.size(); i += 3) m.pos.push_back({v[i], v[i + 1], v[i + 2]});
    for (const auto& shape : reader.GetShapes()) {
      for (const auto& ix : shape.mesh.indices) m.idx.push_back(static_cast<uint32_t>(ix.vertex_index));
    }
    compute_normals(m);
    return m;
  }();
  return mesh;
}

std::vector<uint32_t> bunny_indices(size_t triangles, bool optimise) {
  const Mesh& m = bunny_mesh();
  std::vector<uint32_t> idx = m.idx;
  if (triangles) {
    std::vector<float> p;
    for (const V3& v : m.pos) p.insert(p.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
    std::vector<uint32_t> out(idx.size());
    const size_t n = meshopt_simplify(out.data(), idx.data(), idx.size(), p.data(), m.pos.size(), 12, triangles * 3, 0.05f);
    out.resize(n);
    idx = out;
  }
  if (optimise) {
    std::vector<uint32_t> out(idx.size());
    meshopt_optimizeVertexCache(out.data(), idx.data(), idx.size(), m.pos.size());
    idx = out;
  }
  return idx;
}

}  // namespace pineda::scenes
