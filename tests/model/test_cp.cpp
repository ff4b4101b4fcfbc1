// SPDX-License-Identifier: Apache-2.0
// Command processor: registers, decoding of every opcode, clip, errors, IRQ, ring wrap.
#include "command_writer.h"
#include "cp/cp.h"
#include "test_util.h"

using namespace pineda;
using model::CommandProcessor;

namespace {

constexpr uint32_t RING = 0x00100000u;

// A CP over `mem` with `cmds` placed at the start of a 4 KiB ring and started.
struct Rig {
  Memory mem;
  CommandProcessor cp{mem};
  std::vector<DrawPkt> draws;
  uint32_t tokens = 0;  // end-of-pipe tokens, completed at once (an empty pipeline)
  void start(const CommandWriter& w, uint32_t ring_size = 4096, uint32_t offset = 0) {
    for (const auto& [i, v] : place_in_ring(mem, RING, ring_size, w.dwords(), offset)) cp.reg_write(i, v);
  }
  void run() {
    while (cp.can_decode()) {
      if (auto d = cp.step()) {
        if (d->eop) {
          ++tokens;
          cp.eop_complete();
        } else {
          draws.push_back(*d);
        }
      }
    }
  }
};

uint32_t status_bit(const CommandProcessor& cp, uint32_t bit) { return (cp.reg_read(REG_STATUS) >> bit) & 1u; }

}  // namespace

TEST_CASE("cp: reset values and register access", "[cp]") {
  Rig r;
  CHECK(r.cp.reg_read(REG_ID) == ID_VALUE);
  CHECK(r.cp.reg_read(REG_CONTROL) == 0u);
  CHECK(r.cp.reg_read(REG_STATUS) == (1u << STATUS_RING_EMPTY));
  CHECK(r.cp.state(ST_VB_BASE) == ST_VB_BASE_RESET);
  CHECK(r.cp.state(ST_COLOR) == ST_COLOR_RESET);
  CHECK(r.cp.state(ST_RT_BASE) == ST_RT_BASE_RESET);
  CHECK(r.cp.state(ST_RT_PITCH) == ST_RT_PITCH_RESET);
  CHECK(r.cp.state(ST_RT_SIZE) == ST_RT_SIZE_RESET);
  CHECK(r.cp.state(ST_SCISSOR_X) == 0xFFFF0000u);
  CHECK(r.cp.state(ST_SCISSOR_Y) == 0xFFFF0000u);
  for (uint32_t i = 7; i < NUM_STATE; ++i) CHECK(r.cp.state(i) == 0u);
  for (uint32_t f = 0; f < NUM_FENCES; ++f) CHECK(r.cp.reg_read(REG_FENCE0 + f) == 0u);

  r.cp.reg_write(REG_RING_BASE, 0x1234);
  r.cp.reg_write(REG_RING_SIZE, 0x100);
  r.cp.reg_write(REG_RING_WPTR, 0x40);
  r.cp.reg_write(REG_FENCE0 + 7, 0xDEAD);
  r.cp.reg_write(REG_ID, 1);         // RO: ignored
  r.cp.reg_write(REG_RING_RPTR, 8);  // RO: ignored
  r.cp.reg_write(REG_ERROR_CAUSE, 3);
  CHECK(r.cp.reg_read(REG_RING_BASE) == 0x1234u);
  CHECK(r.cp.reg_read(REG_RING_SIZE) == 0x100u);
  CHECK(r.cp.reg_read(REG_RING_WPTR) == 0x40u);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == 0u);
  CHECK(r.cp.reg_read(REG_FENCE0 + 7) == 0xDEADu);
  CHECK(r.cp.reg_read(REG_ID) == ID_VALUE);
  CHECK(r.cp.reg_read(REG_ERROR_CAUSE) == ERR_NONE);
  CHECK(status_bit(r.cp, STATUS_RING_EMPTY) == 0u);
  CHECK(status_bit(r.cp, STATUS_RUNNING) == 0u);
  r.cp.reg_write(REG_CONTROL, 0xFFFFFFFFu);
  CHECK(r.cp.reg_read(REG_CONTROL) == 5u);  // only ENABLE and NO_FAST_CLEAR are stored
  CHECK(status_bit(r.cp, STATUS_RUNNING) == 1u);
  for (uint32_t p = 0; p < NUM_PERF; ++p) CHECK(r.cp.reg_read(REG_PERF0 + p) == 0u);
  CHECK(r.cp.reg_read(0x0B) == 0u);
  CHECK(r.cp.reg_read(0xFF) == 0u);
  r.cp.reset();
  CHECK(r.cp.reg_read(REG_FENCE0 + 7) == 0u);
  CHECK(r.cp.reg_read(REG_RING_BASE) == 0u);
}

