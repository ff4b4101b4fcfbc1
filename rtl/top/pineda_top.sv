// SPDX-License-Identifier: Apache-2.0
// pineda_top: the pipeline CP -> IA -> SETUP -> raster_array (COARSE -> HIZ -> FINE, 1/2/4 rasterizers)
// -> ZS (early port) -> INTERP -> pixel_stage (TEX, COMB) -> ZS (late port) -> PW -> memory, the
// geometry front end CP -> front_end (index fetch, vertex tags, vertex fetch, VTX, PA) -> SETUP for
// DRAW_FE draws, the DMA copy and fill engine (COPY, CLEAR) and the resolve engine (RESOLVE), both
// fed by the CP.
//
// The two paths into SETUP: IA's triangles (pre-transformed DRAW) and PA's (DRAW_FE) go through
// a merge that takes whichever is valid; the CP only switches path once the other one has
// drained (cp.sv), so at most one of them is ever valid and API order holds.
// The seven front-end boundaries (cp_idraw, if_index, vt_vertex, vt_prim, vf_vtx, vtx_clip,
// pa_tri) are throttled and tapped like the others inside rtl/top/front_end.sv.
// Memory: the external port is the line port (mem_line_req_t / mem_line_rsp_t, docs/contract.md
// §2.1). mem_line_arbiter serves the line clients, client MEM_LC_X on its element X: CP, IA, PW,
// ZS (depth tile cache), DMA (which the resolve engine shares: the CP runs one job at a time),
// TEX (its L1), and the front end's index fetch (MEM_LC_IF) and vertex fetch (MEM_LC_VF). Every
// client speaks lines: CP and IA through line_stream_reader, PW and ZS are caches of lines, the
// DMA and the resolve engine copy, fill and write lines, IF and VF fetch lines.
// Its per-client counters (requests granted, cycles waiting) are mem_grants_o / mem_waits_o,
// indexed by client id (ids without a client read 0).
//
// Each tapped boundary B of contracts/defs.py BOUNDARIES passes through a stream_throttle driven
// by throttle_i[pineda_pkg::BOUNDARY_<B>] and is exported as tap_<B>_valid_o / _ready_o / _o,
// the consumer side of the throttle: a transfer on B is tap_<B>_valid_o && tap_<B>_ready_o. pw_mem sits between the pixel
// writer's line port and the line arbiter.
// Register port: addresses >= REG_PERF0 read perf counter (addr - REG_PERF0), the rest go to the
// CP. End-of-pipe fences: the CP's token travels down the pipeline like a draw and the pixel
// writer returns it on eop_done once it has written back its colour cache and every line write
// is acknowledged. COPY waits for pipe_idle: every unit after the CP idle (PW: no quad or token
// held; its cache may hold dirty lines) and nothing valid on any boundary after the CP; while the
// CP offers the job, PW's flush_i is raised and the job reaches the DMA only once PW is clean
// (no dirty line, every line write acknowledged). pw_flush_i: the host's flush request (raise
// it with the pipeline drained, before reading memory; pw_clean_o then says when memory holds
// every pixel); pw_flushing_o: PW is flushing on a request (COPY or host), for the harness's
// model of the cache.
// Stream-rule checkers (simulation only) are bound in from outside by rtl/top/pineda_top_bind.sv:
// pineda_top_tap_chk (generated from contracts/defs.py BOUNDARIES) on every tap, pineda_top_chk on
// the producer side of each unit, the memory clients and both directions of the memory port.
// NumRast rasterizers (1, 2 or 4; rtl/rast/raster_array.sv) each own interleaved raster tiles:
// coarse_tile is then NumRast boundaries (tap_coarse_tile_*[r], all throttled by one bit),
// fine_quad the merged quad stream into the pixel writer (in order per rasterizer, not
// globally). rast_busy_o[r]: rasterizer r holds work (for the benchmark's load balance).
module pineda_top #(
  parameter int unsigned CpFetchLines  = 32,   // CP fetch: line buffer (512 dwords)
  parameter int unsigned IaFetchLines  = 64,   // IA: 64 lines, 4 dwords/clock at 200 cycles
  parameter int unsigned NumRast       = 1,    // rasterizers: 1, 2 or 4
  parameter int unsigned RastFifoDepth = 4,    // setup packets queued per rasterizer (NumRast > 1)
  // Simulation only (units.toml's Verilated pineda_top models; synthesis keeps 0): the memory
  // port's inputs, pw_flush_i and throttle_i pass through a register, and the harness drives
  // each one clock ahead (harness/top_harness.cpp), so every unit sees the same values in the
  // same cycle as with 0. This takes the pipeline's logic out of Verilator's input-combinational
  // region, which every eval() runs (docs/verification.md "Simulation speed").
  parameter int unsigned SimInputRegs  = 0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Host register port
  input  logic                   reg_valid_i,
  input  logic                   reg_we_i,
  input  logic [7:0]             reg_addr_i,
  input  logic [31:0]            reg_wdata_i,
  output logic [31:0]            reg_rdata_o,
  output logic                   irq_o,
  // Memory port (line port)
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output pineda_pkg::mem_line_req_t mem_req_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t mem_rsp_i,
  // Line arbiter counters per client id: requests granted, cycles waiting (valid && !ready)
  output logic [pineda_pkg::MEM_LINE_CLIENTS_MAX-1:0][31:0] mem_grants_o,
  output logic [pineda_pkg::MEM_LINE_CLIENTS_MAX-1:0][31:0] mem_waits_o,
  // The pixel writer's colour cache: host flush request, clean (memory holds every pixel), flushing
  input  logic                   pw_flush_i,
  output logic                   pw_clean_o,
  output logic                   pw_flushing_o,
  // Stall injection: bit pineda_pkg::BOUNDARY_<B> throttles boundary B (contracts/defs.py)
  input  logic [pineda_pkg::NUM_BOUNDARIES-1:0] throttle_i,
  // Taps (consumer side of each throttle)
  output logic                   tap_cp_draw_valid_o,
  output logic                   tap_cp_draw_ready_o,
  output pineda_pkg::draw_pkt_t  tap_cp_draw_o,
  output logic                   tap_ia_tri_valid_o,
  output logic                   tap_ia_tri_ready_o,
  output pineda_pkg::tri_pkt_t   tap_ia_tri_o,
  output logic                   tap_setup_tri_valid_o,
  output logic                   tap_setup_tri_ready_o,
  output pineda_pkg::setup_pkt_t tap_setup_tri_o,
  output logic [NumRast-1:0]     tap_coarse_tile_valid_o,
  output logic [NumRast-1:0]     tap_coarse_tile_ready_o,
  output logic [NumRast-1:0][pineda_pkg::TILE_PKT_BITS-1:0] tap_coarse_tile_o,
  output logic                   tap_fine_quad_valid_o,
  output logic                   tap_fine_quad_ready_o,
  output pineda_pkg::quad_pkt_t  tap_fine_quad_o,
  output logic                   tap_pw_mem_valid_o,
  output logic                   tap_pw_mem_ready_o,
  output pineda_pkg::mem_line_req_t tap_pw_mem_o,
  output logic                      tap_cp_idraw_valid_o,
  output logic                      tap_cp_idraw_ready_o,
  output pineda_pkg::idraw_pkt_t    tap_cp_idraw_o,
  output logic                      tap_if_index_valid_o,
  output logic                      tap_if_index_ready_o,
  output pineda_pkg::index_pkt_t    tap_if_index_o,
  output logic                      tap_vt_vertex_valid_o,
  output logic                      tap_vt_vertex_ready_o,
  output pineda_pkg::vfetch_pkt_t   tap_vt_vertex_o,
  output logic                      tap_vt_prim_valid_o,
  output logic                      tap_vt_prim_ready_o,
  output pineda_pkg::prim_pkt_t     tap_vt_prim_o,
  output logic                      tap_vf_vtx_valid_o,
  output logic                      tap_vf_vtx_ready_o,
  output pineda_pkg::vtx_in_pkt_t   tap_vf_vtx_o,
  output logic                      tap_vtx_clip_valid_o,
  output logic                      tap_vtx_clip_ready_o,
  output pineda_pkg::clip_vtx_pkt_t tap_vtx_clip_o,
  output logic                      tap_pa_tri_valid_o,
  output logic                      tap_pa_tri_ready_o,
  output pineda_pkg::pa_tri_pkt_t   tap_pa_tri_o,
  output logic                      tap_zs_quad_valid_o,
  output logic                      tap_zs_quad_ready_o,
  output pineda_pkg::quad_pkt_t     tap_zs_quad_o,
  output logic                      tap_interp_quad_valid_o,
  output logic                      tap_interp_quad_ready_o,
  output pineda_pkg::interp_pkt_t   tap_interp_quad_o,
  output logic                      tap_comb_quad_valid_o,
  output logic                      tap_comb_quad_ready_o,
  output pineda_pkg::interp_pkt_t   tap_comb_quad_o,
  output logic [NumRast-1:0]     rast_busy_o,
  output logic                   fe_busy_o,       // a front-end unit holds work
  output logic                   pa_clip_busy_o,  // PA's clipper is working
  output logic                   resolve_busy_o   // the resolve engine holds a job (RESOLVE)
);

  // Line clients: ids 0 .. NumClients-1 (MEM_LC_CP, IA, PW, DMA, IF, VF, ZS, TEX).
  localparam int unsigned NumClients = 8;

  // The inputs as the units see them: the pins, or (SimInputRegs) the pins one clock later.
  logic                                  mem_req_ready, mem_rsp_valid, pw_flush_in;
  pineda_pkg::mem_line_rsp_t             mem_rsp;
  logic [pineda_pkg::NUM_BOUNDARIES-1:0] throttle;
  if (SimInputRegs != 0) begin : g_sim_in_q
    logic                                  mem_req_ready_q, mem_rsp_valid_q, pw_flush_q;
    pineda_pkg::mem_line_rsp_t             mem_rsp_q;
    logic [pineda_pkg::NUM_BOUNDARIES-1:0] throttle_q;
    // No reset: the harness drives the pins through reset, so the first clock after it sees
    // the first cycle's values.
    always_ff @(posedge clk_i) begin
      mem_req_ready_q <= mem_req_ready_i;
      mem_rsp_valid_q <= mem_rsp_valid_i;
      mem_rsp_q       <= mem_rsp_i;
      pw_flush_q      <= pw_flush_i;
      throttle_q      <= throttle_i;
    end
    assign mem_req_ready = mem_req_ready_q;
    assign mem_rsp_valid = mem_rsp_valid_q;
    assign mem_rsp       = mem_rsp_q;
    assign pw_flush_in   = pw_flush_q;
    assign throttle      = throttle_q;
  end else begin : g_in
    assign mem_req_ready = mem_req_ready_i;
    assign mem_rsp_valid = mem_rsp_valid_i;
    assign mem_rsp       = mem_rsp_i;
    assign pw_flush_in   = pw_flush_i;
    assign throttle      = throttle_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Producer side of each boundary (before the throttle)
  // ---------------------------------------------------------------------------------------------
  logic cp_valid,     cp_ready;      pineda_pkg::draw_pkt_t  cp_draw;
  logic ia_valid,     ia_ready;      pineda_pkg::tri_pkt_t   ia_tri;
  logic setup_valid,  setup_ready;   pineda_pkg::setup_pkt_t setup_tri;
  logic coarse_valid, coarse_ready;  // rasterizer 0's coarse output (perf counters)
  logic fine_valid,   fine_ready;    pineda_pkg::quad_pkt_t  fine_quad;
  logic pw_valid,     pw_ready;      pineda_pkg::mem_line_req_t pw_req;

  logic cp_idle, ia_idle, setup_idle, coarse_idle, fine_idle, pw_idle;
  logic pw_quiet, pw_clean, pw_flush;
  logic zs_valid, zs_ready;  pineda_pkg::quad_pkt_t zs_quad;   // ZS -> PW (before the throttle)
  logic zs_mem_valid, zs_mem_ready;  pineda_pkg::mem_line_req_t zs_req;
  logic zs_quiet, zs_clean, zs_idle;
  logic zs_span_valid, zs_flush, copy_zs, fill_zs;
  logic [25:0] zs_span_lo, zs_span_hi;
  logic ip_valid, ip_ready;  pineda_pkg::interp_pkt_t ip_quad; // INTERP -> PW (before the throttle)
  logic ip_idle;
  // The pixel stage (TEX, COMB) -> PW (before the throttle)
  logic px_valid, px_ready;  pineda_pkg::interp_pkt_t px_quad;
  logic px_idle, tex_idle, comb_idle, tex_fault, tex_inval_req;
  logic [2:0]  tex_fault_cause;
  logic        tex_ev_quad;
  logic [2:0]  tex_ev_samples;
  logic [4:0]  tex_ev_texels;
  logic [1:0]  tex_ev_lines;
  logic [31:0] valid_base, valid_limit;
  logic pipe_idle;
  logic eop_done_valid, eop_done_ready;

  // Line clients' payloads (valid/ready are the cl_* elements below).
  pineda_pkg::mem_line_req_t tex_req;
  pineda_pkg::mem_line_rsp_t pw_rsp;
  // The bundled line ports (CP, IA, index fetch, vertex fetch, DMA, resolve engine). The DMA and
  // the resolve engine share client MEM_LC_DMA (the CP runs one of them at a time); the engine
  // tags its requests 1, the DMA 0, and responses are routed by the tag.
  pineda_pkg::mem_port_req_t cp_mem_req, ia_mem_req, if_mem_req, vf_mem_req, dma_mem_req, rs_mem_req;
  pineda_pkg::mem_port_rsp_t cp_mem_rsp, ia_mem_rsp, if_mem_rsp, vf_mem_rsp, dma_mem_rsp, rs_mem_rsp;
  logic dma_unit_idle, rs_idle;
  // Line arbiter client ports (plain 2-D arrays: Yosys 0.55 sizes packed arrays of structs wrongly)
  logic [NumClients-1:0]                                   cl_req_valid, cl_req_ready;
  logic [NumClients-1:0][pineda_pkg::MEM_LINE_REQ_BITS-1:0] cl_req;
  logic [NumClients-1:0]                                   cl_rsp_valid, cl_rsp_ready;
  logic [NumClients-1:0][pineda_pkg::MEM_LINE_RSP_BITS-1:0] cl_rsp;
  logic [NumClients-1:0][31:0]                             cl_grants, cl_waits;

  // Front end
  logic fe_valid, fe_ready;  pineda_pkg::idraw_pkt_t fe_pkt;  // CP -> front end
  logic fe_idle;
  logic ia_path_idle;
  logic tri_valid, tri_ready;  pineda_pkg::tri_pkt_t tri_in;   // merge -> SETUP

  // The bundled line ports of the CP, IA, index fetch and vertex fetch on their clients (the
  // arbiter's ports stay plain arrays: a bundle in and out per client).
  assign {cl_req_valid[pineda_pkg::MEM_LC_CP], cl_req[pineda_pkg::MEM_LC_CP], cl_rsp_ready[pineda_pkg::MEM_LC_CP]} = cp_mem_req;
  assign {cl_req_valid[pineda_pkg::MEM_LC_IA], cl_req[pineda_pkg::MEM_LC_IA], cl_rsp_ready[pineda_pkg::MEM_LC_IA]} = ia_mem_req;
  assign {cl_req_valid[pineda_pkg::MEM_LC_IF], cl_req[pineda_pkg::MEM_LC_IF], cl_rsp_ready[pineda_pkg::MEM_LC_IF]} = if_mem_req;
  assign {cl_req_valid[pineda_pkg::MEM_LC_VF], cl_req[pineda_pkg::MEM_LC_VF], cl_rsp_ready[pineda_pkg::MEM_LC_VF]} = vf_mem_req;
  assign cp_mem_rsp = {cl_req_ready[pineda_pkg::MEM_LC_CP], cl_rsp_valid[pineda_pkg::MEM_LC_CP], cl_rsp[pineda_pkg::MEM_LC_CP]};
  assign ia_mem_rsp = {cl_req_ready[pineda_pkg::MEM_LC_IA], cl_rsp_valid[pineda_pkg::MEM_LC_IA], cl_rsp[pineda_pkg::MEM_LC_IA]};
  assign if_mem_rsp = {cl_req_ready[pineda_pkg::MEM_LC_IF], cl_rsp_valid[pineda_pkg::MEM_LC_IF], cl_rsp[pineda_pkg::MEM_LC_IF]};
  assign vf_mem_rsp = {cl_req_ready[pineda_pkg::MEM_LC_VF], cl_rsp_valid[pineda_pkg::MEM_LC_VF], cl_rsp[pineda_pkg::MEM_LC_VF]};

  // The host register port (loose at the top, for the harness) to the CP's bundle.
  pineda_pkg::reg_req_t cp_reg_req;
  pineda_pkg::reg_rsp_t cp_reg_rsp;
  always_comb begin
    cp_reg_req.valid = reg_valid_i;
    cp_reg_req.we    = reg_we_i;
    cp_reg_req.addr  = reg_addr_i;
    cp_reg_req.wdata = reg_wdata_i;
  end
  assign irq_o = cp_reg_rsp.irq;

  logic [31:0] perf_rdata;

  // CP -> DMA copy jobs
  logic        copy_valid, copy_ready, dma_idle, dma_job_valid, dma_job_ready;
  // CP -> resolve engine (RESOLVE)
  pineda_pkg::resolve_pkt_t resolve_pkt;
  logic        resolve_valid, resolve_ready, rs_job_valid, rs_job_ready;
  logic [31:0] copy_src, copy_dst, copy_len;
  // CP -> DMA fill / ZS fast clear (CLEAR): ZS takes depth/stencil clears (zs_fast_clear = 1)
  // unless CONTROL.NO_FAST_CLEAR; colour clears are DMA fills.
  pineda_pkg::clear_pkt_t clear_pkt, hiz_clear_pkt;
  logic        fill_valid, fill_ready, dma_fill_valid, dma_fill_ready;
  logic        zs_clear_valid, zs_clear_ready, zs_fast_clear;
  assign zs_fast_clear = 1'b1;
  // CP -> HIZ of every rasterizer: every depth clear, before its fill or fast clear.
  logic        hiz_clear_valid, hiz_clear_ready;
  logic [NumRast-1:0] hiz_tested, hiz_rejected;

  // ---------------------------------------------------------------------------------------------
  // Units
  // ---------------------------------------------------------------------------------------------
  cp #(
    .FetchLines(CpFetchLines)
  ) u_cp (
    .clk_i,
    .rst_ni,
    .reg_i           (cp_reg_req),
    .reg_o           (cp_reg_rsp),
    .mem_o           (cp_mem_req),
    .mem_i           (cp_mem_rsp),
    .out_valid_o     (cp_valid),
    .out_ready_i     (cp_ready),
    .out_o           (cp_draw),
    .fe_valid_o      (fe_valid),
    .fe_ready_i      (fe_ready),
    .fe_o            (fe_pkt),
    .copy_valid_o    (copy_valid),
    .copy_ready_i    (copy_ready),
    .copy_src_o      (copy_src),
    .copy_dst_o      (copy_dst),
    .copy_len_o      (copy_len),
    .dma_idle_i      (dma_idle),
    .resolve_o       (resolve_pkt),
    .resolve_valid_o (resolve_valid),
    .resolve_ready_i (resolve_ready),
    .clear_o         (clear_pkt),
    .fill_valid_o    (fill_valid),
    .fill_ready_i    (fill_ready),
    .zs_clear_valid_o(zs_clear_valid),
    .zs_clear_ready_i(zs_clear_ready),
    .zs_fast_clear_i (zs_fast_clear),
    .hiz_clear_valid_o(hiz_clear_valid),
    .hiz_clear_ready_i(hiz_clear_ready),
    .hiz_clear_o     (hiz_clear_pkt),
    .eop_done_valid_i(eop_done_valid),
    .eop_done_ready_o(eop_done_ready),
    .tex_fault_i     (tex_fault),
    .valid_base_o    (valid_base),
    .valid_limit_o   (valid_limit),
    .pipe_idle_i     (pipe_idle),
    .ia_idle_i       (ia_path_idle),
    .fe_idle_i       (fe_idle),
    .idle_o          (cp_idle)
  );

  dma u_dma (
    .clk_i,
    .rst_ni,
    .job_valid_i     (dma_job_valid),
    .job_ready_o     (dma_job_ready),
    .job_src_i       (copy_src),
    .job_dst_i       (copy_dst),
    .job_len_i       (copy_len),
    .fill_valid_i    (dma_fill_valid),
    .fill_ready_o    (dma_fill_ready),
    .fill_i          (clear_pkt),
    .mem_o           (dma_mem_req),
    .mem_i           (dma_mem_rsp),
    .idle_o          (dma_unit_idle)
  );

  // The MSAA resolve engine (RESOLVE, docs/om.md section 7) beside the DMA.
  resolve u_resolve (
    .clk_i,
    .rst_ni,
    .job_valid_i     (rs_job_valid),
    .job_ready_o     (rs_job_ready),
    .job_i           (resolve_pkt),
    .mem_o           (rs_mem_req),
    .mem_i           (rs_mem_rsp),
    .idle_o          (rs_idle)
  );

  // Client MEM_LC_DMA: the engine's request first; responses routed by tag[0].
  pineda_pkg::mem_line_rsp_t dma_cl_rsp;
  assign dma_cl_rsp = cl_rsp[pineda_pkg::MEM_LC_DMA];
  assign cl_req_valid[pineda_pkg::MEM_LC_DMA] = dma_mem_req.valid || rs_mem_req.valid;
  assign cl_req[pineda_pkg::MEM_LC_DMA]       = rs_mem_req.valid ? rs_mem_req.req : dma_mem_req.req;
  assign cl_rsp_ready[pineda_pkg::MEM_LC_DMA] =
      dma_cl_rsp.tag[0] ? rs_mem_req.rsp_ready : dma_mem_req.rsp_ready;
  assign dma_mem_rsp.req_ready = cl_req_ready[pineda_pkg::MEM_LC_DMA] && !rs_mem_req.valid;
  assign dma_mem_rsp.rsp_valid = cl_rsp_valid[pineda_pkg::MEM_LC_DMA] && !dma_cl_rsp.tag[0];
  assign dma_mem_rsp.rsp       = dma_cl_rsp;
  assign rs_mem_rsp.req_ready  = cl_req_ready[pineda_pkg::MEM_LC_DMA];
  assign rs_mem_rsp.rsp_valid  = cl_rsp_valid[pineda_pkg::MEM_LC_DMA] && dma_cl_rsp.tag[0];
  assign rs_mem_rsp.rsp        = dma_cl_rsp;
  assign dma_idle      = dma_unit_idle && rs_idle;
  assign resolve_busy_o = !rs_idle;

  stream_throttle #(
    .Width($bits(cp_draw))
  ) u_thr_cp_draw (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_CP_DRAW]),
    .in_valid_i  (cp_valid),
    .in_ready_o  (cp_ready),
    .in_data_i   (cp_draw),
    .out_valid_o (tap_cp_draw_valid_o),
    .out_ready_i (tap_cp_draw_ready_o),
    .out_data_o  (tap_cp_draw_o)
  );

  ia #(
    .FetchLines(IaFetchLines)
  ) u_ia (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_cp_draw_valid_o),
    .in_ready_o      (tap_cp_draw_ready_o),
    .in_i            (tap_cp_draw_o),
    .out_valid_o     (ia_valid),
    .out_ready_i     (ia_ready),
    .out_o           (ia_tri),
    .mem_o           (ia_mem_req),
    .mem_i           (ia_mem_rsp),
    .idle_o          (ia_idle)
  );

  stream_throttle #(
    .Width($bits(ia_tri))
  ) u_thr_ia_tri (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_IA_TRI]),
    .in_valid_i  (ia_valid),
    .in_ready_o  (ia_ready),
    .in_data_i   (ia_tri),
    .out_valid_o (tap_ia_tri_valid_o),
    .out_ready_i (tap_ia_tri_ready_o),
    .out_data_o  (tap_ia_tri_o)
  );

  // The front end: index fetch and vertex fetch on their own line client ports (MEM_LC_IF,
  // MEM_LC_VF, bundled above).

  pineda_pkg::fe_taps_t fe_taps;
  assign tap_cp_idraw_valid_o = fe_taps.cp_idraw_valid;
  assign tap_cp_idraw_ready_o = fe_taps.cp_idraw_ready;
  assign tap_cp_idraw_o       = fe_taps.cp_idraw;
  assign tap_if_index_valid_o = fe_taps.if_index_valid;
  assign tap_if_index_ready_o = fe_taps.if_index_ready;
  assign tap_if_index_o       = fe_taps.if_index;
  assign tap_vt_vertex_valid_o = fe_taps.vt_vertex_valid;
  assign tap_vt_vertex_ready_o = fe_taps.vt_vertex_ready;
  assign tap_vt_vertex_o       = fe_taps.vt_vertex;
  assign tap_vt_prim_valid_o = fe_taps.vt_prim_valid;
  assign tap_vt_prim_ready_o = fe_taps.vt_prim_ready;
  assign tap_vt_prim_o       = fe_taps.vt_prim;
  assign tap_vf_vtx_valid_o = fe_taps.vf_vtx_valid;
  assign tap_vf_vtx_ready_o = fe_taps.vf_vtx_ready;
  assign tap_vf_vtx_o       = fe_taps.vf_vtx;
  assign tap_vtx_clip_valid_o = fe_taps.vtx_clip_valid;
  assign tap_vtx_clip_ready_o = fe_taps.vtx_clip_ready;
  assign tap_vtx_clip_o       = fe_taps.vtx_clip;

  front_end u_fe (
    .clk_i,
    .rst_ni,
    .in_valid_i            (fe_valid),
    .in_ready_o            (fe_ready),
    .in_i                  (fe_pkt),
    .out_valid_o           (tap_pa_tri_valid_o),
    .out_ready_i           (tap_pa_tri_ready_o),
    .out_o                 (tap_pa_tri_o),
    .throttle_i            (throttle[pineda_pkg::BOUNDARY_PA_TRI:pineda_pkg::BOUNDARY_CP_IDRAW]),
    .taps_o                (fe_taps),
    .if_mem_o              (if_mem_req),
    .if_mem_i              (if_mem_rsp),
    .vf_mem_o              (vf_mem_req),
    .vf_mem_i              (vf_mem_rsp),
    .idle_o                (fe_idle),
    .busy_o                (fe_busy_o),
    .clip_busy_o           (pa_clip_busy_o)
  );

  // Merge in front of SETUP: at most one path is valid (the CP drains one before using the
  // other); PA's triangle keeps the tri_pkt_t fields.
  pineda_pkg::pa_attr_t pa_attr;   // PA's attributes of one vertex: z, then the vattr_t fields
  pineda_pkg::vattr_t   pa_va;
  always_comb begin
    pa_attr            = '0;
    pa_va              = '0;
    tri_valid          = tap_ia_tri_valid_o || tap_pa_tri_valid_o;
    tri_in             = tap_ia_tri_o;
    if (tap_pa_tri_valid_o) begin
      tri_in        = '0;
      tri_in.eop    = tap_pa_tri_o.eop;
      tri_in.v      = tap_pa_tri_o.v;
      tri_in.color  = tap_pa_tri_o.color;
      tri_in.target = tap_pa_tri_o.target;
      tri_in.clip   = tap_pa_tri_o.clip;
      tri_in.tri_id = tap_pa_tri_o.tri_id;
      for (int k = 0; k < 3; k++) begin
        pa_attr       = tap_pa_tri_o.attr[k];
        tri_in.z[k]   = pa_attr.z;
        pa_va.rhw     = pa_attr.rhw;
        pa_va.color   = pa_attr.color;
        pa_va.uv0     = pa_attr.tex0;
        pa_va.uv1     = pa_attr.tex1;
        tri_in.a[k]   = pa_va;
      end
      tri_in.front  = tap_pa_tri_o.front;
      tri_in.ds     = tap_pa_tri_o.ds;
      tri_in.om     = tap_pa_tri_o.om;
      tri_in.zlo    = tap_pa_tri_o.zlo;
      tri_in.zhi    = tap_pa_tri_o.zhi;
    end
    tap_pa_tri_ready_o = tri_ready;
    tap_ia_tri_ready_o = tri_ready && !tap_pa_tri_valid_o;
    ia_path_idle       = ia_idle && !ia_valid && !tap_ia_tri_valid_o;
  end

  setup u_setup (
    .clk_i,
    .rst_ni,
    .in_valid_i  (tri_valid),
    .in_ready_o  (tri_ready),
    .in_i        (tri_in),
    .out_valid_o (setup_valid),
    .out_ready_i (setup_ready),
    .out_o       (setup_tri),
    .idle_o      (setup_idle)
  );

  stream_throttle #(
    .Width($bits(setup_tri))
  ) u_thr_setup_tri (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_SETUP_TRI]),
    .in_valid_i  (setup_valid),
    .in_ready_o  (setup_ready),
    .in_data_i   (setup_tri),
    .out_valid_o (tap_setup_tri_valid_o),
    .out_ready_i (tap_setup_tri_ready_o),
    .out_data_o  (tap_setup_tri_o)
  );

  logic rast_idle;

  raster_array #(
    .NumRast  (NumRast),
    .FifoDepth(RastFifoDepth)
  ) u_rast (
    .clk_i,
    .rst_ni,
    .in_valid_i       (tap_setup_tri_valid_o),
    .in_ready_o       (tap_setup_tri_ready_o),
    .in_i             (tap_setup_tri_o),
    .throttle_i       (throttle[pineda_pkg::BOUNDARY_COARSE_TILE]),
    .hiz_clear_valid_i(hiz_clear_valid),
    .hiz_clear_ready_o(hiz_clear_ready),
    .hiz_clear_i      (hiz_clear_pkt),
    .hiz_tested_o     (hiz_tested),
    .hiz_rejected_o   (hiz_rejected),
    .out_valid_o      (fine_valid),
    .out_ready_i      (fine_ready),
    .out_o            (fine_quad),
    .tap_tile_valid_o (tap_coarse_tile_valid_o),
    .tap_tile_ready_o (tap_coarse_tile_ready_o),
    .tap_tile_o       (tap_coarse_tile_o),
    .coarse0_valid_o  (coarse_valid),
    .coarse0_ready_o  (coarse_ready),
    .coarse0_idle_o   (coarse_idle),
    .busy_o           (rast_busy_o),
    .fine_idle_o      (fine_idle),
    .idle_o           (rast_idle)
  );

  stream_throttle #(
    .Width($bits(fine_quad))
  ) u_thr_fine_quad (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_FINE_QUAD]),
    .in_valid_i  (fine_valid),
    .in_ready_o  (fine_ready),
    .in_data_i   (fine_quad),
    .out_valid_o (tap_fine_quad_valid_o),
    .out_ready_i (tap_fine_quad_ready_o),
    .out_data_o  (tap_fine_quad_o)
  );

  // ZS: depth and stencil tests between the merged fine quads and PW (docs/depth.md §4), its
  // depth tile cache on line client MEM_LC_ZS. Flushed with PW (COPY, host flush); an end-of-pipe
  // token leaves ZS only once its depth writes (and fast-cleared lines) are in memory. Depth/stencil
  // fast clear from the CP's zs_clear port.
  // Two ports (docs/depth.md section 4 "The late port"): the early port tests early-Z quads on
  // their way to INTERP; the pixel stage's output (after COMB's alpha kill) comes back to the late
  // port, which tests late-Z quads (alpha-tested draws: PA sets ds.late_z) and feeds PW.
  logic zs_late_out_valid, zs_late_out_ready, zs_path_idle;  pineda_pkg::interp_pkt_t zs_late_out;
  zs #(
    .LatePort (1)
  ) u_zs (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_fine_quad_valid_o),
    .in_ready_o      (tap_fine_quad_ready_o),
    .in_i            (tap_fine_quad_o),
    .out_valid_o     (zs_valid),
    .out_ready_i     (zs_ready),
    .out_o           (zs_quad),
    .late_in_valid_i (px_valid),
    .late_in_ready_o (px_ready),
    .late_in_i       (px_quad),
    .late_out_valid_o(zs_late_out_valid),
    .late_out_ready_i(zs_late_out_ready),
    .late_out_o      (zs_late_out),
    .path_idle_i     (zs_path_idle),
    .flush_i         (zs_flush),
    .clear_valid_i   (zs_clear_valid),
    .clear_ready_o   (zs_clear_ready),
    .clear_i         (clear_pkt),
    .mem_req_valid_o (zs_mem_valid),
    .mem_req_ready_i (zs_mem_ready),
    .mem_req_o       (zs_req),
    .mem_rsp_valid_i (cl_rsp_valid[pineda_pkg::MEM_LC_ZS]),
    .mem_rsp_ready_o (cl_rsp_ready[pineda_pkg::MEM_LC_ZS]),
    .mem_rsp_i       (cl_rsp[pineda_pkg::MEM_LC_ZS]),
    .quiet_o         (zs_quiet),
    .clean_o         (zs_clean),
    .idle_o          (zs_idle),
    .span_valid_o    (zs_span_valid),
    .span_lo_o       (zs_span_lo),
    .span_hi_o       (zs_span_hi)
  );
  assign cl_req_valid[pineda_pkg::MEM_LC_ZS] = zs_mem_valid;
  assign cl_req[pineda_pkg::MEM_LC_ZS]       = zs_req;
  assign zs_mem_ready                        = cl_req_ready[pineda_pkg::MEM_LC_ZS];

  stream_throttle #(
    .Width($bits(zs_quad))
  ) u_thr_zs_quad (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_ZS_QUAD]),
    .in_valid_i  (zs_valid),
    .in_ready_o  (zs_ready),
    .in_data_i   (zs_quad),
    .out_valid_o (tap_zs_quad_valid_o),
    .out_ready_i (tap_zs_quad_ready_o),
    .out_data_o  (tap_zs_quad_o)
  );

  // INTERP: per-pixel colour (flat or Gouraud, om.gouraud) and texture coordinates of the quads
  // ZS let through (docs/interp.md); one quad per clock, six stages. Quads of every rasterizer
  // pass in the merged order (the planes ride in the quad, so no per-rasterizer state).
  interp u_interp (
    .clk_i,
    .rst_ni,
    .in_valid_i  (tap_zs_quad_valid_o),
    .in_ready_o  (tap_zs_quad_ready_o),
    .in_i        (tap_zs_quad_o),
    .out_valid_o (ip_valid),
    .out_ready_i (ip_ready),
    .out_o       (ip_quad),
    .idle_o      (ip_idle)
  );

  stream_throttle #(
    .Width($bits(ip_quad))
  ) u_thr_interp_quad (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_INTERP_QUAD]),
    .in_valid_i  (ip_valid),
    .in_ready_o  (ip_ready),
    .in_data_i   (ip_quad),
    .out_valid_o (tap_interp_quad_valid_o),
    .out_ready_i (tap_interp_quad_ready_o),
    .out_data_o  (tap_interp_quad_o)
  );

  // The pixel stage (docs/comb.md section 5): every quad parks in order while TEX samples the
  // textured ones (line client MEM_LC_TEX), then COMB combines and applies the alpha test (killed
  // pixels and empty quads never reach PW). TEX forgets its descriptor and L1 caches (inval,
  // taken once it has drained) after every DMA job (COPY, fill, RESOLVE: they may rewrite
  // textures or descriptors), every FE_TEX0 / FE_SAMP0 / FE_TEX1 / FE_SAMP1 write leaving the CP,
  // and every end-of-pipe fence completion (the host may reuse or rewrite memory once a fence
  // passed).
  // A faulted quad sets the CP's sticky STATUS.TEX_FAULT / IRQ TEX_FAULT; the CP keeps going.
  always_comb begin
    tex_inval_req = (dma_job_valid && dma_job_ready) || (dma_fill_valid && dma_fill_ready) ||
                    (rs_job_valid && rs_job_ready) || (eop_done_valid && eop_done_ready) ||
                    (tap_cp_idraw_valid_o && tap_cp_idraw_ready_o && tap_cp_idraw_o.wr &&
                     (tap_cp_idraw_o.wr_idx == 8'(pineda_pkg::FE_TEX0) ||
                      tap_cp_idraw_o.wr_idx == 8'(pineda_pkg::FE_SAMP0) ||
                      tap_cp_idraw_o.wr_idx == 8'(pineda_pkg::FE_TEX1) ||
                      tap_cp_idraw_o.wr_idx == 8'(pineda_pkg::FE_SAMP1)));
  end

  pixel_stage u_px (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_interp_quad_valid_o),
    .in_ready_o      (tap_interp_quad_ready_o),
    .in_i            (tap_interp_quad_o),
    .out_valid_o     (px_valid),
    .out_ready_i     (px_ready),
    .out_o           (px_quad),
    .valid_base_i    (valid_base),
    .valid_limit_i   (valid_limit),
    .inval_req_i     (tex_inval_req),
    .mem_req_valid_o (cl_req_valid[pineda_pkg::MEM_LC_TEX]),
    .mem_req_ready_i (cl_req_ready[pineda_pkg::MEM_LC_TEX]),
    .mem_req_o       (tex_req),
    .mem_rsp_valid_i (cl_rsp_valid[pineda_pkg::MEM_LC_TEX]),
    .mem_rsp_ready_o (cl_rsp_ready[pineda_pkg::MEM_LC_TEX]),
    .mem_rsp_i       (cl_rsp[pineda_pkg::MEM_LC_TEX]),
    .fault_o         (tex_fault),
    .fault_cause_o   (tex_fault_cause),
    .ev_quad_o       (tex_ev_quad),
    .ev_samples_o    (tex_ev_samples),
    .ev_texels_o     (tex_ev_texels),
    .ev_lines_o      (tex_ev_lines),
    .tex_idle_o      (tex_idle),
    .comb_idle_o     (comb_idle),
    .idle_o          (px_idle)
  );
  assign cl_req[pineda_pkg::MEM_LC_TEX] = tex_req;

  stream_throttle #(
    .Width($bits(px_quad))
  ) u_thr_comb_quad (   // comb_quad: PW's input, ZS's late output
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_COMB_QUAD]),
    .in_valid_i  (zs_late_out_valid),
    .in_ready_o  (zs_late_out_ready),
    .in_data_i   (zs_late_out),
    .out_valid_o (tap_comb_quad_valid_o),
    .out_ready_i (tap_comb_quad_ready_o),
    .out_data_o  (tap_comb_quad_o)
  );

  pixel_writer u_pw (
    .clk_i,
    .rst_ni,
    .in_valid_i      (tap_comb_quad_valid_o),
    .in_ready_o      (tap_comb_quad_ready_o),
    .in_i            (tap_comb_quad_o),
    .mem_req_valid_o (pw_valid),
    .mem_req_ready_i (pw_ready),
    .mem_req_o       (pw_req),
    .flush_i         (pw_flush),
    .mem_rsp_valid_i (cl_rsp_valid[pineda_pkg::MEM_LC_PW]),
    .mem_rsp_ready_o (cl_rsp_ready[pineda_pkg::MEM_LC_PW]),
    .mem_rsp_i       (pw_rsp),
    .eop_done_valid_o(eop_done_valid),
    .eop_done_ready_i(eop_done_ready),
    .quiet_o         (pw_quiet),
    .clean_o         (pw_clean),
    .idle_o          (pw_idle)
  );

  // Flush requests: a COPY or a CLEAR fill the CP offers (everything before it has drained into
  // PW), the host. PW flushes for every one. ZS (which also drops its cached lines once clean, so
  // memory the DMA writes is read again) flushes for the host, and for a job whose bytes meet its
  // span (the lines it holds or owes since its last flush): a COPY's source or destination, a
  // fill's rows [y0, y1) of its target. A vertex upload or a colour clear after a depth fast clear
  // so leaves the cleared lines in ZS. The job goes to the DMA once PW is clean and ZS is clean
  // or disjoint from it.
  function automatic logic span_meets(input logic [31:0] lo, input logic [32:0] end_x,
                                      input logic v, input logic [25:0] slo, input logic [25:0] shi);
    logic [26:0] last_line;
    last_line  = 27'((end_x - 33'd1) >> 6);
    span_meets = v && (end_x > {1'b0, lo}) && (last_line >= {1'b0, slo}) && (lo[31:6] <= shi);
  endfunction

  // The job's byte ranges, registered so that no adder or multiplier is in series with a job's
  // valid: range A is a COPY's source or a fill's rows [base + y0*pitch, base + y1*pitch) (one
  // 15 x 16 multiplier, y0 in the job's first clock, y1 in its second), range B a COPY's
  // destination. The decisions use them from the job's third clock on (the CP holds a job's
  // payload until it is taken), which costs a COPY or a clear two clocks.
  logic [1:0]  jph_q, jph_d;             // clocks the current job has been offered (up to 2)
  logic [32:0] ra_lo_q, ra_lo_d, ra_end_q, ra_end_d, rb_end_q, rb_end_d;
  logic [31:0] rb_lo_q, rb_lo_d;
  logic [14:0] jy;                       // y0, then y1
  logic [30:0] jprod;                    // jy * pitch
  logic        job_fire, job_ranged, ra_zs, rb_zs;
  always_comb begin
    job_fire = (copy_valid && copy_ready) || (fill_valid && fill_ready);
    jph_d    = (!(copy_valid || fill_valid) || job_fire) ? 2'd0 : ((jph_q == 2'd2) ? 2'd2 : jph_q + 2'd1);
    jy       = (jph_q == 2'd0) ? clear_pkt.rect.y0 : clear_pkt.rect.y1;
    jprod    = 31'(jy) * 31'(clear_pkt.target.pitch);
    ra_lo_d  = ra_lo_q;
    ra_end_d = ra_end_q;
    rb_lo_d  = copy_dst;
    rb_end_d = {1'b0, copy_dst} + {1'b0, copy_len};
    if (copy_valid) begin
      ra_lo_d  = {1'b0, copy_src};
      ra_end_d = {1'b0, copy_src} + {1'b0, copy_len};
    end else if (jph_q == 2'd0) begin
      ra_lo_d  = {1'b0, clear_pkt.target.base} + 33'(jprod);
    end else if (jph_q == 2'd1) begin
      ra_end_d = {1'b0, clear_pkt.target.base} + 33'(jprod);
    end
    job_ranged = jph_q == 2'd2;
    ra_zs      = ra_lo_q[32] || span_meets(ra_lo_q[31:0], ra_end_q, zs_span_valid, zs_span_lo, zs_span_hi);
    rb_zs      = span_meets(rb_lo_q, rb_end_q, zs_span_valid, zs_span_lo, zs_span_hi);
    copy_zs    = !job_ranged || ra_zs || rb_zs;
    fill_zs    = !job_ranged || ra_zs;
    pw_flush       = copy_valid || fill_valid || resolve_valid || pw_flush_in;
    // (a RESOLVE, rare, flushes ZS whole)
    zs_flush       = (copy_valid && job_ranged && copy_zs) || (fill_valid && job_ranged && fill_zs) ||
                     resolve_valid || pw_flush_in;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jph_q    <= '0;
      ra_lo_q  <= '0;
      ra_end_q <= '0;
      rb_lo_q  <= '0;
      rb_end_q <= '0;
    end else begin
      jph_q    <= jph_d;
      ra_lo_q  <= ra_lo_d;
      ra_end_q <= ra_end_d;
      rb_lo_q  <= rb_lo_d;
      rb_end_q <= rb_end_d;
    end
  end

`ifndef SYNTHESIS
  // The ranges are computed from the job's payload over its first two clocks: the CP offers one
  // job at a time and holds it until it is taken.
  logic [31:0] chk_src_q, chk_dst_q, chk_len_q;
  pineda_pkg::clear_pkt_t chk_clear_q;
  always_ff @(posedge clk_i) begin
    chk_src_q   <= copy_src;
    chk_dst_q   <= copy_dst;
    chk_len_q   <= copy_len;
    chk_clear_q <= clear_pkt;
    if (rst_ni) begin
      assert (!(copy_valid && fill_valid)) else $error("%m: a COPY and a CLEAR fill offered together");
      assert (!(copy_valid && jph_q != 2'd0 && {copy_src, copy_dst, copy_len} != {chk_src_q, chk_dst_q, chk_len_q}))
        else $error("%m: a COPY's payload changed while it was offered");
      assert (!(fill_valid && jph_q != 2'd0 && clear_pkt != chk_clear_q))
        else $error("%m: a CLEAR fill's payload changed while it was offered");
    end
  end
`endif

  always_comb begin
    pw_flushing_o  = pw_flush && pw_quiet;
    pw_clean_o     = pw_clean && zs_clean;
    dma_job_valid  = copy_valid && job_ranged && pw_clean && (zs_clean || !copy_zs);
    copy_ready     = dma_job_ready && job_ranged && pw_clean && (zs_clean || !copy_zs);
    dma_fill_valid = fill_valid && job_ranged && pw_clean && (zs_clean || !fill_zs);
    fill_ready     = dma_fill_ready && job_ranged && pw_clean && (zs_clean || !fill_zs);
    rs_job_valid   = resolve_valid && pw_clean && zs_clean;
    resolve_ready  = rs_job_ready && pw_clean && zs_clean;
  end

  stream_throttle #(
    .Width($bits(pw_req))
  ) u_thr_pw_mem (
    .clk_i,
    .rst_ni,
    .throttle_i  (throttle[pineda_pkg::BOUNDARY_PW_MEM]),
    .in_valid_i  (pw_valid),
    .in_ready_o  (pw_ready),
    .in_data_i   (pw_req),
    .out_valid_o (tap_pw_mem_valid_o),
    .out_ready_i (tap_pw_mem_ready_o),
    .out_data_o  (tap_pw_mem_o)
  );

  // PW speaks lines: straight into the line arbiter (no dword adapter).
  assign cl_req_valid[pineda_pkg::MEM_LC_PW] = tap_pw_mem_valid_o;
  assign cl_req[pineda_pkg::MEM_LC_PW]       = tap_pw_mem_o;
  assign tap_pw_mem_ready_o                  = cl_req_ready[pineda_pkg::MEM_LC_PW];
  assign pw_rsp                              = cl_rsp[pineda_pkg::MEM_LC_PW];

  // ---------------------------------------------------------------------------------------------
  // Memory: the line arbiter
  // ---------------------------------------------------------------------------------------------
  mem_line_arbiter #(
    .NumClients  (NumClients),
    .WriteClients(pineda_pkg::MEM_LC_WRITERS)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .req_valid_i     (cl_req_valid),
    .req_ready_o     (cl_req_ready),
    .req_i           (cl_req),
    .rsp_valid_o     (cl_rsp_valid),
    .rsp_ready_i     (cl_rsp_ready),
    .rsp_o           (cl_rsp),
    .mem_req_valid_o,
    .mem_req_ready_i (mem_req_ready),
    .mem_req_o,
    .mem_rsp_valid_i (mem_rsp_valid),
    .mem_rsp_ready_o,
    .mem_rsp_i       (mem_rsp),
    .grants_o        (cl_grants),
    .waits_o         (cl_waits)
  );

  always_comb begin
    mem_grants_o = '0;
    mem_waits_o  = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      mem_grants_o[c] = cl_grants[c];
      mem_waits_o[c]  = cl_waits[c];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Pipeline idle (for end-of-pipe fences)
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    // PW: no quad or token held (its line writes and dirty lines are the flush's business).
    pipe_idle = ia_idle && fe_idle && setup_idle && rast_idle && zs_quiet && ip_idle && px_idle &&
                pw_quiet && !ia_valid && !setup_valid && !fine_valid && !zs_valid && !ip_valid &&
                !px_valid && !zs_late_out_valid && !tap_comb_quad_valid_o &&
                !tap_ia_tri_valid_o && !tap_setup_tri_valid_o && !(|tap_coarse_tile_valid_o) &&
                !tap_fine_quad_valid_o && !tap_zs_quad_valid_o && !tap_interp_quad_valid_o;
  end

  // ---------------------------------------------------------------------------------------------
  // Performance counters and register read
  // ---------------------------------------------------------------------------------------------
  logic [7:0] perf_idx;

  logic unused_pw_idle;  // quiet && clean: the perf counters want quiet && no line write offered
  assign unused_pw_idle = pw_idle ^ zs_idle;
  // Nothing between ZS's two ports (ZS resynchronises its count of late quads in flight).
  assign zs_path_idle = !tap_zs_quad_valid_o && ip_idle && !ip_valid && !tap_interp_quad_valid_o && px_idle &&
                        !px_valid;

  // Event counters: Hi-Z tiles tested and rejected this cycle (every rasterizer); TEX's quads,
  // live pixels, texels read from its L1, lines allocated, and bytes of its line responses.
  localparam int unsigned PerfEvW = 7;
  logic [pineda_pkg::NUM_PERF_EVENTS-1:0][PerfEvW-1:0] perf_ev;
  logic unused_tex_fault_cause;
  assign unused_tex_fault_cause = ^{tex_fault_cause, tex_idle, comb_idle};
  always_comb begin
    perf_ev = '0;
    for (int unsigned r = 0; r < NumRast; r++) begin
      perf_ev[pineda_pkg::PERF_HIZ_TESTED - pineda_pkg::PERF_HIZ_TESTED]   =
          perf_ev[pineda_pkg::PERF_HIZ_TESTED - pineda_pkg::PERF_HIZ_TESTED] + PerfEvW'(hiz_tested[r]);
      perf_ev[pineda_pkg::PERF_HIZ_REJECTED - pineda_pkg::PERF_HIZ_TESTED] =
          perf_ev[pineda_pkg::PERF_HIZ_REJECTED - pineda_pkg::PERF_HIZ_TESTED] + PerfEvW'(hiz_rejected[r]);
    end
    perf_ev[pineda_pkg::PERF_TEX_QUADS - pineda_pkg::PERF_HIZ_TESTED]   = PerfEvW'(tex_ev_quad);
    perf_ev[pineda_pkg::PERF_TEX_SAMPLES - pineda_pkg::PERF_HIZ_TESTED] = PerfEvW'(tex_ev_samples);
    perf_ev[pineda_pkg::PERF_TEX_TEXELS - pineda_pkg::PERF_HIZ_TESTED]  = PerfEvW'(tex_ev_texels);
    perf_ev[pineda_pkg::PERF_TEX_LINES - pineda_pkg::PERF_HIZ_TESTED]   = PerfEvW'(tex_ev_lines);
    if (cl_rsp_valid[pineda_pkg::MEM_LC_TEX] && cl_rsp_ready[pineda_pkg::MEM_LC_TEX])
      perf_ev[pineda_pkg::PERF_TEX_LINE_BYTES - pineda_pkg::PERF_HIZ_TESTED] = PerfEvW'(64);
  end

  perf_counters #(
    .NumUnits (7),
    .NumEvents(pineda_pkg::NUM_PERF_EVENTS),
    .EvW      (PerfEvW)
  ) u_perf (
    .clk_i,
    .rst_ni,
    .out_valid_i ({zs_valid, pw_valid,  fine_valid,  coarse_valid,  setup_valid,  ia_valid,  cp_valid}),
    .out_ready_i ({zs_ready, pw_ready,  fine_ready,  coarse_ready,  setup_ready,  ia_ready,  cp_ready}),
    // PW, ZS: dirty lines resting in a cache are not work (contract §6).
    .idle_i      ({zs_quiet, pw_quiet && !pw_valid, fine_idle, coarse_idle, setup_idle, ia_idle, cp_idle}),
    .ev_cnt_i    (perf_ev),
    .rd_addr_i   (perf_idx),
    .rd_data_o   (perf_rdata)
  );

  always_comb begin
    perf_idx    = reg_addr_i - pineda_pkg::REG_PERF0;
    reg_rdata_o = (reg_addr_i >= pineda_pkg::REG_PERF0) ? perf_rdata : cp_reg_rsp.rdata;
  end

endmodule
