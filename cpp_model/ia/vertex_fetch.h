// SPDX-License-Identifier: Apache-2.0
// Vertex fetch (docs/frontend.md section 4): turns the vertices of a batch (VFetchPkt) into
// object-space vertices for VTX (VtxInPkt), reading each attribute from its vertex buffer with
// its format, offset and stride and a bounds check, and converting it to the outputs: position
// (FP32 x4), colour (RGBA8), two texture coordinates (FP32 x2). Front-end state writes in the
// same stream update the vertex buffers, attribute layouts and the position matrix; a write to a
// matrix register sends that matrix row to VTX (VTX_KIND_MATRIX_ROW).
//
// Fetch cache (docs/frontend.md section 5): the model mirrors the RTL's tags exactly (two-way
// set associative, `lines` lines of LINE_BYTES in lines / 2 sets, set = line address mod sets; a
// miss takes the first invalid way, else the least recently used; every line invalidated by any
// state write and by a new draw) so that it predicts the memory reads: lines_read() is the number of line read requests
// the RTL issues. A vertex's in-bounds elements, in attribute order, form groups of two
// consecutive lines (G, G + 1): an element whose lines lie in the current pair joins it, else it
// opens a new group at its first line; each group looks up line G, then G + 1 if it is used,
// allocating on a miss. The data itself is read from memory directly (memory does not change
// while vertices are fetched), so the outputs do not depend on the cache.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

class VertexFetch {
 public:
  static constexpr uint32_t NUM_FE_STATE = FE_MATRIX0 + 16;

  static constexpr uint32_t kDefaultLines = 128;
  static constexpr uint32_t kWays = 2;
  // cache = false: no line is kept (every group's lines are read again; for comparisons).
  explicit VertexFetch(bool cache = true, uint32_t lines = kDefaultLines) : cache_(cache), lines_(lines) {
    reset();
  }
  void reset();  // vertex buffers and attributes 0, matrix identity, cache invalid, counters 0
  void process(const VFetchPkt& p, const Memory& mem, const std::function<void(const VtxInPkt&)>& emit);
  std::vector<VtxInPkt> process(const VFetchPkt& p, const Memory& mem);

  // UNORM8 -> FP32: c / 255 rounded to nearest (exact: 0 and 1.0 for c = 0, 255).
  static uint32_t unorm8_to_f32(uint32_t c);
  // FP32 -> UNORM8: NaN, negatives, zero and denormals -> 0; >= 1.0 -> 255; else
  // round-to-nearest-even of the exact f * 255.
  static uint32_t f32_to_unorm8(uint32_t f);

  uint32_t state(uint32_t idx) const { return st_.at(idx); }
  uint64_t vertices() const { return vertices_; }
  uint64_t lines_read() const { return misses_; }  // line read requests
  uint64_t dwords_read() const { return misses_ * LINE_DWORDS; }
  uint64_t out_of_bounds() const { return oob_; }  // attribute elements outside their buffer
  uint64_t line_hits() const { return hits_; }
  uint64_t line_misses() const { return misses_; }  // line fills
  uint64_t groups() const { return groups_; }       // line-pair groups (one per vertex at least)

 private:
  struct Elem {
    bool inb = false;         // enabled and in bounds: read
    uint32_t l0 = 0, l1 = 0;  // its first and last line address (byte address / 64)
  };
  std::array<uint32_t, 4> attribute(uint32_t a, const VFetchPkt& p, const Memory& mem, uint32_t& raw, bool& unorm,
                                    Elem& el);
  // Looks a line up and allocates it on a miss; returns true on a hit.
  bool line(uint32_t line_addr);
  std::array<uint32_t, NUM_FE_STATE> st_{};  // every front-end register (the matrix rows go to VTX)
  VfRegs regs_;                                 // FE_VB*, FE_ATTR_* (generated register file)
  bool cache_;
  uint32_t lines_;
  std::vector<uint32_t> tag_;   // line address per set and way ([set * kWays + way])
  std::vector<bool> valid_;
  std::vector<uint32_t> lru_;   // per set: the way replaced next when both are valid
  bool have_draw_ = false;  // draw_ holds the draw of the last vertex (since reset / a write)
  uint32_t draw_ = 0;
  uint64_t vertices_ = 0, oob_ = 0, hits_ = 0, misses_ = 0, groups_ = 0;
};

}  // namespace pineda::model
