// SPDX-License-Identifier: Apache-2.0
// The rasterizers, twin of rtl/rast/raster_array.sv (with rast_dist.sv and quad_merge.sv): 1, 2
// or 4 rasterizers, each a COARSE -> HIZ -> FINE chain that owns an interleaved set of 8x8 raster
// tiles (docs/numerics.md section 4.3). A SETUP packet goes to every rasterizer; an end-of-pipe
// token is forwarded once (the RTL merges the rasterizers' copies behind the pipeline).
// The model has no time: it walks rasterizer 0's tiles of a triangle, then 1's, ..., so the
// coarse_tile trace holds them in that order and each rasterizer's own stream is the trace
// filtered by CoarseRaster::owner (what the RTL harness compares per rasterizer). The RTL's
// quad merge interleaves the rasterizers' quads; the order of quads on the same pixels is the
// same in both (a pixel belongs to one rasterizer).
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "hiz/hiz.h"
#include "pineda_contract.h"
#include "rast/coarse_raster.h"
#include "rast/fine_raster.h"
#include "top/trace.h"

namespace pineda::model {

class RasterArray {
 public:
  // Called for each quad (and end-of-pipe token) FINE emits; returns whether it survived the
  // units behind (ZS's early test), for the occluded-tile statistic.
  using QuadSink = std::function<bool(const QuadPkt&)>;

  void reset();
  // 1, 2 or 4 rasterizers (numerics section 4.3).
  void set_num_rast(uint32_t n) { num_rast_ = n; }
  uint32_t num_rast() const { return num_rast_; }

  // One SETUP packet: its tiles (coarse_tile) and quads (fine_quad) are recorded in *trace
  // unless it is null; on_work is called once per tile and once per quad (PinedaTop::work()).
  void process(const SetupPkt& s, Trace* trace, const std::function<void()>& on_work, const QuadSink& on_quad);

  // The CP's HIZ port: a depth clear resets every rasterizer's Hi-Z; a forget (a DMA write into
  // the buffer) disables them until the next depth clear.
  void hiz_clear(const ClearPkt& c);
  void hiz_forget();

  const CoarseRaster& coarse() const { return coarse_; }
  const FineRaster& fine() const { return fine_; }
  const Hiz& hiz(uint32_t r) const { return hiz_[r]; }
  // Per rasterizer: tile decisions (tokens included) and tiles emitted.
  uint64_t decisions(uint32_t r) const { return decisions_[r]; }
  uint64_t tiles(uint32_t r) const { return tiles_[r]; }
  // Tiles that reached FINE with depth on and covered samples, none of which survived ZS
  // (occluded tiles Hi-Z did not cull).
  uint64_t tiles_occluded_passed() const { return occluded_passed_; }

 private:
  uint32_t num_rast_ = 1;
  CoarseRaster coarse_;
  FineRaster fine_;
  std::array<Hiz, 4> hiz_;
  std::array<uint64_t, 4> decisions_{}, tiles_{};
  uint64_t occluded_passed_ = 0;
};

}  // namespace pineda::model
