// SPDX-License-Identifier: Apache-2.0
#include "zs/zs.h"

#include <algorithm>

namespace pineda::model {

uint32_t Zs::stencil_op(uint32_t op, uint32_t s, uint32_t ref) {
  switch (op & 7u) {
    case SOP_KEEP: return s;
    case SOP_ZERO: return 0;
    case SOP_REPLACE: return ref & 0xFFu;
    case SOP_INCR_SAT: return s == 0xFFu ? 0xFFu : s + 1;
    case SOP_DECR_SAT: return s == 0 ? 0 : s - 1;
    case SOP_INVERT: return ~s & 0xFFu;
    case SOP_INCR: return (s + 1) & 0xFFu;
    default: return (s - 1) & 0xFFu;
  }
}

uint32_t Zs::sample_addr(const QuadPkt& q, int bit) {
  const bool msaa = q.target.msaa != 0;
  const int p = msaa ? bit >> 2 : bit;
  const uint32_t x = static_cast<uint32_t>(q.qx) * 2u + static_cast<uint32_t>(p & 1);
  const uint32_t y = static_cast<uint32_t>(q.qy) * 2u + static_cast<uint32_t>(p >> 1);
  const uint32_t base = static_cast<uint32_t>(q.ds.base) & ~63u;
  const uint32_t pitch = static_cast<uint32_t>(q.ds.pitch) & ~63u;
  return base + y * pitch + (msaa ? x * 16u + static_cast<uint32_t>(bit & 3) * 4u : x * 4u);
}

QuadPkt Zs::test(const QuadPkt& q, Memory& mem) {
  QuadPkt o = q;
  if (!active(q)) return o;
  const DsState& ds = q.ds;
  const uint32_t face = static_cast<uint32_t>(q.front ? ds.s_front : ds.s_back);
  const uint32_t sfunc = face & 7u, sfail = (face >> 3) & 7u, szfail = (face >> 6) & 7u, spass = (face >> 9) & 7u;
  const uint32_t ref = static_cast<uint32_t>(ds.s_ref) & 0xFFu, rmask = static_cast<uint32_t>(ds.s_read_mask) & 0xFFu;
  const uint32_t wmask = static_cast<uint32_t>(ds.s_write_mask) & 0xFFu;
  const int nbits = q.target.msaa ? 16 : 4;
  for (int bit = 0; bit < nbits; ++bit) {
    if (((q.mask >> bit) & 1u) == 0) continue;
    const uint32_t a = sample_addr(q, bit);
    const uint32_t old = mem.read32(a);
    const uint32_t sd = old & 0xFFFFFFu, ss = old >> 24;
    const uint32_t z = static_cast<uint32_t>(q.z[bit].v) & 0xFFFFFFu;
    const bool s_ok = !ds.s_enable || cmp_pass(sfunc, ref & rmask, ss & rmask);
    const bool z_ok = !ds.z_enable || cmp_pass(static_cast<uint32_t>(ds.z_func), z, sd);
    const uint32_t nd = (s_ok && z_ok && ds.z_enable && ds.z_write) ? z : sd;
    uint32_t ns = ss;
    if (ds.s_enable) {
      const uint32_t op = !s_ok ? sfail : !z_ok ? szfail : spass;
      ns = (ss & ~wmask) | (stencil_op(op, ss, ref) & wmask);
    }
    const uint32_t nw = (ns << 24) | nd;
    if (nw != old) mem.write32(a, nw, 0xF);
    if (!(s_ok && z_ok)) {
      o.mask &= ~(1ull << bit);
      o.z[bit].v = 0;
    }
  }
  return o;
}

QuadPkt Zs::pixel_stage(const QuadPkt& q, uint32_t kill) {
  QuadPkt o = q;
  uint64_t cleared = 0;
  for (int p = 0; p < 4; ++p) {
    if ((kill >> p) & 1u) cleared |= q.target.msaa ? uint64_t{0xF} << (4 * p) : uint64_t{1} << p;
  }
  o.mask &= ~cleared;
  for (int i = 0; i < 16; ++i) {
    if ((cleared >> i) & 1u) o.z[i].v = 0;
  }
  return o;
}

std::optional<QuadPkt> Zs::process(const QuadPkt& q, Memory& mem, uint32_t kill) {
  if (q.eop) return q;
  ++quads_in_;
  QuadPkt o;
  if (q.ds.late_z) {
    o = test(pixel_stage(q, kill), mem);
  } else {
    o = pixel_stage(test(q, mem), kill);
  }
  if (active(q)) {
    const uint64_t in_mask = q.ds.late_z ? pixel_stage(q, kill).mask : q.mask;  // late: the survivors
    for (uint64_t m = in_mask & (q.target.msaa ? 0xFFFFu : 0xFu); m; m &= m - 1) ++tested_;
    for (uint64_t m = o.mask & (q.target.msaa ? 0xFFFFu : 0xFu); m; m &= m - 1) ++passed_;
  }
  if (o.mask == 0) return std::nullopt;
  ++quads_out_;
  return o;
}

void Zs::count(const QuadPkt& q, uint64_t in_mask, uint64_t out_mask) {
  const uint64_t all = q.target.msaa ? 0xFFFFu : 0xFu;
  for (uint64_t m = in_mask & all; m; m &= m - 1) ++tested_;
  for (uint64_t m = out_mask & all; m; m &= m - 1) ++passed_;
}

std::optional<QuadPkt> Zs::early(const QuadPkt& q, Memory& mem) {
  if (q.eop) return q;
  ++quads_in_;
  if (!active(q) || q.ds.late_z) return q;
  const QuadPkt o = test(q, mem);
  count(q, q.mask, o.mask);
  if (o.mask == 0) return std::nullopt;
  return o;
}

std::optional<InterpPkt> Zs::late(const InterpPkt& p, Memory& mem) {
  InterpPkt o = p;
  o.quad.it = InterpTri{};
  if (p.quad.eop) return o;
  if (late_quad(p.quad)) {
    if (p.quad.mask == 0) return std::nullopt;
    o.quad = test(o.quad, mem);
    count(p.quad, p.quad.mask, o.quad.mask);
    if (o.quad.mask == 0) return std::nullopt;
  }
  ++quads_out_;
  return o;
}

void Zs::clear(const ClearPkt& c, Memory& mem) {
  if (!c.depth && !c.stencil) return;
  const uint32_t be = (c.depth ? 0x7u : 0u) | (c.stencil ? 0x8u : 0u);
  const uint32_t base = static_cast<uint32_t>(c.target.base) & ~63u;
  const uint32_t pitch = static_cast<uint32_t>(c.target.pitch) & ~63u;
  const uint32_t spp = c.target.msaa ? 4u : 1u;
  for (uint32_t y = static_cast<uint32_t>(c.rect.y0); y < c.rect.y1; ++y) {
    for (uint32_t x = static_cast<uint32_t>(c.rect.x0); x < c.rect.x1; ++x) {
      for (uint32_t s = 0; s < spp; ++s) {
        mem.write32(base + y * pitch + x * 4u * spp + s * 4u, static_cast<uint32_t>(c.value), be);
      }
    }
  }
}

}  // namespace pineda::model
