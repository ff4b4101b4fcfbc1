// Pixel writer (docs/contract.md section 5, numerics.md section 6): one write per covered pixel.
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
  std::vector<MemReq> process(const CovPkt& c);
  void process(const CovPkt& c, const std::function<void(const MemReq&)>& emit);
  // Applies one request to memory as the memory port does (addr[1:0] ignored, be honoured).
  static void apply(const MemReq& r, Memory& mem);

  uint64_t pixels_written() const { return pixels_; }
  void reset_counters() { pixels_ = 0; }

 private:
  uint64_t pixels_ = 0;
};

}  // namespace pineda::model