TEST_CASE("cp: NOP, SET_STATE, DRAW, WRITE_REG, END", "[cp]") {
  Rig r;
  CommandWriter w;
  w.nop(0).raw(CommandWriter::header(OP_NOP, 0xABC, 3)).raw(0xFFFFFFFFu).raw(0x0F000000u).raw(0x77000000u);  // payload skipped
  w.set_state(ST_VB_BASE, 0x01000000u, 0xFF0000FFu, 0x10000000u, 1024u, (200u << 16) | 300u);
  w.set_state(ST_SCISSOR_X, std::vector<uint32_t>{});  // len 0: nothing
  w.draw(6, 9);
  w.write_reg(2, 0x55, false);
  w.set_state(15, 0x99u);  // arg + len == NUM_STATE is fine
  w.draw(0xFFFFFFFFu, 0x80000001u);
  w.write_reg(9, 0x66, true);
  w.end();
  w.draw(1, 3);  // after END
  r.start(w);
  r.cp.reg_write(REG_IRQ_ENABLE, 0xFFFFFFFFu);
  CHECK(r.cp.reg_read(REG_IRQ_ENABLE) == 15u);  // IRQ_END, ERROR, INTERRUPT, TEX_FAULT
  r.run();
  REQUIRE(r.draws.size() == 2);
  const DrawPkt& d = r.draws[0];
  CHECK(d.vb_base == 0x01000000u);
  CHECK(d.first_vertex == 6u);
  CHECK(d.vertex_count == 9u);
  CHECK(d.color == 0xFF0000FFu);
  CHECK(d.target.base == 0x10000000u);
  CHECK(d.target.pitch == 1024u);
  CHECK(d.clip == test::rect(0, 0, 300, 200));  // reset scissor: the whole target
  CHECK(d.draw_id == 0u);
  CHECK(d == d.canonical());
  CHECK(r.draws[1].draw_id == 1u);
  CHECK(r.draws[1].first_vertex == 0xFFFFFFFFu);
  CHECK(r.draws[1].vertex_count == 0x80000001u);
  CHECK(r.cp.state(15) == 0x99u);

  CHECK(r.cp.halted());
  CHECK(status_bit(r.cp, STATUS_HALTED) == 1u);
  CHECK(status_bit(r.cp, STATUS_RUNNING) == 0u);
  CHECK(r.cp.reg_read(REG_IRQ_STATUS) == (1u << IRQ_END));
  CHECK(r.cp.irq());
  CHECK(r.cp.reg_read(REG_FENCE0 + 2) == 0x55u);
  CHECK(r.cp.reg_read(REG_FENCE0 + 9) == 0x66u);
  REQUIRE(r.cp.fence_writes().size() == 2);
  CHECK(r.cp.fence_writes()[0].index == 2u);
  CHECK_FALSE(r.cp.fence_writes()[0].eop);
  CHECK(r.cp.fence_writes()[1].index == 9u);
  CHECK(r.cp.fence_writes()[1].eop);
  // RPTR is just past END; the DRAW after it is still pending.
  const uint32_t end_off = static_cast<uint32_t>((w.dwords().size() - 3) * 4);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == end_off);

  // IRQ_STATUS is write-one-to-clear; irq is the masked level.
  r.cp.reg_write(REG_IRQ_STATUS, 0);
  CHECK(r.cp.irq());
  r.cp.reg_write(REG_IRQ_ENABLE, 1u << IRQ_ERROR);
  CHECK_FALSE(r.cp.irq());
  r.cp.reg_write(REG_IRQ_ENABLE, 1u << IRQ_END);
  CHECK(r.cp.irq());
  r.cp.reg_write(REG_IRQ_STATUS, 1u << IRQ_END);
  CHECK(r.cp.reg_read(REG_IRQ_STATUS) == 0u);
  CHECK_FALSE(r.cp.irq());

  // Writing CONTROL clears HALTED and the CP resumes after END.
  r.cp.reg_write(REG_CONTROL, 1);
  CHECK_FALSE(r.cp.halted());
  r.run();
  REQUIRE(r.draws.size() == 3);
  CHECK(r.draws[2].draw_id == 2u);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == w.size_bytes());
  CHECK(status_bit(r.cp, STATUS_RING_EMPTY) == 1u);
}

