// SPDX-License-Identifier: Apache-2.0
// front_end: the geometry front end behind the CP (docs/frontend.md):
//
//   cp_idraw -> INDEX FETCH -> if_index -> VERTEX TAGS -+-> vt_vertex -> VERTEX FETCH -> vf_vtx
//                                                       |      -> VTX -> vtx_clip ------------+
//                                                       +-> PRIM FIFO -> vt_prim --------> PA -> pa_tri
//
// Each of the seven boundaries passes through a stream_throttle driven by one bit of throttle_i
// (bit order as listed in the contract's BOUNDARIES after pw_mem: cp_idraw, if_index, vt_vertex,
// vt_prim, vf_vtx, vtx_clip, pa_tri). The consumer side of each throttle is exported in taps_o
// (pineda_pkg::fe_taps_t, one field triple per boundary, which pineda_top spreads onto its
// tap_* ports); pa_tri's consumer is out_* (the merge in front of SETUP).
//
// The triangle FIFO (PrimFifoDepth >= VTX_BATCH_TRIS entries, an SRAM stream_fifo) between vertex
// tags and PA lets vertex tags run ahead of PA. Vertex tags sends each vertex as it allocates it
// (vfetch_pkt_t.first on slot 0) and holds only the batch's newest triangle until the batch
// closes; PA starts a triangle once its three slots are loaded, so neither stream waits for the
// other's batch to complete. A batch has at most VTX_BATCH_TRIS triangles, so it fits the FIFO.
// 256 entries (about 200 vertices of a mesh) let vertex fetch see its misses a whole memory
// round trip before VTX needs them (docs/frontend.md §7).
//
// Memory: index fetch and vertex fetch are line clients (contract §2.1) on their own ports
// (if_mem_*, vf_mem_*); the line arbiter in pineda_top stamps MEM_LC_IF / MEM_LC_VF.
// idle_o: every unit idle and nothing valid on any boundary or in the FIFO (the CP switches
// from this path to IA only then, and starts a COPY only then).
module front_end #(
  parameter int unsigned PrimFifoDepth = 256   // >= VTX_BATCH_TRIS (SRAM stream_fifo)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // From the CP
  input  logic                      in_valid_i,
  output logic                      in_ready_o,
  input  pineda_pkg::idraw_pkt_t    in_i,
  // To the merge in front of SETUP (the pa_tri tap)
  output logic                      out_valid_o,
  input  logic                      out_ready_i,
  output pineda_pkg::pa_tri_pkt_t   out_o,
  // Stall injection: 0 cp_idraw, 1 if_index, 2 vt_vertex, 3 vt_prim, 4 vf_vtx, 5 vtx_clip, 6 pa_tri
  input  logic [6:0]                throttle_i,
  // Taps (consumer side of each throttle; pa_tri is out_*), spread by pineda_top onto its ports
  output pineda_pkg::fe_taps_t      taps_o,
  // Line client ports: index fetch (MEM_LC_IF) and vertex fetch (MEM_LC_VF)
  output pineda_pkg::mem_port_req_t if_mem_o,
  input  pineda_pkg::mem_port_rsp_t if_mem_i,
  output pineda_pkg::mem_port_req_t vf_mem_o,
  input  pineda_pkg::mem_port_rsp_t vf_mem_i,
  // Status
  output logic                      idle_o,
  output logic                      busy_o,       // some unit holds work (perf)
  output logic                      clip_busy_o   // PA's clipper is working
);

  // The taps, one variable per stream (a struct read and driven inside this module would be one
  // variable in a combinational loop for Verilator), gathered into taps_o
  logic tap_cp_idraw_valid, tap_cp_idraw_ready;
  pineda_pkg::idraw_pkt_t tap_cp_idraw;
  logic tap_if_index_valid, tap_if_index_ready;
  pineda_pkg::index_pkt_t tap_if_index;
  logic tap_vt_vertex_valid, tap_vt_vertex_ready;
  pineda_pkg::vfetch_pkt_t tap_vt_vertex;
  logic tap_vt_prim_valid, tap_vt_prim_ready;
  pineda_pkg::prim_pkt_t tap_vt_prim;
  logic tap_vf_vtx_valid, tap_vf_vtx_ready;
  pineda_pkg::vtx_in_pkt_t tap_vf_vtx;
  logic tap_vtx_clip_valid, tap_vtx_clip_ready;
  pineda_pkg::clip_vtx_pkt_t tap_vtx_clip;
  // fe_taps_t's fields in order (contracts/defs.py FE_TAPS), the first at the top bits
  assign taps_o = {
    tap_cp_idraw_valid, tap_cp_idraw_ready, tap_cp_idraw,
    tap_if_index_valid, tap_if_index_ready, tap_if_index,
    tap_vt_vertex_valid, tap_vt_vertex_ready, tap_vt_vertex,
    tap_vt_prim_valid, tap_vt_prim_ready, tap_vt_prim,
    tap_vf_vtx_valid, tap_vf_vtx_ready, tap_vf_vtx,
    tap_vtx_clip_valid, tap_vtx_clip_ready, tap_vtx_clip
  };

  // Producer side of each boundary (before its throttle).
  logic if_valid, if_ready;   pineda_pkg::index_pkt_t    if_pkt;
  logic vv_valid, vv_ready;   pineda_pkg::vfetch_pkt_t   vv_pkt;   // vertex tags -> vertex fetch
  logic vp_valid, vp_ready;   pineda_pkg::prim_pkt_t     vp_pkt;   // vertex tags -> FIFO
  logic pf_valid, pf_ready;   pineda_pkg::prim_pkt_t     pf_pkt;   // FIFO -> throttle
  logic vf_valid, vf_ready;   pineda_pkg::vtx_in_pkt_t   vf_pkt;
  logic vx_valid, vx_ready;   pineda_pkg::clip_vtx_pkt_t vx_pkt;
  logic pa_valid, pa_ready;   pineda_pkg::pa_tri_pkt_t   pa_pkt;

  logic if_idle, vt_idle, vf_idle, vx_idle, pa_idle, pf_empty, pf_full;
  logic [$clog2(PrimFifoDepth+2):0] pf_count;

  logic unused_sig;
  assign unused_sig = ^{pf_count, pf_full};

  // ---------------------------------------------------------------------------------------------
  // CP -> index fetch
  // ---------------------------------------------------------------------------------------------
  stream_throttle #(.Width($bits(in_i))) u_thr_cp_idraw (
    .clk_i, .rst_ni, .throttle_i(throttle_i[0]),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i(in_i),
    .out_valid_o(tap_cp_idraw_valid), .out_ready_i(tap_cp_idraw_ready),
    .out_data_o(tap_cp_idraw));

  index_fetch u_index_fetch (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_cp_idraw_valid),
    .in_ready_o      (tap_cp_idraw_ready),
    .in_i            (tap_cp_idraw),
    .out_valid_o     (if_valid),
    .out_ready_i     (if_ready),
    .out_o           (if_pkt),
    .mem_o           (if_mem_o),
    .mem_i           (if_mem_i),
    .idle_o          (if_idle)
  );

  stream_throttle #(.Width($bits(if_pkt))) u_thr_if_index (
    .clk_i, .rst_ni, .throttle_i(throttle_i[1]),
    .in_valid_i(if_valid), .in_ready_o(if_ready), .in_data_i(if_pkt),
    .out_valid_o(tap_if_index_valid), .out_ready_i(tap_if_index_ready),
    .out_data_o(tap_if_index));

  // ---------------------------------------------------------------------------------------------
  // Vertex tags: vertex stream and triangle stream
  // ---------------------------------------------------------------------------------------------
  vertex_tags u_vertex_tags (
    .clk_i,
    .rst_ni,
    .in_valid_i   (tap_if_index_valid),
    .in_ready_o   (tap_if_index_ready),
    .in_i         (tap_if_index),
    .vtx_valid_o  (vv_valid),
    .vtx_ready_i  (vv_ready),
    .vtx_o        (vv_pkt),
    .prim_valid_o (vp_valid),
    .prim_ready_i (vp_ready),
    .prim_o       (vp_pkt),
    .idle_o       (vt_idle)
  );

  stream_throttle #(.Width($bits(vv_pkt))) u_thr_vt_vertex (
    .clk_i, .rst_ni, .throttle_i(throttle_i[2]),
    .in_valid_i(vv_valid), .in_ready_o(vv_ready), .in_data_i(vv_pkt),
    .out_valid_o(tap_vt_vertex_valid), .out_ready_i(tap_vt_vertex_ready),
    .out_data_o(tap_vt_vertex));

  stream_fifo #(
    .Sram (1'b1),
    .Depth(PrimFifoDepth),
    .Width($bits(vp_pkt))
  ) u_prim_fifo (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (vp_valid),
    .in_ready_o  (vp_ready),
    .in_data_i   (vp_pkt),
    .out_valid_o (pf_valid),
    .out_ready_i (pf_ready),
    .out_data_o  (pf_pkt),
    .count_o     (pf_count),
    .empty_o     (pf_empty),
    .full_o      (pf_full)
  );

  stream_throttle #(.Width($bits(pf_pkt))) u_thr_vt_prim (
    .clk_i, .rst_ni, .throttle_i(throttle_i[3]),
    .in_valid_i(pf_valid), .in_ready_o(pf_ready), .in_data_i(pf_pkt),
    .out_valid_o(tap_vt_prim_valid), .out_ready_i(tap_vt_prim_ready),
    .out_data_o(tap_vt_prim));

  // ---------------------------------------------------------------------------------------------
  // Vertex fetch -> VTX
  // ---------------------------------------------------------------------------------------------
  vertex_fetch u_vertex_fetch (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_vt_vertex_valid),
    .in_ready_o      (tap_vt_vertex_ready),
    .in_i            (tap_vt_vertex),
    .out_valid_o     (vf_valid),
    .out_ready_i     (vf_ready),
    .out_o           (vf_pkt),
    .mem_o           (vf_mem_o),
    .mem_i           (vf_mem_i),
    .idle_o          (vf_idle)
  );

  stream_throttle #(.Width($bits(vf_pkt))) u_thr_vf_vtx (
    .clk_i, .rst_ni, .throttle_i(throttle_i[4]),
    .in_valid_i(vf_valid), .in_ready_o(vf_ready), .in_data_i(vf_pkt),
    .out_valid_o(tap_vf_vtx_valid), .out_ready_i(tap_vf_vtx_ready),
    .out_data_o(tap_vf_vtx));

  vtx u_vtx (
    .clk_i,
    .rst_ni,
    .in_valid_i  (tap_vf_vtx_valid),
    .in_ready_o  (tap_vf_vtx_ready),
    .in_i        (tap_vf_vtx),
    .out_valid_o (vx_valid),
    .out_ready_i (vx_ready),
    .out_o       (vx_pkt),
    .idle_o      (vx_idle)
  );

  stream_throttle #(.Width($bits(vx_pkt))) u_thr_vtx_clip (
    .clk_i, .rst_ni, .throttle_i(throttle_i[5]),
    .in_valid_i(vx_valid), .in_ready_o(vx_ready), .in_data_i(vx_pkt),
    .out_valid_o(tap_vtx_clip_valid), .out_ready_i(tap_vtx_clip_ready),
    .out_data_o(tap_vtx_clip));

  // ---------------------------------------------------------------------------------------------
  // PA
  // ---------------------------------------------------------------------------------------------
  pa u_pa (
    .clk_i,
    .rst_ni,
    .vtx_valid_i  (tap_vtx_clip_valid),
    .vtx_ready_o  (tap_vtx_clip_ready),
    .vtx_i        (tap_vtx_clip),
    .prim_valid_i (tap_vt_prim_valid),
    .prim_ready_o (tap_vt_prim_ready),
    .prim_i       (tap_vt_prim),
    .out_valid_o  (pa_valid),
    .out_ready_i  (pa_ready),
    .out_o        (pa_pkt),
    .idle_o       (pa_idle),
    .clip_busy_o
  );

  stream_throttle #(.Width($bits(pa_pkt))) u_thr_pa_tri (
    .clk_i, .rst_ni, .throttle_i(throttle_i[6]),
    .in_valid_i(pa_valid), .in_ready_o(pa_ready), .in_data_i(pa_pkt),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o(out_o));

  // ---------------------------------------------------------------------------------------------
  // Status
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    // A throttle's output valid implies its input valid, so the producer sides cover the taps;
    // the FIFO's output is covered by pf_empty.
    busy_o = !(if_idle && vt_idle && vf_idle && vx_idle && pa_idle && pf_empty);
    idle_o = !busy_o && !in_valid_i && !if_valid && !vv_valid && !vp_valid && !vf_valid &&
             !vx_valid && !pa_valid;
  end

