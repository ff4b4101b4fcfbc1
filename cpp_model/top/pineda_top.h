// SPDX-License-Identifier: Apache-2.0
// The full golden model: CP -> IA -> SETUP -> COARSE -> HIZ -> FINE -> ZS -> INTERP -> TEX -> COMB -> PW
// -> Memory, and the geometry
// front end CP -> INDEX FETCH -> VERTEX TAGS -> {VERTEX FETCH -> VTX, triangles} -> PA -> SETUP
// for DRAW_FE draws (and the front-end state writes of SET_STATE).
// Each draw runs to completion before the CP decodes the next dword. An end-of-pipe WRITE_REG's
// token goes through every unit like a draw and completes (the fence is written) as it leaves
// the pixel writer, so the model never has one in flight. The packets of every boundary can be
// recorded in a Trace (one stream per boundary of contracts/defs.py) for comparison with the RTL's taps.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cp/cp.h"
#include "dma/dma.h"
#include "ia/ia.h"
#include "mem/memory.h"
#include "om/pixel_writer.h"
#include "pineda_boundaries.h"
#include "pineda_contract.h"
#include "rast/raster_array.h"
#include "interp/interp.h"
#include "setup/iplane.h"
#include "setup/setup.h"
#include "top/front_end.h"
#include "top/pixel_stage.h"
#include "top/trace.h"
#include "zs/zs.h"

