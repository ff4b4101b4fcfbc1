// SPDX-License-Identifier: Apache-2.0
#include "tex/tex.h"

#include <algorithm>

#include "fp32.h"
#include "tex/tex_bc_decode.h"

namespace pineda::model::tex {

bool fmt_known(uint32_t fmt) {
  switch (fmt) {
    case TEX_FMT_RGBA8:
    case TEX_FMT_BGRA8:
    case TEX_FMT_B5G6R5:
    case TEX_FMT_RGBA8_SRGB:
      return true;
    case TEX_FMT_BC1:
    case TEX_FMT_BC3:
      return BC_SUPPORTED;
    default:
      return false;
  }
}

uint32_t block_bytes(uint32_t fmt) {
  switch (fmt) {
    case TEX_FMT_RGBA8:
    case TEX_FMT_BGRA8:
    case TEX_FMT_RGBA8_SRGB:
      return 64;
    case TEX_FMT_B5G6R5:
      return 32;
    case TEX_FMT_BC1:
      return 8;
    case TEX_FMT_BC3:
      return 16;
    default:
      return 0;
  }
}

uint32_t full_levels(uint32_t w, uint32_t h) {
  uint32_t m = std::max(w, h), n = 0;
  while (m) {
    ++n;
    m >>= 1;
  }
  return n;
}

Chain chain(const TexDesc& t) {
  Chain c;
  uint64_t base = t.base;
  const uint64_t bpb = block_bytes(static_cast<uint32_t>(t.fmt));
  for (uint32_t l = 0; l < t.levels && l < TEX_MAX_LEVELS; ++l) {
    Level& v = c.lv[l];
    v.w = std::max<uint32_t>(1, static_cast<uint32_t>(t.width) >> l);
    v.h = std::max<uint32_t>(1, static_cast<uint32_t>(t.height) >> l);
    v.bw = (v.w + 3) >> 2;
    v.bh = (v.h + 3) >> 2;
    v.base = base;
    v.bytes = uint64_t(v.bw) * v.bh * bpb;
    c.end = base + v.bytes;
    base = (c.end + 63) & ~uint64_t(63);
  }
  return c;
}

uint32_t check_addr(uint32_t addr, uint32_t valid_base, uint32_t valid_limit) {
  if ((addr & 31u) != 0 || addr < valid_base || uint64_t(addr) + 31 > valid_limit) return TEX_FAULT_DESC_ADDR;
  return TEX_FAULT_NONE;
}

uint32_t check_tex(const TexDesc& t, uint32_t valid_base, uint32_t valid_limit) {
  if (t.width < 1 || t.width > TEX_MAX_DIM || t.height < 1 || t.height > TEX_MAX_DIM ||
      !fmt_known(static_cast<uint32_t>(t.fmt)) || t.levels < 1 ||
      t.levels > full_levels(static_cast<uint32_t>(t.width), static_cast<uint32_t>(t.height)) || (t.base & 63u) != 0)
    return TEX_FAULT_TEX_DESC;
  const Chain c = chain(t);
  if (t.base < valid_base || c.end - 1 > valid_limit) return TEX_FAULT_TEX_RANGE;
  return TEX_FAULT_NONE;
}

uint32_t check_samp(const SampDesc& s) {
  if (s.mip > TEX_MIP_LINEAR || s.addr_u > TEX_ADDR_MIRROR_ONCE || s.addr_v > TEX_ADDR_MIRROR_ONCE ||
      s.min_lod > s.max_lod)
    return TEX_FAULT_SAMP_DESC;
  return TEX_FAULT_NONE;
}

int32_t log2_8_8(uint64_t r) {
  int e = 63;
  while (!((r >> e) & 1)) --e;
  const uint32_t m = static_cast<uint32_t>(((r << 8) >> e) & 255u);
  return 256 * e + static_cast<int32_t>(m);
}

int32_t lod_raw(const std::array<int32_t, 4>& x, const std::array<int32_t, 4>& y) {
  const int64_t dux = int64_t(x[1]) - x[0], dvx = int64_t(y[1]) - y[0];
  const int64_t duy = int64_t(x[2]) - x[0], dvy = int64_t(y[2]) - y[0];
  const uint64_t lx = uint64_t(dux * dux) + uint64_t(dvx * dvx);
  const uint64_t ly = uint64_t(duy * duy) + uint64_t(dvy * dvy);
  const uint64_t r = std::max(lx, ly);
  if (r == 0) return -128 * 256;
  return (log2_8_8(r) - 4096) >> 1;  // arithmetic shift: floor
}

int32_t lod_clamped(int32_t raw, const SampDesc& s) {
  int32_t lod = raw + static_cast<int32_t>(s.lod_bias);
  lod = std::max(lod, static_cast<int32_t>(s.min_lod));
  lod = std::min(lod, static_cast<int32_t>(s.max_lod));
  return lod;
}

static uint32_t pos_mod(int32_t i, uint32_t n) {
  const int32_t r = i % static_cast<int32_t>(n);
  return static_cast<uint32_t>(r < 0 ? r + static_cast<int32_t>(n) : r);
}

bool address(int32_t i, uint32_t n, uint32_t mode, uint32_t& out) {
  const int32_t last = static_cast<int32_t>(n) - 1;
  switch (mode) {
    case TEX_ADDR_WRAP:
      out = pos_mod(i, n);
      return true;
    case TEX_ADDR_MIRROR: {
      const uint32_t m = pos_mod(i, 2 * n);
      out = m < n ? m : 2 * n - 1 - m;
      return true;
    }
    case TEX_ADDR_CLAMP:
      out = static_cast<uint32_t>(std::clamp(i, 0, last));
      return true;
    case TEX_ADDR_BORDER:  // inside: the texel itself; outside: the border colour
      out = (i >= 0 && i <= last) ? static_cast<uint32_t>(i) : 0;
      return i >= 0 && i <= last;
    default: {  // MIRROR_ONCE (check_samp rejects 5..7)
      const int32_t m = i < 0 ? -1 - i : i;
      out = static_cast<uint32_t>(std::min(m, last));
      return true;
    }
  }
}

static uint32_t x16(uint32_t c8) { return c8 << 4; }

Texel border_texel(uint32_t rgba8) {
  return {x16(rgba8 & 255u), x16((rgba8 >> 8) & 255u), x16((rgba8 >> 16) & 255u), x16(rgba8 >> 24)};
}

Texel fetch(const Memory& mem, const TexDesc& t, const Level& lv, uint32_t x, uint32_t y) {
  const uint32_t fmt = static_cast<uint32_t>(t.fmt);
  const uint64_t blk = lv.base + (uint64_t((y >> 2)) * lv.bw + (x >> 2)) * block_bytes(fmt);
  const uint32_t idx = (y & 3u) * 4u + (x & 3u);
  if (fmt == TEX_FMT_BC1 || fmt == TEX_FMT_BC3) {
    uint64_t lo = 0, hi = 0;
    for (uint32_t k = 0; k < 8; ++k) lo |= uint64_t(mem.read8(static_cast<uint32_t>(blk + k))) << (8 * k);
    if (fmt == TEX_FMT_BC3)
      for (uint32_t k = 0; k < 8; ++k) hi |= uint64_t(mem.read8(static_cast<uint32_t>(blk + 8 + k))) << (8 * k);
    const uint32_t t8 = bc_decode_block(lo, hi, fmt == TEX_FMT_BC3)[idx];
    return {x16(t8 & 255u), x16((t8 >> 8) & 255u), x16((t8 >> 16) & 255u), x16(t8 >> 24)};
  }
  if (fmt == TEX_FMT_B5G6R5) {
    const uint32_t a = static_cast<uint32_t>(blk + idx * 2u);
    const uint32_t p = mem.read8(a) | (uint32_t(mem.read8(a + 1)) << 8);
    const uint32_t b5 = p & 31u, g6 = (p >> 5) & 63u, r5 = (p >> 11) & 31u;
    return {x16((r5 << 3) | (r5 >> 2)), x16((g6 << 2) | (g6 >> 4)), x16((b5 << 3) | (b5 >> 2)), 4080u};
  }
  const uint32_t a = static_cast<uint32_t>(blk + idx * 4u);
  const uint32_t b0 = mem.read8(a), b1 = mem.read8(a + 1), b2 = mem.read8(a + 2), b3 = mem.read8(a + 3);
  if (fmt == TEX_FMT_BGRA8) return {x16(b2), x16(b1), x16(b0), x16(b3)};
  if (fmt == TEX_FMT_RGBA8_SRGB) return {SRGB_TO_TEX12[b0], SRGB_TO_TEX12[b1], SRGB_TO_TEX12[b2], x16(b3)};
  return {x16(b0), x16(b1), x16(b2), x16(b3)};
}

uint32_t to_unorm8(uint32_t c) { return (c + 32768u) >> 16; }

namespace {

// One level's filtered value of one pixel (section 4 steps 6, 7, 8, 10).
Texel filter_level(const Memory& mem, const TexDesc& t, const SampDesc& s, const Level& lv, uint32_t u, uint32_t v,
                   bool linear, Stats& st) {
  const int32_t x = fp32::to_fix16_8(fp32::mul(u, fp32::from_int(lv.w)));
  const int32_t y = fp32::to_fix16_8(fp32::mul(v, fp32::from_int(lv.h)));
  const Texel bt = border_texel(static_cast<uint32_t>(s.border));
  auto tap = [&](int32_t i, int32_t j) {
    uint32_t xi = 0, yj = 0;
    const bool in_u = address(i, lv.w, static_cast<uint32_t>(s.addr_u), xi);
    const bool in_v = address(j, lv.h, static_cast<uint32_t>(s.addr_v), yj);
    ++st.taps;
    return (in_u && in_v) ? fetch(mem, t, lv, xi, yj) : bt;
  };
  if (!linear) {
    const Texel tp = tap(x >> 8, y >> 8);
    return {tp[0] << 4, tp[1] << 4, tp[2] << 4, tp[3] << 4};  // 12.4
  }
  const int32_t a = x - 128, b = y - 128;
  const int32_t i0 = a >> 8, j0 = b >> 8;
  const uint32_t fu = static_cast<uint32_t>(a & 255), fv = static_cast<uint32_t>(b & 255);
  const Texel t00 = tap(i0, j0), t10 = tap(i0 + 1, j0), t01 = tap(i0, j0 + 1), t11 = tap(i0 + 1, j0 + 1);
  // Step 10: two lerps in u (12.8, rounded to 12.4), one in v (12.12, rounded to 12.4).
  Texel r{};
  for (int c = 0; c < 4; ++c) {
    const int32_t r0 = (256 * int32_t(t00[c]) + int32_t(fu) * (int32_t(t10[c]) - int32_t(t00[c])) + 8) >> 4;
    const int32_t r1 = (256 * int32_t(t01[c]) + int32_t(fu) * (int32_t(t11[c]) - int32_t(t01[c])) + 8) >> 4;
    r[c] = static_cast<uint32_t>((256 * r0 + int32_t(fv) * (r1 - r0) + 128) >> 8);
  }
  return r;
}

}  // namespace

TexOutPkt Tex::process(const TexInPkt& in, const Memory& mem, uint32_t valid_base, uint32_t valid_limit) {
  TexOutPkt out;
  if (in.eop) {
    out.eop = 1;
    return out;
  }
  out.live = in.live;
  out.tag = in.tag;
  ++stats_.quads;
  const uint32_t ta = static_cast<uint32_t>(in.tex), sa = static_cast<uint32_t>(in.samp);
  uint32_t fault = check_addr(ta, valid_base, valid_limit);
  if (!fault) fault = check_addr(sa, valid_base, valid_limit);
  TexDesc t;
  SampDesc s;
  if (!fault) {
    std::array<uint32_t, 8> w{};
    for (uint32_t k = 0; k < 8; ++k) w[k] = mem.read32(ta + 4 * k);
    t = TexDesc::unpack(w.data());
    for (uint32_t k = 0; k < 8; ++k) w[k] = mem.read32(sa + 4 * k);
    s = SampDesc::unpack(w.data());
    fault = check_tex(t, valid_base, valid_limit);
    if (!fault) fault = check_samp(s);
  }
  if (fault) {
    out.fault = fault;
    ++stats_.faults;
    return out;
  }
  const Chain c = chain(t);
  // Steps 1 to 5: one LOD, one filter and one or two levels for the quad.
  std::array<int32_t, 4> x0{}, y0{};
  for (int p = 0; p < 4; ++p) {
    x0[p] = fp32::to_fix16_8(fp32::mul(static_cast<uint32_t>(in.tc[p].u), fp32::from_int(t.width)));
    y0[p] = fp32::to_fix16_8(fp32::mul(static_cast<uint32_t>(in.tc[p].v), fp32::from_int(t.height)));
  }
  const int32_t lod = lod_clamped(lod_raw(x0, y0), s);
  const bool linear = (lod == 0 ? s.mag : s.min) == TEX_FILTER_LINEAR;
  const uint32_t last = static_cast<uint32_t>(t.levels) - 1;
  uint32_t l0 = 0, f = 0;
  if (s.mip == TEX_MIP_POINT) {
    l0 = std::min(static_cast<uint32_t>((lod + 128) >> 8), last);
  } else if (s.mip == TEX_MIP_LINEAR) {
    const uint32_t i = static_cast<uint32_t>(lod >> 8);
    if (i >= last) {
      l0 = last;
    } else {
      l0 = i;
      f = static_cast<uint32_t>(lod & 255);
    }
  }
  if (f) ++stats_.trilinear_quads;
  for (int p = 0; p < 4; ++p) {
    if (!((in.live >> p) & 1)) continue;
    ++stats_.samples;
    const uint32_t u = static_cast<uint32_t>(in.tc[p].u), v = static_cast<uint32_t>(in.tc[p].v);
    // Steps 10, 11: C = 256 B_i + f (B_i+1 - B_i) (f = 0: one level), o = (C + 32768) >> 16.
    Texel r = filter_level(mem, t, s, c.lv[l0], u, v, linear, stats_);
    const Texel r1 = f ? filter_level(mem, t, s, c.lv[l0 + 1], u, v, linear, stats_) : r;
    for (int k = 0; k < 4; ++k)
      r[k] = static_cast<uint32_t>(256 * int32_t(r[k]) + int32_t(f) * (int32_t(r1[k]) - int32_t(r[k])));
    uint32_t rgba = 0;
    for (int k = 0; k < 4; ++k) rgba |= to_unorm8(r[k]) << (8 * k);
    out.color[p].data = rgba;
  }
  return out;
}

}  // namespace pineda::model::tex
