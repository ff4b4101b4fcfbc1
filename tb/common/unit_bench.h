// RTL-vs-model bench for one unit with an input stream, an output stream and, optionally, a
// memory client port. Ports follow the project convention: in_valid_i/in_ready_o/in_i,
// out_valid_o/out_ready_i/out_o, mem_req_*/mem_rsp_*, idle_o.
//
// The bench offers the inputs with random gaps (valid low with probability `in_gap`), accepts
// outputs with random back-pressure (ready low with probability `out_stall`), compares every
// output packet with the model's expected stream, checks the unit returns to idle, and reports
// "no progress" instead of hanging. Set PINEDA_FST=<file> to dump a waveform.
// A unit with an end-of-pipe completion port (eop_done_valid_o/eop_done_ready_i: the pixel
// writer) gets random back-pressure there too; every completion must come with no memory write
// outstanding, and there must be one per end-of-pipe token in the input.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dram_model.h"
#include "stream_checker.h"
#include "vl_bits.h"

namespace pineda::tb {

struct UnitBenchConfig {
  uint64_t seed = 1;
  double in_gap = 0.3;     // chance per cycle that the source withholds its next packet
  double out_stall = 0.3;  // chance per cycle that the sink is not ready
  uint64_t stall_timeout = 50'000;
  DramConfig dram{};
  std::string test = "unit";
};

struct UnitBenchResult {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
  size_t outputs = 0;
};

template <class V>
auto has_mem_port(int) -> decltype(std::declval<V&>().mem_req_valid_o, std::true_type{});
template <class V>
std::false_type has_mem_port(...);
template <class V>
auto has_eop_port(int) -> decltype(std::declval<V&>().eop_done_valid_o, std::true_type{});
template <class V>
std::false_type has_eop_port(...);
template <class V>
auto has_out_port(int) -> decltype(std::declval<V&>().out_valid_o, std::true_type{});
template <class V>
std::false_type has_out_port(...);

template <class V, class InPkt, class OutPkt>
UnitBenchResult run_unit_bench(const std::vector<InPkt>& inputs, const std::vector<OutPkt>& expected,
                               const UnitBenchConfig& cfg, Memory* mem = nullptr,
                               const char* out_name = "out") {
  constexpr bool kMem = decltype(has_mem_port<V>(0))::value;
  // A unit without an output stream (the pixel writer) is checked on its memory requests, and
  // the random back-pressure is applied to the memory port instead.
  constexpr bool kOut = decltype(has_out_port<V>(0))::value;
  constexpr bool kEop = decltype(has_eop_port<V>(0))::value;
  size_t tokens_in = 0, eop_done = 0;
  if constexpr (kEop) {
    for (const auto& p : inputs) tokens_in += p.eop ? 1 : 0;
  }
  static_assert(kOut || kMem, "a unit needs an output stream or a memory port");
  UnitBenchResult res;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(cfg.seed & 0x7fffffff));
  const char* fst_path = std::getenv("PINEDA_FST");
  if (fst_path) ctx->traceEverOn(true);
  auto dut = std::make_unique<V>(ctx.get(), "TOP");
  std::unique_ptr<VerilatedFstC> fst;
  if (fst_path) {
    fst = std::make_unique<VerilatedFstC>();
    dut->trace(fst.get(), 99);
    fst->open(fst_path);
  }
  Memory dummy;
  DramConfig dc = cfg.dram;
  dc.seed = cfg.seed * 31 + 7;
  DramModel dram(mem ? *mem : dummy, dc);
  std::mt19937_64 rng(cfg.seed);
  std::uniform_real_distribution<double> uni(0.0, 1.0);

  RunId run{cfg.test, cfg.seed,
            "PINEDA_FST=unit.fst <this test> --rng-seed " + std::to_string(cfg.seed)};
  StreamChecker<OutPkt> checker(out_name, &expected, run);

  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->in_valid_i = 0;
  if constexpr (kOut) dut->out_ready_i = 0;
  if constexpr (kEop) dut->eop_done_ready_i = 0;
  if constexpr (kMem) {
    dut->mem_req_ready_i = 0;
    dut->mem_rsp_valid_i = 0;
  }
  dut->eval();
  for (int i = 0; i < 3; ++i) {
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
  }
  dut->rst_ni = 1;
  dut->eval();

