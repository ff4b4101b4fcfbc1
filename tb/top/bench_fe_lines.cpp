// SPDX-License-Identifier: Apache-2.0
// The geometry front end alone (rtl/top/front_end.sv) on the line port: a rate bench for
// scenes with DRAW_FE draws, without the rest of the GPU.
//
// The scene is run through the golden model (model::PinedaTop) with its trace on; the CP's idraw
// packets (cp_idraw) drive the front end's input and its output (pa_tri) is checked packet for
// packet against the model's. Index fetch and vertex fetch share one LineDram (latency, jitter
// and bytes per clock as given; default 200 cycles, 32 bytes per clock): the harness takes one
// request per clock, alternating priority, and routes each response to the client that asked
// (responses come back in request order). No stalls: the output is always ready.
//
//   build/bench_fe_lines [scene] [latency] [bytes_per_clock]     (default fe_bunny_full_opt 200 32)
// Prints cycles, triangles into PA (vt_prim), vertices out of vertex fetch (vf_vtx) and VTX
// (vtx_clip) per clock, and the lines each client read.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "Vfront_end.h"
#include "line_dram.h"
#include "scenes.h"
#include "top/pineda_top.h"
#include "vl_bits.h"
#include "vl_driver.h"

using namespace pineda;

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "fe_bunny_full_opt";
  tb::LineDramConfig dcfg;
  if (argc > 2) dcfg.latency = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  if (argc > 3) dcfg.bytes_per_clock = std::strtod(argv[3], nullptr);
  const auto info = find_scene(name);
  if (!info) {
    std::fprintf(stderr, "bench_fe_lines: no scene %s\n", name.c_str());
    return 2;
  }
  const SceneImage img = info->build(1);

  // Golden model: the front end's input and output streams.
  Memory model_mem = img.mem;
  model::PinedaTop gpu(model_mem);
  gpu.set_num_rast(1);
  for (const auto& [idx, val] : img.reg_writes) gpu.reg_write(idx, val);
  std::vector<model::HostAction> actions;
  for (const auto& w : img.wait_releases) actions.push_back({w, 0});
  gpu.run_with_host(actions);
  const model::Trace& tr = gpu.trace();
  const std::vector<IDrawPkt>& in = tr.cp_idraw;
  const std::vector<PaTriPkt>& exp = tr.pa_tri;
  if (in.empty()) {
    std::fprintf(stderr, "bench_fe_lines: scene %s has no DRAW_FE draw\n", name.c_str());
    return 2;
  }

  Memory mem = img.mem;  // the front end only reads (vertex and index buffers)
  tb::DriverConfig cfg;
  cfg.run = {"bench_fe_lines." + name, 1, "build/bench_fe_lines " + name};
  tb::VlDriver<Vfront_end> drv(cfg);
  Vfront_end& dut = drv.dut();
  tb::LineDram dram(mem, dcfg);
  dut.in_valid_i = 0;
  dut.out_ready_i = 1;
  dut.throttle_i = 0;
  tb::pack_sig(MemPortRsp{}, dut.if_mem_i);
  tb::pack_sig(MemPortRsp{}, dut.vf_mem_i);
  drv.reset();

  size_t next_in = 0, next_out = 0;
  uint64_t prims = 0, vf_vertices = 0, vtx_vertices = 0, if_lines = 0, vf_lines = 0;
  std::deque<int> order;  // the client of each request in flight (0: index fetch, 1: vertex fetch)
  bool vf_first = false;  // priority this clock
  uint64_t first_cycle = 0, last_cycle = 0;
  // Where the time goes (counted from the first idraw packet to the last pa_tri): index packets
  // taken by vertex tags, cycles index fetch offered one that vertex tags did not take, cycles it
  // had none; cycles the triangle FIFO in front of PA was full (vt_prim offered, not taken) and
  // cycles VTX offered a vertex PA did not take.
  uint64_t idx_taken = 0, idx_blocked = 0, idx_none = 0, prim_blocked = 0, clip_blocked = 0;
  bool ok = true;
  while (next_out < exp.size()) {
    dut.in_valid_i = next_in < in.size();
    if (next_in < in.size()) tb::pack_sig(in[next_in], dut.in_i);
    const bool rv = dram.rsp_valid();
    const int rsp_to = rv ? order.front() : -1;
    MemPortRsp if_in, vf_in;  // the two clients' mem_i (request ready set once granted)
    if_in.rsp_valid = rsp_to == 0;
    vf_in.rsp_valid = rsp_to == 1;
    if_in.rsp = vf_in.rsp = dram.rsp();
    // One request per clock into the memory: the prioritised client if it asks, else the other.
    tb::pack_sig(if_in, dut.if_mem_i);
    tb::pack_sig(vf_in, dut.vf_mem_i);
    drv.eval_low();
    const MemPortReq if_out = tb::unpack_sig<MemPortReq>(dut.if_mem_o);
    const MemPortReq vf_out = tb::unpack_sig<MemPortReq>(dut.vf_mem_o);
    const bool ifv = if_out.valid, vfv = vf_out.valid;
    int grant = -1;
    if (dram.req_ready() && (ifv || vfv)) grant = (vf_first ? vfv : !ifv) ? 1 : 0;
    if_in.req_ready = grant == 0;
    vf_in.req_ready = grant == 1;
    tb::pack_sig(if_in, dut.if_mem_i);
    tb::pack_sig(vf_in, dut.vf_mem_i);
    drv.eval_low();
    MemLineReq req;
    if (grant == 0) req = tb::unpack_sig<MemPortReq>(dut.if_mem_o).req;
    if (grant == 1) req = tb::unpack_sig<MemPortReq>(dut.vf_mem_o).req;
    if (grant >= 0) {
      req.src = grant == 0 ? MEM_LC_IF : MEM_LC_VF;
      order.push_back(grant);
      (grant == 0 ? if_lines : vf_lines) += 1;
      vf_first = grant == 0;
    }
    const bool rsp_fire = rv && (rsp_to == 0 ? if_out.rsp_ready : vf_out.rsp_ready);
    if (rv && !rsp_fire) {
      std::fprintf(stderr, "bench_fe_lines: a line response was not taken at once\n");
      ok = false;
      break;
    }
    if (rsp_fire) order.pop_front();
    if (dut.in_valid_i && dut.in_ready_o) {
      if (next_in == 0) first_cycle = drv.cycle();
      ++next_in;
      drv.progress();
    }
    if (next_in > 0 && next_out < exp.size()) {
      if (dut.tap_if_index_valid_o) {
        ++(dut.tap_if_index_ready_o ? idx_taken : idx_blocked);
      } else {
        ++idx_none;
      }
      if (dut.tap_vt_prim_valid_o && !dut.tap_vt_prim_ready_o) ++prim_blocked;
      if (dut.tap_vtx_clip_valid_o && !dut.tap_vtx_clip_ready_o) ++clip_blocked;
    }
    if (dut.tap_vt_prim_valid_o && dut.tap_vt_prim_ready_o) {
      const auto p = tb::unpack_sig<PrimPkt>(dut.tap_vt_prim_o);
      if (!p.eop && !p.wr) ++prims;
    }
    if (dut.tap_vf_vtx_valid_o && dut.tap_vf_vtx_ready_o) {
      const auto v = tb::unpack_sig<VtxInPkt>(dut.tap_vf_vtx_o);
      if (!v.eop && v.kind == VTX_KIND_VERTEX) ++vf_vertices;
    }
    if (dut.tap_vtx_clip_valid_o && dut.tap_vtx_clip_ready_o) {
      const auto v = tb::unpack_sig<ClipVtxPkt>(dut.tap_vtx_clip_o);
      if (!v.eop) ++vtx_vertices;
    }
    if (dut.out_valid_o) {
      const auto t = tb::unpack_sig<PaTriPkt>(dut.out_o);
      if (!(t == exp[next_out])) {
        std::fprintf(stderr, "bench_fe_lines: pa_tri packet %zu differs from the model\n  rtl:   %s\n  model: %s\n",
                     next_out, t.str().c_str(), exp[next_out].str().c_str());
        ok = false;
        break;
      }
      ++next_out;
      last_cycle = drv.cycle();
      drv.progress();
    }
    drv.edge();
    dram.clock(grant >= 0, req, rsp_fire);
    if (drv.failed()) {
      std::fprintf(stderr, "%s\n", drv.assertion_report().c_str());
      ok = false;
      break;
    }
    if (drv.stalled()) {
      std::fprintf(stderr, "%s\n", drv.no_progress_report("pa_tri " + std::to_string(next_out) + " of " +
                                                          std::to_string(exp.size())).c_str());
      ok = false;
      break;
    }
  }
  const double cyc = static_cast<double>(last_cycle - first_cycle + 1);
  std::printf("%s: %s; %zu idraw packets, %zu pa_tri packets; latency %u, %.1f bytes/clock\n", name.c_str(),
              ok ? "PASS (pa_tri as the model)" : "FAIL", in.size(), exp.size(), dcfg.latency, dcfg.bytes_per_clock);
  std::printf("  %.0f cycles: %.3f triangles/clock into PA (%llu), %.3f vertices/clock out of vertex fetch (%llu), "
              "%.3f out of VTX\n",
              cyc, static_cast<double>(prims) / cyc, static_cast<unsigned long long>(prims),
              static_cast<double>(vf_vertices) / cyc, static_cast<unsigned long long>(vf_vertices),
              static_cast<double>(vtx_vertices) / cyc);
  std::printf("  lines read: index fetch %llu, vertex fetch %llu (%.1f bytes/clock)\n",
              static_cast<unsigned long long>(if_lines), static_cast<unsigned long long>(vf_lines),
              64.0 * static_cast<double>(if_lines + vf_lines) / cyc);
  std::printf("  index stream into vertex tags: %llu taken, %llu cycles blocked, %llu cycles empty; triangle FIFO "
              "full %llu cycles; VTX -> PA blocked %llu cycles\n",
              static_cast<unsigned long long>(idx_taken), static_cast<unsigned long long>(idx_blocked),
              static_cast<unsigned long long>(idx_none), static_cast<unsigned long long>(prim_blocked),
              static_cast<unsigned long long>(clip_blocked));
  return ok ? 0 : 1;
}
