#include "om/pixel_writer.h"

namespace pineda::model {

void PixelWriter::process(const CovPkt& c, const std::function<void(const MemReq&)>& emit) {
  if (c.eop) return;  // end-of-pipe token: no write (the caller signals the completion)
  for (int bit = 0; bit < 64; ++bit) {
    if (((c.mask >> bit) & 1u) == 0) continue;
    const uint32_t x = static_cast<uint32_t>(c.tx * 8 + static_cast<uint64_t>(bit & 7));
    const uint32_t y = static_cast<uint32_t>(c.ty * 8 + static_cast<uint64_t>(bit >> 3));
    MemReq r;
    r.we = 1;
    r.addr = static_cast<uint32_t>(c.target.base) + y * static_cast<uint32_t>(c.target.pitch) + x * 4u;
    r.wdata = c.color;
    r.be = 0xF;
    r.tag = 0;
    ++pixels_;
    emit(r);
  }
}

std::vector<MemReq> PixelWriter::process(const CovPkt& c) {
  std::vector<MemReq> out;
  process(c, [&out](const MemReq& r) { out.push_back(r); });
  return out;
}

void PixelWriter::apply(const MemReq& r, Memory& mem) {
  if (r.we) mem.write32(static_cast<uint32_t>(r.addr), static_cast<uint32_t>(r.wdata), static_cast<uint32_t>(r.be));
}

}  // namespace pineda::model
