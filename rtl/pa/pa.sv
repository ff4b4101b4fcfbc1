// pa: primitive assembly, clipping, projection, viewport, snap and culling
// (docs/frontend.md §6, docs/numerics.md §8; model: cpp_model/pa/pa.cpp). Instantiated in
// rtl/top/front_end.sv; unit test tb/pa/test_pa.cpp.
//
// Inputs: the clip-space vertex stream of VTX (clip_vtx_pkt_t; a batch's vertices in slot order,
// vtx_id[4:0] = slot, vtx_id[5] = last of the batch; tokens on it are dropped) and the triangle
// stream of vertex tags (prim_pkt_t: slots, last of batch, end-of-pipe tokens, state writes).
// Output: pa_tri_pkt_t for SETUP.
//
// Vertex buffer: two banks of 32 vertices. The vertex stream fills bank wbank_q while the
// triangles of bank rbank_q are processed; a bank is full from its last vertex until its last
// triangle is done.
//
// Projector (pj_*): every vertex of a bank is projected once (1/w, viewport, snap, z) into a
// per-slot cache pcache_q (sx, sy, z, 1/w; two read ports with registered addresses, so it
// maps to block RAM), in slot order, as the vertices arrive: the read
// bank first, then the bank being loaded; lcnt_q[b] vertices are loaded, pcnt_q[b] projected.
// 3 clocks per vertex, with one fp32_mul and one fp32_add of its own and the sequencer's
// fp32_rcp, fp32_mul, fp32_add and fp32_to_fix16_8 while the sequencer does not use them
// (it waits while the sequencer clips). A write to a viewport register (FE_VP_*), applied in
// order on the triangle stream and changing the register, empties the cache of both banks
// (pcnt_q = 0) and cancels the vertex in flight; freeing a bank empties its cache. So every
// projection in the cache was made with the viewport state that applies to the triangle reading
// it, and equals the model's projection of that triangle's vertex (an unclipped triangle's
// vertices are the input vertices bit for bit, numerics §8.2).
//
// One sequencer (state_q) runs each triangle:
//   LOAD   3 clocks (the first in IDLE, once the three slots are projected): the three vertices
//          into polygon buffer 0 with their clip codes (one pa_dist: six fp32_add, a vertex's
//          seven plane distances); the cached projections of vertices 0 and 1 are read with
//          the addresses of the first clock, vertex 2's with those of the second. In the third
//          clock: NaN or
//          AND of the codes -> discarded; OR of the codes 0 (the fast path) -> area, face and
//          bounding-box culling on the cached projections and output, the triangle is accepted;
//          otherwise the slow path:
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
  localparam logic [31:0] Sign = 32'h8000_0000;

  typedef struct packed {
    logic [31:0]      color;
    logic [7:0][31:0] a;       // x, y, z, w, tex0.u, tex0.v, tex1.u, tex1.v (a[0] = x)
  } cv_t;
  localparam int CvW = 288;
  localparam int PeW = CvW + 7;  // polygon entry: {code, cv}

  typedef struct packed {
    logic [23:0] sx;
    logic [23:0] sy;
    logic [31:0] z;
    logic [31:0] rhw;
  } pv_t;

  typedef enum logic [3:0] {
    SIdle, SDer1, SDer2, SLoad, SClip, SInt0, SInt1, SInt2, SInt3, SIntA, SIntB, SIntW,
    SProj, SEmit, SDone
  } state_e;

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  state_e            state_q, state_d;
  logic [1:0]        full_q, full_d;
  logic              wbank_q, wbank_d, rbank_q, rbank_d;
  // front-end state
  logic [31:0]       vpx_q, vpx_d, vpy_q, vpy_d, vpw_q, vpw_d, vph_q, vph_d, zmin_q, zmin_d, zmax_q, zmax_d;
  logic [3:0]        raster_q, raster_d;
  logic [31:0]       rtbase_q, rtbase_d, rtsize_q, rtsize_d, scx_q, scx_d, scy_q, scy_d;
  logic [16:0]       rtpitch_q, rtpitch_d;  // pitch [15:0], 4x MSAA [16]
  logic [31:0]       hw_q, hw_d, hh_q, hh_d, zr_q, zr_d;
  // sequencer
  logic [1:0]        k_q, k_d;              // LOAD: vertex
  logic [6:0]        and_q, and_d, or_q, or_d;
  logic              nan_q, nan_d;
  logic [31:0]       flat_q, flat_d;
  logic              cur_q, cur_d;          // polygon buffer read by CLIP / PROJ / EMIT
  logic [3:0]        n_q, n_d;              // its vertex count
  logic [3:0]        m_q, m_d;              // CLIP: vertices written to the other buffer
  logic [3:0]        i_q, i_d;              // CLIP: edge; PROJ: vertex; EMIT: fan triangle j
  logic [2:0]        pl_q, pl_d;            // CLIP: plane
  logic              iin_a_q, iin_a_d;      // INT: the inside vertex is the edge's first (A)
  logic [2:0]        ph_q, ph_d;            // INT attribute / PROJ phase
  logic [31:0]       di_q, di_d, den_q, den_d, t_q, t_d, s_q, s_d, m1_q, m1_d;
  logic [8:0]        tt_q, tt_d;            // INT: t in 1/256, clamped to [0, 256]
  cv_t               nv_q, nv_d;            // INT: the new vertex
  logic [31:0]       r_q, r_d, zn_q, zn_d, a1_q, a1_d;
  logic [23:0]       sx_q, sx_d;
  logic [31:0]       tri_q, tri_d;
  logic              out_valid_q, out_valid_d;
  pineda_pkg::pa_tri_pkt_t out_q, out_d;
  pv_t               fp0_q, fp0_d, fp1_q, fp1_d;  // LOAD: cached projections of vertices 0, 1
  logic [5:0]        pca_q, pca_d, pcb_q, pcb_d;  // pcache read addresses (ports a and b)
  // projector
  logic [1:0][5:0]   lcnt_q, lcnt_d, pcnt_q, pcnt_d;  // per bank: vertices loaded, projected
  logic              pbusy_q, pbusy_d;      // a vertex in flight (phases 1, 2)
  logic [1:0]        pph_q, pph_d;
  logic              pb_q, pb_d;            // its bank and slot
  logic [4:0]        ps_q, ps_d;
  logic [31:0]       pr_q, pr_d, pax_q, pax_d, pay_q, pay_d, pzn_q, pzn_d;
  logic [23:0]       psx_q, psx_d;

  // storage (no reset)
  logic [CvW-1:0]    vbuf_q [64];
  logic [PeW-1:0]    poly_q [2*MaxPoly];
  logic [111:0]      proj_q [MaxPoly];
  logic [111:0]      pcache_q [64];
  logic              vb_we, poly_we, proj_we, pc_we;
  logic [5:0]        pc_waddr;
  logic [111:0]      pc_wdata;
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

  logic [4:0]  load_slot;
  cv_t         ld_cv;
  pv_t         pc_a, pc_b;              // pcache read ports (addresses of the previous clock)
  logic [3:0]  ib;                      // CLIP: index of the edge's second vertex
  logic [PeW-1:0] pe_a, pe_b;
  cv_t         cv_0, cv_a, cv_b, cv_i, cv_o, cv_2;
  logic [6:0]  code_a, code_b;
  logic        in_a, in_b;
  pv_t         pv0, pv1, pv2;
  logic [111:0] pe_tmp;

  always_comb begin
    // LOAD: vertex 0 in IDLE, vertices 1 and 2 in SLoad (k_q)
    if (state_q != SLoad) begin
      load_slot = prim_i.s0;
    end else if (k_q == 2'd1) begin
      load_slot = prim_i.s1;
    end else begin
      load_slot = prim_i.s2;
    end
    ld_cv  = cv_t'(vbuf_q[{rbank_q, load_slot}]);
    pe_tmp = pcache_q[pca_q];
    pc_a   = pv_t'(pe_tmp);
    pe_tmp = pcache_q[pcb_q];
    pc_b   = pv_t'(pe_tmp);
    ib     = (i_q + 4'd1 == n_q) ? 4'd0 : i_q + 4'd1;
    pe_a   = poly_q[paddr(cur_q, i_q)];
    pe_b   = poly_q[paddr(cur_q, ib)];
    cv_0   = cv_t'(poly_q[paddr(cur_q, 4'd0)][CvW-1:0]);
    cv_a   = cv_t'(pe_a[CvW-1:0]);
    cv_b   = cv_t'(pe_b[CvW-1:0]);
    code_a = pe_a[PeW-1:CvW];
    code_b = pe_b[PeW-1:CvW];
    in_a   = !code_a[pl_q];
    in_b   = !code_b[pl_q];
    cv_i   = iin_a_q ? cv_a : cv_b;
    cv_o   = iin_a_q ? cv_b : cv_a;
    // the triangle emitted: the fan triangle (0, i, i + 1) in EMIT; in LOAD (fast path) the
    // cached projections of the three vertices, the attributes of the third from the port
    cv_2   = cv_b;
    if (state_q == SLoad) begin
      pv0  = fp0_q;
      pv1  = fp1_q;
      pv2  = pc_a;
      cv_2 = ld_cv;
    end else begin
      pe_tmp = proj_q[0];
      pv0    = pv_t'(pe_tmp);
      pe_tmp = proj_q[i_q];
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
    rb_todo = pcnt_q[rbank_q] < lcnt_q[rbank_q];
    ob_todo = pcnt_q[!rbank_q] < lcnt_q[!rbank_q];
    pj_any  = pbusy_q || rb_todo || ob_todo;
    if (pbusy_q) begin
      pj_bank = pb_q;
    end else begin
      pj_bank = rb_todo ? rbank_q : !rbank_q;
    end
    pj_slot = pbusy_q ? ps_q : pcnt_q[pj_bank][4:0];
    pj_ph   = pbusy_q ? pph_q : 2'd0;
    pj_pos  = vbuf_q[{pj_bank, pj_slot}][127:0];
    // the sequencer's states that leave fp32_rcp, fp32_mul, fp32_add and fp32_to_fix16_8 free
    ops_free = (state_q == SIdle) || (state_q == SLoad) || (state_q == SClip) || (state_q == SInt0)
            || (state_q == SIntW) || (state_q == SEmit) || (state_q == SDone);
    pj_go   = pj_any && ops_free;
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
    nv_snap = nv_q;
    // 2w as fp32 mul(w, 2.0) (see pa_dist)
    if (nv_q.a[3][30:23] == 8'h00) begin
      w2n = {nv_q.a[3][31], 31'd0};
    end else if (nv_q.a[3][30:23] == 8'hFF && nv_q.a[3][22:0] != 23'd0) begin
      w2n = pineda_pkg::FP32_QNAN;
    end else if (nv_q.a[3][30:23] >= 8'hFE) begin
      w2n = {nv_q.a[3][31], 8'hFF, 23'd0};
    end else begin
      w2n = {nv_q.a[3][31], nv_q.a[3][30:23] + 8'd1, nv_q.a[3][22:0]};
    end
    unique case (pl_q)
      3'd0:    nv_snap.a[3] = pineda_pkg::PA_CLIP_EPS;
      3'd1:    nv_snap.a[2] = 32'd0;
      3'd2:    nv_snap.a[2] = nv_q.a[3];
      3'd3:    nv_snap.a[0] = w2n ^ Sign;
      3'd4:    nv_snap.a[0] = w2n;
      3'd5:    nv_snap.a[1] = w2n ^ Sign;
      default: nv_snap.a[1] = w2n;
    endcase
    tinv = 9'd256 - tt_q;
    for (int ch = 0; ch < 4; ch++) begin
      cmix[ch] = 18'(cv_i.color[8*ch +: 8]) * 18'(tinv) + 18'(cv_o.color[8*ch +: 8]) * 18'(tt_q) + 18'd128;
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
      SIdle:   dsel = ld_cv.a[3:0];
      SLoad:   dsel = ld_cv.a[3:0];
      SInt0:   dsel = cv_i.a[3:0];
      SInt1:   dsel = cv_o.a[3:0];
      default: dsel = nv_snap.a[3:0];
    endcase
    dx = dsel[0];
    dy = dsel[1];
    dz = dsel[2];
    dw = dsel[3];
  end
  pa_dist u_dist (.x_i(dx), .y_i(dy), .z_i(dz), .w_i(dw), .d_o(dd), .out_o(dout));

  always_comb begin
    unique case (state_q)
      SInt2:   rcp_a = den_q;
      SProj:   rcp_a = cv_a.a[3];
      default: rcp_a = pj_pos[3];         // projector phase 0: 1/w
    endcase
  end
  fp32_rcp u_rcp (.a_i(rcp_a), .y_o(rcp_y));

  always_comb begin
    mul_a = 32'd0;
    mul_b = 32'd0;
    unique case (state_q)
      SDer1: begin mul_a = vpw_q; mul_b = Half; end
      SDer2: begin mul_a = vph_q; mul_b = Half; end
      SInt2: begin mul_a = di_q;  mul_b = rcp_y; end
      SIntA: begin mul_a = s_q;   mul_b = cv_i.a[ph_q]; end
      SIntB: begin mul_a = t_q;   mul_b = cv_o.a[ph_q]; end
      SProj: begin
        unique case (ph_q)
          3'd0:    begin mul_a = cv_a.a[2]; mul_b = rcp_y; end   // z * (1/w)
          3'd1:    begin mul_a = cv_a.a[0]; mul_b = r_q;   end   // x/w
          3'd2:    begin mul_a = a1_q;      mul_b = hw_q;  end
          3'd3:    begin mul_a = cv_a.a[1]; mul_b = r_q;   end   // y/w
          3'd4:    begin mul_a = a1_q;      mul_b = hh_q;  end
          default: begin mul_a = zn_q;      mul_b = zr_q;  end
        endcase
      end
      default: begin
        if (pj_go) begin
          unique case (pj_ph)
            2'd0:    begin mul_a = pj_pos[0]; mul_b = rcp_y; end  // x/w
            2'd1:    begin mul_a = pj_pos[2]; mul_b = pr_q;  end  // z/w
            default: begin mul_a = pzn_q;      mul_b = zr_q;  end
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
      SDer1: begin add_a = zmax_q; add_b = zmin_q ^ Sign; end
      SInt1: begin add_a = di_q;   add_b = dd[pl_q] ^ Sign; end
      SInt3: begin add_a = One;    add_b = t_q ^ Sign; end
      SIntB: begin add_a = m1_q;   add_b = mul_y; end
      SProj: begin
        unique case (ph_q)
          3'd1:    begin add_a = mul_y; add_b = One; end          // x/w + 1
          3'd2:    begin add_a = mul_y; add_b = vpx_q; end
          3'd3:    begin add_a = One;   add_b = mul_y ^ Sign; end // 1 - y/w
          3'd4:    begin add_a = mul_y; add_b = vpy_q; end
          3'd5:    begin add_a = mul_y; add_b = zmin_q; end
          default: ;
        endcase
      end
      default: begin
        if (pj_go) begin
          unique case (pj_ph)
            2'd0:    begin add_a = mul_y;  add_b = One;   end    // x/w + 1
            2'd1:    begin add_a = mul2_y; add_b = vpx_q; end    // X
            default: begin add_a = mul2_y; add_b = vpy_q; end    // Y
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
      2'd1:    begin mul2_a = pax_q;      mul2_b = hw_q;  end
      default: begin mul2_a = pay_q;      mul2_b = hh_q;  end
    endcase
  end
  fp32_mul u_mul2 (.a_i(mul2_a), .b_i(mul2_b), .y_o(mul2_y));

  always_comb begin
    if (pj_ph == 2'd0) begin
      add2_a = One;
      add2_b = mul2_y ^ Sign;
    end else begin
      add2_a = mul_y;
      add2_b = zmin_q;
    end
  end
  fp32_add u_add2 (.a_i(add2_a), .b_i(add2_b), .y_o(add2_y));

  always_comb begin
    fix_a = (state_q == SInt3) ? t_q : add_y;
  end
  fp32_to_fix16_8 u_fix (.a_i(fix_a), .y_o(fix_y));

  // ---------------------------------------------------------------------------------------------
  // Emission: area, face, bounding box (the fan triangle (0, i, i + 1))
  // ---------------------------------------------------------------------------------------------
  logic signed [23:0] ex0, ey0, ex1, ey1, ex2, ey2, xmin, xmax, ymin, ymax;
  logic signed [50:0] area2;
  logic signed [25:0] px0, px1, py0, py1, qx0, qx1, qy0, qy1;
  logic [15:0]        rtw, rth;
  pineda_pkg::rect_t  clip;
  logic               front, cull;
  pineda_pkg::pa_tri_pkt_t etri;
  pineda_pkg::vtx_t   tv;
  pineda_pkg::pa_attr_t ta;

  function automatic logic [15:0] min16(input logic [15:0] a, input logic [15:0] b);
    min16 = (a < b) ? a : b;
  endfunction

  always_comb begin
    rtw = min16(rtsize_q[15:0], 16'(pineda_pkg::MAX_RT_DIM));
    rth = min16(rtsize_q[31:16], 16'(pineda_pkg::MAX_RT_DIM));
    clip.x0 = 15'(min16(scx_q[15:0], rtw));
    clip.x1 = 15'(min16(scx_q[31:16], rtw));
    clip.y0 = 15'(min16(scy_q[15:0], rth));
    clip.y1 = 15'(min16(scy_q[31:16], rth));

    ex0 = $signed(pv0.sx); ey0 = $signed(pv0.sy);
    ex1 = $signed(pv1.sx); ey1 = $signed(pv1.sy);
    ex2 = $signed(pv2.sx); ey2 = $signed(pv2.sy);
    area2 = (51'(ex1) - 51'(ex0)) * (51'(ey2) - 51'(ey0)) - (51'(ex2) - 51'(ex0)) * (51'(ey1) - 51'(ey0));
    front = (area2 > 51'sd0) != raster_q[2];
    xmin = (ex0 < ex1) ? ex0 : ex1;  xmin = (ex2 < xmin) ? ex2 : xmin;
    xmax = (ex0 > ex1) ? ex0 : ex1;  xmax = (ex2 > xmax) ? ex2 : xmax;
    ymin = (ey0 < ey1) ? ey0 : ey1;  ymin = (ey2 < ymin) ? ey2 : ymin;
    ymax = (ey0 > ey1) ? ey0 : ey1;  ymax = (ey2 > ymax) ? ey2 : ymax;
    px0 = (26'(xmin) + 26'sd127) >>> 8;
    py0 = (26'(ymin) + 26'sd127) >>> 8;
    px1 = ((26'(xmax) - 26'sd128) >>> 8) + 26'sd1;
    py1 = ((26'(ymax) - 26'sd128) >>> 8) + 26'sd1;
    qx0 = (px0 > $signed({11'd0, clip.x0})) ? px0 : $signed({11'd0, clip.x0});
    qx1 = (px1 < $signed({11'd0, clip.x1})) ? px1 : $signed({11'd0, clip.x1});
    qy0 = (py0 > $signed({11'd0, clip.y0})) ? py0 : $signed({11'd0, clip.y0});
    qy1 = (py1 < $signed({11'd0, clip.y1})) ? py1 : $signed({11'd0, clip.y1});
    cull = (area2 == '0)
        || ((raster_q[1:0] == 2'(pineda_pkg::PA_CULL_FRONT)) && front)
        || ((raster_q[1:0] == 2'(pineda_pkg::PA_CULL_BACK)) && !front)
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
    ta.color = cv_a.color;
    ta.tex0.u = cv_a.a[4]; ta.tex0.v = cv_a.a[5]; ta.tex1.u = cv_a.a[6]; ta.tex1.v = cv_a.a[7];
    etri.attr[1] = ta;
    ta.z = pv2.z; ta.rhw = pv2.rhw;
    ta.color = cv_2.color;
    ta.tex0.u = cv_2.a[4]; ta.tex0.v = cv_2.a[5]; ta.tex1.u = cv_2.a[6]; ta.tex1.v = cv_2.a[7];
    etri.attr[2] = ta;
    etri.color   = flat_q;
    etri.target.base  = rtbase_q;
    etri.target.pitch = rtpitch_q[15:0];
    etri.target.msaa  = rtpitch_q[16];
    etri.clip    = clip;
    etri.tri_id  = tri_q;
    etri.prim_id = prim_i.prim_id;
    etri.draw_id = prim_i.draw_id;
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  logic       out_free, vtx_fire, pos_nan_ld, pos_nan_p, prim_done, proj_rdy, vp_wr;
  logic [4:0] smax;
  logic [6:0] code_ld, or_next;
  logic [2:0] pl_next;
  logic       pl_found;

  always_comb begin
    // next plane in or_q after pl_q
    pl_next  = 3'd0;
    pl_found = 1'b0;
    for (int p = 6; p >= 0; p--) begin
      if (or_q[p] && (3'(p) > pl_q)) begin
        pl_next  = 3'(p);
        pl_found = 1'b1;
      end
    end
  end

  always_comb begin
    state_d     = state_q;
    full_d      = full_q;
    wbank_d     = wbank_q;
    rbank_d     = rbank_q;
    vpx_d = vpx_q; vpy_d = vpy_q; vpw_d = vpw_q; vph_d = vph_q; zmin_d = zmin_q; zmax_d = zmax_q;
    raster_d = raster_q; rtbase_d = rtbase_q; rtpitch_d = rtpitch_q; rtsize_d = rtsize_q;
    scx_d = scx_q; scy_d = scy_q;
    hw_d = hw_q; hh_d = hh_q; zr_d = zr_q;
    k_d = k_q; and_d = and_q; or_d = or_q; nan_d = nan_q; flat_d = flat_q;
    cur_d = cur_q; n_d = n_q; m_d = m_q; i_d = i_q; pl_d = pl_q; iin_a_d = iin_a_q; ph_d = ph_q;
    di_d = di_q; den_d = den_q; t_d = t_q; s_d = s_q; m1_d = m1_q; tt_d = tt_q; nv_d = nv_q;
    r_d = r_q; zn_d = zn_q; a1_d = a1_q; sx_d = sx_q;
    tri_d       = tri_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    fp0_d = fp0_q; fp1_d = fp1_q;
    // pcache reads: vertices 0 (port a) and 1 (port b) with the addresses of IDLE, vertex 2
    // (port a) with those of SLoad
    pca_d = {rbank_q, (state_q == SLoad) ? prim_i.s2 : prim_i.s0};
    pcb_d = {rbank_q, prim_i.s1};
    lcnt_d = lcnt_q; pcnt_d = pcnt_q; pbusy_d = pbusy_q; pph_d = pph_q; pb_d = pb_q; ps_d = ps_q;
    pr_d = pr_q; pax_d = pax_q; pay_d = pay_q; pzn_d = pzn_q; psx_d = psx_q;
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
    vtx_ready_o = !full_q[wbank_q];
    vtx_fire    = vtx_valid_i && vtx_ready_o;
    if (vtx_fire && !vtx_i.eop) begin
      vb_we    = 1'b1;
      vb_waddr = {wbank_q, vtx_i.vtx_id[4:0]};
      vb_wdata.color = vtx_i.color;
      vb_wdata.a = {vtx_i.tex1.v, vtx_i.tex1.u, vtx_i.tex0.v, vtx_i.tex0.u,
                    vtx_i.pos.w, vtx_i.pos.z, vtx_i.pos.y, vtx_i.pos.x};
      lcnt_d[wbank_q] = lcnt_q[wbank_q] + 6'd1;
      if (vtx_i.vtx_id[5]) begin
        full_d[wbank_q] = 1'b1;
        wbank_d         = !wbank_q;
      end
    end

    // ---- projector: phase 0 1/w, x/w + 1, 1 - y/w; phase 1 z/w, sx; phase 2 sy, z -> cache
    if (pj_go) begin
      unique case (pj_ph)
        2'd0: begin
          pr_d    = rcp_y;
          pax_d   = add_y;
          pay_d   = add2_y;
          pbusy_d = 1'b1;
          pph_d   = 2'd1;
          pb_d    = pj_bank;
          ps_d    = pj_slot;
        end
        2'd1: begin
          pzn_d = mul_y;
          psx_d = fix_y;
          pph_d = 2'd2;
        end
        default: begin
          pc_we    = 1'b1;
          pc_waddr = {pb_q, ps_q};
          pc_wdata = {psx_q, fix_y, add2_y, pr_q};
          pcnt_d[pb_q] = pcnt_q[pb_q] + 6'd1;
          pbusy_d  = 1'b0;
          pph_d    = 2'd0;
        end
      endcase
    end

    // a triangle starts once its three slots are projected (or the whole bank is)
    smax = prim_i.s0;
    if (prim_i.s1 > smax) smax = prim_i.s1;
    if (prim_i.s2 > smax) smax = prim_i.s2;
    proj_rdy = ({1'b0, smax} < pcnt_q[rbank_q]) || (pcnt_q[rbank_q] == lcnt_q[rbank_q]);

    code_ld    = dout & {4'hF, !raster_q[3], !raster_q[3], 1'b1};
    or_next    = or_q | code_ld;
    pos_nan_ld = 1'b0;
    pos_nan_p  = 1'b0;
    for (int c = 0; c < 4; c++) begin
      pos_nan_ld = pos_nan_ld || ((ld_cv.a[c][30:23] == 8'hFF) && (ld_cv.a[c][22:0] != 23'd0));
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
              8'(pineda_pkg::FE_VP_X):    vp_wr = prim_i.wr_val != vpx_q;
              8'(pineda_pkg::FE_VP_Y):    vp_wr = prim_i.wr_val != vpy_q;
              8'(pineda_pkg::FE_VP_W):    vp_wr = prim_i.wr_val != vpw_q;
              8'(pineda_pkg::FE_VP_H):    vp_wr = prim_i.wr_val != vph_q;
              8'(pineda_pkg::FE_VP_ZMIN): vp_wr = prim_i.wr_val != zmin_q;
              8'(pineda_pkg::FE_VP_ZMAX): vp_wr = prim_i.wr_val != zmax_q;
              default: ;
            endcase
            unique case (prim_i.wr_idx)
              8'(pineda_pkg::FE_VP_X):      vpx_d     = prim_i.wr_val;
              8'(pineda_pkg::FE_VP_Y):      vpy_d     = prim_i.wr_val;
              8'(pineda_pkg::FE_VP_W):      vpw_d     = prim_i.wr_val;
              8'(pineda_pkg::FE_VP_H):      vph_d     = prim_i.wr_val;
              8'(pineda_pkg::FE_VP_ZMIN):   zmin_d    = prim_i.wr_val;
              8'(pineda_pkg::FE_VP_ZMAX):   zmax_d    = prim_i.wr_val;
              8'(pineda_pkg::FE_RASTER):    raster_d  = prim_i.wr_val[3:0];
              8'(pineda_pkg::FE_RT_BASE):   rtbase_d  = prim_i.wr_val;
              8'(pineda_pkg::FE_RT_PITCH):  rtpitch_d = prim_i.wr_val[16:0];
              8'(pineda_pkg::FE_RT_SIZE):   rtsize_d  = prim_i.wr_val;
              8'(pineda_pkg::FE_SCISSOR_X): scx_d     = prim_i.wr_val;
              8'(pineda_pkg::FE_SCISSOR_Y): scy_d     = prim_i.wr_val;
              default: ;
            endcase
            // a viewport write: derived values in SDer1, SDer2
            state_d = vp_wr ? SDer1 : SIdle;
          end else if (full_q[rbank_q] && proj_rdy) begin
            // LOAD, vertex 0
            poly_we    = 1'b1;
            poly_waddr = paddr(1'b0, 4'd0);
            poly_wdata = {code_ld, CvW'(ld_cv)};
            flat_d  = ld_cv.color;
            and_d   = code_ld;
            or_d    = code_ld;
            nan_d   = pos_nan_ld;
            k_d     = 2'd1;
            cur_d   = 1'b0;
            i_d     = 4'd1;           // EMIT's cv_a reads vertex 1 in the fast path
            state_d = SLoad;
          end
        end
      end
      SDer1: begin
        hw_d    = mul_y;
        zr_d    = add_y;
        state_d = SDer2;
      end
      SDer2: begin
        hh_d    = mul_y;
        state_d = SIdle;
      end
      SLoad: begin
        // vertices 1 (k = 1) and 2 (k = 2)
        poly_we    = 1'b1;
        poly_waddr = paddr(1'b0, 4'(k_q));
        poly_wdata = {code_ld, CvW'(ld_cv)};
        and_d = and_q & code_ld;
        or_d  = or_next;
        nan_d = nan_q || pos_nan_ld;
        if (k_q == 2'd1) begin
          fp0_d = pc_a;
          fp1_d = pc_b;
          k_d   = 2'd2;
        end else begin
          cur_d = 1'b0;
          n_d   = 4'd3;
          m_d   = 4'd0;
          ph_d  = 3'd0;
          if (nan_q || pos_nan_ld || ((and_q & code_ld) != 7'd0)) begin
            prim_done = 1'b1;         // NaN or rejected
          end else if (or_next == 7'd0) begin
            // fast path: not clipped, the cached projections; waits here for the output
            if (cull || out_free) begin
              if (!cull) begin
                out_valid_d = 1'b1;
                out_d       = etri;
                tri_d       = tri_q + 32'd1;
              end
              prim_done = 1'b1;
            end
          end else begin
            i_d     = 4'd0;
            state_d = SClip;
            pl_d    = 3'd0;
            for (int p = 6; p >= 0; p--) begin
              if (or_next[p]) pl_d = 3'(p);
            end
          end
        end
      end
      SClip: begin
        // edge (i, ib): copy A when inside; a crossing edge goes through INT
        if (in_a) begin
          poly_we    = 1'b1;
          poly_waddr = paddr(!cur_q, m_q);
          poly_wdata = pe_a;
        end
        m_d = m_q + (in_a ? 4'd1 : 4'd0);
        if (in_a != in_b) begin
          iin_a_d = in_a;
          state_d = SInt0;
        end else if (ib == 4'd0) begin
          // plane done
          if (m_q + (in_a ? 4'd1 : 4'd0) < 4'd3) begin
            state_d = SDone;
          end else begin
            cur_d = !cur_q;
            n_d   = m_q + (in_a ? 4'd1 : 4'd0);
            m_d   = 4'd0;
            i_d   = 4'd0;
            if (pl_found) begin
              pl_d = pl_next;
            end else begin
              state_d = SProj;
              ph_d    = 3'd0;
            end
          end
        end else begin
          i_d = i_q + 4'd1;
        end
      end
      SInt0: begin
        di_d    = dd[pl_q];
        state_d = SInt1;
      end
      SInt1: begin
        den_d   = add_y;           // dI - dO
        state_d = SInt2;
      end
      SInt2: begin
        t_d     = mul_y;           // dI * rcp(dI - dO)
        state_d = SInt3;
      end
      SInt3: begin
        s_d     = add_y;           // 1 - t
        if ($signed(fix_y) < 24'sd0) begin
          tt_d = 9'd0;
        end else if ($signed(fix_y) > 24'sd256) begin
          tt_d = 9'd256;
        end else begin
          tt_d = fix_y[8:0];
        end
        ph_d    = 3'd0;
        state_d = SIntA;
      end
      SIntA: begin
        m1_d    = mul_y;           // s * a_in
        state_d = SIntB;
      end
      SIntB: begin
        nv_d.a[ph_q] = add_y;      // s * a_in + t * a_out
        ph_d    = ph_q + 3'd1;
        state_d = (ph_q == 3'd7) ? SIntW : SIntA;
      end
      SIntW: begin
        poly_we    = 1'b1;
        poly_waddr = paddr(!cur_q, m_q);
        poly_wdata = {dout & {4'hF, !raster_q[3], !raster_q[3], 1'b1}, CvW'(nv_snap)};
        m_d        = m_q + 4'd1;
        if (ib == 4'd0) begin
          cur_d = !cur_q;
          n_d   = m_q + 4'd1;
          m_d   = 4'd0;
          i_d   = 4'd0;
          if (m_q + 4'd1 < 4'd3) begin
            state_d = SDone;
          end else if (pl_found) begin
            pl_d    = pl_next;
            state_d = SClip;
          end else begin
            state_d = SProj;
            ph_d    = 3'd0;
          end
        end else begin
          i_d     = i_q + 4'd1;
          state_d = SClip;
        end
      end
      SProj: begin
        ph_d = ph_q + 3'd1;
        unique case (ph_q)
          3'd0: begin
            r_d  = rcp_y;
            zn_d = mul_y;
            if (pos_nan_p) state_d = SDone;
          end
          3'd1: a1_d = add_y;
          3'd2: sx_d = fix_y;
          3'd3: a1_d = add_y;
          3'd4: begin
            proj_we    = 1'b1;      // sx, sy now; z and 1/w with phase 5
            proj_waddr = i_q;
            proj_wdata = {sx_q, fix_y, 32'd0, 32'd0};
            sx_d       = fix_y;     // keep sy
          end
          default: begin
            proj_we    = 1'b1;
            proj_waddr = i_q;
            proj_wdata = {proj_q[i_q][111:88], sx_q, add_y, r_q};
            ph_d       = 3'd0;
            if (i_q + 4'd1 == n_q) begin
              i_d     = 4'd1;
              state_d = SEmit;
            end else begin
              i_d = i_q + 4'd1;
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
            tri_d       = tri_q + 32'd1;
          end
          if (i_q + 4'd2 == n_q) begin
            state_d = SDone;
          end else begin
            i_d = i_q + 4'd1;
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
      k_d          = 2'd0;
      if (prim_i.last) begin
        full_d[rbank_q] = 1'b0;
        rbank_d         = !rbank_q;
        lcnt_d[rbank_q] = 6'd0;
        pcnt_d[rbank_q] = 6'd0;
        if (pbusy_d && (pb_d == rbank_q)) begin
          pbusy_d = 1'b0;
          pph_d   = 2'd0;
        end
      end
    end
    // a viewport write: every cached projection is stale, the vertex in flight too
    if (vp_wr) begin
      pcnt_d  = '0;
      pbusy_d = 1'b0;
      pph_d   = 2'd0;
    end

    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = (state_q == SIdle) && !out_valid_q && (full_q == 2'b00) && !pj_any;
    clip_busy_o = (state_q == SClip) || (state_q == SInt0) || (state_q == SInt1) || (state_q == SInt2)
               || (state_q == SInt3) || (state_q == SIntA) || (state_q == SIntB) || (state_q == SIntW);
  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      full_q <= '0; wbank_q <= 1'b0; rbank_q <= 1'b0;
      vpx_q <= '0; vpy_q <= '0; vpw_q <= '0; vph_q <= '0; zmin_q <= '0; zmax_q <= '0;
      raster_q <= '0; rtbase_q <= '0; rtpitch_q <= '0; rtsize_q <= '0;
      scx_q <= pineda_pkg::FE_SCISSOR_X_RESET; scy_q <= pineda_pkg::FE_SCISSOR_Y_RESET;
      hw_q <= '0; hh_q <= '0; zr_q <= '0;
      k_q <= '0; and_q <= '0; or_q <= '0; nan_q <= 1'b0; flat_q <= '0;
      cur_q <= 1'b0; n_q <= '0; m_q <= '0; i_q <= '0; pl_q <= '0; iin_a_q <= 1'b0; ph_q <= '0;
      di_q <= '0; den_q <= '0; t_q <= '0; s_q <= '0; m1_q <= '0; tt_q <= '0; nv_q <= '0;
      r_q <= '0; zn_q <= '0; a1_q <= '0; sx_q <= '0;
      tri_q <= '0;
      out_valid_q <= 1'b0;
      out_q <= '0;
      fp0_q <= '0; fp1_q <= '0;
      lcnt_q <= '0; pcnt_q <= '0; pbusy_q <= 1'b0; pph_q <= '0; pb_q <= 1'b0; ps_q <= '0;
      pr_q <= '0; pax_q <= '0; pay_q <= '0; pzn_q <= '0; psx_q <= '0;
    end else begin
      state_q <= state_d;
      full_q <= full_d; wbank_q <= wbank_d; rbank_q <= rbank_d;
      vpx_q <= vpx_d; vpy_q <= vpy_d; vpw_q <= vpw_d; vph_q <= vph_d; zmin_q <= zmin_d; zmax_q <= zmax_d;
      raster_q <= raster_d; rtbase_q <= rtbase_d; rtpitch_q <= rtpitch_d; rtsize_q <= rtsize_d;
      scx_q <= scx_d; scy_q <= scy_d;
      hw_q <= hw_d; hh_q <= hh_d; zr_q <= zr_d;
      k_q <= k_d; and_q <= and_d; or_q <= or_d; nan_q <= nan_d; flat_q <= flat_d;
      cur_q <= cur_d; n_q <= n_d; m_q <= m_d; i_q <= i_d; pl_q <= pl_d; iin_a_q <= iin_a_d; ph_q <= ph_d;
      di_q <= di_d; den_q <= den_d; t_q <= t_d; s_q <= s_d; m1_q <= m1_d; tt_q <= tt_d; nv_q <= nv_d;
      r_q <= r_d; zn_q <= zn_d; a1_q <= a1_d; sx_q <= sx_d;
      tri_q <= tri_d;
      out_valid_q <= out_valid_d;
      out_q <= out_d;
      fp0_q <= fp0_d; fp1_q <= fp1_d;
      lcnt_q <= lcnt_d; pcnt_q <= pcnt_d; pbusy_q <= pbusy_d; pph_q <= pph_d; pb_q <= pb_d; ps_q <= ps_d;
      pr_q <= pr_d; pax_q <= pax_d; pay_q <= pay_d; pzn_q <= pzn_d; psx_q <= psx_d;
    end
  end

  // Storage arrays (written one entry per clock, no reset).
  always_ff @(posedge clk_i) begin
    if (vb_we) vbuf_q[vb_waddr] <= CvW'(vb_wdata);
    if (poly_we) poly_q[poly_waddr] <= poly_wdata;
    if (proj_we) proj_q[proj_waddr] <= proj_wdata;
    if (pc_we) pcache_q[pc_waddr] <= pc_wdata;
    pca_q <= pca_d;
    pcb_q <= pcb_d;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(out_valid_q && !out_ready_i) || (out_valid_d && out_d == out_q))
        else $error("pa: output changed while stalled");
      assert (!(state_q == SClip && m_q > 4'(MaxPoly - 1)))
        else $error("pa: polygon overflow");
      assert (!(vtx_fire && !vtx_i.eop && full_q[wbank_q]))
        else $error("pa: vertex into a full bank");
    end
  end
`endif

endmodule
