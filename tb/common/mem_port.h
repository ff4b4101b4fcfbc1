// SPDX-License-Identifier: Apache-2.0
// A unit bench's side of a bundled line port (docs/rtl_conventions.md): the DUT's
// `mem_o` (mem_port_req_t) and `mem_i` (mem_port_rsp_t) against a LineDram.
//
//   const tb::MemPortCycle m = tb::mem_port_settle(drv, dram, &g, stall);  // drives mem_i, eval_low
//   ...  (m.in, m.out, m.req_fire, m.rsp_fire)
//   drv.edge();
//   dram.clock(m.req_fire, m.out.req, m.rsp_fire);
#pragma once

#include "line_dram.h"
#include "pineda_contract.h"
#include "random_prims.h"
#include "vl_bits.h"

namespace pineda::tb {

// Drives mem_i from the DRAM's response head, with the given request ready; returns what it drove.
template <class Sig>
MemPortRsp drive_mem_port(bool req_ready, const LineDram& dram, Sig& mem_i) {
  MemPortRsp in;
  in.req_ready = req_ready;
  in.rsp_valid = dram.rsp_valid();
  in.rsp = dram.rsp();
  pack_sig(in, mem_i);
  return in;
}

inline bool req_fire(const MemPortReq& out, const MemPortRsp& in) { return out.valid && in.req_ready; }
inline bool rsp_fire(const MemPortReq& out, const MemPortRsp& in) { return in.rsp_valid && out.rsp_ready; }

// One cycle of the port, after the settle: what the bench drove, what the DUT drives, the handshakes.
struct MemPortCycle {
  MemPortRsp in;
  MemPortReq out;
  bool req_fire = false;
  bool rsp_fire = false;
  // A response offered and not taken (contract 2.1: a client takes every response).
  bool rsp_refused() const { return in.rsp_valid && !out.rsp_ready; }
};

// Drives the DUT's mem_i (request ready when the DRAM can take one, and with probability `stall`
// not, drawn from g only then), settles the DUT (drv.eval_low()) and reads its mem_o.
template <class Drv>
MemPortCycle mem_port_settle(Drv& drv, const LineDram& dram, PrimGen* g = nullptr, double stall = 0) {
  auto& dut = drv.dut();
  MemPortCycle c;
  c.in = drive_mem_port(dram.req_ready() && !(stall > 0 && g->chance(stall)), dram, dut.mem_i);
  drv.eval_low();
  c.out = unpack_sig<MemPortReq>(dut.mem_o);
  c.req_fire = req_fire(c.out, c.in);
  c.rsp_fire = rsp_fire(c.out, c.in);
  return c;
}

}  // namespace pineda::tb
