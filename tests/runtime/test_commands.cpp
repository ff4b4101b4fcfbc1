// SPDX-License-Identifier: Apache-2.0
// The runtime's other commands: COPY (copy_region / copy_resource), user fences (signal, wait,
// interrupt), markers, nested command lists, and the capture backend the regression scenes use.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>

#include "rt_test_util.h"
#include "runtime.h"
#include "top/pineda_top.h"

using namespace pineda;
using namespace pineda::rt;
using namespace pineda::rt::test;

namespace {
bool contains(const std::vector<uint32_t>& d, const std::vector<uint32_t>& seq) {
  return std::search(d.begin(), d.end(), seq.begin(), seq.end()) != d.end();
}
uint32_t header(uint32_t op, uint32_t arg, uint32_t len) { return CommandWriter::header(op, arg, len); }
}  // namespace

TEST_CASE("copy_region copies what earlier draws wrote, at any alignment (golden)", "[runtime][copy][golden]") {
  GoldenFixture f(wide_target(tri(0, 0, 32, 0, 0, 16)));
  Resource* dst = nullptr;
  REQUIRE(f.dev.create_buffer({1000, 0}, nullptr, &dst) == Result::OK);
  REQUIRE(f.draw(rgba(10, 20, 30)) == Result::OK);
  // Row 2 and 3 bytes more, from the target to offset 5 of the buffer.
  REQUIRE(f.ctx.copy_region(dst, 5, f.rt, 2 * 32 * 4, 32 * 4 + 3) == Result::OK);
  CHECK(dst->last_gpu_write() == f.ctx.open_fence());
  CHECK(f.rt->last_gpu_read() == f.ctx.open_fence());
  Mapped m;
  REQUIRE(f.ctx.map(dst, MapType::READ, 0, &m) == Result::OK);  // waits for the copy
  uint32_t px = 0;
  std::memcpy(&px, m.data + 5, 4);
  CHECK(px == rgba(10, 20, 30));              // (0, 2) was drawn before the copy
  std::memcpy(&px, m.data + 5 + 31 * 4, 4);
  CHECK(px == 0);                             // (31, 2) is outside the triangle
  CHECK(m.data[4] == 0);
  CHECK(m.data[5 + 32 * 4] == 10);            // the first 3 bytes of row 3: (0, 3) is drawn
  CHECK(m.data[5 + 32 * 4 + 2] == 30);
  CHECK(m.data[5 + 32 * 4 + 3] == 0);         // one byte past the range
  f.ctx.unmap(dst);
  // copy_resource: the whole target.
  Resource* copy = make_rt(f.dev, 32, 16, 0xFFFFFFFFu);
  REQUIRE(f.ctx.copy_resource(copy, f.rt) == Result::OK);
  CHECK(read_rt(f.ctx, copy) == f.pixels());
  copy->release();
  dst->release();
}

