// Command processor: host register file (docs/contract.md section 3) and ring decoder (section 4).
// The model decodes one dword per step(), like the RTL decoder, so a command only partly covered
// by RING_WPTR is resumed when the host moves WPTR on; SET_STATE payload dwords take effect as
// they are decoded.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

// One WRITE_REG executed by the CP, in decode order.
struct FenceWrite {
  uint32_t index = 0;
  uint32_t value = 0;
  bool eop = false;
  uint32_t header_addr = 0;  // byte address of the WRITE_REG header
};

class CommandProcessor {
 public:
  explicit CommandProcessor(const Memory& mem);
  void reset();

  // Host register port (dword index). Unmapped and PERF registers read 0; writes to read-only
  // or unmapped registers are ignored.
  uint32_t reg_read(uint32_t idx) const;
  void reg_write(uint32_t idx, uint32_t value);
  bool irq() const { return (irq_status_ & irq_enable_) != 0; }

  // True when the CP would decode a dword now: ENABLE, not HALTED, no ERROR, RPTR != WPTR.
  bool can_decode() const;
  // Decodes one dword (nothing when !can_decode()); returns the draw packet a DRAW completes.
  std::optional<DrawPkt> step();
  // Decodes until a DRAW completes or the CP cannot decode (or max_dwords were decoded).
  std::optional<DrawPkt> next_draw(uint64_t max_dwords = ~uint64_t{0});

  uint32_t state(uint32_t idx) const { return state_.at(idx); }
  bool enabled() const { return (control_ & 1u) != 0; }
  bool halted() const { return halted_; }
  bool error() const { return error_; }
  bool mid_command() const { return in_cmd_; }
  uint32_t rptr() const { return rptr_; }
  uint64_t dwords_decoded() const { return dwords_decoded_; }
  const std::vector<FenceWrite>& fence_writes() const { return fence_log_; }

  // The draw packet for DRAW(first_vertex, count) under draw state `st` (contract section 4).
  static DrawPkt make_draw(const std::array<uint32_t, NUM_STATE>& st, uint32_t first_vertex, uint32_t count,
                           uint32_t draw_id);

 private:
  void raise_error(uint32_t cause, uint32_t header_addr);
  void advance_rptr();

  const Memory& mem_;
  // Host registers.
  uint32_t control_ = 0, ring_base_ = 0, ring_size_ = 0, wptr_ = 0, rptr_ = 0;
  uint32_t error_cause_ = ERR_NONE, error_addr_ = 0, irq_status_ = 0, irq_enable_ = 0;
  bool halted_ = false, error_ = false;
  std::array<uint32_t, NUM_FENCES> fence_{};
  std::array<uint32_t, NUM_STATE> state_{};
  // Decoder.
  bool in_cmd_ = false;
  uint32_t op_ = 0, arg_ = 0, len_ = 0, idx_ = 0, payload0_ = 0, header_addr_ = 0;
  uint32_t draw_id_ = 0;
  uint64_t dwords_decoded_ = 0;
  std::vector<FenceWrite> fence_log_;
};

}  // namespace pineda::model
