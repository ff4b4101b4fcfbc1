// SPDX-License-Identifier: Apache-2.0
// Drives the Verilated pineda_top: host register port, the line-port DRAM model (LineDram) on the
// memory port, random
// throttling of every tapped boundary, per-boundary comparison with the model's streams,
// liveness timeout, end-of-pipe fence ordering check, optional FST window.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "line_dram.h"
#include "pineda_boundaries.h"
#include "pineda_contract.h"
#include "stream_checker.h"

class Vpineda_top;

namespace pineda::tb {

template <class V>
class VlDriver;

constexpr int kNumBoundaries = static_cast<int>(Boundary::COUNT);

// Rasterizers of the Verilated pineda_top this harness is compiled against (its NumRast
// parameter): build/vl/pineda_top (1), pineda_top_r2, pineda_top_r4 (units.toml).
#ifndef PINEDA_NUM_RAST
#define PINEDA_NUM_RAST 1
#endif
constexpr uint32_t kNumRast = PINEDA_NUM_RAST;
// The Verilated pineda_top models are built with SimInputRegs = 1 (units.toml): the memory port's
// inputs, throttle_i and pw_flush_i are registered inside, and TopHarness drives them a cycle ahead.
#ifndef PINEDA_SIM_INPUT_REGS
#define PINEDA_SIM_INPUT_REGS 1
#endif
constexpr bool kSimInputRegs = PINEDA_SIM_INPUT_REGS != 0;

struct TopConfig {
  LineDramConfig dram;               // bandwidth (bytes/clock), latency, jitter; seed from `seed`
  double throttle = 0.0;             // per boundary and cycle: chance of withholding a transfer
  uint64_t seed = 1;                 // throttles, X initialisation, DRAM jitter
  uint64_t max_cycles = 200'000'000;
  uint64_t stall_timeout = 200'000;  // cycles without any transfer before "no progress"
  std::string fst_path;              // empty: no waveform
  uint64_t wave_from = 0;
  uint64_t wave_to = UINT64_MAX;
  uint32_t rt_base = 0;              // for pixel coordinates in reports
  uint32_t rt_pitch = 0;
  // Host register writes applied each time the CP has been blocked on a WAIT_REG (STATUS.WAITING
  // at two consecutive 32-cycle checks, with STATUS.PIPE_BUSY clear); the k-th blocked wait gets
  // wait_releases[k].
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> wait_releases;
  // Fences written only by end-of-pipe WRITE_REGs: when one changes, no memory write may be
  // unacknowledged (bit 0 = FENCE0, checked every cycle).
  uint32_t eop_fence_mask = 1u;
  // Called every `progress_every` cycles of run() with the cycles so far and the transfers per
  // boundary (a progress line on long runs; build/pineda); empty: never.
  std::function<void(uint64_t, const std::array<uint64_t, kNumBoundaries>&)> progress;
  uint64_t progress_every = 1u << 16;
};

// The model's stream for each boundary (contracts/defs.py BOUNDARIES); a null pointer is not
// compared.
template <class Pkt>
using ExpectedStream = const std::vector<Pkt>*;
using ExpectedStreams = PerBoundary<ExpectedStream>;

// Every boundary of a model trace (model::Trace) compared.
template <template <class> class F>
ExpectedStreams expect_all(const PerBoundary<F>& trace) {
  ExpectedStreams e;
  e.for_each_with(trace, [](auto, auto& want, const auto& stream) { want = &stream; });
  return e;
}

struct TopResult {
  bool ok = false;
  std::string report;                       // mismatch / liveness / error report
  uint64_t cycles = 0;                      // from the first enabled cycle to idle
  std::array<uint64_t, kNumBoundaries> transfers{};
  std::vector<uint32_t> perf;               // PERF_* counters read at the end
  uint32_t status = 0;
  uint32_t error_cause = 0;
  uint32_t error_addr = 0;
  std::array<uint32_t, NUM_FENCES> fences{};
  uint64_t mem_reads = 0;                   // line reads accepted by the memory (all clients)
  uint64_t mem_writes = 0;                  // line writes accepted
  LineDramStats dram;                       // the DRAM model's per-client requests and bytes
  // The line arbiter's counters per client id (pineda_top mem_grants_o / mem_waits_o): requests
  // granted, cycles with a request valid and not accepted.
  std::array<uint64_t, MEM_LINE_CLIENTS_MAX> arb_grants{};
  std::array<uint64_t, MEM_LINE_CLIENTS_MAX> arb_waits{};
  std::array<uint64_t, 4> rast_busy{};      // cycles rasterizer r held work (rast_busy_o[r])
  uint64_t fe_busy = 0;                     // cycles a front-end unit held work (fe_busy_o)
  uint64_t resolve_busy = 0;                // cycles the resolve engine held a job (resolve_busy_o)
  uint64_t pa_clip_busy = 0;                // cycles PA's clipper worked (pa_clip_busy_o)
  uint64_t interp_fed = 0;                  // cycles a quad or token was offered to INTERP (zs_quad valid)
};

class TopHarness {
 public:
  TopHarness(Memory& mem, const TopConfig& cfg, RunId run);
  ~TopHarness();
  TopHarness(const TopHarness&) = delete;
  TopHarness& operator=(const TopHarness&) = delete;

  void reg_write(uint32_t idx, uint32_t value);  // one clock cycle
  uint32_t reg_read(uint32_t idx);               // combinational, no clock

  // Runs until the CP has halted (END or error), the pipeline is idle and memory is quiet;
  // compares every transfer with `exp`. Stops at the first mismatch.
  TopResult run(const ExpectedStreams& exp);

  // Clocks the design `cycles` times with the register port idle (no stream comparison).
  void step(uint64_t cycles);
  // True when the memory model has no request in flight.
  bool memory_quiet() const { return dram_.outstanding() == 0; }

  uint64_t cycle() const;

 private:
  void tick();
  void drive_inputs();
  template <class Traits, class Pkt>
  void on_tap(Traits, uint32_t lane, const Pkt& pkt);

  Memory& mem_;
  TopConfig cfg_;
  RunId run_;
  std::unique_ptr<VlDriver<Vpineda_top>> drv_;
  Vpineda_top& top_;
  LineDram dram_;
  uint64_t rng_state_;
  std::array<uint64_t, kNumBoundaries> transfers_{};
  std::array<uint64_t, 4> rast_busy_{};
  uint64_t fe_busy_ = 0, pa_clip_busy_ = 0, interp_fed_ = 0, resolve_busy_ = 0;
  bool in_req_ready_ = false;   // mem_req_ready_i / mem_rsp_valid_i as pineda_top's units see them
  bool in_rsp_valid_ = false;
  bool reg_pending_ = false;
  bool reg_we_ = false;
  uint32_t reg_addr_ = 0;
  uint32_t reg_wdata_ = 0;
  // per-boundary checkers, set up by run()
  struct Taps;
  std::unique_ptr<Taps> taps_;
};

}  // namespace pineda::tb
