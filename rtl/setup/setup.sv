// SPDX-License-Identifier: Apache-2.0
// setup: triangle setup (docs/numerics.md §3, §9, §10), one triangle every 3 clocks.
//
// Sized to what feeds it (issue 30, docs/architecture.md "SETUP"): PA emits at most one triangle
// per 3 clocks. A lockstep pipeline of five 3-clock slots S0..S4 behind the input register r0:
// every stage register r1..r4 and the output register advance together at the slot boundary
// (the third clock of a slot, ph_q = 2, when the output can take a packet); a triangle is
// accepted only there (in_ready_o). In the first two clocks of a slot (ph_q = 0, 1) a stage may
// write results to its own h register; later clocks use them. Every FP32 operator and every wide
// integer multiplier serves up to three operations per triangle, one in each phase. The FP32
// operators are the two-stage fp32_*_p: an operation started at clock t (t = 3*slot + phase) has
// its result (the operator's output register) at clock t + 2, for that one clock (it is kept in
// an h or stage register when needed later). In a stalled boundary clock (the output blocked)
// every operator holds (en_i), so a stall is invisible to them. 3 fp32_mul_p, 4 fp32_add_p,
// 1 fp32_rcp_p, 3 fp32_from_int_p, 2 fp32_to_fix, 3 + 4 integer multipliers (mul_booth) and
// 2 csa_dot2 trees (one 25-bit for the edges 0 and 1, one for edge 2 and the depth plane).
//
//  slot  phase 0                       phase 1                       phase 2 (boundary)
//  S0    A_k*(128 - x_i) (imul 0..2);  B_k*(128 - y_i): E_k;         area2 = dx1*dy2 - dx2*dy1
//        start zs_k = z_k*(2^24 - 1)   start dx2, dy2 (fi 0, 1),     (imul 0, 1); zs, dx1, dy1,
//        (mul 0..2), dx1, dy1 (fi 0,   uv deltas 4, 5 (add 0, 1)     uv deltas 0..3 land; start
//        1), uv deltas 0..3 (add 0..3)                               dz1 = zs1 - zs0, dz2 = zs2 -
//                                                                    zs0 (add 2, 3), uv deltas
//                                                                    6, 7 (add 0, 1)
//  S1    Q_k*A_k (imul 3..5), Q0*E0hi  Q_k*B_k, Q1*E1hi; dz land:    Q_k*E_k[24:0], Q2*E2hi:
//        (imul 6); dx2, dy2, uv 4, 5   start m1 = dz1*dy2, m2 =      Q_k*E_k; start m3 =
//        land; start fa = FP32(area2)  dz2*dy1 (mul 0, 1); uv 6, 7   dz2*dx1, m4 = dz1*dx2
//                                      land                          (mul 0, 1); fa lands:
//                                                                    start ra = 1/fa (rcp)
//  S2    m1, m2 land                   m3, m4 land: start nx = m1 -  ra lands
//                                      m2, ny = m3 - m4 (add 2, 3)
//  S3    nx, ny land                   start fza = nx*ra (mul 2)     start fzb = ny*ra (mul 2);
//                                                                    box, clip, tiles, start,
//                                                                    cull, z0 = fix(zs0); planes
//                                                                    L1, L2, W
//  S4    za = fix(fza); edges 0 (tree  zb = fix(fzb); edge 1 (tree   the depth plane's c (tree 1)
//        0) and 2 (tree 1)             0)
//
// Sample bounding box (S3): px0 = (xmin + 127 - d) >>> 8, px1 = ((xmax - 128 + d) >>> 8) + 1
//   (same for y; d = 0, or 96 at 4x MSAA where samples lie within 96/256 pixel of the centre),
//   intersection with clip, raster-tile rectangle (8x8 pixels, 4x4 at 4x MSAA: target.msaa),
//   the walk's first column start (the topmost vertex's tile column, clamped to the rectangle),
//   and the cull decision (area2 == 0 or an empty pixel rectangle).
// Edges (S4): swap v1/v2 when area2 < 0, the three edges k: v[k] -> v[(k+1)%3] with A = yi - yj,
//   B = xj - xi, top-left bias (0 for A > 0 or A == 0 && B > 0, else -1), and
//   e = A*(X - xi) + B*(Y - yi) + bias at sample 0 of the first pixel of raster tile
//   (start, tiles.y0): X = start*2048 + 128, Y = tiles.y0*2048 + 128 (1x), X = start*1024 + 96,
//   Y = tiles.y0*1024 + 32 (4x: D3D sample 0 at (-2, -6)/16 pixel).
// Depth plane (docs/numerics.md §9): FP32 gradients a = fix(nx/area), b = fix(ny/area) with
//   nx = dz1*dy2 - dz2*dy1, ny = dz2*dx1 - dz1*dx2 (z scaled by 2^24 - 1), z0 = fix(zs0) (fixed
//   point, Z_FRAC fraction bits, saturated), and c = z0 + a*(X - x0) + b*(Y - y0) at the edges'
//   reference sample (one carry-save tree).
// Interpolation planes (docs/numerics.md §10), exact integers: the three 1/w normalised to
//   integers Q_k, the edge coefficients A_k, B_k and the unbiased edge functions E_k at the
//   centre of pixel (0, 0) (API order, edge v[k+1] -> v[k+2]), the products Q_k*A_k, Q_k*B_k,
//   Q_k*E_k (E_k in two halves), the planes L1, L2 and W = L0 + L1 + L2, oriented by the sign of
//   area2. The interp_tri_t rides unchanged in setup_pkt_t -> tile_pkt_t -> quad_pkt_t to INTERP.
// Culled triangles leave no packet (S4 -> output). An end-of-pipe token (eop = 1) is never
// culled and leaves as a setup_pkt_t token (every other field 0).
// Throughput: one triangle per 3 clocks. Latency: 16 to 18 clocks (a triangle that arrives
// before the last clock of a slot waits for it).
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

  localparam int unsigned GW = pineda_pkg::IPGRAD_W;
  localparam int unsigned PW = pineda_pkg::IPLANE_W;
  localparam int unsigned CW = pineda_pkg::ZPLANE_W;   // the depth tree's width
  localparam int unsigned EW = 50;                     // the edge tree's width (|E| < 2^49 + 1)
  localparam logic [31:0] DepthScale = 32'h4B7F_FFFF;  // 16777215.0 = 2^24 - 1
  localparam logic [31:0] Neg = 32'h8000_0000;         // FP32 sign bit

  // S4's input: the triangle after S3.
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
    logic [pineda_pkg::ZREF_W-1:0]  z0;      // depth at v0
    pineda_pkg::interp_tri_t it;             // interpolation state (numerics §10)
  } stage_a_t;

  typedef struct packed {   // S0, phases 0 and 1
    logic [2:0][49:0]       ie;                 // A_k*(128 - x_i), then + B_k*(128 - y_i)
  } h0_t;

  typedef struct packed {   // S0 -> S1
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [31:0]            zs0;                // z0 * (2^24 - 1) (FP32)
    logic [1:0][31:0]       fd;                 // dx1, dy1 (FP32)
    logic [3:0][31:0]       uvd;                // uv deltas 0..3
    logic [2:0][pineda_pkg::IPQ_W-1:0] q;       // normalised 1/w as integers (numerics §10.2)
    logic [2:0][24:0]       ia, ib;             // edge coefficients A_k, B_k (API order)
    logic [2:0][49:0]       ie;                 // E_k at (128, 128)
  } stage_1_t;

  typedef struct packed {   // S1, phases 0 and 1
    logic [1:0][31:0]       fd;                 // dx2, dy2 (FP32)
    logic [3:0][31:0]       uvd;                // uv deltas 4..7
    logic [31:0]            dz1, dz2;           // zs1 - zs0, zs2 - zs0
    logic [2:0][GW-1:0]     ipa, ipb;           // Q_k*A_k, Q_k*B_k
    logic [1:0][58:0]       ch;                 // Q_k*E_k[49:25], k = 0, 1
  } h1_t;

  typedef struct packed {   // S1 -> S2, S2 -> S3 (with ra)
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [31:0]            ra;                 // 1 / area2 (FP32; S3 only)
    logic [31:0]            zs0;
    logic [2:0][GW-1:0]     ipa, ipb;
    logic [2:0][81:0]       ipc;                // Q_k*E_k
    logic [7:0][31:0]       uvd;                // uv(v[1 + i/4]) - uv(v0), component i%4: u0, v0, u1, v1
  } stage_2_t;

  typedef struct packed {   // S2, phase 0
    logic [31:0]            m1, m2;             // dz1*dy2, dz2*dy1
  } h2_t;

  typedef struct packed {   // S3, phase 0
    logic [31:0]            nx, ny;
  } h3_t;

  typedef struct packed {   // S4, phases 0 and 1
    logic [2:0][EW-1:0]     e;                  // edge values
    logic [pineda_pkg::ZGRAD_W-1:0] za, zb;     // depth gradients
  } h4_t;

  // ---------------------------------------------------------------------------------------------
  // Slot control
  // ---------------------------------------------------------------------------------------------
  logic [1:0] ph_q, ph_d;  // 0, 1: the first clocks of the slot, 2: the last (the boundary)
  logic blk, bnd, op_en;
  logic v0_q, v1_q, v2_q, v3_q, v4_q, ov_q;
  logic v0_d, v1_d, v2_d, v3_d, v4_d, ov_d;

  pineda_pkg::tri_pkt_t   r0_q, r0_d;
  h0_t                    h0_q, h0_d;
  stage_1_t               r1_q, r1_d, r1_in;
  h1_t                    h1_q, h1_d;
  stage_2_t               r2_q, r2_d, r2_in;
  h2_t                    h2_q, h2_d;
  stage_2_t               r3_q, r3_d, r3_in;
  h3_t                    h3_q, h3_d;
  stage_a_t               r4_q, r4_d, a_in;
  h4_t                    h4_q, h4_d;
  pineda_pkg::setup_pkt_t ob_q, ob_d, b_new;

  always_comb begin
    blk        = ov_q && !out_ready_i;
    bnd        = ph_q[1] && !blk;
    ph_d       = ph_q[1] ? (blk ? 2'd2 : 2'd0) : ph_q + 2'd1;
    in_ready_o = bnd;
    op_en      = !ph_q[1] || !blk;   // the operators hold in a stalled boundary clock
  end

  // ---------------------------------------------------------------------------------------------
  // The shared operators (two-stage: the result two clocks later). Operands: the slot table.
  // ---------------------------------------------------------------------------------------------
  logic [2:0][31:0] mul_a, mul_b, mul_y;
  logic [3:0][31:0] add_a, add_b, add_y;
  logic [1:0][25:0] fi_a;
  logic [1:0][31:0] fi_y;
  logic [31:0]      fa_y, ra_y;
  logic [pineda_pkg::ZGRAD_W-1:0] fx_y;
  logic [pineda_pkg::ZREF_W-1:0]  a_z0;

  for (genvar g = 0; g < 3; g++) begin : g_mul
    fp32_mul_p u_mul (
      .clk_i, .rst_ni, .en_i(op_en), .a_i(mul_a[g]), .b_i(mul_b[g]), .y_o(mul_y[g])
    );
  end
  for (genvar g = 0; g < 4; g++) begin : g_add
    fp32_add_p u_add (
      .clk_i, .rst_ni, .en_i(op_en), .a_i(add_a[g]), .b_i(add_b[g]), .y_o(add_y[g])
    );
  end
  for (genvar g = 0; g < 2; g++) begin : g_fi
    fp32_from_int_p #(.W(26)) u_fi (
      .clk_i, .rst_ni, .en_i(op_en), .a_i(fi_a[g]), .scale_i(10'd0), .y_o(fi_y[g])
    );
  end
  fp32_from_int_p #(.W(51)) u_fa (
    .clk_i, .rst_ni, .en_i(op_en), .a_i(r1_q.area2), .scale_i(10'd0), .y_o(fa_y)
  );
  fp32_rcp_p u_ra (.clk_i, .rst_ni, .en_i(op_en), .a_i(fa_y), .y_o(ra_y));
  // za (S4 phase 0) and zb (S4 phase 1): fza and fzb land on mul 2.
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZGRAD_W)) u_fx (
    .a_i(mul_y[2]), .y_o(fx_y)
  );
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_z0 (
    .a_i(r3_q.zs0), .y_o(a_z0)
  );

  // ---------------------------------------------------------------------------------------------
  // S0 (r0: the triangle as received)
  // ---------------------------------------------------------------------------------------------
  logic signed [25:0] pd [4];
  logic signed [23:0] pvx [3];
  logic signed [23:0] pvy [3];
  pineda_pkg::vtx_t   pvin;
  pineda_pkg::dword_t pz;
  logic [2:0][31:0]   zin;
  logic signed [24:0] pia [3];
  logic signed [24:0] pib [3];
  logic signed [24:0] pex [3];
  logic signed [24:0] pey [3];
  // The three small multipliers: 0 and 1 26 x 26 bits (the area in phase 2), 2 25 x 25 bits.
  logic signed [25:0] sm_a [3];
  logic signed [25:0] sm_b [3];
  logic signed [51:0] sm_p0, sm_p1;
  logic signed [49:0] sm_p2;
  logic [2:0][49:0]   sm_p;   // the low 50 bits of the three products
  // Interpolation (numerics §10.2): a bad 1/w reads as 1.0 for all three; else
  // Q_k = round(sig_k * 2^(8 - s_k)), half up, s_k = max exponent - e_k (0 for s_k >= 34).
  logic [2:0][31:0]      vrhw;
  logic [2:0][3:0][31:0] vuv;   // per vertex: u0, v0, u1, v1
  logic [2:0][8:0]       vexp;
  logic [8:0]            emax;
  logic [8:0]            qs;
  logic [32:0]           qsh;
  logic                  rhw_ok;
  logic [2:0][31:0]      q0;
  pineda_pkg::vattr_t    va;
  pineda_pkg::tri_pkt_t  tp1;
  logic [2:0][191:0]     ta;

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      pvin   = r0_q.v[k];
      pvx[k] = $signed(pvin.x);
      pvy[k] = $signed(pvin.y);
      pz     = r0_q.z[k];
      zin[k] = pz.data;
    end
    pd[0] = 26'(pvx[1]) - 26'(pvx[0]);
    pd[1] = 26'(pvy[1]) - 26'(pvy[0]);
    pd[2] = 26'(pvx[2]) - 26'(pvx[0]);
    pd[3] = 26'(pvy[2]) - 26'(pvy[0]);
    // E_k: edge v[i] -> v[j], i = k+1, j = k+2 (mod 3), at X = Y = 128; |E_k| < 2^49.
    for (int k = 0; k < 3; k++) begin
      pia[k]  = 25'(pvy[(k + 1) % 3]) - 25'(pvy[(k + 2) % 3]);
      pib[k]  = 25'(pvx[(k + 2) % 3]) - 25'(pvx[(k + 1) % 3]);
      pex[k]  = 25'sd128 - 25'(pvx[(k + 1) % 3]);
      pey[k]  = 25'sd128 - 25'(pvy[(k + 1) % 3]);
    end
    // Phase 0: A_k*(128 - x_i); phase 1: B_k*(128 - y_i); phase 2: the doubled signed area
    // (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0) on 0 and 1 (exact in 51 bits; 2 idle).
    for (int k = 0; k < 3; k++) begin
      sm_a[k] = ph_q[0] ? 26'(pib[k]) : 26'(pia[k]);
      sm_b[k] = ph_q[0] ? 26'(pey[k]) : 26'(pex[k]);
    end
    if (ph_q[1]) begin
      sm_a[0] = pd[0];
      sm_b[0] = pd[3];
      sm_a[1] = pd[2];
      sm_b[1] = pd[1];
    end
    rhw_ok = 1'b1;
    emax   = '0;
    for (int k = 0; k < 3; k++) begin
      va        = r0_q.a[k];
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
      if (!rhw_ok)          q0[k] = 32'h8000_0000;
      else if (qs >= 9'd34) q0[k] = '0;
      else                  q0[k] = 32'((qsh + 33'd1) >> 1);
    end
  end

  // The area and edge-function products (radix-4 Booth; the area modulo 2^51).
  mul_booth #(.AW(26), .BW(26)) u_sm0 (.a_i(sm_a[0]), .b_i(sm_b[0]), .y_o(sm_p0));
  mul_booth #(.AW(26), .BW(26)) u_sm1 (.a_i(sm_a[1]), .b_i(sm_b[1]), .y_o(sm_p1));
  mul_booth #(.AW(25), .BW(25)) u_sm2 (.a_i(sm_a[2][24:0]), .b_i(sm_b[2][24:0]), .y_o(sm_p2));
  assign sm_p = {sm_p2, sm_p1[49:0], sm_p0[49:0]};
  logic unused_sm;      // the area is used modulo 2^51 (exact in 51 bits signed)
  assign unused_sm = ^{sm_p0[51], sm_p1[51], sm_a[2][25], sm_b[2][25]};

  // The FP32 operands (the slot table above).
  //   mul 0: zs0 (S0 p0), m1 = dz1*dy2 (S1 p1), m3 = dz2*dx1 (S1 p2)
  //   mul 1: zs1 (S0 p0), m2 = dz2*dy1 (S1 p1), m4 = dz1*dx2 (S1 p2)
  //   mul 2: zs2 (S0 p0), fza = nx*ra (S3 p1), fzb = ny*ra (S3 p2)
  //   add 0, 1: uv deltas 0, 1 (S0 p0), 4, 5 (S0 p1), 6, 7 (S0 p2)
  //   add 2: uv delta 2 (S0 p0), nx = m1 - m2 (S2 p1), dz1 = zs1 - zs0 (S0 p2)
  //   add 3: uv delta 3 (S0 p0), ny = m3 - m4 (S2 p1), dz2 = zs2 - zs0 (S0 p2)
  //   fi 0, 1: dx1, dy1 (S0 p0), dx2, dy2 (S0 p1)
  always_comb begin
    fi_a[0] = ph_q[0] ? pd[2] : pd[0];
    fi_a[1] = ph_q[0] ? pd[3] : pd[1];
    for (int i = 0; i < 2; i++) begin
      add_a[i] = ph_q[1] ? vuv[2][i + 2] : ph_q[0] ? vuv[2][i] : vuv[1][i];
      add_b[i] = (ph_q[1] ? vuv[0][i + 2] : vuv[0][i]) ^ Neg;
    end
    add_a[2] = ph_q[1] ? mul_y[1] : ph_q[0] ? h2_q.m1 : vuv[1][2];
    add_b[2] = (ph_q[1] ? mul_y[0] : ph_q[0] ? h2_q.m2 : vuv[0][2]) ^ Neg;
    add_a[3] = ph_q[1] ? mul_y[2] : ph_q[0] ? mul_y[0] : vuv[1][3];
    add_b[3] = (ph_q[1] ? mul_y[0] : ph_q[0] ? mul_y[1] : vuv[0][3]) ^ Neg;
    mul_a[0] = ph_q[1] ? h1_q.dz2 : ph_q[0] ? add_y[2] : zin[0];
    mul_b[0] = ph_q[1] ? r1_q.fd[0] : ph_q[0] ? h1_q.fd[1] : DepthScale;
    mul_a[1] = ph_q[1] ? h1_q.dz1 : ph_q[0] ? add_y[3] : zin[1];
    mul_b[1] = ph_q[1] ? h1_q.fd[0] : ph_q[0] ? r1_q.fd[1] : DepthScale;
    mul_a[2] = ph_q[1] ? h3_q.ny : ph_q[0] ? h3_q.nx : zin[2];
    mul_b[2] = ph_q[0] || ph_q[1] ? r3_q.ra : DepthScale;
  end

  always_comb begin
    h0_d = h0_q;
    for (int k = 0; k < 3; k++) begin
      if (ph_q == 2'd0) h0_d.ie[k] = sm_p[k];
      if (ph_q == 2'd1) h0_d.ie[k] = h0_q.ie[k] + sm_p[k];
    end
    // Stage 1: what S1..S4 need of the triangle (the depth, 1/w and vertex 1 and 2's texture
    // coordinates went into the operators; zero fields leave no flip-flops).
    // vattr_t: rhw [191:160], color [159:128], uv0 and uv1 [127:0].
    tp1   = r0_q;
    tp1.z = '0;
    ta    = r0_q.a;
    for (int k = 0; k < 3; k++) begin
      ta[k][191:160] = '0;
      if (k != 0) ta[k][127:0] = '0;
    end
    tp1.a = ta;
    r1_in.tp    = tp1;
    r1_in.area2 = sm_p0[50:0] - sm_p1[50:0];
    r1_in.zs0   = mul_y[0];
    r1_in.fd    = {fi_y[1], fi_y[0]};
    r1_in.uvd   = {add_y[3], add_y[2], add_y[1], add_y[0]};
    r1_in.q     = q0;
    for (int k = 0; k < 3; k++) begin
      r1_in.ia[k] = pia[k];
      r1_in.ib[k] = pib[k];
      r1_in.ie[k] = h0_q.ie[k];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // S1: the Q_k products (4 multipliers of 33 x 26 bits: 0..2 Q_k*A_k, Q_k*B_k, Q_k*E_k[24:0] in
  // phases 0, 1, 2; 3 Q_k*E_k[49:25] in phase k) and the FP32 results that land there; S2, S3:
  // FP32 results only
  // ---------------------------------------------------------------------------------------------
  logic signed [32:0] iq_a [4];
  logic signed [25:0] iq_b [4];
  logic signed [58:0] iq_p [4];

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      iq_a[k] = $signed({1'b0, r1_q.q[k]});
      iq_b[k] = ph_q[1] ? $signed({1'b0, r1_q.ie[k][24:0]}) :
                ph_q[0] ? 26'($signed(r1_q.ib[k])) : 26'($signed(r1_q.ia[k]));
    end
    iq_a[3] = $signed({1'b0, ph_q[1] ? r1_q.q[2] : ph_q[0] ? r1_q.q[1] : r1_q.q[0]});
    iq_b[3] = 26'($signed(ph_q[1] ? r1_q.ie[2][49:25] :
                          ph_q[0] ? r1_q.ie[1][49:25] : r1_q.ie[0][49:25]));
  end
  // |iq_p| < 2^58
  for (genvar g = 0; g < 4; g++) begin : g_iq
    mul_booth #(.AW(33), .BW(26)) u_mul (.a_i(iq_a[g]), .b_i(iq_b[g]), .y_o(iq_p[g]));
  end

  logic [2:0][58:0] ch;   // Q_k*E_k[49:25]
  always_comb begin
    // S1: dx2, dy2 and uv deltas 4, 5 land in phase 0, dz1, dz2 and uv deltas 6, 7 in phase 1.
    h1_d = h1_q;
    if (ph_q == 2'd0) begin
      h1_d.fd       = {fi_y[1], fi_y[0]};
      h1_d.uvd[1:0] = {add_y[1], add_y[0]};
      h1_d.ch[0]    = iq_p[3];
      for (int k = 0; k < 3; k++) h1_d.ipa[k] = GW'(iq_p[k]);
    end
    if (ph_q == 2'd1) begin
      h1_d.uvd[3:2] = {add_y[1], add_y[0]};
      h1_d.dz1      = add_y[2];
      h1_d.dz2      = add_y[3];
      h1_d.ch[1]    = iq_p[3];
      for (int k = 0; k < 3; k++) h1_d.ipb[k] = GW'(iq_p[k]);
    end
    ch          = {iq_p[3], h1_q.ch[1], h1_q.ch[0]};
    r2_in       = '0;
    r2_in.tp    = r1_q.tp;
    r2_in.area2 = r1_q.area2;
    r2_in.zs0   = r1_q.zs0;
    r2_in.ipa   = h1_q.ipa;
    r2_in.ipb   = h1_q.ipb;
    for (int k = 0; k < 3; k++) begin
      // Q_k*E_k = Q_k*E_k[49:25]*2^25 + Q_k*E_k[24:0]; |.| < 2^81
      r2_in.ipc[k] = (82'($signed(ch[k])) << 25) + 82'($signed(iq_p[k]));
    end
    r2_in.uvd   = {h1_q.uvd, r1_q.uvd};

    // S2: m1, m2 land in phase 0 (nx, ny start in phase 1), ra in phase 2.
    h2_d = h2_q;
    if (ph_q == 2'd0) begin
      h2_d.m1 = mul_y[0];
      h2_d.m2 = mul_y[1];
    end
    r3_in    = r2_q;
    r3_in.ra = ra_y;
    // S3: nx, ny land in phase 0 (fza, fzb start in phases 1, 2 with ra).
    h3_d = h3_q;
    if (ph_q == 2'd0) begin
      h3_d.nx = add_y[2];
      h3_d.ny = add_y[3];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // S3 (r3): fixed-point depth, box, tiles, cull; the interpolation planes
  // ---------------------------------------------------------------------------------------------
  // The interpolation part: L_k = sigma * Q_k * E_k (sigma: the sign of area2, so that
  // every L_k >= 0 inside), W = L0 + L1 + L2. -x = ~x + 1: the negations fold into the sums.
  logic              a_sg;
  logic [GW-1:0]     a_wa, a_wb;
  logic [2:0][GW-1:0] a_pa, a_pb;
  logic [2:0][PW-1:0] a_pc;
  logic [PW-1:0]     a_wc;
  always_comb begin
    a_sg = r3_q.area2[50];
    for (int k = 0; k < 3; k++) begin
      a_pa[k] = r3_q.ipa[k] ^ {GW{a_sg}};
      a_pb[k] = r3_q.ipb[k] ^ {GW{a_sg}};
      a_pc[k] = PW'($signed(r3_q.ipc[k])) ^ {PW{a_sg}};
    end
    a_wa = a_pa[0] + a_pa[1] + a_pa[2] + {{(GW - 2){1'b0}}, a_sg, a_sg};  // + 3 sigma
    a_wb = a_pb[0] + a_pb[1] + a_pb[2] + {{(GW - 2){1'b0}}, a_sg, a_sg};
    a_wc = a_pc[0] + a_pc[1] + a_pc[2] + {{(PW - 2){1'b0}}, a_sg, a_sg};
  end

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
    tri_a = r3_q.tp;
    for (int k = 0; k < 3; k++) begin
      vin   = tri_a.v[k];
      vx[k] = $signed(vin.x);
      vy[k] = $signed(vin.y);
    end
    area2 = $signed(r3_q.area2);  // (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0), from S0

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
      a_f2       = {r3_q.uvd[2*i], r3_q.uvd[2*i+1]};  // fvec2_t: u is the upper field
      a_it.d1[i] = a_f2;
      a_f2       = {r3_q.uvd[4 + 2*i], r3_q.uvd[4 + 2*i + 1]};
      a_it.d2[i] = a_f2;
    end
    a_in.it = a_it;
  end

  // ---------------------------------------------------------------------------------------------
  // S4 (r4): orientation, edges and the depth plane's reference value
  // ---------------------------------------------------------------------------------------------
  logic signed [23:0]     wx [3];            // oriented vertices
  logic signed [23:0]     wy [3];
  pineda_pkg::vtx_t       w0, w1, w2;
  pineda_pkg::edge_t      ed;
  logic signed [24:0]     ea [3];
  logic signed [24:0]     eb [3];
  logic signed [24:0]     ex [3];
  logic signed [24:0]     ey [3];
  logic [2:0]             ebias;             // top-left bias -1
  logic signed [24:0]     zdx, zdy;
  logic signed [51:0]     sx, sy;            // sample position of the reference pixel
  // Two carry-save trees (csa_dot2): tree 0 (25-bit operands, 50-bit result) edge 0 in phase 0
  // and edge 1 in phase 1; tree 1 edge 2 in phase 0 and the depth plane's
  // c = z0 + a*(X - x0) + b*(Y - y0) in phase 2.
  logic signed [24:0]     ce_a, ce_b, ce_x, ce_z;
  logic [EW-1:0]          ce_c, ce_y;
  logic signed [pineda_pkg::ZGRAD_W-1:0] cs_a, cs_b;
  logic signed [24:0]     cs_x, cs_z;
  logic [CW-1:0]          cs_c, cs_y;

  csa_dot2 #(.AW(25), .MW(25), .OW(EW), .CarrySave(CarrySave)) u_csa_e (
    .a_i(ce_a), .x_i(ce_x), .b_i(ce_b), .z_i(ce_z), .c_i(ce_c), .y_o(ce_y)
  );
  csa_dot2 #(.AW(pineda_pkg::ZGRAD_W), .MW(25), .OW(CW), .CarrySave(CarrySave)) u_csa_z (
    .a_i(cs_a), .x_i(cs_x), .b_i(cs_b), .z_i(cs_z), .c_i(cs_c), .y_o(cs_y)
  );

  always_comb begin
    w0    = r4_q.v[0];
    w1    = r4_q.neg ? r4_q.v[2] : r4_q.v[1];
    w2    = r4_q.neg ? r4_q.v[1] : r4_q.v[2];
    wx[0] = $signed(w0.x);
    wy[0] = $signed(w0.y);
    wx[1] = $signed(w1.x);
    wy[1] = $signed(w1.y);
    wx[2] = $signed(w2.x);
    wy[2] = $signed(w2.y);

    // Sample 0 of the first pixel of raster tile (start, tiles.y0).
    if (r4_q.target.msaa) begin
      sx = $signed({29'd0, r4_q.start, 10'd96});
      sy = $signed({29'd0, r4_q.tiles.y0, 10'd32});
    end else begin
      sx = $signed({28'd0, r4_q.start, 11'd128});
      sy = $signed({28'd0, r4_q.tiles.y0, 11'd128});
    end

    for (int k = 0; k < 3; k++) begin
      // Edge from w[k] to w[(k+1) % 3].
      ea[k] = 25'(wy[k]) - 25'(wy[(k + 1) % 3]);
      eb[k] = 25'(wx[(k + 1) % 3]) - 25'(wx[k]);
      ex[k] = 25'(sx - 52'(wx[k]));  // |X - xi| < 2^24 (numerics §2)
      ey[k] = 25'(sy - 52'(wy[k]));
      // Top-left rule: bias -1 unless a left edge (A > 0) or a top edge (A == 0 && B > 0).
      ebias[k] = !((ea[k] > 25'sd0) || ((ea[k] == 25'sd0) && (eb[k] > 25'sd0)));
    end
    // Depth plane: c at the same reference sample (x0, y0: v0, unchanged by the swap).
    zdx = 25'(sx - 52'(wx[0]));
    zdy = 25'(sy - 52'(wy[0]));

    ce_a = ph_q[0] ? ea[1] : ea[0];
    ce_b = ph_q[0] ? eb[1] : eb[0];
    ce_x = ph_q[0] ? ex[1] : ex[0];
    ce_z = ph_q[0] ? ey[1] : ey[0];
    ce_c = {EW{ph_q[0] ? ebias[1] : ebias[0]}};
    if (ph_q[1]) begin
      cs_a = $signed(h4_q.za);
      cs_b = $signed(h4_q.zb);
      cs_x = zdx;
      cs_z = zdy;
      cs_c = CW'($signed(r4_q.z0));
    end else begin
      cs_a = pineda_pkg::ZGRAD_W'(ea[2]);
      cs_b = pineda_pkg::ZGRAD_W'(eb[2]);
      cs_x = ex[2];
      cs_z = ey[2];
      cs_c = {CW{ebias[2]}};
    end
    // za lands in phase 0, zb in phase 1 (fza, fzb on mul 2, fixed point in u_fx).
    h4_d = h4_q;
    if (ph_q == 2'd0) begin
      h4_d.e[0] = ce_y;
      h4_d.e[2] = cs_y[EW-1:0];  // |E| < 2^49 + 1 (numerics.md §2)
      h4_d.za   = fx_y;
    end
    if (ph_q == 2'd1) begin
      h4_d.e[1] = ce_y;
      h4_d.zb   = fx_y;
    end
  end

  always_comb begin
    b_new        = '0;
    b_new.tiles  = r4_q.tiles;
    b_new.start  = r4_q.start;
    b_new.pix    = r4_q.pix;
    b_new.color  = r4_q.color;
    b_new.target = r4_q.target;
    b_new.tri_id = r4_q.tri_id;

    for (int k = 0; k < 3; k++) begin
      ed.a           = ea[k];
      ed.b           = eb[k];
      ed.e           = h4_q.e[k];
      b_new.edges[k] = ed;
    end
    b_new.zp.a  = h4_q.za;
    b_new.zp.b  = h4_q.zb;
    b_new.zp.c  = cs_y;
    b_new.zlo   = r4_q.zlo;
    b_new.zhi   = r4_q.zhi;
    b_new.front = r4_q.front;
    b_new.ds    = r4_q.ds;
    b_new.om    = r4_q.om;
    b_new.it    = r4_q.it;
    if (r4_q.eop) begin
      b_new     = '0;  // end-of-pipe token
      b_new.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Registers: h in phases 0 and 1, the stages at the boundary; culled triangles leave none.
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    out_valid_o = ov_q;
    out_o       = ob_q;
    idle_o      = !v0_q && !v1_q && !v2_q && !v3_q && !v4_q && !ov_q;

    v0_d = v0_q;
    v1_d = v1_q;
    v2_d = v2_q;
    v3_d = v3_q;
    v4_d = v4_q;
    ov_d = ov_q && !out_ready_i;
    r0_d = r0_q;
    r1_d = r1_q;
    r2_d = r2_q;
    r3_d = r3_q;
    r4_d = r4_q;
    ob_d = ob_q;
    if (bnd) begin
      v0_d = in_valid_i;
      v1_d = v0_q;
      v2_d = v1_q;
      v3_d = v2_q;
      v4_d = v3_q;
      ov_d = v4_q && !r4_q.cull;
      if (in_valid_i) r0_d = in_i;
      if (v0_q) r1_d = r1_in;
      if (v1_q) r2_d = r2_in;
      if (v2_q) r3_d = r3_in;
      if (v3_q) r4_d = a_in;
      if (v4_q && !r4_q.cull) ob_d = b_new;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ph_q <= 2'd0;
      v0_q <= 1'b0;
      v1_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
      v4_q <= 1'b0;
      ov_q <= 1'b0;
      r0_q <= '0;
      h0_q <= '0;
      r1_q <= '0;
      h1_q <= '0;
      r2_q <= '0;
      h2_q <= '0;
      r3_q <= '0;
      h3_q <= '0;
      r4_q <= '0;
      h4_q <= '0;
      ob_q <= '0;
    end else begin
      ph_q <= ph_d;
      v0_q <= v0_d;
      v1_q <= v1_d;
      v2_q <= v2_d;
      v3_q <= v3_d;
      v4_q <= v4_d;
      ov_q <= ov_d;
      r0_q <= r0_d;
      h0_q <= h0_d;
      r1_q <= r1_d;
      h1_q <= h1_d;
      r2_q <= r2_d;
      h2_q <= h2_d;
      r3_q <= r3_d;
      h3_q <= h3_d;
      r4_q <= r4_d;
      h4_q <= h4_d;
      ob_q <= ob_d;
    end
  end

  // The output holds its packet while it waits (valid/ready, docs/contract.md §1; empty in
  // synthesis).
  stream_assert #(.Width($bits(out_o))) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o)
  );

  logic unused_sig;
  assign unused_sig = ^{pix_x1m1[2:0], pix_y1m1[2:0], tri_a.z, a_va0.rhw, va.color,
                        cs_y[CW-1:EW]};

endmodule
