// SPDX-License-Identifier: Apache-2.0
// The memory a pixel-writer fill will read, as a harness predicts it (docs/verification.md
// "The colour cache"). With several rasterizers the harness feeds a model colour cache the quads
// in the order the RTL merged them; the model's fills must read memory as the RTL's fill will
// see it: memory overlaid with every line write the model cache has emitted since its last
// flush (the RTL cache lags the tap, so none of them may have reached memory yet). Cleared at
// each flush (PW takes no quad until it is clean; other writers only run then).
//
// Byte-exact: a line write enables bytes, not dwords. A B5G6R5 write-back may enable one
// halfword of a dword, its other halfword's wdata being 0 and not memory; keeping whole dwords
// made the model's fill read that 0 over a colour the target held (issue 16: om_b5g6r5 at 2
// and 4 rasterizers).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::tb {

class PwOverlay {
 public:
  // A line request the model cache emitted (reads are ignored).
  void write(const MemLineReq& r) {
    if (!r.we) return;
    const uint32_t base = static_cast<uint32_t>(r.addr) & ~63u;
    for (uint32_t k = 0; k < 16; ++k) {
      const uint32_t be = static_cast<uint32_t>(r.be >> (4 * k)) & 0xFu;
      if (be == 0) continue;
      Dword& d = dw_[base + 4 * k];
      const uint32_t m = byte_bits(be);
      d.value = (d.value & ~m) | (static_cast<uint32_t>(r.wdata[k].data) & m);
      d.bytes |= be;
    }
  }
  // The dword at byte address a (a multiple of 4) as the next fill reads it.
  uint32_t read(const Memory& mem, uint32_t a) const {
    const auto it = dw_.find(a);
    if (it == dw_.end()) return mem.read32(a);
    const uint32_t m = byte_bits(it->second.bytes);
    return (mem.read32(a) & ~m) | (it->second.value & m);
  }
  void clear() { dw_.clear(); }

 private:
  struct Dword {
    uint32_t value = 0;
    uint32_t bytes = 0;  // bit i: byte i was written
  };
  static uint32_t byte_bits(uint32_t be) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < 4; ++i) m |= ((be >> i) & 1u) ? 0xFFu << (8 * i) : 0u;
    return m;
  }
  std::unordered_map<uint32_t, Dword> dw_;
};

}  // namespace pineda::tb
