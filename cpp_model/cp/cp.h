// SPDX-License-Identifier: Apache-2.0
// Command processor: host register file (docs/contract.md section 3) and command decoder
// (section 4). The model decodes one dword per step(), like the RTL decoder, so a
// command only partly covered by RING_WPTR is resumed when the host moves WPTR on; SET_STATE
// payload dwords take effect as they are decoded.
//
// Execution position: the ring (RING_BASE + RING_RPTR) or an indirect buffer (IB: byte address
// and dwords left). CALL pushes the return position on a RET_STACK_DEPTH-entry return stack;
// RET, or an IB running out of dwords, pops it (an empty stack returns to the ring).
// WAIT_REG blocks decoding until its compare holds: blocked_on_wait() is then true and step()
// does nothing; the host releases it with reg_write() (any register, e.g. a fence), or
// expire_wait() plays the watchdog running out (the model has no time).
// WRITE_REG at the end of pipe (arg[11]) queues the fence write (at most EOP_QUEUE_DEPTH in
// flight) and returns an end-of-pipe token (a DrawPkt with eop = 1) from step(); whoever runs
// the pipeline sends it after the earlier draws and calls eop_complete() when it comes out of the
// pixel writer with every earlier write done, which writes the oldest queued fence. A top-of-pipe
// WRITE_REG to a register with an end-of-pipe write in flight waits for it (fence_blocked()).
// SET_STATE indices [NUM_STATE, FE_STATE_END) are front-end state: each dword becomes an
// IDrawPkt state write (wr = 1) for the geometry front end, and DRAW_FE an IDrawPkt draw; both
// are returned by take_fe() after the step() that decoded them. An end-of-pipe token goes down
// the path of the last draw (DRAW: step()'s DrawPkt; DRAW_FE: take_fe()'s IDrawPkt). The RTL
// switches path only once the other path has drained, so the model's sequential order is the
// RTL's order at SETUP.
// COPY is handed to the DMA: the completed copy is returned by take_copy() (the PinedaTop runs it
// before decoding on; in the model all earlier work has completed at that point).
// CLEAR (docs/depth.md section 5): the header's arg must be CLEAR_COLOR alone or a non-empty
// subset of CLEAR_DEPTH | CLEAR_STENCIL (else ERR_BAD_CLEAR); at the last payload dword the
// rectangle is clamped to MAX_RT_DIM (an empty one makes the CLEAR a no-op), the target's base
// and pitch must be dword aligned and the bytes from the rectangle's first sample to its last
// inside [VALID_BASE, VALID_LIMIT] (else ERR_BAD_ADDR, RPTR back on the header). The ClearPkt is
// returned by take_clear(); clear_to_zs() says whether it goes to ZS's fast clear (a depth or
// stencil clear, ZS offers fast clear, CONTROL.NO_FAST_CLEAR is 0 and the target's base and pitch
// are multiples of 64) or to the DMA fill.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "dma/dma.h"
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
  // A TEX fault (docs/tex.md section 6): sets IRQ_STATUS.IRQ_TEX_FAULT, which STATUS.TEX_FAULT
  // mirrors (sticky until the host clears the IRQ bit); non-fatal, decoding goes on.
  void tex_fault() { irq_status_ |= 1u << IRQ_TEX_FAULT; }
  uint32_t valid_base() const { return valid_base_; }
  uint32_t valid_limit() const { return valid_limit_; }

  // True when step() would make progress: ENABLE, not HALTED, no ERROR, not blocked on a
  // WAIT_REG, and a dword to decode (in an IB, or RPTR != WPTR in the ring) or an IB end/a
  // satisfied wait to act on.
  bool can_decode() const;
  // Decodes one dword (or acts on an IB end / a satisfied wait); returns the packet a DRAW
  // or an end-of-pipe WRITE_REG on the IA path (token, eop = 1) completes. A front-end packet
  // it decoded is taken with take_fe() before the next step().
  std::optional<DrawPkt> step();
  // The COPY decoded by the last step(), if any (to be executed before decoding on).
  std::optional<CopyJob> take_copy();
  // The CLEAR decoded by the last step(), if any (executed like a COPY, before decoding on).
  std::optional<ClearPkt> take_clear();
  // The Hi-Z forget the last step() decided (a COPY, colour clear or RESOLVE whose destination
  // meets the last depth clear's buffer, docs/depth.md section 6): taken before its job runs.
  bool take_hiz_forget();
  // Every packet the CP sent on the HIZ port (depth clears and forgets), in order.
  const std::vector<ClearPkt>& hiz_packets() const { return hiz_log_; }
  // ZS offers depth/stencil fast clear (the RTL's zs_fast_clear_i); PinedaTop sets it (pineda_top ties it to 1).
  void set_zs_fast_clear(bool on) { zs_fast_clear_ = on; }
  bool clear_to_zs(const ClearPkt& c) const {
    return c.color == 0 && zs_fast_clear_ && ((control_ >> CONTROL_NO_FAST_CLEAR) & 1u) == 0 &&
           (c.target.base & 63u) == 0 && (c.target.pitch & 63u) == 0;  // whole-line-aligned targets
  }
  // The CLEAR header's arg is valid: CLEAR_COLOR alone or a non-empty depth/stencil subset.
  static bool clear_arg_ok(uint32_t arg);
  // The CLEAR payload as a ClearPkt with the rectangle clamped (flags from arg).
  static ClearPkt make_clear(uint32_t arg, const std::array<uint32_t, 5>& payload);
  // The RESOLVE decoded by the last step(), if any (executed like a COPY, before decoding on).
  std::optional<ResolvePkt> take_resolve();
  // The RESOLVE checks (docs/om.md section 7), in this order: empty rectangle or x1, y1 >
  // MAX_RT_DIM (ERR_BAD_ARG); src or src pitch not a multiple of the 4x pixel (16 bytes, 8 for
  // B5G6R5), dst or dst pitch not dword aligned (ERR_BAD_ADDR); a span (first sample of the first
  // row to the last of the last row) outside [base, limit] (ERR_BAD_ADDR); overlapping spans
  // (ERR_BAD_ARG). Returns ERR_NONE and the packet in *out when it passes. arg is the header's
  // (checked: arg < 4).
  static uint32_t resolve_check(uint32_t arg, const std::array<uint32_t, 5>& payload, uint32_t valid_base,
                                uint32_t valid_limit, ResolvePkt* out);
  // The front-end packet (state write, DRAW_FE draw or token) decoded by the last step(), if any.
  std::optional<IDrawPkt> take_fe();
  bool fe_path() const { return path_fe_; }  // the last draw was a DRAW_FE

  // Blocked on a WAIT_REG whose compare does not hold (and decoding is otherwise allowed).
  bool blocked_on_wait() const;
  // The WRITE_REG being decoded must wait for an end-of-pipe completion (queue full, or a
  // top-of-pipe write to a register with an end-of-pipe write in flight).
  bool fence_blocked() const;
  // The oldest end-of-pipe token has left the pipeline: its fence is written. False when none
  // is in flight.
  bool eop_complete();
  size_t eop_in_flight() const { return pending_eop_.size(); }
  // The watchdog runs out on a blocked wait: ERR_WAIT_TIMEOUT when WATCHDOG != 0. Returns true
  // when it raised the error.
  bool expire_wait();

  uint32_t state(uint32_t idx) const { return state_.at(idx); }
  bool enabled() const { return (control_ & 1u) != 0; }
  bool halted() const { return halted_; }
  bool error() const { return error_; }
  bool mid_command() const { return in_cmd_; }
  bool in_ib() const { return in_ib_; }
  uint32_t rptr() const { return rptr_; }
  uint64_t dwords_decoded() const { return dwords_decoded_; }
  // Fence writes in the order they land (end-of-pipe ones at completion).
  const std::vector<FenceWrite>& fence_writes() const { return fence_log_; }
  const std::vector<CopyJob>& copies() const { return copy_log_; }
  const std::vector<ClearPkt>& clears() const { return clear_log_; }
  const std::vector<ResolvePkt>& resolves() const { return resolve_log_; }

  // The draw packet for DRAW(first_vertex, count) under draw state `st` (contract section 4).
  static DrawPkt make_draw(const std::array<uint32_t, NUM_STATE>& st, uint32_t first_vertex, uint32_t count,
                           uint32_t draw_id);
  // [addr, addr + bytes) lies inside [VALID_BASE, VALID_LIMIT] (always true for bytes == 0).
  bool range_ok(uint32_t addr, uint64_t bytes) const;

 private:
  struct RetEntry {
    bool ring = true;
    uint32_t addr = 0, rem = 0;
  };
  void raise_error(uint32_t cause, uint32_t header_addr);
  void fail_at_header(uint32_t cause);  // payload-time error: RPTR back on the header
  void advance();
  void do_return();
  void cp_reset();
  bool wait_cond() const;

  const Memory& mem_;
  // Host registers.
  uint32_t control_ = 0, ring_base_ = 0, ring_size_ = 0, wptr_ = 0, rptr_ = 0;
  uint32_t error_cause_ = ERR_NONE, error_addr_ = 0, irq_status_ = 0, irq_enable_ = 0;
  uint32_t int_payload_ = 0, valid_base_ = 0, valid_limit_ = VALID_LIMIT_RESET, watchdog_ = 0;
  bool halted_ = false, error_ = false;
  std::array<uint32_t, NUM_FENCES> fence_{};
  std::array<uint32_t, NUM_STATE> state_{};
  // Position and return stack.
  bool in_ib_ = false;
  uint32_t ib_addr_ = 0, ib_rem_ = 0;
  std::array<RetEntry, RET_STACK_DEPTH> stack_{};
  uint32_t sp_ = 0;
  // Decoder.
  bool in_cmd_ = false;
  uint32_t op_ = 0, arg_ = 0, len_ = 0, idx_ = 0, header_addr_ = 0, header_rptr_ = 0;
  std::array<uint32_t, 5> payload_{};
  bool wait_ = false;
  uint32_t wait_idx_ = 0, wait_val_ = 0;
  bool wait_geq_ = false;
  std::optional<CopyJob> pending_copy_;
  std::optional<ClearPkt> pending_clear_;
  std::optional<ResolvePkt> pending_resolve_;
  bool zs_fast_clear_ = false;
  std::optional<IDrawPkt> pending_fe_;
  bool path_fe_ = false;
  uint32_t ib_base_ = 0, ib_size_ = 0;  // FE_IB_BASE, FE_IB_SIZE
  uint32_t draw_id_ = 0;
  uint64_t dwords_decoded_ = 0;
  std::vector<FenceWrite> fence_log_;
  std::deque<FenceWrite> pending_eop_;
  std::vector<CopyJob> copy_log_;
  std::vector<ClearPkt> hiz_log_;
  // The last depth clear's buffer, [hzb_lo_, hzb_end_) (HIZ_BUF_ROWS rows), until a forget.
  bool hzb_valid_ = false;
  uint64_t hzb_lo_ = 0, hzb_end_ = 0;
  bool pending_hiz_forget_ = false;
  void hiz_forget_if(uint64_t first, uint64_t end, const ClearPkt& payload);
  std::vector<ClearPkt> clear_log_;
  std::vector<ResolvePkt> resolve_log_;
};

}  // namespace pineda::model
