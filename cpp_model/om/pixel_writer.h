// SPDX-License-Identifier: Apache-2.0
// Pixel writer (docs/contract.md section 5, numerics.md section 6): one write per covered
// pixel (1x) or sample (4x MSAA) of a quad.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

class PixelWriter {
 public:
  // Writes for the set mask bits, lowest bit first.
  std::vector<MemReq> process(const QuadPkt& q);
  void process(const QuadPkt& q, const std::function<void(const MemReq&)>& emit);
  // Applies one request to memory as the memory port does (addr[1:0] ignored, be honoured).
  static void apply(const MemReq& r, Memory& mem);

  uint64_t pixels_written() const { return pixels_; }  // writes (pixels at 1x, samples at 4x)
  void reset_counters() { pixels_ = 0; }

 private:
  uint64_t pixels_ = 0;
};

}  // namespace pineda::model
