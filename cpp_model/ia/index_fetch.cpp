// SPDX-License-Identifier: Apache-2.0
#include "ia/index_fetch.h"

#include <algorithm>

namespace pineda::model {

uint64_t IndexFetch::in_bounds(const IDrawPkt& d) {
  if (!d.indexed) return d.count;
  const uint64_t size = d.index32 ? 4 : 2;
  const uint64_t positions = d.ib_size / size;  // whole indices inside the buffer
  return positions > d.first ? std::min<uint64_t>(d.count, positions - d.first) : 0;
}

uint32_t IndexFetch::read_value(const IDrawPkt& d, const Memory& mem, uint64_t pos) {
  if (d.index32) {
    const uint32_t addr = static_cast<uint32_t>(d.ib_base + pos * 4) & ~3u;
    return mem.read32(addr);
  }
  const uint32_t addr = static_cast<uint32_t>(d.ib_base + pos * 2) & ~1u;
  const uint32_t dw = mem.read32(addr & ~3u);
  return (addr & 2u) ? dw >> 16 : dw & 0xFFFFu;
}

void IndexFetch::process(const IDrawPkt& d, const Memory& mem, const std::function<void(const IndexPkt&)>& emit) {
  if (d.eop) {
    IndexPkt token;
    token.eop = 1;
    emit(token);
    return;
  }
  if (d.wr) {  // a front-end state write: forwarded in order, nothing else
    IndexPkt w;
    w.wr = 1;
    w.wr_idx = d.wr_idx;
    w.wr_val = d.wr_val;
    emit(w);
    return;
  }
  const uint64_t nin = in_bounds(d);
  const uint32_t cut_value = d.index32 ? static_cast<uint32_t>(INDEX_CUT_32) : static_cast<uint32_t>(INDEX_CUT_16);
  // count == 0 emits nothing for any instance count: return at once instead of spinning through
  // up to 2^32 - 1 empty instances (found by fuzz_cp: a 14 s DRAW_FE, not interruptible).
  if (d.count == 0) return;
  for (uint64_t i = 0; i < d.instance_count; ++i) {
    for (uint64_t k = 0; k < d.count; ++k) {
      IndexPkt p;
      p.inst_id = static_cast<uint32_t>(d.start_instance + i);
      p.strip = d.strip;
      p.last = k + 1 == d.count ? 1 : 0;
      p.draw_id = d.draw_id;
      if (!d.indexed) {
        p.index = static_cast<uint32_t>(d.first + k);
      } else {
        uint32_t v = 0;
        if (k < nin) {
          v = read_value(d, mem, d.first + k);
        } else {
          ++oob_;
        }
        if (d.strip && d.restart && k < nin && v == cut_value) {
          p.cut = 1;
          ++cuts_;
        } else {
          p.index = static_cast<uint32_t>(v + d.base_vertex);
        }
      }
      ++indices_;
      emit(p);
    }
  }
}

std::vector<IndexPkt> IndexFetch::process(const IDrawPkt& d, const Memory& mem) {
  std::vector<IndexPkt> out;
  process(d, mem, [&out](const IndexPkt& p) { out.push_back(p); });
  return out;
}

}  // namespace pineda::model
