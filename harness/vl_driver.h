// SPDX-License-Identifier: Apache-2.0
// One Verilator testbench driver for every RTL harness: the context (seed, X randomisation,
// assertion failures that fail the test), the model, reset, the FST waveform window, the clock,
// liveness, and the per-clock stream helpers (a source that offers packets with random gaps, a
// sink with random back-pressure that compares what it takes with the model's stream).
//
// A clock cycle (cf. Ibex/OpenTitan VerilatorSimCtrl, whose extensions run OnClock):
//   drive the inputs; eval_low() (clk_i = 0, settle, dump); sample the handshakes of the settled
//   inputs and outputs; edge() (clk_i = 1, settle, dump, cycle + 1). Waveform time is 2 * cycle
//   for the low phase and 2 * cycle + 1 after the edge; reset clocks are not dumped.
// Replay: every run is reproducible from its seed (printed by the tests: Catch2 --rng-seed N, or
// pineda_sim --seed N); PINEDA_FST=<file> (or DriverConfig::fst_path) writes the waveform.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "stream_checker.h"
#include "vl_bits.h"

namespace pineda::tb {

// A fresh context: assertion failures are reported through gotError() instead of aborting,
// every variable without a reset value starts random (--x-initial unique) from `seed`.
inline std::unique_ptr<VerilatedContext> make_context(uint64_t seed, bool trace = false) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed & 0x7fffffff));
  if (trace) ctx->traceEverOn(true);
  return ctx;
}

struct DriverConfig {
  RunId run;                         // test, seed, replay command (reports)
  std::string fst_path;              // empty: $PINEDA_FST if set, else no waveform
  uint64_t wave_from = 0;            // cycles dumped: [wave_from, wave_to]
  uint64_t wave_to = UINT64_MAX;
  uint64_t stall_timeout = 50'000;   // cycles without progress before "no progress"
};

// A model Verilated with --trace-fst has trace(); one without it cannot write a waveform.
template <class V, class = void>
constexpr bool kHasTrace = false;
template <class V>
constexpr bool kHasTrace<V, std::void_t<decltype(std::declval<V&>().trace(static_cast<VerilatedFstC*>(nullptr), 0))>> =
    true;

