// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the runtime tests (manual, golden and RTL backends).
#pragma once

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime.h"

namespace pineda::rt::test {

constexpr int32_t PX = 256;  // one pixel in 16.8

inline uint32_t rgba(uint32_t r, uint32_t g, uint32_t b) { return r | (g << 8) | (b << 16) | 0xFF000000u; }

// Vertex buffer contents: pairs of int32 (16.8).
inline std::vector<int32_t> tri(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t x2, int32_t y2) {
  return {x0 * PX, y0 * PX, x1 * PX, y1 * PX, x2 * PX, y2 * PX};
}

inline std::vector<int32_t> concat(std::initializer_list<std::vector<int32_t>> parts) {
  std::vector<int32_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

inline Resource* make_vb(Device& dev, const std::vector<int32_t>& verts, uint32_t extra_bind = 0) {
  Resource* r = nullptr;
  BufferDesc d;
  d.size = static_cast<uint32_t>(verts.size() * 4);
  d.bind = BIND_VERTEX_BUFFER | extra_bind;
  if (dev.create_buffer(d, verts.data(), &r) != Result::OK) return nullptr;
  return r;
}

inline Resource* make_rt(Device& dev, uint32_t w, uint32_t h, uint32_t clear = 0) {
  std::vector<uint32_t> px(static_cast<size_t>(w) * h, clear);
  Resource* r = nullptr;
  TextureDesc d;
  d.width = w;
  d.height = h;
  d.bind = BIND_RENDER_TARGET | BIND_SHADER_RESOURCE;
  if (dev.create_texture2d(d, px.data(), &r) != Result::OK) return nullptr;
  return r;
}

// Reads the render target through Map(READ) (waits for the GPU).
inline std::vector<uint32_t> read_rt(ImmediateContext& ctx, Resource* rt) {
  Mapped m;
  std::vector<uint32_t> px;
  if (ctx.map(rt, MapType::READ, 0, &m) != Result::OK) return px;
  px.resize(static_cast<size_t>(rt->width()) * rt->height());
  for (uint32_t y = 0; y < rt->height(); ++y) std::memcpy(&px[static_cast<size_t>(y) * rt->width()], m.data + y * m.row_pitch, rt->width() * 4);
  ctx.unmap(rt);
  return px;
}

// A byte range of GPU memory [addr, addr + size).
struct MemRange {
  uint32_t addr = 0, size = 0;
  bool holds(uint32_t a) const { return a - addr < size; }
};
inline MemRange range_of(const Resource* r) { return {r->gpu_address(), r->size()}; }

// Every write of GPU memory outside `allowed` (and outside the device's ring, which every
// submission writes) between the image `before` and the backend's memory now: "" when there is
// none, else the first changed byte (old -> new) and how many bytes changed. The byte ranges
// are a resource's size, not its allocation's (which is rounded up), so a write just past a
// resource counts. Call it with the GPU idle (after wait_idle).
// Use: `const Memory before = dev.backend().memory();`, the commands, `wait_idle()`, then
// `CHECK(writes_outside(dev, before, {range_of(rt)}) == "")`.
inline std::string writes_outside(Device& dev, const Memory& before, std::initializer_list<MemRange> allowed) {
  const Memory& after = dev.backend().memory();
  const MemRange ring{dev.ring().addr, dev.ring().size};
  std::vector<uint32_t> pages = before.page_bases();
  for (uint32_t p : after.page_bases()) pages.push_back(p);
  std::sort(pages.begin(), pages.end());
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  uint64_t changed = 0;
  std::ostringstream first;
  for (uint32_t p : pages) {
    const uint8_t* b = before.page_data(p);
    const uint8_t* a = after.page_data(p);
    for (uint32_t i = 0; i < Memory::PAGE_SIZE; ++i) {
      const uint8_t vb = b ? b[i] : 0, va = a ? a[i] : 0;
      if (vb == va) continue;
      const uint32_t addr = p + i;
      bool ok = ring.holds(addr);
      for (const MemRange& r : allowed) ok = ok || r.holds(addr);
      if (ok) continue;
      if (changed++ == 0)
        first << std::hex << "byte 0x" << addr << " changed from 0x" << uint32_t{vb} << " to 0x" << uint32_t{va};
    }
  }
  if (changed == 0) return "";
  return first.str() + " (" + std::to_string(changed) + " bytes changed outside the allowed ranges)";
}

// The commands of every submission so far, in order.
inline std::vector<uint32_t> submitted_dwords(const ManualBackend& be) {
  std::vector<uint32_t> d;
  for (const auto& k : be.kicks()) d.insert(d.end(), k.dwords.begin(), k.dwords.end());
  return d;
}

// Device settings for the manual backend: a short timeout, so that a test that waits for a fence
// nobody completes fails quickly (device lost) instead of hanging.
inline DeviceDesc manual_desc() {
  DeviceDesc d;
  d.timeout = std::chrono::milliseconds(2000);
  return d;
}

// What a RuntimeFixture sets up.
struct FixtureDesc {
  DeviceDesc device;
  uint32_t width = 16, height = 16, clear = 0;       // render target and its CPU clear colour
  std::vector<int32_t> vertices = tri(0, 0, 8, 0, 0, 8);
  bool bind = true;                                  // rt and vb bound on the immediate context

  FixtureDesc& with_device(const DeviceDesc& d) {
    device = d;
    return *this;
  }
  FixtureDesc& target(uint32_t w, uint32_t h, uint32_t c = 0) {
    width = w;
    height = h;
    clear = c;
    return *this;
  }
  FixtureDesc& with_vertices(std::vector<int32_t> v) {
    vertices = std::move(v);
    return *this;
  }
  FixtureDesc& unbound() {
    bind = false;
    return *this;
  }
};

// The start of almost every runtime test: a Device over backend B, a render target `rt` and a
// vertex buffer `vb`, bound on the immediate context `ctx`. At the end it unbinds and releases
// them (a test that releases one itself sets the member to nullptr) and, on the manual backend,
// completes every submitted fence so that the Device can be destroyed without waiting.
// Use with TEST_CASE_METHOD (ManualFixture, GoldenFixture) or as a local object.
template <typename B>
class RuntimeFixture {
 public:
  static FixtureDesc defaults() {
    FixtureDesc d;
    if (std::is_same<B, ManualBackend>::value) d.device = manual_desc();
    return d;
  }
  RuntimeFixture() : RuntimeFixture(defaults()) {}
  explicit RuntimeFixture(const FixtureDesc& d)
      : dev(be, d.device), ctx(dev.immediate()), rt(make_rt(dev, d.width, d.height, d.clear)),
        vb(make_vb(dev, d.vertices)) {
    if (!rt || !vb) throw std::runtime_error("RuntimeFixture: " + dev.last_error());
    if (d.bind && (ctx.set_render_target(rt) != Result::OK || ctx.set_pretransformed_vertex_buffer(vb) != Result::OK))
      throw std::runtime_error("RuntimeFixture: " + ctx.last_error());
  }
  ~RuntimeFixture() {
    ctx.clear_state();
    if (rt) rt->release();
    if (vb) vb->release();
    complete_on_teardown(be);
  }
  RuntimeFixture(const RuntimeFixture&) = delete;
  RuntimeFixture& operator=(const RuntimeFixture&) = delete;

  // Colour, then a draw of `count` vertices from `first` of the bound vertex buffer.
  Result draw(uint32_t colour, uint32_t count = 3, uint32_t first = 0) {
    ctx.set_color(colour);
    return ctx.draw_pretransformed(count, first);
  }
  std::vector<uint32_t> pixels() { return read_rt(ctx, rt); }
  // Front-end set-up for clip-space positions (x, y, z per vertex, identity transform): a vertex
  // buffer bound as slot 0 with an F32X3 POSITION layout, a w x h viewport, culling off.
  // The caller releases the returned buffer.
  Resource* bind_clip_positions(const std::vector<float>& xyz, float w, float h) {
    Resource* buf = nullptr;
    REQUIRE(dev.create_buffer({static_cast<uint32_t>(xyz.size() * 4), BIND_VERTEX_BUFFER}, xyz.data(), &buf) ==
            Result::OK);
    InputLayout l;
    REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &l) == Result::OK);
    ctx.set_input_layout(l);
    REQUIRE(ctx.set_vertex_buffer(0, buf, 12) == Result::OK);
    REQUIRE(ctx.set_viewport({0, 0, w, h, 0, 1}) == Result::OK);
    REQUIRE(ctx.set_rasterizer_state({CullMode::NONE, false, true}) == Result::OK);
    return buf;
  }
  // A deferred context with a clip-space triangle (x, y, z per vertex, F32X3 POSITION layout) in
  // slot 0, the fixture's target and a 16x16 viewport. `buf` gets the vertex buffer, which the
  // caller releases.
  std::unique_ptr<DeferredContext> deferred_triangle(Resource*& buf) {
    std::unique_ptr<DeferredContext> dc;
    REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
    const std::vector<float> xyz = {-1, -1, 0.5f, 1, -1, 0.5f, -1, 1, 0.5f};
    REQUIRE(dev.create_buffer({36, BIND_VERTEX_BUFFER}, xyz.data(), &buf) == Result::OK);
    InputLayout l;
    REQUIRE(dev.create_input_layout({{Semantic::POSITION, VertexFormat::F32X3, 0, 0}}, &l) == Result::OK);
    dc->set_input_layout(l);
    REQUIRE(dc->set_vertex_buffer(0, buf, 12) == Result::OK);
    REQUIRE(dc->set_render_target(rt) == Result::OK);
    REQUIRE(dc->set_viewport({0, 0, 16, 16, 0, 1}) == Result::OK);
    return dc;
  }