TEST_CASE("cp: ENABLE gates decoding", "[cp]") {
  Rig r;
  CommandWriter w;
  w.draw(0, 3);
  for (const auto& [i, v] : place_in_ring(r.mem, RING, 4096, w.dwords())) {
    if (i != REG_CONTROL) r.cp.reg_write(i, v);
  }
  CHECK_FALSE(r.cp.can_decode());
  r.run();
  CHECK(r.draws.empty());
  r.cp.reg_write(REG_CONTROL, 1);
  r.run();
  CHECK(r.draws.size() == 1);
}

TEST_CASE("cp: clip is the scissor intersected with the clamped target size", "[cp]") {
  std::array<uint32_t, NUM_STATE> st{};
  st[ST_SCISSOR_X] = ST_SCISSOR_X_RESET;
  st[ST_SCISSOR_Y] = ST_SCISSOR_Y_RESET;
  st[ST_RT_PITCH] = 0x12345678u;
  st[ST_RT_SIZE] = (259u << 16) | 261u;
  DrawPkt d = CommandProcessor::make_draw(st, 0, 0, 0x12345);
  CHECK(d.clip == test::rect(0, 0, 261, 259));
  CHECK(d.target.pitch == 0x5678u);
  CHECK(d.draw_id == 0x2345u);
  // Larger than MAX_RT_DIM: clamped to 16384.
  st[ST_RT_SIZE] = 0xFFFFFFFFu;
  d = CommandProcessor::make_draw(st, 0, 0, 0);
  CHECK(d.clip == test::rect(0, 0, 16384, 16384));
  st[ST_RT_SIZE] = (16385u << 16) | 16384u;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(0, 0, 16384, 16384));
  // Scissor inside, partly outside, beyond, empty and inverted.
  st[ST_RT_SIZE] = (100u << 16) | 200u;
  st[ST_SCISSOR_X] = (50u << 16) | 10u;
  st[ST_SCISSOR_Y] = (300u << 16) | 20u;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(10, 20, 50, 100));
  st[ST_SCISSOR_X] = (400u << 16) | 300u;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(200, 20, 200, 100));
  st[ST_SCISSOR_X] = (10u << 16) | 10u;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(10, 20, 10, 100));
  st[ST_SCISSOR_X] = (5u << 16) | 60u;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(60, 20, 5, 100));
  // RT_SIZE 0 (reset): everything empty.
  st[ST_RT_SIZE] = 0;
  CHECK(CommandProcessor::make_draw(st, 0, 0, 0).clip == test::rect(0, 0, 0, 0));
}

TEST_CASE("cp: every error cause, ERROR_ADDR, stop", "[cp]") {
  struct Case {
    uint32_t header;
    uint32_t cause;
  };
  const Case cases[] = {
      {0x0D000000u, ERR_BAD_OPCODE},
      {0x0C000000u, ERR_BAD_LEN},  // OP_RESOLVE with no payload
      {CommandWriter::header(OP_RESOLVE, 0, 4), ERR_BAD_LEN},
      {CommandWriter::header(OP_RESOLVE, 4, 5), ERR_BAD_ARG},    // arg[11:2] != 0: unknown format
      {CommandWriter::header(OP_RESOLVE, 0x800, 5), ERR_BAD_ARG},
      {0x0B000000u, ERR_BAD_LEN},  // OP_CLEAR with no payload
      {CommandWriter::header(OP_CLEAR, 1, 4), ERR_BAD_LEN},
      {CommandWriter::header(OP_CLEAR, 0, 5), ERR_BAD_CLEAR},
      {CommandWriter::header(OP_CLEAR, 3, 5), ERR_BAD_CLEAR},
      {CommandWriter::header(OP_CLEAR, 7, 5), ERR_BAD_CLEAR},
      {CommandWriter::header(OP_CLEAR, 0x802, 5), ERR_BAD_CLEAR},
      {0xFF000000u, ERR_BAD_OPCODE},
      {0x0E000000u, ERR_BAD_OPCODE},
      {CommandWriter::header(OP_DRAW, 0, 1), ERR_BAD_LEN},
      {CommandWriter::header(OP_DRAW, 0, 3), ERR_BAD_LEN},
      {CommandWriter::header(OP_WRITE_REG, 0, 0), ERR_BAD_LEN},
      {CommandWriter::header(OP_WRITE_REG, 0, 2), ERR_BAD_LEN},
      {CommandWriter::header(OP_WRITE_REG, 0x7F0, 2), ERR_BAD_LEN},  // len checked before arg
      {CommandWriter::header(OP_END, 0, 1), ERR_BAD_LEN},
      {CommandWriter::header(OP_SET_STATE, FE_STATE_END - 1, 2), ERR_BAD_ARG},
      {CommandWriter::header(OP_SET_STATE, 0, FE_STATE_END + 1), ERR_BAD_ARG},
      {CommandWriter::header(OP_DRAW_FE, 0, 4), ERR_BAD_LEN},
      {CommandWriter::header(OP_DRAW_FE, 0x10, 5), ERR_BAD_ARG},
      {CommandWriter::header(OP_SET_STATE, 0xFFF, 0), ERR_BAD_ARG},
      {CommandWriter::header(OP_WRITE_REG, 0x010, 1), ERR_BAD_ARG},
      {CommandWriter::header(OP_WRITE_REG, 0x400 | 3, 1), ERR_BAD_ARG},
  };
  for (const Case& c : cases) {
    INFO("header " << std::hex << c.header);
    Rig r;
    CommandWriter w;
    w.set_state(ST_COLOR, 0x1234u).nop(1).raw(c.header).raw(0).raw(0).end();
    r.start(w);
    r.cp.reg_write(REG_IRQ_ENABLE, 1u << IRQ_ERROR);
    r.run();
    CHECK(r.cp.error());
    CHECK(r.cp.reg_read(REG_ERROR_CAUSE) == c.cause);
    CHECK(r.cp.reg_read(REG_ERROR_ADDR) == RING + 16u);  // SET_STATE (2) + NOP (2) dwords before it
    CHECK(r.cp.reg_read(REG_RING_RPTR) == 16u);          // stays on the bad header
    CHECK(((r.cp.reg_read(REG_STATUS) >> STATUS_ERROR) & 1u) == 1u);
    CHECK(r.cp.reg_read(REG_IRQ_STATUS) == (1u << IRQ_ERROR));
    CHECK(r.cp.irq());
    CHECK(r.cp.state(ST_COLOR) == 0x1234u);
    CHECK(r.draws.empty());
    // Stays stopped: CONTROL does not clear an error.
    r.cp.reg_write(REG_CONTROL, 1);
    CHECK_FALSE(r.cp.can_decode());
    r.cp.reg_write(REG_IRQ_STATUS, 0xFFFFFFFFu);
    CHECK_FALSE(r.cp.irq());
    CHECK(r.cp.error());
  }
}

