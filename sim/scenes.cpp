#include "scenes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <meshoptimizer.h>
#include <tiny_obj_loader.h>

#include "pineda_contract.h"
#include "runtime.h"

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

int32_t snap_centre(int32_t v) { return (v >> 8) * PX + 128; }  // v may be negative: no <<

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

// Builds a scene with the host runtime: a Device over a CaptureBackend (nothing runs; every
// runtime call is checked and a failing one throws), a render target, a guard buffer and a
// dynamic vertex buffer bound on the immediate context. finish() flushes, appends END and takes
// the memory image and the register writes.
class Builder {
 public:
  Builder(std::string name, uint32_t width, uint32_t height, uint32_t pitch, uint32_t background,
          uint32_t vb_bytes = 64 * 1024, uint32_t pad_colour = rgba(255, 0, 255), uint32_t samples = 1)
      : dev_(be_, device_desc()), ctx_(dev_.immediate()), width_(width), height_(height) {
    img_.name = std::move(name);
    // Background inside the target (every sample of a 4x MSAA target); a sentinel colour in the
    // row padding and in 8 rows of a guard buffer allocated right after it, so that a write
    // outside the target shows up in a memory comparison.
    std::vector<uint32_t> px(static_cast<size_t>(pitch / 4) * height, pad_colour);
    for (uint32_t y = 0; y < height; ++y) std::fill_n(px.begin() + static_cast<long>(y * (pitch / 4)), width * samples, background);
    rt::TextureDesc td{width, height, pitch, rt::BIND_RENDER_TARGET};
    td.samples = samples;
    img_.samples = samples;
    rt_ = create_texture(td, px.data());
    const std::vector<uint32_t> guard(static_cast<size_t>(pitch / 4) * 8, pad_colour);
    create_buffer({pitch * 8, 0}, guard.data());
    vb_ = create_buffer({vb_bytes, rt::BIND_VERTEX_BUFFER}, nullptr);
    check(ctx_.set_render_target(rt_), "set_render_target");
    check(ctx_.set_pretransformed_vertex_buffer(vb_), "set_pretransformed_vertex_buffer");
    img_.rt_base = rt_->gpu_address();
    img_.rt_pitch = pitch;
    img_.width = width;
    img_.height = height;
  }
  ~Builder() {
    ctx_.clear_state();
    for (rt::Resource* r : resources_) r->release();
    for (rt::Fence* f : fences_) f->release();
    ctx_.flush();
    be_.release();  // the Device may finish now (the image has been taken or the build failed)
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  static rt::DeviceDesc device_desc() {
    rt::DeviceDesc d;
    d.heap_base = SCENE_HEAP_BASE;
    d.ring_size = SCENE_RING_SIZE;
    d.fence_index = SCENE_FENCE_INDEX;
    d.max_command_buffer = SCENE_RING_SIZE / 2;  // a scene is one submission
    d.timeout = std::chrono::milliseconds(50);    // any wait on the capture backend is a bug
    return d;
  }

  // Throws when a runtime call failed, with the message of `c` (default: the immediate context).
  void check(rt::Result r, const std::string& what, const rt::Context* c = nullptr) {
    if (r == rt::Result::OK) return;
    std::string msg = (c ? c : &ctx_)->last_error();
    if (msg.empty()) msg = dev_.last_error();
    throw std::runtime_error("scene " + img_.name + ": " + what + ": " + rt::result_name(r) + ": " + msg);
  }
  rt::Resource* create_buffer(const rt::BufferDesc& d, const void* init) {
    rt::Resource* r = nullptr;
    check(dev_.create_buffer(d, init, &r), "create_buffer");
    resources_.push_back(r);
    return r;
  }
  rt::Resource* create_texture(const rt::TextureDesc& d, const void* init) {
    rt::Resource* r = nullptr;
    check(dev_.create_texture2d(d, init, &r), "create_texture2d");
    resources_.push_back(r);
    return r;
  }
  rt::Fence* create_fence(bool interrupt = false) {
    rt::Fence* f = nullptr;
    rt::FenceDesc d;
    d.interrupt = interrupt;
    check(dev_.create_fence(d, &f), "create_fence");
    fences_.push_back(f);
    return f;
  }

  // Appends vertices to the dynamic vertex buffer (the first Map DISCARDs, the others are
  // NO_OVERWRITE appends, as an application streams geometry); returns the first one's index.
  uint32_t add_vertices(const std::vector<SceneVertex>& v) {
    const uint32_t first = vb_used_ / VERTEX_BYTES;
    const uint32_t bytes = static_cast<uint32_t>(v.size()) * VERTEX_BYTES;
    if (uint64_t{vb_used_} + bytes > vb_->size()) throw std::logic_error("scene " + img_.name + ": vertex buffer too small");
    rt::Mapped m;
    check(ctx_.map(vb_, vb_used_ == 0 ? rt::MapType::WRITE_DISCARD : rt::MapType::WRITE_NO_OVERWRITE, 0, &m), "map");
    for (size_t i = 0; i < v.size(); ++i) {
      const int32_t xy[2] = {v[i].x, v[i].y};
      std::memcpy(m.data + vb_used_ + i * VERTEX_BYTES, xy, VERTEX_BYTES);
    }
    check(ctx_.unmap(vb_), "unmap");
    vb_used_ += bytes;
    return first;
  }
  uint32_t add_tris(const std::vector<SceneTri>& tris) {
    std::vector<SceneVertex> v;
    for (const SceneTri& t : tris) v.insert(v.end(), t.begin(), t.end());
    return add_vertices(v);
  }
  // Colour and a draw of the triangles.
  void draw(uint32_t colour, const std::vector<SceneTri>& tris) {
    const uint32_t first = add_tris(tris);
    ctx_.set_color(colour);
    check(ctx_.draw_pretransformed(static_cast<uint32_t>(tris.size() * 3), first), "draw");
  }
  void scissor(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) { check(ctx_.set_scissor(x0, y0, x1, y1), "set_scissor"); }

  rt::Device& dev() { return dev_; }
  rt::ImmediateContext& ctx() { return ctx_; }
  rt::Resource* target() { return rt_; }
  rt::Resource* vertex_buffer() { return vb_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  SceneImage& image() { return img_; }

  SceneImage finish() {
    check(ctx_.flush(), "flush");
    if (be_.waits() != 0 || dev_.lost())
      throw std::logic_error("scene " + img_.name + ": the runtime waited on the GPU while the scene was captured");
    be_.append_end();
    img_.mem = be_.memory();
    img_.reg_writes.push_back({REG_IRQ_ENABLE, (1u << IRQ_END) | (1u << IRQ_ERROR)});
    img_.reg_writes.insert(img_.reg_writes.end(), be_.reg_writes().begin(), be_.reg_writes().end());
    img_.fence_index = SCENE_FENCE_INDEX;
    img_.fence_value = static_cast<uint32_t>(dev_.flushed_fence());
    return std::move(img_);
  }

 private:
  rt::CaptureBackend be_;
  rt::Device dev_;
  rt::ImmediateContext& ctx_;
  uint32_t width_, height_;
  SceneImage img_;
  rt::Resource* rt_ = nullptr;
  rt::Resource* vb_ = nullptr;
  uint32_t vb_used_ = 0;
  std::vector<rt::Resource*> resources_;
  std::vector<rt::Fence*> fences_;
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

// ---- issue 5: rasterizer scenes at 1x and 4x MSAA --------------------------------------------

constexpr int32_t kW = 256, kH = 256;

// Two triangles covering the whole 256 x 256 target (vertices outside it).
SceneImage scene_quad_full(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 11);
  Builder b(samples == 4 ? "quad_full_4x" : "quad_full", kW, kH, kW * 4 * samples, rgba(0, 0, 0), 64 * 1024,
            rgba(255, 0, 255), samples);
  const int32_t m = static_cast<int32_t>(rng.range(1, 3 * PX));
  const SceneVertex a{-m, -m}, c{kW * PX + m, -m}, d{kW * PX + m, kH * PX + m}, e{-m, kH * PX + m};
  b.draw(palette(3), {random_winding({a, c, d}, rng), random_winding({a, d, e}, rng)});
  return b.finish();
}

// 10,000 tiny triangles (1/16 .. 4 pixels) in 4 draws.
SceneImage scene_tiny(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 12);
  Builder b("tiny_10k_4x", kW, kH, kW * 4 * samples, rgba(8, 8, 8), 10000 * 3 * VERTEX_BYTES, rgba(255, 0, 255), samples);
  for (int d = 0; d < 4; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 2500; ++i) {
      const int32_t cx = static_cast<int32_t>(rng.range(0, kW * PX - 1)), cy = static_cast<int32_t>(rng.range(0, kH * PX - 1));
      const int32_t s = static_cast<int32_t>(rng.range(16, 4 * PX));
      SceneTri t;
      for (auto& v : t) v = {cx + static_cast<int32_t>(rng.range(-s, s)), cy + static_cast<int32_t>(rng.range(-s, s))};
      tris.push_back(t);
    }
    b.draw(palette(d), tris);
  }
  return b.finish();
}

