// SPDX-License-Identifier: Apache-2.0
// Primitive assembly, clip, project, snap, cull: the one definition (docs/numerics.md §8).
#include "pa/pa.h"

#include <algorithm>
#include <stdexcept>

#include "fp32.h"
#include "rast/zplane_d24.h"

namespace pineda::model {

namespace {
constexpr uint32_t ONE = FP32_ONE;
constexpr uint32_t HALF = 0x3F000000u;
constexpr uint32_t TWO_M64 = 0x1F800000u;  // 2^-64
constexpr uint32_t D_BIG_EXP = 0xBFu;      // biased exponent of 2^64
constexpr uint32_t TWO = 0x40000000u;
constexpr uint32_t EPS = PA_CLIP_EPS;
inline uint32_t neg(uint32_t a) { return a ^ fp32::SIGN; }
inline bool pos_nan(const PrimitiveAssembly::CV& v) {
  return fp32::is_nan(v.a[0]) || fp32::is_nan(v.a[1]) || fp32::is_nan(v.a[2]) || fp32::is_nan(v.a[3]);
}
// Projected vertex.
struct PV {
  int32_t sx = 0, sy = 0;
  uint32_t z = 0, rhw = 0;
};
}  // namespace

void PrimitiveAssembly::reset() {
  st_.reset();
  batches_.clear();
  tri_id_ = 0;
  stats_ = Stats{};
}

PrimitiveAssembly::CV PrimitiveAssembly::from_clip_vtx(const ClipVtxPkt& v) {
  CV c;
  c.a = {static_cast<uint32_t>(v.pos.x),  static_cast<uint32_t>(v.pos.y),  static_cast<uint32_t>(v.pos.z),
         static_cast<uint32_t>(v.pos.w),  static_cast<uint32_t>(v.tex0.u), static_cast<uint32_t>(v.tex0.v),
         static_cast<uint32_t>(v.tex1.u), static_cast<uint32_t>(v.tex1.v)};
  c.color = static_cast<uint32_t>(v.color);
  return c;
}

void PrimitiveAssembly::push_vertex(const ClipVtxPkt& v) {
  if (v.eop) return;
  if ((v.vtx_id >> 5) & 1u) {
    batches_.emplace_back();  // a batch starts
  } else if (batches_.empty()) {
    return;  // its batch is done (no triangle reads it: vertex tags never sends one): dropped
  }
  batches_.back().push_back(from_clip_vtx(v));
}

bool PrimitiveAssembly::can_process(const PrimPkt& p) const {
  if (p.eop || p.wr) return true;
  if (batches_.empty()) return false;
  const size_t n = batches_.front().size();
  return p.s0 < n && p.s1 < n && p.s2 < n;
}

uint32_t PrimitiveAssembly::dbl(uint32_t w) { return fp32::mul(w, TWO); }

uint32_t PrimitiveAssembly::dist(int plane, const CV& v) {
  const uint32_t x = v.a[A_X], y = v.a[A_Y], z = v.a[A_Z], w = v.a[A_W];
  switch (plane) {
    case PL_W: return fp32::sub(w, EPS);
    case PL_NEAR: return z;
    case PL_FAR: return fp32::sub(w, z);
    case PL_LEFT: return fp32::add(dbl(w), x);
    case PL_RIGHT: return fp32::sub(dbl(w), x);
    case PL_BOTTOM: return fp32::add(dbl(w), y);
    case PL_TOP: return fp32::sub(dbl(w), y);
    default: throw std::logic_error("PA: bad plane");
  }
}

bool PrimitiveAssembly::inside(uint32_t d) { return !fp32::is_nan(d) && (!(d & fp32::SIGN) || fp32::is_zero_daz(d)); }

uint32_t PrimitiveAssembly::clip_code(const CV& v, bool depth_clip) {
  uint32_t c = 0;
  for (int p = 0; p < NUM_PLANES; ++p) {
    if (!inside(dist(p, v))) c |= 1u << p;
  }
  if (!depth_clip) c &= ~((1u << PL_NEAR) | (1u << PL_FAR));
  return c;
}

PrimitiveAssembly::CV PrimitiveAssembly::intersect(const CV& in, const CV& out, int plane) {
  uint32_t di = dist(plane, in);
  const uint32_t dout = dist(plane, out);
  uint32_t den = fp32::sub(di, dout);
  if (((den >> 23) & 0xFFu) >= D_BIG_EXP) {  // |D| >= 2^64 or Inf (numerics 8.2): scale by 2^-64
    di = fp32::mul(di, TWO_M64);
    den = fp32::sub(di, fp32::mul(dout, TWO_M64));
  }
  const uint32_t t = fp32::mul(di, fp32::rcp(den));
  const uint32_t s = fp32::sub(ONE, t);
  CV r;
  for (int k = 0; k < NUM_FATTR; ++k) r.a[k] = fp32::add(fp32::mul(s, in.a[k]), fp32::mul(t, out.a[k]));
  // The new vertex is put exactly on the plane.
  switch (plane) {
    case PL_W: r.a[A_W] = EPS; break;
    case PL_NEAR: r.a[A_Z] = 0; break;
    case PL_FAR: r.a[A_Z] = r.a[A_W]; break;
    case PL_LEFT: r.a[A_X] = neg(dbl(r.a[A_W])); break;
    case PL_RIGHT: r.a[A_X] = dbl(r.a[A_W]); break;
    case PL_BOTTOM: r.a[A_Y] = neg(dbl(r.a[A_W])); break;
    case PL_TOP: r.a[A_Y] = dbl(r.a[A_W]); break;
    default: break;
  }
  // Colour: T = t in 1/256 (RNE), clamped to [0, 256]; per channel (ci*(256-T) + co*T + 128) >> 8.
  int32_t tf = fp32::to_fix16_8(t);
  tf = std::clamp(tf, 0, 256);
  const uint32_t T = static_cast<uint32_t>(tf);
  r.color = 0;
  for (int ch = 0; ch < 4; ++ch) {
    const uint32_t ci = (in.color >> (8 * ch)) & 0xFFu, co = (out.color >> (8 * ch)) & 0xFFu;
    r.color |= (((ci * (256 - T) + co * T + 128) >> 8) & 0xFFu) << (8 * ch);
  }
  return r;
}

std::vector<PrimitiveAssembly::CV> PrimitiveAssembly::clip_polygon(std::vector<CV> poly, uint32_t planes) {
  for (int p = 0; p < NUM_PLANES; ++p) {
    if (!((planes >> p) & 1u)) continue;
    std::vector<CV> o;
    const size_t n = poly.size();
    for (size_t i = 0; i < n; ++i) {
      const CV& a = poly[i];
      const CV& b = poly[(i + 1) % n];
      const bool ia = inside(dist(p, a)), ib = inside(dist(p, b));
      if (ia) o.push_back(a);
      if (ia != ib) o.push_back(ia ? intersect(a, b, p) : intersect(b, a, p));
    }
    poly = std::move(o);
    if (poly.size() < 3) return {};
  }
  return poly;
}

Rect PrimitiveAssembly::clip_rect() const {
  Rect c;
  const uint64_t w = std::min<uint64_t>(st_.rt_size.width, MAX_RT_DIM);
  const uint64_t h = std::min<uint64_t>(st_.rt_size.height, MAX_RT_DIM);
  c.x0 = std::min(st_.scissor_x.lo, w);
  c.x1 = std::min(st_.scissor_x.hi, w);
  c.y0 = std::min(st_.scissor_y.lo, h);
  c.y1 = std::min(st_.scissor_y.hi, h);
  return c;
}

void PrimitiveAssembly::process(const PrimPkt& p, std::vector<PaTriPkt>& out) {
  if (p.eop) {
    PaTriPkt t;
    t.eop = 1;
    out.push_back(t);
    ++stats_.tokens;
    return;
  }
  if (p.wr) {
    st_.write(static_cast<uint32_t>(p.wr_idx), static_cast<uint32_t>(p.wr_val));  // others: not PA's
    ++stats_.state_writes;
    return;
  }
  if (batches_.empty()) throw std::logic_error("PA: a triangle before its batch");
  ++stats_.prims;
  const std::vector<CV>& batch = batches_.front();
  const uint32_t sl[3] = {static_cast<uint32_t>(p.s0), static_cast<uint32_t>(p.s1), static_cast<uint32_t>(p.s2)};
  std::vector<CV> poly;
  for (uint32_t s : sl) poly.push_back(s < batch.size() ? batch[s] : CV{});
  const uint32_t flat = poly[0].color;
  const bool depth_clip = st_.raster.depth_clip_off == 0;
  [&] {
    if (pos_nan(poly[0]) || pos_nan(poly[1]) || pos_nan(poly[2])) {
      ++stats_.nan;
      return;
    }
    const uint32_t c0 = clip_code(poly[0], depth_clip), c1 = clip_code(poly[1], depth_clip),
                   c2 = clip_code(poly[2], depth_clip);
    if (c0 & c1 & c2) {
      ++stats_.rejected;
      return;
    }
    const uint32_t any = c0 | c1 | c2;
    if (any) {
      ++stats_.clipped;
      poly = clip_polygon(poly, any);
      if (poly.empty()) {
        ++stats_.clipped_away;
        return;
      }
      stats_.new_vertices += poly.size();
    }
    for (const CV& v : poly) {
      if (pos_nan(v)) {
        ++stats_.nan;
        return;
      }
    }
    // Projection, viewport, snap (numerics §8.4).
    const uint32_t hw = fp32::mul(st_.vp_w, HALF), hh = fp32::mul(st_.vp_h, HALF);
    const uint32_t zr = fp32::sub(st_.vp_zmax, st_.vp_zmin);
    std::vector<PV> pv;
    for (const CV& v : poly) {
      PV q;
      q.rhw = fp32::rcp(v.a[A_W]);
      const uint32_t xn = fp32::mul(v.a[A_X], q.rhw), yn = fp32::mul(v.a[A_Y], q.rhw), zn = fp32::mul(v.a[A_Z], q.rhw);
      const uint32_t X = fp32::add(fp32::mul(fp32::add(xn, ONE), hw), st_.vp_x);
      const uint32_t Y = fp32::add(fp32::mul(fp32::sub(ONE, yn), hh), st_.vp_y);
      q.z = fp32::add(fp32::mul(zn, zr), st_.vp_zmin);
      q.sx = fp32::to_fix16_8(X);
      q.sy = fp32::to_fix16_8(Y);
      pv.push_back(q);
    }
    const Rect clip = clip_rect();
    const uint64_t cull = st_.raster.cull;
    const bool ccw = st_.raster.front_ccw != 0;
    for (size_t j = 1; j + 1 < poly.size(); ++j) {
      const size_t idx[3] = {0, j, j + 1};
      const int64_t x0 = pv[0].sx, y0 = pv[0].sy;
      const int64_t dx1 = pv[j].sx - x0, dy1 = pv[j].sy - y0, dx2 = pv[j + 1].sx - x0, dy2 = pv[j + 1].sy - y0;
      const int64_t area2 = dx1 * dy2 - dx2 * dy1;
      if (area2 == 0) {
        ++stats_.culled_area;
        continue;
      }
      const bool front = (area2 > 0) != ccw;  // area2 > 0: clockwise on screen (Y down)
      if ((cull == PA_CULL_FRONT && front) || (cull == PA_CULL_BACK && !front)) {
        ++stats_.culled_face;
        continue;
      }
      int64_t xmin = x0, xmax = x0, ymin = y0, ymax = y0;
      for (size_t k = 1; k < 3; ++k) {
        xmin = std::min<int64_t>(xmin, pv[idx[k]].sx);
        xmax = std::max<int64_t>(xmax, pv[idx[k]].sx);
        ymin = std::min<int64_t>(ymin, pv[idx[k]].sy);
        ymax = std::max<int64_t>(ymax, pv[idx[k]].sy);
      }
      // SETUP's sample box: samples lie within d = 0 (1x) or 96/256 pixel (4x MSAA) of the centre.
      const int64_t d = st_.rt_pitch.msaa ? 96 : 0;
      const int64_t px0 = std::max<int64_t>((xmin + 127 - d) >> 8, clip.x0);
      const int64_t px1 = std::min<int64_t>(((xmax - 128 + d) >> 8) + 1, clip.x1);
      const int64_t py0 = std::max<int64_t>((ymin + 127 - d) >> 8, clip.y0);
      const int64_t py1 = std::min<int64_t>(((ymax - 128 + d) >> 8) + 1, clip.y1);
      if (px1 <= px0 || py1 <= py0) {
        ++stats_.culled_empty;
        continue;
      }
      PaTriPkt t;
      for (int k = 0; k < 3; ++k) {
        const PV& q = pv[idx[k]];
        const CV& v = poly[idx[k]];
        t.v[k].x = q.sx;
        t.v[k].y = q.sy;
        t.attr[k].z = q.z;
        t.attr[k].rhw = q.rhw;
        t.attr[k].color = v.color;
        t.attr[k].tex0.u = v.a[A_U0];
        t.attr[k].tex0.v = v.a[A_V0];
        t.attr[k].tex1.u = v.a[A_U1];
        t.attr[k].tex1.v = v.a[A_V1];
      }
      t.color = flat;
      t.target.base = st_.rt_base;
      t.target.pitch = st_.rt_pitch.pitch;
      t.target.msaa = st_.rt_pitch.msaa;  // as the CP's ST_RT_PITCH
      t.clip = clip;
      t.tri_id = tri_id_++;
      t.prim_id = p.prim_id;
      t.draw_id = p.draw_id;
      t.front = front ? 1 : 0;
      t.ds = ds_state();
      t.om = om_state();
      t.zlo = zplane_bound(st_.vp_zmin);
      t.zhi = std::max<uint64_t>(t.zlo, zplane_bound(st_.vp_zmax));
      out.push_back(t);
      ++stats_.tris_out;
    }
  }();
  if (p.last) batches_.pop_front();
}

TriPkt pa_to_tri(const PaTriPkt& t) {
  TriPkt tri;
  tri.eop = t.eop;
  tri.v = t.v;
  tri.color = t.color;
  tri.target = t.target;
  tri.clip = t.clip;
  tri.tri_id = t.tri_id;
  for (int k = 0; k < 3; ++k) {
    tri.z[k].data = t.attr[k].z;
    tri.a[k].rhw = t.attr[k].rhw;
    tri.a[k].color = t.attr[k].color;
    tri.a[k].uv0 = t.attr[k].tex0;
    tri.a[k].uv1 = t.attr[k].tex1;
  }
  tri.front = t.front;
  tri.ds = t.ds;
  tri.om = t.om;
  tri.zlo = t.zlo;
  tri.zhi = t.zhi;
  return tri;
}

std::vector<PaTriPkt> run_pa(const std::vector<ClipVtxPkt>& vtx, const std::vector<PrimPkt>& prims, PrimitiveAssembly* pa) {
  PrimitiveAssembly local;
  PrimitiveAssembly& u = pa ? *pa : local;
  for (const auto& v : vtx) u.push_vertex(v);
  std::vector<PaTriPkt> out;
  for (const auto& p : prims) u.process(p, out);
  return out;
}

DsState PrimitiveAssembly::ds_state() const {
  DsState d;
  d.base = st_.ds_base;
  d.pitch = st_.ds_pitch & 0xFFFFu;
  d.z_enable = st_.depth.enable;
  d.z_func = st_.depth.func;
  d.z_write = st_.depth.write;
  // An alpha-tested draw tests depth late (docs/comb.md section 5): after the kill, at ZS's late
  // port; HIZ then does not update its bounds from it.
  d.late_z = st_.depth.late | st_.combine.alpha_test | st_.combine.alpha_to_coverage;
  d.hiz = st_.depth.hiz;
  d.s_enable = st_.stencil.enable;
  d.s_ref = st_.stencil.ref_val;
  d.s_read_mask = st_.stencil.read_mask;
  d.s_write_mask = st_.stencil.write_mask;
  d.s_front = st_.stencil_ops.front.word();
  d.s_back = st_.stencil_ops.back.word();
  return d;
}

OmState PrimitiveAssembly::om_state() const {
  OmState o;
  o.fmt = st_.rt_pitch.fmt;
  o.blend = st_.blend.enable;
  o.src = st_.blend.src;
  o.dst = st_.blend.dst;
  o.op = st_.blend.op;
  o.src_a = st_.blend.src_a;
  o.dst_a = st_.blend.dst_a;
  o.op_a = st_.blend.op_a;
  o.mask_off = st_.blend.mask_off;
  o.lop_en = st_.logic_op.enable;
  o.lop = st_.logic_op.op;
  o.factor = st_.blend_factor;
  o.gouraud = st_.shade.gouraud;
  // The pixel stage's texture slots 0 and 1 and the combiner (docs/comb.md section 5).
  o.tex = st_.tex0;
  o.samp = st_.samp0;
  o.tex1 = st_.tex1;
  o.samp1 = st_.samp1;
  const uint32_t cw = st_.combine.word() & ((1u << CombState::WIDTH) - 1u);
  o.comb = CombState::unpack(&cw);
  return o;
}

}  // namespace pineda::model
