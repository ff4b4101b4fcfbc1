#include "scenes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "command_writer.h"
#include "pineda_contract.h"

namespace pineda {

uint64_t SceneRng::next() {
  uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t SceneRng::range(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(next() % span);
}

namespace {

constexpr int32_t PX = 256;  // one pixel in 16.8

int64_t area2(const SceneVertex& a, const SceneVertex& b, const SceneVertex& c) {
  return (int64_t{b.x} - a.x) * (int64_t{c.y} - a.y) - (int64_t{c.x} - a.x) * (int64_t{b.y} - a.y);
}

int32_t snap_centre(int32_t v) { return ((v >> 8) << 8) + 128; }

uint32_t rgba(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xFF000000u; }

// Distinct opaque colours for successive draws.
uint32_t palette(uint32_t i) {
  const uint32_t p[] = {rgba(230, 60, 60),  rgba(60, 180, 75),  rgba(255, 225, 25), rgba(0, 130, 200),
                        rgba(245, 130, 48), rgba(145, 30, 180), rgba(70, 240, 240), rgba(240, 50, 230),
                        rgba(210, 245, 60), rgba(250, 190, 212), rgba(0, 128, 128), rgba(220, 190, 255),
                        rgba(170, 110, 40), rgba(255, 250, 200), rgba(128, 0, 0),   rgba(170, 255, 195)};
  return p[i % 16];
}

SceneTri random_winding(SceneTri t, SceneRng& rng) {
  const int64_t rot = rng.range(0, 2);
  for (int64_t r = 0; r < rot; ++r) std::rotate(t.begin(), t.begin() + 1, t.end());
  if (rng.chance(50)) std::swap(t[1], t[2]);
  return t;
}

// Collects a vertex buffer and a command stream and lays out a scene image.
class Builder {
 public:
  Builder(std::string name, uint32_t width, uint32_t height, uint32_t pitch, uint32_t background,
          uint32_t pad_colour = rgba(255, 0, 255))
      : width_(width), height_(height), pitch_(pitch) {
    img_.name = std::move(name);
    img_.rt_base = SCENE_RT_BASE;
    img_.rt_pitch = pitch;
    img_.width = width;
    img_.height = height;
    // Background inside the target; a sentinel colour in the row padding and in 8 rows below it,
    // so that a write outside the target shows up in a memory comparison.
    for (uint32_t y = 0; y < height + 8; ++y) {
      const uint32_t row = SCENE_RT_BASE + y * pitch;
      if (y < height) {
        img_.mem.fill32(row, width, background);
        img_.mem.fill32(row + width * 4, (pitch - width * 4) / 4, pad_colour);
      } else {
        img_.mem.fill32(row, pitch / 4, pad_colour);
      }
    }
    cw.set_state(ST_VB_BASE, SCENE_VB_BASE);
    cw.set_state(ST_RT_BASE, SCENE_RT_BASE, pitch, (height << 16) | width);
  }

  // Appends vertices to the scene vertex buffer; returns the index of the first one.
  uint32_t add_vertices(const std::vector<SceneVertex>& v) {
    const uint32_t first = static_cast<uint32_t>(vb_.size());
    vb_.insert(vb_.end(), v.begin(), v.end());
    return first;
  }
  uint32_t add_tris(const std::vector<SceneTri>& tris) {
    std::vector<SceneVertex> v;
    for (const SceneTri& t : tris) v.insert(v.end(), t.begin(), t.end());
    return add_vertices(v);
  }
  // SET_STATE COLOR + DRAW of the triangles.
  void draw(uint32_t colour, const std::vector<SceneTri>& tris) {
    const uint32_t first = add_tris(tris);
    cw.set_state(ST_COLOR, colour);
    cw.draw(first, static_cast<uint32_t>(tris.size() * 3));
  }
  void write_vertices(uint32_t addr, const std::vector<SceneVertex>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      img_.mem.write32(addr + static_cast<uint32_t>(i) * 8, static_cast<uint32_t>(v[i].x));
      img_.mem.write32(addr + static_cast<uint32_t>(i) * 8 + 4, static_cast<uint32_t>(v[i].y));
    }
  }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  Memory& mem() { return img_.mem; }
  SceneImage& image() { return img_; }

  SceneImage finish() {
    write_vertices(SCENE_VB_BASE, vb_);
    cw.write_reg(SCENE_FENCE_INDEX, SCENE_FENCE_VALUE, true);
    cw.end();
    img_.reg_writes.push_back({REG_IRQ_ENABLE, (1u << IRQ_END) | (1u << IRQ_ERROR)});
    const auto regs = place_in_ring(img_.mem, SCENE_RING_BASE, SCENE_RING_SIZE, cw.dwords());
    img_.reg_writes.insert(img_.reg_writes.end(), regs.begin(), regs.end());
    return std::move(img_);
  }

  CommandWriter cw;

 private:
  uint32_t width_, height_, pitch_;
  SceneImage img_;
  std::vector<SceneVertex> vb_;
};

std::vector<SceneTri> rows_of(const std::vector<SceneTri>& mesh, int cols, int row0, int row1) {
  const size_t per_row = static_cast<size_t>(cols) * 2;
  return {mesh.begin() + static_cast<long>(per_row * row0), mesh.begin() + static_cast<long>(per_row * row1)};
}

// ---- grid_mesh -------------------------------------------------------------------------------

SceneImage scene_grid_mesh(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 1);
  Builder b("grid_mesh", 256, 256, 256 * 4, rgba(24, 24, 40));
  // Main mesh over most of the target: left edge on pixel centres, top edge on pixel boundaries.
  GridMeshParams p;
  p.x0 = 4 * PX + 128;
  p.y0 = 3 * PX;
  p.x1 = 251 * PX + 128;
  p.y1 = 252 * PX + static_cast<int32_t>(rng.range(0, 255));
  p.cols = 14;
  p.rows = 12;
  const std::vector<SceneTri> mesh = make_grid_mesh(p, rng);
  for (int band = 0; band < 4; ++band) b.draw(palette(band), rows_of(mesh, p.cols, band * 3, band * 3 + 3));

  // An overlapping coarser mesh on top, in two draws.
  GridMeshParams q;
  q.x0 = 60 * PX + 77;
  q.y0 = 70 * PX + 179;
  q.x1 = 200 * PX;
  q.y1 = 190 * PX + 128;
  q.cols = 9;
  q.rows = 7;
  q.exact_col_percent = 40;
  q.exact_row_percent = 40;
  const std::vector<SceneTri> over = make_grid_mesh(q, rng);
  b.draw(palette(4), rows_of(over, q.cols, 0, 3));
  b.draw(palette(5), rows_of(over, q.cols, 3, 7));

  // A fine mesh of small cells (about 3 px) in a corner.
  GridMeshParams f;
  f.x0 = 20 * PX;
  f.y0 = 200 * PX + 128;
  f.x1 = 80 * PX + 128;
  f.y1 = 250 * PX;
  f.cols = 20;
  f.rows = 16;
  b.draw(palette(6), make_grid_mesh(f, rng));
  return b.finish();
}

// ---- fans_slivers ----------------------------------------------------------------------------

SceneImage scene_fans_slivers(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 2);
  Builder b("fans_slivers", 256, 256, 256 * 4, rgba(16, 32, 24));
  const double two_pi = 6.283185307179586;
  for (int fan = 0; fan < 4; ++fan) {
    SceneVertex c{static_cast<int32_t>(rng.range(56 * PX, 200 * PX)), static_cast<int32_t>(rng.range(56 * PX, 200 * PX))};
    if (fan == 0) c = {snap_centre(c.x), snap_centre(c.y)};  // centre exactly on a pixel centre
    const int n = fan == 0 ? 16 : static_cast<int>(rng.range(6, 24));
    const double phase = fan == 0 ? 0.0 : static_cast<double>(rng.range(0, 999)) / 1000.0;
    const double radius = static_cast<double>(rng.range(30 * PX, 70 * PX));
    std::vector<SceneVertex> ring;
    for (int i = 0; i < n; ++i) {
      const double ang = two_pi * (i + phase) / n;
      const double r = fan == 0 ? radius : radius * (0.9 + 0.2 * static_cast<double>(rng.range(0, 100)) / 100.0);
      ring.push_back({c.x + static_cast<int32_t>(std::lround(r * std::cos(ang))),
                      c.y + static_cast<int32_t>(std::lround(r * std::sin(ang)))});
    }
    std::vector<SceneTri> tris;
    for (int i = 0; i < n; ++i) tris.push_back({c, ring[i], ring[(i + 1) % n]});
    b.draw(palette(fan), tris);
  }
  // Long thin slivers: the third vertex is a small perpendicular offset from the middle.
  for (int d = 0; d < 2; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 20; ++i) {
      SceneVertex p0{static_cast<int32_t>(rng.range(-8 * PX, 264 * PX)), static_cast<int32_t>(rng.range(-8 * PX, 264 * PX))};
      SceneVertex p1{static_cast<int32_t>(rng.range(-8 * PX, 264 * PX)), static_cast<int32_t>(rng.range(-8 * PX, 264 * PX))};
      if (i % 5 == 0) p1.y = p0.y;  // along a row
      if (i % 5 == 1) p1.x = p0.x;  // along a column
      const double dx = p1.x - p0.x, dy = p1.y - p0.y;
      const double len = std::max(1.0, std::sqrt(dx * dx + dy * dy));
      const double t = static_cast<double>(rng.range(13, 400));  // 0.05 .. 1.56 px
      const SceneVertex m{static_cast<int32_t>((int64_t{p0.x} + p1.x) / 2 + std::lround(-dy / len * t)),
                          static_cast<int32_t>((int64_t{p0.y} + p1.y) / 2 + std::lround(dx / len * t))};
      tris.push_back(random_winding({p0, m, p1}, rng));
    }
    b.draw(palette(4 + d), tris);
  }
  return b.finish();
}