namespace pineda::model {


struct Stats {
  uint64_t draws = 0;
  uint64_t eop_tokens = 0;             // end-of-pipe WRITE_REG tokens sent down the pipe
  uint64_t triangles_in = 0;           // TriPkts from IA
  uint64_t triangles_culled_area = 0;  // area2 == 0
  uint64_t triangles_culled_empty = 0; // empty pixel rectangle after clip
  uint64_t triangles_setup = 0;        // SetupPkts emitted
  uint64_t tiles_visited = 0;          // coarse tile decisions (clocks of the walk)
  uint64_t tiles_in_bbox = 0;          // tiles of the setup rectangles (what a box walk visits)
  uint64_t tiles_emitted = 0;          // TilePkts
  uint64_t tiles_accepted = 0;         // TilePkts with every edge inside (trivially accepted)
  uint64_t tiles_covered = 0;          // tiles whose coverage is not empty
  uint64_t quads = 0;                  // QuadPkts
  uint64_t pixels_written = 0;         // pixel writes into PW's colour cache (samples at 4x MSAA)
  uint64_t pw_lines = 0;               // line requests from PW's colour cache: writes and fill reads (the pw_mem boundary)
  uint64_t pw_fills = 0;               // of which fill reads (blended or write-masked quads)
  uint64_t pw_rmw_quads = 0;           // quads that blend or mask channels (read the destination)
  uint64_t zs_samples_tested = 0;      // samples ZS tested (depth or stencil on)
  uint64_t zs_samples_passed = 0;      // of which passed
  uint64_t zs_quads_dropped = 0;       // quads ZS dropped (no sample left)
  uint64_t hiz_tested = 0;             // raster tiles tested by hierarchical Z (every rasterizer)
  uint64_t hiz_rejected = 0;           // ... rejected (never reach FINE)
  // Tiles that reached FINE with depth on and covered samples, all of which failed at ZS
  // (occluded tiles Hi-Z did not cull: hiz_rejected / (hiz_rejected + this) is the fraction culled).
  uint64_t tiles_occluded_passed = 0;
  // Several rasterizers (set_num_rast): per rasterizer, tile decisions (tokens included) and
  // tiles emitted.
  std::array<uint64_t, 4> rast_decisions{};
  std::array<uint64_t, 4> rast_tiles{};
  uint64_t dwords_decoded = 0;         // ring and IB dwords decoded by the CP
  uint64_t copies = 0;                 // COPY commands executed by the DMA
  uint64_t bytes_copied = 0;
  uint64_t clears = 0;                 // CLEAR commands executed (DMA fill or ZS fast clear)
  uint64_t bytes_filled = 0;           // bytes written by the DMA fill
  uint64_t resolves = 0;               // RESOLVE commands executed (docs/om.md section 7)
  uint64_t resolve_src_bytes = 0;      // bytes of 4x samples resolved
  uint64_t resolve_lines = 0;          // line writes of the resolve engine
  // Geometry front end (DRAW_FE).
  uint64_t fe_draws = 0;
  uint64_t fe_state_writes = 0;
  uint64_t indices = 0;                // index positions out of index fetch
  uint64_t index_oob = 0;              // positions outside the index buffer (read as 0)
  uint64_t vc_references = 0;          // vertex references of assembled triangles
  uint64_t vc_hits = 0;                // ... found in the batch's tags
  uint64_t vc_vertices = 0;            // vertices fetched and transformed (misses)
  uint64_t vc_triangles = 0;           // triangles assembled
  uint64_t vc_batches = 0;
  uint64_t vf_dwords = 0;              // vertex attribute dwords read
  uint64_t pa_prims = 0, pa_tris_out = 0, pa_clipped = 0, pa_rejected = 0, pa_nan = 0;
  uint64_t pa_culled_face = 0, pa_culled_area = 0, pa_culled_empty = 0;
  // The pixel stage (TEX, COMB; docs/comb.md section 5).
  uint64_t tex_quads = 0;          // passes through TEX (a quad once per stage with a texture)
  uint64_t tex_samples = 0;        // live pixels of those quads
  uint64_t tex_faults = 0;         // of which quads faulted (docs/tex.md section 6)
  uint64_t tex_taps = 0;           // texel taps of the model (point 1, bilinear 4, per level)
  uint64_t comb_killed_pixels = 0; // pixels killed by the alpha test
  uint64_t comb_dropped_quads = 0; // quads left empty by the alpha test (never reach PW)
  double acmr() const { return vc_triangles ? double(vc_vertices) / double(vc_triangles) : 0.0; }
  double hit_rate() const { return vc_references ? double(vc_hits) / double(vc_references) : 0.0; }
  uint64_t triangles_culled() const { return triangles_culled_area + triangles_culled_empty; }
};

enum class RunResult { RING_EMPTY, HALTED, ERROR, DISABLED, BUDGET, WAITING };

// Host register writes applied when the CP is blocked on a WAIT_REG (the k-th time it blocks
// gets actions[k]); the RTL harnesses apply the same writes when STATUS.WAITING is set.
struct HostAction {
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // (register index, value)
  uint32_t delay = 0;  // RTL only: cycles to wait after STATUS.WAITING is seen
};

// Thrown out of run() when the abort check (PinedaTop::set_abort_check) says stop: the draw in flight
// is abandoned half done and the PinedaTop must not be used again (a host's watchdog gave up on it).
struct GpuAborted : std::runtime_error {
  GpuAborted() : std::runtime_error("model::PinedaTop: aborted by the host's abort check") {}
};

class PinedaTop {
 public:
  explicit PinedaTop(Memory& mem);
  void reset();  // registers, counters, ids, statistics and trace back to reset; memory untouched
  // Rasterizers (1, 2 or 4; numerics section 4.3): each triangle's tiles are walked per
  // rasterizer, so coarse_tile holds, per triangle, rasterizer 0's tiles, then 1's, ...: every
  // rasterizer's own stream is the trace filtered by CoarseRaster::owner (tokens go to all).
  void set_num_rast(uint32_t n) { rast_.set_num_rast(n); }
  uint32_t num_rast() const { return rast_.num_rast(); }

  void reg_write(uint32_t idx, uint32_t value) { cp_.reg_write(idx, value); }
  uint32_t reg_read(uint32_t idx) const { return cp_.reg_read(idx); }
  bool irq() const { return cp_.irq(); }

