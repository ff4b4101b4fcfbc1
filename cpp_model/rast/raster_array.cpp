// SPDX-License-Identifier: Apache-2.0
#include "rast/raster_array.h"

namespace pineda::model {

void RasterArray::reset() {
  coarse_.reset_counters();
  fine_.reset_counters();
  for (auto& h : hiz_) h.reset();
  decisions_ = {};
  tiles_ = {};
  occluded_passed_ = 0;
}

void RasterArray::hiz_clear(const ClearPkt& c) {
  for (auto& h : hiz_) h.clear(c);
}

void RasterArray::hiz_forget() {
  for (auto& h : hiz_) h.forget();
}

void RasterArray::process(const SetupPkt& s, Trace* trace, const std::function<void()>& on_work,
                          const QuadSink& on_quad) {
  uint32_t lane = 0;  // the rasterizer whose tiles are walked
  const auto on_tile = [&](const TilePkt& tile) {
    on_work();  // one triangle can cover 2^22 tiles
    if (trace) trace->coarse_tile.push_back(tile);
    // Hierarchical Z of the tile's rasterizer: a rejected tile never reaches FINE (tokens pass).
    if (!hiz_[lane].process(tile)) return;
    bool covered = false, visible = false;  // the tile has samples; one of them passed ZS
    fine_.process(tile, [&](const QuadPkt& quad) {
      on_work();  // a tile's quads are most of a large triangle's work
      if (trace) trace->fine_quad.push_back(quad);
      covered = covered || (!quad.eop && quad.mask != 0);
      const bool survived = on_quad(quad);
      visible = visible || (survived && !quad.eop);
    });
    if (!tile.eop && tile.ds.z_enable && covered && !visible) ++occluded_passed_;
  };
  if (s.eop) {  // one token for every rasterizer: forwarded once, merged behind the PW
    coarse_.process(s, on_tile);
    for (uint32_t r = 0; r < num_rast_; ++r) ++decisions_[r];
    return;
  }
  for (uint32_t r = 0; r < num_rast_; ++r) {
    lane = r;
    const uint64_t v0 = coarse_.tiles_visited(), e0 = coarse_.tiles_emitted();
    coarse_.process(s, CoarseRaster::lattice(num_rast_, r), on_tile);
    decisions_[r] += coarse_.tiles_visited() - v0;
    tiles_[r] += coarse_.tiles_emitted() - e0;
  }
}

}  // namespace pineda::model
