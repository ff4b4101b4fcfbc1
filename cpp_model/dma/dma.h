// SPDX-License-Identifier: Apache-2.0
// DMA engine (rtl/dma/dma.sv): COPY src -> dst, `len` bytes, any alignment
// (docs/contract.md §4, COPY), and the fill behind CLEAR (docs/depth.md section 5).
// Copy: the CP only issues a copy whose source and destination ranges do not overlap and lie
// inside the valid address window, so copying byte by byte in increasing address order gives
// the same memory as the RTL, which streams source dwords ahead of its byte writes.
// Fill: a ClearPkt (the CP has checked it: non-empty rectangle, dword-aligned base and pitch,
// inside the window) is written row by row, top to bottom; each row's bytes
// [base + y*pitch + x0*bpp, base + y*pitch + x1*bpp) (bpp 4, or 16 at 4x MSAA) go out as whole
// line writes, left to right, with byte enables = the row's bytes in the line AND the per-dword
// mask: colour, or depth and stencil, all 4 bytes; depth alone bytes 0-2; stencil alone byte 3.
// Every dword written is the packet's value. fill_lines() is that exact line-write stream (the
// RTL emits the same lines in the same order); fill() applies it.
#pragma once

#include <cstdint>
#include <functional>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

struct CopyJob {
  uint32_t src = 0;
  uint32_t dst = 0;
  uint32_t len = 0;  // bytes
  uint32_t header_addr = 0;  // byte address of the COPY header
};

class Dma {
 public:
  void copy(const CopyJob& job, Memory& mem);
  // The fill's line writes, in the RTL's order.
  // on_line (optional) is called before each line (the PinedaTop polls its abort check there: a fill
  // may write up to 16384 rows of 256 KiB).
  static void fill_lines(const ClearPkt& c, const std::function<void(const MemLineReq&)>& emit,
                         const std::function<void()>& on_line = {});
  // The dword byte mask of a clear: bit k = byte k of each dword written.
  static uint32_t fill_dword_mask(const ClearPkt& c);
  void fill(const ClearPkt& c, Memory& mem, const std::function<void()>& on_line = {});
  uint64_t bytes_copied() const { return bytes_; }
  uint64_t bytes_filled() const { return fill_bytes_; }   // bytes enabled by fill writes
  uint64_t fill_lines_written() const { return fill_lines_; }
  void reset_counters() { bytes_ = fill_bytes_ = fill_lines_ = 0; }

 private:
  uint64_t bytes_ = 0, fill_bytes_ = 0, fill_lines_ = 0;
};

}  // namespace pineda::model
