// SPDX-License-Identifier: Apache-2.0
// setup: triangle setup (docs/numerics.md §3).
//
// Stage A (input -> a_q): doubled area (51-bit signed), sample bounding box
//   px0 = (xmin + 127 - d) >>> 8, px1 = ((xmax - 128 + d) >>> 8) + 1 (same for y; d = 0, or 96
//   at 4x MSAA where samples lie within 96/256 pixel of the centre), intersection with
//   clip, raster-tile rectangle (8x8 pixels, 4x4 at 4x MSAA: target.msaa), the walk's first
//   column start (the topmost vertex's tile column, clamped to the rectangle), and the cull
//   decision (area2 == 0 or an empty pixel rectangle).
// Stage B (a_q -> output register): swap v1/v2 when area2 < 0, the three edges
//   k: v[k] -> v[(k+1)%3] with A = yi - yj, B = xj - xi, top-left bias (0 for A > 0 or
//   A == 0 && B > 0, else -1), and e = A*(X - xi) + B*(Y - yi) + bias at sample 0 of the first
//   pixel of raster tile (start, tiles.y0): X = start*2048 + 128, Y = tiles.y0*2048 + 128 (1x),
//   X = start*1024 + 96, Y = tiles.y0*1024 + 32 (4x: D3D sample 0 at (-2, -6)/16 pixel).
// Depth plane (docs/numerics.md §9), in two stages in front of A and finished in A and B:
// Stage P1 (input -> p1_q): the doubled area and the vertex deltas (API order) to FP32, each z
//   scaled by 2^24 - 1 (FP32).
// Stage P2 (p1_q -> p2_q): 1/area, the z deltas and the numerators
//   nx = dz1*dy2 - dz2*dy1, ny = dz2*dx1 - dz1*dx2 (FP32).
// Stage A also forms the gradients a = fix(nx/area), b = fix(ny/area) and z0 = fix(zs0) (fixed
//   point, Z_FRAC fraction bits, saturated); stage B the reference value
//   c = z0 + a*(X - x0) + b*(Y - y0) at the edges' reference sample.
// Interpolation planes (docs/numerics.md §10), beside the depth plane, exact integers: P1
//   normalises the three 1/w to integers Q_k and forms the edge coefficients A_k, B_k and the
//   unbiased edge functions E_k at the centre of pixel (0, 0) (API order, edge v[k+1] -> v[k+2]),
//   and the texture coordinate deltas; P2 the products Q_k*A_k, Q_k*B_k, Q_k*E_k; A the planes
//   L1, L2 and W = L0 + L1 + L2, oriented by the sign of area2. The interp_tri_t rides unchanged
//   in setup_pkt_t -> tile_pkt_t -> quad_pkt_t to INTERP.
// Every multi-operand sum of stage B (the three edge constants and c) is one carry-save tree with
// one carry-propagate add (csa_dot2; CarrySave = 0 selects the plain multiply-and-add form).
// Culled triangles are dropped between stages A and B. An end-of-pipe token (eop = 1) is never
// culled and leaves as a setup_pkt_t token (every other field 0).
// Throughput: one triangle per clock. Latency: 4 clocks.
module setup #(
  parameter bit CarrySave = 1'b1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  pineda_pkg::tri_pkt_t   in_i,
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output pineda_pkg::setup_pkt_t out_o,
  output logic                   idle_o
);

  typedef struct packed {
    logic                   eop;    // end-of-pipe token
    logic [2:0][2*pineda_pkg::COORD_W-1:0] v;  // vtx_t x3, API order
    logic                   neg;    // area2 < 0: swap v1 and v2
    logic                   cull;
    pineda_pkg::trect_t     tiles;
    logic [12:0]            start;  // first column of the walk
    pineda_pkg::rect_t      pix;
    logic [31:0]            color;
    pineda_pkg::target_t    target;
    logic [31:0]            tri_id;
    logic                   front;
    pineda_pkg::ds_state_t  ds;
    pineda_pkg::om_state_t  om;
    logic [23:0]            zlo, zhi;
    logic [pineda_pkg::ZGRAD_W-1:0] za, zb;  // depth gradients
    logic [pineda_pkg::ZREF_W-1:0]  z0;      // depth at v0
    pineda_pkg::interp_tri_t it;             // interpolation state (numerics §10)
  } stage_a_t;

  typedef struct packed {
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [31:0]            fa;                 // area2 (FP32)
    logic [3:0][31:0]       fd;                 // dx1, dy1, dx2, dy2 (FP32)
    logic [2:0][31:0]       zs;                 // z * (2^24 - 1) (FP32)
    logic [2:0][pineda_pkg::IPQ_W-1:0] q;       // normalised 1/w as integers (numerics §10.2)
    logic [2:0][24:0]       ia, ib;             // edge coefficients A_k, B_k (API order)
    logic [2:0][49:0]       ie;                 // E_k at (128, 128)
    logic [1:0][3:0][31:0]  uvd;                // [0]: uv(v1) - uv(v0), [1]: uv(v2) - uv(v0); u0, v0, u1, v1
  } stage_p1_t;

  typedef struct packed {
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [31:0]            ra;                 // 1 / area2
    logic [31:0]            nx, ny;             // gradient numerators
    logic [31:0]            zs0;
    logic [2:0][pineda_pkg::IPGRAD_W-1:0] ipa, ipb;  // Q_k*A_k, Q_k*B_k
    logic [2:0][81:0]       ipc;                // Q_k*E_k
    logic [1:0][3:0][31:0]  uvd;
  } stage_p2_t;

  localparam logic [31:0] DepthScale = 32'h4B7F_FFFF;  // 16777215.0 = 2^24 - 1

  // ---------------------------------------------------------------------------------------------
  // Stage P1
  // ---------------------------------------------------------------------------------------------
  stage_p1_t          p1_in, p1_q, p1_d;
  logic               p1_valid_q, p1_valid_d;
  logic signed [25:0] pd [4];
  logic signed [50:0] p_area2;
  logic signed [23:0] pvx [3];
  logic signed [23:0] pvy [3];
  pineda_pkg::vtx_t   pvin;

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      pvin   = in_i.v[k];
      pvx[k] = $signed(pvin.x);
      pvy[k] = $signed(pvin.y);
    end
    pd[0]   = 26'(pvx[1]) - 26'(pvx[0]);
    pd[1]   = 26'(pvy[1]) - 26'(pvy[0]);
    pd[2]   = 26'(pvx[2]) - 26'(pvx[0]);
    pd[3]   = 26'(pvy[2]) - 26'(pvy[0]);
    p_area2 = 51'(pd[0]) * 51'(pd[3]) - 51'(pd[2]) * 51'(pd[1]);
  end

  for (genvar g = 0; g < 4; g++) begin : g_fd
    fp32_from_int #(.W(26)) u_fd (.a_i(pd[g]), .y_o(p1_in.fd[g]));
  end
  fp32_from_int #(.W(51)) u_fa (.a_i(p_area2), .y_o(p1_in.fa));
  for (genvar g = 0; g < 3; g++) begin : g_zs
    pineda_pkg::dword_t pz;
    logic [31:0] zin;
    always_comb begin
      pz  = in_i.z[g];
      zin = pz.data;
    end
    fp32_mul u_zs (.a_i(zin), .b_i(DepthScale), .y_o(p1_in.zs[g]));
  end
  assign p1_in.tp   = in_i;
  assign p1_in.area2 = p_area2;

  // Interpolation (numerics §10.2): a bad 1/w reads as 1.0 for all three; else
  // Q_k = round(sig_k * 2^(8 - s_k)), half up, s_k = max exponent - e_k (0 for s_k >= 34).
  // The edge functions of the interpolation planes, exact. Texture coordinate deltas.
  logic [2:0][31:0]      vrhw;
  logic [2:0][3:0][31:0] vuv;   // per vertex: u0, v0, u1, v1
  logic [2:0][8:0]       vexp;
  logic [8:0]            emax;
  logic [8:0]            qs;
  logic [32:0]           qsh;
  logic                  rhw_ok;
  pineda_pkg::vattr_t    va;
  logic signed [24:0]    pia, pib, pex, pey;
  always_comb begin
    for (int k = 0; k < 3; k++) begin
      // E_k: edge v[i] -> v[j], i = k+1, j = k+2 (mod 3), at X = Y = 128.
      pia = 25'(pvy[(k + 1) % 3]) - 25'(pvy[(k + 2) % 3]);
      pib = 25'(pvx[(k + 2) % 3]) - 25'(pvx[(k + 1) % 3]);
      pex = 25'sd128 - 25'(pvx[(k + 1) % 3]);
      pey = 25'sd128 - 25'(pvy[(k + 1) % 3]);
      p1_in.ia[k] = pia;
      p1_in.ib[k] = pib;
      p1_in.ie[k] = 50'(pia * pex) + 50'(pib * pey);  // |.| < 2^49
    end
    rhw_ok = 1'b1;
    emax   = '0;
    for (int k = 0; k < 3; k++) begin
      va        = in_i.a[k];
      vrhw[k]   = va.rhw;
      vuv[k][0] = va.uv0.u;
      vuv[k][1] = va.uv0.v;
      vuv[k][2] = va.uv1.u;
      vuv[k][3] = va.uv1.v;
      vexp[k]   = {1'b0, va.rhw[30:23]};
      rhw_ok    = rhw_ok && !va.rhw[31] && (va.rhw[30:23] != 8'd0) && (va.rhw[30:23] != 8'hFF);
      if (vexp[k] > emax) emax = vexp[k];
    end
    qs  = '0;
    qsh = '0;
    for (int k = 0; k < 3; k++) begin
      qs  = emax - vexp[k];
      qsh = {1'b1, vrhw[k][22:0], 9'd0} >> qs[5:0];  // sig * 2^(9 - s)
      if (!rhw_ok)                p1_in.q[k] = 32'h8000_0000;
      else if (qs >= 9'd34)       p1_in.q[k] = '0;
      else                        p1_in.q[k] = 32'((qsh + 33'd1) >> 1);
    end
  end
  for (genvar d = 0; d < 2; d++) begin : g_uvd
    for (genvar c = 0; c < 4; c++) begin : g_c
      fp32_add u_uvd (.a_i(vuv[d+1][c]), .b_i(vuv[0][c] ^ 32'h8000_0000), .y_o(p1_in.uvd[d][c]));
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Stage P2
  // ---------------------------------------------------------------------------------------------
  stage_p2_t   p2_in, p2_q, p2_d;
  logic        p2_valid_q, p2_valid_d;
  logic [31:0] dz1, dz2, m1, m2, m3, m4;

  fp32_rcp u_ra  (.a_i(p1_q.fa), .y_o(p2_in.ra));
  fp32_add u_dz1 (.a_i(p1_q.zs[1]), .b_i(p1_q.zs[0] ^ 32'h8000_0000), .y_o(dz1));
  fp32_add u_dz2 (.a_i(p1_q.zs[2]), .b_i(p1_q.zs[0] ^ 32'h8000_0000), .y_o(dz2));
  fp32_mul u_m1  (.a_i(dz1), .b_i(p1_q.fd[3]), .y_o(m1));  // dz1 * dy2
  fp32_mul u_m2  (.a_i(dz2), .b_i(p1_q.fd[1]), .y_o(m2));  // dz2 * dy1
  fp32_mul u_m3  (.a_i(dz2), .b_i(p1_q.fd[0]), .y_o(m3));  // dz2 * dx1
  fp32_mul u_m4  (.a_i(dz1), .b_i(p1_q.fd[2]), .y_o(m4));  // dz1 * dx2
  fp32_add u_nx  (.a_i(m1), .b_i(m2 ^ 32'h8000_0000), .y_o(p2_in.nx));
  fp32_add u_ny  (.a_i(m3), .b_i(m4 ^ 32'h8000_0000), .y_o(p2_in.ny));
  assign p2_in.tp   = p1_q.tp;
  assign p2_in.area2 = p1_q.area2;
  assign p2_in.zs0   = p1_q.zs[0];
  assign p2_in.uvd   = p1_q.uvd;

  // Interpolation planes: the products of each vertex's Q_k with its edge (exact; Q_k < 2^32).
  for (genvar k = 0; k < 3; k++) begin : g_ipn
    logic signed [32:0] qk;
    assign qk = $signed({1'b0, p1_q.q[k]});
    assign p2_in.ipa[k] = pineda_pkg::IPGRAD_W'(qk * $signed(p1_q.ia[k]));  // |.| < 2^56
    assign p2_in.ipb[k] = pineda_pkg::IPGRAD_W'(qk * $signed(p1_q.ib[k]));
    assign p2_in.ipc[k] = 82'(qk * $signed(p1_q.ie[k]));                    // |.| < 2^81
  end

  // Stage A's depth part: gradients and the reference depth in fixed point.
  logic [31:0] fza, fzb;
  logic [pineda_pkg::ZGRAD_W-1:0] a_za, a_zb;
  logic [pineda_pkg::ZREF_W-1:0]  a_z0;
  fp32_mul u_fza (.a_i(p2_q.nx), .b_i(p2_q.ra), .y_o(fza));
  fp32_mul u_fzb (.a_i(p2_q.ny), .b_i(p2_q.ra), .y_o(fzb));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZGRAD_W)) u_xa (.a_i(fza), .y_o(a_za));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZGRAD_W)) u_xb (.a_i(fzb), .y_o(a_zb));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W))  u_x0 (.a_i(p2_q.zs0), .y_o(a_z0));

  // Stage A's interpolation part: L_k = sigma * Q_k * E_k (sigma: the sign of area2, so that
  // every L_k >= 0 inside), W = L0 + L1 + L2. -x = ~x + 1: the negations fold into the sums.
  localparam int unsigned GW = pineda_pkg::IPGRAD_W;
  localparam int unsigned PW = pineda_pkg::IPLANE_W;
  logic              a_sg;
  logic [GW-1:0]     a_wa, a_wb;
  logic [2:0][GW-1:0] a_pa, a_pb;
  logic [2:0][PW-1:0] a_pc;
  logic [PW-1:0]     a_wc;
  always_comb begin
    a_sg = p2_q.area2[50];
    for (int k = 0; k < 3; k++) begin
      a_pa[k] = p2_q.ipa[k] ^ {GW{a_sg}};
      a_pb[k] = p2_q.ipb[k] ^ {GW{a_sg}};
      a_pc[k] = PW'($signed(p2_q.ipc[k])) ^ {PW{a_sg}};
    end
    a_wa = a_pa[0] + a_pa[1] + a_pa[2] + {{(GW - 2){1'b0}}, a_sg, a_sg};  // + 3 sigma
    a_wb = a_pb[0] + a_pb[1] + a_pb[2] + {{(GW - 2){1'b0}}, a_sg, a_sg};
    a_wc = a_pc[0] + a_pc[1] + a_pc[2] + {{(PW - 2){1'b0}}, a_sg, a_sg};
  end

  // ---------------------------------------------------------------------------------------------
  // Stage A
  // ---------------------------------------------------------------------------------------------
  stage_a_t a_in;
  pineda_pkg::interp_tri_t a_it;
  // One signal per plane and vertex: Yosys 0.55 misreads arrays of struct types (yosys#2677).
  pineda_pkg::iplane_t     a_ip0, a_ip1, a_ip2;
  pineda_pkg::vattr_t      a_va0;
  pineda_pkg::fvec2_t      a_f2;

  logic signed [50:0] area2;
  logic signed [23:0] xmin, xmax, ymin, ymax;
  logic signed [25:0] px0, px1, py0, py1;            // pixel bbox (half-open)
  logic signed [25:0] cx0, cx1, cy0, cy1;            // clip, as signed
  logic signed [25:0] qx0, qx1, qy0, qy1;            // intersection
  logic [14:0]        pix_x1m1, pix_y1m1;
  logic               msaa;
  logic signed [23:0] top_x;                         // x of the topmost vertex
  logic signed [15:0] top_col;                       // its raster-tile column
  logic signed [15:0] tcol_lo, tcol_hi;
  logic signed [23:0] vx [3];                        // vertex coordinates as signed values
  logic signed [23:0] vy [3];
  pineda_pkg::vtx_t   vin;
  pineda_pkg::tri_pkt_t tri_a;

  function automatic logic signed [23:0] min3(input logic signed [23:0] a,
                                              input logic signed [23:0] b,
                                              input logic signed [23:0] c);
    logic signed [23:0] m;
    m    = (a < b) ? a : b;
    min3 = (c < m) ? c : m;
  endfunction

  function automatic logic signed [23:0] max3(input logic signed [23:0] a,
                                              input logic signed [23:0] b,
                                              input logic signed [23:0] c);
    logic signed [23:0] m;
    m    = (a > b) ? a : b;
    max3 = (c > m) ? c : m;
  endfunction

  always_comb begin
    // Doubled signed area: (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0). Differences are 25-bit, products
    // 50-bit, the difference 51-bit; computed in 51 bits (exact).
    // Element -> plain struct variable -> fields (see the note in ia.sv).
    tri_a = p2_q.tp;
    for (int k = 0; k < 3; k++) begin
      vin   = tri_a.v[k];
      vx[k] = $signed(vin.x);
      vy[k] = $signed(vin.y);
    end
    area2 = $signed(p2_q.area2);  // (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0), from stage P1

    // Sample bounding box: first pixel whose centre is >= min, last whose centre is <= max.
    xmin = min3(vx[0], vx[1], vx[2]);
    xmax = max3(vx[0], vx[1], vx[2]);
    ymin = min3(vy[0], vy[1], vy[2]);
    ymax = max3(vy[0], vy[1], vy[2]);
    // 4x MSAA: samples lie within 96/256 pixel of the centre.
    px0  = (26'(xmin) + (tri_a.target.msaa ? 26'sd31 : 26'sd127)) >>> 8;
    py0  = (26'(ymin) + (tri_a.target.msaa ? 26'sd31 : 26'sd127)) >>> 8;
    px1  = ((26'(xmax) - (tri_a.target.msaa ? 26'sd32 : 26'sd128)) >>> 8) + 26'sd1;
    py1  = ((26'(ymax) - (tri_a.target.msaa ? 26'sd32 : 26'sd128)) >>> 8) + 26'sd1;

    cx0 = $signed({11'd0, tri_a.clip.x0});
    cx1 = $signed({11'd0, tri_a.clip.x1});
    cy0 = $signed({11'd0, tri_a.clip.y0});
    cy1 = $signed({11'd0, tri_a.clip.y1});
    qx0 = (px0 > cx0) ? px0 : cx0;
    qx1 = (px1 < cx1) ? px1 : cx1;
    qy0 = (py0 > cy0) ? py0 : cy0;
    qy1 = (py1 < cy1) ? py1 : cy1;

    a_in        = '0;
    a_in.v      = tri_a.v;
    a_in.neg    = area2[50];
    a_in.eop    = tri_a.eop;
    a_in.cull   = !tri_a.eop && ((area2 == '0) || (qx1 <= qx0) || (qy1 <= qy0));
    // When not culled, clip.x0 <= qx0 < qx1 <= clip.x1 <= 16384: all fit 15 bits.
    a_in.pix.x0 = qx0[14:0];
    a_in.pix.x1 = qx1[14:0];
    a_in.pix.y0 = qy0[14:0];
    a_in.pix.y1 = qy1[14:0];
    pix_x1m1    = qx1[14:0] - 15'd1;
    pix_y1m1    = qy1[14:0] - 15'd1;
    msaa = tri_a.target.msaa;
    if (msaa) begin  // 4x4-pixel raster tiles
      a_in.tiles.x0 = qx0[14:2];
      a_in.tiles.y0 = qy0[14:2];
      a_in.tiles.x1 = pix_x1m1[14:2] + 13'd1;
      a_in.tiles.y1 = pix_y1m1[14:2] + 13'd1;
    end else begin
      a_in.tiles.x0 = {1'b0, qx0[14:3]};
      a_in.tiles.y0 = {1'b0, qy0[14:3]};
      a_in.tiles.x1 = {1'b0, pix_x1m1[14:3]} + 13'd1;
      a_in.tiles.y1 = {1'b0, pix_y1m1[14:3]} + 13'd1;
    end
    // The walk starts in the column of the topmost vertex (the first in API order of the
    // smallest y), clamped to the tile rectangle.
    if (vy[1] < vy[0]) top_x = (vy[2] < vy[1]) ? vx[2] : vx[1];
    else               top_x = (vy[2] < vy[0]) ? vx[2] : vx[0];
    top_col    = msaa ? 16'(top_x >>> 10) : 16'(top_x >>> 11);
    tcol_lo    = $signed({3'd0, a_in.tiles.x0});
    tcol_hi    = $signed({3'd0, a_in.tiles.x1}) - 16'sd1;
    a_in.start = (top_col < tcol_lo) ? a_in.tiles.x0 :
                 (top_col > tcol_hi) ? tcol_hi[12:0] : top_col[12:0];
    a_in.color  = tri_a.color;
    a_in.target = tri_a.target;
    a_in.tri_id = tri_a.tri_id;
    a_in.front  = tri_a.front;
    a_in.ds     = tri_a.ds;
    a_in.om     = tri_a.om;
    a_in.zlo    = tri_a.zlo;
    a_in.zhi    = tri_a.zhi;
    a_in.za     = a_za;
    a_in.zb     = a_zb;
    a_in.z0     = a_z0;
    // Interpolation state (numerics §10.2), API order.
    a_ip0.a  = a_wa;
    a_ip0.b  = a_wb;
    a_ip0.c  = a_wc;
    a_ip1.a  = a_pa[1] + GW'(a_sg);
    a_ip1.b  = a_pb[1] + GW'(a_sg);
    a_ip1.c  = a_pc[1] + PW'(a_sg);
    a_ip2.a  = a_pa[2] + GW'(a_sg);
    a_ip2.b  = a_pb[2] + GW'(a_sg);
    a_ip2.c  = a_pc[2] + PW'(a_sg);
    a_it     = '0;
    a_it.w   = a_ip0;
    a_it.l1  = a_ip1;
    a_it.l2  = a_ip2;
    a_va0    = tri_a.a[0];
    a_it.t0  = {a_va0.uv1, a_va0.uv0};
    a_va0    = tri_a.a[1];
    a_it.c1  = a_va0.color;
    a_va0    = tri_a.a[2];
    a_it.c2  = a_va0.color;
    a_va0    = tri_a.a[0];
    a_it.c0  = a_va0.color;
    for (int i = 0; i < 2; i++) begin
      a_f2       = {p2_q.uvd[0][2*i], p2_q.uvd[0][2*i+1]};  // fvec2_t: u is the upper field
      a_it.d1[i] = a_f2;
      a_f2       = {p2_q.uvd[1][2*i], p2_q.uvd[1][2*i+1]};
      a_it.d2[i] = a_f2;
    end
    a_in.it = a_it;
  end

  // ---------------------------------------------------------------------------------------------
  // Stage B
  // ---------------------------------------------------------------------------------------------
  stage_a_t               a_q, a_d;
  logic                   a_valid_q, a_valid_d;
  pineda_pkg::setup_pkt_t b_q, b_d;
  pineda_pkg::setup_pkt_t b_new;
  logic                   b_valid_q, b_valid_d;

  logic signed [23:0]     wx [3];            // oriented vertices
  logic signed [23:0]     wy [3];
  pineda_pkg::vtx_t       w0, w1, w2;
  pineda_pkg::edge_t      ed;
  logic signed [24:0]     ea [3];
  logic signed [24:0]     eb [3];
  logic signed [24:0]     ex [3];
  logic signed [24:0]     ey [3];
  logic [51:0]            ebias [3];
  logic [51:0]            ev [3];
  logic signed [24:0]     zdx, zdy;
  logic [pineda_pkg::ZPLANE_W-1:0] zc;

  // The edge constants e = A*(X - xi) + B*(Y - yi) + bias and the plane's
  // c = z0 + a*(X - x0) + b*(Y - y0): one carry-save tree each.
  for (genvar k = 0; k < 3; k++) begin : g_edge
    csa_dot2 #(.AW(25), .MW(25), .OW(52), .CarrySave(CarrySave)) u_e (
      .a_i(ea[k]), .x_i(ex[k]), .b_i(eb[k]), .z_i(ey[k]), .c_i(ebias[k]), .y_o(ev[k])
    );
  end
  csa_dot2 #(.AW(pineda_pkg::ZGRAD_W), .MW(25), .OW(pineda_pkg::ZPLANE_W), .CarrySave(CarrySave)) u_zc (
    .a_i($signed(a_q.za)), .x_i(zdx), .b_i($signed(a_q.zb)), .z_i(zdy),
    .c_i(pineda_pkg::ZPLANE_W'($signed(a_q.z0))), .y_o(zc)
  );
  logic signed [51:0]     sx, sy;            // sample position of the reference pixel

  always_comb begin
    w0    = a_q.v[0];
    w1    = a_q.neg ? a_q.v[2] : a_q.v[1];
    w2    = a_q.neg ? a_q.v[1] : a_q.v[2];
    wx[0] = $signed(w0.x);
    wy[0] = $signed(w0.y);
    wx[1] = $signed(w1.x);
    wy[1] = $signed(w1.y);
    wx[2] = $signed(w2.x);
    wy[2] = $signed(w2.y);

    // Sample 0 of the first pixel of raster tile (start, tiles.y0).
    if (a_q.target.msaa) begin
      sx = $signed({29'd0, a_q.start, 10'd96});
      sy = $signed({29'd0, a_q.tiles.y0, 10'd32});
    end else begin
      sx = $signed({28'd0, a_q.start, 11'd128});
      sy = $signed({28'd0, a_q.tiles.y0, 11'd128});
    end

    for (int k = 0; k < 3; k++) begin
      // Edge from w[k] to w[(k+1) % 3].
      ea[k] = 25'(wy[k]) - 25'(wy[(k + 1) % 3]);
      eb[k] = 25'(wx[(k + 1) % 3]) - 25'(wx[k]);
      ex[k] = 25'(sx - 52'(wx[k]));  // |X - xi| < 2^24 (numerics §2)
      ey[k] = 25'(sy - 52'(wy[k]));
      // Top-left rule: bias -1 unless a left edge (A > 0) or a top edge (A == 0 && B > 0).
      ebias[k] = ((ea[k] > 25'sd0) || ((ea[k] == 25'sd0) && (eb[k] > 25'sd0))) ? '0 : '1;
    end
    // Depth plane: c at the same reference sample (x0, y0: v0, unchanged by the swap).
    zdx = 25'(sx - 52'(wx[0]));
    zdy = 25'(sy - 52'(wy[0]));
  end

  always_comb begin
    b_new        = '0;
    b_new.tiles  = a_q.tiles;
    b_new.start  = a_q.start;
    b_new.pix    = a_q.pix;
    b_new.color  = a_q.color;
    b_new.target = a_q.target;
    b_new.tri_id = a_q.tri_id;

    for (int k = 0; k < 3; k++) begin
      ed.a           = ea[k];
      ed.b           = eb[k];
      ed.e           = ev[k][49:0];  // |E| < 2^49 + 1 (numerics.md §2)
      b_new.edges[k] = ed;
    end
    b_new.zp.a  = a_q.za;
    b_new.zp.b  = a_q.zb;
    b_new.zp.c  = zc;
    b_new.zlo   = a_q.zlo;
    b_new.zhi   = a_q.zhi;
    b_new.front = a_q.front;
    b_new.ds    = a_q.ds;
    b_new.om    = a_q.om;
    b_new.it    = a_q.it;
    if (a_q.eop) begin
      b_new     = '0;  // end-of-pipe token
      b_new.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Pipeline control: each stage advances when the next one has room; culled entries drain.
  // ---------------------------------------------------------------------------------------------
  logic b_en, a_free;

  always_comb begin
    out_valid_o = b_valid_q;
    out_o       = b_q;
    idle_o      = !p1_valid_q && !p2_valid_q && !a_valid_q && !b_valid_q;
  end

  logic p1_free, p2_free;
  assign b_en       = !b_valid_q || out_ready_i;
  assign a_free     = !a_valid_q || a_q.cull || b_en;
  assign p2_free    = !p2_valid_q || a_free;
  assign p1_free    = !p1_valid_q || p2_free;
  assign in_ready_o = p1_free;

  always_comb begin
    p1_valid_d = p1_valid_q;
    p1_d       = p1_q;
    if (p1_free) begin
      p1_valid_d = in_valid_i;
      if (in_valid_i) p1_d = p1_in;
    end
    p2_valid_d = p2_valid_q;
    p2_d       = p2_q;
    if (p2_free) begin
      p2_valid_d = p1_valid_q;
      if (p1_valid_q) p2_d = p2_in;
    end
    a_valid_d = a_valid_q;
    a_d       = a_q;
    if (a_free) begin
      a_valid_d = p2_valid_q;
      if (p2_valid_q) begin
        a_d = a_in;
      end
    end

    b_valid_d = b_valid_q;
    b_d       = b_q;
    if (b_en) begin
      b_valid_d = a_valid_q && !a_q.cull;
      if (a_valid_q && !a_q.cull) begin
        b_d = b_new;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_valid_q <= 1'b0;
      p1_q       <= '0;
      p2_valid_q <= 1'b0;
      p2_q       <= '0;
      a_valid_q <= 1'b0;
      a_q       <= '0;
      b_valid_q <= 1'b0;
      b_q       <= '0;
    end else begin
      p1_valid_q <= p1_valid_d;
      p1_q       <= p1_d;
      p2_valid_q <= p2_valid_d;
      p2_q       <= p2_d;
      a_valid_q <= a_valid_d;
      a_q       <= a_d;
      b_valid_q <= b_valid_d;
      b_q       <= b_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{pix_x1m1[2:0], pix_y1m1[2:0], tri_a.z, va.color,  // z: used by stage P1; colours: stage A
                       a_va0.rhw};  // stage A takes colours and uv from a_va0; rhw went into the planes in P1

endmodule