// 400 long thin slivers (50 .. 360 pixels long, 0.05 .. 2 pixels wide) in every direction.
SceneImage scene_slivers(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 13);
  Builder b(samples == 4 ? "slivers_4x" : "slivers", kW, kH, kW * 4 * samples, rgba(16, 16, 24), 64 * 1024,
            rgba(255, 0, 255), samples);
  for (int d = 0; d < 4; ++d) {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 100; ++i) {
      const double ang = static_cast<double>(rng.range(0, 3599)) * 6.283185307179586 / 3600.0;
      const double len = static_cast<double>(rng.range(50 * PX, 360 * PX));
      const SceneVertex p0{static_cast<int32_t>(rng.range(-20 * PX, 276 * PX)), static_cast<int32_t>(rng.range(-20 * PX, 276 * PX))};
      const SceneVertex p1{p0.x + static_cast<int32_t>(std::lround(len * std::cos(ang))),
                           p0.y + static_cast<int32_t>(std::lround(len * std::sin(ang)))};
      const double w = static_cast<double>(rng.range(13, 2 * PX));
      const SceneVertex p2{p0.x + static_cast<int32_t>(std::lround(-std::sin(ang) * w)),
                           p0.y + static_cast<int32_t>(std::lround(std::cos(ang) * w))};
      tris.push_back(random_winding({p0, p1, p2}, rng));
    }
    b.draw(palette(8 + d), tris);
  }
  return b.finish();
}

