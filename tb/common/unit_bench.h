// SPDX-License-Identifier: Apache-2.0
// RTL-vs-model bench for one unit with an input stream, an output stream and, optionally, a
// line memory client port (docs/contract.md §2.1, served by LineDram). Ports follow the project convention: in_valid_i/in_ready_o/in_i,
// out_valid_o/out_ready_i/out_o, the bundled line port mem_o/mem_i (mem_port_req_t/mem_port_rsp_t), idle_o.
//
// The bench offers the inputs with random gaps (valid low with probability `in_gap`), accepts
// outputs with random back-pressure (ready low with probability `out_stall`), compares every
// output packet with the model's expected stream, checks the unit returns to idle, and reports
// "no progress" instead of hanging. Set PINEDA_FST=<file> to dump a waveform (vl_driver.h).
// A unit with an end-of-pipe completion port (eop_done_valid_o/eop_done_ready_i: the pixel
// writer) gets random back-pressure there too; every completion must come with no memory write
// outstanding, and there must be one per end-of-pipe token in the input.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "line_dram.h"
#include "vl_driver.h"

namespace pineda::tb {

struct UnitBenchConfig {
  uint64_t seed = 1;
  double in_gap = 0.3;     // chance per cycle that the source withholds its next packet
  double out_stall = 0.3;  // chance per cycle that the sink is not ready
  uint64_t stall_timeout = 50'000;
  LineDramConfig line_dram{};  // a unit with a memory port (mem_line_req_t): LineDram
  std::string test = "unit";
};

struct UnitBenchResult {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
  size_t outputs = 0;
};

// A unit bench's driver: its run named in reports by the test, the seed and the command that
// replays it with a waveform (PINEDA_FST=unit.fst <binary> --rng-seed <seed>).
inline DriverConfig unit_driver_config(const std::string& test, uint64_t seed, const std::string& binary,
                                       uint64_t stall_timeout) {
  DriverConfig d;
  d.run = {test, seed, "PINEDA_FST=unit.fst " + binary + " --rng-seed " + std::to_string(seed)};
  d.stall_timeout = stall_timeout;
  return d;
}

// A unit bench's LineDram: its jitter follows the test's seed.
inline LineDramConfig unit_dram_config(LineDramConfig dc, uint64_t seed) {
  dc.seed = seed * 31 + 7;
  return dc;
}

template <class V>
auto has_mem_port(int) -> decltype(std::declval<V&>().mem_o, std::true_type{});
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

// Every memory port is a bundled line port: mem_o must hold a mem_port_req_t.
template <class V>
constexpr bool is_line_port() {
  if constexpr (decltype(has_mem_port<V>(0))::value) {
    return sizeof(std::declval<V&>().mem_o) * 8 >= static_cast<size_t>(MemPortReq::WIDTH);
  } else {
    return true;
  }
}

// Before reset: the inputs of a unit's input stream, and of its output stream, end-of-pipe
// completion and memory ports where it has them, idle.
template <class V>
void idle_ports(V& dut) {
  dut.in_valid_i = 0;
  if constexpr (decltype(has_out_port<V>(0))::value) dut.out_ready_i = 0;
  if constexpr (decltype(has_eop_port<V>(0))::value) dut.eop_done_ready_i = 0;
  if constexpr (decltype(has_mem_port<V>(0))::value) pack_sig(MemPortRsp{}, dut.mem_i);
}

// The clock edge of a bench whose unit has a line port: the unit and the LineDram step together.
// False, with the assertion report in `report`, when an assertion failed.
template <class V>
bool edge_with_dram(VlDriver<V>& drv, LineDram& dram, bool req_fire, const MemLineReq& req, bool rsp_fire,
                    std::string& report) {
  drv.edge();
  dram.clock(req_fire, req, rsp_fire);
  if (!drv.failed()) return true;
  report = drv.assertion_report();
  return false;
}

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
  static_assert(is_line_port<V>(), "a unit's memory port must be a bundled line port (mem_port_req_t)");
  UnitBenchResult res;
  VlDriver<V> drv(unit_driver_config(cfg.test, cfg.seed, "<this test>", cfg.stall_timeout));
  V& dut = drv.dut();
  Memory dummy;
  LineDram dram(mem ? *mem : dummy, unit_dram_config(cfg.line_dram, cfg.seed));
  StreamSource<InPkt> src(inputs, cfg.in_gap);
  StreamSink<OutPkt> sink(out_name, expected, drv.run(), cfg.out_stall);