TEST_CASE_METHOD(ManualFixture, "copies are checked and encoded as COPY", "[runtime][copy]") {
  Resource* buf = nullptr;
  REQUIRE(dev.create_buffer({64, 0}, nullptr, &buf) == Result::OK);
  CHECK(ctx.copy_region(buf, 60, vb, 0, 8) == Result::INVALID_ARG);     // past the end of buf
  CHECK(ctx.copy_region(buf, 0, buf, 4, 8) == Result::INVALID_ARG);     // overlapping
  CHECK(ctx.copy_region(nullptr, 0, buf, 4, 8) == Result::INVALID_ARG);
  CHECK(ctx.copy_resource(buf, vb) == Result::INVALID_ARG);              // sizes differ
  CHECK(ctx.last_error().find("size") != std::string::npos);
  Mapped m;
  REQUIRE(ctx.map(buf, MapType::WRITE, 0, &m) == Result::OK);
  CHECK(ctx.copy_region(buf, 0, vb, 0, 8) == Result::INVALID_CALL);     // mapped
  ctx.unmap(buf);
  REQUIRE(ctx.copy_region(buf, 32, buf, 1, 31) == Result::OK);          // same resource, disjoint
  REQUIRE(ctx.copy_region(buf, 3, vb, 0, 24) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const auto d = submitted_dwords(be);
  CHECK(contains(d, {header(OP_COPY, 0, 3), buf->gpu_address() + 1, buf->gpu_address() + 32, 31}));
  CHECK(contains(d, {header(OP_COPY, 0, 3), vb->gpu_address(), buf->gpu_address() + 3, 24}));
  buf->release();
}

TEST_CASE("a GPU wait on a user fence holds later work until the CPU signals it (golden)", "[runtime][fence][golden]") {
  GoldenFixture f(wide_target(tri(0, 0, 32, 0, 0, 16)));
  Fence* gate = nullptr;
  Fence* done = nullptr;
  Fence* seen = nullptr;
  REQUIRE(f.dev.create_fence({3, false}, &gate) == Result::OK);
  FenceDesc irq;
  irq.interrupt = true;
  REQUIRE(f.dev.create_fence(irq, &done) == Result::OK);
  REQUIRE(f.dev.create_fence({}, &seen) == Result::OK);
  CHECK(gate->register_index() != f.dev.desc().fence_index);
  CHECK(gate->completed_value() == 3);
  REQUIRE(f.ctx.signal(seen, 1, SignalStage::TOP_OF_PIPE) == Result::OK);
  REQUIRE(f.ctx.wait(gate, 5) == Result::OK);
  REQUIRE(f.draw(rgba(1, 2, 3)) == Result::OK);
  REQUIRE(f.ctx.signal(done, 7) == Result::OK);
  REQUIRE(f.ctx.flush() == Result::OK);
  model::PinedaTop& gpu = f.be.gpu();
  CHECK(gpu.run() == model::RunResult::WAITING);
  CHECK(seen->completed_value() == 1);        // top of pipe: before the wait
  CHECK(done->completed_value() == 0);
  REQUIRE(gate->signal(4) == Result::OK);     // not enough
  CHECK(gpu.run() == model::RunResult::WAITING);
  REQUIRE(gate->signal(6) == Result::OK);
  CHECK(gpu.run() == model::RunResult::RING_EMPTY);
  CHECK(done->completed_value() == 7);
  CHECK(gpu.reg_read(REG_FENCE0 + done->register_index()) == 7u);
  CHECK(gpu.reg_read(REG_INT_PAYLOAD) == done->register_index());
  CHECK((gpu.reg_read(REG_IRQ_STATUS) >> IRQ_INTERRUPT & 1u) == 1u);
  CHECK(f.pixels()[2 * 32 + 1] == rgba(1, 2, 3));
  for (Fence* x : {gate, done, seen}) x->release();
}

TEST_CASE_METHOD(ManualFixture, "fence registers run out and come back only after their last use", "[runtime][fence]") {
  std::vector<Fence*> fences;
  for (uint32_t i = 0; i + 1 < NUM_FENCES; ++i) {
    Fence* x = nullptr;
    REQUIRE(dev.create_fence({}, &x) == Result::OK);
    CHECK(x->register_index() != dev.desc().fence_index);
    fences.push_back(x);
  }
  Fence* more = nullptr;
  CHECK(dev.create_fence({}, &more) == Result::OUT_OF_MEMORY);
  CHECK(dev.last_error().find("FENCE") != std::string::npos);
  // The first fence is signalled by a submission that has not finished: its register stays taken.
  REQUIRE(ctx.signal(fences[0], 1) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const uint32_t reg = fences[0]->register_index();
  fences[0]->release();
  CHECK(dev.create_fence({}, &more) == Result::OUT_OF_MEMORY);
  be.complete(dev.flushed_fence());
  REQUIRE(dev.create_fence({9, false}, &more) == Result::OK);
  CHECK(more->register_index() == reg);
  CHECK(be.read_reg(REG_FENCE0 + reg) == 9u);  // the initial value, written by the host
  fences[0] = more;
  for (Fence* x : fences) x->release();
}

TEST_CASE_METHOD(ManualFixture, "signal, wait and marker encodings", "[runtime][fence]") {
  Fence* x = nullptr;
  FenceDesc d;
  d.interrupt = true;
  d.initial_value = 0xFFFFFFF0u;
  REQUIRE(dev.create_fence(d, &x) == Result::OK);
  const uint32_t r = x->register_index();
  REQUIRE(ctx.set_marker("hello") == Result::OK);
  REQUIRE(ctx.signal(x, 0x100000002ull) == Result::OK);
  REQUIRE(ctx.signal(x, 3, SignalStage::TOP_OF_PIPE) == Result::OK);
  REQUIRE(ctx.wait(x, 0x100000004ull) == Result::OK);
  REQUIRE(ctx.flush() == Result::OK);
  const auto s = submitted_dwords(be);
  CHECK(contains(s, {header(OP_NOP, 0, 2), 0x6C6C6568u, 0x0000006Fu}));  // "hell", "o\0"
  CHECK(contains(s, {header(OP_WRITE_REG, r | (1u << WRITE_REG_EOP_BIT), 1), 2u, header(OP_INTERRUPT, 0, 1), r}));
  CHECK(contains(s, {header(OP_WRITE_REG, r, 1), 3u, header(OP_INTERRUPT, 0, 1), r}));
  CHECK(contains(s, {header(OP_WAIT_REG, r | (1u << WAIT_REG_GEQUAL_BIT), 1), 4u}));
  // 64-bit values across the 32-bit wrap: the register holds the low half.
  REQUIRE(x->signal(0x100000001ull) == Result::OK);
  CHECK(x->completed_value() == 0x100000001ull);
  CHECK(ctx.signal(nullptr, 1) == Result::INVALID_ARG);
  CHECK(ctx.set_marker(std::string(5 * 4096, 'x')) == Result::INVALID_ARG);
  be.complete(dev.flushed_fence());
  x->release();
}

namespace {
// Records a list on a new deferred context with `body`.
CommandList* record(GoldenFixture& f, const std::function<void(DeferredContext&)>& body) {
  std::unique_ptr<DeferredContext> dc;
  REQUIRE(f.dev.create_deferred_context({}, &dc) == Result::OK);
  REQUIRE(dc->set_render_target(f.rt) == Result::OK);
  REQUIRE(dc->set_pretransformed_vertex_buffer(f.vb) == Result::OK);
  body(*dc);
  CommandList* l = nullptr;
  REQUIRE(dc->finish_command_list(false, &l) == Result::OK);
  return l;
}
}  // namespace

TEST_CASE("nested command lists: CALL in a list, a tail JUMP, and too deep ones copied in (golden)",
          "[runtime][deferred][golden]") {
  auto render = [](bool use_call) {
    DeviceDesc dd;
    dd.use_call = use_call;
    // Four triangles side by side: lists k draws triangle k.
    std::vector<int32_t> v;
    for (int k = 0; k < 6; ++k) {
      auto t = tri(5 * k, 0, 5 * k + 5, 0, 5 * k, 10);
      v.insert(v.end(), t.begin(), t.end());
    }
    GoldenFixture f(wide_target(v).with_device(dd));
    auto leaf = [&](uint32_t k) {
      return record(f, [k](DeferredContext& dc) {
        dc.set_color(rgba(40 * k, 0, 255));
        REQUIRE(dc.draw_pretransformed(3, 3 * k) == Result::OK);
      });
    };
    CommandList* l2 = leaf(0);
    CommandList* l3 = leaf(1);
    CommandList* l1 = record(f, [&](DeferredContext& dc) {
      REQUIRE(dc.execute_command_list(l2, true) == Result::OK);
      dc.set_color(rgba(0, 255, 0));
      REQUIRE(dc.draw_pretransformed(3, 6) == Result::OK);  // the restored state: this list's target and buffer
      REQUIRE(dc.execute_command_list(l3, true) == Result::OK);
    });
    if (use_call) {
      CHECK(l1->call_depth() == 2);
      const auto& d = l1->dwords();
      REQUIRE(d.size() >= 3);
      CHECK(d[d.size() - 3] == header(OP_JUMP, 0, 2));  // ends with a tail call
      CHECK(contains(d, {header(OP_CALL, 0, 2)}));
    } else {
      CHECK(l1->call_depth() == 1);  // copied in
    }
    // A chain deeper than the return stack: the innermost levels are copied in.
    CommandList* chain = leaf(3);
    for (uint32_t k = 0; k < 5; ++k) {
      CommandList* inner = chain;
      chain = record(f, [&](DeferredContext& dc) {
        REQUIRE(dc.execute_command_list(inner, false) == Result::OK);
        dc.set_render_target(f.rt);
        dc.set_pretransformed_vertex_buffer(f.vb);
        dc.set_color(rgba(9, 9, 9 * k));
        REQUIRE(dc.draw_pretransformed(k == 4 ? 3 : 0, 12) == Result::OK);
      });
      inner->release();  // the outer list holds it
    }
    CHECK(chain->call_depth() <= RET_STACK_DEPTH);
    REQUIRE(f.ctx.execute_command_list(l1, false) == Result::OK);
    REQUIRE(f.ctx.execute_command_list(chain, false) == Result::OK);
    REQUIRE(f.ctx.set_render_target(f.rt) == Result::OK);
    auto px = f.pixels();
    CHECK(f.be.gpu().reg_read(REG_ERROR_CAUSE) == ERR_NONE);
    CHECK_FALSE(f.dev.lost());
    for (CommandList* l : {l1, l2, l3, chain}) l->release();
    return px;
  };
  const auto called = render(true);
  const auto copied = render(false);
  CHECK(called == copied);
  CHECK(called[1 * 32 + 1] == rgba(0, 0, 255));    // l2
  CHECK(called[1 * 32 + 6] == rgba(40, 0, 255));   // l3
  CHECK(called[1 * 32 + 11] == rgba(0, 255, 0));   // l1's own draw
  CHECK(called[1 * 32 + 16] == rgba(120, 0, 255)); // the chain's innermost list
  CHECK(called[1 * 32 + 21] == rgba(9, 9, 36));    // the chain's outermost draw
}

TEST_CASE("a DISCARD in a nested list reaches the immediate context through the outer list (golden)",
          "[runtime][deferred][golden]") {
  GoldenFixture f(wide_target(tri(0, 0, 16, 0, 0, 16)));
  CommandList* inner = record(f, [&](DeferredContext& dc) {
    Mapped m;
    REQUIRE(dc.map(f.vb, MapType::WRITE_DISCARD, 0, &m) == Result::OK);
    const auto right = tri(16, 0, 32, 0, 32, 16);
    std::memcpy(m.data, right.data(), 24);
    REQUIRE(dc.unmap(f.vb) == Result::OK);
  });
  CommandList* outer = record(f, [&](DeferredContext& dc) {
    REQUIRE(dc.execute_command_list(inner, true) == Result::OK);
    dc.set_color(rgba(0, 0, 255));
    REQUIRE(dc.draw_pretransformed(3, 0) == Result::OK);  // after the inner list: its data
  });
  inner->release();
  REQUIRE(f.ctx.execute_command_list(outer, true) == Result::OK);
  REQUIRE(f.draw(rgba(0, 255, 0), 3, 0) == Result::OK);
  const auto px = f.pixels();
  CHECK(px[2 * 32 + 29] == rgba(0, 255, 0));
  CHECK(px[2 * 32 + 2] == 0);
  outer->release();
}

TEST_CASE("the capture backend records a stream that replays to the golden backend's image", "[runtime][capture]") {
  // Two submissions; returns the target's address.
  auto draw_two = [](Device& dev) {
    auto& ctx = dev.immediate();
    Resource* rt = make_rt(dev, 32, 16, rgba(1, 1, 1));
    Resource* vb = make_vb(dev, concat({tri(0, 0, 32, 0, 0, 16), tri(32, 0, 32, 16, 0, 16)}));
    ctx.set_render_target(rt);
    ctx.set_pretransformed_vertex_buffer(vb);
    ctx.set_color(rgba(200, 0, 0));
    ctx.draw_pretransformed(3, 0);
    ctx.flush();
    ctx.set_color(rgba(0, 200, 0));
    ctx.draw_pretransformed(3, 3);
    ctx.flush();
    const uint32_t addr = rt->gpu_address();
    ctx.clear_state();
    rt->release();
    vb->release();
    return addr;
  };
  GoldenBackend golden;
  uint32_t rt_addr = 0;
  {
    Device dev(golden);
    rt_addr = draw_two(dev);
  }  // waits: the model runs

  CaptureBackend cap;
  Memory image;
  std::vector<std::pair<uint32_t, uint32_t>> writes;
  uint64_t fence = 0;
  {
    Device dev(cap);
    CHECK(dev.hardware_call());
    CHECK(draw_two(dev) == rt_addr);
    CHECK(cap.kicks() == 2);
    CHECK(cap.waits() == 0);
    cap.append_end();
    image = cap.memory();
    writes = cap.reg_writes();
    fence = dev.flushed_fence();
    cap.release();
  }
  REQUIRE(writes.size() >= 7);
  CHECK(writes[4] == std::make_pair(uint32_t{REG_CONTROL}, 1u));
  CHECK(writes.back().first == uint32_t{REG_RING_WPTR});
  model::PinedaTop gpu(image);
  for (const auto& [i, v] : writes) gpu.reg_write(i, v);
  CHECK(gpu.run() == model::RunResult::HALTED);
  CHECK(gpu.reg_read(REG_FENCE0 + 15) == fence);
  for (uint32_t off = 0; off < 32 * 16 * 4; off += 4) {
    if (image.read32(rt_addr + off) != golden.memory().read32(rt_addr + off)) FAIL("pixel " << off / 4 << " differs");
  }
  CHECK(image.read32(rt_addr + 4) == rgba(200, 0, 0));
}

TEST_CASE("a wait on the capture backend loses the device instead of hanging", "[runtime][capture]") {
  CaptureBackend cap;
  DeviceDesc dd;
  dd.timeout = std::chrono::milliseconds(20);
  Device dev(cap, dd);
  Resource* rt = make_rt(dev, 8, 8);
  Resource* vb = make_vb(dev, tri(0, 0, 8, 0, 0, 8));
  auto& ctx = dev.immediate();
  ctx.set_render_target(rt);
  ctx.set_pretransformed_vertex_buffer(vb);
  ctx.draw_pretransformed(3, 0);
  Mapped m;
  CHECK(ctx.map(rt, MapType::READ, 0, &m) == Result::DEVICE_LOST);
  CHECK(cap.waits() > 0);
  ctx.clear_state();
  rt->release();
  vb->release();
}