// ---- guard_band ------------------------------------------------------------------------------

SceneImage scene_guard_band(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 3);
  Builder b("guard_band", 256, 256, 256 * 4, rgba(32, 32, 32));
  constexpr int32_t MIN = -(1 << 23);     // -32768.0
  constexpr int32_t MAX = (1 << 23) - 1;  // +32767.996
  constexpr int32_t I32MIN = INT32_MIN, I32MAX = INT32_MAX;
  auto jit = [&rng](int32_t v) { return v + static_cast<int32_t>(rng.range(0, 255)); };
  // Exact 16.8 extremes: half-plane below the main diagonal.
  b.draw(palette(0), {{{{MIN, MIN}, {MAX, MAX}, {MIN, MAX}}}});
  // int32 extremes that saturate: a nearly horizontal band crossing the viewport.
  b.draw(palette(1), {{{{I32MIN, jit(40 * PX)}, {I32MAX, jit(100 * PX)}, {jit(128 * PX), jit(160 * PX)}}},
                      {{{I32MAX, jit(200 * PX)}, {I32MIN, jit(90 * PX)}, {jit(30 * PX), jit(250 * PX)}}}});
  // Vertical wedges from far above and below.
  b.draw(palette(2), {{{{jit(100 * PX), I32MIN}, {jit(140 * PX), I32MAX}, {jit(60 * PX), 0x01000000}}},
                      {{{jit(220 * PX), MIN}, {jit(180 * PX), MAX}, {jit(250 * PX), MAX}}}});
  // Values just past the range (0x800000 saturates to MAX, 0xFF7FFFFF to MIN) and a wedge from
  // the far right with a vertex inside the viewport.
  b.draw(palette(3), {{{{static_cast<int32_t>(0x00800000), static_cast<int32_t>(0xFF7FFFFF)},
                        {jit(200 * PX), jit(250 * PX)},
                        {MAX, MAX}}},
                      {{{MIN, jit(10 * PX)}, {jit(20 * PX), jit(30 * PX)}, {MIN, jit(60 * PX)}}}});
  // Entirely outside the viewport (bounding-box cull) and a huge triangle whose only visible
  // part is a corner.
  b.draw(palette(4), {{{{MIN, MIN}, {-PX, MIN}, {MIN, -PX}}},
                      {{{300 * PX, 10 * PX}, {MAX, 20 * PX}, {400 * PX, MAX}}},
                      {{{MAX, MIN}, {jit(236 * PX), MAX}, {MAX, MAX}}}});
  return b.finish();
}

