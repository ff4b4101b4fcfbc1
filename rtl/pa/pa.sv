// SPDX-License-Identifier: Apache-2.0
// pa: primitive assembly, clipping, projection, viewport, snap and culling
// (docs/frontend.md §6, docs/numerics.md §8; model: cpp_model/pa/pa.cpp). Instantiated in
// rtl/top/front_end.sv; unit test tb/pa/test_pa.cpp.
//
// Inputs: the clip-space vertex stream of VTX (clip_vtx_pkt_t; a batch's vertices in slot order,
// vtx_id[4:0] = slot, vtx_id[5] = first of the batch; tokens on it are dropped) and the triangle
// stream of vertex tags (prim_pkt_t: slots, last of batch, end-of-pipe tokens, state writes).
// Output: pa_tri_pkt_t for SETUP.
//
// Vertex buffer: two banks of 32 vertices. A batch's first vertex (vtx_id[5]) takes bank
// vb_q.wr_bank (waiting while that bank still holds the batch before the previous one) and
// flips wr_bank; the batch's other vertices follow into the same bank (!wr_bank). The triangles
// of bank vb_q.rd_bank are processed as soon as their three slots are loaded and projected, also
// while the rest of the batch is still arriving (vertex tags sends a vertex as soon as it is
// allocated, before the triangles that use it, so the two streams never wait for each other's
// batch to complete). A bank is busy from its first vertex until its last triangle is done; a
// vertex arriving for a bank that is no longer busy (its batch is done, no triangle reads it) is
// dropped. The banks are block RAM (sram_1r1w, registered reads), three copies written together:
// A and B (64 x 288 bits) are LOAD's two read ports, P (64 x 128 bits, the positions) the
// projector's, read every clock at the word the projector works on in the next clock, with a
// bypass for a vertex written to that word in the same clock.
//
// Projector (pj_*): every vertex of a bank is projected once (1/w, viewport, snap, z) and its
// clip codes and NaN flag computed (pa_dist) into a per-slot cache (sram_1r1w, two copies for
// LOAD's two ports: {NaN, code, sx, sy, z, 1/w}), in slot order, as the vertices arrive: the
// read bank first, then the bank being loaded; vb_q.loaded[b] vertices are loaded,
// vb_q.projected[b] projected. 3 clocks per vertex, with one fp32_mul and one fp32_add of its
// own and the sequencer's fp32_rcp, fp32_mul, fp32_add and fp32_to_fix16_8 while the sequencer
// does not use them (it waits while the sequencer clips; phase 0, which also uses pa_dist, waits
// in SInt0 and SIntW too). A write to a viewport register (FE_VP_*), applied in
// order on the triangle stream and changing the register, empties the cache of both banks
// (vb_q.projected = 0) and cancels the vertex in flight; freeing a bank empties its cache. So every
// projection in the cache was made with the viewport state that applies to the triangle reading
// it, and equals the model's projection of that triangle's vertex (an unclipped triangle's
// vertices are the input vertices bit for bit, numerics §8.2).
//
// One sequencer (state_q) runs each triangle:
//   LOAD   3 clocks (the first in IDLE, once the three slots are projected): vertices 0 and 1
//          (banks A, B; cache a, b) are read with the addresses of the first clock, vertex 2
//          (bank A, cache a) with those of the second; bank B and cache b keep vertex 1. The
//          second clock writes vertex 0 into polygon buffer 0, the third vertex 1, with their
//          cached clip codes. In the third clock: NaN or AND of the codes -> discarded; OR of
//          the codes 0 (the fast path) -> area, face and bounding-box culling on the cached
//          projections and output, the triangle is accepted; otherwise the slow path, after one
//          more clock (LOADW) writing vertex 2 into the polygon buffer:
//   CLIP   per plane in the OR of the codes, per polygon edge: 1 clock, plus INT (22 clocks)
//          for an edge crossing the plane (Sutherland-Hodgman, ping-pong between two buffers)
//   PROJ   6 clocks per polygon vertex: 1/w, viewport, snap (the shared operators)
//   EMIT   1 clock per fan triangle: area, face and bounding-box culling, output
//   DONE   the triangle packet is accepted (the prim input is held stable until then)
// An unclipped triangle takes 3 clocks. A token leaves in order through the output register;
// a state write takes 1 clock, one changing the viewport 3 (derived W/2, H/2, zmax - zmin).
module pa (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // vertex stream
  input  logic                      vtx_valid_i,
  output logic                      vtx_ready_o,
  input  pineda_pkg::clip_vtx_pkt_t vtx_i,
  // triangle stream
  input  logic                      prim_valid_i,
  output logic                      prim_ready_o,
  input  pineda_pkg::prim_pkt_t     prim_i,
  // output
  output logic                      out_valid_o,
  input  logic                      out_ready_i,
  output pineda_pkg::pa_tri_pkt_t   out_o,
  output logic                      idle_o,
  output logic                      clip_busy_o   // the clipper is working (CLIP / INT states)
);

  localparam int MaxPoly = pineda_pkg::PA_MAX_POLY;
  localparam logic [31:0] One  = pineda_pkg::FP32_ONE;
  localparam logic [31:0] Half = 32'h3F00_0000;
  localparam logic [31:0] TwoM64 = 32'h1F80_0000;  // 2^-64
  localparam logic [31:0] Sign = 32'h8000_0000;

  typedef struct packed {
    logic [31:0]      color;
    logic [7:0][31:0] a;       // x, y, z, w, tex0.u, tex0.v, tex1.u, tex1.v (a[0] = x)
  } cv_t;
  localparam int CvW = 288;
  localparam int PeW = CvW + 7;  // polygon entry: {code, cv}
  localparam int PcW = 120;      // projection cache entry: {NaN, clip code, pv_t}

  typedef struct packed {
    logic [23:0] sx;
    logic [23:0] sy;
    logic [31:0] z;
    logic [31:0] rhw;
  } pv_t;

  typedef enum logic [3:0] {
    SIdle, SDer1, SDer2, SLoad, SLoadW, SClip, SInt0, SInt1, SInt2, SInt3, SIntA, SIntB, SIntW,
    SProj, SEmit, SDone
  } state_e;

  // ---------------------------------------------------------------------------------------------
  // State, one packed struct per concern (reset: all zero, but the scissor)
  // ---------------------------------------------------------------------------------------------
  // Front-end state written on the triangle stream, and values derived from the viewport.
  typedef struct packed {
    logic [31:0] vp_x;
    logic [31:0] vp_y;
    logic [31:0] vp_w;
    logic [31:0] vp_h;
    logic [31:0] vp_zmin;
    logic [31:0] vp_zmax;
    logic [3:0]  raster;       // FE_RASTER: cull [1:0], front CCW [2], depth clip off [3]
    logic [31:0] rt_base;
    logic [18:0] rt_pitch;     // pitch [15:0], 4x MSAA [16], format [18:17]
    logic [31:0] rt_size;
    logic [31:0] scissor_x;
    logic [31:0] scissor_y;
    logic [31:0] half_w;       // vp_w / 2
    logic [31:0] half_h;       // vp_h / 2
    logic [31:0] z_range;      // vp_zmax - vp_zmin
    logic [31:0] ds_base;      // FE_DS_BASE
    logic [15:0] ds_pitch;     // FE_DS_PITCH[15:0]
    logic [6:0]  depth;        // FE_DEPTH[6:0]
    logic [31:0] stencil;      // FE_STENCIL
    logic [31:0] stencil_ops;  // FE_STENCIL_OPS
    logic [30:0] blend;        // FE_BLEND[30:0]
    logic [31:0] blend_factor; // FE_BLEND_FACTOR
    logic [4:0]  logic_op;     // FE_LOGIC_OP[4:0]
    logic        gouraud;      // FE_SHADE.SHADE_GOURAUD (docs/interp.md)
    logic [31:0] tex0;         // FE_TEX0 (docs/tex.md)
    logic [31:0] samp0;        // FE_SAMP0
    logic [31:0] tex1;         // FE_TEX1 (docs/comb.md: stage 1)
    logic [31:0] samp1;        // FE_SAMP1
    logic [20:0] combine;      // FE_COMBINE[20:0] (docs/comb.md)
  } fe_t;

  // The two vertex buffer banks.
  typedef struct packed {
    logic [1:0]      busy;       // per bank: first vertex in, last triangle not done yet
    logic            wr_bank;    // bank the next batch's first vertex takes (!wr_bank: loading)
    logic            rd_bank;    // bank whose triangles are processed
    logic [1:0][5:0] loaded;     // per bank: vertices loaded
    logic [1:0][5:0] projected;  // per bank: vertices projected into pcache_q (<= loaded)
  } vb_t;

  // The triangle sequencer.
  typedef struct packed {
    logic [1:0]  load_vtx;    // LOAD: vertex being loaded
    logic [6:0]  code_and;    // AND of the loaded vertices' clip codes
    logic [6:0]  code_or;     // OR of them
    logic        pos_nan;     // a loaded position has a NaN
    logic [31:0] flat_color;  // vertex 0's colour
    logic        cur_buf;     // polygon buffer read by CLIP / PROJ / EMIT
    logic [3:0]  poly_len;    // its vertex count
    logic [3:0]  out_len;     // CLIP: vertices written to the other buffer
    logic [3:0]  vtx_idx;     // CLIP: edge; PROJ: vertex; EMIT: fan triangle
    logic [2:0]  plane;       // CLIP: plane
    logic        in_first;    // INT: the inside vertex is the edge's first (A)
    logic [2:0]  phase;       // INT: attribute; PROJ: phase
    logic [31:0] d_in;        // INT: plane distance of the inside vertex
    logic [31:0] d_diff;      // INT: d_in - distance of the outside vertex
    logic [31:0] lerp_t;      // INT: t = d_in / d_diff, weight of the outside vertex
    logic [31:0] lerp_s;      // INT: 1 - t, weight of the inside vertex
    logic [31:0] lerp_in;     // INT: s * attribute of the inside vertex
    logic [8:0]  lerp_t8;     // INT: t in 1/256, clamped to [0, 256] (colour)
    cv_t         new_vtx;     // INT: the new vertex
    logic [31:0] proj_rhw;    // PROJ: 1/w
    logic [31:0] proj_zn;     // PROJ: z/w
    logic [31:0] proj_tmp;    // PROJ: x/w + 1, then 1 - y/w
    logic [23:0] proj_sx;     // PROJ: snapped x, then snapped y
    logic [31:0] tri_id;      // output triangles since reset
    pv_t         fast_pv0;    // LOAD: cached projection of vertex 0
  } seq_t;

  // The projector.
  typedef struct packed {
    logic        busy;         // a vertex in flight (phases 1, 2)
    logic [1:0]  phase;
    logic        bank;         // its bank
    logic [4:0]  slot;         // its slot
    logic [31:0] rhw;          // 1/w
    logic [31:0] x_plus1;      // x/w + 1
    logic [31:0] one_minus_y;  // 1 - y/w
    logic [31:0] zn;           // z/w
    logic [23:0] sx;           // snapped x
    logic [7:0]  code;         // NaN in the position [7], clip code [6:0] (depth clip on)
  } pj_t;

  state_e                  state_q, state_d;
  logic                    hv_q, hv_d;  // SInt1: |dI - dO| >= 2^64, retrying scaled by 2^-64
  fe_t                     fe_q, fe_d;
  vb_t                     vb_q, vb_d;
  seq_t                    seq_q, seq_d;
  pj_t                     pj_q, pj_d;
  logic                    out_valid_q, out_valid_d;
  pineda_pkg::pa_tri_pkt_t out_q, out_d;

  // storage (no reset): the vertex banks and the projection cache in sram_1r1w (below), the
  // polygon buffers and the polygon's projections in flip-flops
  logic [PeW-1:0]    poly_q [2*MaxPoly];
  logic [111:0]      proj_q [MaxPoly];
  logic              vb_we, poly_we, proj_we, pc_we;
  logic [5:0]        pc_waddr;
  logic [PcW-1:0]    pc_wdata;
  logic [5:0]        vb_waddr;
  logic [4:0]        poly_waddr;
  logic [PeW-1:0]    poly_wdata;
  logic [3:0]        proj_waddr;
  logic [111:0]      proj_wdata;
  cv_t               vb_wdata;

  // ---------------------------------------------------------------------------------------------
  // Reads
  // ---------------------------------------------------------------------------------------------
  function automatic logic [4:0] paddr(input logic bank, input logic [3:0] idx);
    paddr = bank ? (5'd10 + 5'(idx)) : 5'(idx);
  endfunction

  // Vertex banks: three sram_1r1w copies of the two banks ({bank, slot}), all written by the
  // vertex input. Copies A and B (whole vertices) are LOAD's two read ports, copy P (positions)
  // the projector's. Projection cache: two copies (ports a and b) of {NaN, code, pv_t} per slot.
  logic [5:0]     ld_raddr_a, ld_raddr_b;   // LOAD's read addresses (banks A, B; cache a, b)
  logic [5:0]     pj_raddr;                 // the projector's (bank P), from next-state values
  logic [CvW-1:0] vba_rdata, vbb_rdata;
  logic [127:0]   vbp_rdata;
  logic [PcW-1:0] pca_rdata, pcb_rdata;
  logic           byp_q, byp_d;             // bank P's read of the previous clock hit its write
  logic [127:0]   byp_pos_q, byp_pos_d;     // the position written then

  sram_1r1w #(.Width(CvW), .Depth(64), .MaskW(1)) u_vb_a (
    .clk_i, .we_i(vb_we), .waddr_i(vb_waddr), .wdata_i(CvW'(vb_wdata)), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(ld_raddr_a), .rdata_o(vba_rdata));
  sram_1r1w #(.Width(CvW), .Depth(64), .MaskW(1)) u_vb_b (
    .clk_i, .we_i(vb_we), .waddr_i(vb_waddr), .wdata_i(CvW'(vb_wdata)), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(ld_raddr_b), .rdata_o(vbb_rdata));
  sram_1r1w #(.Width(128), .Depth(64), .MaskW(1)) u_vb_p (
    .clk_i, .we_i(vb_we), .waddr_i(vb_waddr), .wdata_i(vb_wdata.a[3:0]), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(pj_raddr), .rdata_o(vbp_rdata));
  sram_1r1w #(.Width(PcW), .Depth(64), .MaskW(1)) u_pc_a (
    .clk_i, .we_i(pc_we), .waddr_i(pc_waddr), .wdata_i(pc_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(ld_raddr_a), .rdata_o(pca_rdata));
  sram_1r1w #(.Width(PcW), .Depth(64), .MaskW(1)) u_pc_b (
    .clk_i, .we_i(pc_we), .waddr_i(pc_waddr), .wdata_i(pc_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(ld_raddr_b), .rdata_o(pcb_rdata));

  cv_t         va_cv, vb_cv;            // banks A and B (addresses of the previous clock)
  pv_t         pc_a, pc_b;              // cache ports a and b (addresses of the previous clock)
  logic [7:0]  pcode_a, pcode_b;        // their {NaN, clip code}
  logic [3:0]  ib;                      // CLIP: index of the edge's second vertex
  logic [PeW-1:0] pe_a, pe_b;
  cv_t         cv_0, cv_a, cv_b, cv_i, cv_o, cv_1, cv_2;
  logic [6:0]  code_a, code_b;
  logic        in_a, in_b;
  pv_t         pv0, pv1, pv2;
  logic [111:0] pe_tmp;

  always_comb begin
    // LOAD reads vertices 0 (port a) and 1 (port b) with the addresses of IDLE, vertex 2 (port
    // a) with those of SLoad; port b keeps vertex 1 through the triangle
    ld_raddr_a = {vb_q.rd_bank, (state_q == SLoad) ? prim_i.s2 : prim_i.s0};
    ld_raddr_b = {vb_q.rd_bank, prim_i.s1};
    pe_tmp     = '0;
    va_cv   = cv_t'(vba_rdata);
    vb_cv   = cv_t'(vbb_rdata);
    pc_a    = pv_t'(pca_rdata[111:0]);
    pc_b    = pv_t'(pcb_rdata[111:0]);
    pcode_a = pca_rdata[PcW-1:112];
    pcode_b = pcb_rdata[PcW-1:112];
    ib     = (seq_q.vtx_idx + 4'd1 == seq_q.poly_len) ? 4'd0 : seq_q.vtx_idx + 4'd1;
    pe_a   = poly_q[paddr(seq_q.cur_buf, seq_q.vtx_idx)];
    pe_b   = poly_q[paddr(seq_q.cur_buf, ib)];
    cv_0   = cv_t'(poly_q[paddr(seq_q.cur_buf, 4'd0)][CvW-1:0]);
    cv_a   = cv_t'(pe_a[CvW-1:0]);
    cv_b   = cv_t'(pe_b[CvW-1:0]);
    code_a = pe_a[PeW-1:CvW];
    code_b = pe_b[PeW-1:CvW];
    in_a   = !code_a[seq_q.plane];
    in_b   = !code_b[seq_q.plane];
    cv_i   = seq_q.in_first ? cv_a : cv_b;
    cv_o   = seq_q.in_first ? cv_b : cv_a;
    // the triangle emitted: the fan triangle (0, i, i + 1) in EMIT; in LOAD (fast path) the
    // cached projections of the three vertices, vertex 0's attributes from the polygon buffer
    // (written in LOAD's second clock), vertex 1's from bank B and vertex 2's from bank A
    cv_1   = cv_a;
    cv_2   = cv_b;
    if (state_q == SLoad) begin
      pv0  = seq_q.fast_pv0;
      pv1  = pc_b;
      pv2  = pc_a;
      cv_1 = vb_cv;
      cv_2 = va_cv;
    end else begin
      pe_tmp = proj_q[0];
      pv0    = pv_t'(pe_tmp);
      pe_tmp = proj_q[seq_q.vtx_idx];
      pv1    = pv_t'(pe_tmp);
      pe_tmp = proj_q[ib];
      pv2    = pv_t'(pe_tmp);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Projector: the vertex it works on, and whether it may use the shared operators this clock
  // ---------------------------------------------------------------------------------------------
  logic        rb_todo, ob_todo, pj_any, pj_go, ops_free, pj_bank;
  logic [4:0]  pj_slot;
  logic [1:0]  pj_ph;
  logic [3:0][31:0] pj_pos;             // x, y, z, w of the projector's vertex

  always_comb begin
    rb_todo = vb_q.projected[vb_q.rd_bank] < vb_q.loaded[vb_q.rd_bank];
    ob_todo = vb_q.projected[!vb_q.rd_bank] < vb_q.loaded[!vb_q.rd_bank];
    pj_any  = pj_q.busy || rb_todo || ob_todo;
    if (pj_q.busy) begin
      pj_bank = pj_q.bank;
    end else begin
      pj_bank = rb_todo ? vb_q.rd_bank : !vb_q.rd_bank;
    end
    pj_slot = pj_q.busy ? pj_q.slot : vb_q.projected[pj_bank][4:0];
    pj_ph   = pj_q.busy ? pj_q.phase : 2'd0;
    // bank P was read at {pj_bank, pj_slot} in the previous clock (pj_raddr); a vertex written
    // to that word in that clock comes from the bypass
    pj_pos  = byp_q ? byp_pos_q : vbp_rdata;
    // the sequencer's states that leave fp32_rcp, fp32_mul, fp32_add and fp32_to_fix16_8 free;
    // phase 0 also uses pa_dist (the vertex's clip codes), which INT uses in SInt0 and SIntW
    ops_free = (state_q == SIdle) || (state_q == SLoad) || (state_q == SLoadW)
            || (state_q == SClip) || (state_q == SInt0) || (state_q == SIntW)
            || (state_q == SEmit) || (state_q == SDone);
    pj_go   = pj_any && ops_free
           && !((pj_ph == 2'd0) && ((state_q == SInt0) || (state_q == SIntW)));
  end

  // ---------------------------------------------------------------------------------------------
  // The new vertex of INT put on its plane, with its colour
  // ---------------------------------------------------------------------------------------------
  cv_t         nv_snap;
  logic [31:0] w2n;
  logic [8:0]  tinv;
  logic [3:0][17:0] cmix;
  logic        unused_cmix;

  always_comb begin
    nv_snap = seq_q.new_vtx;
    // 2w as fp32 mul(w, 2.0) (see pa_dist)
    if (seq_q.new_vtx.a[3][30:23] == 8'h00) begin
      w2n = {seq_q.new_vtx.a[3][31], 31'd0};
    end else if (seq_q.new_vtx.a[3][30:23] == 8'hFF && seq_q.new_vtx.a[3][22:0] != 23'd0) begin
      w2n = pineda_pkg::FP32_QNAN;
    end else if (seq_q.new_vtx.a[3][30:23] >= 8'hFE) begin
      w2n = {seq_q.new_vtx.a[3][31], 8'hFF, 23'd0};
    end else begin
      w2n = {seq_q.new_vtx.a[3][31], seq_q.new_vtx.a[3][30:23] + 8'd1, seq_q.new_vtx.a[3][22:0]};
    end
    unique case (seq_q.plane)
      3'd0:    nv_snap.a[3] = pineda_pkg::PA_CLIP_EPS;
      3'd1:    nv_snap.a[2] = 32'd0;
      3'd2:    nv_snap.a[2] = seq_q.new_vtx.a[3];
      3'd3:    nv_snap.a[0] = w2n ^ Sign;
      3'd4:    nv_snap.a[0] = w2n;
      3'd5:    nv_snap.a[1] = w2n ^ Sign;
      default: nv_snap.a[1] = w2n;
    endcase
    tinv = 9'd256 - seq_q.lerp_t8;
    for (int ch = 0; ch < 4; ch++) begin
      cmix[ch] = 18'(cv_i.color[8*ch +: 8]) * 18'(tinv) + 18'(cv_o.color[8*ch +: 8]) * 18'(seq_q.lerp_t8) + 18'd128;
      nv_snap.color[8*ch +: 8] = cmix[ch][15:8];
    end
    unused_cmix = ^{cmix[0][17:16], cmix[0][7:0], cmix[1][17:16], cmix[1][7:0],
                    cmix[2][17:16], cmix[2][7:0], cmix[3][17:16], cmix[3][7:0]};
  end

  // ---------------------------------------------------------------------------------------------
  // Operators and their operands (one always_comb per operator: chains go one way only)
  // ---------------------------------------------------------------------------------------------
  logic [31:0] dx, dy, dz, dw;
  logic [6:0][31:0] dd;
  logic [6:0]  dout;
  logic [31:0] rcp_a, rcp_y, mul_a, mul_b, mul_y, add_a, add_b, add_y, fix_a;
  logic [31:0] mul2_a, mul2_b, mul2_y, add2_a, add2_b, add2_y;   // the projector's own
  logic [23:0] fix_y;
  logic [3:0][31:0] dsel;               // x, y, z, w of the vertex pa_dist looks at

  always_comb begin
    unique case (state_q)
      SInt0:   dsel = cv_i.a[3:0];
      SInt1:   dsel = cv_o.a[3:0];
      SIntW:   dsel = nv_snap.a[3:0];
      default: dsel = pj_pos;             // projector phase 0: the vertex's clip codes
    endcase
    dx = dsel[0];
    dy = dsel[1];
    dz = dsel[2];
    dw = dsel[3];
  end
  pa_dist u_dist (.x_i(dx), .y_i(dy), .z_i(dz), .w_i(dw), .d_o(dd), .out_o(dout));

  always_comb begin
    unique case (state_q)
      SInt2:   rcp_a = seq_q.d_diff;
      SProj:   rcp_a = cv_a.a[3];
      default: rcp_a = pj_pos[3];         // projector phase 0: 1/w
    endcase
  end
  fp32_rcp u_rcp (.a_i(rcp_a), .y_o(rcp_y));

  always_comb begin
    mul_a = 32'd0;
    mul_b = 32'd0;
    unique case (state_q)
      SDer1: begin mul_a = fe_q.vp_w; mul_b = Half; end
      SDer2: begin mul_a = fe_q.vp_h; mul_b = Half; end
      SInt1: begin mul_a = hv_q ? dd[seq_q.plane] : seq_q.d_in; mul_b = TwoM64; end  // |dI - dO| >= 2^64: scale
      SInt2: begin mul_a = seq_q.d_in;  mul_b = rcp_y; end
      SIntA: begin mul_a = seq_q.lerp_s;   mul_b = cv_i.a[seq_q.phase]; end
      SIntB: begin mul_a = seq_q.lerp_t;   mul_b = cv_o.a[seq_q.phase]; end
      SProj: begin
        unique case (seq_q.phase)
          3'd0:    begin mul_a = cv_a.a[2]; mul_b = rcp_y; end   // z * (1/w)
          3'd1:    begin mul_a = cv_a.a[0]; mul_b = seq_q.proj_rhw;   end   // x/w
          3'd2:    begin mul_a = seq_q.proj_tmp;      mul_b = fe_q.half_w;  end
          3'd3:    begin mul_a = cv_a.a[1]; mul_b = seq_q.proj_rhw;   end   // y/w
          3'd4:    begin mul_a = seq_q.proj_tmp;      mul_b = fe_q.half_h;  end
          default: begin mul_a = seq_q.proj_zn;      mul_b = fe_q.z_range;  end
        endcase
      end
      default: begin
        if (pj_go) begin
          unique case (pj_ph)
            2'd0:    begin mul_a = pj_pos[0]; mul_b = rcp_y; end  // x/w
            2'd1:    begin mul_a = pj_pos[2]; mul_b = pj_q.rhw;  end  // z/w
            default: begin mul_a = pj_q.zn;      mul_b = fe_q.z_range;  end
          endcase
        end
      end
    endcase
  end
  fp32_mul u_mul (.a_i(mul_a), .b_i(mul_b), .y_o(mul_y));

  always_comb begin
    add_a = 32'd0;
    add_b = 32'd0;
    unique case (state_q)
      SDer1: begin add_a = fe_q.vp_zmax; add_b = fe_q.vp_zmin ^ Sign; end
      SInt1: begin add_a = seq_q.d_in;   add_b = (hv_q ? mul_y : dd[seq_q.plane]) ^ Sign; end
      SInt3: begin add_a = One;    add_b = seq_q.lerp_t ^ Sign; end
      SIntB: begin add_a = seq_q.lerp_in;   add_b = mul_y; end
      SProj: begin
        unique case (seq_q.phase)
          3'd1:    begin add_a = mul_y; add_b = One; end          // x/w + 1
          3'd2:    begin add_a = mul_y; add_b = fe_q.vp_x; end
          3'd3:    begin add_a = One;   add_b = mul_y ^ Sign; end // 1 - y/w
          3'd4:    begin add_a = mul_y; add_b = fe_q.vp_y; end
          3'd5:    begin add_a = mul_y; add_b = fe_q.vp_zmin; end
          default: ;
        endcase
      end
      default: begin
        if (pj_go) begin
          unique case (pj_ph)
            2'd0:    begin add_a = mul_y;  add_b = One;   end    // x/w + 1
            2'd1:    begin add_a = mul2_y; add_b = fe_q.vp_x; end    // X
            default: begin add_a = mul2_y; add_b = fe_q.vp_y; end    // Y
          endcase
        end
      end
    endcase
  end
  fp32_add u_add (.a_i(add_a), .b_i(add_b), .y_o(add_y));

  // the projector's mul and add: phase 0 y/w, 1 - y/w; phase 1 (x/w + 1) * W/2; phase 2
  // (1 - y/w) * H/2, z/w * (zmax - zmin) + zmin
  always_comb begin
    unique case (pj_ph)
      2'd0:    begin mul2_a = pj_pos[1]; mul2_b = rcp_y; end
      2'd1:    begin mul2_a = pj_q.x_plus1;      mul2_b = fe_q.half_w;  end
      default: begin mul2_a = pj_q.one_minus_y;      mul2_b = fe_q.half_h;  end
    endcase
  end
  fp32_mul u_mul2 (.a_i(mul2_a), .b_i(mul2_b), .y_o(mul2_y));

  always_comb begin
    if (pj_ph == 2'd0) begin
      add2_a = One;
      add2_b = mul2_y ^ Sign;
    end else begin
      add2_a = mul_y;
      add2_b = fe_q.vp_zmin;
    end
  end
  fp32_add u_add2 (.a_i(add2_a), .b_i(add2_b), .y_o(add2_y));

  always_comb begin
    fix_a = (state_q == SInt3) ? seq_q.lerp_t : add_y;
  end
  fp32_to_fix16_8 u_fix (.a_i(fix_a), .y_o(fix_y));

  // ---------------------------------------------------------------------------------------------
  // Emission: area, face, bounding box (the fan triangle (0, i, i + 1))
  // ---------------------------------------------------------------------------------------------
  logic [1:0]         cull_mode;       // FE_RASTER fields
  logic               front_ccw;
  logic               depth_clip_off;

  assign cull_mode      = fe_q.raster[pineda_pkg::RASTER_CULL_MSB:pineda_pkg::RASTER_CULL_LSB];
  assign front_ccw      = fe_q.raster[pineda_pkg::RASTER_FRONT_CCW_BIT];
  assign depth_clip_off = fe_q.raster[pineda_pkg::RASTER_DEPTH_CLIP_OFF_BIT];

  logic signed [23:0] ex0, ey0, ex1, ey1, ex2, ey2, xmin, xmax, ymin, ymax;
  logic signed [50:0] area2;
  logic signed [25:0] px0, px1, py0, py1, qx0, qx1, qy0, qy1, sd;
  logic [15:0]        rtw, rth;
  pineda_pkg::rect_t  clip;
  logic               front, cull;
  pineda_pkg::pa_tri_pkt_t etri;
  pineda_pkg::vtx_t   tv;
  pineda_pkg::pa_attr_t ta;
  pineda_pkg::ds_state_t eds;
  pineda_pkg::om_state_t eom;

  // The depth clamp range stamped on each triangle (docs/numerics.md §9): the D24 of
  // FE_VP_ZMIN and FE_VP_ZMAX, as a sample's depth is rounded (zplane_d24 of
  // fix(v * (2^24 - 1)), clamped to [0, DEPTH_MAX]), zhi raised to zlo when below it. Derived
  // from the state registers (not per triangle).
  logic [31:0]                    vz_lo_s, vz_hi_s;
  logic [pineda_pkg::ZREF_W-1:0]  vz_lo_f, vz_hi_f;
  logic [23:0]                    vz_lo, vz_hi;
  fp32_mul u_vzlo_m (.a_i(fe_q.vp_zmin), .b_i(32'h4B7F_FFFF), .y_o(vz_lo_s));
  fp32_mul u_vzhi_m (.a_i(fe_q.vp_zmax), .b_i(32'h4B7F_FFFF), .y_o(vz_hi_s));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_vzlo_f (.a_i(vz_lo_s), .y_o(vz_lo_f));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_vzhi_f (.a_i(vz_hi_s), .y_o(vz_hi_f));
  zplane_d24 u_vzlo_d (.z_i(pineda_pkg::ZPLANE_W'($signed(vz_lo_f))), .lo_i(24'd0),
                       .hi_i(pineda_pkg::DEPTH_MAX), .d_o(vz_lo));
  zplane_d24 u_vzhi_d (.z_i(pineda_pkg::ZPLANE_W'($signed(vz_hi_f))), .lo_i(24'd0),
                       .hi_i(pineda_pkg::DEPTH_MAX), .d_o(vz_hi));

  function automatic logic [15:0] min16(input logic [15:0] a, input logic [15:0] b);
    min16 = (a < b) ? a : b;
  endfunction

  always_comb begin
    rtw = min16(fe_q.rt_size[15:0], 16'(pineda_pkg::MAX_RT_DIM));
    rth = min16(fe_q.rt_size[31:16], 16'(pineda_pkg::MAX_RT_DIM));
    clip.x0 = 15'(min16(fe_q.scissor_x[15:0], rtw));
    clip.x1 = 15'(min16(fe_q.scissor_x[31:16], rtw));
    clip.y0 = 15'(min16(fe_q.scissor_y[15:0], rth));
    clip.y1 = 15'(min16(fe_q.scissor_y[31:16], rth));

    ex0 = $signed(pv0.sx); ey0 = $signed(pv0.sy);
    ex1 = $signed(pv1.sx); ey1 = $signed(pv1.sy);
    ex2 = $signed(pv2.sx); ey2 = $signed(pv2.sy);
    area2 = (51'(ex1) - 51'(ex0)) * (51'(ey2) - 51'(ey0)) - (51'(ex2) - 51'(ex0)) * (51'(ey1) - 51'(ey0));
    front = (area2 > 51'sd0) != front_ccw;
    xmin = (ex0 < ex1) ? ex0 : ex1;  xmin = (ex2 < xmin) ? ex2 : xmin;
    xmax = (ex0 > ex1) ? ex0 : ex1;  xmax = (ex2 > xmax) ? ex2 : xmax;
    ymin = (ey0 < ey1) ? ey0 : ey1;  ymin = (ey2 < ymin) ? ey2 : ymin;
    ymax = (ey0 > ey1) ? ey0 : ey1;  ymax = (ey2 > ymax) ? ey2 : ymax;
    // SETUP's sample box: samples within sd = 0 (1x) or 96/256 pixel (4x MSAA) of the centre.
    sd  = fe_q.rt_pitch[pineda_pkg::RT_MSAA_BIT] ? 26'sd96 : 26'sd0;
    px0 = (26'(xmin) + 26'sd127 - sd) >>> 8;
    py0 = (26'(ymin) + 26'sd127 - sd) >>> 8;
    px1 = ((26'(xmax) - 26'sd128 + sd) >>> 8) + 26'sd1;
    py1 = ((26'(ymax) - 26'sd128 + sd) >>> 8) + 26'sd1;
    qx0 = (px0 > $signed({11'd0, clip.x0})) ? px0 : $signed({11'd0, clip.x0});
    qx1 = (px1 < $signed({11'd0, clip.x1})) ? px1 : $signed({11'd0, clip.x1});
    qy0 = (py0 > $signed({11'd0, clip.y0})) ? py0 : $signed({11'd0, clip.y0});
    qy1 = (py1 < $signed({11'd0, clip.y1})) ? py1 : $signed({11'd0, clip.y1});
    cull = (area2 == '0)
        || ((cull_mode == pineda_pkg::PA_CULL_FRONT) && front)
        || ((cull_mode == pineda_pkg::PA_CULL_BACK) && !front)
        || (qx1 <= qx0) || (qy1 <= qy0);

    etri = '0;
    tv.x = pv0.sx; tv.y = pv0.sy; etri.v[0] = tv;
    tv.x = pv1.sx; tv.y = pv1.sy; etri.v[1] = tv;
    tv.x = pv2.sx; tv.y = pv2.sy; etri.v[2] = tv;
    // attributes: z, 1/w from the projection, colour and texture coordinates from the polygon
    ta.z = pv0.z; ta.rhw = pv0.rhw;
    ta.color = cv_0.color;
    ta.tex0.u = cv_0.a[4]; ta.tex0.v = cv_0.a[5]; ta.tex1.u = cv_0.a[6]; ta.tex1.v = cv_0.a[7];
    etri.attr[0] = ta;
    ta.z = pv1.z; ta.rhw = pv1.rhw;
    ta.color = cv_1.color;
    ta.tex0.u = cv_1.a[4]; ta.tex0.v = cv_1.a[5]; ta.tex1.u = cv_1.a[6]; ta.tex1.v = cv_1.a[7];
    etri.attr[1] = ta;
    ta.z = pv2.z; ta.rhw = pv2.rhw;
    ta.color = cv_2.color;
    ta.tex0.u = cv_2.a[4]; ta.tex0.v = cv_2.a[5]; ta.tex1.u = cv_2.a[6]; ta.tex1.v = cv_2.a[7];
    etri.attr[2] = ta;
    etri.color   = seq_q.flat_color;
    etri.target.base  = fe_q.rt_base;
    etri.target.pitch = fe_q.rt_pitch[pineda_pkg::RT_PITCH_MSB:pineda_pkg::RT_PITCH_LSB];
    etri.target.msaa  = fe_q.rt_pitch[pineda_pkg::RT_MSAA_BIT];
    etri.clip    = clip;
    etri.tri_id  = seq_q.tri_id;
    etri.prim_id = prim_i.prim_id;
    etri.draw_id = prim_i.draw_id;
    etri.front   = front;
    eds              = '0;
    eds.base         = fe_q.ds_base;
    eds.pitch        = fe_q.ds_pitch;
    eds.z_enable     = fe_q.depth[pineda_pkg::DEPTH_ENABLE_BIT];
    eds.z_func       = fe_q.depth[pineda_pkg::DEPTH_FUNC_MSB:pineda_pkg::DEPTH_FUNC_LSB];
    eds.z_write      = fe_q.depth[pineda_pkg::DEPTH_WRITE_BIT];
    // An alpha-tested draw tests depth late (docs/comb.md section 5)
    eds.late_z       = fe_q.depth[pineda_pkg::DEPTH_LATE_BIT] | fe_q.combine[pineda_pkg::COMB_ALPHA_TEST_BIT] |
                       fe_q.combine[pineda_pkg::COMB_ALPHA_TO_COVERAGE_BIT];
    eds.hiz          = fe_q.depth[pineda_pkg::DEPTH_HIZ_BIT];
    eds.s_enable     = fe_q.stencil[pineda_pkg::STENCIL_ENABLE_BIT];
    eds.s_ref        = fe_q.stencil[pineda_pkg::STENCIL_REF_MSB:pineda_pkg::STENCIL_REF_LSB];
    eds.s_read_mask  = fe_q.stencil[pineda_pkg::STENCIL_READ_MASK_MSB:pineda_pkg::STENCIL_READ_MASK_LSB];
    eds.s_write_mask = fe_q.stencil[pineda_pkg::STENCIL_WRITE_MASK_MSB:pineda_pkg::STENCIL_WRITE_MASK_LSB];
    eds.s_front      = fe_q.stencil_ops[pineda_pkg::STENCIL_FRONT_MSB:pineda_pkg::STENCIL_FRONT_LSB];
    eds.s_back       = fe_q.stencil_ops[pineda_pkg::STENCIL_BACK_MSB:pineda_pkg::STENCIL_BACK_LSB];
    etri.ds      = eds;
    eom          = '0;
    eom.fmt      = fe_q.rt_pitch[pineda_pkg::RT_FMT_MSB:pineda_pkg::RT_FMT_LSB];
    eom.blend    = fe_q.blend[pineda_pkg::BLEND_ENABLE_BIT];
    eom.src      = fe_q.blend[pineda_pkg::BLEND_SRC_MSB:pineda_pkg::BLEND_SRC_LSB];
    eom.dst      = fe_q.blend[pineda_pkg::BLEND_DST_MSB:pineda_pkg::BLEND_DST_LSB];
    eom.op       = fe_q.blend[pineda_pkg::BLEND_OP_MSB:pineda_pkg::BLEND_OP_LSB];
    eom.src_a    = fe_q.blend[pineda_pkg::BLEND_SRC_A_MSB:pineda_pkg::BLEND_SRC_A_LSB];
    eom.dst_a    = fe_q.blend[pineda_pkg::BLEND_DST_A_MSB:pineda_pkg::BLEND_DST_A_LSB];
    eom.op_a     = fe_q.blend[pineda_pkg::BLEND_OP_A_MSB:pineda_pkg::BLEND_OP_A_LSB];
    eom.mask_off = fe_q.blend[pineda_pkg::BLEND_MASK_OFF_MSB:pineda_pkg::BLEND_MASK_OFF_LSB];
    eom.lop_en   = fe_q.logic_op[pineda_pkg::LOGIC_ENABLE_BIT];
    eom.lop      = fe_q.logic_op[pineda_pkg::LOGIC_OP_MSB:pineda_pkg::LOGIC_OP_LSB];
    eom.factor   = fe_q.blend_factor;
    eom.gouraud  = fe_q.gouraud;
    eom.tex      = fe_q.tex0;
    eom.samp     = fe_q.samp0;
    eom.tex1     = fe_q.tex1;
    eom.samp1    = fe_q.samp1;
    eom.comb     = pineda_pkg::comb_state_t'(fe_q.combine);
    etri.om      = eom;
    etri.zlo     = vz_lo;
    etri.zhi     = (vz_hi < vz_lo) ? vz_lo : vz_hi;
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  logic       vtx_bank;  // bank the input vertex goes to
  logic       out_free, vtx_fire, pos_nan_a, pos_nan_b, pos_nan_p, prim_done, proj_rdy, vp_wr;
  logic       nan_pj, nb_rb_todo, nb_bank;
  logic [4:0] smax;
  logic [6:0] code_mask, code_ld_a, code_ld_b, or_next;
  logic [2:0] pl_next;
  logic       pl_found;

  always_comb begin
    // next plane in seq_q.code_or after seq_q.plane
    pl_next  = 3'd0;
    pl_found = 1'b0;
    for (int p = 6; p >= 0; p--) begin
      if (seq_q.code_or[p] && (3'(p) > seq_q.plane)) begin
        pl_next  = 3'(p);
        pl_found = 1'b1;
      end
    end
  end

  always_comb begin
    state_d     = state_q;
    hv_d        = hv_q;
    fe_d        = fe_q;
    vb_d        = vb_q;
    seq_d       = seq_q;
    pj_d        = pj_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    prim_ready_o = 1'b0;
    prim_done    = 1'b0;
    vp_wr        = 1'b0;
    vb_we = 1'b0; vb_waddr = '0; vb_wdata = '0;
    poly_we = 1'b0; poly_waddr = '0; poly_wdata = '0;
    proj_we = 1'b0; proj_waddr = '0; proj_wdata = '0;
    pc_we = 1'b0; pc_waddr = '0; pc_wdata = '0;

    out_free = !out_valid_q || out_ready_i;
    if (out_valid_q && out_ready_i) out_valid_d = 1'b0;

    // ---- vertex stream
    vtx_bank    = vtx_i.vtx_id[5] ? vb_q.wr_bank : !vb_q.wr_bank;
    vtx_ready_o = vtx_i.eop || !vtx_i.vtx_id[5] || !vb_q.busy[vb_q.wr_bank];
    vtx_fire    = vtx_valid_i && vtx_ready_o;
    // A vertex of a batch whose triangles are all done (one no triangle reads: vertex tags never
    // sends one, the unit tests do) is dropped, like a token.
    if (vtx_fire && !vtx_i.eop && (vtx_i.vtx_id[5] || vb_q.busy[vtx_bank])) begin
      vb_we    = 1'b1;
      vb_waddr = {vtx_bank, vtx_i.vtx_id[4:0]};
      vb_wdata.color = vtx_i.color;
      vb_wdata.a = {vtx_i.tex1.v, vtx_i.tex1.u, vtx_i.tex0.v, vtx_i.tex0.u,
                    vtx_i.pos.w, vtx_i.pos.z, vtx_i.pos.y, vtx_i.pos.x};
      vb_d.loaded[vtx_bank] = vb_q.loaded[vtx_bank] + 6'd1;
      if (vtx_i.vtx_id[5]) begin
        vb_d.busy[vb_q.wr_bank] = 1'b1;
        vb_d.wr_bank            = !vb_q.wr_bank;
      end
    end

    // ---- projector: phase 0 1/w, x/w + 1, 1 - y/w; phase 1 z/w, sx; phase 2 sy, z -> cache
    nan_pj = 1'b0;
    for (int c = 0; c < 4; c++) begin
      nan_pj = nan_pj || ((pj_pos[c][30:23] == 8'hFF) && (pj_pos[c][22:0] != 23'd0));
    end
    if (pj_go) begin
      unique case (pj_ph)
        2'd0: begin
          pj_d.code   = {nan_pj, dout};
          pj_d.rhw    = rcp_y;
          pj_d.x_plus1   = add_y;
          pj_d.one_minus_y   = add2_y;
          pj_d.busy = 1'b1;
          pj_d.phase   = 2'd1;
          pj_d.bank    = pj_bank;
          pj_d.slot    = pj_slot;
        end
        2'd1: begin
          pj_d.zn = mul_y;
          pj_d.sx = fix_y;
          pj_d.phase = 2'd2;
        end
        default: begin
          pc_we    = 1'b1;
          pc_waddr = {pj_q.bank, pj_q.slot};
          pc_wdata = {pj_q.code, pj_q.sx, fix_y, add2_y, pj_q.rhw};
          vb_d.projected[pj_q.bank] = vb_q.projected[pj_q.bank] + 6'd1;
          pj_d.busy  = 1'b0;
          pj_d.phase    = 2'd0;
        end
      endcase
    end

    // a triangle starts once its batch has begun and its three slots are projected
    smax = prim_i.s0;
    if (prim_i.s1 > smax) smax = prim_i.s1;
    if (prim_i.s2 > smax) smax = prim_i.s2;
    proj_rdy = vb_q.busy[vb_q.rd_bank] && ({1'b0, smax} < vb_q.projected[vb_q.rd_bank]);

    // LOAD's clip codes and NaN flags, from the projection cache (near and far masked when
    // depth clipping is off)
    code_mask  = {4'hF, !depth_clip_off, !depth_clip_off, 1'b1};
    code_ld_a  = pcode_a[6:0] & code_mask;
    code_ld_b  = pcode_b[6:0] & code_mask;
    pos_nan_a  = pcode_a[7];
    pos_nan_b  = pcode_b[7];
    or_next    = seq_q.code_or | code_ld_a;
    pos_nan_p  = 1'b0;
    for (int c = 0; c < 4; c++) begin
      pos_nan_p  = pos_nan_p  || ((cv_a.a[c][30:23] == 8'hFF) && (cv_a.a[c][22:0] != 23'd0));
    end

    unique case (state_q)
      SIdle: begin
        if (prim_valid_i) begin
          if (prim_i.eop) begin
            if (out_free) begin
              prim_ready_o = 1'b1;
              out_valid_d  = 1'b1;
              out_d        = '0;
              out_d.eop    = 1'b1;
            end
          end else if (prim_i.wr) begin
            prim_ready_o = 1'b1;
            // a viewport register changes (writing its value again changes nothing)
            unique case (prim_i.wr_idx)
              pineda_pkg::FE_VP_X:    vp_wr = prim_i.wr_val != fe_q.vp_x;
              pineda_pkg::FE_VP_Y:    vp_wr = prim_i.wr_val != fe_q.vp_y;
              pineda_pkg::FE_VP_W:    vp_wr = prim_i.wr_val != fe_q.vp_w;
              pineda_pkg::FE_VP_H:    vp_wr = prim_i.wr_val != fe_q.vp_h;
              pineda_pkg::FE_VP_ZMIN: vp_wr = prim_i.wr_val != fe_q.vp_zmin;
              pineda_pkg::FE_VP_ZMAX: vp_wr = prim_i.wr_val != fe_q.vp_zmax;
              default: ;
            endcase
            unique case (prim_i.wr_idx)
              pineda_pkg::FE_VP_X:      fe_d.vp_x     = prim_i.wr_val;
              pineda_pkg::FE_VP_Y:      fe_d.vp_y     = prim_i.wr_val;
              pineda_pkg::FE_VP_W:      fe_d.vp_w     = prim_i.wr_val;
              pineda_pkg::FE_VP_H:      fe_d.vp_h     = prim_i.wr_val;
              pineda_pkg::FE_VP_ZMIN:   fe_d.vp_zmin    = prim_i.wr_val;
              pineda_pkg::FE_VP_ZMAX:   fe_d.vp_zmax    = prim_i.wr_val;
              pineda_pkg::FE_RASTER:    fe_d.raster  = prim_i.wr_val[3:0];
              pineda_pkg::FE_RT_BASE:   fe_d.rt_base  = prim_i.wr_val;
              pineda_pkg::FE_RT_PITCH:  fe_d.rt_pitch = prim_i.wr_val[18:0];
              pineda_pkg::FE_RT_SIZE:   fe_d.rt_size  = prim_i.wr_val;
              pineda_pkg::FE_SCISSOR_X: fe_d.scissor_x     = prim_i.wr_val;
              pineda_pkg::FE_SCISSOR_Y: fe_d.scissor_y     = prim_i.wr_val;
              pineda_pkg::FE_DS_BASE:     fe_d.ds_base     = prim_i.wr_val;
              pineda_pkg::FE_DS_PITCH:    fe_d.ds_pitch    = prim_i.wr_val[15:0];
              pineda_pkg::FE_DEPTH:       fe_d.depth       = prim_i.wr_val[6:0];
              pineda_pkg::FE_STENCIL:     fe_d.stencil     = prim_i.wr_val;
              pineda_pkg::FE_STENCIL_OPS: fe_d.stencil_ops = prim_i.wr_val;
              pineda_pkg::FE_BLEND:       fe_d.blend       = prim_i.wr_val[30:0];
              pineda_pkg::FE_BLEND_FACTOR: fe_d.blend_factor = prim_i.wr_val;
              pineda_pkg::FE_LOGIC_OP:    fe_d.logic_op    = prim_i.wr_val[4:0];
              pineda_pkg::FE_SHADE:       fe_d.gouraud     = prim_i.wr_val[pineda_pkg::SHADE_GOURAUD_BIT];
              pineda_pkg::FE_TEX0:        fe_d.tex0        = prim_i.wr_val;
              pineda_pkg::FE_SAMP0:       fe_d.samp0       = prim_i.wr_val;
              pineda_pkg::FE_TEX1:        fe_d.tex1        = prim_i.wr_val;
              pineda_pkg::FE_SAMP1:       fe_d.samp1       = prim_i.wr_val;
              pineda_pkg::FE_COMBINE:     fe_d.combine     = prim_i.wr_val[20:0];
              default: ;
            endcase
            // a viewport write: derived values in SDer1, SDer2
            state_d = vp_wr ? SDer1 : SIdle;
          end else if (proj_rdy) begin
            // LOAD, first clock: vertices 0 and 1 are read (banks A, B, cache a, b)
            seq_d.load_vtx     = 2'd1;
            seq_d.cur_buf   = 1'b0;
            seq_d.vtx_idx     = 4'd1;
            state_d = SLoad;
          end
        end
      end
      SDer1: begin
        fe_d.half_w    = mul_y;
        fe_d.z_range    = add_y;
        state_d = SDer2;
      end
      SDer2: begin
        fe_d.half_h    = mul_y;
        state_d = SIdle;
      end
      SLoad: begin
        if (seq_q.load_vtx == 2'd1) begin
          // vertices 0 (port a) and 1 (port b) are here: vertex 0 into the polygon buffer;
          // vertex 2 is read on port a
          poly_we    = 1'b1;
          poly_waddr = paddr(1'b0, 4'd0);
          poly_wdata = {code_ld_a, CvW'(va_cv)};
          seq_d.flat_color = va_cv.color;
          seq_d.code_and   = code_ld_a & code_ld_b;
          seq_d.code_or    = code_ld_a | code_ld_b;
          seq_d.pos_nan    = pos_nan_a || pos_nan_b;
          seq_d.fast_pv0   = pc_a;
          seq_d.load_vtx   = 2'd2;
        end else begin
          // vertex 2 is here (port a; port b still holds vertex 1): vertex 1 into the polygon
          // buffer, the decision
          poly_we    = 1'b1;
          poly_waddr = paddr(1'b0, 4'd1);
          poly_wdata = {code_ld_b, CvW'(vb_cv)};
          seq_d.code_and = seq_q.code_and & code_ld_a;
          seq_d.code_or  = or_next;
          seq_d.pos_nan  = seq_q.pos_nan || pos_nan_a;
          seq_d.cur_buf = 1'b0;
          seq_d.poly_len   = 4'd3;
          seq_d.out_len   = 4'd0;
          seq_d.phase  = 3'd0;
          if (seq_q.pos_nan || pos_nan_a || ((seq_q.code_and & code_ld_a) != 7'd0)) begin
            prim_done = 1'b1;         // NaN or rejected
          end else if (or_next == 7'd0) begin
            // fast path: not clipped, the cached projections; waits here for the output
            if (cull || out_free) begin
              if (!cull) begin
                out_valid_d = 1'b1;
                out_d       = etri;
                seq_d.tri_id       = seq_q.tri_id + 32'd1;
              end
              prim_done = 1'b1;
            end
          end else begin
            // the slow path: vertex 2 into the polygon buffer first (SLoadW)
            seq_d.vtx_idx     = 4'd0;
            state_d = SLoadW;
            seq_d.plane    = 3'd0;
            for (int p = 6; p >= 0; p--) begin
              if (or_next[p]) seq_d.plane = 3'(p);
            end
          end
        end
      end
      SLoadW: begin
        // vertex 2, still on port a (read again with the same address in SLoad)
        poly_we    = 1'b1;
        poly_waddr = paddr(1'b0, 4'd2);
        poly_wdata = {code_ld_a, CvW'(va_cv)};
        state_d    = SClip;
      end
      SClip: begin
        // edge (i, ib): copy A when inside; a crossing edge goes through INT
        if (in_a) begin
          poly_we    = 1'b1;
          poly_waddr = paddr(!seq_q.cur_buf, seq_q.out_len);
          poly_wdata = pe_a;
        end
        seq_d.out_len = seq_q.out_len + (in_a ? 4'd1 : 4'd0);
        if (in_a != in_b) begin
          seq_d.in_first = in_a;
          state_d = SInt0;
        end else if (ib == 4'd0) begin
          // plane done
          if (seq_q.out_len + (in_a ? 4'd1 : 4'd0) < 4'd3) begin
            state_d = SDone;
          end else begin
            seq_d.cur_buf = !seq_q.cur_buf;
            seq_d.poly_len   = seq_q.out_len + (in_a ? 4'd1 : 4'd0);
            seq_d.out_len   = 4'd0;
            seq_d.vtx_idx   = 4'd0;
            if (pl_found) begin
              seq_d.plane = pl_next;
            end else begin
              state_d = SProj;
              seq_d.phase    = 3'd0;
            end
          end
        end else begin
          seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
        end
      end
      SInt0: begin
        seq_d.d_in    = dd[seq_q.plane];
        state_d = SInt1;
      end
      SInt1: begin
        if (!hv_q && (add_y[30:23] >= 8'hBF)) begin
          seq_d.d_in = mul_y;      // |dI - dO| >= 2^64 (or Inf): again with dI, dO scaled by 2^-64
          hv_d = 1'b1;
        end else begin
          seq_d.d_diff   = add_y;         // dI - dO
          hv_d    = 1'b0;
          state_d = SInt2;
        end
      end
      SInt2: begin
        seq_d.lerp_t     = mul_y;           // dI * rcp(dI - dO)
        state_d = SInt3;
      end
      SInt3: begin
        seq_d.lerp_s     = add_y;           // 1 - t
        if ($signed(fix_y) < 24'sd0) begin
          seq_d.lerp_t8 = 9'd0;
        end else if ($signed(fix_y) > 24'sd256) begin
          seq_d.lerp_t8 = 9'd256;
        end else begin
          seq_d.lerp_t8 = fix_y[8:0];
        end
        seq_d.phase    = 3'd0;
        state_d = SIntA;
      end
      SIntA: begin
        seq_d.lerp_in    = mul_y;           // s * a_in
        state_d = SIntB;
      end
      SIntB: begin
        seq_d.new_vtx.a[seq_q.phase] = add_y;      // s * a_in + t * a_out
        seq_d.phase    = seq_q.phase + 3'd1;
        state_d = (seq_q.phase == 3'd7) ? SIntW : SIntA;
      end
      SIntW: begin
        poly_we    = 1'b1;
        poly_waddr = paddr(!seq_q.cur_buf, seq_q.out_len);
        poly_wdata = {dout & {4'hF, !depth_clip_off, !depth_clip_off, 1'b1}, CvW'(nv_snap)};
        seq_d.out_len        = seq_q.out_len + 4'd1;
        if (ib == 4'd0) begin
          seq_d.cur_buf = !seq_q.cur_buf;
          seq_d.poly_len   = seq_q.out_len + 4'd1;
          seq_d.out_len   = 4'd0;
          seq_d.vtx_idx   = 4'd0;
          if (seq_q.out_len + 4'd1 < 4'd3) begin
            state_d = SDone;
          end else if (pl_found) begin
            seq_d.plane    = pl_next;
            state_d = SClip;
          end else begin
            state_d = SProj;
            seq_d.phase    = 3'd0;
          end
        end else begin
          seq_d.vtx_idx     = seq_q.vtx_idx + 4'd1;
          state_d = SClip;
        end
      end
      SProj: begin
        seq_d.phase = seq_q.phase + 3'd1;
        unique case (seq_q.phase)
          3'd0: begin
            seq_d.proj_rhw  = rcp_y;
            seq_d.proj_zn = mul_y;
            if (pos_nan_p) state_d = SDone;
          end
          3'd1: seq_d.proj_tmp = add_y;
          3'd2: seq_d.proj_sx = fix_y;
          3'd3: seq_d.proj_tmp = add_y;
          3'd4: begin
            proj_we    = 1'b1;      // sx, sy now; z and 1/w with phase 5
            proj_waddr = seq_q.vtx_idx;
            proj_wdata = {seq_q.proj_sx, fix_y, 32'd0, 32'd0};
            seq_d.proj_sx       = fix_y;     // keep sy
          end
          default: begin
            proj_we    = 1'b1;
            proj_waddr = seq_q.vtx_idx;
            proj_wdata = {proj_q[seq_q.vtx_idx][111:88], seq_q.proj_sx, add_y, seq_q.proj_rhw};
            seq_d.phase       = 3'd0;
            if (seq_q.vtx_idx + 4'd1 == seq_q.poly_len) begin
              seq_d.vtx_idx     = 4'd1;
              state_d = SEmit;
            end else begin
              seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
            end
          end
        endcase
      end
      SEmit: begin
        // fan triangle (0, i, i + 1); i + 1 < n
        if (cull || out_free) begin
          if (!cull) begin
            out_valid_d = 1'b1;
            out_d       = etri;
            seq_d.tri_id       = seq_q.tri_id + 32'd1;
          end
          if (seq_q.vtx_idx + 4'd2 == seq_q.poly_len) begin
            state_d = SDone;
          end else begin
            seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
          end
        end
      end
      SDone: begin
        prim_done = 1'b1;
      end
      default: state_d = SIdle;
    endcase

    // the triangle is accepted; its batch's last triangle frees the bank (and its cache)
    if (prim_done) begin
      prim_ready_o = 1'b1;
      state_d      = SIdle;
      seq_d.load_vtx          = 2'd0;
      if (prim_i.last) begin
        vb_d.busy[vb_q.rd_bank] = 1'b0;
        vb_d.rd_bank         = !vb_q.rd_bank;
        vb_d.loaded[vb_q.rd_bank] = 6'd0;
        vb_d.projected[vb_q.rd_bank] = 6'd0;
        if (pj_d.busy && (pj_d.bank == vb_q.rd_bank)) begin
          pj_d.busy = 1'b0;
          pj_d.phase   = 2'd0;
        end
      end
    end
    // a viewport write: every cached projection is stale, the vertex in flight too
    if (vp_wr) begin
      vb_d.projected  = '0;
      pj_d.busy = 1'b0;
      pj_d.phase   = 2'd0;
    end

    // Bank P is read every clock at the word the projector works on in the next clock: the
    // same choice as pj_bank / pj_slot, made on the next-state values. The read returns the
    // word as it was before this clock's write; a write to that word goes to the bypass.
    nb_rb_todo = vb_d.projected[vb_d.rd_bank] < vb_d.loaded[vb_d.rd_bank];
    if (pj_d.busy) begin
      nb_bank = pj_d.bank;
    end else begin
      nb_bank = nb_rb_todo ? vb_d.rd_bank : !vb_d.rd_bank;
    end
    pj_raddr  = {nb_bank, pj_d.busy ? pj_d.slot : vb_d.projected[nb_bank][4:0]};
    byp_d     = vb_we && (vb_waddr == pj_raddr);
    byp_pos_d = vb_wdata.a[3:0];

    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = (state_q == SIdle) && !out_valid_q && (vb_q.busy == 2'b00) && !pj_any;
    clip_busy_o = (state_q == SClip) || (state_q == SInt0) || (state_q == SInt1) || (state_q == SInt2)
               || (state_q == SInt3) || (state_q == SIntA) || (state_q == SIntB) || (state_q == SIntW);
  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q        <= SIdle;
      fe_q           <= '0;
      fe_q.scissor_x <= pineda_pkg::FE_SCISSOR_X_RESET;
      fe_q.scissor_y <= pineda_pkg::FE_SCISSOR_Y_RESET;
      fe_q.stencil     <= pineda_pkg::FE_STENCIL_RESET;
      fe_q.stencil_ops <= pineda_pkg::FE_STENCIL_OPS_RESET;
      fe_q.blend       <= 31'(pineda_pkg::FE_BLEND_RESET);
      fe_q.blend_factor <= pineda_pkg::FE_BLEND_FACTOR_RESET;
      vb_q           <= '0;
      seq_q          <= '0;
      pj_q           <= '0;
      out_valid_q    <= 1'b0;
      out_q          <= '0;
      byp_q          <= 1'b0;
    end else begin
      state_q     <= state_d;
      fe_q        <= fe_d;
      vb_q        <= vb_d;
      seq_q       <= seq_d;
      pj_q        <= pj_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
      byp_q       <= byp_d;
    end
  end

  // The clip intersection's retry (numerics 8.2): dI and dO scaled by 2^-64.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hv_q <= 1'b0;
    else         hv_q <= hv_d;
  end

  // Storage arrays (written one entry per clock, no reset).
  always_ff @(posedge clk_i) begin
    if (poly_we) poly_q[poly_waddr] <= poly_wdata;
    if (proj_we) proj_q[proj_waddr] <= proj_wdata;
    byp_pos_q <= byp_pos_d;
  end

`ifndef SYNTHESIS
  // Invariants the sequencer and the projector rely on.
  logic [5:0] pj_raddr_q;   // bank P's read address of the previous clock
  always_ff @(posedge clk_i) pj_raddr_q <= pj_raddr;
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      OutStable: assert (!(out_valid_q && !out_ready_i) || (out_valid_d && out_d == out_q))
        else $error("pa: output changed while stalled");
      PolyOverflow: assert (!(state_q == SClip && seq_q.out_len > 4'(MaxPoly - 1)))
        else $error("pa: polygon overflow");
      FirstVertexIntoBusyBank: assert (!(vtx_fire && !vtx_i.eop && vtx_i.vtx_id[5] && vb_q.busy[vb_q.wr_bank]))
        else $error("pa: a batch's first vertex into a busy bank");
      BankLoaded: assert (32'(vb_q.loaded[0]) <= pineda_pkg::VTX_BATCH_SLOTS &&
                          32'(vb_q.loaded[1]) <= pineda_pkg::VTX_BATCH_SLOTS)
        else $error("pa: a bank holds more vertices than a batch (%0d, %0d)", vb_q.loaded[0],
                    vb_q.loaded[1]);
      BankProjected: assert (vb_q.projected[0] <= vb_q.loaded[0] && vb_q.projected[1] <= vb_q.loaded[1])
        else $error("pa: more vertices projected than loaded (%0d of %0d, %0d of %0d)",
                    vb_q.projected[0], vb_q.loaded[0], vb_q.projected[1], vb_q.loaded[1]);
      // Banks fill and drain in the same order: the bank after the read bank is busy only if
      // the read bank is.
      BankOrder: assert (!vb_q.busy[!vb_q.rd_bank] || vb_q.busy[vb_q.rd_bank])
        else $error("pa: bank %0d busy before the read bank %0d", !vb_q.rd_bank, vb_q.rd_bank);
      ProjectorSlotLoaded: assert (!pj_q.busy || {1'b0, pj_q.slot} < vb_q.loaded[pj_q.bank])
        else $error("pa: projecting slot %0d of bank %0d, not loaded", pj_q.slot, pj_q.bank);
      TriangleSlotsLoaded: assert (state_q != SLoad ||
                                   ({1'b0, prim_i.s0} < vb_q.loaded[vb_q.rd_bank] &&
                                    {1'b0, prim_i.s1} < vb_q.loaded[vb_q.rd_bank] &&
                                    {1'b0, prim_i.s2} < vb_q.loaded[vb_q.rd_bank]))
        else $error("pa: triangle reads a slot not loaded in bank %0d", vb_q.rd_bank);
      // LOAD's registered reads (banks A, B, issued in IDLE and SLoad, used until SLoadW) see the
      // triangle's vertices: nothing writes the read bank's slots of the triangle meanwhile.
      LoadSlotsNotWritten: assert (!(vb_we && (state_q == SLoad || state_q == SLoadW) &&
                                     vb_waddr[5] == vb_q.rd_bank &&
                                     (vb_waddr[4:0] == prim_i.s0 || vb_waddr[4:0] == prim_i.s1 ||
                                      vb_waddr[4:0] == prim_i.s2)))
        else $error("pa: a triangle's slot %0d of bank %0d written during its LOAD",
                    vb_waddr[4:0], vb_q.rd_bank);
      // The projector's read of bank P (issued the clock before with pj_raddr) is of the word
      // it works on.
      ProjectorReadAddress: assert (!pj_go || pj_raddr_q == {pj_bank, pj_slot})
        else $error("pa: projector reads word %0d, works on %0d", pj_raddr_q, {pj_bank, pj_slot});
    end
  end
`endif

endmodule
