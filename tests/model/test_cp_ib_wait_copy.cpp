// SPDX-License-Identifier: Apache-2.0
// The CP's control-flow and memory commands in the model: indirect buffers (CALL/JUMP/RET), waits
// (WAIT_REG, watchdog), COPY, CLEAR, INTERRUPT, CP reset, and a fuzz test
// of random and mutated command buffers through the whole model (many, fast): no hang, no memory
// written outside the bound targets (draw render targets, COPY destinations, CLEAR rows), and every injected
// invalid command reported with its cause and address.
#include <cstdlib>
#include <cstring>
#include <random>

#include "command_writer.h"
#include "cp/cp.h"
#include "test_util.h"
#include "top/pineda_top.h"

using namespace pineda;

namespace {

constexpr uint32_t kRing = 0x00100000u, kRingSize = 0x10000u;
constexpr uint32_t kIb = 0x00200000u, kVb = 0x00300000u, kRt = 0x00400000u;
constexpr uint32_t kSrc = 0x00500000u, kDst = 0x00600000u;
constexpr uint32_t kW = 64, kH = 48;

struct Fixture {
  Memory mem;
  std::array<uint32_t, 4> ib_len{};
  Fixture() {
    // Vertices: a few triangles inside and across the 64x48 target.
    const int32_t v[] = {0, 0, 64 * 256, 0, 0, 48 * 256, 10 * 256, 5 * 256, 60 * 256, 40 * 256,
                         5 * 256, 45 * 256, -100 * 256, 10 * 256, 200 * 256, 20 * 256, 30 * 256, 100 * 256};
    for (uint32_t i = 0; i < 18; ++i) mem.write32(kVb + 4 * i, static_cast<uint32_t>(v[i]));
    for (uint32_t i = 0; i < 256; ++i) mem.write8(kSrc + i, static_cast<uint8_t>(i * 7 + 1));
    for (uint32_t n = 0; n < 4; ++n) {
      CommandWriter b;
      b.set_state(ST_COLOR, 0x01010101u * (n + 1)).draw(n % 3, 3);
      if (n > 0) b.call(kIb + 0x1000 * (n - 1), ib_len[n - 1]);
      ib_len[n] = place_ib(mem, kIb + 0x1000 * n, b.dwords());
    }
  }
  void prologue(CommandWriter& w) const {
    w.set_state(ST_VB_BASE, kVb).set_state(ST_RT_BASE, kRt, kW * 4, (kH << 16) | kW);
  }
};

void random_commands(CommandWriter& w, const Fixture& f, std::mt19937_64& g, int n) {
  auto r = [&](uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(g() % (hi - lo + 1)); };
  for (int i = 0; i < n; ++i) {
    switch (r(0, 9)) {
      case 0: w.set_state(ST_COLOR, static_cast<uint32_t>(g())); break;
      case 1: w.set_state(ST_SCISSOR_X, (r(0, 80) << 16) | r(0, 80)); break;
      case 2: w.write_reg(r(0, 15), r(0, 3), r(0, 1) != 0); break;
      case 3: w.wait_reg(r(0, 15), 0, true); break;
      case 4: {
        const uint32_t k = r(0, 3);
        w.call(kIb + 0x1000 * k, f.ib_len[k]);
        break;
      }
      case 5:
        if (r(0, 2) == 0) {
          const uint32_t flags[] = {1, 2, 4, 6};
          w.clear(flags[r(0, 3)], kDst + 4 * r(0, 64), 4 * r(0, 80), r(0, 1) != 0, r(0, 40), r(0, 30), r(0, 40),
                  r(0, 30), static_cast<uint32_t>(g()));
          break;
        }
        w.copy(kSrc + r(0, 100), kDst + r(0, 100), r(0, 120));
        break;
      case 6: w.interrupt(static_cast<uint32_t>(g())); break;
      default: w.draw(r(0, 3), r(0, 9)); break;
    }
  }
}

struct Outcome {
  enum { HALTED, ERROR, LOOP, EMPTY, WAITING } result = EMPTY;
  bool ok_writes = true;
  std::string why;
  uint32_t error_cause = 0, error_addr = 0, rptr = 0, irq_status = 0;
  uint64_t skipped_draws = 0;
};

// Runs `cmds` on the model CP (draws through the model pipeline, copies through the model DMA);
// checks that every changed byte lies in a bound target. Draws with more than 300 vertices or a
// clip larger than 256x256 (mutations make those) are not executed, to keep the test fast.
Outcome run_checked(const Fixture& f, const std::vector<uint32_t>& cmds) {
  Memory mem = f.mem;
  model::CommandProcessor cp(mem);
  model::PinedaTop pipe(mem);
  pipe.set_trace_enabled(false);
  model::Dma dma;
  cp.reg_write(REG_WATCHDOG, 100);
  cp.reg_write(REG_VALID_LIMIT, 0x00FFFFFFu);
  for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, cmds)) cp.reg_write(i, v);
  const Memory before = mem;
  Outcome o;
  struct Range {
    uint64_t lo, hi;
  };
  std::vector<Range> bound;
  uint64_t steps = 0;
  while (steps < 100000) {
    while (cp.can_decode() && steps < 100000) {
      ++steps;
      if (auto d = cp.step()) {
        if (d->eop) {  // the pipeline runs each draw to completion: the token completes at once
          cp.eop_complete();
          continue;
        }
        const uint64_t w = d->clip.x1 > d->clip.x0 ? d->clip.x1 - d->clip.x0 : 0;
        const uint64_t h = d->clip.y1 > d->clip.y0 ? d->clip.y1 - d->clip.y0 : 0;
        if (d->vertex_count > 300 || w > 256 || h > 256) {
          ++o.skipped_draws;
          continue;
        }
        for (uint64_t y = d->clip.y0; y < d->clip.y1; ++y) {  // addresses wrap at 2^32
          // The memory port ignores addr[1:0]: a write lands on its dword.
          // 4x MSAA targets (RT_PITCH[16]) hold 16 bytes per pixel.
          const uint64_t bpp = d->target.msaa ? 16 : 4;
          const uint64_t lo = static_cast<uint32_t>(d->target.base + y * d->target.pitch + bpp * d->clip.x0) & ~3u;
          const uint64_t hi = lo + bpp * (d->clip.x1 - d->clip.x0);
          bound.push_back({lo, hi});
          if (hi > (uint64_t{1} << 32)) bound.push_back({0, hi - (uint64_t{1} << 32)});
        }
        if (std::getenv("CPV2_DEBUG")) {
          std::printf("draw base=%08x pitch=%u clip=%u..%u x %u..%u n=%u\n", static_cast<uint32_t>(d->target.base),
                      static_cast<uint32_t>(d->target.pitch), static_cast<uint32_t>(d->clip.x0),
                      static_cast<uint32_t>(d->clip.x1), static_cast<uint32_t>(d->clip.y0),
                      static_cast<uint32_t>(d->clip.y1), static_cast<uint32_t>(d->vertex_count));
        }
        pipe.process_draw(*d);
      }
      if (auto c = cp.take_copy()) {
        bound.push_back({c->dst, uint64_t{c->dst} + c->len});
        dma.copy(*c, mem);
      }
      if (auto c = cp.take_clear()) {  // rows [base + y*pitch + x0*bpp, + (x1 - x0)*bpp)
        const uint64_t bpp = c->target.msaa ? 16 : 4;
        if ((c->rect.y1 - c->rect.y0) * (c->rect.x1 - c->rect.x0) * bpp > (1u << 20)) continue;  // too slow
        for (uint64_t y = c->rect.y0; y < c->rect.y1; ++y) {
          const uint64_t lo = c->target.base + y * c->target.pitch + c->rect.x0 * bpp;
          bound.push_back({lo, lo + (c->rect.x1 - c->rect.x0) * bpp});
        }
        dma.fill(*c, mem);
      }
    }
    if (!cp.expire_wait()) break;
  }
  o.result = cp.error() ? Outcome::ERROR : cp.halted() ? Outcome::HALTED : steps >= 100000 ? Outcome::LOOP
           : cp.blocked_on_wait() ? Outcome::WAITING : Outcome::EMPTY;
  o.error_cause = cp.reg_read(REG_ERROR_CAUSE);
  o.error_addr = cp.reg_read(REG_ERROR_ADDR);
  o.rptr = cp.reg_read(REG_RING_RPTR);
  o.irq_status = cp.reg_read(REG_IRQ_STATUS);
  for (uint32_t page : mem.page_bases()) {
    const uint8_t* now = mem.page_data(page);
    const uint8_t* was = before.page_data(page);
    static const std::vector<uint8_t> zero(Memory::PAGE_SIZE, 0);
    if (!was) was = zero.data();
    if (std::memcmp(now, was, Memory::PAGE_SIZE) == 0) continue;
    for (uint32_t k = 0; k < Memory::PAGE_SIZE; ++k) {
      if (now[k] == was[k]) continue;
      const uint64_t a = uint64_t{page} + k;
      bool in = false;
      for (const auto& b : bound) in = in || (a >= b.lo && a < b.hi);
      if (!in) {
        o.ok_writes = false;
        o.why = "write outside the bound targets at " + bits::hex(static_cast<uint32_t>(a));
        return o;
      }
    }
  }
  return o;
}

}  // namespace

