// SPDX-License-Identifier: Apache-2.0
// Model files through assimp (OBJ, 3DS, glTF 2.0, PLY, STL, Collada, FBX... everything Debian's
// libassimp reads): every triangle mesh of the scene, its node transforms applied, merged into one
// indexed triangle list with smooth normals, texture coordinates, vertex colours and the
// fixed-function material of each vertex's mesh.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pineda {

struct Material {
  std::array<float, 3> ambient{0.2f, 0.2f, 0.2f};
  std::array<float, 3> diffuse{0.8f, 0.8f, 0.8f};
  std::array<float, 3> specular{0.0f, 0.0f, 0.0f};
  std::array<float, 3> emissive{0.0f, 0.0f, 0.0f};
  float shininess = 0.0f;
  std::string diffuse_texture;  // as the file names it (relative to the model file), may be empty
};

struct LoadedMesh {
  std::vector<std::array<float, 3>> pos, normal;
  std::vector<std::array<float, 2>> uv;      // (0, 0) where the file has none
  std::vector<std::array<float, 4>> color;   // vertex colours, (1, 1, 1, 1) where the file has none
  std::vector<uint32_t> material;            // per vertex: index into materials
  std::vector<uint32_t> idx;                 // triangle list
  std::vector<Material> materials;
  bool has_uv = false;
  size_t triangles() const { return idx.size() / 3; }
};

// Throws std::runtime_error with assimp's message when the file cannot be read, or when it holds
// no triangles.
LoadedMesh load_mesh(const std::string& path);

}  // namespace pineda
