// SPDX-License-Identifier: Apache-2.0
// Cycle-level DRAM model behind the memory port (docs/contract.md §2).
//
// Storage is the golden model's Memory, so the harness and the model share one definition of
// memory contents. Requests are accepted subject to an outstanding limit and a bandwidth (in
// requests per cycle); each response becomes valid `latency` cycles after its request was
// accepted (plus a random 0..jitter in random-latency mode) and responses leave in request
// order, one per cycle. Writes update memory at acceptance; their acknowledgement travels like a
// read response.
#pragma once

#include <cstdint>
#include <deque>
#include <random>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::tb {

struct DramConfig {
  uint32_t latency = 200;           // cycles from acceptance to response
  double bandwidth = 1.0;           // requests accepted per cycle (<= 1)
  uint32_t max_outstanding = 256;   // accepted requests not yet answered
  uint32_t jitter = 0;              // random-latency mode: extra 0..jitter cycles per request
  uint64_t seed = 1;
};

class DramModel {
 public:
  DramModel(Memory& mem, const DramConfig& cfg);

  // Inputs to drive into the DUT for the current cycle.
  bool req_ready() const;
  bool rsp_valid() const;
  const MemRsp& rsp() const;

  // Advance one clock. `req_fire` / `rsp_fire` are the handshakes of this cycle.
  void clock(bool req_fire, const MemReq& req, bool rsp_fire);

  uint64_t outstanding() const { return pending_.size(); }
  uint64_t outstanding_writes() const { return outstanding_writes_; }
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t cycle() const { return cycle_; }

 private:
  struct Pending {
    uint64_t ready_at;
    MemRsp rsp;
  };
  Memory& mem_;
  DramConfig cfg_;
  std::mt19937_64 rng_;
  std::deque<Pending> pending_;
  uint64_t cycle_ = 0;
  uint64_t last_ready_at_ = 0;
  double tokens_ = 1.0;
  uint64_t outstanding_writes_ = 0;
  uint64_t reads_ = 0;
  uint64_t writes_ = 0;
};

}  // namespace pineda::tb
