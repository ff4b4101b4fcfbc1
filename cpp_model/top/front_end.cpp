// SPDX-License-Identifier: Apache-2.0
#include "top/front_end.h"

#include <vector>

namespace pineda::model {

void FrontEnd::reset() {
  if_.reset_counters();
  vt_.reset();
  vf_.reset();
  vtx_.reset();
  pa_.reset();
}

void FrontEnd::process(const IDrawPkt& p, const Memory& mem, Trace* trace, const std::function<void()>& on_index,
                       const std::function<void(const PaTriPkt&)>& on_tri) {
  const auto on_vtx_in = [this, trace](const VtxInPkt& vi) {
    if (trace) trace->vf_vtx.push_back(vi);
    if (const auto c = vtx_.process(vi)) {
      if (trace) trace->vtx_clip.push_back(*c);
      pa_.push_vertex(*c);
    }
  };
  const auto on_vertex = [this, trace, &mem, &on_vtx_in](const VFetchPkt& v) {
    if (trace) trace->vt_vertex.push_back(v);
    vf_.process(v, mem, on_vtx_in);
  };
  const auto on_prim = [this, trace, &on_tri](const PrimPkt& pr) {
    if (trace) trace->vt_prim.push_back(pr);
    std::vector<PaTriPkt> out;
    pa_.process(pr, out);
    for (const PaTriPkt& t : out) {
      if (trace) trace->pa_tri.push_back(t);
      on_tri(t);
    }
  };
  if_.process(p, mem, [&](const IndexPkt& ix) {
    on_index();
    if (trace) trace->if_index.push_back(ix);
    vt_.process(ix, on_vertex, on_prim);
  });
}

}  // namespace pineda::model
