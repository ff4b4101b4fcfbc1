// SPDX-License-Identifier: Apache-2.0
// What every regression scene is built with: Builder (a Device over a CaptureBackend, a render
// target, a guard buffer and a dynamic vertex buffer) and the small helpers of the screen-space
// scenes (16.8 pixels, colours, windings). Internal to the scenes library (sim/).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pineda_contract.h"
#include "runtime.h"
#include "scenes.h"
#include "vec_math.h"

namespace pineda::scenes {

// A scene transform (double) as the runtime's FP32 matrix.
inline rt::Matrix4 to_rt(const M4& a) {
  rt::Matrix4 r;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) r.m[i][j] = static_cast<float>(a.m[i][j]);
  }
  return r;
}

inline constexpr int32_t PX = 256;  // one pixel in 16.8

inline int64_t area2(const SceneVertex& a, const SceneVertex& b, const SceneVertex& c) {
  return (int64_t{b.x} - a.x) * (int64_t{c.y} - a.y) - (int64_t{c.x} - a.x) * (int64_t{b.y} - a.y);
}

inline int32_t snap_centre(int32_t v) { return (v >> 8) * PX + 128; }  // v may be negative: no <<

inline uint32_t rgba(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xFF000000u; }

// Distinct opaque colours for successive draws.
inline uint32_t palette(uint32_t i) {
  const uint32_t p[] = {rgba(230, 60, 60),  rgba(60, 180, 75),  rgba(255, 225, 25), rgba(0, 130, 200),
                        rgba(245, 130, 48), rgba(145, 30, 180), rgba(70, 240, 240), rgba(240, 50, 230),
                        rgba(210, 245, 60), rgba(250, 190, 212), rgba(0, 128, 128), rgba(220, 190, 255),
                        rgba(170, 110, 40), rgba(255, 250, 200), rgba(128, 0, 0),   rgba(170, 255, 195)};
  return p[i % 16];
}

inline SceneTri random_winding(SceneTri t, SceneRng& rng) {
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
  // pitch 0: the smallest (width * bytes per pixel * samples, rounded up to 4); `format`: the
  // render target's (background and pad colours are stored as that format stores them).
  Builder(std::string name, uint32_t width, uint32_t height, uint32_t pitch, uint32_t background,
          uint32_t vb_bytes = 64 * 1024, uint32_t pad_colour = rgba(255, 0, 255), uint32_t samples = 1,
          rt::Format format = rt::Format::R8G8B8A8_UNORM)
      : dev_(be_, device_desc()), ctx_(dev_.immediate()), width_(width), height_(height) {
    img_.name = std::move(name);
    const uint32_t bpp = rt::format_bytes(format);
    if (pitch == 0) pitch = (width * bpp * samples + 3u) & ~3u;
    // Background inside the target (every sample of a 4x MSAA target); a sentinel colour in the
    // row padding and in 8 rows of a guard buffer allocated right after it, so that a write
    // outside the target shows up in a memory comparison.
    std::vector<uint32_t> px(static_cast<size_t>(pitch / 4) * height, rt::clear_value(format, pad_colour));
    const uint32_t bg = rt::clear_value(format, background);
    for (uint32_t y = 0; y < height; ++y) {
      uint8_t* row = reinterpret_cast<uint8_t*>(px.data()) + static_cast<size_t>(y) * pitch;
      for (uint32_t i = 0; i < width * samples; ++i) std::memcpy(row + static_cast<size_t>(i) * bpp, &bg, bpp);
    }
    rt::TextureDesc td{width, height, pitch, rt::BIND_RENDER_TARGET};
    td.samples = samples;
    td.format = format;
    img_.samples = samples;
    img_.fmt = rt::rt_format_code(format);
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

}  // namespace pineda::scenes
