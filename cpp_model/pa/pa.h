// SPDX-License-Identifier: Apache-2.0
// Primitive assembly, clipping, projection, viewport, snap and culling (rtl/pa/pa.sv;
// docs/frontend.md section 6, docs/numerics.md section 8). Used by model::PinedaTop's front end.
//
// Two input streams: the clip-space vertices of VTX (ClipVtxPkt, a batch's vertices in slot
// order, vtx_id[5] = first of the batch) and the triangle stream of vertex tags (PrimPkt: slots,
// last of batch, end-of-pipe tokens, front-end state writes). Output: PaTriPkt for SETUP.
//
// The model projects a triangle's vertices per triangle, with the state current at that
// triangle. The RTL projects each vertex of a batch once, into a per-slot cache, and uses it for
// the unclipped triangles: the same bits, since an unclipped triangle's vertices are the input
// vertices unchanged and the projection depends only on the vertex and the viewport registers
// (the RTL empties its cache when a write changes one of those; tests/model/test_pa.cpp checks
// that a shared vertex projects the same in every triangle).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "pineda_contract.h"

namespace pineda::model {

class PrimitiveAssembly {
 public:
  // Clip planes, in the order they are clipped against (numerics section 8.2).
  enum Plane { PL_W = 0, PL_NEAR, PL_FAR, PL_LEFT, PL_RIGHT, PL_BOTTOM, PL_TOP, NUM_PLANES };
  // A clipper vertex: FP32 x, y, z, w, tex0.u, tex0.v, tex1.u, tex1.v and the RGBA8 colour.
  enum { A_X = 0, A_Y, A_Z, A_W, A_U0, A_V0, A_U1, A_V1, NUM_FATTR };
  struct CV {
    std::array<uint32_t, NUM_FATTR> a{};
    uint32_t color = 0;
    bool operator==(const CV& o) const { return a == o.a && color == o.color; }
  };
  struct Stats {
    uint64_t prims = 0, tris_out = 0, tokens = 0, state_writes = 0;
    uint64_t nan = 0, rejected = 0, clipped = 0, clipped_away = 0;
    uint64_t culled_area = 0, culled_face = 0, culled_empty = 0;
    uint64_t new_vertices = 0;
  };

  PrimitiveAssembly() { reset(); }
  void reset();

  // Vertex stream: appended to the batch being loaded; vtx_id[5] (first) starts a new batch
  // (tokens on this stream are dropped).
  void push_vertex(const ClipVtxPkt& v);
  // A triangle needs its three slots loaded; tokens and state writes never wait.
  bool can_process(const PrimPkt& p) const;
  // One packet of the triangle stream, in order; appends its output packets.
  void process(const PrimPkt& p, std::vector<PaTriPkt>& out);

  // The pieces, for tests.
  static CV from_clip_vtx(const ClipVtxPkt& v);
  static uint32_t dbl(uint32_t w);  // fp32 mul(w, 2.0)
  static uint32_t dist(int plane, const CV& v);
  static bool inside(uint32_t d);  // not NaN and >= 0 (-0 inside)
  static uint32_t clip_code(const CV& v, bool depth_clip);
  static CV intersect(const CV& in, const CV& out, int plane);
  // Clip a polygon against the planes in `planes` (bit p = plane p), in plane order.
  static std::vector<CV> clip_polygon(std::vector<CV> poly, uint32_t planes);

  Rect clip_rect() const;
  // The depth-stencil state the next triangle is stamped with (FE_DS_*, FE_DEPTH, FE_STENCIL*).
  DsState ds_state() const;
  OmState om_state() const;  // FE_BLEND, FE_BLEND_FACTOR, FE_LOGIC_OP, FE_RT_PITCH.RT_FMT, FE_SHADE, FE_TEX0, FE_SAMP0, FE_TEX1, FE_SAMP1, FE_COMBINE
  const Stats& stats() const { return stats_; }

 private:
  PaRegs st_;  // PA's copy of the front-end state (generated: contracts/defs.py REG_FILES)
  std::deque<std::vector<CV>> batches_;  // batches, oldest first (the newest may be loading)
  uint32_t tri_id_ = 0;
  Stats stats_;
};

// The merge in front of SETUP (rtl/top/pineda_top.sv): PA's triangle as a tri_pkt_t, with each
// vertex's z in `z` and its 1/w, colour, tex0, tex1 in `a` (vattr_t).
TriPkt pa_to_tri(const PaTriPkt& t);

// Runs both streams through a fresh unit, the vertex stream ahead (as PA's double buffer allows).
std::vector<PaTriPkt> run_pa(const std::vector<ClipVtxPkt>& vtx, const std::vector<PrimPkt>& prims,
                             PrimitiveAssembly* pa = nullptr);

}  // namespace pineda::model
