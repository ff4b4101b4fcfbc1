#include "cp/command_processor.h"

#include <algorithm>

namespace pineda::model {

CommandProcessor::CommandProcessor(const Memory& mem) : mem_(mem) { reset(); }

void CommandProcessor::reset() {
  control_ = ring_base_ = ring_size_ = wptr_ = rptr_ = 0;
  error_cause_ = ERR_NONE;
  error_addr_ = irq_status_ = irq_enable_ = 0;
  halted_ = error_ = false;
  fence_.fill(0);
  state_.fill(0);
  state_[ST_VB_BASE] = ST_VB_BASE_RESET;
  state_[ST_COLOR] = ST_COLOR_RESET;
  state_[ST_RT_BASE] = ST_RT_BASE_RESET;
  state_[ST_RT_PITCH] = ST_RT_PITCH_RESET;
  state_[ST_RT_SIZE] = ST_RT_SIZE_RESET;
  state_[ST_SCISSOR_X] = ST_SCISSOR_X_RESET;
  state_[ST_SCISSOR_Y] = ST_SCISSOR_Y_RESET;
  in_cmd_ = false;
  op_ = arg_ = len_ = idx_ = payload0_ = header_addr_ = 0;
  draw_id_ = 0;
  dwords_decoded_ = 0;
  fence_log_.clear();
}

uint32_t CommandProcessor::reg_read(uint32_t idx) const {
  switch (idx) {
    case REG_ID: return 0x50490000u | CONTRACT_VERSION;
    case REG_CONTROL: return control_;
    case REG_STATUS: {
      const bool running = enabled() && !halted_ && !error_;
      return (uint32_t{running} << STATUS_RUNNING) | (uint32_t{halted_} << STATUS_HALTED) |
             (uint32_t{error_} << STATUS_ERROR) | (0u << STATUS_PIPE_BUSY) |  // model: pipe always drained
             (uint32_t{rptr_ == wptr_} << STATUS_RING_EMPTY);
    }
    case REG_RING_BASE: return ring_base_;
    case REG_RING_SIZE: return ring_size_;
    case REG_RING_WPTR: return wptr_;
    case REG_RING_RPTR: return rptr_;
    case REG_ERROR_CAUSE: return error_cause_;
    case REG_ERROR_ADDR: return error_addr_;
    case REG_IRQ_STATUS: return irq_status_;
    case REG_IRQ_ENABLE: return irq_enable_;
    default: break;
  }
  if (idx >= REG_FENCE0 && idx < REG_FENCE0 + NUM_FENCES) return fence_[idx - REG_FENCE0];
  return 0;  // unmapped; PERF counters are timing and read 0 in the model
}

void CommandProcessor::reg_write(uint32_t idx, uint32_t value) {
  constexpr uint32_t irq_bits = (1u << IRQ_END) | (1u << IRQ_ERROR);
  switch (idx) {
    case REG_CONTROL:
      control_ = value & 1u;
      halted_ = false;
      return;
    case REG_RING_BASE: ring_base_ = value; return;
    case REG_RING_SIZE: ring_size_ = value; return;
    case REG_RING_WPTR: wptr_ = value; return;
    case REG_IRQ_STATUS: irq_status_ &= ~value; return;
    case REG_IRQ_ENABLE: irq_enable_ = value & irq_bits; return;
    default: break;
  }
  if (idx >= REG_FENCE0 && idx < REG_FENCE0 + NUM_FENCES) fence_[idx - REG_FENCE0] = value;
}

bool CommandProcessor::can_decode() const { return enabled() && !halted_ && !error_ && rptr_ != wptr_; }

void CommandProcessor::advance_rptr() {
  rptr_ += 4;
  if (rptr_ == ring_size_) rptr_ = 0;
  ++dwords_decoded_;
}

void CommandProcessor::raise_error(uint32_t cause, uint32_t header_addr) {
  error_ = true;
  error_cause_ = cause;
  error_addr_ = header_addr;
  irq_status_ |= 1u << IRQ_ERROR;
}

DrawPkt CommandProcessor::make_draw(const std::array<uint32_t, NUM_STATE>& st, uint32_t first_vertex,
                                    uint32_t count, uint32_t draw_id) {
  DrawPkt d;
  d.vb_base = st[ST_VB_BASE];
  d.first_vertex = first_vertex;
  d.vertex_count = count;
  d.color = st[ST_COLOR];
  d.target.base = st[ST_RT_BASE];
  d.target.pitch = st[ST_RT_PITCH] & 0xFFFFu;
  const uint32_t w = std::min<uint32_t>(st[ST_RT_SIZE] & 0xFFFFu, MAX_RT_DIM);
  const uint32_t h = std::min<uint32_t>(st[ST_RT_SIZE] >> 16, MAX_RT_DIM);
  d.clip.x0 = std::min<uint32_t>(st[ST_SCISSOR_X] & 0xFFFFu, w);
  d.clip.x1 = std::min<uint32_t>(st[ST_SCISSOR_X] >> 16, w);
  d.clip.y0 = std::min<uint32_t>(st[ST_SCISSOR_Y] & 0xFFFFu, h);
  d.clip.y1 = std::min<uint32_t>(st[ST_SCISSOR_Y] >> 16, h);
  d.draw_id = draw_id & 0xFFFFu;
  return d;
}

std::optional<DrawPkt> CommandProcessor::step() {
  if (!can_decode()) return std::nullopt;
  const uint32_t addr = ring_base_ + rptr_;
  const uint32_t dw = mem_.read32(addr);
  const uint32_t rptr_at_dword = rptr_;
  advance_rptr();

  if (!in_cmd_) {
    const uint32_t op = dw >> CMD_OP_LSB;
    const uint32_t arg = (dw >> CMD_ARG_LSB) & 0xFFFu;
    const uint32_t len = (dw >> CMD_LEN_LSB) & 0xFFFu;
    const auto fail = [&](uint32_t cause) {
      rptr_ = rptr_at_dword;  // the CP stops at the failing command: RPTR stays on its header
      raise_error(cause, addr);
      return std::optional<DrawPkt>{};
    };
    // Header checks, in this order: opcode, len, arg.
    switch (op) {
      case OP_NOP: break;
      case OP_SET_STATE:
        if (arg + len > NUM_STATE) return fail(ERR_BAD_ARG);
        break;
      case OP_DRAW:
        if (len != 2) return fail(ERR_BAD_LEN);
        break;
      case OP_WRITE_REG:
        if (len != 1) return fail(ERR_BAD_LEN);
        if (((arg >> 4) & 0x7Fu) != 0) return fail(ERR_BAD_ARG);
        break;
      case OP_END:
        if (len != 0) return fail(ERR_BAD_LEN);
        halted_ = true;
        irq_status_ |= 1u << IRQ_END;
        return std::nullopt;
      default: return fail(ERR_BAD_OPCODE);
    }
    if (len == 0) return std::nullopt;  // NOP / SET_STATE without payload: done
    in_cmd_ = true;
    op_ = op;
    arg_ = arg;
    len_ = len;
    idx_ = 0;
    header_addr_ = addr;
    return std::nullopt;
  }

  // Payload dword idx_ of the current command.
  const uint32_t i = idx_++;
  const bool last = idx_ == len_;
  if (last) in_cmd_ = false;
  switch (op_) {
    case OP_SET_STATE: state_[arg_ + i] = dw; break;
    case OP_DRAW:
      if (i == 0) {
        payload0_ = dw;
      } else {
        const DrawPkt d = make_draw(state_, payload0_, dw, draw_id_);
        draw_id_ = (draw_id_ + 1) & 0xFFFFu;
        return d;
      }
      break;
    case OP_WRITE_REG: {
      // In the model every earlier draw has already completed, so TOP and EOP behave alike.
      const uint32_t f = arg_ & 0xFu;
      fence_[f] = dw;
      fence_log_.push_back({f, dw, ((arg_ >> WRITE_REG_EOP_BIT) & 1u) != 0, header_addr_});
      break;
    }
    default: break;  // NOP payload
  }
  return std::nullopt;
}

std::optional<DrawPkt> CommandProcessor::next_draw(uint64_t max_dwords) {
  for (uint64_t n = 0; n < max_dwords && can_decode(); ++n) {
    if (auto d = step()) return d;
  }
  return std::nullopt;
}

}  // namespace pineda::model
