// SPDX-License-Identifier: Apache-2.0
// The scene registry: every regression scene by name, in the order pineda_sim runs them.

#include "scenes.h"

#include <stdexcept>
#include <string>

#include "scene_list.h"

namespace pineda {

using namespace scenes;

std::vector<SceneInfo> scene_registry() {
  return {
      {"grid_mesh", scene_grid_mesh, "jittered shared-edge grids, exact horizontal/vertical edges, pixel-centre vertices"},
      {"fans_slivers", scene_fans_slivers, "triangle fans around centres and long thin slivers"},
      {"guard_band", scene_guard_band, "vertices at the 16.8 extremes and saturating int32 values"},
      {"tiny_10k", [](uint32_t s) { return scene_tiny(s, 1); }, "10,000 tiny triangles in 4 draws"},
      {"scissor", scene_scissor, "scissor rectangles (empty, partly outside) on a 261x259 target"},
      {"overlap_order", scene_overlap_order, "overlapping triangles of both windings in API order"},
      {"cp_commands", scene_cp_commands, "COPY of a vertex buffer, draws from nested command lists (CALL, tail-call JUMP), GPU wait on a host-signalled fence (WAIT_REG), fence signals with INTERRUPT, COPY of the target"},
      // Rasterizer scenes, each at 1x and 4x MSAA (images: the 4x target resolved).
      {"quad_full", [](uint32_t s) { return scene_quad_full(s, 1); }, "a full-screen quad (two triangles)"},
      {"quad_full_4x", [](uint32_t s) { return scene_quad_full(s, 4); }, "a full-screen quad at 4x MSAA"},
      {"tiny_10k_4x", [](uint32_t s) { return scene_tiny(s, 4); }, "10,000 tiny triangles at 4x MSAA"},
      {"slivers", [](uint32_t s) { return scene_slivers(s, 1); }, "400 long thin slivers in every direction"},
      {"slivers_4x", [](uint32_t s) { return scene_slivers(s, 4); }, "400 long thin slivers at 4x MSAA"},
      {"dense_mesh", [](uint32_t s) { return scene_dense_mesh(s, 1); }, "a 64x64-cell mesh of 8,192 triangles"},
      {"dense_mesh_4x", [](uint32_t s) { return scene_dense_mesh(s, 4); }, "a 64x64-cell mesh of 8,192 triangles at 4x MSAA"},
      // Object-space meshes through the geometry front end (DRAW_FE).
      {"fe_sphere", scene_fe_sphere, "3 UV spheres (1,840 tris each, 32-bit indices, base_vertex), one cut by the near plane"},
      {"fe_torus", scene_fe_torus, "2 tori (1,536 tris each, 16-bit indices, negative base_vertex), near plane and guard band"},
      {"fe_torus_strip", scene_fe_torus_strip, "tori as triangle strips with restart (16- and 32-bit cuts), a non-indexed strip"},
      {"fe_instanced", scene_fe_instanced, "instanced spheres and an octahedron, colour per instance from vertex buffer 1"},
      {"fe_bunny", [](uint32_t s) { return scene_fe_bunny("fe_bunny", s, 4000, false); }, "the glmark2 bunny simplified to ~4,000 tris, file order"},
      {"fe_bunny_opt", [](uint32_t s) { return scene_fe_bunny("fe_bunny_opt", s, 4000, true); }, "the same after meshopt_optimizeVertexCache"},
      // CLEAR through the DMA fill (colour and depth-stencil targets, rectangles; scenes_depth.cpp).
      {"clear_rects", [](uint32_t s) { return scene_clear_rects(s, 1); }, "CLEAR of rectangles of the target between draws (clipped, empty), depth/stencil/both clears of 1x and 4x D24S8 textures"},
      {"clear_rects_4x", [](uint32_t s) { return scene_clear_rects(s, 4); }, "the same on a 4x MSAA target"},
      // Depth and stencil through ZS (scenes_depth.cpp).
      {"ds_bunny", [](uint32_t s) { return scene_ds_bunny("ds_bunny", s, 4000, 1); }, "the bunny (~4,000 tris) with a depth buffer, culling off: back faces hidden by the depth test"},
      {"ds_bunny_4x", [](uint32_t s) { return scene_ds_bunny("ds_bunny_4x", s, 4000, 4); }, "the same at 4x MSAA"},
      {"ds_interpenetrate", [](uint32_t s) { return scene_ds_interpenetrate(s, 1); }, "a sphere through a torus, depth LESS_EQUAL"},
      {"ds_interpenetrate_4x", [](uint32_t s) { return scene_ds_interpenetrate(s, 4); }, "the same at 4x MSAA"},
      // Hierarchical Z (scenes_depth.cpp): a near wall, then 3,000 triangles behind it.
      {"ds_occlusion", [](uint32_t s) { return scene_ds_occlusion("ds_occlusion", s, 1, true, false); }, "Hi-Z occlusion: a near wall over 7/8 of the target, then 3,000 triangles behind it (LESS)"},
      {"ds_occlusion_nohiz", [](uint32_t s) { return scene_ds_occlusion("ds_occlusion_nohiz", s, 1, false, false); }, "the same with FE_DEPTH.DEPTH_HIZ off (cycles with Hi-Z off)"},
      {"ds_occlusion_4x", [](uint32_t s) { return scene_ds_occlusion("ds_occlusion_4x", s, 4, true, false); }, "the same at 4x MSAA"},
      {"ds_hiz_random", [](uint32_t s) { return scene_ds_hiz_random("ds_hiz_random", s, true); }, "random depth work (both Hi-Z directions, clears of rectangles, stencil, late Z; 1x or 4x by seed) with Hi-Z on"},
      {"ds_occlusion_greater", [](uint32_t s) { return scene_ds_occlusion("ds_occlusion_greater", s, 1, true, true); }, "the same in reversed Z: depth cleared to 0, GREATER_EQUAL / GREATER (the other Hi-Z direction)"},
      // output merger (scenes_om.cpp)
      {"om_particles", scene_om_particles, "1,200 overlapping translucent triangles back to front: over, additive, blend constant with REV_SUBTRACT/MAX, a write mask, then opaque"},
      {"om_additive", scene_om_additive, "light accumulation: 48 large overlapping triangles added ONE/ONE on a cleared dark target, 128x128"},
      {"om_factors", scene_om_factors, "the blend test card: every op x source x destination factor (845 blend states, 4x4 cells) over stripes, a blend constant"},
      {"om_writemask", scene_om_writemask, "every render-target write mask, without and with blending"},
      {"om_srgb", scene_om_srgb, "translucent bars and additive splats on an R8G8B8A8_UNORM_SRGB target (blended in linear space), a colour clear"},
      {"om_srgb_unorm", scene_om_srgb_unorm, "the same on an R8G8B8A8_UNORM target (blended on the stored codes), to compare"},
      {"om_b5g6r5", scene_om_b5g6r5, "a B5G6R5 target of odd width: colour clear, plain, blended and green-only masked triangles (2-byte pixels)"},
      {"om_bgra8", scene_om_bgra8, "a B8G8R8A8 target: colour clear and blended triangles"},
      {"om_logic_ops", scene_om_logic_ops, "the logic-op test card: every D3D11.1 LogicOp (a rectangle and a triangle per cell) over stripes, some with a write mask, 96x64"},
      {"om_transparent_bunny", scene_om_transparent_bunny, "transparent objects over the depth-tested bunny: opaque bunny, then panes and a sphere blended back to front with depth test on, writes off, 128x128"},
      // attribute interpolation (scenes_interp.cpp): Gouraud shading through INTERP
      {"interp_gouraud", [](uint32_t s) { return scene_interp_gouraud(s, 1); }, "a sphere and a near-clipped torus with a colour per vertex, Gouraud, perspective, depth, 160x160"},
      {"interp_gouraud_4x", [](uint32_t s) { return scene_interp_gouraud(s, 4); }, "the same at 4x MSAA (every sample of a pixel gets its centre's colour)"},
      {"interp_flat_vs_gouraud", scene_interp_flat_vs_gouraud, "the same sphere flat (left) and Gouraud (right), then a translucent Gouraud band blended over both"},
      {"om_resolve_4x", scene_om_resolve_4x, "MSAA resolve in hardware: a 4x sRGB target of odd size (opaque and translucent triangles) resolved into a 1x target by OP_RESOLVE (resolve_subresource)"},
      {"om_alpha_to_coverage", scene_om_alpha_to_coverage, "alpha to coverage at 4x MSAA with depth (late Z): Gouraud alpha ramps 0..255 and leaves of random alpha, an opaque band behind them showing through the dropped samples, resolved by OP_RESOLVE"},
      // textured scenes (scenes_tex.cpp): TEX with its L1 and the combiner
      {"tex_crate", [](uint32_t s) { return scene_tex_crate(s, 1); }, "two crate cubes (crate-base.png, 512x512 RGBA8 with host mips), trilinear, MODULATE with per-vertex light, depth, 128x128"},
      {"tex_crate_4x", [](uint32_t s) { return scene_tex_crate(s, 4); }, "the same at 4x MSAA"},
      {"tex_floor_point", [](uint32_t s) { return scene_tex_floor("tex_floor_point", s, 0x00); }, "a checker floor to the horizon (64x64, host mips), MIN_MAG_MIP_POINT, 160x80"},
      {"tex_floor_bilinear", [](uint32_t s) { return scene_tex_floor("tex_floor_bilinear", s, 0x14); }, "the same floor, MIN_MAG_LINEAR_MIP_POINT"},
      {"tex_floor_trilinear", [](uint32_t s) { return scene_tex_floor("tex_floor_trilinear", s, 0x15); }, "the same floor, MIN_MAG_MIP_LINEAR"},
      {"tex_address_modes", scene_tex_address_modes, "WRAP, MIRROR, CLAMP, BORDER, MIRROR_ONCE and mixed per-axis modes on quads with uv in [-1.5, 2.5], point and bilinear, 160x160"},
      {"tex_bc", scene_tex_bc, "BC1 (the crate; a hand-made texture with 3-colour + transparent blocks, blended), BC3 (alpha disc, blended), a BC1 ramp magnified, 160x80"},
      {"tex_srgb", scene_tex_srgb, "one picture as RGBA8_SRGB, RGBA8, BGRA8 and B5G6R5 textures, minified (trilinear) and magnified, on an sRGB target, 160x84"},
      {"tex_lod", scene_tex_lod, "a 7-level texture with a colour per level: LOD bias 0, +2, -1, MIN_LOD 3, MAX_LOD 0.5, 160x40"},
      {"tex_combine", scene_tex_combine, "combiner stage 0: MODULATE, REPLACE, ADD, DECAL of an RGBA8 texture with alpha over a Gouraud quad, and DISABLE, 160x64"},
      {"tex_foliage", scene_tex_foliage, "alpha-tested plants (leaf texture, GREATER_EQUAL 128, late Z with depth writes) drawn near to far on a ground quad, then an opaque BC1 crate, 128x128"},
      {"tex_lightmap", scene_tex_lightmap, "both combiner stages: a floor and a wall of tiled textures (slot 0, uv0, trilinear) x baked lightmaps (slot 1, uv1, bilinear), a lit poster, a sign with an added glow (REPLACE, ADD), a cube and a tile with stage 1 off, depth, 128x96"},
      // glmark2-like scenes: glmark2-data models loaded with assimp, lit per vertex on the host, drawn
      // as build/pineda render draws them (depth buffer, hardware texturing).
      {"gl_cube", [](uint32_t s) { return scene_glmark2("gl_cube", "cube.3ds", "crate-base.png", 256, 30, 25, {0, 0, 0}, s); }, "glmark2's cube.3ds with the crate texture (host mips, trilinear, MODULATE), depth, 256x256"},
      {"gl_horse", [](uint32_t s) { return scene_glmark2("gl_horse", "horse.3ds", "", 256, 60, 15, {0, 0, 0}, s); }, "glmark2's horse.3ds (7,172 tris), depth, 256x256"},
  };
}

std::vector<SceneInfo> optin_scene_registry() {
  return {
      {"fe_bunny_full", [](uint32_t s) { return scene_fe_bunny("fe_bunny_full", s, 0, false); }, "the whole glmark2 bunny (69,666 tris), file order"},
      {"fe_bunny_full_opt", [](uint32_t s) { return scene_fe_bunny("fe_bunny_full_opt", s, 0, true); }, "the whole bunny after meshopt_optimizeVertexCache"},
      {"gl_cat", [](uint32_t s) { return scene_glmark2("gl_cat", "cat.3ds", "", 256, 150, 15, {-90, 0, 0}, s); }, "glmark2's cat.3ds (14,348 tris), 256x256"},
      // The whole bunny with depth, and two depth/stencil test cards smaller than the 256x256 the
      // default scenes keep to (scenes_depth.cpp); all pass through RTL and model.
      {"ds_stencil", scene_ds_stencil, "a stencil mask written by one draw and used by the next two, a depth ramp through it"},
      {"ds_funcs", scene_ds_funcs, "test card: the 8 depth functions, the 8 stencil ops as pass/fail/depth-fail ops of front and back faces, checked by stencil EQUAL (green) / NOT_EQUAL (red)"},
      {"ds_bunny_full", [](uint32_t s) { return scene_ds_bunny("ds_bunny_full", s, 0, 1); }, "the whole bunny (69,666 tris) with depth, culling off"},
      {"gl_bunny", [](uint32_t s) { return scene_glmark2("gl_bunny", "bunny.obj", "", 256, 200, 15, {0, 0, 0}, s); }, "glmark2's bunny.obj through assimp (69,666 tris), 256x256"},
      // TEX and COMB in the pipeline (scenes_texpipe.cpp, helper texpipe)
      {"tex_pipe_cube", scene_tex_pipe_cube, "TEX + COMB: trilinear checker floor (mips), bilinear MIRROR cube MODULATE, BC1 DECAL panel, alpha-tested fence, depth, 128x128"},
  };
}

std::optional<SceneInfo> find_scene(const std::string& name) {
  for (SceneInfo& s : scene_registry()) {
    if (s.name == name) return s;
  }
  for (SceneInfo& s : optin_scene_registry()) {
    if (s.name == name) return s;
  }
  return std::nullopt;
}

SceneImage build_scene(const std::string& name, uint32_t seed) {
  const auto s = find_scene(name);
  if (!s) throw std::invalid_argument("unknown scene: " + name);
  return s->build(seed);
}

}  // namespace pineda
