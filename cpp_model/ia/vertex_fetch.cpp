// SPDX-License-Identifier: Apache-2.0
#include "ia/vertex_fetch.h"

#include <algorithm>

namespace pineda::model {

namespace {
constexpr uint32_t kOne = FP32_ONE;  // 1.0f
}

void VertexFetch::reset() {
  st_.fill(0);
  regs_.reset();
  for (uint32_t k = 0; k < 16; ++k) st_[FE_MATRIX0 + k] = STATE_RESET[FE_MATRIX0 + k];  // the identity
  vertices_ = oob_ = hits_ = misses_ = groups_ = 0;
  tag_.assign(lines_, 0);
  valid_.assign(lines_, false);
  lru_.assign(lines_ / kWays, 0);
  have_draw_ = false;
  draw_ = 0;
}

bool VertexFetch::line(uint32_t line_addr) {
  const uint32_t sets = lines_ / kWays;
  const uint32_t set = line_addr % sets;
  for (uint32_t w = 0; w < kWays; ++w) {
    if (valid_[set * kWays + w] && tag_[set * kWays + w] == line_addr) {
      ++hits_;
      lru_[set] = 1 - w;  // the other way is replaced next
      return true;
    }
  }
  if (cache_) {
    // the first invalid way, else the least recently used
    const uint32_t w = !valid_[set * kWays] ? 0 : !valid_[set * kWays + 1] ? 1 : lru_[set];
    valid_[set * kWays + w] = true;
    tag_[set * kWays + w] = line_addr;
    lru_[set] = 1 - w;
  }
  ++misses_;
  return false;
}

uint32_t VertexFetch::unorm8_to_f32(uint32_t c) {
  c &= 0xFFu;
  if (c == 0) return 0;
  if (c == 255) return kOne;
  // c / 255 = 0.cccccccc... in base 256: the bits of c repeat forever (and never end in zeros),
  // so the first 24 significant bits come from the repetition and the rest is a sticky 1:
  // round to nearest rounds up exactly when the next bit is 1.
  uint64_t rep = 0;
  for (int k = 0; k < 5; ++k) rep = (rep << 8) | c;  // 40 bits
  int lz = 0;
  while (((c << lz) & 0x80u) == 0) ++lz;
  const int top = 39 - lz;                                          // the leading one
  const uint32_t mant = static_cast<uint32_t>((rep >> (top - 23)) & 0x7FFFFFu);  // 23 bits after it
  const uint32_t round = static_cast<uint32_t>((rep >> (top - 24)) & 1u);
  const uint32_t exp = static_cast<uint32_t>(126 - lz);
  return ((exp << 23) | mant) + round;  // never carries for c < 255
}

uint32_t VertexFetch::f32_to_unorm8(uint32_t f) {
  const uint32_t exp = (f >> 23) & 0xFFu;
  const uint32_t frac = f & 0x7FFFFFu;
  if (exp == 0xFFu && frac != 0) return 0;  // NaN
  if (f >> 31) return 0;                    // negative, -0, -Inf
  if (exp == 0) return 0;                   // zero, denormals (flushed)
  if (f >= kOne) return 255;                // >= 1.0, +Inf
  // f = m * 2^(exp - 150) with m the 24-bit significand; f * 255 = (m * 255) >> s, s >= 24.
  const uint64_t p = uint64_t{frac | 0x800000u} * 255u;
  const uint32_t s = 150 - exp;
  if (s >= 34) return 0;  // p < 2^32 <= 2^(s - 2): rounds to 0
  const uint64_t q = p >> s, r = p & ((uint64_t{1} << s) - 1), half = uint64_t{1} << (s - 1);
  return static_cast<uint32_t>(q + ((r > half || (r == half && (q & 1u))) ? 1u : 0u));
}

std::array<uint32_t, 4> VertexFetch::attribute(uint32_t a, const VFetchPkt& p, const Memory& mem, uint32_t& raw,
                                               bool& unorm, Elem& el) {
  const AttrReg& at = a == 0 ? regs_.attr_pos : a == 1 ? regs_.attr_color : a == 2 ? regs_.attr_tex0 : regs_.attr_tex1;
  const uint32_t fmt = static_cast<uint32_t>(at.fmt);
  std::array<uint32_t, 4> c{0, 0, 0, kOne};
  raw = 0;
  unorm = false;
  el = Elem{};
  if (fmt == ATTR_FMT_NONE || fmt > ATTR_FMT_UNORM8X4) return c;
  const bool buf = at.buf1 != 0;
  const uint32_t base = static_cast<uint32_t>(buf ? regs_.vb1_base : regs_.vb0_base);
  const uint32_t stride = static_cast<uint32_t>(buf ? regs_.vb1_stride : regs_.vb0_stride) & 0xFFFFu;
  const uint32_t size = static_cast<uint32_t>(buf ? regs_.vb1_size : regs_.vb0_size);
  const uint64_t elem = buf ? p.inst_id : p.index;
  unorm = fmt == ATTR_FMT_UNORM8X4;
  const uint32_t n = unorm ? 1 : fmt;
  const uint64_t ofs = elem * stride + at.offset;
  const bool inb = ofs + 4 * n <= size;
  std::array<uint32_t, 4> d{};
  if (inb) {
    const uint32_t addr = base + static_cast<uint32_t>(ofs);
    for (uint32_t k = 0; k < n; ++k) d[k] = mem.read32((addr + 4 * k) & ~3u);
    el.inb = true;
    el.l0 = addr >> 6;                             // its first and last line (mod 2^26)
    el.l1 = ((addr & ~3u) + 4 * n - 4) >> 6;
  } else {
    ++oob_;  // an element outside its buffer reads 0 (and nothing is read)
  }
  if (unorm) {
    raw = d[0];
    for (uint32_t k = 0; k < 4; ++k) c[k] = unorm8_to_f32((d[0] >> (8 * k)) & 0xFFu);
  } else {
    for (uint32_t k = 0; k < n; ++k) c[k] = d[k];
  }
  return c;
}

void VertexFetch::process(const VFetchPkt& p, const Memory& mem, const std::function<void(const VtxInPkt&)>& emit) {
  if (p.wr) {
    // Any state write invalidates the fetch cache (see the header).
    std::fill(valid_.begin(), valid_.end(), false);
    have_draw_ = false;
    const uint32_t idx = static_cast<uint32_t>(p.wr_idx);
    if (idx >= NUM_FE_STATE) return;  // not a front-end register: ignored
    st_[idx] = static_cast<uint32_t>(p.wr_val);
    regs_.write(idx, static_cast<uint32_t>(p.wr_val));  // FE_VB*, FE_ATTR_*
    if (idx >= FE_MATRIX0) {
      const uint32_t r = (idx - FE_MATRIX0) / 4;
      VtxInPkt m;
      m.kind = VTX_KIND_MATRIX_ROW;
      m.row = r;
      m.pos.x = st_[FE_MATRIX0 + 4 * r];
      m.pos.y = st_[FE_MATRIX0 + 4 * r + 1];
      m.pos.z = st_[FE_MATRIX0 + 4 * r + 2];
      m.pos.w = st_[FE_MATRIX0 + 4 * r + 3];
      emit(m);
    }
    return;
  }
  VtxInPkt v;
  // The first vertex of a draw invalidates the cache too: memory may change between draws.
  if (!have_draw_ || p.draw_id != draw_) std::fill(valid_.begin(), valid_.end(), false);
  have_draw_ = true;
  draw_ = p.draw_id;
  v.kind = VTX_KIND_VERTEX;
  uint32_t raw = 0;
  bool unorm = false;
  std::array<Elem, 4> el{};
  const auto pos = attribute(0, p, mem, raw, unorm, el[0]);
  v.pos.x = pos[0], v.pos.y = pos[1], v.pos.z = pos[2], v.pos.w = pos[3];
  const auto col = attribute(1, p, mem, raw, unorm, el[1]);
  if (unorm) {
    v.color = raw;
  } else {
    v.color = f32_to_unorm8(col[0]) | (f32_to_unorm8(col[1]) << 8) | (f32_to_unorm8(col[2]) << 16) |
              (f32_to_unorm8(col[3]) << 24);
  }
  const auto t0 = attribute(2, p, mem, raw, unorm, el[2]);
  v.tex0.u = t0[0], v.tex0.v = t0[1];
  const auto t1 = attribute(3, p, mem, raw, unorm, el[3]);
  v.tex1.u = t1[0], v.tex1.v = t1[1];
  // Groups of two consecutive lines (G, G + 1), in attribute order: an element whose lines lie
  // in the current group's pair joins it, else it opens a new group at its first line. Each
  // group looks up line G, then G + 1 if an element uses it.
  constexpr uint32_t kLineMask = 0x03FFFFFFu;
  const auto in_pair = [](uint32_t l, uint32_t g) { return l == g || l == ((g + 1) & kLineMask); };
  std::vector<std::pair<uint32_t, bool>> groups;  // (G, G + 1 used)
  for (const Elem& e : el) {
    if (!e.inb) continue;
    if (groups.empty() || !in_pair(e.l0, groups.back().first) || !in_pair(e.l1, groups.back().first)) {
      groups.emplace_back(e.l0, false);
    }
    if (e.l0 != groups.back().first || e.l1 != groups.back().first) groups.back().second = true;
  }
  groups_ += groups.empty() ? 1 : groups.size();
  for (const auto& g : groups) {
    line(g.first);
    if (g.second) line((g.first + 1) & kLineMask);
  }
  v.vtx_id = (p.slot & 0x1Fu) | (uint32_t{p.first ? 1u : 0u} << 5);
  ++vertices_;
  emit(v);
}

std::vector<VtxInPkt> VertexFetch::process(const VFetchPkt& p, const Memory& mem) {
  std::vector<VtxInPkt> out;
  process(p, mem, [&out](const VtxInPkt& v) { out.push_back(v); });
  return out;
}

}  // namespace pineda::model
