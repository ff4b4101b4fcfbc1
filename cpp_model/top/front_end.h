// SPDX-License-Identifier: Apache-2.0
// The geometry front end, twin of rtl/top/front_end.sv: the CP's idraw packets (DRAW_FE draws,
// front-end state writes, end-of-pipe tokens) -> INDEX FETCH -> VERTEX TAGS -> {VERTEX FETCH ->
// VTX for the batch's new vertices; triangles} -> PA -> pa_tri packets (docs/frontend.md).
// The model runs one packet to completion: every vertex a triangle names has been fetched and
// transformed before VERTEX TAGS emits the triangle, as the RTL's batch order guarantees.
#pragma once

#include <functional>

#include "ia/index_fetch.h"
#include "ia/vertex_fetch.h"
#include "ia/vertex_tags.h"
#include "mem/memory.h"
#include "pa/pa.h"
#include "pineda_contract.h"
#include "top/trace.h"
#include "vtx/vtx.h"

namespace pineda::model {

class FrontEnd {
 public:
  void reset();
  // One idraw packet: its pa_tri packets go to on_tri in order. The inner boundaries (if_index,
  // vt_vertex, vt_prim, vf_vtx, vtx_clip, pa_tri) are recorded in *trace unless it is null;
  // on_index is called once per index position (the PinedaTop's work count).
  void process(const IDrawPkt& p, const Memory& mem, Trace* trace, const std::function<void()>& on_index,
               const std::function<void(const PaTriPkt&)>& on_tri);

  const IndexFetch& index_fetch() const { return if_; }
  const VertexTags& vertex_tags() const { return vt_; }
  const VertexFetch& vertex_fetch() const { return vf_; }
  const PrimitiveAssembly& pa() const { return pa_; }

 private:
  IndexFetch if_;
  VertexTags vt_;
  VertexFetch vf_;
  VertexTransform vtx_;
  PrimitiveAssembly pa_;
};

}  // namespace pineda::model
