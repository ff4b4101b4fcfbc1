#include "top_harness.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <sstream>

#include "Vpineda_top.h"
#include "om/pixel_writer.h"
#include "rast/coarse_raster.h"
#include "vl_bits.h"

namespace pineda::tb {

namespace {
// splitmix64: a small, seedable generator for the throttles (one draw per boundary per cycle).
uint64_t next_rand(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

// With several rasterizers (PINEDA_NUM_RAST > 1, docs/verification.md "Several rasterizers")
// the coarse_tile boundary is one per rasterizer, each compared in order with the model's tiles
// of that rasterizer; the merged fine_quad stream is compared per owning rasterizer (each in
// order; an end-of-pipe token must be next on every one); pw_mem is compared in order with the
// model pixel writer's writes for the quads in the order the RTL merged them.
struct TopHarness::Taps {
  StreamChecker<DrawPkt> cp_draw;
  StreamChecker<TriPkt> ia_tri;
  StreamChecker<SetupPkt> setup_tri;
  std::vector<std::vector<TilePkt>> tiles_of;  // per rasterizer (NumRast > 1)
  std::vector<std::vector<QuadPkt>> quads_of;
  std::vector<StreamChecker<TilePkt>> coarse_tile;
  std::vector<StreamChecker<QuadPkt>> fine_quad;  // one (NumRast = 1) or per rasterizer
  std::vector<MemReq> pw_expected;                // NumRast > 1: grows with the merged quads
  model::PixelWriter pw_model;
  std::unique_ptr<StreamChecker<MemReq>> pw_mem;
  std::string report;  // first failure
  bool failed = false;
  // The geometry front end (compared in order like cp_draw .. setup_tri).
  std::unique_ptr<StreamChecker<IDrawPkt>> cp_idraw;
  std::unique_ptr<StreamChecker<IndexPkt>> if_index;
  std::unique_ptr<StreamChecker<VFetchPkt>> vt_vertex;
  std::unique_ptr<StreamChecker<PrimPkt>> vt_prim;
  std::unique_ptr<StreamChecker<VtxInPkt>> vf_vtx;
  std::unique_ptr<StreamChecker<ClipVtxPkt>> vtx_clip;
  std::unique_ptr<StreamChecker<PaTriPkt>> pa_tri;
};

TopHarness::TopHarness(Memory& mem, const TopConfig& cfg, RunId run)
    : mem_(mem), cfg_(cfg), run_(std::move(run)), ctx_(std::make_unique<VerilatedContext>()),
      dram_(mem, [&] {
        DramConfig d = cfg.dram;
        d.seed = cfg.seed ^ 0xd1b54a32d192ed03ull;
        return d;
      }()),
      rng_state_(cfg.seed) {
  ctx_->fatalOnError(false);
  ctx_->randReset(2);  // --x-initial unique: randomise with the seed below
  ctx_->randSeed(static_cast<int>(cfg.seed & 0x7fffffff));
  if (!cfg_.fst_path.empty()) ctx_->traceEverOn(true);
  top_ = std::make_unique<Vpineda_top>(ctx_.get(), "TOP");
  if (!cfg_.fst_path.empty()) {
    fst_ = std::make_unique<VerilatedFstC>();
    top_->trace(fst_.get(), 99);
    fst_->open(cfg_.fst_path.c_str());
  }
  top_->clk_i = 0;
  top_->rst_ni = 0;
  top_->reg_valid_i = 0;
  top_->reg_we_i = 0;
  top_->reg_addr_i = 0;
  top_->reg_wdata_i = 0;
  top_->mem_req_ready_i = 0;
  top_->mem_rsp_valid_i = 0;
  top_->throttle_i = 0;
  top_->eval();
  for (int i = 0; i < 4; ++i) {  // a few clocks in reset
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
  }
  top_->rst_ni = 1;
  top_->eval();
}

TopHarness::~TopHarness() {
  if (fst_) fst_->close();
  top_->final();
}

void TopHarness::dump(uint64_t t) {
  if (fst_ && cycle_ >= cfg_.wave_from && cycle_ <= cfg_.wave_to) fst_->dump(t);
}

void TopHarness::reg_write(uint32_t idx, uint32_t value) {
  reg_pending_ = true;
  reg_we_ = true;
  reg_addr_ = idx;
  reg_wdata_ = value;
  tick();
}

void TopHarness::step(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; ++i) tick();
}

uint32_t TopHarness::reg_read(uint32_t idx) {
  top_->reg_addr_i = idx & 0xff;
  top_->eval();
  return top_->reg_rdata_o;
}

// One clock cycle: drive inputs, settle, sample every handshake, rising edge, advance memory.
void TopHarness::tick() {
  top_->clk_i = 0;
  top_->reg_valid_i = reg_pending_;
  top_->reg_we_i = reg_we_;
  top_->reg_addr_i = reg_pending_ ? reg_addr_ : REG_FENCE0;
  top_->reg_wdata_i = reg_wdata_;
  top_->mem_req_ready_i = dram_.req_ready();
  top_->mem_rsp_valid_i = dram_.rsp_valid();
  pack_sig(dram_.rsp(), top_->mem_rsp_i);
  uint32_t thr = 0;
  if (cfg_.throttle > 0.0) {
    const uint64_t lim = static_cast<uint64_t>(cfg_.throttle * 65536.0);
    for (int b = 0; b < kNumBoundaries; ++b) {
      if ((next_rand(rng_state_) & 0xffff) < lim) thr |= 1u << b;
    }
  }
  top_->throttle_i = thr;
  top_->eval();
  dump(2 * cycle_);

  const bool req_fire = top_->mem_req_valid_o && top_->mem_req_ready_i;
  const bool rsp_fire = top_->mem_rsp_valid_i && top_->mem_rsp_ready_o;
  const MemReq req = unpack_sig<MemReq>(top_->mem_req_o);
  if (req_fire || rsp_fire) last_progress_ = cycle_;

  if (taps_) {
    Taps& t = *taps_;
    auto check = [&](auto& checker, bool fire, const auto& pkt, int b) {
      if (!fire) return;
      ++transfers_[b];
      last_progress_ = cycle_;
      if (t.failed) return;
      std::string rep;
      if (!checker.on_transfer(pkt, cycle_, rep)) {
        t.failed = true;
        t.report = rep;
      }
    };
    Vpineda_top& v = *top_;
    if (v.tap_cp_draw_valid_o && v.tap_cp_draw_ready_o)
      check(t.cp_draw, true, unpack_sig<DrawPkt>(v.tap_cp_draw_o), 0);
    if (v.tap_ia_tri_valid_o && v.tap_ia_tri_ready_o)
      check(t.ia_tri, true, unpack_sig<TriPkt>(v.tap_ia_tri_o), 1);
    if (v.tap_setup_tri_valid_o && v.tap_setup_tri_ready_o)
      check(t.setup_tri, true, unpack_sig<SetupPkt>(v.tap_setup_tri_o), 2);
    const uint32_t cv = static_cast<uint32_t>(v.tap_coarse_tile_valid_o & v.tap_coarse_tile_ready_o);
    if (cv != 0) {
      std::array<uint32_t, 2 * kMaxWords> w{};
      sig_to_words(v.tap_coarse_tile_o, w.data());
      for (uint32_t r = 0; r < kNumRast; ++r) {
        if ((cv >> r) & 1u) {
          TilePkt tp;
          tp.unpack_at(w.data(), static_cast<int>(r) * TilePkt::WIDTH);
          check(t.coarse_tile[r], true, tp, 3);
        }
      }
    }
    if (v.tap_fine_quad_valid_o && v.tap_fine_quad_ready_o) {
      const QuadPkt q = unpack_sig<QuadPkt>(v.tap_fine_quad_o);
      if (kNumRast == 1) {
        check(t.fine_quad[0], true, q, 4);
      } else if (q.eop) {  // merged: every rasterizer's stream has its token next
        check(t.fine_quad[0], true, q, 4);
        for (uint32_t r = 1; r < kNumRast && !t.failed; ++r) {
          std::string rep;
          if (!t.fine_quad[r].on_transfer(q, cycle_, rep)) t.failed = true, t.report = rep;
        }
      } else {
        const int ts = q.target.msaa ? 1 : 2;  // quads per raster tile edge: 2 or 4
        check(t.fine_quad[model::CoarseRaster::owner(kNumRast, q.qx >> ts, q.qy >> ts)], true, q, 4);
      }
      if (kNumRast > 1) t.pw_model.process(q, [&t](const MemReq& r) { t.pw_expected.push_back(r); });
    }
    if (v.tap_pw_mem_valid_o && v.tap_pw_mem_ready_o)
      check(*t.pw_mem, true, unpack_sig<MemReq>(v.tap_pw_mem_o), 5);
    const int b0 = static_cast<int>(Boundary::CP_IDRAW);
    if (v.tap_cp_idraw_valid_o && v.tap_cp_idraw_ready_o)
      check(*t.cp_idraw, true, unpack_sig<IDrawPkt>(v.tap_cp_idraw_o), b0);
    if (v.tap_if_index_valid_o && v.tap_if_index_ready_o)
      check(*t.if_index, true, unpack_sig<IndexPkt>(v.tap_if_index_o), b0 + 1);
    if (v.tap_vt_vertex_valid_o && v.tap_vt_vertex_ready_o)
      check(*t.vt_vertex, true, unpack_sig<VFetchPkt>(v.tap_vt_vertex_o), b0 + 2);
    if (v.tap_vt_prim_valid_o && v.tap_vt_prim_ready_o)
      check(*t.vt_prim, true, unpack_sig<PrimPkt>(v.tap_vt_prim_o), b0 + 3);
    if (v.tap_vf_vtx_valid_o && v.tap_vf_vtx_ready_o)
      check(*t.vf_vtx, true, unpack_sig<VtxInPkt>(v.tap_vf_vtx_o), b0 + 4);
    if (v.tap_vtx_clip_valid_o && v.tap_vtx_clip_ready_o)
      check(*t.vtx_clip, true, unpack_sig<ClipVtxPkt>(v.tap_vtx_clip_o), b0 + 5);
    if (v.tap_pa_tri_valid_o && v.tap_pa_tri_ready_o)
      check(*t.pa_tri, true, unpack_sig<PaTriPkt>(v.tap_pa_tri_o), b0 + 6);
    for (uint32_t r = 0; r < kNumRast; ++r) rast_busy_[r] += (v.rast_busy_o >> r) & 1u;
    fe_busy_ += v.fe_busy_o;
    pa_clip_busy_ += v.pa_clip_busy_o;
  }

  top_->clk_i = 1;
  top_->eval();
  dump(2 * cycle_ + 1);
  dram_.clock(req_fire, req, rsp_fire);
  reg_pending_ = false;
  ++cycle_;
}

TopResult TopHarness::run(const ExpectedStreams& exp) {
  TopResult res;
  auto pixel_of = [this](const MemReq& r) -> std::string {
    if (cfg_.rt_pitch == 0) return "";
    const uint32_t off = static_cast<uint32_t>(r.addr) - cfg_.rt_base;
    return "pixel=(" + std::to_string((off % cfg_.rt_pitch) / 4) + "," +
           std::to_string(off / cfg_.rt_pitch) + ")";
  };
  taps_ = std::unique_ptr<Taps>(new Taps{
      StreamChecker<DrawPkt>("cp_draw", exp.cp_draw, run_),
      StreamChecker<TriPkt>("ia_tri", exp.ia_tri, run_),
      StreamChecker<SetupPkt>("setup_tri", exp.setup_tri, run_),
      {}, {}, {}, {}, {}, {}, nullptr, "", false, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr});
  Taps& tp = *taps_;
  tp.cp_idraw = std::make_unique<StreamChecker<IDrawPkt>>("cp_idraw", exp.cp_idraw, run_);
  tp.if_index = std::make_unique<StreamChecker<IndexPkt>>("if_index", exp.if_index, run_);
  tp.vt_vertex = std::make_unique<StreamChecker<VFetchPkt>>("vt_vertex", exp.vt_vertex, run_);
  tp.vt_prim = std::make_unique<StreamChecker<PrimPkt>>("vt_prim", exp.vt_prim, run_);
  tp.vf_vtx = std::make_unique<StreamChecker<VtxInPkt>>("vf_vtx", exp.vf_vtx, run_);
  tp.vtx_clip = std::make_unique<StreamChecker<ClipVtxPkt>>("vtx_clip", exp.vtx_clip, run_);
  tp.pa_tri = std::make_unique<StreamChecker<PaTriPkt>>("pa_tri", exp.pa_tri, run_);
  if (kNumRast == 1) {
    tp.coarse_tile.emplace_back("coarse_tile", exp.coarse_tile, run_);
    tp.fine_quad.emplace_back("fine_quad", exp.fine_quad, run_);
    tp.pw_mem = std::make_unique<StreamChecker<MemReq>>("pw_mem", exp.pw_mem, run_, pixel_of);
  } else {
    // Each rasterizer's own streams: the model's filtered by owner (tokens go to all).
    tp.tiles_of.resize(kNumRast);
    tp.quads_of.resize(kNumRast);
    if (exp.coarse_tile) {
      for (const TilePkt& t : *exp.coarse_tile) {
        for (uint32_t r = 0; r < kNumRast; ++r) {
          if (t.eop || model::CoarseRaster::owner(kNumRast, t.tx, t.ty) == r) tp.tiles_of[r].push_back(t);
        }
      }
    }
    if (exp.fine_quad) {
      for (const QuadPkt& q : *exp.fine_quad) {
        const int ts = q.target.msaa ? 1 : 2;
        for (uint32_t r = 0; r < kNumRast; ++r) {
          if (q.eop || model::CoarseRaster::owner(kNumRast, q.qx >> ts, q.qy >> ts) == r) tp.quads_of[r].push_back(q);
        }
      }
    }
    tp.pw_expected.reserve(exp.pw_mem ? exp.pw_mem->size() : 0);
    for (uint32_t r = 0; r < kNumRast; ++r) {
      const std::string n = "[" + std::to_string(r) + "]";
      tp.coarse_tile.emplace_back("coarse_tile" + n, exp.coarse_tile ? &tp.tiles_of[r] : nullptr, run_);
      tp.fine_quad.emplace_back("fine_quad(rasterizer " + std::to_string(r) + ")",
                                exp.fine_quad ? &tp.quads_of[r] : nullptr, run_);
    }
    tp.pw_mem = std::make_unique<StreamChecker<MemReq>>("pw_mem", exp.pw_mem ? &tp.pw_expected : nullptr, run_, pixel_of);
  }

  const uint64_t start = cycle_;
  last_progress_ = cycle_;
  std::array<uint32_t, NUM_FENCES> fence_seen{};
  for (uint32_t i = 0; i < NUM_FENCES; ++i) fence_seen[i] = reg_read(REG_FENCE0 + i);
  std::ostringstream err;
  bool done = false;
  bool was_waiting = false;
  size_t next_release = 0;
  while (!done) {
    tick();
    if (taps_->failed) break;
    if (ctx_->gotError()) {
      err << "ASSERTION FAILED test=" << run_.test << " seed=" << run_.seed << " cycle=" << cycle_
          << " (see the message above)\n  waveform: " << run_.replay
          << " WAVE_FROM=" << (cycle_ > 200 ? cycle_ - 200 : 0) << " WAVE_TO=" << cycle_ + 20
          << "\n";
      break;
    }
    // End-of-pipe ordering: when an EOP-only fence changes, no memory write may still be in
    // flight. reg_addr_i rests on REG_FENCE0 between register writes; other fences are read.
    bool fence_bad = false;
    for (uint32_t i = 0; i < NUM_FENCES && !fence_bad; ++i) {
      if (!((cfg_.eop_fence_mask >> i) & 1u)) continue;
      const uint32_t f = i == 0 ? top_->reg_rdata_o : reg_read(REG_FENCE0 + i);
      if (f != fence_seen[i]) {
        if (dram_.outstanding_writes() != 0) {
          err << "FENCE ORDER test=" << run_.test << " seed=" << run_.seed << " cycle=" << cycle_
              << ": FENCE" << i << " became " << bits::hex(f) << " with " << dram_.outstanding_writes()
              << " memory writes not yet acknowledged\n";
          fence_bad = true;
        }
        fence_seen[i] = f;
      }
    }
    if (cfg_.eop_fence_mask & ~1u) reg_read(REG_FENCE0);
    if (fence_bad) break;
    if ((cycle_ & 31) == 0) {
      const uint32_t st = reg_read(REG_STATUS);
      const bool stopped = (st >> STATUS_HALTED & 1u) || (st >> STATUS_ERROR & 1u);
      if (stopped && !(st >> STATUS_PIPE_BUSY & 1u) && dram_.outstanding() == 0) done = true;
      // A release is applied to a CP blocked on a wait with the pipeline drained (no end-of-pipe
      // write in flight), the point at which the model applies it.
      const bool waiting = ((st >> STATUS_WAITING) & 1u) && !((st >> STATUS_PIPE_BUSY) & 1u);
      if (waiting && was_waiting && next_release < cfg_.wait_releases.size()) {
        for (const auto& [idx, v] : cfg_.wait_releases[next_release]) reg_write(idx, v);
        ++next_release;
        last_progress_ = cycle_;
        was_waiting = false;
      } else {
        was_waiting = waiting;
      }
      reg_read(REG_FENCE0);
    }
    if (cycle_ - last_progress_ > cfg_.stall_timeout) {
      const uint32_t st = reg_read(REG_STATUS);
      err << "NO PROGRESS test=" << run_.test << " seed=" << run_.seed << " cycle=" << cycle_
          << ": no transfer on any boundary or the memory port for " << cfg_.stall_timeout
          << " cycles; STATUS=" << bits::hex(st) << " RPTR=" << reg_read(REG_RING_RPTR)
          << " memory outstanding=" << dram_.outstanding() << "\n  waveform: " << run_.replay
          << " WAVE_FROM=" << (cycle_ > 2000 ? cycle_ - 2000 : 0) << " WAVE_TO=" << cycle_ << "\n";
      break;
    }
    if (cycle_ - start > cfg_.max_cycles) {
      err << "TIMEOUT test=" << run_.test << " after " << cfg_.max_cycles << " cycles\n";
      break;
    }
  }
  res.cycles = cycle_ - start;
  res.transfers = transfers_;
  if (taps_->failed) {
    res.report = taps_->report;
  } else if (!err.str().empty()) {
    res.report = err.str();
  } else {
    std::string rep;
    bool all = taps_->cp_draw.finish(rep) && taps_->ia_tri.finish(rep) && taps_->setup_tri.finish(rep);
    for (const auto& c : taps_->coarse_tile) all = all && c.finish(rep);
    for (const auto& c : taps_->fine_quad) all = all && c.finish(rep);
    all = all && taps_->pw_mem->finish(rep);
    all = all && taps_->cp_idraw->finish(rep) && taps_->if_index->finish(rep) &&
          taps_->vt_vertex->finish(rep) && taps_->vt_prim->finish(rep) && taps_->vf_vtx->finish(rep) &&
          taps_->vtx_clip->finish(rep) && taps_->pa_tri->finish(rep);
    // Several rasterizers: the writes, taken in the RTL's quad order, are the model's writes.
    if (all && kNumRast > 1 && exp.pw_mem && taps_->pw_expected.size() != exp.pw_mem->size()) {
      all = false;
      rep = "MISMATCH test=" + run_.test + " boundary=pw_mem: " + std::to_string(taps_->pw_expected.size()) +
            " writes for the merged quads, the model made " + std::to_string(exp.pw_mem->size()) + "\n";
    }
    res.report = rep;
    res.ok = all;
  }
  res.status = reg_read(REG_STATUS);
  res.error_cause = reg_read(REG_ERROR_CAUSE);
  res.error_addr = reg_read(REG_ERROR_ADDR);
  for (uint32_t i = 0; i < NUM_FENCES; ++i) res.fences[i] = reg_read(REG_FENCE0 + i);
  for (uint32_t i = 0; i < NUM_PERF; ++i) res.perf.push_back(reg_read(REG_PERF0 + i));
  res.rast_busy = rast_busy_;
  res.fe_busy = fe_busy_;
  res.pa_clip_busy = pa_clip_busy_;
  res.mem_reads = dram_.reads();
  res.mem_writes = dram_.writes();
  return res;
}

}  // namespace pineda::tb