// ---- tiny_10k --------------------------------------------------------------------------------

SceneImage scene_tiny_10k(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 4);
  Builder b("tiny_10k", 256, 256, 256 * 4, rgba(8, 8, 8));
  for (int d = 0; d < 4; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 2500; ++i) {
      const int32_t cx = static_cast<int32_t>(rng.range(0, 256 * PX - 1));
      const int32_t cy = static_cast<int32_t>(rng.range(0, 256 * PX - 1));
      const int32_t s = static_cast<int32_t>(rng.range(16, 4 * PX));  // 1/16 px .. 4 px
      SceneTri t;
      for (auto& v : t) {
        v.x = cx + static_cast<int32_t>(rng.range(-s, s));
        v.y = cy + static_cast<int32_t>(rng.range(-s, s));
      }
      tris.push_back(t);
    }
    b.draw(palette(d), tris);
  }
  return b.finish();
}

// ---- scissor ---------------------------------------------------------------------------------

SceneImage scene_scissor(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 5);
  const uint32_t w = 261, h = 259;
  Builder b("scissor", w, h, (w + 11) * 4, rgba(40, 40, 40));
  const int32_t W = static_cast<int32_t>(w) * PX, H = static_cast<int32_t>(h) * PX;
  // Two triangles covering more than the whole target, plus a jittered inner triangle.
  auto cover = [&](int32_t margin) {
    const SceneVertex a{-margin, -margin}, c{W + margin, -margin}, d{W + margin, H + margin}, e{-margin, H + margin};
    return std::vector<SceneTri>{random_winding({a, c, d}, rng), random_winding({a, d, e}, rng)};
  };
  auto scissor = [&b](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) {
    b.cw.set_state(ST_SCISSOR_X, (x1 << 16) | x0, (y1 << 16) | y0);
  };
  b.draw(palette(3), cover(PX));                     // reset scissor: whole target
  scissor(20, 100, 30, 90);
  b.draw(palette(0), cover(0));
  scissor(200, 400, 150, 300);                       // partly outside: clipped to the target
  b.draw(palette(1), cover(5 * PX));
  scissor(50, 50, 10, 200);                          // empty (x1 == x0)
  b.draw(palette(2), cover(PX));
  scissor(120, 80, 10, 200);                         // inverted
  b.draw(palette(2), cover(PX));
  scissor(300, 400, 0, 0xFFFF);                      // entirely right of the target
  b.draw(palette(2), cover(PX));
  scissor(101, 109, 201, 203);                       // odd, sub-tile
  b.draw(palette(4), cover(PX));
  scissor(0, 0xFFFF, 253, 0xFFFF);                   // last partial tile row
  b.draw(palette(5), cover(PX));
  scissor(255, 261, 0, 259);                         // last partial tile column
  b.draw(palette(6), cover(PX));
  // A triangle crossing several scissor edges.
  scissor(static_cast<uint32_t>(rng.range(130, 140)), 190, static_cast<uint32_t>(rng.range(40, 50)), 120);
  b.draw(palette(7), {random_winding({{{100 * PX, 20 * PX}, {230 * PX + 77, 80 * PX}, {150 * PX, 140 * PX + 200}}}, rng)});
  scissor(0, 0xFFFF, 0, 0xFFFF);
  b.draw(palette(8), {random_winding({{{5 * PX, 160 * PX}, {70 * PX, 250 * PX}, {10 * PX, 258 * PX + 128}}}, rng)});
  return b.finish();
}