TEST_CASE("cp: CALL/JUMP/RET semantics and IB_DEPTH", "[cp][ib]") {
  Memory mem;
  model::CommandProcessor cp(mem);
  CommandWriter inner, outer, ring;
  inner.write_reg(1, 1, false).ret().write_reg(1, 99, false);
  place_ib(mem, kIb, inner.dwords());
  outer.call(kIb, inner.size_dwords()).write_reg(2, 2, false);  // ends by running out
  place_ib(mem, kIb + 0x100, outer.dwords());
  ring.call(kIb + 0x100, outer.size_dwords()).write_reg(3, 3, false).jump(kIb, 3).write_reg(4, 4, false).end();
  for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, ring.dwords())) cp.reg_write(i, v);
  uint32_t max_depth = 0;
  while (cp.can_decode()) {
    cp.step();
    max_depth = std::max(max_depth, cp.reg_read(REG_IB_DEPTH));
  }
  CHECK(cp.halted());
  CHECK(max_depth == 2u);
  CHECK(cp.reg_read(REG_FENCE0 + 1) == 1u);  // RET skipped the 99
  CHECK(cp.reg_read(REG_FENCE0 + 2) == 2u);
  CHECK(cp.reg_read(REG_FENCE0 + 3) == 3u);
  CHECK(cp.reg_read(REG_FENCE0 + 4) == 4u);  // the JUMPed-to IB (3 dwords) returned to the ring
  CHECK(cp.reg_read(REG_IB_DEPTH) == 0u);
}