  idle_ports(dut);
  drv.reset();

  while (true) {
    src.drive(drv.rng(), dut.in_valid_i, dut.in_i);
    const bool sink_ready = sink.ready(drv.rng());
    if constexpr (kOut) dut.out_ready_i = sink_ready;
    MemPortRsp mem_in;
    if constexpr (kMem) {
      mem_in.req_ready = dram.req_ready() && (kOut || sink_ready);
      mem_in.rsp_valid = dram.rsp_valid();
      mem_in.rsp = dram.rsp();
      pack_sig(mem_in, dut.mem_i);
    }
    if constexpr (kEop) dut.eop_done_ready_i = !chance(drv.rng(), cfg.out_stall);
    drv.eval_low();

    const bool in_fire = src.fire(dut.in_ready_o);
    bool out_fire = false, req_fire = false, rsp_fire = false;
    MemLineReq req;
    if constexpr (kMem) {
      const MemPortReq mem_out = unpack_sig<MemPortReq>(dut.mem_o);
      req_fire = mem_out.valid && mem_in.req_ready;
      rsp_fire = mem_in.rsp_valid && mem_out.rsp_ready;
      req = mem_out.req;
    }
    std::string rep;
    bool bad = false;
    if constexpr (kOut) {
      bad = !sink.take(dut.out_valid_o, dut.out_ready_i, dut.out_o, drv.cycle(), rep, &out_fire);
    } else {
      VlWide<(MemLineReq::WIDTH + 31) / 32> req_sig;
      pack_sig(req, req_sig);
      bad = !sink.take(req_fire, true, req_sig, drv.cycle(), rep);
    }
    bool eop_fire = false;
    if constexpr (kEop) {
      eop_fire = dut.eop_done_valid_o && dut.eop_done_ready_i;
      if (eop_fire) {
        ++eop_done;
        if (dram.outstanding() != 0 && !bad) {
          bad = true;
          rep = drv.head("EOP ORDER") + ": end-of-pipe completion #" + std::to_string(eop_done - 1) +
                " with " + std::to_string(dram.outstanding()) + " memory writes not yet acknowledged\n";
        }
      }
    }
    if (in_fire || out_fire || req_fire || rsp_fire || eop_fire) drv.progress();
    if (bad) {
      res.report = rep;
      break;
    }
    drv.edge();
    if constexpr (kMem) dram.clock(req_fire, req, rsp_fire);
    if (drv.failed()) {
      res.report = drv.assertion_report();
      break;
    }
    const bool drained = src.done() && sink.done() && (!kEop || eop_done >= tokens_in);
    if (drained && dut.idle_o && (!kMem || dram.outstanding() == 0)) {
      // A few more cycles (not counted): nothing further may come out.
      const bool extra = drv.more_after_end(
          16,
          [&] {
            dut.in_valid_i = 0;
            if constexpr (kMem) pack_sig(MemPortRsp{}, dut.mem_i);
            if constexpr (kOut) dut.out_ready_i = 1;
          },
          [&] {
            bool more = false;
            if constexpr (kOut) {
              more = dut.out_valid_o;
            } else {
              more = unpack_sig<MemPortReq>(dut.mem_o).valid;
            }
            if constexpr (kEop) more = more || dut.eop_done_valid_o;
            return more;
          });
      if (extra) {
        res.report = "EXTRA OUTPUT test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                     ": the unit produced more than the model's " + std::to_string(expected.size()) +
                     " packets\n";
      } else {
        res.ok = true;
      }
      break;
    }
    if (drv.stalled()) {
      res.report = drv.no_progress_report(src.progress("inputs taken") + ", " + sink.progress("outputs") +
                                          ", end-of-pipe completions " + std::to_string(eop_done) + "/" +
                                          std::to_string(tokens_in));
      break;
    }
  }
  if (res.ok && drv.failed()) {
    res.ok = false;
    res.report = "ASSERTION FAILED test=" + cfg.test + " seed=" + std::to_string(cfg.seed) +
                 " after the last output (message above)\n";
  }
  if (res.ok) {
    std::string rep;
    if (!sink.finish(rep)) {
      res.ok = false;
      res.report = rep;
    }
  }
  res.cycles = drv.cycle();
  res.outputs = sink.count();
  return res;
}

}  // namespace pineda::tb
