// SPDX-License-Identifier: Apache-2.0
// Object-space meshes for the front-end scenes: the vertex format, normals and shading, a UV
// sphere, a torus (as a list and as strips), and the glmark2 bunny loaded from its OBJ file and
// reduced with meshoptimizer. Internal to the scenes library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vec_math.h"

namespace pineda::scenes {

// The vertex format of the mesh scenes: position F32x3 at 0, colour UNORM8x4 at 12.
struct MeshVertex {
  float x, y, z;
  uint32_t color;
};
static_assert(sizeof(MeshVertex) == 16, "16-byte vertices");

struct Mesh {
  std::vector<V3> pos, normal;
  std::vector<uint32_t> idx;  // triangle list
  size_t triangles() const { return idx.size() / 3; }
};

// Area-weighted vertex normals from the triangles.
void compute_normals(Mesh& m);

// Colour from a normal: the normal as a tint, times `tint`, lit by a directional light.
uint32_t shade(V3 n, V3 tint);

// The mesh's vertices in the MeshVertex format, coloured by shade(normal, tint).
std::vector<MeshVertex> mesh_vertices(const Mesh& m, V3 tint = {1, 1, 1});

// Appends triangle (a, b, c), wound so that (b - a) x (c - a) points away from `inside`: clockwise
// seen from outside in the left-handed world, a front face.
void add_outward(Mesh& m, uint32_t a, uint32_t b, uint32_t c, V3 inside);

// A UV sphere of radius 1 around the origin: `slices` around y, `stacks` from pole to pole;
// 2 * slices * (stacks - 1) triangles.
Mesh make_uv_sphere(int slices, int stacks);

// A torus around the y axis: major radius R, tube radius r, `rings` around y starting at angle
// `phase` (so that drawing starts on the far side of the camera), `sides` around the tube.
// Vertex (i, j) is at i * sides + j.
struct Torus {
  Mesh mesh;
  int rings = 0, sides = 0;
  uint32_t at(int i, int j) const { return static_cast<uint32_t>((i % rings) * sides + (j % sides)); }
  V3 tube_centre(int i) const {
    const V3 p = mesh.pos[at(i, 0)], q = mesh.pos[at(i, sides / 2)];
    return (p + q) * 0.5;
  }
};
Torus make_torus(double R, double r, int rings, int sides, double phase);

// The torus as one triangle strip per ring segment (i to i + 1, around the tube), separated by
// `cut`: 2 * (sides + 1) indices and 2 * sides triangles per strip, wound like the list.
std::vector<uint32_t> torus_strips(const Torus& t, uint32_t cut);

// The glmark2 bunny (Debian's glmark2-data), loaded with tinyobjloader, triangles in file order,
// with computed vertex normals.
const Mesh& bunny_mesh();

// The bunny reduced to about `triangles` triangles (meshopt_simplify keeps the surviving
// triangles in their original order), or the whole mesh for 0; vertex-cache optimised
// (meshopt_optimizeVertexCache) when `optimise`.
std::vector<uint32_t> bunny_indices(size_t triangles, bool optimise);

}  // namespace pineda::scenes
