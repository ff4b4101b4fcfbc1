// SPDX-License-Identifier: Apache-2.0
#include "rtl_backend.h"

#include "pineda_contract.h"
#include "top_harness.h"

namespace pineda::rt {

RtlBackend::RtlBackend(const RtlBackendConfig& cfg) : cfg_(cfg) {
  tb::TopConfig tc;
  tc.dram.latency = cfg.latency;
  tc.dram.jitter = cfg.jitter;
  tc.throttle = cfg.throttle;
  tc.seed = cfg.seed;
  top_ = std::make_unique<tb::TopHarness>(mem_, tc, tb::RunId{"runtime", cfg.seed, ""});
}

RtlBackend::~RtlBackend() = default;

// Clocks the design for a slice of cycles with the register port idle.
bool RtlBackend::advance() {
  top_->step(cfg_.cycles_per_advance);
  return true;
}

uint32_t RtlBackend::read_reg(uint32_t idx) { return top_->reg_read(idx); }

void RtlBackend::write_reg(uint32_t idx, uint32_t value) { top_->reg_write(idx, value); }

uint64_t RtlBackend::cycles() const { return top_->cycle(); }

}  // namespace pineda::rt