TEST_CASE("cp: a bad SET_STATE writes no state", "[cp]") {
  Rig r;
  CommandWriter w;
  w.raw(CommandWriter::header(OP_SET_STATE, 14, FE_STATE_END - 13)).raw(1).raw(2).raw(3);
  r.start(w);
  r.run();
  CHECK(r.cp.reg_read(REG_ERROR_CAUSE) == ERR_BAD_ARG);
  CHECK(r.cp.state(14) == 0u);
  CHECK(r.cp.state(15) == 0u);
  CHECK(!r.cp.take_fe());
}

TEST_CASE("cp: ring wrap-around and commands split by WPTR", "[cp]") {
  Rig r;
  CommandWriter w;
  w.set_state(ST_COLOR, 0xAAu).draw(3, 6).write_reg(1, 7, true).end();  // 2 + 3 + 2 + 1 = 8 dwords
  // Start at offset 20 of a 40-byte ring: the DRAW straddles the wrap.
  r.cp.reg_write(REG_RING_BASE, RING);
  r.cp.reg_write(REG_RING_SIZE, 40);
  // Move RPTR to 20 by decoding five NOPs first.
  for (int i = 0; i < 5; ++i) r.mem.write32(RING + 4u * i, 0);
  r.cp.reg_write(REG_RING_WPTR, 20);
  r.cp.reg_write(REG_CONTROL, 1);
  r.run();
  REQUIRE(r.cp.reg_read(REG_RING_RPTR) == 20u);
  const auto regs = place_in_ring(r.mem, RING, 40, w.dwords(), 20);
  CHECK(regs[2] == RegWrite{REG_RING_WPTR, 12});  // (20 + 32) mod 40
  // Host publishes the commands in pieces: first up to the middle of the DRAW.
  r.cp.reg_write(REG_RING_WPTR, 36);  // SET_STATE (20..27), DRAW header (28), first_vertex (32)
  r.run();
  CHECK(r.draws.empty());
  CHECK(r.cp.mid_command());
  CHECK(r.cp.state(ST_COLOR) == 0xAAu);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == 36u);
  r.cp.reg_write(REG_RING_WPTR, 0);  // count at 36; RPTR wraps to 0
  r.run();
  REQUIRE(r.draws.size() == 1);
  CHECK(r.draws[0].first_vertex == 3u);
  CHECK(r.draws[0].vertex_count == 6u);
  CHECK(r.draws[0].color == 0xAAu);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == 0u);
  r.cp.reg_write(REG_RING_WPTR, 12);
  r.run();
  CHECK(r.cp.halted());
  CHECK(r.cp.reg_read(REG_FENCE0 + 1) == 7u);
  CHECK(r.cp.reg_read(REG_RING_RPTR) == 12u);
}

