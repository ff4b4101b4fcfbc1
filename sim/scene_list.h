// SPDX-License-Identifier: Apache-2.0
// The build functions of the regression scenes, by the file that holds them; scene_registry.cpp
// names them. Internal to the scenes library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <string>

#include "scenes.h"

namespace pineda::scenes {

// scenes_2d.cpp: screen-space (pre-transformed) triangles.
SceneImage scene_grid_mesh(uint32_t seed);
SceneImage scene_fans_slivers(uint32_t seed);
SceneImage scene_quad_full(uint32_t seed, uint32_t samples);
SceneImage scene_tiny(uint32_t seed, uint32_t samples);
SceneImage scene_slivers(uint32_t seed, uint32_t samples);
SceneImage scene_dense_mesh(uint32_t seed, uint32_t samples);
SceneImage scene_guard_band(uint32_t seed);
SceneImage scene_scissor(uint32_t seed);
SceneImage scene_cp_commands(uint32_t seed);
SceneImage scene_overlap_order(uint32_t seed);

// scenes_fe.cpp: object-space meshes through the geometry front end.
SceneImage scene_fe_sphere(uint32_t seed);
SceneImage scene_fe_torus(uint32_t seed);
SceneImage scene_fe_torus_strip(uint32_t seed);
SceneImage scene_fe_instanced(uint32_t seed);
SceneImage scene_fe_bunny(const std::string& name, uint32_t seed, size_t triangles, bool optimise);

// scenes_depth.cpp: CLEAR, depth and stencil (issue 14).
SceneImage scene_clear_rects(uint32_t seed, uint32_t samples);
SceneImage scene_ds_bunny(const std::string& name, uint32_t seed, size_t triangles, uint32_t samples);
SceneImage scene_ds_interpenetrate(uint32_t seed, uint32_t samples);
SceneImage scene_ds_stencil(uint32_t seed);
SceneImage scene_ds_funcs(uint32_t seed);
SceneImage scene_ds_hiz_random(const std::string& name, uint32_t seed, bool hiz);
SceneImage scene_ds_occlusion(const std::string& name, uint32_t seed, uint32_t samples, bool hiz, bool greater);

// scenes_interp.cpp: Gouraud shading through INTERP (issue 15).
SceneImage scene_interp_gouraud(uint32_t seed, uint32_t samples);
SceneImage scene_interp_flat_vs_gouraud(uint32_t seed);

// scenes_om.cpp: blending (issue 16).
SceneImage scene_om_particles(uint32_t seed);
SceneImage scene_om_additive(uint32_t seed);
SceneImage scene_om_factors(uint32_t seed);
SceneImage scene_om_writemask(uint32_t seed);
SceneImage scene_om_srgb(uint32_t seed);
SceneImage scene_om_srgb_unorm(uint32_t seed);
SceneImage scene_om_b5g6r5(uint32_t seed);
SceneImage scene_om_bgra8(uint32_t seed);
SceneImage scene_om_resolve_4x(uint32_t seed);
SceneImage scene_om_alpha_to_coverage(uint32_t seed);
SceneImage scene_om_logic_ops(uint32_t seed);
SceneImage scene_om_transparent_bunny(uint32_t seed);

// scenes_tex.cpp: textured scenes (issue 15): TEX and the combiner.
SceneImage scene_tex_crate(uint32_t seed, uint32_t samples);
SceneImage scene_tex_floor(const std::string& name, uint32_t seed, uint32_t filter);
SceneImage scene_tex_address_modes(uint32_t seed);
SceneImage scene_tex_bc(uint32_t seed);
SceneImage scene_tex_srgb(uint32_t seed);
SceneImage scene_tex_lod(uint32_t seed);
SceneImage scene_tex_combine(uint32_t seed);
SceneImage scene_tex_foliage(uint32_t seed);
SceneImage scene_tex_lightmap(uint32_t seed);

// scenes_texpipe.cpp: TEX and COMB in the pipeline (issue 15, docs/comb.md section 5).
SceneImage scene_tex_pipe_cube(uint32_t seed);

// scenes_glmark2.cpp: glmark2-data models through assimp (sim/model_render.h).
SceneImage scene_glmark2(const std::string& name, const std::string& model, const std::string& texture,
                         uint32_t size, double yaw, double pitch, const std::array<double, 3>& rotate, uint32_t seed);

}  // namespace pineda::scenes
