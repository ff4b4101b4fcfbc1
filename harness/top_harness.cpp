// SPDX-License-Identifier: Apache-2.0
#include "top_harness.h"

#include <sstream>
#include <type_traits>

#include "Vpineda_top.h"
#include "om/pixel_writer.h"
#include "pw_overlay.h"
#include "rast/coarse_raster.h"
#include "vl_bits.h"
#include "vl_driver.h"

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

// Every boundary of contracts/defs.py BOUNDARIES is tapped (for_each_tap) and compared with the
// model's stream by one StreamChecker, in order. With several rasterizers (PINEDA_NUM_RAST > 1,
// docs/verification.md "Several rasterizers") a boundary's MultiRast says how instead:
// PER_LANE (coarse_tile): one tap lane per rasterizer, each compared in order with the model's
// packets that rasterizer owns; PER_OWNER (fine_quad, the merged quads): each packet in order
// with its owner's stream, an end-of-pipe token next on every one; FROM_RTL (pw_mem): in order
// with the line writes of a model colour cache fed the quads in the order the RTL merged them
// (its tokens flush it) and flushed whenever pineda_top shows PW flushing (pw_flushing_o).
// The end of a run is the host reading memory: once the CP has stopped and the pipeline has
// drained, pw_flush_i asks PW to write back its colour cache, and the run ends when PW is clean.
namespace {
// The rasterizer owning a packet (PER_LANE / PER_OWNER boundaries).
uint32_t rast_owner(const TilePkt& t) { return model::CoarseRaster::owner(kNumRast, t.tx, t.ty); }
uint32_t rast_owner(const QuadPkt& q) {
  const int ts = q.target.msaa ? 1 : 2;  // quads per raster tile edge: 2 or 4
  return model::CoarseRaster::owner(kNumRast, q.qx >> ts, q.qy >> ts);
}
uint32_t rast_owner(const InterpPkt& p) { return rast_owner(p.quad); }
// An end-of-pipe token (INTERP's packets carry the quad's).
template <class Pkt>
bool is_eop(const Pkt& p) { return p.eop != 0; }
bool is_eop(const InterpPkt& p) { return p.quad.eop != 0; }
const char* lane_name(MultiRast m) { return m == MultiRast::PER_LANE ? "[" : "(rasterizer "; }
const char* lane_end(MultiRast m) { return m == MultiRast::PER_LANE ? "]" : ")"; }
}  // namespace

template <class Pkt>
struct BoundaryTap {
  std::vector<std::vector<Pkt>> split;     // the model's stream per rasterizer (NumRast > 1)
  std::vector<StreamChecker<Pkt>> lanes;   // one checker, or one per rasterizer
};

struct TopHarness::Taps {
  PerBoundary<BoundaryTap> tap;
  std::vector<MemLineReq> pw_expected;     // FROM_RTL: grows with the merged quads
  model::PixelWriter pw_model;             // FROM_RTL: the colour cache fed the RTL's quad order
  // FROM_RTL fills (blended quads): memory as the RTL's fill will see it (harness/pw_overlay.h).
  PwOverlay pw_overlay;
  void pw_emit(const MemLineReq& r) {
    pw_expected.push_back(r);
    pw_overlay.write(r);
  }
  std::string report;  // first failure
  bool failed = false;
};

TopHarness::TopHarness(Memory& mem, const TopConfig& cfg, RunId run)
    : mem_(mem), cfg_(cfg), run_(std::move(run)),
      drv_(std::make_unique<VlDriver<Vpineda_top>>(
          DriverConfig{run_, cfg.fst_path, cfg.wave_from, cfg.wave_to, cfg.stall_timeout})),
      top_(drv_->dut()),
      dram_(mem, [&] {
        LineDramConfig d = cfg.dram;
        d.seed = cfg.seed ^ 0xd1b54a32d192ed03ull;
        return d;
      }()),
      rng_state_(cfg.seed) {
  top_.reg_valid_i = 0;
  top_.reg_we_i = 0;
  top_.reg_addr_i = 0;
  top_.reg_wdata_i = 0;
  top_.mem_req_ready_i = 0;
  top_.mem_rsp_valid_i = 0;
  top_.throttle_i = 0;
  top_.pw_flush_i = 0;
  // The first cycle's memory port and throttle values, into pineda_top's input registers by the
  // reset clocks (kSimInputRegs; otherwise tick() drives them).
  if (kSimInputRegs) drive_inputs();
  drv_->reset(4);
}

TopHarness::~TopHarness() = default;

