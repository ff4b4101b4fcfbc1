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
DeviceDesc manual_desc() {
  DeviceDesc d;
  d.timeout = std::chrono::milliseconds(2000);
  return d;
}
}  // namespace

TEST_CASE("WRITE map of an idle resource does not flush or wait", "[runtime][map]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* busy = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  Resource* idle = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  REQUIRE(ctx.set_render_target(rt) == Result::OK);
  REQUIRE(ctx.set_vertex_buffer(busy) == Result::OK);
  REQUIRE(ctx.draw(3, 0) == Result::OK);  // open, not flushed
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
  be.complete(dev.flushed_fence() + 1);
  ctx.clear_state();
  rt->release();
  busy->release();
  idle->release();
}

TEST_CASE("NO_OVERWRITE while the GPU is stalled returns at once with the same pointer", "[runtime][map]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, std::vector<int32_t>(60, 0));
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  Mapped m1, m2;
  REQUIRE(ctx.map(vb, MapType::WRITE_DISCARD, 0, &m1) == Result::OK);
  auto t = tri(0, 0, 8, 0, 0, 8);
  std::memcpy(m1.data, t.data(), 24);
  ctx.unmap(vb);
  ctx.draw(3, 0);
  REQUIRE(ctx.flush() == Result::OK);
  REQUIRE(dev.completed_fence() < dev.flushed_fence());  // the GPU has not finished (stalled)
  const uint32_t addr = vb->gpu_address();
  REQUIRE(ctx.map(vb, MapType::WRITE_NO_OVERWRITE, 0, &m2) == Result::OK);
  CHECK(m2.data == m1.data);
  CHECK(vb->gpu_address() == addr);
  CHECK(dev.stats().waits == 0);
  CHECK(be.polls() == 0);
  // Appending after the data in use: only the changed bytes are written back.
  auto t2 = tri(8, 8, 16, 8, 8, 16);
  std::memcpy(m2.data + 24, t2.data(), 24);
  ctx.unmap(vb);
  CHECK(be.memory().read32(addr + 24) == static_cast<uint32_t>(8 * PX));
  CHECK(be.memory().read32(addr + 4 * 2) == static_cast<uint32_t>(8 * PX));
  ctx.draw(3, 3);
  be.complete(dev.flushed_fence() + 1);
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("DISCARD while busy returns new storage at once; the earlier draw sees the old data (golden)",
          "[runtime][map][golden]") {
  GoldenBackend be;
  Device dev(be);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 32, 16, 0);
  Resource* vb = make_vb(dev, tri(0, 0, 16, 0, 0, 16));  // left half
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  ctx.set_color(rgba(255, 0, 0));
  ctx.draw(3, 0);
  REQUIRE(ctx.flush() == Result::OK);
  const uint32_t old_addr = vb->gpu_address();
  const uint64_t busy_fence = vb->last_gpu_read();
  REQUIRE(dev.completed_fence() < busy_fence);  // the model runs only when the runtime waits
  Mapped m;
  REQUIRE(ctx.map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  CHECK(dev.stats().waits == 0);
  CHECK(dev.stats().renames == 1);
  CHECK(vb->gpu_address() != old_addr);
  CHECK(dev.completed_fence() < busy_fence);  // returned without the GPU finishing
  auto t = tri(16, 0, 32, 0, 32, 16);             // right half
  std::memcpy(m.data, t.data(), 24);
  ctx.unmap(vb);
  ctx.set_color(rgba(0, 255, 0));
  ctx.draw(3, 0);
  const auto px = read_rt(ctx, rt);
  REQUIRE(px.size() == 32 * 16);
  CHECK(px[2 * 32 + 2] == rgba(255, 0, 0));    // first draw: old data (left)
  CHECK(px[2 * 32 + 29] == rgba(0, 255, 0));   // second draw: new data (right)
  CHECK(px[14 * 32 + 2] == 0);                 // below the old triangle: untouched
  CHECK(be.memory().read32(old_addr + 8) == static_cast<uint32_t>(16 * PX));  // old storage kept its data
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("READ map after a draw blocks until exactly that draw's fence", "[runtime][map]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt1 = make_rt(dev, 16, 16);
  Resource* rt2 = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_vertex_buffer(vb);
  ctx.set_render_target(rt1);
  ctx.draw(3, 0);
  REQUIRE(ctx.flush() == Result::OK);
  const uint64_t f1 = dev.flushed_fence();
  ctx.set_render_target(rt2);
  ctx.draw(3, 0);
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
  REQUIRE(ctx.map(rt1, MapType::READ, 0, &m) == Result::OK);
  CHECK(seen == std::vector<uint64_t>{f1});
  CHECK(dev.stats().last_wait_fence == f1);
  ctx.unmap(rt1);
  // Two reads never wait.
  const auto waits = dev.stats().waits;
  REQUIRE(ctx.map(vb, MapType::READ, 0, &m) == Result::OK);  // vb is only read by the GPU
  ctx.unmap(vb);
  CHECK(dev.stats().waits == waits);
  be.on_poll = nullptr;
  be.complete(f2);
  ctx.clear_state();
  rt1->release();
  rt2->release();
  vb->release();
}

TEST_CASE("READ map flushes an unsubmitted draw and waits for its fence", "[runtime][map]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_vertex_buffer(vb);
  ctx.set_render_target(rt);
  ctx.draw(3, 0);
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
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("a destroyed resource's memory is not reused before its fence", "[runtime][destroy]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* a = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  const uint32_t addr_a = a->gpu_address();
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(a);
  ctx.draw(3, 0);
  ctx.set_vertex_buffer(nullptr);
  ctx.flush();
  const uint64_t f = dev.flushed_fence();
  a->release();  // last reference: retires at f
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
  ctx.clear_state();
  for (Resource* r : {rt, b, c, d}) r->release();
}

TEST_CASE("a full heap waits for a retiring resource's fence before reusing its memory", "[runtime][destroy]") {
  ManualBackend be;
  DeviceDesc dd = manual_desc();
  dd.ring_size = 4096;
  dd.heap_size = 4096 + 1024 + 1024;  // the ring, a 16x16 render target and one 1 KiB buffer
  Device dev(be, dd);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  REQUIRE(rt != nullptr);
  Resource* a = nullptr;
  REQUIRE(dev.create_buffer({1024, BIND_VERTEX_BUFFER}, nullptr, &a) == Result::OK);
  const uint32_t addr_a = a->gpu_address();
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(a);
  ctx.draw(3, 0);
  ctx.clear_state();
  ctx.flush();
  const uint64_t f = dev.flushed_fence();
  a->release();
  uint64_t completed_at_poll = 0;
  int polls = 0;
  be.on_poll = [&] {
    if (++polls == 2) {
      completed_at_poll = f;
      be.complete(f);
    }
  };
  Resource* b = nullptr;
  REQUIRE(dev.create_buffer({1024, BIND_VERTEX_BUFFER}, nullptr, &b) == Result::OK);
  CHECK(polls == 2);                       // it had to wait ...
  CHECK(completed_at_poll == f);           // ... for exactly the retiring resource's fence
  CHECK(dev.stats().last_wait_fence == f);
  CHECK(b->gpu_address() == addr_a);
  be.on_poll = nullptr;
  b->release();
  rt->release();
}

TEST_CASE("fence wrap-around from 0xFFFFFF80 over 256 submissions", "[runtime][fence]") {
  ManualBackend be;
  DeviceDesc dd = manual_desc();
  dd.initial_fence = 0xFFFFFF80u;
  Device dev(be, dd);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  CHECK(be.read_fence() == 0xFFFFFF80u);
  for (uint64_t i = 1; i <= 256; ++i) {
    ctx.set_color(static_cast<uint32_t>(i));
    ctx.draw(3, 0);
    REQUIRE(ctx.flush() == Result::OK);
    const uint64_t f = 0xFFFFFF80ull + i;
    REQUIRE(dev.flushed_fence() == f);
    REQUIRE(be.last_kicked_fence() == f);
    REQUIRE(rt->last_gpu_write() == f);
    REQUIRE(dev.completed_fence() == f - 1);  // not done yet, even across the wrap
    if (i % 2) {
      be.complete(f);
    } else {  // wait through a READ map: the hook completes the fence
      be.on_poll = [&be, f] { be.complete(f); };
      Mapped m;
      REQUIRE(ctx.map(rt, MapType::READ, 0, &m) == Result::OK);
      ctx.unmap(rt);
      be.on_poll = nullptr;
    }
    REQUIRE(dev.completed_fence() == f);
  }
  CHECK(dev.completed_fence() == 0x100000080ull);
  CHECK(be.read_fence() == 0x00000080u);
  // The fence value written by the last submission is the low half of the 64-bit fence.
  const auto k = be.kicks().back();
  REQUIRE(k.dwords.size() >= 2);
  CHECK(k.dwords[k.dwords.size() - 1] == 0x00000080u);
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("ring overrun waits on the oldest fence without corruption", "[runtime][ring]") {
  ManualBackend be;
  DeviceDesc dd = manual_desc();
  dd.ring_size = 256;
  Device dev(be, dd);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  std::vector<uint64_t> waited_on;
  size_t checked = 0;
  be.on_poll = [&] {
    checked += be.verify_outstanding();  // throws on corruption
    // Complete exactly the oldest outstanding submission.
    for (const auto& k : be.kicks()) {
      if (static_cast<int32_t>(be.read_fence() - static_cast<uint32_t>(k.fence)) < 0) {
        waited_on.push_back(k.fence);
        be.complete(k.fence);
        break;
      }
    }
  };
  for (uint32_t i = 0; i < 60; ++i) {
    ctx.set_color(0x1000u + i);
    REQUIRE(ctx.draw(3, 0) == Result::OK);
    REQUIRE(ctx.flush() == Result::OK);
    REQUIRE_NOTHROW(be.verify_outstanding());
  }
  const DeviceStats st = dev.stats();
  CHECK(st.ring_waits > 0);
  CHECK(checked > 0);
  // Fences were completed strictly in order, one at a time, only as far as needed.
  for (size_t i = 0; i < waited_on.size(); ++i) CHECK(waited_on[i] == i + 1);
  CHECK(waited_on.size() < 60);
  // Every submission holds its own colour and fence.
  const auto kicks = be.kicks();
  REQUIRE(kicks.size() == 60);
  for (uint32_t i = 0; i < 60; ++i) {
    const auto& d = kicks[i].dwords;
    bool colour = false;
    for (size_t j = 0; j + 1 < d.size(); ++j) colour |= d[j] == 0x1000u + i;
    CHECK(colour);
    CHECK(d.back() == i + 1);
  }
  be.on_poll = nullptr;
  be.complete(60);
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("a tiny ring gives the same image as a large one (golden)", "[runtime][ring][golden]") {
  auto render = [](uint32_t ring) {
    GoldenBackend be;
    DeviceDesc dd;
    dd.ring_size = ring;
    Device dev(be, dd);
    auto& ctx = dev.immediate();
    Resource* rt = make_rt(dev, 32, 32, 0);
    std::vector<int32_t> v;
    for (int i = 0; i < 40; ++i) {
      auto t = tri(i % 30, (i * 3) % 28, i % 30 + 4, (i * 3) % 28, i % 30, (i * 3) % 28 + 4);
      v.insert(v.end(), t.begin(), t.end());
    }
    Resource* vb = make_vb(dev, v);
    ctx.set_render_target(rt);
    ctx.set_vertex_buffer(vb);
    for (uint32_t i = 0; i < 40; ++i) {
      ctx.set_color(rgba(i * 6, 255 - i * 6, i));
      ctx.draw(3, 3 * i);
      if (i % 3 == 0) ctx.flush();
    }
    auto px = read_rt(ctx, rt);
    const auto st = dev.stats();
    ctx.clear_state();
    rt->release();
    vb->release();
    return std::make_pair(px, st.ring_waits);
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
  GoldenBackend be;
  DeviceDesc dd;
  dd.use_call = use_call;
  Device dev(be, dd);
  CHECK(dev.hardware_call() == use_call);
  auto& ctx = dev.immediate();
  const uint32_t RED = rgba(255, 0, 0), BLUE = rgba(0, 0, 255);
  Resource* rt = make_rt(dev, 32, 16, 0);
  // L: left half, R: right half, M: a small triangle inside R.
  Resource* vb = make_vb(dev, concat({tri(0, 0, 16, 0, 0, 16), tri(16, 0, 32, 0, 32, 16), tri(24, 1, 30, 1, 30, 7)}));
  CommandList* list = nullptr;
  std::thread rec([&] {
    std::unique_ptr<DeferredContext> dc;
    REQUIRE(dev.create_deferred_context({}, &dc) == Result::OK);
    dc->set_render_target(rt);
    dc->set_vertex_buffer(vb);
    dc->set_color(BLUE);  // no scissor set: the list must not inherit the immediate's
    REQUIRE(dc->draw(3, 3) == Result::OK);
    REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  });
  rec.join();
  REQUIRE(list != nullptr);
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  ctx.set_color(RED);
  ctx.set_scissor(0, 0, 31, 16);
  ctx.draw(3, 0);                                            // L red
  REQUIRE(ctx.execute_command_list(list, true) == Result::OK);  // R blue
  REQUIRE(ctx.draw(3, 6) == Result::OK);                     // M with the restored state: red
  auto px = read_rt(ctx, rt);
  CHECK(px[2 * 32 + 2] == RED);
  CHECK(px[2 * 32 + 20] == BLUE);
  CHECK(px[12 * 32 + 31] == BLUE);   // beyond the immediate's scissor: the list's state is its own
  CHECK(px[2 * 32 + 29] == RED);
  ctx.set_scissor(0, 0, 4, 4);
  ctx.set_color(rgba(0, 255, 0));
  REQUIRE(ctx.execute_command_list(list, false) == Result::OK);  // again: M becomes blue
  CHECK(ctx.state().rt == nullptr);                                 // cleared, not restored
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);
  px = read_rt(ctx, rt);
  CHECK(px[2 * 32 + 29] == BLUE);
  CHECK(px[2 * 32 + 2] == RED);
  CHECK(list->executions() == 2);
  const auto st = dev.stats();
  CHECK(st.list_calls == (use_call ? 2u : 0u));
  CHECK(st.list_copies == (use_call ? 0u : 2u));
  list->release();
  rt->release();
  vb->release();
}

TEST_CASE("deferred DISCARD and NO_OVERWRITE write storage owned by the list (golden)", "[runtime][deferred][golden]") {
  GoldenBackend be;
  Device dev(be);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 32, 16, 0);
  Resource* vb = make_vb(dev, concat({tri(0, 0, 16, 0, 0, 16), tri(0, 0, 16, 0, 0, 16)}));
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  Mapped m;
  CHECK(dc->map(vb, MapType::WRITE_NO_OVERWRITE, 0, &m) == Result::INVALID_CALL);
  CHECK(dc->map(vb, MapType::READ, 0, &m) == Result::INVALID_CALL);
  CHECK(dc->map(vb, MapType::WRITE, 0, &m) == Result::INVALID_CALL);
  REQUIRE(dc->map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
  auto t = tri(16, 0, 32, 0, 32, 16);
  std::memcpy(m.data, t.data(), 24);
  dc->unmap(vb);
  dc->set_render_target(rt);
  dc->set_vertex_buffer(vb);
  dc->set_color(rgba(0, 0, 255));
  dc->draw(3, 0);
  Mapped m2;
  REQUIRE(dc->map(vb, MapType::WRITE_NO_OVERWRITE, 0, &m2) == Result::OK);
  CHECK(m2.data == m.data);
  auto t2 = tri(0, 0, 8, 0, 0, 8);
  std::memcpy(m2.data + 24, t2.data(), 24);
  dc->unmap(vb);
  dc->draw(3, 3);
  CommandList* list = nullptr;
  REQUIRE(dc->finish_command_list(false, &list) == Result::OK);
  ctx.execute_command_list(list, false);
  const auto px = read_rt(ctx, rt);
  CHECK(px[2 * 32 + 29] == rgba(0, 0, 255));
  CHECK(px[1 * 32 + 1] == rgba(0, 0, 255));
  CHECK(px[12 * 32 + 2] == 0);  // the resource's own data (left half) was not drawn
  list->release();
  dc.reset();
  rt->release();
  vb->release();
}

TEST_CASE("small command lists are recycled", "[runtime][deferred]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  const auto created = dev.stats().lists_created;
  for (int i = 0; i < 5; ++i) {
    CommandList* l = nullptr;
    dc->set_color(static_cast<uint32_t>(i));
    REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
    l->release();  // never executed: retired at once, back in the pool
  }
  const auto st = dev.stats();
  CHECK(st.lists_recycled >= 4);
  CHECK(st.lists_created - created <= 1);
}

TEST_CASE("injected out-of-memory surfaces at FinishCommandList", "[runtime][deferred][errors]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  std::unique_ptr<DeferredContext> dc;
  dev.create_deferred_context({}, &dc);
  dc->set_render_target(rt);
  dc->set_vertex_buffer(vb);
  dev.inject_allocation_failures(1);
  Mapped m;
  CHECK(dc->map(vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);  // keeps recording
  REQUIRE(m.data != nullptr);
  std::memset(m.data, 0, m.size);
  CHECK(dc->unmap(vb) == Result::OK);
  CHECK(dc->draw(3, 0) == Result::OK);
  CHECK(dc->out_of_memory());
  CommandList* l = nullptr;
  CHECK(dc->finish_command_list(true, &l) == Result::OUT_OF_MEMORY);
  CHECK(l == nullptr);
  CHECK(dc->last_error().find("out of memory") != std::string::npos);
  // The context records again afterwards.
  CHECK(dc->draw(3, 0) == Result::OK);
  REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
  REQUIRE(l != nullptr);
  l->release();
  // Recording memory exhausted.
  std::unique_ptr<DeferredContext> small;
  DeferredContextDesc sd;
  sd.max_command_bytes = 128;
  dev.create_deferred_context(sd, &small);
  small->set_render_target(rt);
  small->set_vertex_buffer(vb);
  for (uint32_t i = 0; i < 20; ++i) {
    small->set_color(i);
    CHECK(small->draw(3, 0) == Result::OK);
  }
  CHECK(small->finish_command_list(false, &l) == Result::OUT_OF_MEMORY);
  small.reset();
  dc.reset();
  rt->release();
  vb->release();
}

TEST_CASE("DO_NOT_WAIT returns still drawing", "[runtime][map]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  ctx.draw(3, 0);
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
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("a fence that stops advancing marks the device lost", "[runtime][errors]") {
  ManualBackend be;
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(50);
  Device dev(be, dd);
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  ctx.draw(3, 0);
  Mapped m;
  CHECK(ctx.map(rt, MapType::READ, 0, &m) == Result::DEVICE_LOST);
  CHECK(dev.lost());
  CHECK(dev.last_error().find("device lost") != std::string::npos);
  CHECK(ctx.draw(3, 0) == Result::DEVICE_LOST);
  CHECK(ctx.flush() == Result::DEVICE_LOST);
  Resource* x = nullptr;
  CHECK(dev.create_buffer({16, BIND_VERTEX_BUFFER}, nullptr, &x) == Result::DEVICE_LOST);
  ctx.clear_state();
  rt->release();
  vb->release();
}

TEST_CASE("invalid calls are rejected with a code and a message", "[runtime][errors]") {
  ManualBackend be;
  Device dev(be, manual_desc());
  auto& ctx = dev.immediate();
  Resource* rt = make_rt(dev, 16, 16);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  Resource* cb = nullptr;
  REQUIRE(dev.create_buffer({64, BIND_CONSTANT_BUFFER}, nullptr, &cb) == Result::OK);
  Resource* ib = nullptr;
  REQUIRE(dev.create_buffer({64, BIND_INDEX_BUFFER}, nullptr, &ib) == Result::OK);
  Resource* bad = nullptr;
  CHECK(dev.create_buffer({0, BIND_VERTEX_BUFFER}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.create_texture2d({0, 4, 0, BIND_RENDER_TARGET}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.create_texture2d({4, 4, 6, BIND_RENDER_TARGET}, nullptr, &bad) == Result::INVALID_ARG);
  CHECK(dev.last_error().find("pitch") != std::string::npos);
  CHECK(ctx.set_vertex_buffer(rt) == Result::INVALID_ARG);
  CHECK(ctx.set_vertex_buffer(cb) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("BIND_VERTEX_BUFFER") != std::string::npos);
  CHECK(ctx.set_render_target(vb) == Result::INVALID_ARG);
  CHECK(ctx.set_vertex_buffer(vb, 2) == Result::INVALID_ARG);
  CHECK(ctx.draw(3, 0) == Result::INVALID_CALL);  // nothing bound
  ctx.set_render_target(rt);
  ctx.set_vertex_buffer(vb);
  CHECK(ctx.draw(3, 1) == Result::INVALID_ARG);   // past the end of the buffer
  CHECK(ctx.draw_indexed(3, 0, 0) == Result::NOT_SUPPORTED);
  CHECK(ctx.set_scissor(0, 0, 0x10000, 4) == Result::INVALID_ARG);
  CHECK(ctx.unmap(vb) == Result::INVALID_CALL);
  Mapped m;
  REQUIRE(ctx.map(cb, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.map(cb, MapType::WRITE, 0, &m) == Result::INVALID_CALL);  // already mapped
  ctx.unmap(cb);
  // A released resource is not alive any more.
  Resource* gone = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  gone->release();
  CHECK(ctx.set_vertex_buffer(gone) == Result::INVALID_ARG);
  CHECK(ctx.last_error().find("live") != std::string::npos);
  CHECK(ctx.execute_command_list(nullptr, false) == Result::INVALID_ARG);
  // A bound resource released by the application stays alive until unbound.
  vb->release();
  CHECK(ctx.draw(3, 0) == Result::OK);
  ctx.clear_state();
  be.complete(ctx.open_fence());
  ctx.flush();
  rt->release();
  cb->release();
  ib->release();
}

TEST_CASE("asynchronous submission gives the same image as synchronous (golden)", "[runtime][async][golden]") {
  auto render = [](bool async) {
    GoldenBackend be;
    DeviceDesc dd;
    dd.async = async;
    dd.ring_size = 1024;
    dd.queue_depth = 2;
    Device dev(be, dd);
    auto& ctx = dev.immediate();
    Resource* rt = make_rt(dev, 32, 32, 0);
    std::vector<int32_t> v;
    for (int i = 0; i < 50; ++i) {
      auto t = tri((i * 7) % 28, (i * 5) % 28, (i * 7) % 28 + 5, (i * 5) % 28 + 1, (i * 7) % 28 + 1, (i * 5) % 28 + 5);
      v.insert(v.end(), t.begin(), t.end());
    }
    Resource* vb = make_vb(dev, v);
    ctx.set_render_target(rt);
    ctx.set_vertex_buffer(vb);
    for (uint32_t i = 0; i < 200; ++i) {
      ctx.set_color(rgba(i, 255 - i, i * 3));
      REQUIRE(ctx.draw(3, 3 * (i % 50)) == Result::OK);
      if (i % 7 == 0) REQUIRE(ctx.flush() == Result::OK);
    }
    auto px = read_rt(ctx, rt);
    ctx.clear_state();
    rt->release();
    vb->release();
    return px;
  };
  const auto s = render(false);
  const auto a = render(true);
  REQUIRE(s.size() == 32 * 32);
  CHECK(s == a);
}
