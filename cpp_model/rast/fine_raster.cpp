#include "rast/fine_raster.h"

#include "setup/setup.h"

namespace pineda::model {

uint64_t FineRaster::coverage_mask(const TilePkt& t) {
  uint64_t mask = 0;
  for (int j = 0; j < 8; ++j) {
    const uint64_t py = t.ty * 8 + static_cast<uint64_t>(j);
    for (int i = 0; i < 8; ++i) {
      const uint64_t px = t.tx * 8 + static_cast<uint64_t>(i);
      bool inside = true;
      if (!t.accept) {
        for (int k = 0; k < 3; ++k) {
          const int64_t e = t.edges[k].e + i * 256 * t.edges[k].a + j * 256 * t.edges[k].b;
          check_signed(e, EDGE_W, "fine E");
          if (e < 0) inside = false;
        }
      }
      const bool in_pix = t.pix.x0 <= px && px < t.pix.x1 && t.pix.y0 <= py && py < t.pix.y1;
      if (inside && in_pix) mask |= uint64_t{1} << (j * 8 + i);
    }
  }
  return mask;
}

std::optional<CovPkt> FineRaster::process(const TilePkt& t) {
  if (t.eop) {  // end-of-pipe token: forwarded, not counted
    CovPkt token;
    token.eop = 1;
    return token;
  }
  ++tiles_in_;
  const uint64_t mask = coverage_mask(t);
  if (mask == 0) return std::nullopt;
  ++emitted_;
  samples_ += static_cast<uint64_t>(__builtin_popcountll(mask));
  CovPkt c;
  c.tx = t.tx;
  c.ty = t.ty;
  c.mask = mask;
  c.color = t.color;
  c.target = t.target;
  c.tri_id = t.tri_id;
  return c;
}

}  // namespace pineda::model