// A dense mesh: 64 x 64 cells of 4 pixels (8,192 triangles), jittered, shared edges exact or on
// pixel centres.
SceneImage scene_dense_mesh(uint32_t seed, uint32_t samples) {
  SceneRng rng(seed * 0x100000001ull + 14);
  Builder b(samples == 4 ? "dense_mesh_4x" : "dense_mesh", kW, kH, kW * 4 * samples, rgba(24, 24, 40),
            8192 * 3 * VERTEX_BYTES, rgba(255, 0, 255), samples);
  GridMeshParams p;
  p.x0 = 0;
  p.y0 = 0;
  p.x1 = kW * PX;
  p.y1 = kH * PX;
  p.cols = 64;
  p.rows = 64;
  const std::vector<SceneTri> mesh = make_grid_mesh(p, rng);
  for (int band = 0; band < 8; ++band) b.draw(palette(band), rows_of(mesh, p.cols, band * 8, band * 8 + 8));
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
  Builder b("tiny_10k", 256, 256, 256 * 4, rgba(8, 8, 8), 10000 * 3 * VERTEX_BYTES);
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
  auto scissor = [&b](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) { b.scissor(x0, x1, y0, y1); };
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
// Encoding v2 end to end, as the runtime uses it: a CopyBufferRegion-style COPY of a vertex buffer
// from an unaligned staging offset, then draws reading the copy from command lists recorded on
// deferred contexts and nested (the ring CALLs L1, L1 CALLs L2 and ends with a tail-call JUMP to
// L3), a GPU-side wait on a user fence that the host signals mid-run (WAIT_REG; the first host
// write does not satisfy it), end-of-pipe user-fence signals with an INTERRUPT (FENCE1 is EOP-only
// and checked every cycle), a top-of-pipe signal (FENCE2), and a second COPY of part of the
// rendered target to an unaligned destination (which must see every earlier pixel write).

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
  // Staging buffer: 3 bytes of padding, then the vertices (so the copy's source is unaligned).
  std::vector<uint8_t> bytes(3, 0xA5);
  for (const SceneTri& t : mesh) {
    for (const SceneVertex& v : t) {
      for (int32_t c : {v.x, v.y}) {
        for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(static_cast<uint32_t>(c) >> (8 * k)));
      }
    }
  }
  const uint32_t vb_bytes = static_cast<uint32_t>(bytes.size() - 3);
  rt::Resource* staging = b.create_buffer({static_cast<uint32_t>(bytes.size()), 0}, bytes.data());
  rt::Resource* vb = b.create_buffer({vb_bytes, rt::BIND_VERTEX_BUFFER}, nullptr);
  rt::Resource* readback = b.create_buffer({4 * w * 10 + 3, 0}, nullptr);
  rt::Fence* eop = b.create_fence(true);  // FENCE1: end-of-pipe signals, each with an INTERRUPT
  rt::Fence* top = b.create_fence();      // FENCE2: a top-of-pipe signal
  rt::Fence* host = b.create_fence();     // FENCE3: signalled by the host, waited on by the GPU
  const uint32_t nvtx = static_cast<uint32_t>(mesh.size() * 3);
  const uint32_t half = (nvtx / 6) * 3;

  // L2: second colour, first half of the mesh. L3: a TOP signal and a small draw. L1: runs L2,
  // draws the rest, signals FENCE1 = 1 and ends with L3 (a tail call).
  auto record = [&b, vb](const std::function<void(rt::DeferredContext&)>& body) {
    std::unique_ptr<rt::DeferredContext> dc;
    b.check(b.dev().create_deferred_context({}, &dc), "create_deferred_context");
    b.check(dc->set_render_target(b.target()), "set_render_target", dc.get());
    b.check(dc->set_pretransformed_vertex_buffer(vb), "set_pretransformed_vertex_buffer", dc.get());
    body(*dc);
    rt::CommandList* list = nullptr;
    b.check(dc->finish_command_list(false, &list), "finish_command_list", dc.get());
    return std::unique_ptr<rt::CommandList, void (*)(rt::CommandList*)>(list, [](rt::CommandList* l) { l->release(); });
  };
  auto l2 = record([&](rt::DeferredContext& dc) {
    dc.set_color(palette(1));
    b.check(dc.draw_pretransformed(half, 0), "draw", &dc);
  });
  auto l3 = record([&](rt::DeferredContext& dc) {
    b.check(dc.signal(top, 0x33, rt::SignalStage::TOP_OF_PIPE), "signal", &dc);
    dc.set_color(palette(4));
    b.check(dc.draw_pretransformed(3, 0), "draw", &dc);
  });
  auto l1 = record([&](rt::DeferredContext& dc) {
    b.check(dc.execute_command_list(l2.get(), true), "execute_command_list", &dc);
    dc.set_color(palette(2));
    b.check(dc.draw_pretransformed(nvtx - half, half), "draw", &dc);
    b.check(dc.signal(eop, 1), "signal", &dc);
    b.check(dc.execute_command_list(l3.get(), true), "execute_command_list", &dc);
  });

  rt::ImmediateContext& ctx = b.ctx();
  b.check(ctx.copy_region(vb, 0, staging, 3, vb_bytes), "copy_region");
  b.check(ctx.execute_command_list(l1.get(), true), "execute_command_list");
  b.check(ctx.wait(host, 5), "wait");  // released by the host (FENCE3 = 4, then 6)
  b.check(ctx.set_pretransformed_vertex_buffer(vb), "set_pretransformed_vertex_buffer");
  ctx.set_color(palette(5));
  b.scissor(20, 100, 30, 90);
  b.check(ctx.draw_pretransformed(half, 0), "draw");
  b.check(ctx.signal(eop, 2), "signal");
  b.check(ctx.copy_region(readback, 1, b.target(), 4 * w * 40, 4 * w * 10 + 2), "copy_region");  // rows 40..49 and 2 bytes
  SceneImage& img = b.image();
  img.wait_releases.push_back({{REG_FENCE0 + host->register_index(), 4}, {REG_FENCE0 + host->register_index(), 6}});
  img.eop_fence_mask = (1u << SCENE_FENCE_INDEX) | (1u << eop->register_index());
  return b.finish();
}

// ---- overlap_order ---------------------------------------------------------------------------

SceneImage scene_overlap_order(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 6);
  Builder b("overlap_order", 256, 256, 256 * 4, rgba(20, 20, 20));
  auto pt = [&rng](int lo, int hi) {
    return SceneVertex{static_cast<int32_t>(rng.range(lo * PX, hi * PX)), static_cast<int32_t>(rng.range(lo * PX, hi * PX))};
  };
  // Eight large overlapping triangles, alternating winding, one draw each, with top-of-pipe
  // signals of four user fences (FENCE1..4) in between.
  const std::array<rt::Fence*, 4> fences{b.create_fence(), b.create_fence(), b.create_fence(), b.create_fence()};
  for (uint32_t i = 0; i < 8; ++i) {
    SceneTri t{pt(-20, 276), pt(-20, 276), pt(-20, 276)};
    if (area2(t[0], t[1], t[2]) < 0) std::swap(t[1], t[2]);
    if (i % 2) std::swap(t[1], t[2]);
    b.draw(palette(i), {t});
    b.check(b.ctx().signal(fences[i % 4], 0x100 + i, rt::SignalStage::TOP_OF_PIPE), "signal");
  }
  // One draw with several overlapping triangles and a leftover vertex (count = 3n + 1).
  {
    std::vector<SceneTri> tris;
    for (int i = 0; i < 4; ++i) tris.push_back({pt(80, 176), pt(80, 176), pt(80, 176)});
    uint32_t first = b.add_tris(tris);
    b.add_vertices({pt(0, 255)});
    b.ctx().set_color(rgba(255, 255, 255));
    b.check(b.ctx().draw_pretransformed(static_cast<uint32_t>(tris.size() * 3 + 1), first), "draw");
  }
  // Draws that produce no triangle, and a debug marker (a NOP with a payload).
  b.check(b.ctx().draw_pretransformed(0, 0), "draw");
  b.check(b.ctx().draw_pretransformed(2, 0), "draw");
  b.check(b.ctx().set_marker("overlap_order"), "set_marker");
  // A draw from a second vertex buffer (VB_BASE change, first_vertex 1), then back.
  {
    std::vector<SceneVertex> v{pt(0, 10)};  // vertex 0: skipped by first_vertex = 1
    for (int i = 0; i < 2; ++i) {
      SceneTri t{pt(30, 226), pt(30, 226), pt(30, 226)};
      v.insert(v.end(), t.begin(), t.end());
    }
    rt::Resource* vb2 = b.create_buffer({static_cast<uint32_t>(v.size()) * VERTEX_BYTES, rt::BIND_VERTEX_BUFFER}, v.data());
    b.check(b.ctx().set_pretransformed_vertex_buffer(vb2), "set_pretransformed_vertex_buffer");
    b.ctx().set_color(palette(9));  // VB_BASE and COLOR in one SET_STATE
    b.check(b.ctx().draw_pretransformed(6, 1), "draw");
    b.check(b.ctx().set_pretransformed_vertex_buffer(b.vertex_buffer()), "set_pretransformed_vertex_buffer");
  }
  // Finally a triangle of each winding sharing an edge, on top of everything.
  const SceneVertex a{40 * PX + 128, 200 * PX}, c{216 * PX, 200 * PX}, top{128 * PX, 150 * PX + 128},
      bottom{128 * PX + 37, 250 * PX};
  b.draw(palette(10), {{{a, top, c}}});     // clockwise on screen
  b.draw(palette(11), {{{a, c, bottom}}});  // also clockwise; shares the edge a-c
  b.draw(palette(12), {{{a, bottom, c}}});  // same triangle, other winding, over the previous one
  return b.finish();
}

