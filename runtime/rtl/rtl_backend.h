// SPDX-License-Identifier: Apache-2.0
// The runtime over the Verilated RTL (tb::TopHarness driving pineda_top with the DRAM model).
// Built only into binaries that link build/vl/pineda_top (see mk/runtime.mk); the runtime library
// itself does not depend on Verilator.
#pragma once

#include <cstdint>
#include <memory>

#include "backend.h"

namespace pineda::tb {
class TopHarness;
struct TopConfig;
}  // namespace pineda::tb

namespace pineda::rt {

struct RtlBackendConfig {
  uint32_t latency = 200;          // DRAM latency in cycles
  uint32_t jitter = 0;             // random extra latency
  double throttle = 0.0;           // random stalls on every tapped boundary
  uint64_t seed = 1;
  uint64_t cycles_per_advance = 2000;
};

class RtlBackend : public RegisterBackend {
 public:
  explicit RtlBackend(const RtlBackendConfig& cfg = {});
  ~RtlBackend() override;
  const char* name() const override { return "rtl"; }
  Memory& memory() override { return mem_; }
  bool advance() override;
  uint32_t read_reg(uint32_t idx) override;
  void write_reg(uint32_t idx, uint32_t value) override;
  uint64_t cycles() const;

 private:
  RtlBackendConfig cfg_;
  Memory mem_;
  std::unique_ptr<tb::TopHarness> top_;
};

}  // namespace pineda::rt
