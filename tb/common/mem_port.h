// SPDX-License-Identifier: Apache-2.0
// A unit bench's side of a bundled line port (docs/rtl_conventions.md): the DUT's
// `mem_o` (mem_port_req_t) and `mem_i` (mem_port_rsp_t) against a LineDram.
//
//   const MemPortRsp in = tb::drive_mem_port(dram.req_ready() && !stall, dram, dut.mem_i);
//   drv.eval_low();
//   const MemPortReq out = tb::unpack_sig<MemPortReq>(dut.mem_o);
//   const bool req_fire = tb::req_fire(out, in), rsp_fire = tb::rsp_fire(out, in);
//   ...
//   drv.edge();
//   dram.clock(req_fire, out.req, rsp_fire);
#pragma once

#include "line_dram.h"
#include "pineda_contract.h"
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

}  // namespace pineda::tb
