// SPDX-License-Identifier: Apache-2.0
#include "dma/resolve.h"

#include "om/om_blend.h"

namespace pineda::model {

uint32_t resolve4(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
  uint32_t out = 0;
  for (int sh = 0; sh < 32; sh += 8) {
    const uint32_t sum = ((c0 >> sh) & 0xFFu) + ((c1 >> sh) & 0xFFu) + ((c2 >> sh) & 0xFFu) + ((c3 >> sh) & 0xFFu);
    out |= ((sum + 2) >> 2) << sh;
  }
  return out;
}

uint32_t resolve_pixel(uint32_t fmt, const uint32_t s[4]) {
  if (fmt == RT_FMT_B5G6R5) {
    uint32_t out = 0;
    const int lsb[3] = {0, 5, 11}, width[3] = {5, 6, 5};
    for (int f = 0; f < 3; ++f) {
      const uint32_t m = (1u << width[f]) - 1u;
      uint32_t sum = 0;
      for (int k = 0; k < 4; ++k) sum += (s[k] >> lsb[f]) & m;
      out |= ((sum + 2) >> 2) << lsb[f];
    }
    return out;
  }
  uint32_t out = resolve4(s[0], s[1], s[2], s[3]);
  if (fmt == RT_FMT_RGBA8_SRGB) {
    out &= 0xFF000000u;
    for (int c = 0; c < 3; ++c) {
      uint32_t sum = 0;
      for (int k = 0; k < 4; ++k) sum += om::srgb_to_lin16((s[k] >> (8 * c)) & 0xFFu);
      out |= om::lin16_to_srgb((sum + 2) >> 2) << (8 * c);
    }
  }
  return out;
}

uint32_t resolve_src_bpp(uint32_t fmt) { return fmt == RT_FMT_B5G6R5 ? 8u : 16u; }
uint32_t resolve_dst_bpp(uint32_t fmt) { return fmt == RT_FMT_B5G6R5 ? 2u : 4u; }

void resolve_lines(const ResolvePkt& r, const Memory& src_mem, const std::function<void(const MemLineReq&)>& emit,
                   const std::function<void()>& on_line) {
  if (r.rect.x0 >= r.rect.x1 || r.rect.y0 >= r.rect.y1) return;
  const uint32_t fmt = static_cast<uint32_t>(r.fmt);
  const uint64_t sp = resolve_src_bpp(fmt), dp = resolve_dst_bpp(fmt);
  for (uint64_t y = r.rect.y0; y < r.rect.y1; ++y) {
    const uint64_t s0 = r.src + y * r.src_pitch + r.rect.x0 * sp;
    const uint64_t d0 = r.dst + y * r.dst_pitch + r.rect.x0 * dp;
    const uint64_t d1 = d0 + (r.rect.x1 - r.rect.x0) * dp;
    for (uint64_t l = d0 & ~uint64_t{LINE_BYTES - 1}; l < d1; l += LINE_BYTES) {
      if (on_line) on_line();
      MemLineReq q;
      q.we = 1;
      q.addr = static_cast<uint32_t>(l);
      uint64_t be = 0;
      for (uint64_t a = (l < d0 ? d0 : l); a < d1 && a < l + LINE_BYTES; a += dp) {
        const uint64_t x = (a - d0) / dp;  // pixel index in the row
        const uint64_t sa = s0 + x * sp;
        uint32_t smp[4];
        for (uint32_t k = 0; k < 4; ++k) {
          const uint32_t sample_addr = static_cast<uint32_t>(sa + k * (sp / 4));
          const uint32_t w = src_mem.read32(sample_addr);
          smp[k] = dp == 2 ? (w >> (8 * (sample_addr & 2u))) & 0xFFFFu : w;
        }
        const uint32_t v = resolve_pixel(fmt, smp);
        const uint32_t off = static_cast<uint32_t>(a - l);
        if (dp == 2) {
          q.wdata[off / 4].data |= static_cast<uint64_t>(v & 0xFFFFu) << (8 * (off & 2u));
          be |= uint64_t{3} << off;
        } else {
          q.wdata[off / 4].data = v;
          be |= uint64_t{0xF} << off;
        }
      }
      q.be = be;
      emit(q);
    }
  }
}

uint64_t resolve(const ResolvePkt& r, const Memory& src_mem, Memory& dst_mem, const std::function<void()>& on_line) {
  uint64_t n = 0;
  resolve_lines(r, src_mem, [&](const MemLineReq& q) {
    for (uint32_t b = 0; b < LINE_BYTES; ++b) {
      if ((q.be >> b) & 1u) {
        dst_mem.write8(static_cast<uint32_t>(q.addr) + b, static_cast<uint8_t>(q.wdata[b / 4].data >> (8 * (b % 4))));
      }
    }
    ++n;
  }, on_line);
  return n;
}

void resolve_msaa4(const Memory& src_mem, uint32_t src, uint32_t src_pitch, Memory& dst_mem,
                   uint32_t dst, uint32_t dst_pitch, uint32_t w, uint32_t h, uint32_t fmt) {
  ResolvePkt r;
  r.fmt = fmt;
  r.src = src;
  r.dst = dst;
  r.src_pitch = src_pitch;
  r.dst_pitch = dst_pitch;
  r.rect.x0 = 0;
  r.rect.y0 = 0;
  r.rect.x1 = w;
  r.rect.y1 = h;
  resolve(r, src_mem, dst_mem);
}

}  // namespace pineda::model
