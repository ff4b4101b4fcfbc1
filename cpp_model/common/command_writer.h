// SPDX-License-Identifier: Apache-2.0
// Encodes commands (docs/contract.md section 4) and places a command stream in a ring.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda {

using RegWrite = std::pair<uint32_t, uint32_t>;  // (host register index, value)

class CommandWriter {
 public:
  static uint32_t header(uint32_t op, uint32_t arg, uint32_t len);

  CommandWriter& nop(uint32_t n = 0);  // NOP with n zero payload dwords
  CommandWriter& nop(const std::vector<uint32_t>& payload);  // NOP carrying data (a debug marker)
  CommandWriter& set_state(uint32_t first, const std::vector<uint32_t>& values);
  CommandWriter& set_state_range(uint32_t first, const uint32_t* values, size_t n);  // values[0, n)
  template <typename... Ts>
  CommandWriter& set_state(uint32_t first, uint32_t v0, Ts... rest) {
    static_assert((std::is_convertible_v<Ts, uint32_t> && ...), "state values are uint32_t");
    return set_state(first, std::vector<uint32_t>{v0, static_cast<uint32_t>(rest)...});
  }
  CommandWriter& draw(uint32_t first_vertex, uint32_t count);
  // DRAW_FE flags (header arg bits).
  static constexpr uint32_t FE_INDEXED = 1u << DRAW_FE_INDEXED_BIT, FE_INDEX32 = 1u << DRAW_FE_INDEX32_BIT,
                            FE_STRIP = 1u << DRAW_FE_STRIP_BIT, FE_RESTART = 1u << DRAW_FE_RESTART_BIT;
  // DRAW_FE: a front-end draw; flags FE_*; the index buffer is FE_IB_BASE/FE_IB_SIZE state.
  CommandWriter& draw_fe(uint32_t flags, uint32_t first, uint32_t count, uint32_t base_vertex = 0,
                         uint32_t instance_count = 1, uint32_t start_instance = 0);
  CommandWriter& write_reg(uint32_t fence, uint32_t value, bool eop);
  // WAIT_REG: block until fence[fence] == value (geq = false) or (int32)(fence - value) >= 0.
  CommandWriter& wait_reg(uint32_t fence, uint32_t value, bool geq);
  CommandWriter& jump(uint32_t ib_addr, uint32_t ib_dwords);
  CommandWriter& call(uint32_t ib_addr, uint32_t ib_dwords);
  CommandWriter& ret();
  CommandWriter& interrupt(uint32_t payload);
  CommandWriter& copy(uint32_t src, uint32_t dst, uint32_t bytes);
  // CLEAR: flags = CLEAR_* bits (arg), rectangle [x0, x1) x [y0, y1) in pixels, value.
  CommandWriter& clear(uint32_t flags, uint32_t base, uint32_t pitch, bool msaa, uint32_t x0, uint32_t y0,
                       uint32_t x1, uint32_t y1, uint32_t value);
  // RESOLVE (docs/om.md section 7): fmt = RT_FMT_*, the 4x source and the 1x destination with
  // their pitches, rectangle [x0, x1) x [y0, y1) in pixels.
  CommandWriter& resolve(uint32_t fmt, uint32_t src, uint32_t src_pitch, uint32_t dst, uint32_t dst_pitch,
                         uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);
  CommandWriter& end();
  CommandWriter& raw(uint32_t dword);  // any dword (e.g. a malformed header in a test)

  const std::vector<uint32_t>& dwords() const { return dw_; }
  uint32_t size_bytes() const { return static_cast<uint32_t>(dw_.size() * 4); }
  uint32_t size_dwords() const { return static_cast<uint32_t>(dw_.size()); }
  void clear() { dw_.clear(); }

 private:
  std::vector<uint32_t> dw_;
};

// Writes `cmds` into the ring [ring_base, ring_base + ring_size) starting at byte offset
// `start_offset` (wrapping at ring_size) and returns the host register writes that start it:
// RING_BASE, RING_SIZE, RING_WPTR, CONTROL = 1. The CP's RING_RPTR must already equal
// start_offset (it is 0 after reset). Throws std::invalid_argument when the stream does not fit
// (4 * cmds.size() must be < ring_size) or an argument is misaligned.
// Writes `cmds` at byte address `addr` (an indirect buffer); returns its length in dwords.
uint32_t place_ib(Memory& mem, uint32_t addr, const std::vector<uint32_t>& cmds);

std::vector<RegWrite> place_in_ring(Memory& mem, uint32_t ring_base, uint32_t ring_size,
                                    const std::vector<uint32_t>& cmds, uint32_t start_offset = 0);

}  // namespace pineda