TEST_CASE("cp: WAIT_REG compare modes, wrap-safe GEQUAL, watchdog, CP reset", "[cp][wait]") {
  Memory mem;
  model::CommandProcessor cp(mem);
  CommandWriter w;
  w.wait_reg(0, 0x00000010u, true).write_reg(1, 1, false).wait_reg(0, 5, false).write_reg(1, 2, false).end();
  cp.reg_write(REG_FENCE0, 0xFFFFFFF0u);  // unsigned larger, but 0x20 before 0x10 in wrap order
  for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, w.dwords())) cp.reg_write(i, v);
  while (cp.can_decode()) cp.step();
  CHECK(cp.blocked_on_wait());
  CHECK(((cp.reg_read(REG_STATUS) >> STATUS_WAITING) & 1u) == 1u);
  CHECK_FALSE(cp.expire_wait());  // WATCHDOG = 0: no timeout
  cp.reg_write(REG_FENCE0, 0x00000010u);
  while (cp.can_decode()) cp.step();
  CHECK(cp.reg_read(REG_FENCE0 + 1) == 1u);
  CHECK(cp.blocked_on_wait());  // EQUAL 5
  cp.reg_write(REG_WATCHDOG, 10);
  CHECK(cp.expire_wait());
  CHECK(cp.reg_read(REG_ERROR_CAUSE) == ERR_WAIT_TIMEOUT);
  CHECK(cp.reg_read(REG_ERROR_ADDR) == kRing + 16u);
  CHECK(cp.reg_read(REG_RING_RPTR) == 16u);  // back on the WAIT_REG header
  cp.reg_write(REG_CONTROL, (1u << CONTROL_ENABLE) | (1u << CONTROL_CP_RESET));
  CHECK_FALSE(cp.error());
  CHECK(cp.reg_read(REG_RING_RPTR) == cp.reg_read(REG_RING_WPTR));
  CHECK(cp.reg_read(REG_CONTROL) == 1u);
  CHECK(cp.reg_read(REG_ERROR_CAUSE) == ERR_WAIT_TIMEOUT);  // kept as a record
}