  size_t next_in = 0;
  bool offering = false;
  uint64_t cycle = 0;
  uint64_t last_progress = 0;
  uint64_t t = 0;
  while (true) {
    // Source: once a packet is offered it stays offered until taken (stream rule).
    if (!offering && next_in < inputs.size() && uni(rng) >= cfg.in_gap) offering = true;
    dut->in_valid_i = offering;
    if (next_in < inputs.size()) pack_sig(inputs[next_in], dut->in_i);
    const bool sink_ready = uni(rng) >= cfg.out_stall;
    if constexpr (kOut) dut->out_ready_i = sink_ready;
    if constexpr (kMem) {
      dut->mem_req_ready_i = dram.req_ready() && (kOut || sink_ready);
      dut->mem_rsp_valid_i = dram.rsp_valid();
      pack_sig(dram.rsp(), dut->mem_rsp_i);
    }
    if constexpr (kEop) dut->eop_done_ready_i = uni(rng) >= cfg.out_stall;
    dut->clk_i = 0;
    dut->eval();
    if (fst) fst->dump(t++);

    const bool in_fire = dut->in_valid_i && dut->in_ready_o;
    bool out_fire = false, req_fire = false, rsp_fire = false;
    MemReq req;
    if constexpr (kMem) {
      req_fire = dut->mem_req_valid_o && dut->mem_req_ready_i;
      rsp_fire = dut->mem_rsp_valid_i && dut->mem_rsp_ready_o;
      req = unpack_sig<MemReq>(dut->mem_req_o);
    }
    std::string rep;
    bool bad = false;
    if constexpr (kOut) {
      out_fire = dut->out_valid_o && dut->out_ready_i;
      if (out_fire) bad = !checker.on_transfer(unpack_sig<OutPkt>(dut->out_o), cycle, rep);
    } else {
      if (req_fire) bad = !checker.on_transfer(req, cycle, rep);
    }
    bool eop_fire = false;
    if constexpr (kEop) {
      eop_fire = dut->eop_done_valid_o && dut->eop_done_ready_i;
      if (eop_fire) {
        ++eop_done;
        if (dram.outstanding() != 0 && !bad) {
          bad = true;
          rep = "EOP ORDER test=" + cfg.test + " seed=" + std::to_string(cfg.seed) + " cycle=" +
                std::to_string(cycle) + ": end-of-pipe completion #" + std::to_string(eop_done - 1) +
                " with " + std::to_string(dram.outstanding()) + " memory writes not yet acknowledged\n";
        }
      }
    }
    if (in_fire || out_fire || req_fire || rsp_fire || eop_fire) last_progress = cycle;
    if (bad) {
      res.report = rep;
      break;
    }
    dut->clk_i = 1;
    dut->eval();
    if (fst) fst->dump(t++);
    if constexpr (kMem) dram.clock(req_fire, req, rsp_fire);
    if (in_fire) {
      ++next_in;
      offering = false;
    }
    ++cycle;
    if (ctx->gotError()) {
      res.report = "ASSERTION FAILED test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                   " cycle=" + std::to_string(cycle) + " (message above)\n";
      break;
    }
    const bool drained = next_in == inputs.size() && checker.count() >= expected.size() &&
                         (!kEop || eop_done >= tokens_in);
    if (drained && dut->idle_o && (!kMem || dram.outstanding() == 0)) {
      // A few more cycles: nothing further may come out.
      bool extra = false;
      dut->in_valid_i = 0;
      if constexpr (kMem) {
        dut->mem_rsp_valid_i = 0;
        dut->mem_req_ready_i = 0;
      }
      for (int i = 0; i < 16 && !extra; ++i) {
        if constexpr (kOut) dut->out_ready_i = 1;
        dut->clk_i = 0;
        dut->eval();
        if constexpr (kOut) {
          extra = dut->out_valid_o;
        } else {
          extra = dut->mem_req_valid_o;
        }
        if constexpr (kEop) extra = extra || dut->eop_done_valid_o;
        dut->clk_i = 1;
        dut->eval();
      }
      if (extra) {
        res.report = "EXTRA OUTPUT test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                     ": the unit produced more than the model's " +
                     std::to_string(expected.size()) + " packets\n";
      } else {
        res.ok = true;
      }
      break;
    }
    if (cycle - last_progress > cfg.stall_timeout) {
      res.report = "NO PROGRESS test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                   " cycle=" + std::to_string(cycle) + ": inputs taken " +
                   std::to_string(next_in) + "/" + std::to_string(inputs.size()) +
                   ", outputs " + std::to_string(checker.count()) + "/" +
                   std::to_string(expected.size()) + ", end-of-pipe completions " +
                   std::to_string(eop_done) + "/" + std::to_string(tokens_in) + "\n";
      break;
    }
  }
  if (res.ok && ctx->gotError()) {
    res.ok = false;
    res.report = "ASSERTION FAILED test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                 " after the last output (message above)\n";
  }
  if (res.ok) {
    std::string rep;
    if (!checker.finish(rep)) {
      res.ok = false;
      res.report = rep;
    }
  }
  res.cycles = cycle;
  res.outputs = checker.count();
  if (fst) fst->close();
  dut->final();
  return res;
}

}  // namespace pineda::tb