uint64_t TopHarness::cycle() const { return drv_->cycle(); }

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
  top_.reg_addr_i = idx & 0xff;
  top_.eval();
  return top_.reg_rdata_o;
}

// A transfer on lane `lane` of boundary Traits::id.
template <class Traits, class Pkt>
void TopHarness::on_tap(Traits, uint32_t lane, const Pkt& pkt) {
  ++transfers_[static_cast<size_t>(Traits::id)];
  drv_->progress();
  Taps& t = *taps_;
  auto& lanes = t.tap.template get<Traits::id>().lanes;
  auto check = [&](StreamChecker<Pkt>& c) {
    if (t.failed) return;
    std::string rep;
    if (!c.on_transfer(pkt, drv_->cycle(), rep)) t.failed = true, t.report = rep;
  };
  if constexpr (Traits::multi_rast == MultiRast::PER_OWNER) {
    if (kNumRast == 1) {
      check(lanes[0]);
    } else if (is_eop(pkt)) {  // merged: every rasterizer's stream has its token next
      for (auto& c : lanes) check(c);
    } else {
      check(lanes[rast_owner(pkt)]);
    }
    // FROM_RTL: the model pixel writer's writes for the quads in the order the RTL merged them
    // (PW's input: the quads ZS let through, after TEX and COMB: combined per-pixel colours,
    // alpha-killed pixels removed).
    if constexpr (Traits::id == Boundary::COMB_QUAD) {
      if (kNumRast > 1) {
        model::PixColors pc{};
        for (size_t p = 0; p < 4; ++p) pc[p] = static_cast<uint32_t>(pkt.pcolor[p].data);
        t.pw_model.process(
            pkt.quad, [&t](const MemLineReq& r) { t.pw_emit(r); },
            [this, &t](uint32_t a) { return t.pw_overlay.read(mem_, a); }, &pc);
        if (pkt.quad.eop) t.pw_overlay.clear();
      }
    }
  } else {
    check(lanes[lane]);
  }
}

// The memory port's inputs and the throttles for the next cycle (kSimInputRegs) or this one: the
// DRAM model's state after its last clock, one draw per boundary.
void TopHarness::drive_inputs() {
  in_req_ready_ = dram_.req_ready();
  in_rsp_valid_ = dram_.rsp_valid();
  top_.mem_req_ready_i = in_req_ready_;
  top_.mem_rsp_valid_i = in_rsp_valid_;
  pack_sig(dram_.rsp(), top_.mem_rsp_i);
  static_assert(kNumBoundaries <= 32, "throttle_i is driven as one 32-bit word");
  uint32_t thr = 0;
  if (cfg_.throttle > 0.0) {
    const uint64_t lim = static_cast<uint64_t>(cfg_.throttle * 65536.0);
    for (int b = 0; b < kNumBoundaries; ++b) {
      if ((next_rand(rng_state_) & 0xffff) < lim) thr |= 1u << b;
    }
  }
  top_.throttle_i = thr;
}

// One clock cycle: drive inputs, settle, sample every handshake, advance memory, rising edge.
// With kSimInputRegs pineda_top registers the memory port's inputs, throttle_i and pw_flush_i
// (SimInputRegs), so they are driven one cycle ahead, just before the edge that loads them: the
// DRAM model is clocked first, and the design sees exactly the values of the unregistered
// drive. Only the register port is driven for this cycle, and the low eval() then runs little
// beyond it (Verilator evaluates everything that depends combinationally on an input at every
// eval(): docs/verification.md "Simulation speed").
void TopHarness::tick() {
  top_.reg_valid_i = reg_pending_;
  top_.reg_we_i = reg_we_;
  top_.reg_addr_i = reg_pending_ ? reg_addr_ : REG_FENCE0;
  top_.reg_wdata_i = reg_wdata_;
  if (!kSimInputRegs) drive_inputs();
  drv_->eval_low();

  const bool req_fire = top_.mem_req_valid_o && in_req_ready_;
  const bool rsp_fire = in_rsp_valid_ && top_.mem_rsp_ready_o;
  const MemLineReq req = unpack_sig<MemLineReq>(top_.mem_req_o);
  if (req_fire || rsp_fire) drv_->progress();
  if (taps_) {
    for_each_tap(top_, [&](auto traits, uint32_t valid, uint32_t ready, const auto& data) {
      using Pkt = typename decltype(traits)::Pkt;
      const uint32_t fire = valid & ready;
      if (fire == 0) return;
      constexpr uint32_t kLanes = decltype(traits)::multi_rast == MultiRast::PER_LANE ? kNumRast : 1;
      std::array<uint32_t, (kLanes * Pkt::WIDTH + 31) / 32> w{};
      sig_to_words(data, w.data());
      for (uint32_t r = 0; r < kLanes; ++r) {
        if ((fire >> r) & 1u) {
          Pkt p;
          p.unpack_at(w.data(), static_cast<int>(r) * Pkt::WIDTH);
          on_tap(traits, r, p);
        }
      }
    });
    // PW writes back its colour cache (a COPY, the host's flush): so does the model's copy.
    if (kNumRast > 1 && top_.pw_flushing_o) {
      taps_->pw_model.flush([this](const MemLineReq& r) { taps_->pw_emit(r); });
      taps_->pw_overlay.clear();
    }
    for (uint32_t r = 0; r < kNumRast; ++r) rast_busy_[r] += (top_.rast_busy_o >> r) & 1u;
    fe_busy_ += top_.fe_busy_o;
    resolve_busy_ += top_.resolve_busy_o;
    pa_clip_busy_ += top_.pa_clip_busy_o;
    interp_fed_ += top_.tap_zs_quad_valid_o;
  }

  dram_.clock(req_fire, req, rsp_fire);
  if (kSimInputRegs) drive_inputs();
  drv_->edge();
  reg_pending_ = false;
}