TEST_CASE("cp: COPY any alignment through the PinedaTop, then a draw reads the copy", "[cp][copy]") {
  Fixture f;
  for (uint32_t s_off = 0; s_off < 4; ++s_off) {
    for (uint32_t d_off = 0; d_off < 4; ++d_off) {
      Memory mem = f.mem;
      model::PinedaTop gpu(mem);
      CommandWriter w;
      w.copy(kSrc + s_off, kDst + d_off, 37 + s_off).end();
      for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, w.dwords())) gpu.reg_write(i, v);
      CHECK(gpu.run() == model::RunResult::HALTED);
      for (uint32_t i = 0; i < 37 + s_off; ++i) CHECK(mem.read8(kDst + d_off + i) == f.mem.read8(kSrc + s_off + i));
      CHECK(mem.read8(kDst + d_off + 37 + s_off) == 0);
      if (d_off) CHECK(mem.read8(kDst + d_off - 1) == 0);
    }
  }
  // Vertex buffer copied, then drawn from: same image as drawing from the original.
  Memory a = f.mem, b = f.mem;
  model::PinedaTop ga(a), gb(b);
  CommandWriter wa, wb;
  f.prologue(wa);
  f.prologue(wb);
  wa.draw(0, 9).end();
  wb.copy(kVb, kDst + 0x1000, 72).set_state(ST_VB_BASE, kDst + 0x1000).draw(0, 9).end();
  for (const auto& [i, v] : place_in_ring(a, kRing, kRingSize, wa.dwords())) ga.reg_write(i, v);
  for (const auto& [i, v] : place_in_ring(b, kRing, kRingSize, wb.dwords())) gb.reg_write(i, v);
  ga.run();
  gb.run();
  CHECK(ga.stats().pixels_written > 0);
  CHECK(ga.stats().pixels_written == gb.stats().pixels_written);
  for (uint32_t y = 0; y < kH; ++y) {
    for (uint32_t x = 0; x < kW; ++x) CHECK(a.read32(kRt + y * kW * 4 + x * 4) == b.read32(kRt + y * kW * 4 + x * 4));
  }
}

