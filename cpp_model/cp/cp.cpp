// SPDX-License-Identifier: Apache-2.0
#include "cp/cp.h"

#include <algorithm>

namespace pineda::model {

namespace {
constexpr uint32_t kIrqBits = (1u << IRQ_END) | (1u << IRQ_ERROR) | (1u << IRQ_INTERRUPT) | (1u << IRQ_TEX_FAULT);
constexpr uint32_t kControlBits = (1u << CONTROL_ENABLE) | (1u << CONTROL_NO_FAST_CLEAR);  // CP_RESET is a strobe, reads 0
}  // namespace

CommandProcessor::CommandProcessor(const Memory& mem) : mem_(mem) { reset(); }

void CommandProcessor::reset() {
  control_ = ring_base_ = ring_size_ = wptr_ = rptr_ = 0;
  error_cause_ = ERR_NONE;
  error_addr_ = irq_status_ = irq_enable_ = 0;
  int_payload_ = valid_base_ = watchdog_ = 0;
  valid_limit_ = VALID_LIMIT_RESET;
  halted_ = error_ = false;
  fence_.fill(0);
  std::copy_n(STATE_RESET.begin(), state_.size(), state_.begin());
  in_ib_ = false;
  ib_addr_ = ib_rem_ = sp_ = 0;
  in_cmd_ = false;
  op_ = arg_ = len_ = idx_ = header_addr_ = header_rptr_ = 0;
  payload_.fill(0);
  wait_ = wait_geq_ = false;
  wait_idx_ = wait_val_ = 0;
  pending_copy_.reset();
  pending_clear_.reset();
  pending_resolve_.reset();
  pending_hiz_forget_ = false;
  hzb_valid_ = false;
  hzb_lo_ = hzb_end_ = 0;
  pending_fe_.reset();
  path_fe_ = false;
  ib_base_ = ib_size_ = 0;
  draw_id_ = 0;
  dwords_decoded_ = 0;
  fence_log_.clear();
  copy_log_.clear();
  clear_log_.clear();
  resolve_log_.clear();
  hiz_log_.clear();
  pending_eop_.clear();
}

// CONTROL.CP_RESET: abort the command being decoded (and any wait), forget the return stack,
// clear ERROR and HALTED and skip everything submitted so far (RPTR := WPTR). Draw state,
// fences, ERROR_CAUSE/ERROR_ADDR, IRQ_STATUS and draw ids are kept, and so are the end-of-pipe
// WRITE_REGs in flight: their tokens are already in the pipeline and complete as usual.
void CommandProcessor::cp_reset() {
  in_cmd_ = false;
  wait_ = false;
  in_ib_ = false;
  sp_ = 0;
  error_ = false;
  halted_ = false;
  rptr_ = wptr_;
  pending_copy_.reset();
  pending_clear_.reset();
  pending_resolve_.reset();
}

uint32_t CommandProcessor::reg_read(uint32_t idx) const {
  switch (idx) {
    case REG_ID: return ID_VALUE;
    case REG_CONTROL: return control_;
    case REG_STATUS: {
      const bool running = enabled() && !halted_ && !error_;
      return (uint32_t{running} << STATUS_RUNNING) | (uint32_t{halted_} << STATUS_HALTED) |
             (uint32_t{error_} << STATUS_ERROR) | (uint32_t{!pending_eop_.empty()} << STATUS_PIPE_BUSY) |
             (uint32_t{rptr_ == wptr_} << STATUS_RING_EMPTY) | (uint32_t{wait_} << STATUS_WAITING) |
             (uint32_t{in_ib_} << STATUS_IN_IB) | (0u << STATUS_COPYING) |  // model: copies are instant
             (((irq_status_ >> IRQ_TEX_FAULT) & 1u) << STATUS_TEX_FAULT);  // sticky until IRQ_STATUS W1C
    }
    case REG_RING_BASE: return ring_base_;
    case REG_RING_SIZE: return ring_size_;
    case REG_RING_WPTR: return wptr_;
    case REG_RING_RPTR: return rptr_;
    case REG_ERROR_CAUSE: return error_cause_;
    case REG_ERROR_ADDR: return error_addr_;
    case REG_IRQ_STATUS: return irq_status_;
    case REG_IRQ_ENABLE: return irq_enable_;
    case REG_INT_PAYLOAD: return int_payload_;
    case REG_VALID_BASE: return valid_base_;
    case REG_VALID_LIMIT: return valid_limit_;
    case REG_WATCHDOG: return watchdog_;
    case REG_IB_DEPTH: return sp_;
    default: break;
  }
  if (idx >= REG_FENCE0 && idx < REG_FENCE0 + NUM_FENCES) return fence_[idx - REG_FENCE0];
  return 0;  // unmapped; PERF counters are timing and read 0 in the model
}

void CommandProcessor::reg_write(uint32_t idx, uint32_t value) {
  switch (idx) {
    case REG_CONTROL:
      control_ = value & kControlBits;
      halted_ = false;
      if ((value >> CONTROL_CP_RESET) & 1u) cp_reset();
      return;
    case REG_RING_BASE: ring_base_ = value; return;
    case REG_RING_SIZE: ring_size_ = value; return;
    case REG_RING_WPTR: wptr_ = value; return;
    case REG_IRQ_STATUS: irq_status_ &= ~value; return;
    case REG_IRQ_ENABLE: irq_enable_ = value & kIrqBits; return;
    case REG_VALID_BASE: valid_base_ = value; return;
    case REG_VALID_LIMIT: valid_limit_ = value; return;
    case REG_WATCHDOG: watchdog_ = value; return;
    default: break;
  }
  if (idx >= REG_FENCE0 && idx < REG_FENCE0 + NUM_FENCES) fence_[idx - REG_FENCE0] = value;
}

bool CommandProcessor::range_ok(uint32_t addr, uint64_t bytes) const {
  if (bytes == 0) return true;
  return addr >= valid_base_ && uint64_t{addr} + bytes - 1 <= uint64_t{valid_limit_};
}

bool CommandProcessor::wait_cond() const {
  const uint32_t f = fence_[wait_idx_];
  return wait_geq_ ? static_cast<int32_t>(f - wait_val_) >= 0 : f == wait_val_;
}

bool CommandProcessor::blocked_on_wait() const {
  return enabled() && !halted_ && !error_ && wait_ && !wait_cond();
}

bool CommandProcessor::fence_blocked() const {
  if (!in_cmd_ || op_ != OP_WRITE_REG) return false;
  if ((arg_ >> WRITE_REG_EOP_BIT) & 1u) return pending_eop_.size() >= EOP_QUEUE_DEPTH;
  // A top-of-pipe write waits for the end-of-pipe writes in flight to the same register, so
  // that the writes to one register land in decode order.
  const uint32_t f = arg_ & 0xFu;
  return std::any_of(pending_eop_.begin(), pending_eop_.end(), [f](const FenceWrite& w) { return w.index == f; });
}

bool CommandProcessor::can_decode() const {
  if (!enabled() || halted_ || error_) return false;
  if (wait_) return wait_cond();
  if (fence_blocked()) return false;
  return in_ib_ || rptr_ != wptr_;
}

bool CommandProcessor::eop_complete() {
  if (pending_eop_.empty()) return false;
  const FenceWrite w = pending_eop_.front();
  pending_eop_.pop_front();
  fence_[w.index] = w.value;
  fence_log_.push_back(w);
  return true;
}

bool CommandProcessor::expire_wait() {
  if (!blocked_on_wait() || watchdog_ == 0) return false;
  wait_ = false;
  fail_at_header(ERR_WAIT_TIMEOUT);
  return true;
}

void CommandProcessor::advance() {
  if (in_ib_) {
    ib_addr_ += 4;
    --ib_rem_;
  } else {
    rptr_ += 4;
    if (rptr_ == ring_size_) rptr_ = 0;
  }
  ++dwords_decoded_;
}

void CommandProcessor::raise_error(uint32_t cause, uint32_t header_addr) {
  error_ = true;
  error_cause_ = cause;
  error_addr_ = header_addr;
  irq_status_ |= 1u << IRQ_ERROR;
}

void CommandProcessor::fail_at_header(uint32_t cause) {
  in_cmd_ = false;
  rptr_ = header_rptr_;  // unchanged when the command is in an IB
  raise_error(cause, header_addr_);
}

void CommandProcessor::do_return() {
  if (sp_ > 0) {
    const RetEntry& e = stack_[--sp_];
    in_ib_ = !e.ring;
    ib_addr_ = e.addr;
    ib_rem_ = e.rem;
  } else {
    in_ib_ = false;  // an IB entered by JUMP from the ring returns to the ring
  }
}

DrawPkt CommandProcessor::make_draw(const std::array<uint32_t, NUM_STATE>& st, uint32_t first_vertex,
                                    uint32_t count, uint32_t draw_id) {
  DrawPkt d;
  d.vb_base = st[ST_VB_BASE];
  d.first_vertex = first_vertex;
  d.vertex_count = count;
  d.color = st[ST_COLOR];
  d.target.base = st[ST_RT_BASE];
  d.target.pitch = bits::field(st[ST_RT_PITCH], RT_PITCH_MSB, RT_PITCH_LSB);
  d.target.msaa = bits::field(st[ST_RT_PITCH], RT_MSAA_BIT, RT_MSAA_BIT);  // 4x MSAA
  const uint32_t w = std::min<uint32_t>(bits::field(st[ST_RT_SIZE], RT_WIDTH_MSB, RT_WIDTH_LSB), MAX_RT_DIM);
  const uint32_t h = std::min<uint32_t>(bits::field(st[ST_RT_SIZE], RT_HEIGHT_MSB, RT_HEIGHT_LSB), MAX_RT_DIM);
  d.clip.x0 = std::min<uint32_t>(st[ST_SCISSOR_X] & 0xFFFFu, w);
  d.clip.x1 = std::min<uint32_t>(st[ST_SCISSOR_X] >> 16, w);
  d.clip.y0 = std::min<uint32_t>(st[ST_SCISSOR_Y] & 0xFFFFu, h);
  d.clip.y1 = std::min<uint32_t>(st[ST_SCISSOR_Y] >> 16, h);
  d.draw_id = draw_id & 0xFFFFu;
  return d;
}

std::optional<CopyJob> CommandProcessor::take_copy() {
  auto c = pending_copy_;
  pending_copy_.reset();
  return c;
}

std::optional<ClearPkt> CommandProcessor::take_clear() {
  auto c = pending_clear_;
  pending_clear_.reset();
  return c;
}

bool CommandProcessor::take_hiz_forget() {
  const bool f = pending_hiz_forget_;
  pending_hiz_forget_ = false;
  return f;
}

// A COPY, colour clear or RESOLVE writes [first, end): when that meets the last depth clear's
// buffer, HIZ forgets it first (the RTL's hiz_clear_o with hiz_forget, payload = the clear_o of
// the moment, recorded for the CP unit test), once per buffer.
void CommandProcessor::hiz_forget_if(uint64_t first, uint64_t end, const ClearPkt& payload) {
  if (!hzb_valid_ || first >= hzb_end_ || end <= hzb_lo_) return;
  pending_hiz_forget_ = true;
  hzb_valid_ = false;
  ClearPkt f = payload;
  f.hiz_forget = 1;
  hiz_log_.push_back(f);
}

std::optional<ResolvePkt> CommandProcessor::take_resolve() {
  auto r = pending_resolve_;
  pending_resolve_.reset();
  return r;
}

uint32_t CommandProcessor::resolve_check(uint32_t arg, const std::array<uint32_t, 5>& p, uint32_t valid_base,
                                         uint32_t valid_limit, ResolvePkt* out) {
  const uint32_t fmt = bits::field(arg, RESOLVE_FMT_MSB, RESOLVE_FMT_LSB);
  const uint64_t src = p[0], dst = p[1], sp = p[2] & 0xFFFFu, dp = p[2] >> 16;
  const uint64_t x0 = p[3] & 0xFFFFu, x1 = p[3] >> 16, y0 = p[4] & 0xFFFFu, y1 = p[4] >> 16;
  if (x0 >= x1 || y0 >= y1 || x1 > MAX_RT_DIM || y1 > MAX_RT_DIM) return ERR_BAD_ARG;
  const uint64_t sbpp = fmt == RT_FMT_B5G6R5 ? 8 : 16, dbpp = sbpp / 4;
  if (src % sbpp != 0 || sp % sbpp != 0 || dst % 4 != 0 || dp % 4 != 0) return ERR_BAD_ADDR;
  const uint64_t s_first = src + y0 * sp + x0 * sbpp, s_end = src + (y1 - 1) * sp + x1 * sbpp;
  const uint64_t d_first = dst + y0 * dp + x0 * dbpp, d_end = dst + (y1 - 1) * dp + x1 * dbpp;
  if (s_first < valid_base || s_end - 1 > valid_limit || d_first < valid_base || d_end - 1 > valid_limit) {
    return ERR_BAD_ADDR;
  }
  if (s_first < d_end && d_first < s_end) return ERR_BAD_ARG;
  if (out) {
    *out = ResolvePkt{};
    out->fmt = fmt;
    out->src = src;
    out->dst = dst;
    out->src_pitch = sp;
    out->dst_pitch = dp;
    out->rect.x0 = x0;
    out->rect.x1 = x1;
    out->rect.y0 = y0;
    out->rect.y1 = y1;
  }
  return ERR_NONE;
}

bool CommandProcessor::clear_arg_ok(uint32_t arg) {
  const uint32_t f = arg & 7u;
  return (arg >> 3) == 0 && (f == (1u << CLEAR_COLOR_BIT) || (f != 0 && ((f >> CLEAR_COLOR_BIT) & 1u) == 0));
}

ClearPkt CommandProcessor::make_clear(uint32_t arg, const std::array<uint32_t, 5>& p) {
  ClearPkt c;
  c.color = (arg >> CLEAR_COLOR_BIT) & 1u;
  c.depth = (arg >> CLEAR_DEPTH_BIT) & 1u;
  c.stencil = (arg >> CLEAR_STENCIL_BIT) & 1u;
  c.target.base = p[0];
  c.target.pitch = bits::field(p[1], RT_PITCH_MSB, RT_PITCH_LSB);
  c.target.msaa = bits::field(p[1], RT_MSAA_BIT, RT_MSAA_BIT);
  c.rect.x0 = std::min<uint32_t>(p[2] & 0xFFFFu, MAX_RT_DIM);
  c.rect.x1 = std::min<uint32_t>(p[2] >> 16, MAX_RT_DIM);
  c.rect.y0 = std::min<uint32_t>(p[3] & 0xFFFFu, MAX_RT_DIM);
  c.rect.y1 = std::min<uint32_t>(p[3] >> 16, MAX_RT_DIM);
  c.value = p[4];
  return c;
}

std::optional<IDrawPkt> CommandProcessor::take_fe() {
  auto p = pending_fe_;
  pending_fe_.reset();
  return p;
}

std::optional<DrawPkt> CommandProcessor::step() {
  if (!can_decode()) return std::nullopt;
  if (wait_) {  // the compare holds: decoding goes on
    wait_ = false;
    return std::nullopt;
  }
  if (!in_cmd_) {
    if (in_ib_ && ib_rem_ == 0) {  // the IB ran out of dwords: return
      do_return();
      return std::nullopt;
    }
    if (!in_ib_ && !range_ok(ring_base_, ring_size_)) {  // nothing is fetched from a bad ring
      raise_error(ERR_BAD_ADDR, ring_base_ + rptr_);
      return std::nullopt;
    }
  }
  const uint32_t addr = in_ib_ ? ib_addr_ : ring_base_ + rptr_;
  const uint32_t rem_at_dword = ib_rem_;
  const uint32_t dw = mem_.read32(addr);
  const uint32_t rptr_at_dword = rptr_;
  const uint32_t ib_addr_at_dword = ib_addr_;
  advance();

  if (!in_cmd_) {
    const uint32_t op = bits::field(dw, CMD_OP_MSB, CMD_OP_LSB);
    const uint32_t arg = bits::field(dw, CMD_ARG_MSB, CMD_ARG_LSB);
    const uint32_t len = bits::field(dw, CMD_LEN_MSB, CMD_LEN_LSB);
    const auto fail = [&](uint32_t cause) {
      // The CP stops at the failing command: the position stays on its header.
      rptr_ = rptr_at_dword;
      ib_addr_ = ib_addr_at_dword;
      ib_rem_ = rem_at_dword;
      raise_error(cause, addr);
      return std::optional<DrawPkt>{};
    };
    // Header checks, in this order: opcode, len (including "fits in the IB"), arg, stack.
    uint32_t cause = ERR_NONE;
    const bool fence_arg_bad = ((arg >> 4) & 0x7Fu) != 0;
    switch (op) {
      case OP_NOP: break;
      case OP_SET_STATE:
        if (arg + len > FE_STATE_END) cause = ERR_BAD_ARG;
        break;
      case OP_DRAW_FE: cause = len != OP_DRAW_FE_LEN ? ERR_BAD_LEN : (arg >> 4) != 0 ? ERR_BAD_ARG : ERR_NONE; break;
      case OP_DRAW: cause = len != OP_DRAW_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_WRITE_REG: cause = len != OP_WRITE_REG_LEN ? ERR_BAD_LEN : fence_arg_bad ? ERR_BAD_ARG : ERR_NONE; break;
      case OP_WAIT_REG: cause = len != OP_WAIT_REG_LEN ? ERR_BAD_LEN : fence_arg_bad ? ERR_BAD_ARG : ERR_NONE; break;
      case OP_JUMP: cause = len != OP_JUMP_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_CALL: cause = len != OP_CALL_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_RET: cause = len != OP_RET_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_END: cause = len != OP_END_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_INTERRUPT: cause = len != OP_INTERRUPT_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_COPY: cause = len != OP_COPY_LEN ? ERR_BAD_LEN : ERR_NONE; break;
      case OP_CLEAR: cause = len != OP_CLEAR_LEN ? ERR_BAD_LEN : !clear_arg_ok(arg) ? ERR_BAD_CLEAR : ERR_NONE; break;
      case OP_RESOLVE: cause = len != OP_RESOLVE_LEN ? ERR_BAD_LEN : (arg >> 2) != 0 ? ERR_BAD_ARG : ERR_NONE; break;
      default: cause = ERR_BAD_OPCODE; break;
    }
    if (cause != ERR_BAD_OPCODE && cause != ERR_BAD_LEN && in_ib_ && len + 1 > rem_at_dword) {
      cause = ERR_BAD_LEN;  // the command does not fit in what is left of the IB
    }
    if (cause == ERR_NONE && op == OP_CALL && sp_ == RET_STACK_DEPTH) cause = ERR_STACK_OVERFLOW;
    if (cause == ERR_NONE && op == OP_RET && !in_ib_) cause = ERR_STACK_UNDERFLOW;
    if (cause != ERR_NONE) return fail(cause);

    if (op == OP_END) {
      halted_ = true;
      irq_status_ |= 1u << IRQ_END;
      return std::nullopt;
    }
    if (op == OP_RET) {
      do_return();
      return std::nullopt;
    }
    if (len == 0) return std::nullopt;  // NOP / SET_STATE without payload: done
    in_cmd_ = true;
    op_ = op;
    arg_ = arg;
    len_ = len;
    idx_ = 0;
    header_addr_ = addr;
    header_rptr_ = rptr_at_dword;
    return std::nullopt;
  }

  // Payload dword idx_ of the current command.
  const uint32_t i = idx_++;
  const bool last = idx_ == len_;
  if (i < payload_.size()) payload_[i] = dw;
  if (last) in_cmd_ = false;
  switch (op_) {
    case OP_SET_STATE: {
      const uint32_t idx = arg_ + i;
      if (idx < NUM_STATE) {
        state_[idx] = dw;
        break;
      }
      if (idx == FE_IB_BASE) ib_base_ = dw;
      if (idx == FE_IB_SIZE) ib_size_ = dw;
      IDrawPkt w;
      w.wr = 1;
      w.wr_idx = idx;
      w.wr_val = dw;
      pending_fe_ = w;
      break;
    }
    case OP_DRAW_FE:
      if (last) {
        IDrawPkt d;
        d.indexed = (arg_ >> DRAW_FE_INDEXED_BIT) & 1u;
        d.index32 = (arg_ >> DRAW_FE_INDEX32_BIT) & 1u;
        d.strip = (arg_ >> DRAW_FE_STRIP_BIT) & 1u;
        d.restart = (arg_ >> DRAW_FE_RESTART_BIT) & 1u;
        d.ib_base = ib_base_;
        d.ib_size = ib_size_;
        d.first = payload_[0];
        d.count = payload_[1];
        d.base_vertex = payload_[2];
        d.instance_count = payload_[3];
        d.start_instance = dw;
        d.draw_id = draw_id_;
        draw_id_ = (draw_id_ + 1) & 0xFFFFu;
        path_fe_ = true;
        pending_fe_ = d;
      }
      break;
    case OP_DRAW:
      if (last) {
        const DrawPkt d = make_draw(state_, payload_[0], dw, draw_id_);
        draw_id_ = (draw_id_ + 1) & 0xFFFFu;
        path_fe_ = false;
        return d;
      }
      break;
    case OP_WRITE_REG: {
      const uint32_t f = bits::field(arg_, FENCE_IDX_MSB, FENCE_IDX_LSB);
      const FenceWrite w{f, dw, ((arg_ >> WRITE_REG_EOP_BIT) & 1u) != 0, header_addr_};
      if (w.eop) {  // queued; the token goes down the pipe and eop_complete() writes the fence
        pending_eop_.push_back(w);
        if (path_fe_) {
          IDrawPkt token;
          token.eop = 1;
          pending_fe_ = token;
          break;
        }
        DrawPkt token;
        token.eop = 1;
        return token;
      }
      fence_[f] = dw;
      fence_log_.push_back(w);
      break;
    }
    case OP_WAIT_REG:
      wait_ = true;
      wait_idx_ = bits::field(arg_, FENCE_IDX_MSB, FENCE_IDX_LSB);
      wait_val_ = dw;
      wait_geq_ = ((arg_ >> WAIT_REG_GEQUAL_BIT) & 1u) != 0;
      break;
    case OP_JUMP:
    case OP_CALL:
      if (last) {
        const uint32_t target = payload_[0], ndw = dw;
        if ((target & 3u) != 0 || !range_ok(target, uint64_t{ndw} * 4)) {
          fail_at_header(ERR_BAD_ADDR);
          break;
        }
        if (op_ == OP_CALL) stack_[sp_++] = RetEntry{!in_ib_, ib_addr_, ib_rem_};
        in_ib_ = true;
        ib_addr_ = target;
        ib_rem_ = ndw;
      }
      break;
    case OP_INTERRUPT:
      int_payload_ = dw;
      irq_status_ |= 1u << IRQ_INTERRUPT;
      break;
    case OP_COPY:
      if (last) {
        const uint32_t src = payload_[0], dst = payload_[1], n = dw;
        if (!range_ok(src, n) || !range_ok(dst, n)) {
          fail_at_header(ERR_BAD_ADDR);
        } else if (n != 0 && uint64_t{src} < uint64_t{dst} + n && uint64_t{dst} < uint64_t{src} + n) {
          fail_at_header(ERR_BAD_ARG);
        } else {
          pending_copy_ = CopyJob{src, dst, n, header_addr_};
          copy_log_.push_back(*pending_copy_);
          if (n != 0) hiz_forget_if(dst, uint64_t{dst} + n, ClearPkt{});
        }
      }
      break;
    case OP_CLEAR:
      if (last) {
        const ClearPkt c = make_clear(arg_, payload_);
        if (c.rect.x0 >= c.rect.x1 || c.rect.y0 >= c.rect.y1) break;  // empty: nothing to do
        // Bytes from the first sample of the first row to the last of the last row.
        const uint64_t bpp = c.target.msaa ? 16 : 4;
        const uint64_t first = c.target.base + c.rect.y0 * c.target.pitch + c.rect.x0 * bpp;
        const uint64_t end = c.target.base + (c.rect.y1 - 1) * c.target.pitch + c.rect.x1 * bpp;
        if ((c.target.base & 3u) != 0 || (c.target.pitch & 3u) != 0 || first < valid_base_ ||
            end - 1 > uint64_t{valid_limit_}) {
          fail_at_header(ERR_BAD_ADDR);
        } else {
          pending_clear_ = c;
          clear_log_.push_back(c);
          if (c.depth) {  // HIZ takes it first; it names the Hi-Z buffer
            hiz_log_.push_back(c);
            hzb_valid_ = true;
            hzb_lo_ = c.target.base;
            hzb_end_ = c.target.base + uint64_t{HIZ_BUF_ROWS} * c.target.pitch;
          } else {
            hiz_forget_if(first, end, c);
          }
        }
      }
      break;
    case OP_RESOLVE:
      if (last) {
        ResolvePkt r;
        const uint32_t cause = resolve_check(arg_, payload_, valid_base_, valid_limit_, &r);
        if (cause != ERR_NONE) {
          fail_at_header(cause);
        } else {
          pending_resolve_ = r;
          resolve_log_.push_back(r);
          const uint64_t px = r.fmt == RT_FMT_B5G6R5 ? 2 : 4;  // destination bytes per pixel
          hiz_forget_if(uint64_t{r.dst} + uint64_t{r.rect.y0} * r.dst_pitch + r.rect.x0 * px,
                        uint64_t{r.dst} + uint64_t{r.rect.y1 - 1} * r.dst_pitch + r.rect.x1 * px, ClearPkt{});
        }
      }
      break;
    default: break;  // NOP payload
  }
  return std::nullopt;
}

}  // namespace pineda::model
