// SPDX-License-Identifier: Apache-2.0
#include "dma/dma.h"

namespace pineda::model {

void Dma::copy(const CopyJob& job, Memory& mem) {
  for (uint32_t i = 0; i < job.len; ++i) mem.write8(job.dst + i, mem.read8(job.src + i));
  bytes_ += job.len;
}

uint32_t Dma::fill_dword_mask(const ClearPkt& c) {
  if (c.color || (c.depth && c.stencil)) return 0xFu;
  return c.depth ? 0x7u : c.stencil ? 0x8u : 0x0u;
}

void Dma::fill_lines(const ClearPkt& c, const std::function<void(const MemLineReq&)>& emit,
                     const std::function<void()>& on_line) {
  if (c.rect.x0 >= c.rect.x1 || c.rect.y0 >= c.rect.y1) return;
  const uint64_t shift = c.target.msaa ? 4 : 2;
  uint64_t dmask = 0;
  for (uint32_t d = 0; d < LINE_DWORDS; ++d) dmask |= uint64_t{fill_dword_mask(c)} << (4 * d);
  uint64_t s = c.target.base + c.rect.y0 * c.target.pitch + (c.rect.x0 << shift);
  const uint64_t row_bytes = (c.rect.x1 - c.rect.x0) << shift;
  for (uint64_t y = c.rect.y0; y < c.rect.y1; ++y, s += c.target.pitch) {
    const uint64_t e = s + row_bytes;
    for (uint64_t l = s & ~uint64_t{LINE_BYTES - 1}; l < e; l += LINE_BYTES) {
      if (on_line) on_line();
      uint64_t be = ~uint64_t{0};
      if (l < s) be &= ~uint64_t{0} << (s - l);
      if (e - l < LINE_BYTES) be &= ~(~uint64_t{0} << (e - l));
      MemLineReq r;
      r.we = 1;
      r.addr = static_cast<uint32_t>(l);
      for (uint32_t d = 0; d < LINE_DWORDS; ++d) r.wdata[d].data = c.value;
      r.be = be & dmask;
      emit(r);
    }
  }
}

void Dma::fill(const ClearPkt& c, Memory& mem, const std::function<void()>& on_line) {
  const auto write = [&](const MemLineReq& r) {
    for (uint32_t b = 0; b < LINE_BYTES; ++b) {
      if (!((r.be >> b) & 1u)) continue;
      mem.write8(static_cast<uint32_t>(r.addr) + b, static_cast<uint8_t>(r.wdata[b / 4].data >> (8 * (b % 4))));
      ++fill_bytes_;
    }
    ++fill_lines_;
  };
  fill_lines(c, write, on_line);
}

}  // namespace pineda::model
