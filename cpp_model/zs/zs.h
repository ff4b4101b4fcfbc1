// SPDX-License-Identifier: Apache-2.0
// ZS: the depth/stencil unit (docs/depth.md section 4; the RTL is rtl/zs/zs.sv).
//
// Functional model: quad_pkt_t in, quad_pkt_t out. The outgoing mask keeps the samples that pass
// the stencil and depth tests, z is zeroed where the mask is 0, and a quad left with no sample is
// dropped. End-of-pipe tokens pass in order. Samples are tested and updated one at a time, lowest
// mask bit first, against the D24_UNORM_S8_UINT buffer in memory (depth [23:0], stencil [31:24]):
// - 1x: sample (x, y) at dsbase + y*dspitch + x*4; 4x MSAA (quad.target.msaa): sample s of pixel
//   (x, y) at dsbase + y*dspitch + x*16 + s*4, mod 2^32. dsbase = ds.base & ~63 and
//   dspitch = ds.pitch & ~63: the depth buffer is taken in whole 64-byte lines (docs/depth.md §2).
// - A quad with ds.z_enable = 0 and ds.s_enable = 0 passes untouched (no memory access).
// - stencil (s_enable): face = front ? s_front : s_back (STENCIL_FACE_* fields); passes when
//   (ref & read_mask) FUNC (stored & read_mask); depth (z_enable): passes when z FUNC stored.
//   A disabled test passes. Depth is written when both pass and z_write; the stencil op
//   (fail / zfail / pass) is applied under the write mask.
// - Early Z (ds.late_z = 0): the test sits before the pixel stage. Late Z: after it. The pixel
//   stage is the alpha kill (docs/comb.md): `kill` (bit p: pixel p failed the alpha test) clears
//   the pixel's coverage (all four samples at 4x) and depths. Early Z tests and writes before
//   the kill (so a killed pixel has written depth: alpha-tested draws must be late); late Z
//   tests only the survivors. With kill = 0 both orders give the same result (tested).
// - The two ports of the RTL (zs.sv with LatePort = 1; docs/comb.md section 5): early() is the
//   early port (an early-Z quad, ds.late_z = 0 with depth or stencil on, is tested and dropped
//   when empty; everything else passes untouched), late() the late port (the quad after the pixel
//   stage, i.e. without the killed pixels: a late-Z quad is tested and dropped when empty, also
//   one that arrives empty; everything else passes; the packet leaves with quad.it = 0).
//   process(q, mem, kill) equals late(pixel path(early(q))) (tested in [late]); the RTL's
//   ordering rule (early-Z quads wait while late quads are in flight) makes the two-port
//   order equal to this sequential one.
#pragma once

#include <cstdint>
#include <optional>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::model {

class Zs {
 public:
  // One packet in; the packet out (nothing when the quad is dropped).
  std::optional<QuadPkt> process(const QuadPkt& q, Memory& mem, uint32_t kill = 0);
  // The early and the late port (quads_in counted at the early port, quads_out at the late one).
  std::optional<QuadPkt> early(const QuadPkt& q, Memory& mem);
  std::optional<InterpPkt> late(const InterpPkt& p, Memory& mem);
  static bool late_quad(const QuadPkt& q) { return active(q) && q.ds.late_z; }
  // A depth and/or stencil clear (clear_pkt_t with depth or stencil set): the memory effect.
  void clear(const ClearPkt& c, Memory& mem);

  // The pixel stage's kill: the pixels of `kill` (bit p) lose coverage and depth.
  static QuadPkt pixel_stage(const QuadPkt& q, uint32_t kill);
  // The depth/stencil test of one quad against memory (the test point).
  static QuadPkt test(const QuadPkt& q, Memory& mem);
  static bool active(const QuadPkt& q) { return !q.eop && (q.ds.z_enable || q.ds.s_enable); }
  static uint32_t sample_addr(const QuadPkt& q, int bit);  // byte address of a mask bit's sample
  static uint32_t stencil_op(uint32_t op, uint32_t s, uint32_t ref);

  uint64_t samples_tested() const { return tested_; }
  uint64_t samples_passed() const { return passed_; }
  uint64_t quads_in() const { return quads_in_; }
  uint64_t quads_out() const { return quads_out_; }

 private:
  void count(const QuadPkt& q, uint64_t in_mask, uint64_t out_mask);
  uint64_t tested_ = 0, passed_ = 0, quads_in_ = 0, quads_out_ = 0;
};

}  // namespace pineda::model
