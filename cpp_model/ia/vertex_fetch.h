// Vertex fetch (docs/frontend.md section 4): turns the vertices of a batch (VFetchPkt) into
// object-space vertices for VTX (VtxInPkt), reading each attribute from its vertex buffer with
// its format, offset and stride and a bounds check, and converting it to the outputs: position
// (FP32 x4), colour (RGBA8), two texture coordinates (FP32 x2). Front-end state writes in the
// same stream update the vertex buffers, attribute layouts and the position matrix; a write to a
// matrix register sends that matrix row to VTX (VTX_KIND_MATRIX_ROW).
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

  VertexFetch() { reset(); }
  void reset();  // vertex buffers and attributes 0, matrix identity, counters 0
  void process(const VFetchPkt& p, const Memory& mem, const std::function<void(const VtxInPkt&)>& emit);
  std::vector<VtxInPkt> process(const VFetchPkt& p, const Memory& mem);

  // UNORM8 -> FP32: c / 255 rounded to nearest (exact: 0 and 1.0 for c = 0, 255).
  static uint32_t unorm8_to_f32(uint32_t c);
  // FP32 -> UNORM8: NaN, negatives, zero and denormals -> 0; >= 1.0 -> 255; else
  // round-to-nearest-even of the exact f * 255.
  static uint32_t f32_to_unorm8(uint32_t f);

  uint32_t state(uint32_t idx) const { return st_.at(idx); }
  uint64_t vertices() const { return vertices_; }
  uint64_t dwords_read() const { return dwords_; }
  uint64_t out_of_bounds() const { return oob_; }  // attribute elements outside their buffer

 private:
  std::array<uint32_t, 4> attribute(uint32_t a, const VFetchPkt& p, const Memory& mem, uint32_t& raw, bool& unorm);
  std::array<uint32_t, NUM_FE_STATE> st_{};
  uint64_t vertices_ = 0, dwords_ = 0, oob_ = 0;
};

}  // namespace pineda::model