// ---- Front-end scenes: meshes, cameras, transforms ---------------------------------------------
// Object-space meshes drawn through the geometry front end (index fetch, vertex fetch, the 4x4
// transform, clipping, viewport, culling): D3D conventions, a left-handed world (x right, y up, z
// into the screen), clip z in [0, w], front faces clockwise on screen, back faces culled. Every
// vertex has a colour (its normal as a tint, lit by one directional light), so that the image
// shows the shape; the rasterizer has no depth buffer, so objects are drawn back to front.

struct V3 {
  double x = 0, y = 0, z = 0;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(V3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
V3 normalize(V3 a) {
  const double l = std::sqrt(dot(a, a));
  return l > 0 ? a * (1.0 / l) : V3{0, 0, 0};
}

// Row-major 4x4, column-vector convention (clip = M * v), like the hardware's FE_MATRIX.
struct M4 {
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
};
M4 operator*(const M4& a, const M4& b) {
  M4 r;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += a.m[i][k] * b.m[k][j];
      r.m[i][j] = s;
    }
  }
  return r;
}
M4 translate(V3 t) {
  M4 r;
  r.m[0][3] = t.x;
  r.m[1][3] = t.y;
  r.m[2][3] = t.z;
  return r;
}
M4 scale(double s) {
  M4 r;
  r.m[0][0] = r.m[1][1] = r.m[2][2] = s;
  return r;
}
M4 rotate_y(double a) {
  M4 r;
  r.m[0][0] = std::cos(a);
  r.m[0][2] = std::sin(a);
  r.m[2][0] = -std::sin(a);
  r.m[2][2] = std::cos(a);
  return r;
}
M4 rotate_x(double a) {
  M4 r;
  r.m[1][1] = std::cos(a);
  r.m[1][2] = -std::sin(a);
  r.m[2][1] = std::sin(a);
  r.m[2][2] = std::cos(a);
  return r;
}
// D3DXMatrixPerspectiveFovLH, transposed for column vectors: clip.w = view z, clip.z / clip.w in
// [0, 1] between the near and far planes.
M4 perspective_lh(double fovy, double aspect, double zn, double zf) {
  M4 r;
  const double ys = 1.0 / std::tan(fovy / 2);
  r.m[0][0] = ys / aspect;
  r.m[1][1] = ys;
  r.m[2][2] = zf / (zf - zn);
  r.m[2][3] = -zn * zf / (zf - zn);
  r.m[3][2] = 1;
  r.m[3][3] = 0;
  return r;
}
// D3DXMatrixLookAtLH, transposed.
M4 look_at_lh(V3 eye, V3 at, V3 up) {
  const V3 z = normalize(at - eye), x = normalize(cross(up, z)), y = cross(z, x);
  M4 r;
  const V3 axes[3] = {x, y, z};
  for (int i = 0; i < 3; ++i) {
    r.m[i][0] = axes[i].x;
    r.m[i][1] = axes[i].y;
    r.m[i][2] = axes[i].z;
    r.m[i][3] = -dot(axes[i], eye);
  }
  return r;
}
rt::Matrix4 to_rt(const M4& a) {
  rt::Matrix4 r;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) r.m[i][j] = static_cast<float>(a.m[i][j]);
  }
  return r;
}
// A camera: projection times view, for a square target.
struct Camera {
  V3 eye, at;
  double fovy = 1.0, zn = 0.5, zf = 50.0;
  M4 view_proj(double aspect = 1.0) const { return perspective_lh(fovy, aspect, zn, zf) * look_at_lh(eye, at, {0, 1, 0}); }
};

// The vertex format of the mesh scenes: position F32x3 at 0, colour UNORM8x4 at 12.
struct MeshVertex {
  float x, y, z;
  uint32_t color;
};
static_assert(sizeof(MeshVertex) == 16, "16-byte vertices");

struct Mesh {
  std::vector<V3> pos, normal;
  std::vector<uint32_t> idx;  // triangle list
  size_t triangles() const { return idx.size() / 3; }
};

// Area-weighted vertex normals from the triangles.
void compute_normals(Mesh& m) {
  m.normal.assign(m.pos.size(), V3{});
  for (size_t t = 0; t + 2 < m.idx.size(); t += 3) {
    const uint32_t a = m.idx[t], b = m.idx[t + 1], c = m.idx[t + 2];
    const V3 n = cross(m.pos[b] - m.pos[a], m.pos[c] - m.pos[a]);
    for (uint32_t v : {a, b, c}) m.normal[v] = m.normal[v] + n;
  }
  for (V3& n : m.normal) n = normalize(n);
}

// Colour from a normal: the normal as a tint, times `tint`, lit by a directional light.
uint32_t shade(V3 n, V3 tint) {
  const V3 light = normalize({-0.4, 0.7, -0.6});  // towards the light
  const double k = 0.3 + 0.7 * std::max(0.0, dot(n, light));
  auto ch = [k](double base, double t) {
    return static_cast<uint32_t>(std::clamp(std::lround(255.0 * k * (0.55 + 0.45 * base) * t), 0L, 255L));
  };
  return rgba(ch(n.x, tint.x), ch(n.y, tint.y), ch(n.z, tint.z));
}

std::vector<MeshVertex> mesh_vertices(const Mesh& m, V3 tint = {1, 1, 1}) {
  std::vector<MeshVertex> v(m.pos.size());
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = {static_cast<float>(m.pos[i].x), static_cast<float>(m.pos[i].y), static_cast<float>(m.pos[i].z),
            shade(m.normal[i], tint)};
  }
  return v;
}