TEST_CASE("cp: draw_id wraps at 16 bits", "[cp]") {
  Rig r;
  CommandWriter w;
  for (int i = 0; i < 65537; ++i) w.draw(0, 0);
  r.start(w, 1u << 20);
  r.run();
  REQUIRE(r.draws.size() == 65537);
  CHECK(r.draws[65535].draw_id == 0xFFFFu);
  CHECK(r.draws[65536].draw_id == 0u);
}

TEST_CASE("cp: end-of-pipe WRITE_REG sends a token and completes in order", "[cp][eop]") {
  Rig r;
  CommandWriter w;
  // Five EOP fences with nobody completing them: the fifth waits for a queue entry.
  for (uint32_t k = 0; k < EOP_QUEUE_DEPTH + 1; ++k) w.write_reg(k, 100 + k, true);
  w.write_reg(0, 7, false);  // TOP to a register with an EOP write in flight: waits for it
  w.write_reg(9, 8, false).end();
  r.start(w);
  std::vector<DrawPkt> out;
  while (r.cp.can_decode()) {
    if (auto d = r.cp.step()) out.push_back(*d);
  }
  REQUIRE(out.size() == EOP_QUEUE_DEPTH);
  for (const auto& d : out) {
    DrawPkt token;
    token.eop = 1;
    CHECK(d == token);  // a token carries nothing else
  }
  CHECK(r.cp.fence_blocked());
  CHECK(r.cp.eop_in_flight() == EOP_QUEUE_DEPTH);
  CHECK(status_bit(r.cp, STATUS_PIPE_BUSY) == 1u);
  for (uint32_t f = 0; f < NUM_FENCES; ++f) CHECK(r.cp.reg_read(REG_FENCE0 + f) == 0u);

  // The first completion writes fence 0 and lets the fifth EOP WRITE_REG in; the TOP write to
  // fence 0 then goes through: fence 0's EOP write has landed (fences 1-4 are still in flight).
  REQUIRE(r.cp.eop_complete());
  CHECK(r.cp.reg_read(REG_FENCE0) == 100u);
  while (r.cp.can_decode()) {
    if (auto d = r.cp.step()) out.push_back(*d);
  }
  CHECK(out.size() == EOP_QUEUE_DEPTH + 1);
  CHECK(r.cp.reg_read(REG_FENCE0) == 7u);   // TOP write to 0 went through
  CHECK(r.cp.reg_read(REG_FENCE0 + 9) == 8u);
  CHECK(r.cp.halted());
  for (uint32_t k = 1; k <= EOP_QUEUE_DEPTH; ++k) {
    CHECK(r.cp.reg_read(REG_FENCE0 + k) == 0u);
    REQUIRE(r.cp.eop_complete());
    CHECK(r.cp.reg_read(REG_FENCE0 + k) == 100u + k);
  }
  CHECK_FALSE(r.cp.eop_complete());
  CHECK(status_bit(r.cp, STATUS_PIPE_BUSY) == 0u);
  // Log in landing order: EOP 0, TOP 0, TOP 9, EOP 1..4.
  const auto& log = r.cp.fence_writes();
  REQUIRE(log.size() == EOP_QUEUE_DEPTH + 3);
  CHECK((log[0].index == 0u && log[0].eop));
  CHECK((log[1].index == 0u && !log[1].eop && log[1].value == 7u));
  CHECK((log[2].index == 9u && !log[2].eop));
  CHECK((log[3].index == 1u && log[3].eop));
}

TEST_CASE("cp: a TOP WRITE_REG waits only for EOP writes to the same register", "[cp][eop]") {
  Rig r;
  CommandWriter w;
  w.write_reg(3, 1, true).write_reg(4, 2, false).write_reg(3, 5, false).end();
  r.start(w);
  while (r.cp.can_decode()) r.cp.step();
  CHECK(r.cp.reg_read(REG_FENCE0 + 4) == 2u);  // other register: at once
  CHECK(r.cp.reg_read(REG_FENCE0 + 3) == 0u);
  CHECK(r.cp.fence_blocked());
  CHECK_FALSE(r.cp.halted());
  r.cp.reg_write(REG_CONTROL, (1u << CONTROL_ENABLE) | (1u << CONTROL_CP_RESET));  // reset keeps it
  CHECK(r.cp.eop_in_flight() == 1u);
  REQUIRE(r.cp.eop_complete());
  CHECK(r.cp.reg_read(REG_FENCE0 + 3) == 1u);
}
