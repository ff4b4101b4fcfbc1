// SPDX-License-Identifier: Apache-2.0
// glmark2-like scenes: Debian's glmark2-data models (/usr/share/glmark2/models) loaded with assimp
// and drawn as build/pineda render draws them (sim/model_render.h): per-vertex lighting on the
// host, one indexed DRAW_FE in file order with a D24S8 depth buffer (LESS), back faces culled,
// flat shaded; gl_cube's crate texture sampled by the hardware (host mips, trilinear, MODULATE).
#include <string>

#include "mesh_load.h"
#include "model_render.h"
#include "scene_list.h"
#include "scenes.h"

namespace pineda::scenes {

SceneImage scene_glmark2(const std::string& name, const std::string& model, const std::string& texture,
                         uint32_t size, double yaw, double pitch, const std::array<double, 3>& rotate, uint32_t seed) {
  const std::string dir = "/usr/share/glmark2/";
  const LoadedMesh mesh = load_mesh(dir + "models/" + model);
  SceneRng rng(seed * 0x100000001ull + 21);
  RenderOptions o;
  o.width = o.height = size;
  o.yaw = yaw + static_cast<double>(rng.range(-100, 100)) / 10.0;  // a seed turns the model by up to 10 degrees
  o.pitch = pitch;
  o.rotate = rotate;
  if (!texture.empty()) o.texture = dir + "textures/" + texture;
  o.file_texture = false;
  return build_model_scene(mesh, o, name, dir + "models/" + model, nullptr);
}

}  // namespace pineda::scenes