// Appends triangle (a, b, c), wound so that (b - a) x (c - a) points away from `inside`: clockwise
// seen from outside in the left-handed world, a front face.
void add_outward(Mesh& m, uint32_t a, uint32_t b, uint32_t c, V3 inside) {
  const V3 n = cross(m.pos[b] - m.pos[a], m.pos[c] - m.pos[a]);
  const V3 centroid = (m.pos[a] + m.pos[b] + m.pos[c]) * (1.0 / 3.0);
  if (dot(n, centroid - inside) < 0) std::swap(b, c);
  m.idx.insert(m.idx.end(), {a, b, c});
}

// A UV sphere of radius 1 around the origin: `slices` around y, `stacks` from pole to pole;
// 2 * slices * (stacks - 1) triangles.
Mesh make_uv_sphere(int slices, int stacks) {
  const double pi = 3.141592653589793;
  Mesh m;
  m.pos.push_back({0, 1, 0});
  for (int i = 1; i < stacks; ++i) {
    const double phi = pi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double th = 2 * pi * j / slices;
      m.pos.push_back({std::sin(phi) * std::cos(th), std::cos(phi), std::sin(phi) * std::sin(th)});
    }
  }
  m.pos.push_back({0, -1, 0});
  const uint32_t south = static_cast<uint32_t>(m.pos.size() - 1);
  auto at = [slices](int ring, int j) { return static_cast<uint32_t>(1 + ring * slices + (j % slices)); };
  for (int j = 0; j < slices; ++j) add_outward(m, 0, at(0, j), at(0, j + 1), {});
  for (int i = 0; i + 1 < stacks - 1; ++i) {
    for (int j = 0; j < slices; ++j) {
      add_outward(m, at(i, j), at(i + 1, j), at(i + 1, j + 1), {});
      add_outward(m, at(i, j), at(i + 1, j + 1), at(i, j + 1), {});
    }
  }
  for (int j = 0; j < slices; ++j) add_outward(m, south, at(stacks - 2, j + 1), at(stacks - 2, j), {});
  m.normal = m.pos;  // the unit sphere's normals are its positions
  return m;
}

// A torus around the y axis: major radius R, tube radius r, `rings` around y starting at angle
// `phase` (so that drawing starts on the far side of the camera), `sides` around the tube.
// Vertex (i, j) is at i * sides + j.
struct Torus {
  Mesh mesh;
  int rings = 0, sides = 0;
  uint32_t at(int i, int j) const { return static_cast<uint32_t>((i % rings) * sides + (j % sides)); }
  V3 tube_centre(int i) const {
    const V3 p = mesh.pos[at(i, 0)], q = mesh.pos[at(i, sides / 2)];
    return (p + q) * 0.5;
  }
};
Torus make_torus(double R, double r, int rings, int sides, double phase) {
  const double pi = 3.141592653589793;
  Torus t;
  t.rings = rings;
  t.sides = sides;
  for (int i = 0; i < rings; ++i) {
    const double u = phase + 2 * pi * i / rings;
    const V3 dir{std::cos(u), 0, std::sin(u)};
    for (int j = 0; j < sides; ++j) {
      const double v = 2 * pi * j / sides;
      const V3 n = dir * std::cos(v) + V3{0, std::sin(v), 0};
      t.mesh.pos.push_back(dir * R + n * r);
      t.mesh.normal.push_back(n);
    }
  }
  for (int i = 0; i < rings; ++i) {
    for (int j = 0; j < sides; ++j) {
      const V3 c = (t.tube_centre(i) + t.tube_centre(i + 1)) * 0.5;
      add_outward(t.mesh, t.at(i, j), t.at(i + 1, j), t.at(i + 1, j + 1), c);
      add_outward(t.mesh, t.at(i, j), t.at(i + 1, j + 1), t.at(i, j + 1), c);
    }
  }
  return t;
}

// The torus as one triangle strip per ring segment (i to i + 1, around the tube), separated by
// `cut`: 2 * (sides + 1) indices and 2 * sides triangles per strip, wound like the list.
std::vector<uint32_t> torus_strips(const Torus& t, uint32_t cut) {
  std::vector<uint32_t> s;
  for (int i = 0; i < t.rings; ++i) {
    // Strip triangle 0 is (a0, b0, a1); flip the pair order if that faces inwards.
    const V3 c = (t.tube_centre(i) + t.tube_centre(i + 1)) * 0.5;
    const V3 p0 = t.mesh.pos[t.at(i, 0)], p1 = t.mesh.pos[t.at(i + 1, 0)], p2 = t.mesh.pos[t.at(i, 1)];
    const bool flip = dot(cross(p1 - p0, p2 - p0), (p0 + p1 + p2) * (1.0 / 3.0) - c) < 0;
    if (i) s.push_back(cut);
    for (int j = 0; j <= t.sides; ++j) {
      const uint32_t a = t.at(i, j), b = t.at(i + 1, j);
      s.push_back(flip ? b : a);
      s.push_back(flip ? a : b);
    }
  }
  return s;
}

const char* const BUNNY_OBJ = "/usr/share/glmark2/models/bunny.obj";

// The glmark2 bunny (Debian's glmark2-data), loaded with tinyobjloader, triangles in file order,
// with computed vertex normals.
const Mesh& bunny_mesh() {
  static const Mesh mesh = [] {
    tinyobj::ObjReaderConfig cfg;
    cfg.triangulate = true;
    cfg.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromFile(BUNNY_OBJ, cfg))
      throw std::runtime_error(std::string("cannot load ") + BUNNY_OBJ + " (Debian package glmark2-data): " + reader.Error());
    Mesh m;
    const auto& v = reader.GetAttrib().vertices;
    for (size_t i = 0; i + 2 < v.size(); i += 3) m.pos.push_back({v[i], v[i + 1], v[i + 2]});
    for (const auto& shape : reader.GetShapes()) {
      for (const auto& ix : shape.mesh.indices) m.idx.push_back(static_cast<uint32_t>(ix.vertex_index));
    }
    compute_normals(m);
    return m;
  }();
  return mesh;
}