// ---- cp_commands -----------------------------------------------------------------------------
// Encoding v2 end to end: a COPY of a vertex buffer from an unaligned staging address, then draws
// reading the copy, issued from nested indirect buffers (CALL, CALL, JUMP), a WAIT_REG the host
// releases mid-run, top- and end-of-pipe fences (FENCE1 is EOP-only and checked every cycle),
// an INTERRUPT, and a second COPY of part of the rendered target (which must see every earlier
// pixel write).

constexpr uint32_t kStaging = 0x02000003u;  // unaligned on purpose
constexpr uint32_t kVbCopy = 0x03000000u;
constexpr uint32_t kIb = 0x04000000u;
constexpr uint32_t kRtCopy = 0x05000001u;

SceneImage scene_cp_commands(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 7);
  const uint32_t w = 256, h = 256;
  Builder b("cp_commands", w, h, w * 4, rgba(20, 20, 60));
  GridMeshParams gp;
  gp.x0 = 4 * PX;
  gp.y0 = 4 * PX;
  gp.x1 = static_cast<int32_t>(w - 4) * PX;
  gp.y1 = static_cast<int32_t>(h - 4) * PX;
  gp.cols = 8;
  gp.rows = 6;
  const std::vector<SceneTri> mesh = make_grid_mesh(gp, rng);
  // Staging copy of the vertices, byte by byte at an unaligned address.
  std::vector<uint8_t> bytes;
  for (const SceneTri& t : mesh) {
    for (const SceneVertex& v : t) {
      for (int32_t c : {v.x, v.y}) {
        for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(static_cast<uint32_t>(c) >> (8 * k)));
      }
    }
  }
  b.mem().write(kStaging, bytes.data(), bytes.size());
  const uint32_t nvtx = static_cast<uint32_t>(mesh.size() * 3);
  const uint32_t half = (nvtx / 6) * 3;
  // IB2 (nested): second colour, first half of the mesh. IB1: CALL IB2, then the rest.
  // IB3 (reached by JUMP from IB1, returns to the ring): a TOP fence and a small draw.
  CommandWriter ib2, ib1, ib3;
  ib2.set_state(ST_COLOR, palette(1)).draw(0, half);
  ib3.write_reg(2, 0x33, false).set_state(ST_COLOR, palette(4)).draw(0, 3);
  ib1.call(kIb + 0x1000, ib2.size_dwords()).set_state(ST_COLOR, palette(2)).draw(half, nvtx - half);
  ib1.write_reg(1, 1, true).jump(kIb + 0x2000, ib3.size_dwords());
  place_ib(b.mem(), kIb, ib1.dwords());
  place_ib(b.mem(), kIb + 0x1000, ib2.dwords());
  place_ib(b.mem(), kIb + 0x2000, ib3.dwords());

  b.cw.copy(kStaging, kVbCopy, static_cast<uint32_t>(bytes.size()));
  b.cw.set_state(ST_VB_BASE, kVbCopy);
  b.cw.call(kIb, ib1.size_dwords());
  b.cw.wait_reg(3, 5, true);  // released by the host
  b.cw.interrupt(0x1234);
  b.cw.set_state(ST_COLOR, palette(5));
  b.cw.set_state(ST_SCISSOR_X, (100u << 16) | 20u, (90u << 16) | 30u);
  b.cw.draw(0, half);
  b.cw.write_reg(1, 2, true);
  b.cw.copy(SCENE_RT_BASE + 4 * w * 40, kRtCopy, 4 * w * 10 + 2);  // rows 40..49 and 2 bytes
  b.cw.set_state(ST_SCISSOR_X, 0xFFFF0000u, 0xFFFF0000u);
  b.cw.set_state(ST_VB_BASE, SCENE_VB_BASE);
  b.image().wait_releases.push_back({{REG_FENCE0 + 3, 4}, {REG_FENCE0 + 3, 6}});
  b.image().eop_fence_mask = (1u << 0) | (1u << 1);
  return b.finish();
}

