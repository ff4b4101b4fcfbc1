// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: command streams into the golden model (model::PinedaTop), issue 12.
//
// The input is the ring: little-endian dwords placed at RING_BASE, with CP fetches and copies
// limited to a window (VALID_BASE..VALID_LIMIT) that holds the ring and a scratch area. Asserted
// (abort = a finding):
//  - no hang: run() returns within a decode budget; a draw longer than a work cap is abandoned
//    through PinedaTop::set_abort_check (a long draw is legal, not a finding);
//  - no write outside the bound targets: every byte that changed lies in the VALID window (COPY, CLEAR)
//    or in the render target of a triangle that reached SETUP (its base, pitch and pixel box);
//  - an unknown opcode in the first header stops the CP with STATUS.ERROR and ERR_BAD_OPCODE;
//  - the model throws nothing (a std::logic_error inside is a model bug).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"
#include "top/pineda_top.h"

using namespace pineda;

namespace {

constexpr uint32_t RING_BASE = 0x00010000u;
constexpr uint32_t WINDOW_BASE = 0x00010000u, WINDOW_LIMIT = 0x0001FFFFu;  // ring + scratch
constexpr size_t MAX_DWORDS = 4096;

[[noreturn]] void finding(const char* what, uint32_t addr = 0) {
  std::fprintf(stderr, "fuzz_cp: %s (0x%08x)\n", what, addr);
  std::abort();
}

bool known_op(uint32_t op) {
  switch (op) {
    case OP_NOP: case OP_SET_STATE: case OP_DRAW: case OP_WRITE_REG: case OP_WAIT_REG: case OP_JUMP:
    case OP_CALL: case OP_RET: case OP_INTERRUPT: case OP_COPY: case OP_DRAW_FE: case OP_CLEAR: case OP_RESOLVE: case OP_END: return true;
    default: return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const size_t n = std::min(size / 4, MAX_DWORDS);
  if (n == 0) return 0;
  std::vector<uint32_t> ring(n);
  std::memcpy(ring.data(), data, n * 4);
  Memory mem;
  // Some vertex-like data in the scratch area, so that draws reading it see non-zero values.
  for (uint32_t i = 0; i < 256; ++i) mem.write32(0x00018000u + 4 * i, (i * 0x9E3779B9u) >> 8);
  mem.write(RING_BASE, ring.data(), n * 4);
  const Memory before = mem;
  model::PinedaTop gpu(mem);
  uint64_t polls = 0;
  gpu.set_abort_check([&polls] { return ++polls > 1; });  // 8k units of work (PinedaTop::work) per input
  gpu.reg_write(REG_VALID_BASE, WINDOW_BASE);
  gpu.reg_write(REG_VALID_LIMIT, WINDOW_LIMIT);
  gpu.reg_write(REG_WATCHDOG, 1000);
  gpu.reg_write(REG_RING_BASE, RING_BASE);
  gpu.reg_write(REG_RING_SIZE, static_cast<uint32_t>(n * 4 + 4));  // one dword more: the ring never looks full
  gpu.reg_write(REG_RING_WPTR, static_cast<uint32_t>(n * 4));
  gpu.reg_write(REG_CONTROL, 1);
  model::RunResult r;
  try {
    r = gpu.run_with_host({}, 100000);
  } catch (const model::GpuAborted&) {
    return 0;  // a long draw: legal, and the model's state is no longer defined
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_cp: the model threw: %s\n", e.what());
    std::abort();
  }
  (void)r;
  // Invalid input: an unknown opcode first.
  if (!known_op(ring[0] >> CMD_OP_LSB)) {
    if (!((gpu.reg_read(REG_STATUS) >> STATUS_ERROR) & 1u)) finding("unknown first opcode without STATUS.ERROR");
    if (gpu.reg_read(REG_ERROR_CAUSE) != ERR_BAD_OPCODE) finding("unknown first opcode: cause is not BAD_OPCODE");
  }
  // Writes only to bound targets and the window.
  const auto& tris = gpu.trace().setup_tri;
  auto allowed = [&](uint32_t a) {
    if (a >= WINDOW_BASE && a <= WINDOW_LIMIT) return true;
    for (const auto& t : tris) {
      const uint64_t px = t.target.msaa ? 16 : 4;
      const uint64_t span = t.target.pitch * t.pix.y1 + px * t.pix.x1 + 16;
      if (static_cast<uint32_t>(a - static_cast<uint32_t>(t.target.base)) < span) return true;
    }
    return false;
  };
  for (uint32_t pb : mem.page_bases()) {
    const uint8_t* p = mem.page_data(pb);
    const uint8_t* q = before.page_data(pb);
    for (uint32_t i = 0; i < Memory::PAGE_SIZE; ++i) {
      const uint8_t old = q ? q[i] : 0;
      if (p[i] != old && !allowed(pb + i)) finding("write outside the bound targets and the window", pb + i);
    }
  }
  return 0;
}