// The bunny reduced to about `triangles` triangles (meshopt_simplify keeps the surviving
// triangles in their original order), or the whole mesh for 0; vertex-cache optimised
// (meshopt_optimizeVertexCache) when `optimise`.
std::vector<uint32_t> bunny_indices(size_t triangles, bool optimise) {
  const Mesh& m = bunny_mesh();
  std::vector<uint32_t> idx = m.idx;
  if (triangles) {
    std::vector<float> p;
    for (const V3& v : m.pos) p.insert(p.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
    std::vector<uint32_t> out(idx.size());
    const size_t n = meshopt_simplify(out.data(), idx.data(), idx.size(), p.data(), m.pos.size(), 12, triangles * 3, 0.05f);
    out.resize(n);
    idx = out;
  }
  if (optimise) {
    std::vector<uint32_t> out(idx.size());
    meshopt_optimizeVertexCache(out.data(), idx.data(), idx.size(), m.pos.size());
    idx = out;
  }
  return idx;
}

// Scene helpers over the Builder: static buffers, the standard layout, viewport and rasterizer.
class FeScene {
 public:
  FeScene(Builder& b) : b_(b), ctx_(b.ctx()) {
    rt::InputLayout l;
    b_.check(b_.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                           {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 0, 12}},
                                          &l),
             "create_input_layout");
    ctx_.set_input_layout(l);
    b_.check(ctx_.set_viewport({0, 0, static_cast<float>(b.width()), static_cast<float>(b.height()), 0, 1}), "set_viewport");
    b_.check(ctx_.set_rasterizer_state({rt::CullMode::BACK, false, true}), "set_rasterizer_state");
  }
  template <typename T>
  rt::Resource* buffer(const std::vector<T>& data, uint32_t bind) {
    return b_.create_buffer({static_cast<uint32_t>(data.size() * sizeof(T)), bind}, data.data());
  }
  rt::Resource* vertices(const std::vector<MeshVertex>& v) {
    rt::Resource* r = buffer(v, rt::BIND_VERTEX_BUFFER);
    b_.check(ctx_.set_vertex_buffer(0, r, sizeof(MeshVertex)), "set_vertex_buffer");
    return r;
  }
  rt::Resource* indices16(const std::vector<uint32_t>& idx, uint32_t lead = 0) {
    std::vector<uint16_t> s(lead, 0xBEEF);  // `lead` indices before the mesh's (start_index skips them)
    for (uint32_t i : idx) s.push_back(static_cast<uint16_t>(i));
    if (s.size() % 2) s.push_back(0);
    rt::Resource* r = buffer(s, rt::BIND_INDEX_BUFFER);
    b_.check(ctx_.set_index_buffer(r, rt::IndexFormat::R16_UINT), "set_index_buffer");
    return r;
  }
  rt::Resource* indices32(const std::vector<uint32_t>& idx) {
    rt::Resource* r = buffer(idx, rt::BIND_INDEX_BUFFER);
    b_.check(ctx_.set_index_buffer(r, rt::IndexFormat::R32_UINT), "set_index_buffer");
    return r;
  }
  void transform(const M4& m) { ctx_.set_transform(to_rt(m)); }

 private:
  Builder& b_;
  rt::ImmediateContext& ctx_;
};

// A small seed-dependent angle (radians), so that each scene seed gives another image.
double jitter_angle(SceneRng& rng, double max) { return max * static_cast<double>(rng.range(-1000, 1000)) / 1000.0; }

// ---- fe_sphere --------------------------------------------------------------------------------
// Three UV spheres (1,840 triangles each, 32-bit indices) from one vertex buffer holding three
// tinted copies of the vertices (selected with base_vertex) and one index buffer reached through
// an offset and start_index. The nearest sphere is cut by the near plane (its cap is clipped
// away, showing the culled back faces' background) and reaches beyond the view on two sides (guard
// band); the middle one leaves the view on the right; the far one is small.
SceneImage scene_fe_sphere(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 11);
  Builder b("fe_sphere", 256, 256, 256 * 4, rgba(12, 16, 28));
  FeScene fe(b);
  const Mesh s = make_uv_sphere(40, 24);
  std::vector<MeshVertex> v;
  const V3 tints[3] = {{1.0, 0.55, 0.45}, {0.5, 1.0, 0.6}, {0.55, 0.7, 1.0}};
  for (const V3& t : tints) {
    const auto c = mesh_vertices(s, t);
    v.insert(v.end(), c.begin(), c.end());
  }
  fe.vertices(v);
  std::vector<uint32_t> idx(5, 0xDEADBEEFu);  // 5 indices skipped by start_index
  idx.insert(idx.end(), s.idx.begin(), s.idx.end());
  std::vector<uint32_t> ib_data(1, 0xFFFFFFFFu);  // one more skipped by the binding's offset
  ib_data.insert(ib_data.end(), idx.begin(), idx.end());
  rt::Resource* ib = fe.buffer(ib_data, rt::BIND_INDEX_BUFFER);
  b.check(b.ctx().set_index_buffer(ib, rt::IndexFormat::R32_UINT, 4), "set_index_buffer");
  const Camera cam{{0, 0, 0}, {0, 0, 1}, 1.1, 0.5, 40.0};
  const M4 vp = cam.view_proj();
  const uint32_t n = static_cast<uint32_t>(s.idx.size()), nv = static_cast<uint32_t>(s.pos.size());
  const double spin = jitter_angle(rng, 0.3);
  struct Obj {
    V3 at;
    double radius;
    int tint;
  };
  const Obj objs[3] = {{{-0.1, 0.25, 9.0}, 0.8, 2}, {{2.2, 0.3, 4.2}, 1.1, 1}, {{-0.55, -0.45, 1.3}, 1.0, 0}};
  for (const Obj& o : objs) {  // far to near
    fe.transform(vp * translate(o.at) * scale(o.radius) * rotate_x(0.4 + spin) * rotate_y(spin));
    b.check(b.ctx().draw_indexed(n, 5, static_cast<int32_t>(nv * o.tint)), "draw_indexed");
  }
  return b.finish();
}

