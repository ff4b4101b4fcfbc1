// SPDX-License-Identifier: Apache-2.0
#include "command_writer.h"

#include <stdexcept>

namespace pineda {

uint32_t CommandWriter::header(uint32_t op, uint32_t arg, uint32_t len) {
  return ((op & 0xFFu) << CMD_OP_LSB) | ((arg & 0xFFFu) << CMD_ARG_LSB) | ((len & 0xFFFu) << CMD_LEN_LSB);
}

CommandWriter& CommandWriter::nop(uint32_t n) {
  if (n > 0xFFFu) throw std::invalid_argument("NOP payload longer than 4095 dwords");
  dw_.push_back(header(OP_NOP, 0, n));
  dw_.insert(dw_.end(), n, 0u);
  return *this;
}

CommandWriter& CommandWriter::nop(const std::vector<uint32_t>& payload) {
  if (payload.size() > 0xFFFu) throw std::invalid_argument("NOP payload longer than 4095 dwords");
  dw_.push_back(header(OP_NOP, 0, static_cast<uint32_t>(payload.size())));
  dw_.insert(dw_.end(), payload.begin(), payload.end());
  return *this;
}

CommandWriter& CommandWriter::set_state(uint32_t first, const std::vector<uint32_t>& values) {
  return set_state_range(first, values.data(), values.size());
}

CommandWriter& CommandWriter::set_state_range(uint32_t first, const uint32_t* values, size_t n) {
  if (first > 0xFFFu || n > 0xFFFu) throw std::invalid_argument("SET_STATE out of range");
  dw_.push_back(header(OP_SET_STATE, first, static_cast<uint32_t>(n)));
  dw_.insert(dw_.end(), values, values + n);
  return *this;
}

CommandWriter& CommandWriter::draw_fe(uint32_t flags, uint32_t first, uint32_t count, uint32_t base_vertex,
                                      uint32_t instance_count, uint32_t start_instance) {
  dw_.push_back(header(OP_DRAW_FE, flags, OP_DRAW_FE_LEN));
  dw_.insert(dw_.end(), {first, count, base_vertex, instance_count, start_instance});
  return *this;
}

CommandWriter& CommandWriter::draw(uint32_t first_vertex, uint32_t count) {
  dw_.push_back(header(OP_DRAW, 0, OP_DRAW_LEN));
  dw_.push_back(first_vertex);
  dw_.push_back(count);
  return *this;
}

CommandWriter& CommandWriter::write_reg(uint32_t fence, uint32_t value, bool eop) {
  if (fence >= NUM_FENCES) throw std::invalid_argument("fence index >= NUM_FENCES");
  const uint32_t arg = fence | (eop ? (1u << WRITE_REG_EOP_BIT) : 0u);
  dw_.push_back(header(OP_WRITE_REG, arg, OP_WRITE_REG_LEN));
  dw_.push_back(value);
  return *this;
}

CommandWriter& CommandWriter::wait_reg(uint32_t fence, uint32_t value, bool geq) {
  if (fence >= NUM_FENCES) throw std::invalid_argument("fence index >= NUM_FENCES");
  dw_.push_back(header(OP_WAIT_REG, fence | (geq ? (1u << WAIT_REG_GEQUAL_BIT) : 0u), OP_WAIT_REG_LEN));
  dw_.push_back(value);
  return *this;
}

CommandWriter& CommandWriter::jump(uint32_t ib_addr, uint32_t ib_dwords) {
  dw_.push_back(header(OP_JUMP, 0, OP_JUMP_LEN));
  dw_.push_back(ib_addr);
  dw_.push_back(ib_dwords);
  return *this;
}

CommandWriter& CommandWriter::call(uint32_t ib_addr, uint32_t ib_dwords) {
  dw_.push_back(header(OP_CALL, 0, OP_CALL_LEN));
  dw_.push_back(ib_addr);
  dw_.push_back(ib_dwords);
  return *this;
}

CommandWriter& CommandWriter::ret() {
  dw_.push_back(header(OP_RET, 0, OP_RET_LEN));
  return *this;
}

CommandWriter& CommandWriter::interrupt(uint32_t payload) {
  dw_.push_back(header(OP_INTERRUPT, 0, OP_INTERRUPT_LEN));
  dw_.push_back(payload);
  return *this;
}

CommandWriter& CommandWriter::copy(uint32_t src, uint32_t dst, uint32_t bytes) {
  dw_.push_back(header(OP_COPY, 0, OP_COPY_LEN));
  dw_.push_back(src);
  dw_.push_back(dst);
  dw_.push_back(bytes);
  return *this;
}

CommandWriter& CommandWriter::clear(uint32_t flags, uint32_t base, uint32_t pitch, bool msaa, uint32_t x0,
                                    uint32_t y0, uint32_t x1, uint32_t y1, uint32_t value) {
  dw_.push_back(header(OP_CLEAR, flags, OP_CLEAR_LEN));
  dw_.push_back(base);
  dw_.push_back((pitch & 0xFFFFu) | (uint32_t{msaa} << RT_MSAA_BIT));
  dw_.push_back((x0 & 0xFFFFu) | (x1 << 16));
  dw_.push_back((y0 & 0xFFFFu) | (y1 << 16));
  dw_.push_back(value);
  return *this;
}

CommandWriter& CommandWriter::resolve(uint32_t fmt, uint32_t src, uint32_t src_pitch, uint32_t dst, uint32_t dst_pitch,
                                      uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
  dw_.push_back(header(OP_RESOLVE, fmt, OP_RESOLVE_LEN));
  dw_.push_back(src);
  dw_.push_back(dst);
  dw_.push_back((src_pitch & 0xFFFFu) | (dst_pitch << 16));
  dw_.push_back((x0 & 0xFFFFu) | (x1 << 16));
  dw_.push_back((y0 & 0xFFFFu) | (y1 << 16));
  return *this;
}

CommandWriter& CommandWriter::end() {
  dw_.push_back(header(OP_END, 0, OP_END_LEN));
  return *this;
}

CommandWriter& CommandWriter::raw(uint32_t dword) {
  dw_.push_back(dword);
  return *this;
}

uint32_t place_ib(Memory& mem, uint32_t addr, const std::vector<uint32_t>& cmds) {
  for (size_t i = 0; i < cmds.size(); ++i) mem.write32(addr + static_cast<uint32_t>(4 * i), cmds[i]);
  return static_cast<uint32_t>(cmds.size());
}

std::vector<RegWrite> place_in_ring(Memory& mem, uint32_t ring_base, uint32_t ring_size,
                                    const std::vector<uint32_t>& cmds, uint32_t start_offset) {
  if ((ring_base & 3u) || (ring_size & 3u) || (start_offset & 3u) || ring_size == 0 || start_offset >= ring_size) {
    throw std::invalid_argument("place_in_ring: misaligned or out-of-range ring");
  }
  if (static_cast<uint64_t>(cmds.size()) * 4 >= ring_size) {
    throw std::invalid_argument("place_in_ring: command stream does not fit in the ring");
  }
  uint32_t off = start_offset;
  for (uint32_t d : cmds) {
    mem.write32(ring_base + off, d);
    off += 4;
    if (off == ring_size) off = 0;
  }
  return {{REG_RING_BASE, ring_base}, {REG_RING_SIZE, ring_size}, {REG_RING_WPTR, off}, {REG_CONTROL, 1u}};
}

}  // namespace pineda