// ---- overlap_order ---------------------------------------------------------------------------

SceneImage scene_overlap_order(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 6);
  Builder b("overlap_order", 256, 256, 256 * 4, rgba(20, 20, 20));
  auto pt = [&rng](int lo, int hi) {
    return SceneVertex{static_cast<int32_t>(rng.range(lo * PX, hi * PX)), static_cast<int32_t>(rng.range(lo * PX, hi * PX))};
  };
  // Eight large overlapping triangles, alternating winding, one draw each.
  for (uint32_t i = 0; i < 8; ++i) {
    SceneTri t{pt(-20, 276), pt(-20, 276), pt(-20, 276)};
    if (area2(t[0], t[1], t[2]) < 0) std::swap(t[1], t[2]);
    if (i % 2) std::swap(t[1], t[2]);
    b.draw(palette(i), {t});
    b.cw.write_reg(1 + (i % 4), 0x100 + i, false);  // top-of-pipe fences in between
  }
  // One draw with several overlapping triangles and a leftover vertex (count = 3n + 1).
  {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 4; ++i) tris.push_back({pt(80, 176), pt(80, 176), pt(80, 176)});
    uint32_t first = b.add_tris(tris);
    b.add_vertices({pt(0, 255)});
    b.cw.set_state(ST_COLOR, rgba(255, 255, 255));
    b.cw.draw(first, static_cast<uint32_t>(tris.size() * 3 + 1));
  }
  // Draws that produce no triangle, and padding.
  b.cw.draw(0, 0);
  b.cw.draw(0, 2);
  b.cw.nop(3);
  // A draw from a second vertex buffer (VB_BASE change, first_vertex 1), then back.
  {
    const uint32_t vb2 = SCENE_VB_BASE + 0x00100000u;
    std::vector<SceneVertex> v{pt(0, 10)};  // vertex 0: skipped by first_vertex = 1
    for (int i = 0; i < 2; ++i) {
      SceneTri t{pt(30, 226), pt(30, 226), pt(30, 226)};
      v.insert(v.end(), t.begin(), t.end());
    }
    b.write_vertices(vb2, v);
    b.cw.set_state(ST_VB_BASE, vb2, palette(9));  // VB_BASE and COLOR in one command
    b.cw.draw(1, 6);
    b.cw.set_state(ST_VB_BASE, SCENE_VB_BASE);
  }
  // Finally a triangle of each winding sharing an edge, on top of everything.
  const SceneVertex a{40 * PX + 128, 200 * PX}, c{216 * PX, 200 * PX}, top{128 * PX, 150 * PX + 128},
      bottom{128 * PX + 37, 250 * PX};
  b.draw(palette(10), {{{a, top, c}}});     // clockwise on screen
  b.draw(palette(11), {{{a, c, bottom}}});  // also clockwise; shares the edge a-c
  b.draw(palette(12), {{{a, bottom, c}}});  // same triangle, other winding, over the previous one
  return b.finish();
}

}  // namespace

