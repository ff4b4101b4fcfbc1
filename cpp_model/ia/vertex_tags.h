// SPDX-License-Identifier: Apache-2.0
// Vertex cache tags and batching (docs/frontend.md section 3, document 004 part 3): assembles
// triangles from the index stream (lists; strips with cuts, odd strip triangles swapping their
// first two vertices) and gathers them into batches of at most VTX_BATCH_SLOTS unique vertices.
// Each vertex reference is looked up in the batch's fully associative tag array (the vertex
// indices of its slots): a hit reuses the slot, a miss allocates the next slot and sends the
// vertex to be fetched. A triangle whose distinct misses do not fit in the free slots closes the
// batch (its last triangle gets last = 1) and starts a new, empty one, whose first vertex
// (slot 0) gets first = 1. The last
// position of an instance and an end-of-pipe token close the batch too; the token then goes on
// the triangle stream. A front-end state write (wr = 1) closes the batch too and then goes on
// BOTH streams (a VFetchPkt and a PrimPkt with the same wr_idx / wr_val, every other field 0),
// so it never shares a batch with vertices or triangles. Tokens and writes keep the assembly
// window: one in the middle of an instance (the CP sends writes only between draws) does not
// disturb the list triangle or strip in progress, whose next triangle opens a new batch.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "pineda_contract.h"

namespace pineda::model {

class VertexTags {
 public:
  using EmitV = std::function<void(const VFetchPkt&)>;
  using EmitP = std::function<void(const PrimPkt&)>;
  // A batch's vertices are emitted as they are allocated (the first with first = 1), so the
  // vertex stream never waits for the batch to close; its triangles are emitted when it closes
  // (the last one with last = 1).
  void process(const IndexPkt& p, const EmitV& emit_v, const EmitP& emit_p);
  void reset();

  uint64_t references() const { return refs_; }  // vertex references of emitted triangles
  uint64_t hits() const { return hits_; }
  uint64_t vertices() const { return verts_; }   // vertices fetched (misses)
  uint64_t triangles() const { return tris_; }
  uint64_t batches() const { return batches_; }
  uint64_t writes() const { return writes_; }     // state writes forwarded

 private:
  void triangle(uint32_t i0, uint32_t i1, uint32_t i2, const IndexPkt& p, const EmitV& ev, const EmitP& ep);
  void close(const EmitV& ev, const EmitP& ep);

  std::array<uint32_t, VTX_BATCH_SLOTS> tag_{};
  uint32_t used_ = 0;  // slots allocated in the current batch
  std::vector<PrimPkt> bp_;
  // Assembly window: indices of the current list triangle or the last two of the strip.
  std::array<uint32_t, 2> win_{};
  uint32_t have_ = 0;      // indices in the window
  uint32_t parity_ = 0;    // strip: triangles since the strip (re)started, mod 2
  uint32_t prim_id_ = 0;
  uint64_t refs_ = 0, hits_ = 0, verts_ = 0, tris_ = 0, batches_ = 0, writes_ = 0;
};

}  // namespace pineda::model