// ---- fe_torus ---------------------------------------------------------------------------------
// A torus (1,536 triangles, 16-bit indices) seen from above its rim: the near plane cuts the
// near side of the ring and the ring leaves the view left and right. Its vertices sit at vertex
// 100 of the buffer, its index values are stored 300 too high and base_vertex is -200. A second,
// smaller torus lies behind it.
SceneImage scene_fe_torus(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 12);
  Builder b("fe_torus", 256, 256, 256 * 4, rgba(20, 14, 24));
  FeScene fe(b);
  const double pi = 3.141592653589793;
  const double yaw = jitter_angle(rng, 0.25);
  const Camera cam{{0, 0.55, -1.55}, {0, -0.2, 0.4}, 1.2, 0.45, 30.0};
  // Rings start on the far side (+z, angle pi/2) so that the near side is drawn last.
  const Torus t = make_torus(1.0, 0.32, 48, 16, pi / 2 - yaw);
  std::vector<MeshVertex> v(100, MeshVertex{1e9f, 1e9f, 1e9f, 0xFF0000FFu});  // never referenced
  const auto tv = mesh_vertices(t.mesh, {1.0, 0.8, 0.5});
  v.insert(v.end(), tv.begin(), tv.end());
  fe.vertices(v);
  std::vector<uint32_t> idx;
  for (uint32_t i : t.mesh.idx) idx.push_back(i + 300);
  fe.indices16(idx);
  const M4 vp = cam.view_proj();
  const uint32_t n = static_cast<uint32_t>(idx.size());
  fe.transform(vp * translate({0.7, 0.9, 3.6}) * rotate_x(1.1) * scale(0.6));
  b.check(b.ctx().draw_indexed(n, 0, -200), "draw_indexed");
  fe.transform(vp * rotate_y(yaw));
  b.check(b.ctx().draw_indexed(n, 0, -200), "draw_indexed");
  return b.finish();
}

// ---- fe_torus_strip ---------------------------------------------------------------------------
// The torus as triangle strips with restart: one strip per ring segment, cut by 0xFFFF (16-bit
// indices), the near plane cutting it as in fe_torus; a second torus as 32-bit strips cut by
// 0xFFFFFFFF; a non-indexed strip (a ribbon) across the view.
SceneImage scene_fe_torus_strip(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 13);
  Builder b("fe_torus_strip", 256, 256, 256 * 4, rgba(16, 22, 20));
  FeScene fe(b);
  const double pi = 3.141592653589793;
  const double yaw = jitter_angle(rng, 0.25);
  const Camera cam{{0, 0.55, -1.55}, {0, -0.2, 0.4}, 1.2, 0.45, 30.0};
  const Torus t = make_torus(1.0, 0.32, 40, 14, pi / 2 - yaw);
  const Torus t2 = make_torus(0.8, 0.3, 24, 10, 0.3);
  auto v = mesh_vertices(t.mesh, {0.6, 1.0, 0.8});
  const uint32_t base2 = static_cast<uint32_t>(v.size());
  const auto v2 = mesh_vertices(t2.mesh, {1.0, 0.6, 0.9});
  v.insert(v.end(), v2.begin(), v2.end());
  // The ribbon: a zigzag of 2 x 13 vertices, non-indexed.
  const uint32_t ribbon = static_cast<uint32_t>(v.size());
  for (int k = 0; k <= 12; ++k) {
    const double x = -1.6 + 0.27 * k, y = 0.25 * std::sin(k * 0.7);
    for (int e = 0; e < 2; ++e) {
      const V3 n = normalize({0, std::cos(k * 0.7) * 0.3, -1});
      v.push_back({static_cast<float>(x), static_cast<float>(y + (e ? -0.12 : 0.12)), 0, shade(n, {1, 1, 0.5})});
    }
  }
  fe.vertices(v);
  const std::vector<uint32_t> s1 = torus_strips(t, INDEX_CUT_16);
  rt::Resource* ib16 = fe.indices16(s1);
  std::vector<uint32_t> s2 = torus_strips(t2, INDEX_CUT_32);
  for (uint32_t& i : s2) {
    if (i != INDEX_CUT_32) i += base2;
  }
  rt::Resource* ib32 = fe.buffer(s2, rt::BIND_INDEX_BUFFER);
  rt::ImmediateContext& ctx = b.ctx();
  b.check(ctx.set_primitive_topology(rt::PrimitiveTopology::TRIANGLE_STRIP, true), "set_primitive_topology");
  const M4 vp = cam.view_proj();
  // Far: the 32-bit torus, standing up behind the ring.
  fe.transform(vp * translate({-0.7, 0.4, 3.5}) * rotate_x(1.3) * rotate_y(yaw));
  b.check(ctx.set_index_buffer(ib32, rt::IndexFormat::R32_UINT), "set_index_buffer");
  b.check(ctx.draw_indexed(static_cast<uint32_t>(s2.size()), 0, 0), "draw_indexed");
  // The ring, cut by the near plane.
  fe.transform(vp * rotate_y(yaw));
  b.check(ctx.set_index_buffer(ib16, rt::IndexFormat::R16_UINT), "set_index_buffer");
  b.check(ctx.draw_indexed(static_cast<uint32_t>(s1.size()), 0, 0), "draw_indexed");
  // The ribbon in front, culling off: it turns, so both of its sides are seen.
  b.check(ctx.set_rasterizer_state({rt::CullMode::NONE, false, true}), "set_rasterizer_state");
  fe.transform(vp * translate({0.2, -0.05, 1.6}) * rotate_y(0.5 + yaw));
  b.check(ctx.draw(26, ribbon), "draw");
  return b.finish();
}

