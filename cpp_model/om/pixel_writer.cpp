// SPDX-License-Identifier: Apache-2.0
#include "om/pixel_writer.h"

namespace pineda::model {

void PixelWriter::process(const QuadPkt& q, const std::function<void(const MemReq&)>& emit) {
  if (q.eop) return;  // end-of-pipe token: no write (the caller signals the completion)
  const bool msaa = q.target.msaa != 0;
  for (int bit = 0; bit < 16; ++bit) {
    if (((q.mask >> bit) & 1u) == 0) continue;
    const int p = msaa ? bit >> 2 : bit;  // pixel of the quad
    if (p >= 4) continue;                 // 1x: bits 4..15 are not pixels
    const uint32_t x = static_cast<uint32_t>(q.qx * 2 + static_cast<uint64_t>(p & 1));
    const uint32_t y = static_cast<uint32_t>(q.qy * 2 + static_cast<uint64_t>(p >> 1));
    MemReq r;
    r.we = 1;
    r.addr = static_cast<uint32_t>(q.target.base) + y * static_cast<uint32_t>(q.target.pitch) +
             (msaa ? x * 16u + static_cast<uint32_t>(bit & 3) * 4u : x * 4u);
    r.wdata = q.color;
    r.be = 0xF;
    r.tag = 0;
    ++pixels_;
    emit(r);
  }
}

std::vector<MemReq> PixelWriter::process(const QuadPkt& q) {
  std::vector<MemReq> out;
  process(q, [&out](const MemReq& r) { out.push_back(r); });
  return out;
}

void PixelWriter::apply(const MemReq& r, Memory& mem) {
  if (r.we) mem.write32(static_cast<uint32_t>(r.addr), static_cast<uint32_t>(r.wdata), static_cast<uint32_t>(r.be));
}

}  // namespace pineda::model