`ifndef SYNTHESIS
  initial begin
    assert (PrimFifoDepth >= pineda_pkg::VTX_BATCH_TRIS)
      else $fatal(1, "front_end: the triangle FIFO must hold a whole batch (VTX_BATCH_TRIS)");
  end
  // Stream rules on the producer side of every unit (the taps are checked in pineda_top).
  stream_assert #(.Width($bits(if_pkt))) u_chk_if (
    .clk_i, .rst_ni, .valid_i(if_valid), .ready_i(if_ready), .data_i(if_pkt));
  stream_assert #(.Width($bits(vv_pkt))) u_chk_vv (
    .clk_i, .rst_ni, .valid_i(vv_valid), .ready_i(vv_ready), .data_i(vv_pkt));
  stream_assert #(.Width($bits(vp_pkt))) u_chk_vp (
    .clk_i, .rst_ni, .valid_i(vp_valid), .ready_i(vp_ready), .data_i(vp_pkt));
  stream_assert #(.Width($bits(vf_pkt))) u_chk_vf (
    .clk_i, .rst_ni, .valid_i(vf_valid), .ready_i(vf_ready), .data_i(vf_pkt));
  stream_assert #(.Width($bits(vx_pkt))) u_chk_vx (
    .clk_i, .rst_ni, .valid_i(vx_valid), .ready_i(vx_ready), .data_i(vx_pkt));
  stream_assert #(.Width($bits(pa_pkt))) u_chk_pa (
    .clk_i, .rst_ni, .valid_i(pa_valid), .ready_i(pa_ready), .data_i(pa_pkt));
  stream_assert #(.Width($bits(if_mem_o.req))) u_chk_if_line (
    .clk_i, .rst_ni, .valid_i(if_mem_o.valid), .ready_i(if_mem_i.req_ready), .data_i(if_mem_o.req));
  stream_assert #(.Width($bits(vf_mem_o.req))) u_chk_vf_line (
    .clk_i, .rst_ni, .valid_i(vf_mem_o.valid), .ready_i(vf_mem_i.req_ready), .data_i(vf_mem_o.req));
`endif

endmodule