TEST_CASE("cp: CLEAR through the PinedaTop: after a draw, before a COPY, masks, clamping, errors", "[cp][clear]") {
  Fixture f;
  Memory mem = f.mem;
  model::PinedaTop gpu(mem);
  CommandWriter w;
  f.prologue(w);
  w.set_state(ST_COLOR, 0x11111111u).draw(0, 3);                          // covers (0, 0)
  w.clear(1u << CLEAR_COLOR_BIT, kRt, kW * 4, false, 2, 1, 7, 3, 0xCAFEF00Du);  // over part of it
  w.copy(kRt, kSrc + 0x1000, kW * 4 * 4);                                 // sees the clear
  // A depth-stencil buffer at kDst (16x8, 1x): both, then depth only, then stencil only.
  w.clear(6, kDst, 16 * 4, false, 0, 0, 16, 8, 0x44332211u);
  w.clear(2, kDst, 16 * 4, false, 4, 0, 16, 2, 0x00ABCDEFu);
  w.clear(4, kDst, 16 * 4, false, 0, 6, 3, 8, 0x99000000u);
  w.clear(4, kDst, 16 * 4, false, 5, 5, 5, 9, 0);  // empty
  // 4x MSAA: a pixel's four samples.
  w.clear(1, kDst + 0x10000, 8 * 16, true, 1, 1, 2, 2, 0x12345678u);
  w.end();
  for (const auto& [i, v] : place_in_ring(mem, kRing, kRingSize, w.dwords())) gpu.reg_write(i, v);
  REQUIRE(gpu.run() == model::RunResult::HALTED);
  CHECK(gpu.stats().clears == 5);  // the empty one is no clear
  CHECK(mem.read32(kRt) == 0x11111111u);                      // drawn, outside the clear
  CHECK(mem.read32(kRt + 1 * kW * 4 + 2 * 4) == 0xCAFEF00Du);
  CHECK(mem.read32(kRt + 2 * kW * 4 + 6 * 4) == 0xCAFEF00Du);
  CHECK(mem.read32(kRt + 2 * kW * 4 + 7 * 4) != 0xCAFEF00Du);  // x1 is exclusive
  CHECK(mem.read32(kRt + 3 * kW * 4 + 2 * 4) != 0xCAFEF00Du);  // y1 is exclusive
  CHECK(mem.read32(kSrc + 0x1000 + 1 * kW * 4 + 2 * 4) == 0xCAFEF00Du);  // the COPY saw it
  CHECK(mem.read32(kDst) == 0x44332211u);
  CHECK(mem.read32(kDst + 4 * 4) == 0x44ABCDEFu);              // depth only: stencil kept
  CHECK(mem.read32(kDst + 1 * 64 + 15 * 4) == 0x44ABCDEFu);
  CHECK(mem.read32(kDst + 2 * 64 + 4 * 4) == 0x44332211u);
  CHECK(mem.read32(kDst + 8 * 64) == 0);                       // past the buffer: untouched
  CHECK(mem.read32(kDst + 7 * 64 + 2 * 4) == 0x99332211u);     // stencil only: depth kept
  CHECK(mem.read32(kDst + 5 * 64 + 5 * 4) == 0x44332211u);
  for (uint32_t sm = 0; sm < 4; ++sm) CHECK(mem.read32(kDst + 0x10000 + 1 * 128 + 16 + 4 * sm) == 0x12345678u);
  CHECK(mem.read32(kDst + 0x10000 + 1 * 128 + 32) == 0);
  CHECK(mem.read32(kDst + 0x10000 + 1 * 128 + 12) == 0);
  // Errors: a bad arg at the header, a target outside the window at the header.
  for (const uint32_t arg : {0u, 3u, 5u, 7u, 9u}) {
    Memory m2 = f.mem;
    model::PinedaTop g2(m2);
    CommandWriter e;
    e.clear(arg, kDst, 64, false, 0, 0, 1, 1, 0).end();
    for (const auto& [i, v] : place_in_ring(m2, kRing, kRingSize, e.dwords())) g2.reg_write(i, v);
    CHECK(g2.run() == model::RunResult::ERROR);
    CHECK(g2.reg_read(REG_ERROR_CAUSE) == ERR_BAD_CLEAR);
    CHECK(g2.reg_read(REG_ERROR_ADDR) == kRing);
  }
  Memory m3 = f.mem;
  model::PinedaTop g3(m3);
  CommandWriter e;
  e.nop(0).clear(1, kDst, 64, false, 0, 0, 1, 2, 0x5).end();
  for (const auto& [i, v] : place_in_ring(m3, kRing, kRingSize, e.dwords())) g3.reg_write(i, v);
  g3.reg_write(REG_VALID_LIMIT, kDst + 64 + 2);  // the second row's sample ends at kDst + 67
  CHECK(g3.run() == model::RunResult::ERROR);
  CHECK(g3.reg_read(REG_ERROR_CAUSE) == ERR_BAD_ADDR);
  CHECK(g3.reg_read(REG_ERROR_ADDR) == kRing + 4);
  CHECK(g3.reg_read(REG_RING_RPTR) == 4);
  CHECK(m3.read32(kDst) == 0);  // nothing written
}

