// SPDX-License-Identifier: Apache-2.0
// Input assembler (docs/contract.md section 5): vertex fetch and triangle-list assembly.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

class InputAssembler {
 public:
  void reset() { tri_id_ = 0; }

  // One TriPkt per 3 consecutive vertices (leftovers dropped), in order.
  std::vector<TriPkt> process(const DrawPkt& draw, const Memory& mem);
  void process(const DrawPkt& draw, const Memory& mem, const std::function<void(const TriPkt&)>& emit);

  // int32 16.8 coordinate saturated to the 24-bit range [-2^23, 2^23 - 1].
  static int64_t saturate(uint32_t raw);
  uint32_t next_tri_id() const { return tri_id_; }

 private:
  uint32_t tri_id_ = 0;
};

}  // namespace pineda::model
