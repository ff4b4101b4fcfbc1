// SPDX-License-Identifier: Apache-2.0
// Runtime tests on the manual backend (fence advanced by the test) and the golden model.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <thread>

#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {
// A manual device with `dd`.
FixtureDesc manual_with(const DeviceDesc& dd) { return ManualFixture::defaults().with_device(dd); }
}  // namespace

TEST_CASE_METHOD(ManualFixture, "WRITE map of an idle resource does not flush or wait", "[runtime][map]") {
  Resource* idle = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);  // open, not flushed: vb is busy
  const size_t open = ctx.open_dwords();
  Mapped m;
  REQUIRE(ctx.map(idle, MapType::WRITE, 0, &m) == Result::OK);
  std::memset(m.data, 0, m.size);
  REQUIRE(ctx.unmap(idle) == Result::OK);
  CHECK(dev.stats().flushes == 0);
  CHECK(dev.stats().waits == 0);
  CHECK(be.polls() == 0);
  CHECK(be.kick_count() == 0);
  CHECK(ctx.open_dwords() == open);
  CHECK(be.memory().read32(idle->gpu_address()) == 0);
  idle->release();
}

TEST_CASE("NO_OVERWRITE while the GPU is stalled returns at once with the same pointer", "[runtime][map]") {
  ManualFixture f(ManualFixture::defaults().with_vertices(std::vector<int32_t>(60, 0)));
  Mapped m1, m2;
  REQUIRE(f.ctx.map(f.vb, MapType::WRITE_DISCARD, 0, &m1) == Result::OK);
  auto t = tri(0, 0, 8, 0, 0, 8);
  std::memcpy(m1.data, t.data(), 24);
  f.ctx.unmap(f.vb);
  f.ctx.draw_pretransformed(3, 0);
  REQUIRE(f.ctx.flush() == Result::OK);
  REQUIRE(f.dev.completed_fence() < f.dev.flushed_fence());  // the GPU has not finished (stalled)
  const uint32_t addr = f.vb->gpu_address();
  REQUIRE(f.ctx.map(f.vb, MapType::WRITE_NO_OVERWRITE, 0, &m2) == Result::OK);
  CHECK(m2.data == m1.data);
  CHECK(f.vb->gpu_address() == addr);
  CHECK(f.dev.stats().waits == 0);
  CHECK(f.be.polls() == 0);
  // Appending after the data in use: only the changed bytes are written back.
  auto t2 = tri(8, 8, 16, 8, 8, 16);
  std::memcpy(m2.data + 24, t2.data(), 24);
  f.ctx.unmap(f.vb);
  CHECK(f.be.memory().read32(addr + 24) == static_cast<uint32_t>(8 * PX));
  CHECK(f.be.memory().read32(addr + 4 * 2) == static_cast<uint32_t>(8 * PX));
  f.ctx.draw_pretransformed(3, 3);
}