// ---- fe_instanced -----------------------------------------------------------------------------
// Instancing: a colour per instance from vertex buffer 1 (UNORM8x4, the per-instance slot) with
// positions from slot 0. Six spheres (288 triangles), each one draw_indexed_instanced of three
// instances with its own transform and start_instance (the instances overlap exactly: the last
// one's colour is what shows); an octahedron drawn non-indexed with draw_instanced; the nearest
// sphere cut by the near plane.
SceneImage scene_fe_instanced(uint32_t seed) {
  SceneRng rng(seed * 0x100000001ull + 14);
  Builder b("fe_instanced", 256, 256, 256 * 4, rgba(24, 24, 24));
  FeScene fe(b);
  rt::ImmediateContext& ctx = b.ctx();
  rt::InputLayout l;
  b.check(b.dev().create_input_layout({{rt::Semantic::POSITION, rt::VertexFormat::F32X3, 0, 0},
                                       {rt::Semantic::COLOR, rt::VertexFormat::UNORM8X4, 1, 4}},
                                      &l),
          "create_input_layout");
  ctx.set_input_layout(l);
  const Mesh s = make_uv_sphere(16, 10);
  std::vector<MeshVertex> v = mesh_vertices(s);
  const uint32_t octa = static_cast<uint32_t>(v.size());
  const V3 corners[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  Mesh o;
  o.pos.assign(corners, corners + 6);
  for (int sx : {0, 1}) {
    for (int sy : {2, 3}) {
      for (int sz : {4, 5}) add_outward(o, static_cast<uint32_t>(sx), static_cast<uint32_t>(sy), static_cast<uint32_t>(sz), {});
    }
  }
  for (uint32_t i : o.idx) v.push_back({static_cast<float>(o.pos[i].x), static_cast<float>(o.pos[i].y), static_cast<float>(o.pos[i].z), 0});
  fe.vertices(v);
  fe.indices16(s.idx, 3);  // 3 leading indices: start_index 3
  // Per-instance data, 8 bytes each: a dword the layout skips, then the colour.
  std::vector<uint32_t> inst;
  for (uint32_t i = 0; i < 24; ++i) {
    inst.push_back(0xDEADBEEFu);
    inst.push_back(i % 3 == 2 ? palette(i / 3) : rgba(40 * (i % 3), 40, 40));  // the third of each draw shows
  }
  rt::Resource* ivb = fe.buffer(inst, rt::BIND_VERTEX_BUFFER);
  b.check(ctx.set_vertex_buffer(1, ivb, 8), "set_vertex_buffer");
  const double spin = jitter_angle(rng, 0.5);
  const M4 vp = Camera{{0, 0, 0}, {0, 0, 1}, 1.2, 0.5, 40.0}.view_proj();
  const V3 at[6] = {{-1.9, 1.0, 6}, {0, 1.1, 6.5}, {1.9, 1.0, 6}, {-1.8, -0.9, 5}, {0.2, -1.6, 5.5}, {0.45, -0.4, 1.0}};
  const uint32_t n = static_cast<uint32_t>(s.idx.size());
  for (uint32_t k = 0; k < 6; ++k) {  // far to near; the octahedron before the nearest sphere
    if (k == 5) {
      fe.transform(vp * translate({-0.6, 0.1, 3.0}) * rotate_y(0.6 + spin) * rotate_x(0.5) * scale(0.5));
      b.check(ctx.draw_instanced(24, 3, octa, 18), "draw_instanced");
    }
    fe.transform(vp * translate(at[k]) * rotate_y(spin + k) * scale(k == 5 ? 0.75 : 0.9));
    b.check(ctx.draw_indexed_instanced(n, 3, 3, 0, 3 * k), "draw_indexed_instanced");
  }
  return b.finish();
}

// ---- fe_bunny ---------------------------------------------------------------------------------
// The glmark2 bunny (32-bit indices): `triangles` = 0 is the whole mesh (69,666 triangles), else
// meshopt_simplify's reduction; in file order or after meshopt_optimizeVertexCache.
SceneImage scene_fe_bunny(const std::string& name, uint32_t seed, size_t triangles, bool optimise) {
  SceneRng rng(seed * 0x100000001ull + 15);
  Builder b(name, 256, 256, 256 * 4, rgba(30, 30, 36));
  FeScene fe(b);
  const Mesh& m = bunny_mesh();
  fe.vertices(mesh_vertices(m, {1.0, 0.9, 0.8}));
  const std::vector<uint32_t> idx = bunny_indices(triangles, optimise);
  fe.indices32(idx);
  const double yaw = 0.6 + jitter_angle(rng, 0.2);
  const M4 vp = Camera{{0, 0.25, -2.3}, {0, 0.05, 0}, 0.95, 0.5, 20.0}.view_proj();
  fe.transform(vp * rotate_y(yaw) * rotate_x(-0.2));
  b.check(b.ctx().draw_indexed(static_cast<uint32_t>(idx.size()), 0, 0), "draw_indexed");
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
      {"cp_commands", scene_cp_commands, "COPY of a vertex buffer, draws from nested command lists (CALL, tail-call JUMP), GPU wait on a host-signalled fence (WAIT_REG), fence signals with INTERRUPT, COPY of the target"},
      // Issue 5: rasterizer scenes, each at 1x and 4x MSAA (images: the 4x target resolved).
      {"quad_full", [](uint32_t s) { return scene_quad_full(s, 1); }, "a full-screen quad (two triangles)"},
      {"quad_full_4x", [](uint32_t s) { return scene_quad_full(s, 4); }, "a full-screen quad at 4x MSAA"},
      {"tiny_10k_4x", [](uint32_t s) { return scene_tiny(s, 4); }, "10,000 tiny triangles at 4x MSAA"},
      {"slivers", [](uint32_t s) { return scene_slivers(s, 1); }, "400 long thin slivers in every direction"},
      {"slivers_4x", [](uint32_t s) { return scene_slivers(s, 4); }, "400 long thin slivers at 4x MSAA"},
      {"dense_mesh", [](uint32_t s) { return scene_dense_mesh(s, 1); }, "a 64x64-cell mesh of 8,192 triangles"},
      {"dense_mesh_4x", [](uint32_t s) { return scene_dense_mesh(s, 4); }, "a 64x64-cell mesh of 8,192 triangles at 4x MSAA"},
      // Issue 4: object-space meshes through the geometry front end (DRAW_FE).
      {"fe_sphere", scene_fe_sphere, "3 UV spheres (1,840 tris each, 32-bit indices, base_vertex), one cut by the near plane"},
      {"fe_torus", scene_fe_torus, "2 tori (1,536 tris each, 16-bit indices, negative base_vertex), near plane and guard band"},
      {"fe_torus_strip", scene_fe_torus_strip, "tori as triangle strips with restart (16- and 32-bit cuts), a non-indexed strip"},
      {"fe_instanced", scene_fe_instanced, "instanced spheres and an octahedron, colour per instance from vertex buffer 1"},
      {"fe_bunny", [](uint32_t s) { return scene_fe_bunny("fe_bunny", s, 4000, false); }, "the glmark2 bunny simplified to ~4,000 tris, file order"},
      {"fe_bunny_opt", [](uint32_t s) { return scene_fe_bunny("fe_bunny_opt", s, 4000, true); }, "the same after meshopt_optimizeVertexCache"},
  };
}

std::vector<SceneInfo> optin_scene_registry() {
  return {
      {"fe_bunny_full", [](uint32_t s) { return scene_fe_bunny("fe_bunny_full", s, 0, false); }, "the whole glmark2 bunny (69,666 tris), file order"},
      {"fe_bunny_full_opt", [](uint32_t s) { return scene_fe_bunny("fe_bunny_full_opt", s, 0, true); }, "the whole bunny after meshopt_optimizeVertexCache"},
  };
}

std::optional<SceneInfo> find_scene(const std::string& name) {
  for (SceneInfo& s : scene_registry()) {
    if (s.name == name) return s;
  }
  for (SceneInfo& s : optin_scene_registry()) {
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