std::vector<SceneTri> make_grid_mesh(const GridMeshParams& p, SceneRng& rng) {
  if (p.cols < 1 || p.rows < 1 || p.x1 <= p.x0 || p.y1 <= p.y0) throw std::invalid_argument("make_grid_mesh: bad grid");
  const int nx = p.cols + 1, ny = p.rows + 1;
  const int64_t cw = (int64_t{p.x1} - p.x0) / p.cols, ch = (int64_t{p.y1} - p.y0) / p.rows;
  std::vector<int32_t> gx(nx), gy(ny);
  std::vector<bool> exact_col(nx, true), exact_row(ny, true);
  for (int i = 0; i < nx; ++i) {
    gx[i] = i == p.cols ? p.x1 : static_cast<int32_t>(p.x0 + (int64_t{p.x1} - p.x0) * i / p.cols);
    if (i > 0 && i < p.cols) {
      exact_col[i] = !p.jitter || rng.chance(p.exact_col_percent);
      if (exact_col[i] && cw >= 4 * PX && rng.chance(50)) gx[i] = snap_centre(gx[i]);
    }
  }
  for (int j = 0; j < ny; ++j) {
    gy[j] = j == p.rows ? p.y1 : static_cast<int32_t>(p.y0 + (int64_t{p.y1} - p.y0) * j / p.rows);
    if (j > 0 && j < p.rows) {
      exact_row[j] = !p.jitter || rng.chance(p.exact_row_percent);
      if (exact_row[j] && ch >= 4 * PX && rng.chance(50)) gy[j] = snap_centre(gy[j]);
    }
  }
  const int64_t rx = cw / 5, ry = ch / 5;
  std::vector<SceneVertex> v(static_cast<size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      SceneVertex& q = v[static_cast<size_t>(j) * nx + i];
      q = {gx[i], gy[j]};
      if (!exact_col[i]) q.x += static_cast<int32_t>(rng.range(-rx, rx));
      if (!exact_row[j]) q.y += static_cast<int32_t>(rng.range(-ry, ry));
      const bool interior = i > 0 && i < p.cols && j > 0 && j < p.rows;
      if (interior && p.jitter && cw >= 4 * PX && ch >= 4 * PX && rng.chance(p.centre_snap_percent)) {
        if (!exact_col[i]) q.x = snap_centre(q.x);
        if (!exact_row[j]) q.y = snap_centre(q.y);
      }
    }
  }
  std::vector<SceneTri> tris;
  tris.reserve(static_cast<size_t>(p.cols) * p.rows * 2);
  for (int j = 0; j < p.rows; ++j) {
    for (int i = 0; i < p.cols; ++i) {
      const SceneVertex a = v[static_cast<size_t>(j) * nx + i], b = v[static_cast<size_t>(j) * nx + i + 1];
      const SceneVertex c = v[static_cast<size_t>(j + 1) * nx + i + 1], d = v[static_cast<size_t>(j + 1) * nx + i];
      SceneTri t0{a, b, c}, t1{a, c, d};
      if (rng.chance(50) || area2(a, b, c) <= 0 || area2(a, c, d) <= 0) {
        t0 = {a, b, d};
        t1 = {b, c, d};
      }
      if (area2(t0[0], t0[1], t0[2]) <= 0 || area2(t1[0], t1[1], t1[2]) <= 0) {
        t0 = {a, b, c};
        t1 = {a, c, d};
        if (area2(t0[0], t0[1], t0[2]) <= 0 || area2(t1[0], t1[1], t1[2]) <= 0) {
          throw std::logic_error("make_grid_mesh: folded cell");
        }
      }
      tris.push_back(random_winding(t0, rng));
      tris.push_back(random_winding(t1, rng));
    }
  }
  return tris;
}

