// SPDX-License-Identifier: Apache-2.0
// A loaded model as a Pineda scene, drawn as a D3D11 fixed-function application would: fitted
// into a unit sphere, seen by an orbiting perspective camera, lit per vertex on the host (one
// directional light, ambient + diffuse + Blinn-Phong specular from the file's material), drawn
// with one indexed DRAW_FE through the host runtime over its capture backend (scenes::Builder).
// The hardware does the rest: a D24S8 depth buffer (the target's sample count, cleared to 1,
// LESS with writes; early Z and Hi-Z) resolves visibility, so triangles go in file order (sorted
// back to front only with `sort`); back faces are culled by default; face normals are shaded flat
// (the provoking vertex's colour), vertex normals Gouraud (set_gouraud). A texture is created by
// the runtime from the file with a full mip chain made on the host, and the vertices carry uv0
// (v flipped: model files put v = 0 at the bottom of the image, D3D at the top); it is sampled
// trilinear with WRAP and combined MODULATE with the lit colour (emissive and specular included:
// there is no separate specular colour). One texture per model; no alpha test or blending (a
// texture's alpha reaches the target's alpha).
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
  std::string texture;             // PNG (or JPEG...) modulating the lit colour; empty: the file's own
  bool file_texture = true;        // use the material's diffuse texture when --texture is not given
  Cull cull = Cull::BACK;
  bool sort = false;               // painter's order (far to near) on the host; the depth test runs either way
  // Face normals (each triangle lit by its own normal, shaded flat) or the vertex normals of the
  // file (smoothed where it has none), shaded Gouraud.
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
