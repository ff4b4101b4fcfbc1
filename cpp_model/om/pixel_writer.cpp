// SPDX-License-Identifier: Apache-2.0
#include "om/pixel_writer.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "om/om_blend.h"

namespace pineda::model {

namespace {
constexpr uint32_t kLineMask = (1u << 26) - 1;  // line addresses: byte address bits 31..6
}

PixelWriter::PixelWriter(uint32_t entries_per_bank) : entries_(entries_per_bank) {
  for (auto& b : bank_) b.assign(entries_, Entry{});
}

void PixelWriter::pixel_writes(const QuadPkt& q, const std::function<void(const PixelWrite&)>& emit,
                               const ReadFn& read, const PixColors* pcolor) {
  if (q.eop) return;  // end-of-pipe token: no write
  if (rmw(q) && !read) throw std::logic_error("PixelWriter::pixel_writes: a blended quad needs a memory read");
  const bool msaa = q.target.msaa != 0;
  const uint32_t bpp = om::bytes_per_pixel(static_cast<uint32_t>(q.om.fmt));
  for (int bit = 0; bit < 16; ++bit) {
    if (((q.mask >> bit) & 1u) == 0) continue;
    const int p = msaa ? bit >> 2 : bit;  // pixel of the quad
    if (p >= 4) continue;                 // 1x: bits 4..15 are not pixels
    const uint32_t x = static_cast<uint32_t>(q.qx * 2 + static_cast<uint64_t>(p & 1));
    const uint32_t y = static_cast<uint32_t>(q.qy * 2 + static_cast<uint64_t>(p >> 1));
    PixelWrite w;
    w.size = bpp;
    w.addr = static_cast<uint32_t>(q.target.base) + y * static_cast<uint32_t>(q.target.pitch) +
             (msaa ? x * 4u * bpp + static_cast<uint32_t>(bit & 3) * bpp : x * bpp);
    w.addr &= bpp == 2 ? ~1u : ~3u;
    uint32_t dst = 0;
    if (rmw(q)) {
      dst = read(w.addr & ~3u);
      if (bpp == 2) dst = (dst >> (8u * (w.addr & 2u))) & 0xFFFFu;
    }
    w.data = om::blend_pixel(q.om, src_color(q, pcolor, p), dst);
    emit(w);
  }
}

std::vector<PixelWrite> PixelWriter::pixel_writes(const QuadPkt& q, const ReadFn& read) {
  std::vector<PixelWrite> out;
  pixel_writes(q, [&out](const PixelWrite& w) { out.push_back(w); }, read);
  return out;
}

void PixelWriter::apply_quad(const QuadPkt& q, Memory& mem, const PixColors* pcolor) {
  pixel_writes(q, [&mem](const PixelWrite& w) { apply(w, mem); }, [&mem](uint32_t a) { return mem.read32(a); }, pcolor);
}

std::vector<PixelWriter::Piece> PixelWriter::pieces(const QuadPkt& q) {
  const bool msaa = q.target.msaa != 0;
  const uint32_t bpp = om::bytes_per_pixel(static_cast<uint32_t>(q.om.fmt));
  std::array<Piece, 4> c{};
  for (uint32_t r = 0; r < 2; ++r) {
    const uint32_t y = static_cast<uint32_t>(q.qy) * 2u + r;
    const uint32_t x = static_cast<uint32_t>(q.qx) * 2u;
    const uint32_t row = static_cast<uint32_t>(q.target.base) + y * static_cast<uint32_t>(q.target.pitch) +
                         x * (msaa ? 4u * bpp : bpp);
    // the row's first halfword (4-byte pixels ignore addr[1:0], 2-byte ones addr[0])
    const uint32_t hw = bpp == 2 ? row >> 1 : (row >> 2) << 1;
    const uint32_t m = msaa ? static_cast<uint32_t>(q.mask >> (8 * r)) & 0xFFu
                            : static_cast<uint32_t>(q.mask >> (2 * r)) & 0x3u;
    uint32_t e = 0;  // the covered halfwords from the row's first: 1 (2-byte) or 2 per pixel
    for (uint32_t k = 0; k < 8; ++k) {
      if ((m >> k) & 1u) e |= bpp == 2 ? 1u << k : 3u << (2 * k);
    }
    const uint64_t w = static_cast<uint64_t>(e) << (hw & 31u);  // up to 47 bits
    c[2 * r] = Piece{(hw >> 5) & kLineMask, static_cast<uint32_t>(w), r};
    c[2 * r + 1] = Piece{((hw >> 5) + 1u) & kLineMask, static_cast<uint32_t>(w >> 32), r};
  }
  // A row-1 piece on the line of a row-0 piece joins it (pieces of one row are distinct lines).
  for (int k = 2; k < 4; ++k) {
    for (int j = 0; j < 2; ++j) {
      if (c[k].mask != 0 && c[j].mask != 0 && c[k].line == c[j].line) {
        c[j].mask |= c[k].mask;
        c[k].mask = 0;
      }
    }
  }
  std::vector<Piece> out;
  for (const Piece& p : c) {
    if (p.mask != 0) out.push_back(p);
  }
  return out;
}

void PixelWriter::evict(Entry& e, const LineFn& emit) {
  MemLineReq r;
  r.we = 1;
  r.addr = static_cast<uint64_t>(e.line) << 6;
  r.be = 0;
  for (int k = 0; k < 32; ++k) {
    if ((e.mask >> k) & 1u) {
      r.wdata[k / 2].data |= static_cast<uint32_t>(e.data[k]) << (16 * (k & 1));
      r.be |= 0x3ull << (2 * k);
    }
  }
  ++lines_;
  e.mask = 0;
  emit(r);
}

void PixelWriter::process(const QuadPkt& q, const LineFn& emit, const ReadFn& read, const PixColors* pcolor) {
  if (q.eop) {
    flush(emit);
    return;
  }
  const bool blend = rmw(q);
  if (blend && !read) throw std::logic_error("PixelWriter::process: a blended quad needs a memory read");
  uint64_t n = 0;
  pixel_writes(q, [&n](const PixelWrite&) { ++n; }, [](uint32_t) { return 0u; });
  pixels_ += n;
  if (blend) rmw_pixels_ += n, ++rmw_quads_;
  const uint32_t color = static_cast<uint32_t>(q.color);
  const uint32_t plain = om::blend_pixel(q.om, color, 0);  // blending off, no mask: the encoded colour
  const bool two = om::bytes_per_pixel(static_cast<uint32_t>(q.om.fmt)) == 2;
  // Per-pixel colours (INTERP): the pixel (0..3) of the quad whose write a line pixel holds: the
  // last covered pixel or sample (mask bit order) with that byte address, as pixel_writes applies
  // them (pitches so small that rows overlap give one address two pixels).
  std::array<std::pair<uint32_t, int>, 16> addr_pix{};  // (byte address, pixel) in write order
  int n_w = 0;
  if (pcolor) {
    int i = 0;
    pixel_writes(q, [&addr_pix, &n_w](const PixelWrite& w) { addr_pix[static_cast<size_t>(n_w++)].first = w.addr; },
                 [](uint32_t) { return 0u; });
    for (int bit = 0; bit < 16; ++bit) {  // the same order: the pixel of each write
      const int px = q.target.msaa ? bit >> 2 : bit;
      if (((q.mask >> bit) & 1u) != 0 && px < 4) addr_pix[static_cast<size_t>(i++)].second = px;
    }
  }
  const auto color_at = [&](uint32_t addr) {
    if (!pcolor) return color;
    int px = 0;
    for (int i = 0; i < n_w; ++i) {
      if (addr_pix[static_cast<size_t>(i)].first == addr) px = addr_pix[static_cast<size_t>(i)].second;
    }
    return src_color(q, pcolor, px);
  };
  for (const Piece& p : pieces(q)) {
    Entry* hit = nullptr;
    uint32_t hb = p.bank;  // the entry's bank
    for (uint32_t b = 0; b < PW_BANKS; ++b) {
      for (auto& e : bank_[b]) {
        if (e.valid != 0 && e.line == p.line) hit = &e, hb = b;
      }
    }
    if (hit) {
      ++hits_;
    } else {
      ++misses_;
      hit = &bank_[p.bank][ptr_[p.bank]];
      ptr_[p.bank] = (ptr_[p.bank] + 1) % entries_;
      if (hit->mask != 0) evict(*hit, emit);
      hit->line = p.line;
      hit->mask = 0;
      hit->valid = 0;
    }
    if (blend && (hit->valid & p.mask) != p.mask) {
      MemLineReq r;  // the fill: we = 0, wdata 0, be 0, tag = the entry's bank
      r.addr = static_cast<uint64_t>(p.line) << 6;
      r.tag = hb;
      ++fills_;
      emit(r);
      for (int k = 0; k < 32; ++k) {
        if (((hit->valid >> k) & 1u) == 0) {
          const uint32_t d = read((p.line << 6) + 4u * static_cast<uint32_t>(k / 2));
          hit->data[k] = static_cast<uint16_t>(d >> (16 * (k & 1)));
        }
      }
      hit->valid = 0xFFFFFFFFu;
    }
    for (int k = 0; k < 32; ++k) {  // a pixel: one halfword (B5G6R5) or an aligned pair
      if (((p.mask >> k) & 1u) == 0 || (!two && (k & 1))) continue;
      const uint32_t c = color_at((p.line << 6) + 2u * static_cast<uint32_t>(k));
      const uint32_t enc = pcolor ? om::blend_pixel(q.om, c, 0) : plain;  // blending off: the encoded colour
      if (two) {
        hit->data[k] = static_cast<uint16_t>(blend ? om::blend_pixel(q.om, c, hit->data[k]) : enc);
      } else {
        const uint32_t d = hit->data[k] | (static_cast<uint32_t>(hit->data[k + 1]) << 16);
        const uint32_t v = blend ? om::blend_pixel(q.om, c, d) : enc;
        hit->data[k] = static_cast<uint16_t>(v);
        hit->data[k + 1] = static_cast<uint16_t>(v >> 16);
      }
    }
    hit->mask |= p.mask;
    hit->valid |= p.mask;
  }
}

std::vector<MemLineReq> PixelWriter::process(const QuadPkt& q, const ReadFn& read) {
  std::vector<MemLineReq> out;
  process(q, [&out](const MemLineReq& r) { out.push_back(r); }, read);
  return out;
}

void PixelWriter::flush(const LineFn& emit) {
  while (!clean()) {
    for (auto& b : bank_) {
      for (auto& e : b) {
        if (e.mask != 0) {
          evict(e, emit);
          break;
        }
      }
    }
  }
  for (auto& b : bank_) {
    for (auto& e : b) e.valid = 0;  // clean lines are dropped too: memory may change behind the cache
  }
}

std::vector<MemLineReq> PixelWriter::flush() {
  std::vector<MemLineReq> out;
  flush([&out](const MemLineReq& r) { out.push_back(r); });
  return out;
}

bool PixelWriter::clean() const {
  for (const auto& b : bank_) {
    for (const auto& e : b) {
      if (e.mask != 0) return false;
    }
  }
  return true;
}

void PixelWriter::apply(const PixelWrite& w, Memory& mem) {
  if (w.size == 2) {
    const uint32_t sh = w.addr & 2u;
    mem.write32(w.addr & ~3u, w.data << (8u * sh), 0x3u << sh);
  } else {
    mem.write32(w.addr, w.data, 0xFu);
  }
}

void PixelWriter::apply(const MemLineReq& r, Memory& mem) {
  if (!r.we) return;
  const uint32_t base = static_cast<uint32_t>(r.addr) & ~63u;
  for (int k = 0; k < 16; ++k) {
    const uint32_t be = static_cast<uint32_t>(r.be >> (4 * k)) & 0xFu;
    if (be != 0) mem.write32(base + 4u * static_cast<uint32_t>(k), static_cast<uint32_t>(r.wdata[k].data), be);
  }
}

}  // namespace pineda::model
