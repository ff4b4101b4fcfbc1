// SPDX-License-Identifier: Apache-2.0
#include "top/pineda_top.h"

#include "dma/resolve.h"

#include <algorithm>
#include <utility>

namespace pineda::model {

PinedaTop::PinedaTop(Memory& mem) : mem_(mem), cp_(mem) {
  cp_.set_zs_fast_clear(true);  // pineda_top's zs_fast_clear = 1
}

void PinedaTop::reset() {
  work_ = 0;
  cp_.reset();
  ia_.reset();
  setup_.reset_counters();
  rast_.reset();
  pw_.reset_counters();
  zs_ = Zs{};
  interp_.reset_counters();
  ps_.reset();
  dma_.reset_counters();
  fe_.reset();
  trace_.clear();
  stats_ = Stats{};
}

Trace PinedaTop::take_trace() {
  Trace t = std::move(trace_);
  trace_.clear();
  return t;
}

void PinedaTop::process_draw(const DrawPkt& draw_in) {
  const DrawPkt draw = draw_in.canonical();
  if (draw.eop) {
    ++stats_.eop_tokens;
  } else {
    ++stats_.draws;
  }
  if (trace_on_) trace_.cp_draw.push_back(draw);
  ia_.process(draw, mem_, [this](const TriPkt& tri) {
    if (trace_on_) trace_.ia_tri.push_back(tri);
    process_tri(tri);
  });
  update_stats();
}

void PinedaTop::process_fe(const IDrawPkt& p_in) {
  const IDrawPkt p = p_in.canonical();
  if (p.eop) {
    ++stats_.eop_tokens;
  } else if (p.wr) {
    ++stats_.fe_state_writes;
  } else {
    ++stats_.draws;
    ++stats_.fe_draws;
  }
  if (trace_on_) trace_.cp_idraw.push_back(p);
  fe_.process(p, mem_, trace_on_ ? &trace_ : nullptr, [this] { charge(); },
              [this](const PaTriPkt& t) { process_tri(pa_to_tri(t)); });  // the merge in front of SETUP
  update_stats();
}

void PinedaTop::process_tri(const TriPkt& tri) {
  charge();
  if (!tri.eop) ++stats_.triangles_in;
  const auto s = setup_.process(tri);
  if (!s) return;
  if (!s->eop) ++stats_.triangles_setup;
  if (trace_on_) trace_.setup_tri.push_back(*s);
  rast_.process(*s, trace_on_ ? &trace_ : nullptr, [this] { charge(); }, [this](const QuadPkt& quad) {
    // ZS's early port: the depth and stencil tests of early-Z quads; depth-stencil memory is
    // updated at once (its cache's lines are not a boundary). A quad with no sample left is
    // dropped. Late-Z quads (ds.late_z, set by PA for alpha-tested draws) pass untested: ZS's
    // late port tests them after COMB (pixel_stage). The model runs one quad at a time, so the
    // RTL's order rule (early-Z quads wait while late ones are in flight) is this order.
    const auto zq = zs_.early(quad, mem_);
    if (!zq) return false;
    if (trace_on_) trace_.zs_quad.push_back(*zq);
    // Memory gets every pixel write at once; the colour cache's line requests (evictions,
    // fills of blended quads, the flush of an end-of-pipe token) are the pw_mem boundary. The
    // cache goes first: its fills read memory as it is before the quad.
    // INTERP: per-pixel colour and texture coordinates at the pixel centres (tokens pass).
    const InterpPkt ip = interp_.process(*zq);
    if (trace_on_) trace_.interp_quad.push_back(ip);
    pixel_stage(ip);
    return true;
  });
}

void PinedaTop::pixel_stage(const InterpPkt& ip) {
  // TEX and COMB; a quad left empty by the alpha test is dropped before PW. Alpha-tested draws
  // are late-Z (PA), so their killed pixels write no depth (below).
  const auto cq = ps_.process(ip, mem_, cp_);
  if (!cq) return;
  // ZS's late port: late-Z quads are tested without their killed pixels (which write no depth
  // or stencil); the rest pass. comb_quad is PW's input: the late port's output.
  const auto out = zs_.late(*cq, mem_);
  if (!out) return;
  if (trace_on_) trace_.comb_quad.push_back(*out);
  const QuadPkt& oq = out->quad;
  PixColors pcolor{};
  for (size_t p = 0; p < 4; ++p) pcolor[p] = static_cast<uint32_t>(out->pcolor[p].data);
  pw_.process(
      oq, [this](const MemLineReq& line) { if (trace_on_) trace_.pw_mem.push_back(line); },
      [this](uint32_t a) { return mem_.read32(a); }, &pcolor);
  PixelWriter::apply_quad(oq, mem_, &pcolor);
  // The token leaves the pixel writer once every earlier write is done (here: applied).
  if (oq.eop) cp_.eop_complete();
}

void PinedaTop::update_stats() {
  stats_.triangles_culled_area = setup_.culled_zero_area();
  stats_.triangles_culled_empty = setup_.culled_empty();
  const CoarseRaster& coarse = rast_.coarse();
  stats_.tiles_visited = coarse.tiles_visited();
  stats_.tiles_in_bbox = coarse.tiles_in_bbox();
  stats_.tiles_emitted = coarse.tiles_emitted();
  stats_.tiles_accepted = coarse.tiles_accepted();
  stats_.tiles_covered = rast_.fine().tiles_covered();
  stats_.quads = rast_.fine().quads_emitted();
  stats_.pixels_written = pw_.pixels_written();
  stats_.pw_lines = pw_.lines_written() + pw_.fills();
  stats_.pw_fills = pw_.fills();
  stats_.pw_rmw_quads = pw_.rmw_quads();
  stats_.zs_samples_tested = zs_.samples_tested();
  stats_.zs_samples_passed = zs_.samples_passed();
  stats_.zs_quads_dropped = zs_.quads_in() - zs_.quads_out();
  stats_.hiz_tested = stats_.hiz_rejected = 0;
  for (uint32_t r = 0; r < 4; ++r) {
    stats_.hiz_tested += rast_.hiz(r).tested();
    stats_.hiz_rejected += rast_.hiz(r).rejected();
    stats_.rast_decisions[r] = rast_.decisions(r);
    stats_.rast_tiles[r] = rast_.tiles(r);
  }
  stats_.tiles_occluded_passed = rast_.tiles_occluded_passed();
  const IndexFetch& ifetch = fe_.index_fetch();
  const VertexTags& tags = fe_.vertex_tags();
  stats_.indices = ifetch.indices();
  stats_.index_oob = ifetch.out_of_bounds();
  stats_.vc_references = tags.references();
  stats_.vc_hits = tags.hits();
  stats_.vc_vertices = tags.vertices();
  stats_.vc_triangles = tags.triangles();
  stats_.vc_batches = tags.batches();
  stats_.vf_dwords = fe_.vertex_fetch().dwords_read();
  const auto& ps = fe_.pa().stats();
  stats_.pa_prims = ps.prims;
  stats_.pa_tris_out = ps.tris_out;
  stats_.pa_clipped = ps.clipped;
  stats_.pa_rejected = ps.rejected;
  stats_.pa_nan = ps.nan;
  stats_.pa_culled_face = ps.culled_face;
  stats_.pa_culled_area = ps.culled_area;
  stats_.pa_culled_empty = ps.culled_empty;
  const auto& ts = ps_.tex().stats();
  stats_.tex_quads = ts.quads;
  stats_.tex_samples = ts.samples;
  stats_.tex_faults = ts.faults;
  stats_.tex_taps = ts.taps;
  stats_.comb_killed_pixels = ps_.comb().killed_pixels();
  stats_.comb_dropped_quads = ps_.comb().dropped_quads();
}

void PinedaTop::flush_pixels() {
  pw_.flush([this](const MemLineReq& line) {
    if (trace_on_) trace_.pw_mem.push_back(line);
  });
  update_stats();
}

RunResult PinedaTop::run_with_host(const std::vector<HostAction>& actions, uint64_t max_dwords) {
  size_t next = 0;
  while (true) {
    const RunResult r = run(max_dwords);
    if (r != RunResult::WAITING) return r;
    if (next < actions.size()) {
      for (const auto& [idx, v] : actions[next++].writes) cp_.reg_write(idx, v);
      continue;
    }
    if (!cp_.expire_wait()) return r;  // no watchdog: blocked for good
  }
}

RunResult PinedaTop::run(uint64_t max_dwords) {
  uint64_t n = 0;
  while (cp_.can_decode()) {
    if (n == max_dwords) return RunResult::BUDGET;
    const uint64_t before = cp_.dwords_decoded();
    const auto draw = cp_.step();
    n += cp_.dwords_decoded() - before;
    charge(std::max<uint64_t>(1, cp_.dwords_decoded() - before));
    stats_.dwords_decoded = cp_.dwords_decoded();
    if (draw) process_draw(*draw);
    if (auto fe = cp_.take_fe()) process_fe(*fe);
    if (cp_.take_hiz_forget()) {
      // A COPY / colour clear / RESOLVE into the Hi-Z buffer: every HIZ forgets it first (the
      // RTL's hiz_clear_o with hiz_forget).
      rast_.hiz_forget();
    }
    if (auto c = cp_.take_copy()) {
      flush_pixels();       // the copy may read what earlier draws wrote
      charge(c->len / 64);  // its lines, counted before it runs
      dma_.copy(*c, mem_);  // every earlier draw has completed; nothing decodes until it is done
      ++stats_.copies;
      stats_.bytes_copied = dma_.bytes_copied();
    }
    if (auto c = cp_.take_clear()) {
      // Every depth clear resets the Hi-Z of every rasterizer first (the RTL's hiz_clear_*).
      if (c->depth) rast_.hiz_clear(*c);
      if (cp_.clear_to_zs(*c)) {
        // ZS's fast clear: once ZS is flushed (an end-of-pipe token, COPY, host flush), memory
        // holds what the DMA fill would have written.
        zs_.clear(*c, mem_);
      } else {
        // A DMA fill, like a COPY: PW is flushed first (pineda_top's pw_flush on fill_valid).
        // A fast clear goes to ZS alone: PW keeps its lines, as in the RTL.
        flush_pixels();
        dma_.fill(*c, mem_, [this] { charge(); });
      }
      ++stats_.clears;
      stats_.bytes_filled = dma_.bytes_filled();
    }
    if (auto r = cp_.take_resolve()) {
      // Like a COPY: every earlier draw has completed and PW is flushed first (pineda_top's
      // pw_flush on resolve_valid), then the engine's line writes (model::resolve_lines).
      flush_pixels();
      stats_.resolve_lines += resolve(*r, mem_, mem_, [this] { charge(); });
      ++stats_.resolves;
      stats_.resolve_src_bytes += uint64_t{r->rect.x1 - r->rect.x0} * (r->rect.y1 - r->rect.y0) *
                                  resolve_src_bpp(static_cast<uint32_t>(r->fmt));
    }
  }
  if (cp_.error()) {
    flush_pixels();  // the CP stopped: end of the frame
    return RunResult::ERROR;
  }
  if (cp_.blocked_on_wait()) return RunResult::WAITING;
  if (cp_.halted()) {
    flush_pixels();
    return RunResult::HALTED;
  }
  if (!cp_.enabled()) return RunResult::DISABLED;
  return RunResult::RING_EMPTY;
}

}  // namespace pineda::model
