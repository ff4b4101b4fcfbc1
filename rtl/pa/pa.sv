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
// Projector (pj_*, ag_*, pjv_q): every vertex of a bank is projected once (1/w, viewport, snap,
// z) and its clip codes and NaN flag computed (pa_dist_p) into a per-slot cache (sram_1r1w, two
// copies for LOAD's two ports: {NaN, code, sx, sy, z, 1/w}), in slot order, as the vertices
// arrive: the read bank first, then the bank being loaded; vb_q.loaded[b] vertices are loaded,
// vb_q.issued[b] issued, vb_q.projected[b] projected. A pipeline of 13 clocks with one FP32
// operation per unit per clock (the units below): the first vertex of a burst is issued at
// once, the next ones every 3 clocks (pj_free); it is blocked while the sequencer uses the
// units (SDer* once the pipeline has emptied, SInt once no vertex in flight meets it:
// int_free) or injects a polygon's vertices (SProj). A write to a viewport register (FE_VP_*), applied in
// order on the triangle stream and changing the register, empties the cache of both banks
// (vb_q.projected = 0) and cancels the vertices in flight; freeing a bank empties its cache. So every
// projection in the cache was made with the viewport state that applies to the triangle reading
// it, and equals the model's projection of that triangle's vertex (an unclipped triangle's
// vertices are the input vertices bit for bit, numerics §8.2).
//
// One sequencer (state_q) runs each triangle:
//   LOAD   3 clocks (the first in IDLE, once slot 0 is projected and slots 1 and 2 are projected
//          or, one of them, written into the cache in that clock): vertices 0 and 1 (banks A,
//          B; cache a, b) are read with the addresses of the first clock, vertex 2 (bank A,
//          cache a) and vertex 1 again (bank B, cache b) with those of the second. The
//          second clock writes vertex 0 into polygon buffer 0, the third vertex 1, with their
//          cached clip codes. In the third clock: NaN or AND of the codes -> discarded; OR of
//          the codes 0 (the fast path) -> the triangle (cached projections) into the emission
//          register e_q, accepted; otherwise the slow path, after one more clock (LOADW)
//          writing vertex 2 into the polygon buffer:
//   CLIP   per plane in the OR of the codes, per polygon edge: 1 clock, plus INT (24 clocks,
//          one FP operation issued per step) for an edge crossing the plane (Sutherland-Hodgman,
//          ping-pong between two buffers)
//   PROJ   the polygon's vertices injected into the projector (the first at once, then one per
//          3 clocks)
//   EMIT   1 clock per fan triangle (0, i, i + 1) into e_q, each once vertex i + 1's results
//          are in proj_q (proj_n_q); the last one accepts the triangle packet (the prim input
//          is held stable until then)
// e_q: area, face and bounding-box culling on the registered triangle, then the output
// register. An unclipped triangle takes 3 clocks. A token leaves in order through the output
// register; a state write takes 1 clock, one changing the viewport 5 (SDer1..4: W/2, H/2,
// zmax - zmin and the depth clamp range's products on the units); both wait while e_q is full.
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
  localparam logic [31:0] VzScale = 32'h4B7F_FFFF;  // 2^24 - 1

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
    SIdle, SDer1, SDer2, SDer3, SDer4, SLoad, SLoadW, SClip, SInt, SProj, SEmit
  } state_e;

  // ---------------------------------------------------------------------------------------------
  // State, one packed struct per concern (reset: all zero, but the scissor)
  // ---------------------------------------------------------------------------------------------
  // Front-end state written on the triangle stream, and values derived from the viewport.
  typedef struct packed {
    pineda_pkg::pa_regs_t regs;  // PA's front-end registers (generated: contracts/defs.py REG_FILES)
    logic [31:0] half_w;         // vp_w / 2
    logic [31:0] half_h;         // vp_h / 2
    logic [31:0] z_range;        // vp_zmax - vp_zmin
  } fe_t;

  // The two vertex buffer banks.
  typedef struct packed {
    logic [1:0]      busy;       // per bank: first vertex in, last triangle not done yet
    logic            wr_bank;    // bank the next batch's first vertex takes (!wr_bank: loading)
    logic            rd_bank;    // bank whose triangles are processed
    logic [1:0][5:0] loaded;     // per bank: vertices loaded
    logic [1:0][5:0] issued;     // per bank: vertices issued to the projector (<= loaded)
    logic [1:0][5:0] projected;  // per bank: vertices projected into pcache_q (<= issued)
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
    logic [4:0]  k;           // INT: step (one FP operation issued per step, see SInt)
    logic [31:0] d_in;        // INT: plane distance of the inside vertex
    logic [31:0] d_out;       // INT: plane distance of the outside vertex
    logic [31:0] lerp_t;      // INT: t = d_in / (d_in - d_out), weight of the outside vertex
    logic [31:0] lerp_s;      // INT: 1 - t, weight of the inside vertex
    logic [8:0]  lerp_t8;     // INT: t in 1/256, clamped to [0, 256] (colour)
    cv_t         new_vtx;     // INT: the new vertex
    logic [6:0]  nv_code;     // INT: its clip code
    logic [31:0] tri_id;      // output triangles since reset
    pv_t         fast_pv0;    // LOAD: cached projection of vertex 0
  } seq_t;

  // The projector: a pipeline of 13 clocks (ages 0..12), a new vertex every 3 clocks at most
  // (pj_free), one FP operation per unit per clock (see "Projector" below).
  // Per age 1..12 a valid bit, whether the vertex is a bank vertex (-> projection cache
  // {bank, slot}) or a polygon vertex injected by PROJ (-> proj_q[slot]); its values travel in
  // the per-age registers of pjv_t.
  localparam int PjAges = 12;
  typedef struct packed {
    logic [3:0][31:0]    p1;     // age 1: x, y, z, w
    logic [3:0][31:0]    p2;     // age 2
    logic [31:0]         z3;     // age 3: z
    logic [9:0][31:0]    r;      // ages 3..12: 1/w
    logic [9:0][7:0]     code;   // ages 3..12: {NaN, clip code}
    logic [31:0]         zn6;    // age 6: z/w
    logic [31:0]         zn7;    // age 7
    logic [31:0]         xp7;    // age 7: x/w + 1
    logic [31:0]         z12;    // age 12: z
    logic [23:0]         sy12;   // age 12: snapped y
  } pjv_t;

  state_e                  state_q, state_d;
  logic                    hv_q, hv_d;  // SInt: |dI - dO| >= 2^64, retrying scaled by 2^-64
  fe_t                     fe_q, fe_d;
  vb_t                     vb_q, vb_d;
  seq_t                    seq_q, seq_d;
  logic [3:0]              proj_n_q, proj_n_d;    // PROJ / EMIT: polygon vertices written into proj_q
  logic [PjAges:1]         ag_valid_q, ag_valid_d;
  logic [PjAges:1]         ag_poly_q, ag_poly_d;
  logic [PjAges:1]         ag_bank_q, ag_bank_d;
  logic [PjAges:1][4:0]    ag_slot_q, ag_slot_d;
  pjv_t                    pjv_q, pjv_d;
  logic                    e_valid_q, e_valid_d;   // emission register: a triangle to cull
  pineda_pkg::pa_tri_pkt_t e_q, e_d;
  logic                    out_valid_q, out_valid_d;
  pineda_pkg::pa_tri_pkt_t out_q, out_d;

  // storage (no reset): the vertex banks, the projection cache, the polygon buffers and the
  // polygon's projections in sram_1r1w (below)
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

  // (The copies are 32 and 16 words deep, a power of two: the read addresses follow the index
  // registers in every state, also where nothing reads the data.)
  // Polygon buffers (two of MaxPoly entries {code, cv}, ping-pong between clip planes): two
  // sram_1r1w copies written together, read every clock at the next state's edge (i, ib) so that
  // pe_a / pe_b are what a read at seq_q's addresses after this clock's write gives: a word
  // written in the clock of its read comes from the bypass register. Each buffer's vertex 0 (the
  // fan's apex) is a register of its own (the third read).
  logic [4:0]     pr_raddr_a, pr_raddr_b;   // from seq_d: vertices vtx_idx and ib
  logic [3:0]     ib_n;                     // seq_d's ib
  logic [PeW-1:0] pra_rdata, prb_rdata;
  logic [1:0]     pbyp_q, pbyp_d;           // port a / b read the word written in its read clock
  logic [PeW-1:0] pwr_q, pwr_d;             // that word (the previous clock's poly_wdata)
  logic [1:0][CvW-1:0] pv0_q, pv0_d;        // vertex 0 of buffers 0 and 1
  // The polygon's projections (MaxPoly entries, pv_t): the same scheme, read at vertices vtx_idx
  // and ib (EMIT's fan triangle (0, i, i + 1)), a bypass of the projector's write, entry 0 in a
  // register.
  logic [3:0]     pj_raddr_a, pj_raddr_b;
  logic [111:0]   pja_rdata, pjb_rdata;
  logic [1:0]     jbyp_q, jbyp_d;
  logic [111:0]   jwr_q, jwr_d;
  logic [111:0]   pj0_q, pj0_d;

  sram_1r1w #(.Width(PeW), .Depth(32), .MaskW(1)) u_poly_a (
    .clk_i, .we_i(poly_we), .waddr_i(poly_waddr), .wdata_i(poly_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(pr_raddr_a), .rdata_o(pra_rdata));
  sram_1r1w #(.Width(PeW), .Depth(32), .MaskW(1)) u_poly_b (
    .clk_i, .we_i(poly_we), .waddr_i(poly_waddr), .wdata_i(poly_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(pr_raddr_b), .rdata_o(prb_rdata));

  sram_1r1w #(.Width(112), .Depth(16), .MaskW(1)) u_proj_a (
    .clk_i, .we_i(proj_we), .waddr_i(proj_waddr), .wdata_i(proj_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(pj_raddr_a), .rdata_o(pja_rdata));
  sram_1r1w #(.Width(112), .Depth(16), .MaskW(1)) u_proj_b (
    .clk_i, .we_i(proj_we), .waddr_i(proj_waddr), .wdata_i(proj_wdata), .wmask_i(1'b1),
    .re_i(1'b1), .raddr_i(pj_raddr_b), .rdata_o(pjb_rdata));

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
    pe_a   = pbyp_q[0] ? pwr_q : pra_rdata;
    pe_b   = pbyp_q[1] ? pwr_q : prb_rdata;
    cv_0   = cv_t'(pv0_q[seq_q.cur_buf]);
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
      pv0    = pv_t'(pj0_q);
      pe_tmp = jbyp_q[0] ? jwr_q : pja_rdata;
      pv1    = pv_t'(pe_tmp);
      pe_tmp = jbyp_q[1] ? jwr_q : pjb_rdata;
      pv2    = pv_t'(pe_tmp);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Projector: the vertex it would issue this clock
  // ---------------------------------------------------------------------------------------------
  logic        rb_todo, ob_todo, pj_any, pj_empty, pj_block, pj_bank, pj_free, int_free;
  logic [4:0]  pj_slot;
  logic [3:0][31:0] pj_pos;             // x, y, z, w of the bank vertex (bank P)
  logic [3:0][31:0] pos_in;             // the position issued (bank vertex, or PROJ's polygon vertex)

  always_comb begin
    rb_todo  = vb_q.issued[vb_q.rd_bank] < vb_q.loaded[vb_q.rd_bank];
    ob_todo  = vb_q.issued[!vb_q.rd_bank] < vb_q.loaded[!vb_q.rd_bank];
    pj_empty = (ag_valid_q == '0);
    pj_any   = !pj_empty || rb_todo || ob_todo;
    // A vertex may be issued (age 0) unless one in flight is at an age whose distance to a later
    // use of the same unit is 1, 4 or 5 (M1 at 2, 3, 7; M2 at 2, 6, 7; A1 at 4, 9; A2 at 4, 8, 9;
    // fix at 10, 11) or 2 (no conflict, but a vertex 2 clocks behind another blocks the next one
    // until 8 clocks after the first; 3 apart they run every 3 clocks). So the first vertex of a
    // burst goes at once, the rest every 3 clocks.
    pj_free  = !(ag_valid_q[1] || ag_valid_q[2] || ag_valid_q[4] || ag_valid_q[5]);
    // INT (SInt) may start (step 0) with vertices still in flight unless one is at age 1, 2 or 6.
    // Counted in clocks from step 0, INT uses A1 at 3, 9, 12.. (with the |D| >= 2^64 retry: 3,
    // 7, 13..), M1 at 5, 7, 10.. (5, 9, 11..), M2 at 5, 10.. (5, 9, 13..), fix at 9 (13), rcp
    // at 5 (and 9), dist only at 0, 1 and 18 or later (the projector issues nothing during INT).
    // A vertex of age a at step 0 uses A1 at 4 - a and 9 - a, M1 at 7 - a (and earlier), M2 at
    // 6 - a and 7 - a, fix at 10 - a and 11 - a: they meet for a = 1 (A1, M2, fix), 2 (M1, M2,
    // fix, the retry's A1) and 6 (A1) only (assertion UnitsShared below).
    int_free = !(ag_valid_q[1] || ag_valid_q[2] || ag_valid_q[6]);
    pj_bank  = rb_todo ? vb_q.rd_bank : !vb_q.rd_bank;
    pj_slot  = vb_q.issued[pj_bank][4:0];
    // bank P was read at {pj_bank, pj_slot} in the previous clock (pj_raddr); a vertex written
    // to that word in that clock comes from the bypass
    pj_pos   = byp_q ? byp_pos_q : vbp_rdata;
    pos_in   = (state_q == SProj) ? cv_a.a[3:0] : pj_pos;
    // the sequencer's states that use the units themselves (SDer*, SInt: once the pipeline is
    // empty), or hold them for that (SLoadW, SClip), or inject polygon vertices (SProj)
    pj_block = (state_q == SDer1) || (state_q == SDer2) || (state_q == SDer3) || (state_q == SDer4)
            || (state_q == SLoadW)
            || (state_q == SClip) || (state_q == SInt) || (state_q == SProj);
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
    // 2w as fp32 mul(w, 2.0) (docs/numerics.md §8.1)
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
  // The FP32 units, one operation each per clock, each result a register: fp32_rcp_p, pa_dist_p,
  // two fp32_mul_p, two fp32_add_p (latency 2) and fp32_to_fix16_8 with a result register
  // (latency 1). The projector uses them at fixed ages of its vertices:
  //   age 0: rcp(w), dist(x, y, z, w)        age 2: M1 x*r, M2 y*r      age 3: M1 z*r
  //   age 4: A1 xn + 1, A2 1 - yn            age 6: M2 (1 - yn)*H/2     age 7: M1 (xn + 1)*W/2,
  //   M2 zn*(zmax - zmin)   age 8: A2 Y = .. + VP_Y   age 9: A1 X = .. + VP_X, A2 Z = .. + zmin
  //   age 10: fix(Y)   age 11: fix(X)   age 12: the results are written (cache or proj_q)
  // Per unit the ages differ by 1, 4 or 5 and vertices are issued 3 or 6 and more clocks apart
  // (pj_free), so no two vertices use a unit in the same clock. The sequencer uses the units in
  // SDer* with the pipeline empty (pj_empty) and in SInt from when no vertex in flight meets it
  // (int_free), both with the projector blocked (pj_block).
  // ---------------------------------------------------------------------------------------------
  logic [6:0][31:0] dd;
  logic [6:0]  dout;
  logic [3:0][31:0] dsel;               // x, y, z, w of the vertex pa_dist_p looks at
  logic [31:0] rcp_a, rcp_y, m1_a, m1_b, m1_y, m2_a, m2_b, m2_y, a1_a, a1_b, a1_y, a2_a, a2_b, a2_y;
  logic [31:0] fix_a;
  logic [23:0] fix_y, fix_q;
  logic [2:0]  kj;                      // SInt: attribute of the multiplies (k - 13)
  logic        su_m1, su_m2, su_a1, su_rcp, su_fix;  // the sequencer issues on M1, M2, A1, rcp, fix

  always_comb begin
    kj = 3'(seq_q.k - 5'd13);
    dsel  = pos_in;
    rcp_a = pos_in[3];
    m1_a = 32'd0; m1_b = 32'd0; m2_a = 32'd0; m2_b = 32'd0;
    a1_a = 32'd0; a1_b = 32'd0; a2_a = 32'd0; a2_b = 32'd0;
    fix_a = 32'd0;
    su_m1 = 1'b0; su_m2 = 1'b0; su_a1 = 1'b0; su_rcp = 1'b0; su_fix = 1'b0;
    // the projector, by age
    if (ag_valid_q[2]) begin
      m1_a = pjv_q.p2[0]; m1_b = rcp_y;                 // x * r
      m2_a = pjv_q.p2[1]; m2_b = rcp_y;                 // y * r
    end else if (ag_valid_q[3]) begin
      m1_a = pjv_q.z3;    m1_b = pjv_q.r[0];            // z * r
    end else if (ag_valid_q[7]) begin
      m1_a = pjv_q.xp7;   m1_b = fe_q.half_w;           // (x/w + 1) * W/2
      m2_a = pjv_q.zn7;   m2_b = fe_q.z_range;          // z/w * (zmax - zmin)
    end
    if (ag_valid_q[6]) begin
      m2_a = a2_y;        m2_b = fe_q.half_h;           // (1 - y/w) * H/2
    end
    if (ag_valid_q[4]) begin
      a1_a = m1_y; a1_b = One;                          // x/w + 1
      a2_a = One;  a2_b = m2_y ^ Sign;                  // 1 - y/w
    end else if (ag_valid_q[8]) begin
      a2_a = m2_y; a2_b = fe_q.regs.vp_y;                    // Y
    end else if (ag_valid_q[9]) begin
      a1_a = m1_y; a1_b = fe_q.regs.vp_x;                    // X
      a2_a = m2_y; a2_b = fe_q.regs.vp_zmin;                 // Z
    end
    if (ag_valid_q[10]) begin
      fix_a = a2_y;                                     // sy
    end else if (ag_valid_q[11]) begin
      fix_a = a1_y;                                     // sx
    end
    // the sequencer
    unique case (state_q)
      SDer1: begin
        if (pj_empty) begin
          m1_a = fe_q.regs.vp_zmin; m1_b = VzScale;                // the depth clamp range (vz_s_q)
          m2_a = fe_q.regs.vp_zmax; m2_b = VzScale;
          a1_a = fe_q.regs.vp_zmax; a1_b = fe_q.regs.vp_zmin ^ Sign;
          su_m1 = 1'b1; su_m2 = 1'b1; su_a1 = 1'b1;
        end
      end
      SDer2: begin
        m1_a = fe_q.regs.vp_w;    m1_b = Half;
        m2_a = fe_q.regs.vp_h;    m2_b = Half;
        su_m1 = 1'b1; su_m2 = 1'b1;
      end
      SInt: begin
        unique case (seq_q.k)
          5'd0:  dsel = cv_i.a[3:0];
          5'd1:  dsel = cv_o.a[3:0];
          5'd3:  begin a1_a = seq_q.d_in; a1_b = dd[seq_q.plane] ^ Sign; su_a1 = 1'b1; end  // dI - dO
          5'd5:  begin
            rcp_a = a1_y;                                                      // rcp(dI - dO)
            m1_a = seq_q.d_in;  m1_b = TwoM64;                                 // (|D| >= 2^64)
            m2_a = seq_q.d_out; m2_b = TwoM64;
            su_rcp = 1'b1; su_m1 = 1'b1; su_m2 = 1'b1;
          end
          5'd7:  begin a1_a = m1_y; a1_b = m2_y ^ Sign; su_a1 = 1'b1; end       // scaled dI - dO
          5'd9:  begin m1_a = seq_q.d_in; m1_b = rcp_y; su_m1 = 1'b1; end       // t
          5'd11: begin a1_a = One; a1_b = m1_y ^ Sign; fix_a = m1_y; su_a1 = 1'b1; su_fix = 1'b1; end  // 1 - t, T
          5'd21: dsel = nv_snap.a[3:0];                                        // the new code
          default: ;
        endcase
        if (seq_q.k >= 5'd13 && seq_q.k <= 5'd20) begin
          m1_a = (seq_q.k == 5'd13) ? a1_y : seq_q.lerp_s; m1_b = cv_i.a[kj];  // s * a_in
          m2_a = seq_q.lerp_t; m2_b = cv_o.a[kj];                             // t * a_out
          su_m1 = 1'b1; su_m2 = 1'b1;
        end
        if (seq_q.k >= 5'd15 && seq_q.k <= 5'd22) begin
          su_a1 = 1'b1;
          a1_a = m1_y; a1_b = m2_y;
        end
      end
      default: ;
    endcase
  end

  pa_dist_p      u_dist (.clk_i, .rst_ni, .x_i(dsel[0]), .y_i(dsel[1]), .z_i(dsel[2]), .w_i(dsel[3]),
                         .d_o(dd), .out_o(dout));
  fp32_rcp_p     u_rcp  (.clk_i, .rst_ni, .en_i(1'b1), .a_i(rcp_a), .y_o(rcp_y));
  fp32_mul_p     u_m1   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(m1_a), .b_i(m1_b), .y_o(m1_y));
  fp32_mul_p     u_m2   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(m2_a), .b_i(m2_b), .y_o(m2_y));
  fp32_add_p     u_a1   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(a1_a), .b_i(a1_b), .y_o(a1_y));
  fp32_add_p     u_a2   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(a2_a), .b_i(a2_b), .y_o(a2_y));
  fp32_to_fix16_8 u_fix (.a_i(fix_a), .y_o(fix_y));

  // ---------------------------------------------------------------------------------------------
  // Emission: area, face, bounding box (the fan triangle (0, i, i + 1))
  // ---------------------------------------------------------------------------------------------
  logic [1:0]         cull_mode;       // FE_RASTER fields
  logic               front_ccw;
  logic               depth_clip_off;

  assign cull_mode      = fe_q.regs.raster.cull;
  assign front_ccw      = fe_q.regs.raster.front_ccw;
  assign depth_clip_off = fe_q.regs.raster.depth_clip_off;

  logic signed [23:0] ex0, ey0, ex1, ey1, ex2, ey2, xmin, xmax, ymin, ymax;
  logic signed [50:0] area2;
  logic signed [25:0] px0, px1, py0, py1, qx0, qx1, qy0, qy1, sd;
  logic [15:0]        rtw, rth;
  pineda_pkg::rect_t  clip;
  logic               front, cull;
  pineda_pkg::pa_tri_pkt_t etri;        // the triangle going into the emission register e_q
  pineda_pkg::pa_tri_pkt_t otri;        // e_q going out, with its facing, tri_id and the state
  pineda_pkg::vtx_t   tv, ev0, ev1, ev2;
  pineda_pkg::pa_attr_t ta;
  pineda_pkg::ds_state_t eds;
  pineda_pkg::om_state_t eom;
  logic [pineda_pkg::COMB_STATE_BITS-1:0] ecomb;  // FE_COMBINE[20:0] (comb_state_t's layout)

  // The depth clamp range stamped on each triangle (docs/numerics.md §9): the D24 of
  // FE_VP_ZMIN and FE_VP_ZMAX, as a sample's depth is rounded (zplane_d24 of
  // fix(v * (2^24 - 1)), clamped to [0, DEPTH_MAX]), zhi raised to zlo when below it. Derived
  // from the state registers (not per triangle).
  logic [63:0]                    vz_s_q, vz_s_d;   // the two products (SDer3; reset: 0, right for 0)
  logic [pineda_pkg::ZREF_W-1:0]  vz_lo_f, vz_hi_f;
  logic [23:0]                    vz_lo, vz_hi;
  logic [47:0]                    vz_q, vz_d;       // {zlo, zhi}, registered
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_vzlo_f (.a_i(vz_s_q[63:32]), .y_o(vz_lo_f));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_vzhi_f (.a_i(vz_s_q[31:0]), .y_o(vz_hi_f));
  zplane_d24 u_vzlo_d (.z_i(pineda_pkg::ZPLANE_W'($signed(vz_lo_f))), .lo_i(24'd0),
                       .hi_i(pineda_pkg::DEPTH_MAX), .d_o(vz_lo));
  zplane_d24 u_vzhi_d (.z_i(pineda_pkg::ZPLANE_W'($signed(vz_hi_f))), .lo_i(24'd0),
                       .hi_i(pineda_pkg::DEPTH_MAX), .d_o(vz_hi));
  // mul(v, 2^24 - 1) of FE_VP_ZMIN and FE_VP_ZMAX on the units in SDer1 (into vz_s_q in SDer3),
  // the rest from vz_s_q into vz_q every clock: vz_q has them in SIdle after SDer4, before the
  // first triangle behind the write is emitted.
  always_comb begin
    vz_d = {vz_lo, (vz_hi < vz_lo) ? vz_lo : vz_hi};
  end

  function automatic logic [15:0] min16(input logic [15:0] a, input logic [15:0] b);
    min16 = (a < b) ? a : b;
  endfunction

  always_comb begin
    rtw = min16(fe_q.regs.rt_size.width, 16'(pineda_pkg::MAX_RT_DIM));
    rth = min16(fe_q.regs.rt_size.height, 16'(pineda_pkg::MAX_RT_DIM));
    clip.x0 = 15'(min16(fe_q.regs.scissor_x.lo, rtw));
    clip.x1 = 15'(min16(fe_q.regs.scissor_x.hi, rtw));
    clip.y0 = 15'(min16(fe_q.regs.scissor_y.lo, rth));
    clip.y1 = 15'(min16(fe_q.regs.scissor_y.hi, rth));

    // culling on the registered triangle e_q (the state it reads does not change while e_q holds
    // a triangle: writes and tokens wait)
    ev0 = pineda_pkg::vtx_t'(e_q.v[0]);
    ev1 = pineda_pkg::vtx_t'(e_q.v[1]);
    ev2 = pineda_pkg::vtx_t'(e_q.v[2]);
    ex0 = ev0.x; ey0 = ev0.y;
    ex1 = ev1.x; ey1 = ev1.y;
    ex2 = ev2.x; ey2 = ev2.y;
    area2 = (51'(ex1) - 51'(ex0)) * (51'(ey2) - 51'(ey0)) - (51'(ex2) - 51'(ex0)) * (51'(ey1) - 51'(ey0));
    front = (area2 > 51'sd0) != front_ccw;
    xmin = (ex0 < ex1) ? ex0 : ex1;  xmin = (ex2 < xmin) ? ex2 : xmin;
    xmax = (ex0 > ex1) ? ex0 : ex1;  xmax = (ex2 > xmax) ? ex2 : xmax;
    ymin = (ey0 < ey1) ? ey0 : ey1;  ymin = (ey2 < ymin) ? ey2 : ymin;
    ymax = (ey0 > ey1) ? ey0 : ey1;  ymax = (ey2 > ymax) ? ey2 : ymax;
    // SETUP's sample box: samples within sd = 0 (1x) or 96/256 pixel (4x MSAA) of the centre.
    sd  = fe_q.regs.rt_pitch.msaa ? 26'sd96 : 26'sd0;
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
    etri.target.base  = fe_q.regs.rt_base;
    etri.target.pitch = fe_q.regs.rt_pitch.pitch;
    etri.target.msaa  = fe_q.regs.rt_pitch.msaa;
    etri.clip    = clip;
    etri.tri_id  = 32'd0;
    etri.prim_id = prim_i.prim_id;
    etri.draw_id = prim_i.draw_id;
    etri.front   = 1'b0;
    eds              = '0;
    eds.base         = fe_q.regs.ds_base;
    eds.pitch        = fe_q.regs.ds_pitch[15:0];
    eds.z_enable     = fe_q.regs.depth.enable;
    eds.z_func       = fe_q.regs.depth.func;
    eds.z_write      = fe_q.regs.depth.write;
    // An alpha-tested draw tests depth late (docs/comb.md section 5)
    eds.late_z       = fe_q.regs.depth.late | fe_q.regs.combine.alpha_test |
                       fe_q.regs.combine.alpha_to_coverage;
    eds.hiz          = fe_q.regs.depth.hiz;
    eds.s_enable     = fe_q.regs.stencil.enable;
    eds.s_ref        = fe_q.regs.stencil.ref_val;
    eds.s_read_mask  = fe_q.regs.stencil.read_mask;
    eds.s_write_mask = fe_q.regs.stencil.write_mask;
    eds.s_front      = fe_q.regs.stencil_ops.front;
    eds.s_back       = fe_q.regs.stencil_ops.back;
    etri.ds      = eds;
    eom          = '0;
    eom.fmt      = fe_q.regs.rt_pitch.fmt;
    eom.blend    = fe_q.regs.blend.enable;
    eom.src      = fe_q.regs.blend.src;
    eom.dst      = fe_q.regs.blend.dst;
    eom.op       = fe_q.regs.blend.op;
    eom.src_a    = fe_q.regs.blend.src_a;
    eom.dst_a    = fe_q.regs.blend.dst_a;
    eom.op_a     = fe_q.regs.blend.op_a;
    eom.mask_off = fe_q.regs.blend.mask_off;
    eom.lop_en   = fe_q.regs.logic_op.enable;
    eom.lop      = fe_q.regs.logic_op.op;
    eom.factor   = fe_q.regs.blend_factor;
    eom.gouraud  = fe_q.regs.shade.gouraud;
    eom.tex      = fe_q.regs.tex0;
    eom.samp     = fe_q.regs.samp0;
    eom.tex1     = fe_q.regs.tex1;
    eom.samp1    = fe_q.regs.samp1;
    // (a size cast: Yosys 0.55 misreads a part-select of a struct member of a struct)
    ecomb        = pineda_pkg::COMB_STATE_BITS'(fe_q.regs.combine);
    eom.comb     = pineda_pkg::comb_state_t'(ecomb);
    etri.om      = eom;
    etri.zlo     = vz_q[47:24];
    etri.zhi     = vz_q[23:0];
    otri         = e_q;
    otri.front   = front;
    otri.tri_id  = seq_q.tri_id;
    otri.target  = etri.target;
    otri.clip    = etri.clip;
    otri.ds      = etri.ds;
    otri.om      = etri.om;
    otri.zlo     = etri.zlo;
    otri.zhi     = etri.zhi;
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  logic       vtx_bank;  // bank the input vertex goes to
  logic       out_free, vtx_fire, pos_nan_a, pos_nan_b, pos_nan_p, prim_done, proj_rdy, vp_wr;
  logic       nan_pj, nb_rb_todo, nb_bank, pj_go, inj_go, e_free;
  logic [4:0] smax;
  logic       pc_rd_wr;   // the projection of a read bank slot is written into the cache now
  logic [5:0] proj_n1;    // the read bank's projected slots at the end of this clock
  logic [6:0] code_mask, code_ld_a, code_ld_b, or_next, and_next;
  logic       nan_next;
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
    inj_go      = 1'b0;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    prim_ready_o = 1'b0;
    prim_done    = 1'b0;
    vp_wr        = 1'b0;
    vb_we = 1'b0; vb_waddr = '0; vb_wdata = '0;
    poly_we = 1'b0; poly_waddr = '0; poly_wdata = '0;
    proj_we = 1'b0; proj_waddr = '0; proj_wdata = '0;
    pc_we = 1'b0; pc_waddr = '0; pc_wdata = '0;

    e_valid_d   = e_valid_q;
    vz_s_d      = vz_s_q;
    e_d         = e_q;
    out_free = !out_valid_q || out_ready_i;
    if (out_valid_q && out_ready_i) out_valid_d = 1'b0;
    // the emission register moves on whenever the output is free (a culled triangle vanishes)
    e_free = !e_valid_q || out_free;
    if (e_valid_q && out_free) begin
      e_valid_d = 1'b0;
      if (!cull) begin
        out_valid_d  = 1'b1;
        out_d        = otri;
        seq_d.tri_id = seq_q.tri_id + 32'd1;
      end
    end

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

    // A triangle starts (LOAD's first clock) once its batch has begun and its three slots are
    // projected; slots 1 and 2 may also be the one written into the cache in this clock (the
    // read bank's next slot, projections come in slot order): LOAD reads them on ports b and a
    // again in its second clock and uses them in its third.
    pc_rd_wr = ag_valid_q[PjAges] && !ag_poly_q[PjAges] && (ag_bank_q[PjAges] == vb_q.rd_bank);
    proj_n1  = vb_q.projected[vb_q.rd_bank] + {5'd0, pc_rd_wr};
    smax = prim_i.s1;
    if (prim_i.s2 > smax) smax = prim_i.s2;
    proj_rdy = vb_q.busy[vb_q.rd_bank] && ({1'b0, prim_i.s0} < vb_q.projected[vb_q.rd_bank])
            && ({1'b0, smax} < proj_n1);

    // LOAD's clip codes and NaN flags, from the projection cache (near and far masked when
    // depth clipping is off)
    code_mask  = {4'hF, !depth_clip_off, !depth_clip_off, 1'b1};
    code_ld_a  = pcode_a[6:0] & code_mask;
    code_ld_b  = pcode_b[6:0] & code_mask;
    pos_nan_a  = pcode_a[7];
    pos_nan_b  = pcode_b[7];
    // LOAD's third clock: vertex 0's (from the second clock), vertex 1's (port b) and vertex 2's
    // (port a)
    or_next    = seq_q.code_or | code_ld_a | code_ld_b;
    and_next   = seq_q.code_and & code_ld_a & code_ld_b;
    nan_next   = seq_q.pos_nan || pos_nan_a || pos_nan_b;
    pos_nan_p  = 1'b0;
    for (int c = 0; c < 4; c++) begin
      pos_nan_p  = pos_nan_p  || ((cv_a.a[c][30:23] == 8'hFF) && (cv_a.a[c][22:0] != 23'd0));
    end

    unique case (state_q)
      SIdle: begin
        // tokens and state writes wait for the emission register (order; its culling reads the
        // state)
        if (prim_valid_i && !(e_valid_q && (prim_i.eop || prim_i.wr))) begin
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
              pineda_pkg::FE_VP_X:    vp_wr = prim_i.wr_val != fe_q.regs.vp_x;
              pineda_pkg::FE_VP_Y:    vp_wr = prim_i.wr_val != fe_q.regs.vp_y;
              pineda_pkg::FE_VP_W:    vp_wr = prim_i.wr_val != fe_q.regs.vp_w;
              pineda_pkg::FE_VP_H:    vp_wr = prim_i.wr_val != fe_q.regs.vp_h;
              pineda_pkg::FE_VP_ZMIN: vp_wr = prim_i.wr_val != fe_q.regs.vp_zmin;
              pineda_pkg::FE_VP_ZMAX: vp_wr = prim_i.wr_val != fe_q.regs.vp_zmax;
              default: ;
            endcase
            fe_d.regs = pineda_pkg::pa_regs_write(fe_q.regs, prim_i.wr_idx, prim_i.wr_val);
            // a viewport write: derived values in SDer1..4
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
        // W/2, H/2 and zmax - zmin issued once the projector's pipeline is empty
        if (pj_empty) state_d = SDer2;
      end
      SDer2: state_d = SDer3;
      SDer3: begin
        fe_d.z_range = a1_y;
        vz_s_d       = {m1_y, m2_y};
        state_d = SDer4;
      end
      SDer4: begin
        fe_d.half_w  = m1_y;
        fe_d.half_h  = m2_y;
        state_d = SIdle;
      end
      SLoad: begin
        if (seq_q.load_vtx == 2'd1) begin
          // vertex 0 is here (port a): into the polygon buffer; vertex 2 is read on port a,
          // vertex 1 again on port b (its projection may have been written in the first clock)
          poly_we    = 1'b1;
          poly_waddr = paddr(1'b0, 4'd0);
          poly_wdata = {code_ld_a, CvW'(va_cv)};
          seq_d.flat_color = va_cv.color;
          seq_d.code_and   = code_ld_a;
          seq_d.code_or    = code_ld_a;
          seq_d.pos_nan    = pos_nan_a;
          seq_d.fast_pv0   = pc_a;
          seq_d.load_vtx   = 2'd2;
        end else begin
          // vertices 2 (port a) and 1 (port b) are here: vertex 1 into the polygon buffer, the
          // decision
          poly_we    = 1'b1;
          poly_waddr = paddr(1'b0, 4'd1);
          poly_wdata = {code_ld_b, CvW'(vb_cv)};
          seq_d.code_and = and_next;
          seq_d.code_or  = or_next;
          seq_d.pos_nan  = nan_next;
          seq_d.cur_buf = 1'b0;
          seq_d.poly_len   = 4'd3;
          seq_d.out_len   = 4'd0;
          if (nan_next || (and_next != 7'd0)) begin
            prim_done = 1'b1;         // NaN or rejected
          end else if (or_next == 7'd0) begin
            // fast path: not clipped, the cached projections; waits here for the output
            if (e_free) begin
              e_valid_d = 1'b1;
              e_d       = etri;
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
          seq_d.k        = 5'd0;
          state_d = SInt;
        end else if (ib == 4'd0) begin
          // plane done
          if (seq_q.out_len + (in_a ? 4'd1 : 4'd0) < 4'd3) begin
            prim_done = 1'b1;           // nothing left
          end else begin
            seq_d.cur_buf = !seq_q.cur_buf;
            seq_d.poly_len   = seq_q.out_len + (in_a ? 4'd1 : 4'd0);
            seq_d.out_len   = 4'd0;
            seq_d.vtx_idx   = 4'd0;
            if (pl_found) begin
              seq_d.plane = pl_next;
            end else begin
              state_d = SProj;
            end
          end
        end else begin
          seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
        end
      end
      SInt: begin
        // One FP operation issued per step k, its result 2 steps later (fix: 1):
        //   0 dist(I) (waits while a vertex in flight would meet INT: int_free)   1 dist(O)
        //   2 dI   3 dO, A1 dI - dO   5 D: |D| >= 2^64 (once): M1 dI*2^-64, M2 dO*2^-64 -> 7,
        //   else rcp(D) -> 9   7 dI scaled, A1 dI - dO -> 5   9 M1 t = dI*rcp(D)
        //   11 t: A1 1 - t, fix(t)   12 T   13 s   13..20 M1 s*a_in, M2 t*a_out   15..22 A1 sum
        //   17..24 the new vertex's attributes   21 dist(its position, complete)   23 its code
        //   25 the new vertex is written
        seq_d.k = seq_q.k + 5'd1;
        unique case (seq_q.k)
          5'd0:  if (!int_free) seq_d.k = 5'd0;
          5'd2:  seq_d.d_in  = dd[seq_q.plane];
          5'd3:  seq_d.d_out = dd[seq_q.plane];
          5'd5: begin
            if (!hv_q && (a1_y[30:23] >= 8'hBF)) begin
              hv_d    = 1'b1;             // |dI - dO| >= 2^64 (or Inf): again scaled by 2^-64
              seq_d.k = 5'd6;
            end else begin
              hv_d    = 1'b0;
              seq_d.k = 5'd8;             // rcp(D) issued: its result in step 9
            end
          end
          5'd7: begin
            seq_d.d_in = m1_y;
            seq_d.k    = 5'd4;            // scaled dI - dO issued: its result in step 5
          end
          5'd11: seq_d.lerp_t = m1_y;
          5'd12: begin
            if ($signed(fix_q) < 24'sd0) begin
              seq_d.lerp_t8 = 9'd0;
            end else if ($signed(fix_q) > 24'sd256) begin
              seq_d.lerp_t8 = 9'd256;
            end else begin
              seq_d.lerp_t8 = fix_q[8:0];
            end
          end
          5'd13: seq_d.lerp_s = a1_y;
          5'd23: seq_d.nv_code = dout;
          5'd25: begin
            poly_we    = 1'b1;
            poly_waddr = paddr(!seq_q.cur_buf, seq_q.out_len);
            poly_wdata = {seq_q.nv_code & {4'hF, !depth_clip_off, !depth_clip_off, 1'b1}, CvW'(nv_snap)};
            seq_d.out_len        = seq_q.out_len + 4'd1;
            if (ib == 4'd0) begin
              seq_d.cur_buf = !seq_q.cur_buf;
              seq_d.poly_len   = seq_q.out_len + 4'd1;
              seq_d.out_len   = 4'd0;
              seq_d.vtx_idx   = 4'd0;
              if (seq_q.out_len + 4'd1 < 4'd3) begin
                prim_done = 1'b1;
              end else if (pl_found) begin
                seq_d.plane    = pl_next;
                state_d = SClip;
              end else begin
                state_d = SProj;
              end
            end else begin
              seq_d.vtx_idx     = seq_q.vtx_idx + 4'd1;
              state_d = SClip;
            end
          end
          default: ;
        endcase
        if (seq_q.k >= 5'd17 && seq_q.k <= 5'd24) begin
          seq_d.new_vtx.a[3'(seq_q.k - 5'd17)] = a1_y;    // s * a_in + t * a_out
        end
      end
      SProj: begin
        // the polygon's vertices injected into the projector (the first at once, then one per
        // 3 clocks: pj_free; results in proj_q 12 clocks later); a NaN position discards the
        // triangle once the polygon's vertices injected before are out of the projector
        if (pos_nan_p) begin
          if ((ag_valid_q & ag_poly_q) == '0) prim_done = 1'b1;
        end else if (pj_free) begin
          inj_go        = 1'b1;
          seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
          if (seq_q.vtx_idx + 4'd1 == seq_q.poly_len) begin
            seq_d.vtx_idx = 4'd1;
            state_d = SEmit;
          end
        end
      end
      SEmit: begin
        // fan triangle (0, i, i + 1), i + 1 < n, as soon as vertex i + 1's projection is in
        // proj_q (proj_n_q written, in order); the last one ends the triangle
        if (e_free && (proj_n_q > seq_q.vtx_idx + 4'd1)) begin
          e_valid_d = 1'b1;
          e_d       = etri;
          if (seq_q.vtx_idx + 4'd2 == seq_q.poly_len) begin
            prim_done = 1'b1;
          end else begin
            seq_d.vtx_idx = seq_q.vtx_idx + 4'd1;
          end
        end
      end
      default: state_d = SIdle;
    endcase

    // ---- projector: the vertex at age 12 is written (cache or proj_q); a new vertex is issued
    // when pj_free (PROJ's polygon vertex, else the read bank's next, else the other's)
    pj_go = (rb_todo || ob_todo) && pj_free && !pj_block;
    // PROJ / EMIT count the polygon's projections written
    proj_n_d = 4'd0;
    if ((state_q == SProj) || (state_q == SEmit)) begin
      proj_n_d = proj_n_q + ((ag_valid_q[PjAges] && ag_poly_q[PjAges]) ? 4'd1 : 4'd0);
    end
    if (ag_valid_q[PjAges]) begin
      if (ag_poly_q[PjAges]) begin
        proj_we    = 1'b1;
        proj_waddr = ag_slot_q[PjAges][3:0];
        proj_wdata = {fix_q, pjv_q.sy12, pjv_q.z12, pjv_q.r[9]};
      end else begin
        pc_we    = 1'b1;
        pc_waddr = {ag_bank_q[PjAges], ag_slot_q[PjAges]};
        pc_wdata = {pjv_q.code[9], fix_q, pjv_q.sy12, pjv_q.z12, pjv_q.r[9]};
        vb_d.projected[ag_bank_q[PjAges]] = vb_q.projected[ag_bank_q[PjAges]] + 6'd1;
      end
    end
    ag_valid_d = {ag_valid_q[PjAges-1:1], inj_go || pj_go};
    ag_poly_d  = {ag_poly_q[PjAges-1:1], inj_go};
    ag_bank_d  = {ag_bank_q[PjAges-1:1], pj_bank};
    ag_slot_d  = {ag_slot_q[PjAges-1:1], inj_go ? {1'b0, seq_q.vtx_idx} : pj_slot};
    if (pj_go && !inj_go) begin
      vb_d.issued[pj_bank] = vb_q.issued[pj_bank] + 6'd1;
    end
    // the values that travel with the vertices (every clock; each meaningful at its age)
    nan_pj = 1'b0;
    for (int c = 0; c < 4; c++) begin
      nan_pj = nan_pj || ((pjv_q.p2[c][30:23] == 8'hFF) && (pjv_q.p2[c][22:0] != 23'd0));
    end
    pjv_d.p1   = pos_in;
    pjv_d.p2   = pjv_q.p1;
    pjv_d.z3   = pjv_q.p2[2];
    pjv_d.r    = {pjv_q.r[8:0], rcp_y};
    pjv_d.code = {pjv_q.code[8:0], {nan_pj, dout}};
    pjv_d.zn6  = m1_y;
    pjv_d.zn7  = pjv_q.zn6;
    pjv_d.xp7  = a1_y;
    pjv_d.z12  = a2_y;
    pjv_d.sy12 = fix_q;

    // the triangle is accepted; its batch's last triangle frees the bank (and its cache)
    if (prim_done) begin
      prim_ready_o = 1'b1;
      state_d      = SIdle;
      seq_d.load_vtx          = 2'd0;
      if (prim_i.last) begin
        vb_d.busy[vb_q.rd_bank] = 1'b0;
        vb_d.rd_bank         = !vb_q.rd_bank;
        vb_d.loaded[vb_q.rd_bank] = 6'd0;
        vb_d.issued[vb_q.rd_bank] = 6'd0;
        vb_d.projected[vb_q.rd_bank] = 6'd0;
        // the bank's vertices in the projector are cancelled (polygon vertices are not)
        for (int a = 1; a <= PjAges; a++) begin
          if (!ag_poly_d[a] && (ag_bank_d[a] == vb_q.rd_bank)) ag_valid_d[a] = 1'b0;
        end
      end
    end
    // a viewport write: every cached projection is stale, the vertex in flight too
    if (vp_wr) begin
      vb_d.issued     = '0;
      vb_d.projected  = '0;
      for (int a = 1; a <= PjAges; a++) begin
        if (!ag_poly_d[a]) ag_valid_d[a] = 1'b0;
      end
    end

    // Bank P is read every clock at the word the projector works on in the next clock: the
    // same choice as pj_bank / pj_slot, made on the next-state values. The read returns the
    // word as it was before this clock's write; a write to that word goes to the bypass.
    nb_rb_todo = vb_d.issued[vb_d.rd_bank] < vb_d.loaded[vb_d.rd_bank];
    nb_bank    = nb_rb_todo ? vb_d.rd_bank : !vb_d.rd_bank;
    pj_raddr   = {nb_bank, vb_d.issued[nb_bank][4:0]};
    byp_d     = vb_we && (vb_waddr == pj_raddr);
    byp_pos_d = vb_wdata.a[3:0];

    // polygon buffers: the next clock's reads (the edge (i, ib) of seq_d) and their bypass
    ib_n       = (seq_d.vtx_idx + 4'd1 == seq_d.poly_len) ? 4'd0 : seq_d.vtx_idx + 4'd1;
    pr_raddr_a = paddr(seq_d.cur_buf, seq_d.vtx_idx);
    pr_raddr_b = paddr(seq_d.cur_buf, ib_n);
    pbyp_d     = {poly_we && (poly_waddr == pr_raddr_b), poly_we && (poly_waddr == pr_raddr_a)};
    pwr_d      = poly_wdata;
    pv0_d      = pv0_q;
    if (poly_we && poly_waddr == paddr(1'b0, 4'd0)) pv0_d[0] = poly_wdata[CvW-1:0];
    if (poly_we && poly_waddr == paddr(1'b1, 4'd0)) pv0_d[1] = poly_wdata[CvW-1:0];
    // the polygon's projections: the same reads and bypass
    pj_raddr_a = seq_d.vtx_idx;
    pj_raddr_b = ib_n;
    jbyp_d     = {proj_we && (proj_waddr == pj_raddr_b), proj_we && (proj_waddr == pj_raddr_a)};
    jwr_d      = proj_wdata;
    pj0_d      = pj0_q;
    if (proj_we && proj_waddr == 4'd0) pj0_d = proj_wdata;

    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = (state_q == SIdle) && !e_valid_q && !out_valid_q && (vb_q.busy == 2'b00) && !pj_any;
    clip_busy_o = (state_q == SClip) || (state_q == SInt);
  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q        <= SIdle;
      fe_q           <= '0;
      fe_q.regs      <= pineda_pkg::PA_REGS_RESET;
      vb_q           <= '0;
      seq_q          <= '0;
      proj_n_q       <= '0;
      ag_valid_q     <= '0;
      ag_poly_q      <= '0;
      ag_bank_q      <= '0;
      ag_slot_q      <= '0;
      pjv_q          <= '0;
      fix_q          <= '0;
      vz_s_q         <= '0;
      vz_q           <= '0;
      e_valid_q      <= 1'b0;
      e_q            <= '0;
      out_valid_q    <= 1'b0;
      out_q          <= '0;
      byp_q          <= 1'b0;
      pbyp_q         <= '0;
      jbyp_q         <= '0;
    end else begin
      state_q     <= state_d;
      fe_q        <= fe_d;
      vb_q        <= vb_d;
      seq_q       <= seq_d;
      proj_n_q    <= proj_n_d;
      ag_valid_q  <= ag_valid_d;
      ag_poly_q   <= ag_poly_d;
      ag_bank_q   <= ag_bank_d;
      ag_slot_q   <= ag_slot_d;
      pjv_q       <= pjv_d;
      fix_q       <= fix_y;
      vz_s_q      <= vz_s_d;
      vz_q        <= vz_d;
      e_valid_q   <= e_valid_d;
      e_q         <= e_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
      byp_q       <= byp_d;
      pbyp_q      <= pbyp_d;
      jbyp_q      <= jbyp_d;
    end
  end

  // The clip intersection's retry (numerics 8.2): dI and dO scaled by 2^-64.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hv_q <= 1'b0;
    else         hv_q <= hv_d;
  end

  // Storage arrays (written one entry per clock, no reset).
  always_ff @(posedge clk_i) begin
    jwr_q     <= jwr_d;
    pj0_q     <= pj0_d;
    byp_pos_q <= byp_pos_d;
    pwr_q     <= pwr_d;
    pv0_q     <= pv0_d;
  end

`ifndef SYNTHESIS
  // Invariants the sequencer and the projector rely on.
  logic [5:0] pj_raddr_q;   // bank P's read address of the previous clock
  always_ff @(posedge clk_i) pj_raddr_q <= pj_raddr;
  logic       pj_close;     // two vertices in flight 1, 2, 4 or 5 clocks apart
  logic       pu_m1, pu_m2, pu_a1, pu_fix;  // the projector's vertices issue on M1, M2, A1, fix
  always_comb begin
    pj_close = 1'b0;
    for (int a = 1; a < PjAges; a++) begin
      for (int d = 1; d <= 5; d++) begin
        if (d != 3 && a + d <= PjAges && ag_valid_q[a] && ag_valid_q[a + d]) pj_close = 1'b1;
      end
    end
    pu_m1  = ag_valid_q[2] || ag_valid_q[3] || ag_valid_q[7];
    pu_m2  = ag_valid_q[2] || ag_valid_q[6] || ag_valid_q[7];
    pu_a1  = ag_valid_q[4] || ag_valid_q[9];
    pu_fix = ag_valid_q[10] || ag_valid_q[11];
  end
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
      BankProjected: assert (vb_q.projected[0] <= vb_q.issued[0] && vb_q.issued[0] <= vb_q.loaded[0] &&
                             vb_q.projected[1] <= vb_q.issued[1] && vb_q.issued[1] <= vb_q.loaded[1])
        else $error("pa: projected <= issued <= loaded broken (%0d, %0d, %0d; %0d, %0d, %0d)",
                    vb_q.projected[0], vb_q.issued[0], vb_q.loaded[0],
                    vb_q.projected[1], vb_q.issued[1], vb_q.loaded[1]);
      // The projector's units: vertices 3 or 6 and more clocks apart, never on a unit the
      // sequencer issues on in the same clock (the projector's rcp and dist are used at age 0
      // only, never while the sequencer runs them: pj_block).
      ProjectorSpacing: assert (!pj_close)
        else $error("pa: projector vertices in flight 1, 2, 4 or 5 clocks apart (%b)", ag_valid_q);
      UnitsShared: assert (!((pu_m1 && su_m1) || (pu_m2 && su_m2) || (pu_a1 && su_a1) ||
                             (pu_fix && su_fix) || ((pj_go || inj_go) && su_rcp)))
        else $error("pa: the sequencer and the projector issue on one FP unit (state %0d, k %0d, ages %b)",
                    state_q, seq_q.k, ag_valid_q);
      // Polygon vertices are in flight only in PROJ and EMIT (proj_n_q counts them out).
      PolyInFlight: assert (((ag_valid_q & ag_poly_q) == '0) || state_q == SProj || state_q == SEmit)
        else $error("pa: a polygon vertex in flight in state %0d", state_q);
      // A bank's projections are written in slot order (LOAD may start with slot 1 or 2 being
      // written: proj_rdy).
      CacheInOrder: assert (!pc_we || pc_waddr[4:0] == vb_q.projected[pc_waddr[5]][4:0])
        else $error("pa: projection of slot %0d written, %0d expected", pc_waddr[4:0],
                    vb_q.projected[pc_waddr[5]][4:0]);
      // Banks fill and drain in the same order: the bank after the read bank is busy only if
      // the read bank is.
      BankOrder: assert (!vb_q.busy[!vb_q.rd_bank] || vb_q.busy[vb_q.rd_bank])
        else $error("pa: bank %0d busy before the read bank %0d", !vb_q.rd_bank, vb_q.rd_bank);
      ProjectorSlotLoaded: assert (!pj_go || {1'b0, pj_slot} < vb_q.loaded[pj_bank])
        else $error("pa: projecting slot %0d of bank %0d, not loaded", pj_slot, pj_bank);
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
      ProjectorReadAddress: assert (!pj_go || inj_go || pj_raddr_q == {pj_bank, pj_slot})
        else $error("pa: projector reads word %0d, works on %0d", pj_raddr_q, {pj_bank, pj_slot});
    end
  end
`endif

endmodule