  B be;
  Device dev;
  ImmediateContext& ctx;
  Resource* rt;
  Resource* vb;

 private:
  template <typename Other>
  static void complete_on_teardown(Other&) {}  // simulated GPUs run when the Device waits
  static void complete_on_teardown(ManualBackend& m) {
    m.on_poll = [&m] { m.complete(m.last_kicked_fence()); };
  }
};

using ManualFixture = RuntimeFixture<ManualBackend>;
using GoldenFixture = RuntimeFixture<GoldenBackend>;

// A 32x16 target drawn from `verts`, the default backend settings.
inline FixtureDesc wide_target(std::vector<int32_t> verts) { return FixtureDesc().target(32, 16).with_vertices(std::move(verts)); }

// A deterministic scene used to compare backends: several resources, state changes, a DISCARD
// rename, a command list executed twice, auto-flushes. Leaves everything flushed and idle.
// Returns the number of render-target pixels that differ from the clear colour.
inline int draw_compare_scene(Device& dev) {
  ImmediateContext& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 64, 48, rgba(10, 10, 30));
  std::vector<int32_t> v;
  for (int i = 0; i < 12; ++i) {
    const int32_t x = (i * 5) % 60, y = (i * 7) % 44;
    auto t = tri(x, y, x + 9, y + 1, x + 3, y + 8);
    if (i % 2) std::swap(t[2], t[4]), std::swap(t[3], t[5]);
    v.insert(v.end(), t.begin(), t.end());
  }
  Resource* vb = make_vb(dev, v);
  Resource* vb2 = make_vb(dev, concat({tri(0, 0, 64, 0, 0, 48), tri(64, 0, 64, 48, 0, 48)}));
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb);
  for (int i = 0; i < 12; ++i) {
    ctx.set_color(rgba(20 * i, 255 - 20 * i, (i * 70) & 255));
    if (i == 5) ctx.set_scissor(4, 4, 50, 40);
    ctx.draw_pretransformed(3, static_cast<uint32_t>(3 * i));
    if (i % 4 == 3) ctx.flush();
  }
  // A deferred list drawing through the second buffer, executed twice.
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  dc->set_render_target(rt);
  dc->set_pretransformed_vertex_buffer(vb2);
  dc->set_color(rgba(200, 200, 0));
  dc->set_scissor(30, 20, 40, 30);
  dc->draw_pretransformed(6, 0);
  CommandList* list = nullptr;
  dc->finish_command_list(false, &list);
  ctx.execute_command_list(list, true);
  ctx.draw_pretransformed(3, 0);
  // Rename the vertex buffer while the GPU may still read it.
  Mapped m;
  ctx.map(vb, MapType::WRITE_DISCARD, 0, &m);
  auto t = tri(40, 30, 63, 47, 20, 47);
  std::vector<int32_t> nv(v.size(), 0);
  std::copy(t.begin(), t.end(), nv.begin());
  std::memcpy(m.data, nv.data(), nv.size() * 4);
  ctx.unmap(vb);
  ctx.set_scissor(0, 0, 0xFFFF, 0xFFFF);
  ctx.set_color(rgba(0, 255, 255));
  ctx.draw_pretransformed(3, 0);
  ctx.execute_command_list(list, false);
  list->release();
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb);
  ctx.draw_pretransformed(3, 0);
  ctx.wait_idle();
  int drawn = 0;
  for (uint32_t p : read_rt(ctx, rt)) drawn += p != rgba(10, 10, 30);
  ctx.clear_state();
  dc.reset();
  vb->release();
  vb2->release();
  rt->release();
  ctx.wait_idle();
  return drawn;
}

}  // namespace pineda::rt::test
