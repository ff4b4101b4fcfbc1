#include "rast/coarse_raster.h"

#include "setup/setup.h"

namespace pineda::model {

bool CoarseRaster::test_tile(const SetupPkt& s, uint32_t tx, uint32_t ty, TilePkt& out) {
  bool reject = false;
  bool accept = true;
  const int64_t dx = static_cast<int64_t>(tx) - static_cast<int64_t>(s.tiles.x0);
  const int64_t dy = static_cast<int64_t>(ty) - static_cast<int64_t>(s.tiles.y0);
  for (int k = 0; k < 3; ++k) {
    const int64_t a = s.edges[k].a;
    const int64_t b = s.edges[k].b;
    const int64_t et = s.edges[k].e + a * 2048 * dx + b * 2048 * dy;
    const int64_t mx = et + (a > 0 ? 7 * 256 * a : 0) + (b > 0 ? 7 * 256 * b : 0);
    const int64_t mn = et + (a < 0 ? 7 * 256 * a : 0) + (b < 0 ? 7 * 256 * b : 0);
    check_signed(et, EDGE_W, "coarse Et");
    check_signed(mx, EDGE_W, "coarse max");
    check_signed(mn, EDGE_W, "coarse min");
    if (mx < 0) reject = true;
    if (mn < 0) accept = false;
    out.edges[k].a = a;
    out.edges[k].b = b;
    out.edges[k].e = et;
  }
  out.tx = tx;
  out.ty = ty;
  out.accept = accept ? 1 : 0;
  out.pix = s.pix;
  out.color = s.color;
  out.target = s.target;
  out.tri_id = s.tri_id;
  return !reject;
}

void CoarseRaster::process(const SetupPkt& s, const std::function<void(const TilePkt&)>& emit) {
  if (s.eop) {  // end-of-pipe token: one decision, always emitted
    TilePkt token;
    token.eop = 1;
    emit(token);
    return;
  }
  for (uint64_t ty = s.tiles.y0; ty < s.tiles.y1; ++ty) {
    for (uint64_t tx = s.tiles.x0; tx < s.tiles.x1; ++tx) {
      ++visited_;
      TilePkt t;
      if (!test_tile(s, static_cast<uint32_t>(tx), static_cast<uint32_t>(ty), t)) continue;
      ++emitted_;
      if (t.accept) ++accepted_;
      emit(t);
    }
  }
}

std::vector<TilePkt> CoarseRaster::process(const SetupPkt& s) {
  std::vector<TilePkt> out;
  process(s, [&out](const TilePkt& t) { out.push_back(t); });
  return out;
}

}  // namespace pineda::model
