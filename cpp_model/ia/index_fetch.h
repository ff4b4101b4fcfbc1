// SPDX-License-Identifier: Apache-2.0
// Index fetch (docs/frontend.md section 2): turns an IDrawPkt into the index positions of each
// instance, reading 16- or 32-bit indices from the index buffer with a bounds check (a position
// at or beyond ib_size reads as 0 and touches no memory), adding base_vertex, and marking strip
// cuts. Non-indexed draws produce first + k. An end-of-pipe token becomes one IndexPkt token, a
// front-end state write (wr = 1) one IndexPkt write with the same wr_idx / wr_val (every other
// field 0), in order with the index packets of the draws around it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

class IndexFetch {
 public:
  void process(const IDrawPkt& d, const Memory& mem, const std::function<void(const IndexPkt&)>& emit);
  std::vector<IndexPkt> process(const IDrawPkt& d, const Memory& mem);

  // Positions [first, first + in_bounds) of a draw lie inside the index buffer.
  static uint64_t in_bounds(const IDrawPkt& d);
  // The index value at position pos (pos < first + in_bounds(d)): the 16- or 32-bit value at
  // ib_base + pos * size (mod 2^32; the address's low bits below the index size are ignored).
  static uint32_t read_value(const IDrawPkt& d, const Memory& mem, uint64_t pos);

  uint64_t indices() const { return indices_; }
  uint64_t out_of_bounds() const { return oob_; }
  uint64_t cuts() const { return cuts_; }
  void reset_counters() { indices_ = oob_ = cuts_ = 0; }

 private:
  uint64_t indices_ = 0, oob_ = 0, cuts_ = 0;
};

}  // namespace pineda::model