  // Decodes the ring until it is empty (RPTR == WPTR), the CP halts (END), an error stops it,
  // or ENABLE is clear; every draw goes through the whole pipeline and its writes are applied.
  // max_dwords bounds the number of ring dwords decoded (RunResult::BUDGET when reached).
  // RunResult::WAITING: blocked on a WAIT_REG that only a host register write can release.
  // COPY commands run on the DMA model as they are decoded.
  RunResult run(uint64_t max_dwords = ~uint64_t{0});
  // run(), and each time the CP blocks on a wait, applies the next host action; with no action
  // left a blocked wait runs into the watchdog (ERR_WAIT_TIMEOUT) when WATCHDOG != 0, else
  // WAITING is returned.
  RunResult run_with_host(const std::vector<HostAction>& actions, uint64_t max_dwords = ~uint64_t{0});
  // Pushes one draw packet (or end-of-pipe token) from IA onwards (as if the CP had emitted it);
  // recorded in cp_draw.
  void process_draw(const DrawPkt& draw);
  // Pushes one front-end packet (DRAW_FE draw, state write or token) from index fetch onwards;
  // recorded in cp_idraw.
  void process_fe(const IDrawPkt& p);

  // Writes back the pixel writer's colour cache (recorded in pw_mem): what the hardware does
  // before a COPY, when the CP stops (END or an error: the end of a frame, before the host reads
  // memory) and at an end-of-pipe token. Memory itself always holds every pixel write (the model
  // applies them at once), so this only adds the line writes to the trace.
  void flush_pixels();

  void set_trace_enabled(bool on) { trace_on_ = on; }
  // Called every ABORT_POLL_WORK units of work (work()): true throws GpuAborted out of run(). A
  // single draw is otherwise one indivisible step of run(), however many vertices it has
  // (draw_instanced(3, 2^32 - 1) takes hours), and a ring that jumps to itself never empties.
  void set_abort_check(std::function<bool()> f) { abort_check_ = std::move(f); }
  // Work done since construction or reset(), in units of what the model's time goes into: one per
  // ring dword decoded (at least one per command), front-end index, triangle into SETUP, coarse
  // tile, fine quad, and 64-byte line of a COPY, fill or resolve. A budget on it bounds a run
  // deterministically (sim/scene_capture.h ModelBudget).
  uint64_t work() const { return work_; }
  static constexpr uint64_t ABORT_POLL_WORK = 4096;
  bool trace_enabled() const { return trace_on_; }
  const Trace& trace() const { return trace_; }
  Trace take_trace();  // moves the trace out and clears it

  const Stats& stats() const { return stats_; }
  const std::vector<FenceWrite>& fence_writes() const { return cp_.fence_writes(); }
  const CommandProcessor& cp() const { return cp_; }
  const PrimitiveAssembly& pa() const { return fe_.pa(); }
  Memory& memory() { return mem_; }

 private:
  Memory& mem_;
  CommandProcessor cp_;
  InputAssembler ia_;
  Setup setup_;
  // COARSE -> HIZ -> FINE, one chain per rasterizer (rtl/rast/raster_array.sv).
  RasterArray rast_;
  PixelWriter pw_;
  Zs zs_;
  Interp interp_;
  // TEX and COMB (rtl/top/pixel_stage.sv).
  PixelStage ps_;
  // INTERP's quad -> the pixel stage -> ZS's late port -> PW; recorded in comb_quad.
  void pixel_stage(const InterpPkt& ip);
  // The geometry front end of DRAW_FE draws (rtl/top/front_end.sv).
  FrontEnd fe_;
  void process_tri(const TriPkt& tri);  // SETUP onwards
  void update_stats();
  Dma dma_;
  bool trace_on_ = true;
  std::function<bool()> abort_check_;
  uint64_t work_ = 0;
  // Counts `units` of work; the abort check runs each time the count crosses a multiple of
  // ABORT_POLL_WORK.
  void charge(uint64_t units = 1) {
    const uint64_t before = work_;
    work_ += units;
    if (abort_check_ && before / ABORT_POLL_WORK != work_ / ABORT_POLL_WORK && abort_check_()) throw GpuAborted();
  }
  Trace trace_;
  Stats stats_;
};

}  // namespace pineda::model