TEST_CASE("DISCARD while busy returns new storage at once; the earlier draw sees the old data (golden)",
          "[runtime][map][golden]") {
  GoldenFixture f(wide_target(tri(0, 0, 16, 0, 0, 16)));  // left half
  f.draw(rgba(255, 0, 0));
  REQUIRE(f.ctx.flush() == Result::OK);
  const uint32_t old_addr = f.vb->gpu_address();
  const uint64_t busy_fence = f.vb->last_gpu_read();
  REQUIRE(f.dev.completed_fence() < busy_fence);  // the model runs only when the runtime waits
  Mapped m;
  REQUIRE(f.ctx.map(f.vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  CHECK(f.dev.stats().waits == 0);
  CHECK(f.dev.stats().renames == 1);
  CHECK(f.vb->gpu_address() != old_addr);
  CHECK(f.dev.completed_fence() < busy_fence);  // returned without the GPU finishing
  auto t = tri(16, 0, 32, 0, 32, 16);             // right half
  std::memcpy(m.data, t.data(), 24);
  f.ctx.unmap(f.vb);
  f.draw(rgba(0, 255, 0));
  const auto px = f.pixels();
  REQUIRE(px.size() == 32 * 16);
  CHECK(px[2 * 32 + 2] == rgba(255, 0, 0));    // first draw: old data (left)
  CHECK(px[2 * 32 + 29] == rgba(0, 255, 0));   // second draw: new data (right)
  CHECK(px[14 * 32 + 2] == 0);                 // below the old triangle: untouched
  CHECK(f.be.memory().read32(old_addr + 8) == static_cast<uint32_t>(16 * PX));  // old storage kept its data
}

TEST_CASE_METHOD(ManualFixture, "READ map after a draw blocks until exactly that draw's fence", "[runtime][map]") {
  Resource* rt2 = make_rt(dev, 16, 16);
  ctx.draw_pretransformed(3, 0);
  REQUIRE(ctx.flush() == Result::OK);
  const uint64_t f1 = dev.flushed_fence();
  ctx.set_render_target(rt2);
  ctx.draw_pretransformed(3, 0);
  ctx.flush();
  const uint64_t f2 = dev.flushed_fence();
  REQUIRE(f2 == f1 + 1);
  // Each poll completes one more fence; the map must return as soon as f1 (not f2) is reached.
  std::vector<uint64_t> seen;
  be.on_poll = [&] {
    const uint64_t next = dev.desc().initial_fence + seen.size() + 1;
    seen.push_back(next);
    be.complete(next);
  };
  Mapped m;
  REQUIRE(ctx.map(rt, MapType::READ, 0, &m) == Result::OK);
  CHECK(seen == std::vector<uint64_t>{f1});
  CHECK(dev.stats().last_wait_fence == f1);
  ctx.unmap(rt);
  // Two reads never wait.
  const auto waits = dev.stats().waits;
  REQUIRE(ctx.map(vb, MapType::READ, 0, &m) == Result::OK);  // vb is only read by the GPU
  ctx.unmap(vb);
  CHECK(dev.stats().waits == waits);
  be.on_poll = nullptr;
  be.complete(f2);
  ctx.clear_state();
  rt2->release();
}

TEST_CASE_METHOD(ManualFixture, "READ map flushes an unsubmitted draw and waits for its fence", "[runtime][map]") {
  ctx.draw_pretransformed(3, 0);
  REQUIRE(be.kick_count() == 0);
  const uint64_t f = ctx.open_fence();
  int polls = 0;
  be.on_poll = [&] {
    if (++polls == 3) be.complete(f);  // the GPU finishes after a while
  };
  Mapped m;
  REQUIRE(ctx.map(rt, MapType::READ, 0, &m) == Result::OK);
  CHECK(be.kick_count() == 1);
  CHECK(be.last_kicked_fence() == f);
  CHECK(polls == 3);
  CHECK(dev.completed_fence() == f);
  ctx.unmap(rt);
  be.on_poll = nullptr;
}

TEST_CASE_METHOD(ManualFixture, "a destroyed resource's memory is not reused before its fence", "[runtime][destroy]") {
  const uint32_t addr_a = vb->gpu_address();
  ctx.draw_pretransformed(3, 0);
  ctx.set_pretransformed_vertex_buffer(nullptr);
  ctx.flush();
  const uint64_t f = dev.flushed_fence();
  vb->release();  // last reference: retires at f
  vb = nullptr;
  Resource* b = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  CHECK(b->gpu_address() != addr_a);
  ctx.flush();  // processes retirement: nothing has passed
  Resource* c = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  CHECK(c->gpu_address() != addr_a);
  be.complete(f);
  ctx.flush();  // retirement processed on flush (empty command buffer)
  Resource* d = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  CHECK(d->gpu_address() == addr_a);  // first fit: the freed block is the lowest
  CHECK(dev.stats().retired >= 1);
  for (Resource* r : {b, c, d}) r->release();
}

TEST_CASE("a full heap waits for a retiring resource's fence before reusing its memory", "[runtime][destroy]") {
  DeviceDesc dd = manual_desc();
  dd.ring_size = 4096;
  dd.heap_size = 4096 + 1024 + 1024;  // the ring, a 16x16 render target and one 1 KiB buffer
  ManualFixture f(manual_with(dd).with_vertices(std::vector<int32_t>(256, 0)));  // 1 KiB
  const uint32_t addr_a = f.vb->gpu_address();
  f.ctx.draw_pretransformed(3, 0);
  f.ctx.clear_state();
  f.ctx.flush();
  const uint64_t fence = f.dev.flushed_fence();
  f.vb->release();
  f.vb = nullptr;
  uint64_t completed_at_poll = 0;
  int polls = 0;
  f.be.on_poll = [&] {
    if (++polls == 2) {
      completed_at_poll = fence;
      f.be.complete(fence);
    }
  };
  Resource* b = nullptr;
  REQUIRE(f.dev.create_buffer({1024, BIND_VERTEX_BUFFER}, nullptr, &b) == Result::OK);
  CHECK(polls == 2);                       // it had to wait ...
  CHECK(completed_at_poll == fence);       // ... for exactly the retiring resource's fence
  CHECK(f.dev.stats().last_wait_fence == fence);
  CHECK(b->gpu_address() == addr_a);
  f.be.on_poll = nullptr;
  b->release();
}

TEST_CASE("fence wrap-around from 0xFFFFFF80 over 256 submissions", "[runtime][fence]") {
  DeviceDesc dd = manual_desc();
  dd.initial_fence = 0xFFFFFF80u;
  ManualFixture f(manual_with(dd));
  CHECK(f.be.read_fence() == 0xFFFFFF80u);
  for (uint64_t i = 1; i <= 256; ++i) {
    f.draw(static_cast<uint32_t>(i));
    REQUIRE(f.ctx.flush() == Result::OK);
    const uint64_t fence = 0xFFFFFF80ull + i;
    REQUIRE(f.dev.flushed_fence() == fence);
    REQUIRE(f.be.last_kicked_fence() == fence);
    REQUIRE(f.rt->last_gpu_write() == fence);
    REQUIRE(f.dev.completed_fence() == fence - 1);  // not done yet, even across the wrap
    if (i % 2) {
      f.be.complete(fence);
    } else {  // wait through a READ map: the hook completes the fence
      f.be.on_poll = [&f, fence] { f.be.complete(fence); };
      Mapped m;
      REQUIRE(f.ctx.map(f.rt, MapType::READ, 0, &m) == Result::OK);
      f.ctx.unmap(f.rt);
      f.be.on_poll = nullptr;
    }
    REQUIRE(f.dev.completed_fence() == fence);
  }
  CHECK(f.dev.completed_fence() == 0x100000080ull);
  CHECK(f.be.read_fence() == 0x00000080u);
  // The fence value written by the last submission is the low half of the 64-bit fence.
  const auto k = f.be.kicks().back();
  REQUIRE(k.dwords.size() >= 2);
  CHECK(k.dwords[k.dwords.size() - 1] == 0x00000080u);
}

TEST_CASE("ring overrun waits on the oldest fence without corruption", "[runtime][ring]") {
  DeviceDesc dd = manual_desc();
  dd.ring_size = 256;
  ManualFixture f(manual_with(dd));
  std::vector<uint64_t> waited_on;
  size_t checked = 0;
  f.be.on_poll = [&] {
    checked += f.be.verify_outstanding();  // throws on corruption
    // Complete exactly the oldest outstanding submission.
    for (const auto& k : f.be.kicks()) {
      if (static_cast<int32_t>(f.be.read_fence() - static_cast<uint32_t>(k.fence)) < 0) {
        waited_on.push_back(k.fence);
        f.be.complete(k.fence);
        break;
      }
    }
  };
  for (uint32_t i = 0; i < 60; ++i) {
    REQUIRE(f.draw(0x1000u + i) == Result::OK);
    REQUIRE(f.ctx.flush() == Result::OK);
    REQUIRE_NOTHROW(f.be.verify_outstanding());
  }
  const DeviceStats st = f.dev.stats();
  CHECK(st.ring_waits > 0);
  CHECK(checked > 0);
  // Fences were completed strictly in order, one at a time, only as far as needed.
  for (size_t i = 0; i < waited_on.size(); ++i) CHECK(waited_on[i] == i + 1);
  CHECK(waited_on.size() < 60);
  // Every submission holds its own colour and fence.
  const auto kicks = f.be.kicks();
  REQUIRE(kicks.size() == 60);
  for (uint32_t i = 0; i < 60; ++i) {
    const auto& d = kicks[i].dwords;
    bool colour = false;
    for (size_t j = 0; j + 1 < d.size(); ++j) colour |= d[j] == 0x1000u + i;
    CHECK(colour);
    CHECK(d.back() == i + 1);
  }
  f.be.on_poll = nullptr;
}

TEST_CASE("a tiny ring gives the same image as a large one (golden)", "[runtime][ring][golden]") {
  auto render = [](uint32_t ring) {
    std::vector<int32_t> v;
    for (int i = 0; i < 40; ++i) {
      auto t = tri(i % 30, (i * 3) % 28, i % 30 + 4, (i * 3) % 28, i % 30, (i * 3) % 28 + 4);
      v.insert(v.end(), t.begin(), t.end());
    }
    DeviceDesc dd;
    dd.ring_size = ring;
    GoldenFixture f(FixtureDesc().with_device(dd).target(32, 32).with_vertices(v));
    for (uint32_t i = 0; i < 40; ++i) {
      f.draw(rgba(i * 6, 255 - i * 6, i), 3, 3 * i);
      if (i % 3 == 0) f.ctx.flush();
    }
    return std::make_pair(f.pixels(), f.dev.stats().ring_waits);
  };
  const auto big = render(64 * 1024);
  const auto tiny = render(256);
  CHECK(big.second == 0);
  CHECK(tiny.second > 0);
  CHECK(big.first == tiny.first);
}

TEST_CASE("a command list recorded on another thread and executed twice gives state isolation",
          "[runtime][deferred][golden]") {
  const bool use_call = GENERATE(true, false);
  DeviceDesc dd;
  dd.use_call = use_call;
  // L: left half, R: right half, M: a small triangle inside R.
  GoldenFixture f(wide_target(concat({tri(0, 0, 16, 0, 0, 16), tri(16, 0, 32, 0, 32, 16), tri(24, 1, 30, 1, 30, 7)}))
                      .with_device(dd));
  CHECK(f.dev.hardware_call() == use_call);
  const uint32_t RED = rgba(255, 0, 0), BLUE = rgba(0, 0, 255);
  CommandList* list = nullptr;
  std::thread rec([&] {
    std::unique_ptr<DeferredContext> dc;
    REQUIRE(f.dev.create_deferred_context({}, &dc) == Result::OK);
    dc->set_render_target(f.rt);
    dc->set_pretransformed_vertex_buffer(f.vb);
    dc->set_color(BLUE);  // no scissor set: the list must not inherit the immediate's
    REQUIRE(dc->draw_pretransformed(3, 3) == Result::OK);
    REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  });
  rec.join();
  REQUIRE(list != nullptr);
  f.ctx.set_scissor(0, 0, 31, 16);
  f.draw(RED);                                                     // L red
  REQUIRE(f.ctx.execute_command_list(list, true) == Result::OK);   // R blue
  REQUIRE(f.ctx.draw_pretransformed(3, 6) == Result::OK);                         // M with the restored state: red
  auto px = f.pixels();
  CHECK(px[2 * 32 + 2] == RED);
  CHECK(px[2 * 32 + 20] == BLUE);
  CHECK(px[12 * 32 + 31] == BLUE);   // beyond the immediate's scissor: the list's state is its own
  CHECK(px[2 * 32 + 29] == RED);
  f.ctx.set_scissor(0, 0, 4, 4);
  f.ctx.set_color(rgba(0, 255, 0));
  REQUIRE(f.ctx.execute_command_list(list, false) == Result::OK);  // again: M becomes blue
  CHECK(f.ctx.state().rt == nullptr);                                 // cleared, not restored
  CHECK(f.ctx.draw_pretransformed(3, 0) == Result::INVALID_CALL);
  px = f.pixels();
  CHECK(px[2 * 32 + 29] == BLUE);
  CHECK(px[2 * 32 + 2] == RED);
  CHECK(list->executions() == 2);
  const auto st = f.dev.stats();
  CHECK(st.list_calls == (use_call ? 2u : 0u));
  CHECK(st.list_copies == (use_call ? 0u : 2u));
  list->release();
}

TEST_CASE("deferred DISCARD and NO_OVERWRITE write storage owned by the list (golden)", "[runtime][deferred][golden]") {
  GoldenFixture f(wide_target(concat({tri(0, 0, 16, 0, 0, 16), tri(0, 0, 16, 0, 0, 16)})).unbound());
  std::unique_ptr<DeferredContext> dc;
  f.dev.create_deferred_context({}, &dc);
  Mapped m;
  CHECK(dc->map(f.vb, MapType::WRITE_NO_OVERWRITE, 0, &m) == Result::INVALID_CALL);
  CHECK(dc->map(f.vb, MapType::READ, 0, &m) == Result::INVALID_CALL);
  CHECK(dc->map(f.vb, MapType::WRITE, 0, &m) == Result::INVALID_CALL);
  REQUIRE(dc->map(f.vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  auto t = tri(16, 0, 32, 0, 32, 16);
  std::memcpy(m.data, t.data(), 24);
  dc->unmap(f.vb);
  dc->set_render_target(f.rt);
  dc->set_pretransformed_vertex_buffer(f.vb);
  dc->set_color(rgba(0, 0, 255));
  dc->draw_pretransformed(3, 0);
  Mapped m2;
  REQUIRE(dc->map(f.vb, MapType::WRITE_NO_OVERWRITE, 0, &m2) == Result::OK);
  CHECK(m2.data == m.data);
  auto t2 = tri(0, 0, 8, 0, 0, 8);
  std::memcpy(m2.data + 24, t2.data(), 24);
  dc->unmap(f.vb);
  dc->draw_pretransformed(3, 3);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  f.ctx.execute_command_list(list, false);
  const auto px = f.pixels();
  CHECK(px[2 * 32 + 29] == rgba(0, 0, 255));
  CHECK(px[1 * 32 + 1] == rgba(0, 0, 255));
  CHECK(px[12 * 32 + 2] == 0);  // the resource's own data (left half) was not drawn
  list->release();
}

// D3D11: after ExecuteCommandList the resources a list discarded hold the list's data. The list
// keeps its storage for later executions, so the resource shares it until either moves on.
TEST_CASE("after executing a list with a deferred DISCARD the resource holds the list's data (golden)",
          "[runtime][deferred][golden]") {
  const bool use_call = GENERATE(true, false);
  DeviceDesc dd;
  dd.use_call = use_call;
  GoldenFixture f(wide_target(tri(0, 0, 16, 0, 0, 16)).with_device(dd));  // the resource's own data: left half
  const uint64_t heap_free = f.dev.heap_bytes_free();
  const uint32_t own_addr = f.vb->gpu_address();
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(f.dev.create_deferred_context({}, &dc) == Result::OK);
  Mapped m;
  REQUIRE(dc->map(f.vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  const auto right = tri(16, 0, 32, 0, 32, 16);
  std::memcpy(m.data, right.data(), 24);
  REQUIRE(dc->unmap(f.vb) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  CHECK(f.vb->gpu_address() == own_addr);  // recording changes nothing the immediate context sees

  REQUIRE(f.ctx.execute_command_list(list, true) == Result::OK);
  const uint32_t list_addr = f.vb->gpu_address();
  CHECK(list_addr != own_addr);
  CHECK(f.dev.stats().list_renames == 1);
  REQUIRE(f.draw(rgba(0, 255, 0)) == Result::OK);  // the immediate draw reads the list's data
  auto px = f.pixels();
  CHECK(px[2 * 32 + 29] == rgba(0, 255, 0));
  CHECK(px[2 * 32 + 2] == 0);

  // The GPU is idle now. An immediate DISCARD must still not reuse the list's storage (a later
  // execution needs its data), nor may a WRITE map change it.
  REQUIRE(f.ctx.map(f.vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  CHECK(f.vb->gpu_address() != list_addr);
  const auto bottom = tri(0, 8, 32, 8, 0, 16);
  std::memcpy(m.data, bottom.data(), 24);
  f.ctx.unmap(f.vb);
  REQUIRE(f.draw(rgba(255, 0, 0)) == Result::OK);
  px = f.pixels();
  CHECK(px[14 * 32 + 1] == rgba(255, 0, 0));
  CHECK(f.be.memory().read32(list_addr) == static_cast<uint32_t>(16 * PX));  // the list's data is intact

  // Executed again: the resource takes the list's storage again.
  REQUIRE(f.ctx.execute_command_list(list, true) == Result::OK);
  CHECK(f.vb->gpu_address() == list_addr);
  REQUIRE(f.ctx.map(f.vb, MapType::WRITE_NO_OVERWRITE, 0, &m) == Result::OK);  // copy on write
  CHECK(f.dev.stats().copy_on_write == 1);
  f.ctx.unmap(f.vb);
  CHECK(f.vb->gpu_address() != list_addr);
  REQUIRE(f.draw(rgba(0, 0, 255)) == Result::OK);
  px = f.pixels();
  CHECK(px[2 * 32 + 29] == rgba(0, 0, 255));
  CHECK(px[14 * 32 + 1] == rgba(255, 0, 0));
  CHECK(f.be.memory().read32(list_addr) == static_cast<uint32_t>(16 * PX));
  CHECK(list->executions() == 2);

  // Everything released and finished: every byte comes back (a double free would throw).
  const uint64_t vb_block = (f.vb->size() + Allocator::kGranule - 1) / Allocator::kGranule * Allocator::kGranule;
  list->release();
  dc.reset();
  f.ctx.clear_state();
  f.vb->release();
  f.vb = nullptr;
  REQUIRE(f.ctx.wait_idle() == Result::OK);
  REQUIRE(f.ctx.flush() == Result::OK);
  CHECK(f.dev.heap_bytes_free() == heap_free + vb_block);  // the vertex buffer's block too
}

TEST_CASE_METHOD(ManualFixture, "storage shared by a resource and a command list is freed only when both let go",
                 "[runtime][deferred][destroy]") {
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
  Mapped m;
  REQUIRE(dc->map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  REQUIRE(dc->unmap(vb) == Result::OK);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  const uint32_t own_addr = vb->gpu_address();
  REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);  // the old storage is in use up to this fence
  REQUIRE(ctx.execute_command_list(list, true) == Result::OK);
  const uint64_t exec_fence = ctx.open_fence();
  const uint32_t list_addr = vb->gpu_address();
  REQUIRE(list_addr != own_addr);
  CHECK(vb->last_gpu_read() == 0);  // the list does not read the resource (no draw in it)
  REQUIRE(ctx.flush() == Result::OK);
  REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);  // reads the shared storage: a later fence
  REQUIRE(ctx.flush() == Result::OK);
  const uint64_t draw_fence = dev.flushed_fence();
  list->release();  // the resource still uses the list's storage
  be.complete(exec_fence);
  ctx.flush();
  // The addresses two new buffers get (first fit: the lowest free blocks).
  auto alloc2 = [&] {
    Resource* r1 = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
    Resource* r2 = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
    const auto a = std::make_pair(r1->gpu_address(), r2->gpu_address());
    r1->release();
    r2->release();
    return a;
  };
  CHECK(alloc2().first == own_addr);   // the old storage retired at the execution's fence
  CHECK(alloc2().second != list_addr); // the shared storage: the resource still uses it
  ctx.clear_state();
  vb->release();                       // it retires at the resource's last draw
  vb = nullptr;
  ctx.flush();
  CHECK(alloc2().second != list_addr);
  be.complete(draw_fence);
  ctx.flush();
  CHECK(alloc2().second == list_addr);
}

TEST_CASE("small command lists are recycled", "[runtime][deferred]") {
  ManualFixture f;
  std::unique_ptr<DeferredContext> dc;
  f.dev.create_deferred_context({}, &dc);
  const auto created = f.dev.stats().lists_created;
  for (int i = 0; i < 5; ++i) {
    CommandList* l = nullptr;
    dc->set_color(static_cast<uint32_t>(i));
    REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
    l->release();  // never executed: retired at once, back in the pool
  }
  const auto st = f.dev.stats();
  CHECK(st.lists_recycled >= 4);
  CHECK(st.lists_created - created <= 1);
}

TEST_CASE_METHOD(ManualFixture, "injected out-of-memory surfaces at FinishCommandList", "[runtime][deferred][errors]") {
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  dc->set_render_target(rt);
  dc->set_pretransformed_vertex_buffer(vb);
  dev.inject_allocation_failures(1);
  Mapped m;
  CHECK(dc->map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);  // keeps recording
  REQUIRE(m.data != nullptr);
  std::memset(m.data, 0, m.size);
  CHECK(dc->unmap(vb) == Result::OK);
  CHECK(dc->draw_pretransformed(3, 0) == Result::OK);
  CHECK(dc->out_of_memory());
  CommandList* l = nullptr;
  CHECK(dc->finish_command_list(true, &l) == Result::OUT_OF_MEMORY);
  CHECK(l == nullptr);
  CHECK(dc->last_error().find("out of memory") != std::string::npos);
  // The context records again afterwards.
  CHECK(dc->draw_pretransformed(3, 0) == Result::OK);
  REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
  REQUIRE(l != nullptr);
  l->release();
  // Recording memory exhausted.
  std::unique_ptr<DeferredContext> small;
  DeferredContextDesc sd;
  sd.max_command_bytes = 128;
  dev.create_deferred_context(sd, &small);
  small->set_render_target(rt);
  small->set_pretransformed_vertex_buffer(vb);
  for (uint32_t i = 0; i < 20; ++i) {
    small->set_color(i);
    CHECK(small->draw_pretransformed(3, 0) == Result::OK);
  }
  CHECK(small->finish_command_list(false, &l) == Result::OUT_OF_MEMORY);
}

TEST_CASE_METHOD(ManualFixture, "DO_NOT_WAIT returns still drawing", "[runtime][map]") {
  ctx.draw_pretransformed(3, 0);
  Mapped m;
  CHECK(ctx.map(rt, MapType::READ, MAP_FLAG_DO_NOT_WAIT, &m) == Result::STILL_DRAWING);
  CHECK(m.data == nullptr);
  CHECK(be.kick_count() == 1);  // the draw was submitted so that it can finish
  CHECK(ctx.map(vb, MapType::WRITE, MAP_FLAG_DO_NOT_WAIT, &m) == Result::STILL_DRAWING);
  CHECK(dev.stats().waits == 0);
  CHECK(be.polls() == 0);
  CHECK(ctx.last_error().find("still uses") != std::string::npos);
  be.complete(dev.flushed_fence());
  CHECK(ctx.map(rt, MapType::READ, MAP_FLAG_DO_NOT_WAIT, &m) == Result::OK);
  ctx.unmap(rt);
}

TEST_CASE("a fence that stops advancing marks the device lost", "[runtime][errors]") {
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(50);
  ManualFixture f(manual_with(dd));
  f.ctx.draw_pretransformed(3, 0);
  Mapped m;
  CHECK(f.ctx.map(f.rt, MapType::READ, 0, &m) == Result::DEVICE_LOST);
  CHECK(f.dev.lost());
  CHECK(f.dev.last_error().find("device lost") != std::string::npos);
  CHECK(f.ctx.draw_pretransformed(3, 0) == Result::DEVICE_LOST);
  CHECK(f.ctx.flush() == Result::DEVICE_LOST);
  Resource* x = nullptr;
  CHECK(f.dev.create_buffer({16, BIND_VERTEX_BUFFER}, nullptr, &x) == Result::DEVICE_LOST);
}

TEST_CASE("invalid calls are rejected with a code and a message", "[runtime][errors]") {
  ManualFixture f(ManualFixture::defaults().unbound());
  Device& dev = f.dev;
  ImmediateContext& ctx = f.ctx;
  Resource* cb = nullptr;
  REQUIRE(dev.create_buffer({64, BIND_CONSTANT_BUFFER}, nullptr, &cb) == Result::OK);
  Resource* ib = nullptr;
  REQUIRE(dev.create_buffer({64, BIND_INDEX_BUFFER}, nullptr, &ib) == Result::OK);
  Resource* bad = nullptr;
  CHECK(dev.create_buffer({0, BIND_VERTEX_BUFFER}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.create_texture2d({0, 4, 0, BIND_RENDER_TARGET}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.create_texture2d({4, 4, 6, BIND_RENDER_TARGET}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("pitch") != std::string::npos);
  CHECK(ctx.set_pretransformed_vertex_buffer(f.rt) == Result::INVALID_ARG);
  CHECK(ctx.set_pretransformed_vertex_buffer(cb) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("BIND_VERTEX_BUFFER") != std::string::npos);
  CHECK(ctx.set_render_target(f.vb) == Result::INVALID_ARG);
  CHECK(ctx.set_pretransformed_vertex_buffer(f.vb, 2) == Result::INVALID_ARG);
  CHECK(ctx.draw_pretransformed(3, 0) == Result::INVALID_CALL);  // nothing bound
  ctx.set_render_target(f.rt);
  ctx.set_pretransformed_vertex_buffer(f.vb);
  CHECK(ctx.draw_pretransformed(3, 1) == Result::INVALID_ARG);   // past the end of the buffer
  CHECK(ctx.draw_indexed(3, 0, 0) == Result::INVALID_CALL);   // a front-end draw: no input layout
  CHECK(ctx.set_scissor(0, 0, 0x10000, 4) == Result::INVALID_ARG);
  CHECK(ctx.unmap(f.vb) == Result::INVALID_CALL);
  Mapped m;
  REQUIRE(ctx.map(cb, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.map(cb, MapType::WRITE, 0, &m) == Result::INVALID_CALL);  // already mapped
  ctx.unmap(cb);
  // A released resource is not alive any more.
  Resource* gone = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  gone->release();
  CHECK(ctx.set_pretransformed_vertex_buffer(gone) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("live") != std::string::npos);
  CHECK(ctx.execute_command_list(nullptr, false) == Result::INVALID_ARG);
  // A bound resource released by the application stays alive until unbound.
  f.vb->release();
  f.vb = nullptr;
  CHECK(ctx.draw_pretransformed(3, 0) == Result::OK);
  cb->release();
  ib->release();
}

TEST_CASE("asynchronous submission gives the same image as synchronous (golden)", "[runtime][async][golden]") {
  auto render = [](bool async) {
    std::vector<int32_t> v;
    for (int i = 0; i < 50; ++i) {
      auto t = tri((i * 7) % 28, (i * 5) % 28, (i * 7) % 28 + 5, (i * 5) % 28 + 1, (i * 7) % 28 + 1, (i * 5) % 28 + 5);
      v.insert(v.end(), t.begin(), t.end());
    }
    DeviceDesc dd;
    dd.async = async;
    dd.ring_size = 1024;
    dd.queue_depth = 2;
    GoldenFixture f(FixtureDesc().with_device(dd).target(32, 32).with_vertices(v));
    for (uint32_t i = 0; i < 200; ++i) {
      REQUIRE(f.draw(rgba(i, 255 - i, i * 3), 3, 3 * (i % 50)) == Result::OK);
      if (i % 7 == 0) REQUIRE(f.ctx.flush() == Result::OK);
    }
    return f.pixels();
  };
  const auto s = render(false);
  const auto a = render(true);
  REQUIRE(s.size() == 32 * 32);
  CHECK(s == a);
}
