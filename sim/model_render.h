// SPDX-License-Identifier: Apache-2.0
// A loaded model as a Pineda scene: fitted into a unit sphere, seen by an orbiting perspective
// camera, lit per vertex on the host as a fixed-function pipeline would (one directional light,
// ambient + diffuse + Blinn-Phong specular from the file's material, the texture's texel at the
// vertex's coordinates), drawn with one indexed DRAW_FE through the host runtime over its
// capture backend (scenes::Builder). The hardware has no depth test and no interpolation yet:
// triangles are drawn back to front (sorted on the host), back faces are culled, and each
// triangle has the flat colour of its first (provoking) vertex.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "mesh_load.h"
#include "scenes.h"

namespace pineda {

enum class Cull { NONE, BACK, FRONT };

struct RenderOptions {
  uint32_t width = 512, height = 512, samples = 1;
  double yaw = 30, pitch = 20;     // camera orbit, degrees
  double distance = 0;             // camera distance in model radii; 0: fit the model
  double fov = 40;                 // vertical field of view, degrees
  std::array<double, 3> rotate{0, 0, 0};  // model rotation about x, y, z, degrees (before the camera)
  std::string texture;             // PNG (or JPEG...) modulating the diffuse colour; empty: the file's own
  bool file_texture = true;        // use the material's diffuse texture when --texture is not given
  Cull cull = Cull::BACK;
  bool sort = true;                // back to front (there is no depth buffer)
  // Face normals (each triangle lit by its own normal: the right picture for flat shading, which is
  // what the hardware does) or the vertex normals of the file (smoothed where it has none).
  bool face_normals = true;
  uint32_t background = 0xFF201A18u;  // RGBA8, R in the low byte
};

struct RenderInfo {
  size_t vertices = 0, triangles = 0;
  std::string texture;  // the texture used, if any
  std::string note;     // warnings (no texture coordinates...)
};

// Builds the scene (nothing runs: the result is a memory image and register writes to replay).
SceneImage build_model_scene(const LoadedMesh& mesh, const RenderOptions& o, const std::string& name,
                             const std::string& model_path, RenderInfo* info);

}  // namespace pineda
