// SPDX-License-Identifier: Apache-2.0
// DMA copy engine (rtl/dma/dma.sv): COPY src -> dst, `len` bytes, any alignment
// (docs/contract.md §4, COPY). The CP only issues a copy whose source and destination ranges
// do not overlap and lie inside the valid address window, so copying byte by byte in increasing
// address order gives the same memory as the RTL, which streams source dwords ahead of its
// byte writes.
#pragma once

#include <cstdint>

#include "mem/memory.h"

namespace pineda::model {

struct CopyJob {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint32_t len = 0;  // bytes
  uint32_t header_addr = 0;  // byte address of the COPY header
};

class Dma {
 public:
  void copy(const CopyJob& job, Memory& mem);
  uint64_t bytes_copied() const { return bytes_; }
  void reset_counters() { bytes_ = 0; }

 private:
  uint64_t bytes_ = 0;
};

}  // namespace pineda::model
