// SPDX-License-Identifier: Apache-2.0
// What the benches of the two job engines on the line port share (tb/dma/test_dma.cpp: copies and
// fills, tb/dma/test_resolve.cpp: MSAA resolves): the memory of a round, the check of a line write
// against the model's next one, and the check of the memory afterwards.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "line_dram.h"
#include "vl_driver.h"

namespace pineda::tb {

// The driver of a job engine's bench: the run named by the unit, the seed and the command that
// replays it.
inline DriverConfig job_driver_config(const std::string& unit, uint64_t seed) {
  DriverConfig d;
  d.run = {unit, seed, "build/tests/rtl_" + unit + " --rng-seed " + std::to_string(seed)};
  return d;
}

// A round's memory: DRAM latency, random extra latency, bandwidth (bytes/clock), requests
// outstanding, and the chance per cycle that the memory withholds req_ready.
struct MemRound {
  uint32_t latency, jitter;
  double bw, stall;
  uint32_t max_out;
  const char* name = "";
};

// The rounds both engines run under.
inline constexpr MemRound kMemRounds[] = {
    {200, 0, 32.0, 0.0, 256, "latency 200"},                                 // the default memory
    {50, 0, 8.0, 0.3, 256, "latency 50, 8 B/clk, stall 0.3"},                // a quarter of the bandwidth, back-pressure
    {200, 300, 20.0, 0.1, 256, "latency 200 + 0..300, 20 B/clk, stall 0.1"},  // random latency, reduced bandwidth
    {1, 0, 64.0, 0.0, 256, "latency 1, 64 B/clk"},                           // the shortest latency, a line per clock
    {30, 40, 32.0, 0.5, 3, "3 outstanding, stall 0.5"},                      // few requests outstanding, heavy back-pressure
};

// The DRAM model of a round (its seed is set per run).
inline LineDramConfig round_dram(const MemRound& rd) {
  LineDramConfig d;
  d.latency = rd.latency;
  d.jitter = rd.jitter;
  d.bytes_per_clock = rd.bw;
  d.max_outstanding = rd.max_out;
  return d;
}

// Write `got` of a job against the model's lines `want`: on a write beyond them, or of another
// line or other byte enables, `err` says so. The model's line, if there is one (for the data).
inline const MemLineReq* expect_line_write(const MemLineReq& req, const std::vector<MemLineReq>& want, size_t got,
                                           std::string& err) {
  if (got >= want.size()) {
    err = "more line writes than the model's " + std::to_string(want.size());
    return nullptr;
  }
  const MemLineReq& w = want[got];
  if (req.addr != w.addr || req.be != w.be) {
    err = "write " + std::to_string(got) + ": line " + bits::hex(static_cast<uint32_t>(req.addr)) + " be " +
          bits::hex(req.be) + ", model line " + bits::hex(static_cast<uint32_t>(w.addr)) + " be " + bits::hex(w.be);
  }
  return &w;
}

// The end of a cycle of a job bench. A failed assertion or an error ends the run, the error naming
// the job (job(): its description) and the cycle; so does the engine idle after the last job
// (last_idle), when every write must be acknowledged and incomplete() (what the last job has not
// written yet; empty when it is complete) must be empty. true: the run is over.
template <class Driver, class JobDesc, class Incomplete>
bool job_cycle_end(Driver& drv, const LineDram& dram, std::string& err, const JobDesc& job, bool last_idle,
                   const Incomplete& incomplete) {
  if (drv.failed()) err = drv.assertion_report();
  if (!err.empty()) {
    err += " (" + job() + ", cycle " + std::to_string(drv.cycle()) + ")";
    return true;
  }
  if (!last_idle) return false;
  if (dram.outstanding_writes() != 0) err = "idle with writes unacknowledged";
  const std::string left = incomplete();
  if (!left.empty()) err = left;
  return true;
}

// The memory after a run is the model's, byte for byte.
inline void check_memory(const Memory& want, const Memory& got) {
  const auto d = want.first_difference(got);
  INFO("first difference at " << (d ? bits::hex(*d) : std::string("-")));
  CHECK_FALSE(d.has_value());
}

}  // namespace pineda::tb
