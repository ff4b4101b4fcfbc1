// SPDX-License-Identifier: Apache-2.0
#include "rast/fine_raster.h"

#include "rast/zplane_d24.h"

#include <stdexcept>

#include "rast/lattice.h"
#include "setup/setup.h"

namespace pineda::model {

uint64_t FineRaster::coverage_mask(const TilePkt& t) {
  const bool msaa = t.target.msaa != 0;
  const int64_t wrap = int64_t{1} << FINE_W;
  uint64_t mask = 0;
  const EdgeLattice lat[3] = {EdgeLattice(t.edges[0].a, t.edges[0].b, msaa), EdgeLattice(t.edges[1].a, t.edges[1].b, msaa),
                        EdgeLattice(t.edges[2].a, t.edges[2].b, msaa)};
  int64_t eh[3];
  bool crossing[3];
  for (int k = 0; k < 3; ++k) {
    eh[k] = t.edges[k].e >> lat[k].sh;  // arithmetic shift = floor
    // A tile from the coarse rasterizer has, for each edge not marked inside, min F < 0 <= max F
    // (a crossing edge): then the narrowed F below is exact (numerics section 5.2).
    crossing[k] = eh[k] + lat[k].min_pq() < 0 && eh[k] + lat[k].max_pq() >= 0;
  }
  for (int j = 0; j < 8; ++j) {
    for (int i = 0; i < 8; ++i) {
      bool inside = true;
      for (int k = 0; k < 3; ++k) {
        if ((t.edge_in >> k) & 1u) continue;
        // F = (e >> sh) + P(i) + Q(j), evaluated modulo 2^FINE_W: the sign bit decides.
        const int64_t f = eh[k] + lat[k].p(i) + lat[k].q(j);
        const int64_t fw = bits::sext(static_cast<uint64_t>(f) & static_cast<uint64_t>(wrap - 1), FINE_W);
        if (crossing[k]) {
          check_signed(f, FINE_W, "fine F (crossing edge)");
          const int64_t e = t.edges[k].e + shl(lat[k].p(i) + lat[k].q(j), lat[k].sh);
          if ((f >= 0) != (e >= 0)) throw std::logic_error("fine: narrowed sign differs from E");
        }
        if (fw < 0) inside = false;
      }
      if (inside) mask |= uint64_t{1} << (j * 8 + i);
    }
  }
  // The clip rectangle: sample (i, j) belongs to pixel (i, j) (1x) or (i/2, j/2) (4x).
  const int ps = msaa ? 1 : 0;
  for (int j = 0; j < 8; ++j) {
    const uint64_t py = (t.ty << (3 - ps)) + static_cast<uint64_t>(j >> ps);
    for (int i = 0; i < 8; ++i) {
      const uint64_t px = (t.tx << (3 - ps)) + static_cast<uint64_t>(i >> ps);
      const bool in_pix = t.pix.x0 <= px && px < t.pix.x1 && t.pix.y0 <= py && py < t.pix.y1;
      if (!in_pix) mask &= ~(uint64_t{1} << (j * 8 + i));
    }
  }
  return mask;
}

std::vector<QuadPkt> FineRaster::quads(const TilePkt& t, uint64_t mask) {
  std::vector<QuadPkt> out;
  const bool msaa = t.target.msaa != 0;
  const int nq = msaa ? 2 : 4;  // quads per tile edge
  for (int qyl = 0; qyl < nq; ++qyl) {
    for (int qxl = 0; qxl < nq; ++qxl) {
      uint64_t qm = 0;
      for (int p = 0; p < 4; ++p) {
        const int px = 2 * qxl + (p & 1), py = 2 * qyl + (p >> 1);  // pixel in the tile
        if (!msaa) {
          qm |= ((mask >> (py * 8 + px)) & 1u) << p;
        } else {
          for (int smp = 0; smp < 4; ++smp) {
            const int i = 2 * px + (smp & 1), j = 2 * py + (smp >> 1);
            qm |= ((mask >> (j * 8 + i)) & 1u) << (4 * p + smp);
          }
        }
      }
      if (qm == 0) continue;
      QuadPkt q;
      q.qx = t.tx * static_cast<uint64_t>(nq) + static_cast<uint64_t>(qxl);
      q.qy = t.ty * static_cast<uint64_t>(nq) + static_cast<uint64_t>(qyl);
      q.mask = qm;
      q.color = t.color;
      q.target = t.target;
      q.tri_id = t.tri_id;
      q.front = t.front;
      q.ds = t.ds;
      q.om = t.om;
      q.it = t.it;
      // Per-sample depth (numerics section 9): the plane at lattice sample (i, j), like E.
      const EdgeLattice zl(t.zp.a, t.zp.b, msaa);
      for (int n = 0; n < 16; ++n) {
        if (((qm >> n) & 1u) == 0) continue;
        const int p = msaa ? n / 4 : n, smp = msaa ? n % 4 : 0;
        const int px = 2 * qxl + (p & 1), py = 2 * qyl + (p >> 1);
        const int i = msaa ? 2 * px + (smp & 1) : px, j = msaa ? 2 * py + (smp >> 1) : py;
        const int64_t z = t.zp.c + shl(zl.p(i) + zl.q(j), zl.sh);
        check_signed(z, ZPLANE_W, "fine plane Z");
        q.z[n].v = zplane_d24(z, static_cast<uint32_t>(t.zlo), static_cast<uint32_t>(t.zhi));
      }
      out.push_back(q);
    }
  }
  return out;
}

void FineRaster::process(const TilePkt& t, const std::function<void(const QuadPkt&)>& emit) {
  if (t.eop) {  // end-of-pipe token: forwarded, not counted
    QuadPkt token;
    token.eop = 1;
    emit(token);
    return;
  }
  ++tiles_in_;
  const uint64_t mask = coverage_mask(t);
  if (mask == 0) return;
  ++covered_;
  samples_ += static_cast<uint64_t>(__builtin_popcountll(mask));
  for (const QuadPkt& q : quads(t, mask)) {
    ++quads_;
    emit(q);
  }
}

std::vector<QuadPkt> FineRaster::process(const TilePkt& t) {
  std::vector<QuadPkt> out;
  process(t, [&out](const QuadPkt& q) { out.push_back(q); });
  return out;
}

}  // namespace pineda::model
