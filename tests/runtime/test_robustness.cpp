// SPDX-License-Identifier: Apache-2.0
// Misuse of the runtime found by hand and by fuzzing (issue 12): each case failed (or crashed
// under AddressSanitizer, or hung) before its fix.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

TEST_CASE("robustness: unmap of a resource released while mapped is INVALID_ARG", "[runtime][robust]") {
  GoldenFixture f;
  Resource* b = nullptr;
  REQUIRE(f.dev.create_buffer({256, BIND_VERTEX_BUFFER}, nullptr, &b) == Result::OK);
  Mapped m;
  REQUIRE(f.ctx.map(b, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  b->release();  // the final reference, while mapped
  // Before: unmap read the freed Resource (AddressSanitizer: heap-use-after-free) and returned OK.
  CHECK(f.ctx.unmap(b) == Result::INVALID_ARG);
  CHECK(f.ctx.draw_pretransformed(3, 0) == Result::OK);  // the device is fine
  CHECK(f.ctx.wait_idle() == Result::OK);
}

TEST_CASE("robustness: a command list runs only on the device that recorded it, and only while live",
          "[runtime][robust]") {
  GoldenFixture a(GoldenFixture::defaults().target(16, 16, 0));
  GoldenFixture b(GoldenFixture::defaults().target(16, 16, 0));
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(a.dev.create_deferred_context({}, &dc) == Result::OK);
  auto record_red_triangle = [&]() {
    dc->set_render_target(a.rt);
    dc->set_pretransformed_vertex_buffer(a.vb);
    dc->set_color(0xFF0000FFu);
    REQUIRE(dc->draw_pretransformed(3, 0) == Result::OK);
    CommandList* l = nullptr;
    REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
    return l;
  };
  CommandList* list = record_red_triangle();
  // Before: OK, and A's commands ran on B's memory.
  CHECK(b.ctx.execute_command_list(list, false) == Result::INVALID_ARG);
  std::unique_ptr<DeferredContext> dcb;
  REQUIRE(b.dev.create_deferred_context({}, &dcb) == Result::OK);
  CHECK(dcb->execute_command_list(list, false) == Result::INVALID_ARG);
  for (uint32_t p : b.pixels()) CHECK(p == 0u);  // B untouched
  REQUIRE(a.ctx.execute_command_list(list, false) == Result::OK);
  list->release();
  // Before: a released list ran again (or, for a large list, was a use after free).
  CHECK(a.ctx.execute_command_list(list, false) == Result::INVALID_ARG);
  list->release();  // a second release is ignored
  // The pooled object may be handed out again: the new list works.
  CommandList* list2 = record_red_triangle();
  CHECK(a.ctx.execute_command_list(list2, false) == Result::OK);
  list2->release();
  CHECK(a.ctx.wait_idle() == Result::OK);
  size_t red = 0;
  for (uint32_t p : a.pixels()) red += p == 0xFF0000FFu;
  CHECK(red > 0);
}

TEST_CASE("robustness: a heap beyond the 32-bit address space is rejected", "[runtime][robust]") {
  GoldenBackend be;
  DeviceDesc d;
  d.heap_base = 0xF0000000u;
  d.heap_size = 0x20000000u;
  // Before: accepted; an allocation landed at a truncated address and its release threw.
  CHECK_THROWS_AS(Device(be, d), std::invalid_argument);
  d.heap_size = 0x10000000u;  // ends exactly at 4 GiB: fine
  GoldenBackend be2;
  CHECK_NOTHROW(Device(be2, d));
}

TEST_CASE("robustness: an initial fence that would wrap 2^64 is rejected", "[runtime][robust]") {
  GoldenBackend be;
  DeviceDesc d;
  d.initial_fence = std::numeric_limits<uint64_t>::max() - 2;
  // Before: the fence wrapped to 0 and wait_idle returned OK with nothing drawn.
  CHECK_THROWS_AS(Device(be, d), std::invalid_argument);
  d.initial_fence = (uint64_t{1} << 63) - 5;  // still far from the wrap: works
  GoldenFixture f(GoldenFixture::defaults().with_device(d).target(8, 8, 0));
  REQUIRE(f.draw(0xFF00FF00u) == Result::OK);
  REQUIRE(f.ctx.wait_idle() == Result::OK);
  size_t n = 0;
  for (uint32_t p : f.pixels()) n += p == 0xFF00FF00u;
  CHECK(n > 0);
}

TEST_CASE("robustness: a marker larger than the ring is INVALID_ARG, not a lost device", "[runtime][robust]") {
  DeviceDesc d;
  d.ring_size = 1024;
  GoldenFixture f(GoldenFixture::defaults().with_device(d).target(8, 8, 0));
  // Before: DEVICE_LOST (the command could never be placed in the ring).
  CHECK(f.ctx.set_marker(std::string(2000, 'm')) == Result::INVALID_ARG);
  CHECK(f.ctx.set_marker("short") == Result::OK);
  REQUIRE(f.draw(0xFF00FF00u) == Result::OK);
  CHECK(f.ctx.wait_idle() == Result::OK);
}

TEST_CASE("robustness: the widest render target is 16,383 pixels (4,095 at 4x): the pitch is 16-bit",
          "[runtime][robust]") {
  GoldenBackend be;
  Device dev(be, DeviceDesc{});
  TextureDesc t;
  t.height = 1;
  t.bind = BIND_RENDER_TARGET;
  Resource* r = nullptr;
  t.width = 16384;
  CHECK(dev.create_texture2d(t, nullptr, &r) == Result::INVALID_ARG);
  // Before: the message said 1..16384 (the contract's MAX_RT_DIM), which no width can reach.
  CHECK_THAT(dev.last_error(), Catch::Contains("at most 16383"));
  t.width = 16383;
  REQUIRE(dev.create_texture2d(t, nullptr, &r) == Result::OK);
  r->release();
  t.samples = 4;
  t.width = 4096;
  CHECK(dev.create_texture2d(t, nullptr, &r) == Result::INVALID_ARG);
  CHECK_THAT(dev.last_error(), Catch::Contains("at most 4095"));
  t.width = 4095;
  REQUIRE(dev.create_texture2d(t, nullptr, &r) == Result::OK);
  r->release();
}

TEST_CASE("robustness: a full-screen front-end triangle at 3e38 covers the screen", "[runtime][robust]") {
  GoldenFixture f(GoldenFixture::defaults().target(8, 8, 0));
  // The usual full-screen triangle, scaled: (-1, -1) (3, -1) (-1, 3) times 1e38.
  std::vector<float> v = {-1e38f, -1e38f, 0.5f, 3e38f, -1e38f, 0.5f, -1e38f, 3e38f, 0.5f};
  Resource* vb = f.bind_clip_positions(v, 8, 8);
  REQUIRE(f.ctx.draw(3, 0) == Result::OK);
  // Before: the clip intersection's dI - dO overflowed to Inf, t = 0, and nothing was drawn.
  for (uint32_t p : f.pixels()) CHECK(p != 0u);
  f.ctx.clear_state();
  vb->release();
}

TEST_CASE("robustness: DeviceDesc::timeout interrupts one huge draw on the golden backend", "[runtime][robust]") {
  DeviceDesc d;
  d.timeout = std::chrono::milliseconds(300);
  GoldenFixture f(GoldenFixture::defaults().with_device(d).target(8, 8, 0));
  std::vector<float> v = {-0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f};
  Resource* vb = f.bind_clip_positions(v, 8, 8);
  REQUIRE(f.ctx.draw_instanced(3, 0xFFFFFFFFu, 0, 0) == Result::OK);
  const auto t0 = std::chrono::steady_clock::now();
  // Before: hours (the golden model runs the whole draw inside one advance()).
  CHECK(f.ctx.wait_idle() == Result::DEVICE_LOST);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  CHECK(ms < 5000);
  CHECK(f.be.hung());
  f.ctx.clear_state();
  vb->release();
}