std::vector<SceneInfo> scene_registry() {
  return {
      {"grid_mesh", scene_grid_mesh, "jittered shared-edge grids, exact horizontal/vertical edges, pixel-centre vertices"},
      {"fans_slivers", scene_fans_slivers, "triangle fans around centres and long thin slivers"},
      {"guard_band", scene_guard_band, "vertices at the 16.8 extremes and saturating int32 values"},
      {"tiny_10k", scene_tiny_10k, "10,000 tiny triangles in 4 draws"},
      {"scissor", scene_scissor, "scissor rectangles (empty, partly outside) on a 261x259 target"},
      {"overlap_order", scene_overlap_order, "overlapping triangles of both windings in API order"},
      {"cp_commands", scene_cp_commands, "COPY of a vertex buffer, draws from nested CALL/JUMP IBs, host-released WAIT_REG, fences, INTERRUPT, COPY of the target"},
  };
}

std::optional<SceneInfo> find_scene(const std::string& name) {
  for (SceneInfo& s : scene_registry()) {
    if (s.name == name) return s;
  }
  return std::nullopt;
}

SceneImage build_scene(const std::string& name, uint32_t seed) {
  const auto s = find_scene(name);
  if (!s) throw std::invalid_argument("unknown scene: " + name);
  return s->build(seed);
}

}  // namespace pineda