template <class V>
class VlDriver {
 public:
  explicit VlDriver(DriverConfig cfg) : cfg_(std::move(cfg)), rng_(cfg_.run.seed) {
    if (cfg_.fst_path.empty()) {
      if (const char* env = std::getenv("PINEDA_FST")) cfg_.fst_path = env;
    }
    ctx_ = make_context(cfg_.run.seed, !cfg_.fst_path.empty());
    dut_ = std::make_unique<V>(ctx_.get(), "TOP");
    if (!cfg_.fst_path.empty()) {
      if constexpr (kHasTrace<V>) {
        fst_ = std::make_unique<VerilatedFstC>();
        dut_->trace(fst_.get(), 99);
        fst_->open(cfg_.fst_path.c_str());
      } else {
        std::fprintf(stderr, "waveform %s not written: this model was Verilated without --trace-fst\n",
                     cfg_.fst_path.c_str());
        std::exit(2);
      }
    }
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
  }
  explicit VlDriver(RunId run) : VlDriver(DriverConfig{std::move(run), "", 0, UINT64_MAX, 50'000}) {}
  ~VlDriver() {
    if (fst_) fst_->close();
    dut_->final();
  }
  VlDriver(const VlDriver&) = delete;
  VlDriver& operator=(const VlDriver&) = delete;

  V& dut() { return *dut_; }
  V* operator->() { return dut_.get(); }
  std::mt19937_64& rng() { return rng_; }
  const RunId& run() const { return cfg_.run; }
  uint64_t cycle() const { return cycle_; }

  // Holds rst_ni low for `cycles` clocks (the caller has set every input to its idle value),
  // then releases it. Not dumped, not counted.
  void reset(int cycles = 3) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    for (int i = 0; i < cycles; ++i) {
      dut_->clk_i = 1;
      dut_->eval();
      dut_->clk_i = 0;
      dut_->eval();
    }
    dut_->rst_ni = 1;
    dut_->eval();
  }

  void eval_low() {
    dut_->clk_i = 0;
    dut_->eval();
    dump(2 * cycle_);
  }
  void edge() {
    dut_->clk_i = 1;
    dut_->eval();
    dump(2 * cycle_ + 1);
    ++cycle_;
  }

  // Liveness: progress() on every transfer; stalled() once stall_timeout cycles had none.
  void progress() { last_progress_ = cycle_; }
  bool stalled() const { return cycle_ - last_progress_ > cfg_.stall_timeout; }
  uint64_t since_progress() const { return cycle_ - last_progress_; }

  // After the last expected transfer: up to `cycles` more clocks (neither counted nor dumped),
  // idle() setting the inputs before each; true when more() holds at one of them (the design
  // produced something after the end).
  template <class Idle, class More>
  bool more_after_end(int cycles, Idle idle, More more) {
    for (int i = 0; i < cycles; ++i) {
      idle();
      dut_->clk_i = 0;
      dut_->eval();
      const bool m = more();
      dut_->clk_i = 1;
      dut_->eval();
      if (m) return true;
    }
    return false;
  }

  bool failed() const { return ctx_->gotError(); }
  // "<WHAT> test=<t> seed=<s> cycle=<c>": the head of every report.
  std::string head(const char* what) const {
    return std::string(what) + " test=" + cfg_.run.test + " seed=" + std::to_string(cfg_.run.seed) +
           " cycle=" + std::to_string(cycle_);
  }
  // The replay line for a window of cycles before and after now.
  std::string waves(uint64_t before, uint64_t after) const {
    const uint64_t from = cycle_ > before ? cycle_ - before : 0;
    return "  waveform: " + cfg_.run.replay + " WAVE_FROM=" + std::to_string(from) +
           " WAVE_TO=" + std::to_string(cycle_ + after) + "\n";
  }
  std::string assertion_report() const {
    return head("ASSERTION FAILED") + " (see the message above)\n" + waves(200, 20);
  }
  std::string no_progress_report(const std::string& detail) const {
    return head("NO PROGRESS") + ": " + detail + " (no transfer for " + std::to_string(cfg_.stall_timeout) +
           " cycles)\n" + waves(2000, 0);
  }

 private:
  void dump(uint64_t t) {
    if (fst_ && cycle_ >= cfg_.wave_from && cycle_ <= cfg_.wave_to) fst_->dump(t);
  }

  DriverConfig cfg_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> dut_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycle_ = 0;
  uint64_t last_progress_ = 0;
};

// True with probability p (one draw from rng).
inline bool chance(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p;
}

// Offers `pkts` in order on a valid/data input pair: each packet after a random gap (chance
// `gap` per cycle of withholding it), then held until taken (the stream rule).
template <class Pkt>
class StreamSource {
 public:
  StreamSource(const std::vector<Pkt>& pkts, double gap) : pkts_(pkts), gap_(gap) {}
  // Before eval_low(): sets valid and data.
  template <class Valid, class Data>
  void drive(std::mt19937_64& rng, Valid& valid, Data& data) {
    if (!offering_ && next_ < pkts_.size() && !chance(rng, gap_)) offering_ = true;
    valid = offering_;
    if (next_ < pkts_.size()) pack_sig(pkts_[next_], data);
  }
  // After eval_low(): true when the packet is taken this cycle; the next one follows.
  bool fire(bool ready) {
    if (!(offering_ && ready)) return false;
    ++next_;
    offering_ = false;
    return true;
  }
  bool done() const { return next_ == pkts_.size(); }
  size_t taken() const { return next_; }
  size_t size() const { return pkts_.size(); }
  std::string progress(const char* what) const {
    return std::string(what) + " " + std::to_string(next_) + "/" + std::to_string(pkts_.size());
  }

 private:
  const std::vector<Pkt>& pkts_;
  double gap_;
  size_t next_ = 0;
  bool offering_ = false;
};

// Takes packets from a valid/ready/data output with random back-pressure (chance `stall` per
// cycle of not being ready) and compares each with the model's stream (StreamChecker).
template <class Pkt>
class StreamSink {
 public:
  StreamSink(std::string name, const std::vector<Pkt>& expected, const RunId& run, double stall,
             typename StreamChecker<Pkt>::Locator extra = nullptr)
      : checker_(std::move(name), &expected, run, std::move(extra)), expected_(expected), stall_(stall) {}
  // Before eval_low(): the ready of this cycle.
  bool ready(std::mt19937_64& rng) const { return !chance(rng, stall_); }
  // After eval_low(): on a transfer compares the packet; false (and `report`) on a mismatch.
  template <class Data>
  bool take(bool valid, bool ready, const Data& data, uint64_t cycle, std::string& report,
            bool* fired = nullptr) {
    const bool fire = valid && ready;
    if (fired) *fired = fire;
    return !fire || checker_.on_transfer(unpack_sig<Pkt>(data), cycle, report);
  }
  bool done() const { return checker_.count() >= expected_.size(); }
  bool finish(std::string& report) const { return checker_.finish(report); }
  size_t count() const { return checker_.count(); }
  std::string progress(const char* what) const {
    return std::string(what) + " " + std::to_string(checker_.count()) + "/" +
           std::to_string(expected_.size());
  }

 private:
  StreamChecker<Pkt> checker_;
  const std::vector<Pkt>& expected_;
  double stall_;
};

}  // namespace pineda::tb