TEST_CASE("cp: fuzz: random and mutated command buffers through the model", "[cp][fuzz]") {
  Fixture f;
  std::mt19937_64 g(test::base_seed());
  int halted = 0, errors = 0, budget = 0, empty = 0;
  for (int k = 0; k < 5000; ++k) {
    CommandWriter w;
    f.prologue(w);
    random_commands(w, f, g, 30);
    w.end();
    std::vector<uint32_t> cmds = w.dwords();
    const int mutations = static_cast<int>(g() % 4);
    for (int m = 0; m < mutations; ++m) {
      uint32_t& d = cmds[g() % cmds.size()];
      switch (g() % 3) {
        case 0: d ^= 1u << (g() % 32); break;
        case 1: d = static_cast<uint32_t>(g()); break;
        default: d = (d & 0x00FFFFFFu) | (static_cast<uint32_t>(g() % 17) << 24); break;
      }
    }
    const Outcome o = run_checked(f, cmds);
    INFO("buffer #" << k << ": " << o.why);
    REQUIRE(o.ok_writes);
    switch (o.result) {
      case Outcome::HALTED: ++halted; break;
      case Outcome::ERROR: ++errors; break;
      case Outcome::LOOP: ++budget; break;  // a JUMP/CALL loop: legal, bounded here
      case Outcome::EMPTY: ++empty; break;
      default: FAIL("blocked on a wait despite the watchdog");
    }
    if (o.result == Outcome::ERROR) {
      CHECK(((o.irq_status >> IRQ_ERROR) & 1u) == 1u);
      CHECK(o.error_cause != ERR_NONE);
    }
  }
  std::printf("cp fuzz (mutated): %d halted, %d errors, %d loops (step budget), %d ran off the end\n",
              halted, errors, budget, empty);
  CHECK(halted > 500);
  CHECK(errors > 500);
}

TEST_CASE("cp: fuzz: one injected invalid command is reported with its cause and address", "[cp][fuzz]") {
  Fixture f;
  std::mt19937_64 g(test::base_seed() + 1);
  struct Bad {
    std::vector<uint32_t> dw;
    uint32_t cause;
  };
  const std::vector<Bad> bads = {
      {{CommandWriter::header(0x0D + static_cast<uint32_t>(g() % 2), 0, 0)}, ERR_BAD_OPCODE},
      {{CommandWriter::header(OP_DRAW, 0, 1), 0}, ERR_BAD_LEN},
      {{CommandWriter::header(OP_RET, 0, 0)}, ERR_STACK_UNDERFLOW},
      {{CommandWriter::header(OP_CALL, 0, 2), 0x01000000u, 4}, ERR_BAD_ADDR},  // above VALID_LIMIT
      {{CommandWriter::header(OP_JUMP, 0, 2), kIb + 1, 4}, ERR_BAD_ADDR},
      {{CommandWriter::header(OP_COPY, 0, 3), kSrc, kSrc + 8, 16}, ERR_BAD_ARG},
      {{CommandWriter::header(OP_COPY, 0, 3), 0x00FFFFF0u, kDst, 32}, ERR_BAD_ADDR},
      {{CommandWriter::header(OP_WAIT_REG, 0, 1), 12345}, ERR_WAIT_TIMEOUT},
      {{CommandWriter::header(OP_SET_STATE, FE_STATE_END - 2, 3), 0, 0, 0}, ERR_BAD_ARG},
      {{CommandWriter::header(OP_DRAW_FE, 0, 3), 0, 0, 0}, ERR_BAD_LEN},
  };
  for (int k = 0; k < 2000; ++k) {
    const Bad& bad = bads[g() % bads.size()];
    CommandWriter pre, post;
    f.prologue(pre);
    random_commands(pre, f, g, static_cast<int>(g() % 20));
    random_commands(post, f, g, 5);
    std::vector<uint32_t> cmds = pre.dwords();
    const uint32_t at = static_cast<uint32_t>(cmds.size()) * 4;
    cmds.insert(cmds.end(), bad.dw.begin(), bad.dw.end());
    cmds.insert(cmds.end(), post.dwords().begin(), post.dwords().end());
    cmds.push_back(CommandWriter::header(OP_END, 0, 0));
    const Outcome o = run_checked(f, cmds);
    INFO("buffer #" << k << " cause " << bad.cause << ": " << o.why);
    REQUIRE(o.ok_writes);
    REQUIRE(o.result == Outcome::ERROR);
    CHECK(o.error_cause == bad.cause);
    CHECK(o.error_addr == kRing + at);
    CHECK(o.rptr == at);
  }
}
