// SPDX-License-Identifier: Apache-2.0
// Memory and CommandWriter.
#include "command_writer.h"
#include "mem/memory.h"
#include "test_util.h"

using namespace pineda;

TEST_CASE("memory: sparse reads, byte enables, ranges, wrap", "[memory]") {
  Memory m;
  CHECK(m.read32(0x12345678) == 0u);
  CHECK(m.page_count() == 0);
  m.write32(0x1000, 0xAABBCCDDu);
  CHECK(m.read32(0x1000) == 0xAABBCCDDu);
  CHECK(m.read32(0x1003) == 0xAABBCCDDu);  // addr[1:0] ignored
  CHECK(m.read8(0x1000) == 0xDD);          // little endian
  CHECK(m.read8(0x1003) == 0xAA);
  m.write32(0x1002, 0x11223344u, 0x5);  // bytes 0 and 2 of the dword at 0x1000
  CHECK(m.read32(0x1000) == 0xAA22CC44u);
  m.write32(0x2000, 0xFFFFFFFFu, 0);  // no byte enabled: nothing allocated
  CHECK(m.page_count() == 1);

  const uint8_t src[6] = {1, 2, 3, 4, 5, 6};
  m.write(0xFFFFFFFDu, src, 6);  // wraps at 2^32
  uint8_t dst[6] = {};
  m.read(0xFFFFFFFDu, dst, 6);
  CHECK(std::equal(src, src + 6, dst));
  CHECK(m.read8(0) == 4);
  m.fill(0x3FFE, 4, 0x7E);  // crosses a page boundary
  CHECK(m.read32(0x3FFC) == 0x7E7E0000u);
  CHECK(m.read32(0x4000) == 0x00007E7Eu);
  m.fill32(0x5000, 3, 0xCAFEF00Du);
  CHECK(m.read32(0x5008) == 0xCAFEF00Du);
  CHECK(m.read32(0x500C) == 0u);
}

TEST_CASE("memory: equality ignores all-zero pages, digest, first difference", "[memory]") {
  Memory a, b;
  a.write32(0x100, 5);
  b.write32(0x100, 5);
  b.write32(0x9000, 0);  // allocated zero page
  CHECK(a == b);
  CHECK(a.digest() == b.digest());
  b.write32(0x9004, 1);
  CHECK(a != b);
  CHECK(a.digest() != b.digest());
  REQUIRE(a.first_difference(b).has_value());
  CHECK(*a.first_difference(b) == 0x9004u);
  const auto pages = b.page_bases();
  REQUIRE(pages.size() == 2);
  CHECK(pages[0] == 0u);
  CHECK(pages[1] == 0x9000u);
  CHECK(b.page_data(0x9000)[4] == 1);
  CHECK(b.page_data(0x7000) == nullptr);
  Memory c = b;  // copyable
  CHECK(c == b);
}

TEST_CASE("command writer: v1 encoding", "[writer]") {
  CommandWriter w;
  w.nop(2).set_state(ST_COLOR, 0x11223344u, 0x10000000u).set_state(ST_SCISSOR_X, std::vector<uint32_t>{7}).draw(5, 9)
      .write_reg(3, 0xABCD, false).write_reg(15, 7, true).end();
  const std::vector<uint32_t> expect = {
      0x00000002u, 0, 0,                           // NOP len 2
      0x01001002u, 0x11223344u, 0x10000000u,       // SET_STATE arg 1 len 2
      0x01005001u, 7,                              // SET_STATE arg 5 len 1
      0x02000002u, 5, 9,                           // DRAW
      0x03003001u, 0xABCD,                         // WRITE_REG fence 3, top of pipe
      0x0380F001u, 7,                              // WRITE_REG fence 15, EOP (arg bit 11)
      0x0F000000u};                                // END
  CHECK(w.dwords() == expect);
  CHECK(w.size_bytes() == expect.size() * 4);
  CHECK(CommandWriter::header(OP_DRAW, 0, 2) == 0x02000002u);
  CHECK_THROWS(CommandWriter().write_reg(16, 0, false));
}

TEST_CASE("command writer: place_in_ring wraps and returns the start writes", "[writer]") {
  Memory m;
  CommandWriter w;
  w.nop(1).draw(1, 2).end();  // 6 dwords
  const auto regs = place_in_ring(m, 0x1000, 32, w.dwords(), 16);
  REQUIRE(regs.size() == 4);
  CHECK(regs[0] == RegWrite{REG_RING_BASE, 0x1000});
  CHECK(regs[1] == RegWrite{REG_RING_SIZE, 32});
  CHECK(regs[2] == RegWrite{REG_RING_WPTR, 8});  // 16 + 24 - 32
  CHECK(regs[3] == RegWrite{REG_CONTROL, 1});
  CHECK(m.read32(0x1010) == 0x00000001u);
  CHECK(m.read32(0x1018) == 0x02000002u);  // DRAW header at offset 24
  CHECK(m.read32(0x101C) == 1u);           // first_vertex at offset 28
  CHECK(m.read32(0x1000) == 2u);           // count wrapped to offset 0
  CHECK(m.read32(0x1004) == 0x0F000000u);
  CHECK_THROWS(place_in_ring(m, 0x1000, 24, w.dwords()));  // 24 bytes do not fit in 24
}
