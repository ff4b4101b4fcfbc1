// SPDX-License-Identifier: Apache-2.0
// Cycle-level DRAM model behind the line-wide memory port (docs/contract.md §2.1).
//
// Storage is the golden model's Memory, so the harness and the model share one definition of
// memory contents. Every request moves one aligned LINE_BYTES line and costs LINE_BYTES of the
// peak bandwidth (`bytes_per_clock`, a token bucket refilled every clock) whatever its byte
// enables. Requests are accepted while fewer than `max_outstanding` are unanswered and a whole
// line of tokens is available; each response becomes valid `latency` cycles after acceptance
// (plus 0..jitter in random-latency mode) and responses leave in request order, at most one per
// clock. A write updates memory when it is accepted; its acknowledgement travels like a read.
// Requests and bytes are counted per client (`src`).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::tb {

struct LineDramConfig {
  double bytes_per_clock = 32.0;   // peak bandwidth (LINE_BYTES per request)
  uint32_t latency = 200;          // cycles from acceptance to response
  uint32_t jitter = 0;             // random-latency mode: extra 0..jitter cycles per request
  uint32_t max_outstanding = 256;  // accepted requests not yet answered
  uint64_t seed = 1;
};

struct LineDramClientStats {
  uint64_t reads = 0;          // read requests accepted
  uint64_t writes = 0;         // write requests accepted
  uint64_t bytes_read = 0;     // LINE_BYTES per read
  uint64_t bytes_written = 0;  // LINE_BYTES per write (whatever the byte enables)
  uint64_t bytes_enabled = 0;  // byte enables set over all writes (useful bytes written)
};

struct LineDramStats {
  std::array<LineDramClientStats, MEM_LINE_CLIENTS_MAX> client{};
  uint64_t cycles = 0;         // clocks simulated
  uint64_t busy_cycles = 0;    // clocks in which a request was accepted
  uint64_t total_bytes() const;
};

class LineDram {
 public:
  LineDram(Memory& mem, const LineDramConfig& cfg);

  // Inputs to drive into the DUT for the current cycle.
  bool req_ready() const;
  bool rsp_valid() const;
  const MemLineRsp& rsp() const;

  // Advance one clock. `req_fire` / `rsp_fire` are the handshakes of this cycle.
  void clock(bool req_fire, const MemLineReq& req, bool rsp_fire);

  const LineDramConfig& config() const { return cfg_; }
  const LineDramStats& stats() const { return stats_; }
  uint64_t outstanding() const { return pending_.size(); }
  uint64_t outstanding_writes() const { return outstanding_writes_; }
  uint64_t cycle() const { return stats_.cycles; }

 private:
  struct Pending {
    uint64_t ready_at;
    MemLineRsp rsp;
  };
  Memory& mem_;
  LineDramConfig cfg_;
  std::mt19937_64 rng_;
  std::deque<Pending> pending_;
  uint64_t last_ready_at_ = 0;
  double tokens_;
  uint64_t outstanding_writes_ = 0;
  LineDramStats stats_;
};

}  // namespace pineda::tb