TopResult TopHarness::run(const ExpectedStreams& exp) {
  TopResult res;
  // A colour line write: the pixel at its first written byte.
  auto pixel_of = [this](const MemLineReq& r) -> std::string {
    if (cfg_.rt_pitch == 0 || r.be == 0) return "";
    int first = 0;
    while (((r.be >> first) & 1u) == 0) ++first;
    const uint32_t off = (static_cast<uint32_t>(r.addr) & ~63u) + static_cast<uint32_t>(first) - cfg_.rt_base;
    return "pixel=(" + std::to_string((off % cfg_.rt_pitch) / 4) + "," +
           std::to_string(off / cfg_.rt_pitch) + ")";
  };
  taps_ = std::make_unique<Taps>();
  taps_->tap.for_each_with(exp, [&](auto traits, auto& tap, const auto* want) {
    using T = decltype(traits);
    using Pkt = typename T::Pkt;
    typename StreamChecker<Pkt>::Locator extra;
    if constexpr (std::is_same_v<Pkt, MemLineReq>) extra = pixel_of;
    if constexpr (T::multi_rast == MultiRast::PER_LANE || T::multi_rast == MultiRast::PER_OWNER) {
      if (kNumRast > 1) {  // each rasterizer's own stream: the model's filtered by owner (tokens go to all)
        tap.split.resize(kNumRast);
        for (size_t i = 0; want && i < want->size(); ++i) {
          for (uint32_t r = 0; r < kNumRast; ++r) {
            if (is_eop((*want)[i]) || rast_owner((*want)[i]) == r) tap.split[r].push_back((*want)[i]);
          }
        }
        for (uint32_t r = 0; r < kNumRast; ++r) {
          const std::string name = T::name + (lane_name(T::multi_rast) + std::to_string(r)) + lane_end(T::multi_rast);
          tap.lanes.emplace_back(name, want ? &tap.split[r] : nullptr, run_, extra);
        }
        return;
      }
    }
    if constexpr (T::multi_rast == MultiRast::FROM_RTL) {
      if (kNumRast > 1) {
        taps_->pw_expected.reserve(want ? want->size() : 0);
        tap.lanes.emplace_back(T::name, want ? &taps_->pw_expected : nullptr, run_, extra);
        return;
      }
    }
    tap.lanes.emplace_back(T::name, want, run_, extra);
  });

  const uint64_t start = drv_->cycle();
  top_.pw_flush_i = 0;
  drv_->progress();
  std::array<uint32_t, NUM_FENCES> fence_seen{};
  for (uint32_t i = 0; i < NUM_FENCES; ++i) fence_seen[i] = reg_read(REG_FENCE0 + i);
  std::ostringstream err;
  bool done = false;
  bool was_waiting = false;
  bool cp_stopped = false;
  size_t next_release = 0;
  while (!done) {
    tick();
    if (taps_->failed) break;
    if (drv_->failed()) {
      err << drv_->assertion_report();
      break;
    }
    // End-of-pipe ordering: when an EOP-only fence changes, no memory write may still be in
    // flight. reg_addr_i rests on REG_FENCE0 between register writes; other fences are read.
    bool fence_bad = false;
    for (uint32_t i = 0; i < NUM_FENCES && !fence_bad; ++i) {
      if (!((cfg_.eop_fence_mask >> i) & 1u)) continue;
      const uint32_t f = i == 0 ? top_.reg_rdata_o : reg_read(REG_FENCE0 + i);
      if (f != fence_seen[i]) {
        // ... and PW's colour cache holds no dirty line (the quads behind the token reach it
        // two clocks after the completion at the earliest).
        if (dram_.outstanding_writes() != 0 || !top_.pw_clean_o) {
          err << drv_->head("FENCE ORDER") << ": FENCE" << i << " became " << bits::hex(f) << " with "
              << dram_.outstanding_writes() << " memory writes not yet acknowledged"
              << (top_.pw_clean_o ? "" : " and dirty lines in PW's colour cache") << "\n";
          fence_bad = true;
        }
        fence_seen[i] = f;
      }
    }
    if (cfg_.eop_fence_mask & ~1u) reg_read(REG_FENCE0);
    if (fence_bad) break;
    // STATUS is read every 32 clocks while the CP runs, every clock once it has stopped, so that
    // the end of a run (and with it the measured cycles) is not rounded up to the poll period.
    const bool poll32 = (drv_->cycle() & 31) == 0;
    if (poll32 || cp_stopped) {
      const uint32_t st = reg_read(REG_STATUS);
      const bool stopped = (st >> STATUS_HALTED & 1u) || (st >> STATUS_ERROR & 1u);
      cp_stopped = stopped;
      // The host reads memory once the CP has stopped and the pipeline has drained: PW first
      // writes back its colour cache (pw_flush_i), then the run ends.
      const bool drained = stopped && !(st >> STATUS_PIPE_BUSY & 1u);
      if (drained) top_.pw_flush_i = 1;
      if (drained && top_.pw_clean_o && dram_.outstanding() == 0) done = true;
      // A release is applied to a CP blocked on a wait with the pipeline drained (no end-of-pipe
      // write in flight), the point at which the model applies it: seen on two polls 32 clocks
      // apart.
      const bool waiting = ((st >> STATUS_WAITING) & 1u) && !((st >> STATUS_PIPE_BUSY) & 1u);
      if (poll32) {
        if (waiting && was_waiting && next_release < cfg_.wait_releases.size()) {
          for (const auto& [idx, v] : cfg_.wait_releases[next_release]) reg_write(idx, v);
          ++next_release;
          drv_->progress();
          was_waiting = false;
        } else {
          was_waiting = waiting;
        }
      }
      reg_read(REG_FENCE0);
    }
    if (drv_->stalled()) {
      const uint32_t st = reg_read(REG_STATUS);
      err << drv_->head("NO PROGRESS") << ": no transfer on any boundary or the memory port for "
          << cfg_.stall_timeout << " cycles; STATUS=" << bits::hex(st) << " RPTR=" << reg_read(REG_RING_RPTR)
          << " memory outstanding=" << dram_.outstanding() << "\n" << drv_->waves(2000, 0);
      break;
    }
    if (cfg_.progress && (drv_->cycle() - start) % cfg_.progress_every == 0) cfg_.progress(drv_->cycle() - start, transfers_);
    if (drv_->cycle() - start > cfg_.max_cycles) {
      err << "TIMEOUT test=" << run_.test << " after " << cfg_.max_cycles << " cycles\n";
      break;
    }
  }
  res.cycles = drv_->cycle() - start;
  res.transfers = transfers_;
  if (taps_->failed) {
    res.report = taps_->report;
  } else if (!err.str().empty()) {
    res.report = err.str();
  } else {
    std::string rep;
    bool all = true;
    taps_->tap.for_each([&](auto, const auto& tap) {
      for (const auto& c : tap.lanes) all = all && c.finish(rep);
    });
    // Several rasterizers: the line writes are those of a colour cache fed the RTL's quad order
    // (how many depends on that order); it must have been flushed as the RTL was.
    if (all && kNumRast > 1 && exp.pw_mem && !taps_->pw_model.clean()) {
      all = false;
      rep = "MISMATCH test=" + run_.test + " boundary=pw_mem: the harness's colour cache still holds dirty lines " +
            "after the run (PW did not flush where it should)\n";
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
  res.resolve_busy = resolve_busy_;
  res.pa_clip_busy = pa_clip_busy_;
  res.interp_fed = interp_fed_;
  res.dram = dram_.stats();
  for (const auto& c : res.dram.client) {
    res.mem_reads += c.reads;
    res.mem_writes += c.writes;
  }
  for (uint32_t c = 0; c < MEM_LINE_CLIENTS_MAX; ++c) {
    res.arb_grants[c] = top_.mem_grants_o[c];
    res.arb_waits[c] = top_.mem_waits_o[c];
  }
  return res;
}

}  // namespace pineda::tb
