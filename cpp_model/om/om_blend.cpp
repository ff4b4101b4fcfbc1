// SPDX-License-Identifier: Apache-2.0
#include "om/om_blend.h"

#include <algorithm>

namespace pineda::model::om {

namespace {
constexpr uint32_t kOne = 65535u;
uint32_t byte_of(uint32_t v, int k) { return (v >> (8 * k)) & 0xFFu; }
}  // namespace

uint32_t srgb_to_lin16(uint32_t code) { return SRGB_TO_LIN16[code & 255u]; }

uint32_t lin16_to_srgb(uint32_t v) {
  uint32_t c = 0;  // binary search, as the RTL: LIN16_TO_SRGB_T is increasing, entry 0 is 0
  for (int b = 7; b >= 0; --b) {
    const uint32_t cand = c | (1u << b);
    if (v >= LIN16_TO_SRGB_T[cand]) c = cand;
  }
  return c;
}

uint32_t bytes_per_pixel(uint32_t fmt) { return fmt == RT_FMT_B5G6R5 ? 2u : 4u; }

Rgba16 decode_src(uint32_t rgba8) {
  return {byte_of(rgba8, 0) * 257u, byte_of(rgba8, 1) * 257u, byte_of(rgba8, 2) * 257u, byte_of(rgba8, 3) * 257u};
}

Rgba16 decode_dst(uint32_t fmt, uint32_t raw) {
  switch (fmt) {
    case RT_FMT_BGRA8:
      return {byte_of(raw, 2) * 257u, byte_of(raw, 1) * 257u, byte_of(raw, 0) * 257u, byte_of(raw, 3) * 257u};
    case RT_FMT_RGBA8_SRGB:
      return {srgb_to_lin16(byte_of(raw, 0)), srgb_to_lin16(byte_of(raw, 1)), srgb_to_lin16(byte_of(raw, 2)),
              byte_of(raw, 3) * 257u};
    case RT_FMT_B5G6R5: {
      const uint32_t b5 = raw & 31u, g6 = (raw >> 5) & 63u, r5 = (raw >> 11) & 31u;
      return {((r5 << 3) | (r5 >> 2)) * 257u, ((g6 << 2) | (g6 >> 4)) * 257u, ((b5 << 3) | (b5 >> 2)) * 257u, kOne};
    }
    default:
      return decode_src(raw);
  }
}

uint32_t encode(uint32_t fmt, const Rgba16& v) {
  switch (fmt) {
    case RT_FMT_BGRA8:
      return div257r(v[2]) | div257r(v[1]) << 8 | div257r(v[0]) << 16 | div257r(v[3]) << 24;
    case RT_FMT_RGBA8_SRGB:
      return lin16_to_srgb(v[0]) | lin16_to_srgb(v[1]) << 8 | lin16_to_srgb(v[2]) << 16 | div257r(v[3]) << 24;
    case RT_FMT_B5G6R5:
      return div65535r(uint64_t{v[2]} * 31u) | div65535r(uint64_t{v[1]} * 63u) << 5 |
             div65535r(uint64_t{v[0]} * 31u) << 11;
    default:
      return div257r(v[0]) | div257r(v[1]) << 8 | div257r(v[2]) << 16 | div257r(v[3]) << 24;
  }
}

uint32_t write_bits(uint32_t fmt, uint32_t mask_off) {
  const bool r = !(mask_off & 1u), g = !(mask_off & 2u), b = !(mask_off & 4u), a = !(mask_off & 8u);
  switch (fmt) {
    case RT_FMT_BGRA8:
      return (b ? 0xFFu : 0u) | (g ? 0xFF00u : 0u) | (r ? 0xFF0000u : 0u) | (a ? 0xFF000000u : 0u);
    case RT_FMT_B5G6R5:
      return (b ? 0x001Fu : 0u) | (g ? 0x07E0u : 0u) | (r ? 0xF800u : 0u);
    default:
      return (r ? 0xFFu : 0u) | (g ? 0xFF00u : 0u) | (b ? 0xFF0000u : 0u) | (a ? 0xFF000000u : 0u);
  }
}

uint32_t write_bytes(uint32_t fmt, uint32_t mask_off) {
  const uint32_t bits = write_bits(fmt, mask_off);
  uint32_t m = 0;
  for (int k = 0; k < 4; ++k) {
    if (byte_of(bits, k) != 0) m |= 1u << k;
  }
  return m;
}

bool needs_dst(const OmState& s) {
  if (s.blend || s.lop_en) return true;
  if (s.fmt != RT_FMT_B5G6R5) return false;
  const uint32_t bits = write_bits(static_cast<uint32_t>(s.fmt), static_cast<uint32_t>(s.mask_off));
  return bits != 0 && bits != 0xFFFFu;  // a mask that cuts through a byte
}

uint32_t factor(uint32_t code, int ch, const Rgba16& s, const Rgba16& d, const Rgba16& k) {
  switch (code) {
    case BF_ZERO: return 0;
    case BF_ONE: return kOne;
    case BF_SRC_COLOR: return s[ch];
    case BF_INV_SRC_COLOR: return kOne - s[ch];
    case BF_SRC_ALPHA: return s[3];
    case BF_INV_SRC_ALPHA: return kOne - s[3];
    case BF_DEST_ALPHA: return d[3];
    case BF_INV_DEST_ALPHA: return kOne - d[3];
    case BF_DEST_COLOR: return d[ch];
    case BF_INV_DEST_COLOR: return kOne - d[ch];
    case BF_SRC_ALPHA_SAT: return ch == 3 ? kOne : std::min(s[3], kOne - d[3]);
    case BF_BLEND_FACTOR: return k[ch];
    case BF_INV_BLEND_FACTOR: return kOne - k[ch];
    default: return 0;  // 11, 12, 15..31: not D3D11 factors we take (the runtime rejects them)
  }
}

uint32_t combine(uint32_t op, uint32_t s, uint32_t fs, uint32_t d, uint32_t fd) {
  const uint64_t ts = uint64_t{s} * fs, td = uint64_t{d} * fd;
  const uint64_t kMax = uint64_t{kOne} * kOne;
  switch (op) {
    case BOP_SUBTRACT: return div65535r(ts > td ? ts - td : 0);
    case BOP_REV_SUBTRACT: return div65535r(td > ts ? td - ts : 0);
    case BOP_MIN: return std::min(s, d);
    case BOP_MAX: return std::max(s, d);
    default: return div65535r(std::min(ts + td, kMax));  // ADD (5..7 too)
  }
}

uint32_t blend_pixel(const OmState& st, uint32_t src_rgba8, uint32_t dst_raw) {
  const uint32_t fmt = static_cast<uint32_t>(st.fmt);
  const Rgba16 s = decode_src(src_rgba8);
  Rgba16 r = s;
  if (st.blend && !st.lop_en) {
    const Rgba16 d = decode_dst(fmt, dst_raw);
    const Rgba16 k = decode_src(static_cast<uint32_t>(st.factor));
    for (int ch = 0; ch < 4; ++ch) {
      const bool a = ch == 3;
      const uint32_t fs = factor(static_cast<uint32_t>(a ? st.src_a : st.src), ch, s, d, k);
      const uint32_t fd = factor(static_cast<uint32_t>(a ? st.dst_a : st.dst), ch, s, d, k);
      r[ch] = combine(static_cast<uint32_t>(a ? st.op_a : st.op), s[ch], fs, d[ch], fd);
    }
  }
  const uint32_t wb = write_bits(fmt, static_cast<uint32_t>(st.mask_off));
  const uint32_t full = fmt == RT_FMT_B5G6R5 ? 0xFFFFu : 0xFFFFFFFFu;
  uint32_t res = encode(fmt, r);
  if (st.lop_en) res = logic_op(static_cast<uint32_t>(st.lop), res, dst_raw);
  return ((res & wb) | (dst_raw & ~wb)) & full;
}

}  // namespace pineda::model::om
