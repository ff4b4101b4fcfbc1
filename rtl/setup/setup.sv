// SPDX-License-Identifier: Apache-2.0
// setup: triangle setup (docs/numerics.md §3, §9, §10), one triangle every 2 clocks.
//
// A lockstep pipeline of seven 2-clock slots S0..S6 behind the input register r0: every stage
// register r1..r6 and the output register advance together at the slot boundary (the second
// clock of a slot, ph_q = 1, when the output can take a packet); a triangle is accepted only
// there (in_ready_o). In the first clock of a slot (ph_q = 0) a stage may write results to its
// own h register; the second clock uses them. Every FP32 operator and every wide integer
// multiplier serves two operations per triangle, one in each phase. The FP32 operators are the
// two-stage fp32_*_p: an operation started in phase p of slot Sk has its result (the operator's
// output register) in phase p of slot Sk+1, for that one clock (it is kept in an h or stage
// register when needed later). In a stalled boundary clock (the output blocked) every operator
// holds (en_i), so a stall is invisible to them. 5 fp32_mul_p, 6 fp32_add_p, 1 fp32_rcp_p,
// 3 fp32_from_int_p, 2 fp32_to_fix, 1 + 3 + 6 integer multipliers and 2 csa_dot2 trees.
//
//  slot  phase 0                                    phase 1
//  S0    start zs_k = z_k * (2^24 - 1) (mul 0..2),   start dx2, dy2 to FP32, uv deltas 4..7;
//        dx1, dy1 to FP32, uv deltas 0..3 (add       area2 = dx1*dy2 - dx2*dy1; E_k +=
//        0..3); dx1*dy2; A_k*(128 - x_i)             B_k*(128 - y_i)
//  S1    zs -> start dz1 = zs1 - zs0, dz2 = zs2 -    dx2, dy2, uv deltas 4..7 land; Q_k*B_k
//        zs0 (add 4, 5); start fa = FP32(area2);
//        keep zs0, dx1, dy1, uv deltas 0..3; Q_k*A_k
//  S2    dz, fa land: start m1 = dz1*dy2, m2 =       start m3 = dz2*dx1, m4 = dz1*dx2
//        dz2*dy1 (mul 3, 4), ra = 1/fa (rcp);        (mul 0, 1); Q_k*E_k
//        Q_k*E_k[24:0]
//  S3    keep m1, m2                                 start nx = m1 - m2, ny = m3 - m4 (add 4, 5);
//                                                    ra lands
//  S4    -                                           nx, ny land: start fza = nx*ra, fzb = ny*ra
//                                                    (mul 2, 3)
//  S5    z0 = fix(zs0)                               za = fix(fza); box, clip, tiles, start,
//                                                    cull; planes L1, L2, W
//  S6    edges 0 and 1 (csa_dot2), zb = fix(fzb)     edge 2 and the depth plane's c (csa_dot2)
//
// Sample bounding box (S5): px0 = (xmin + 127 - d) >>> 8, px1 = ((xmax - 128 + d) >>> 8) + 1
//   (same for y; d = 0, or 96 at 4x MSAA where samples lie within 96/256 pixel of the centre),
//   intersection with clip, raster-tile rectangle (8x8 pixels, 4x4 at 4x MSAA: target.msaa),
//   the walk's first column start (the topmost vertex's tile column, clamped to the rectangle),
//   and the cull decision (area2 == 0 or an empty pixel rectangle).
// Edges (S6): swap v1/v2 when area2 < 0, the three edges k: v[k] -> v[(k+1)%3] with A = yi - yj,
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
// Culled triangles leave no packet (S6 -> output). An end-of-pipe token (eop = 1) is never
// culled and leaves as a setup_pkt_t token (every other field 0).
// Throughput: one triangle per 2 clocks. Latency: 15 or 16 clocks (a triangle that arrives in
// the first clock of a slot waits one clock).
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
  localparam int unsigned CW = pineda_pkg::ZPLANE_W;   // csa_dot2 width (edges use [49:0])
  localparam logic [31:0] DepthScale = 32'h4B7F_FFFF;  // 16777215.0 = 2^24 - 1
  localparam logic [31:0] Neg = 32'h8000_0000;         // FP32 sign bit

  // S6's input: the triangle after S5.
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
    logic [pineda_pkg::ZGRAD_W-1:0] za;      // depth gradient a
    logic [31:0]            fzb;             // ny / area2 (FP32; fixed point in S6)
    logic [pineda_pkg::ZREF_W-1:0]  z0;      // depth at v0
    pineda_pkg::interp_tri_t it;             // interpolation state (numerics §10)
  } stage_a_t;

  typedef struct packed {   // S0, phase 0
    logic [50:0]            pa;                 // dx1*dy2
    logic [2:0][49:0]       iex;                // A_k*(128 - x_i)
  } h0_t;

  typedef struct packed {   // S0 -> S1
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [2:0][pineda_pkg::IPQ_W-1:0] q;       // normalised 1/w as integers (numerics §10.2)
    logic [2:0][24:0]       ia, ib;             // edge coefficients A_k, B_k (API order)
    logic [2:0][49:0]       ie;                 // E_k at (128, 128)
  } stage_1_t;

  typedef struct packed {   // S1, phase 0
    logic [31:0]            zs0;                // z0 * (2^24 - 1) (FP32)
    logic [1:0][31:0]       fd;                 // dx1, dy1 (FP32)
    logic [3:0][31:0]       uvd;                // uv deltas 0..3
    logic [2:0][GW-1:0]     ipa;                // Q_k*A_k
  } h1_t;

  typedef struct packed {   // S1 -> S2
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [3:0][31:0]       fd;                 // dx1, dy1, dx2, dy2 (FP32)
    logic [31:0]            zs0;
    logic [2:0][pineda_pkg::IPQ_W-1:0] q;
    logic [2:0][49:0]       ie;
    logic [2:0][GW-1:0]     ipa, ipb;           // Q_k*A_k, Q_k*B_k
    logic [7:0][31:0]       uvd;                // uv(v[1 + i/4]) - uv(v0), component i%4: u0, v0, u1, v1
  } stage_2_t;

  typedef struct packed {   // S2, phase 0
    logic [31:0]            dz1, dz2;           // zs1 - zs0, zs2 - zs0
    logic [2:0][58:0]       cl;                 // Q_k*E_k[24:0]
  } h2_t;

  typedef struct packed {   // S2 -> S3, S3 -> S4 (with ra), S4 -> S5
    pineda_pkg::tri_pkt_t   tp;
    logic [50:0]            area2;
    logic [31:0]            ra;                 // 1 / area2 (FP32; S4 only)
    logic [31:0]            zs0;
    logic [2:0][GW-1:0]     ipa, ipb;
    logic [2:0][81:0]       ipc;                // Q_k*E_k
    logic [7:0][31:0]       uvd;
  } stage_3_t;

  typedef struct packed {   // S3, phase 0
    logic [31:0]            m1, m2;             // dz1*dy2, dz2*dy1
  } h3_t;

  typedef struct packed {   // S6, phase 0
    logic [1:0][49:0]       e;                  // edge values 0 and 1
    logic [pineda_pkg::ZGRAD_W-1:0] zb;         // depth gradient b
  } h6_t;

  // ---------------------------------------------------------------------------------------------
  // Slot control
  // ---------------------------------------------------------------------------------------------
  logic ph_q, ph_d;        // 0: first clock of the slot, 1: second (the boundary)
  logic blk, bnd, op_en;
  logic v0_q, v1_q, v2_q, v3_q, v4_q, v5_q, v6_q, ov_q;
  logic v0_d, v1_d, v2_d, v3_d, v4_d, v5_d, v6_d, ov_d;

  pineda_pkg::tri_pkt_t   r0_q, r0_d;
  h0_t                    h0_q, h0_d;
  stage_1_t               r1_q, r1_d, r1_in;
  h1_t                    h1_q, h1_d;
  stage_2_t               r2_q, r2_d, r2_in;
  h2_t                    h2_q, h2_d;
  stage_3_t               r3_q, r3_d, r3_in;
  h3_t                    h3_q, h3_d;
  stage_3_t               r4_q, r4_d, r4_in;
  stage_3_t               r5_q, r5_d, r5_in;
  stage_a_t               r6_q, r6_d, a_in;
  h6_t                    h6_q, h6_d;
  pineda_pkg::setup_pkt_t ob_q, ob_d, b_new;

  always_comb begin
    blk        = ov_q && !out_ready_i;
    bnd        = ph_q && !blk;
    ph_d       = !ph_q || blk;
    in_ready_o = bnd;
    op_en      = !ph_q || !blk;   // the operators hold in a stalled boundary clock
  end

  // ---------------------------------------------------------------------------------------------
  // The shared operators (two-stage: the result one slot later, same phase). Operands:
  // phase 0 ? first use : second use.
  // ---------------------------------------------------------------------------------------------
  logic [4:0][31:0] mul_a, mul_b, mul_y;
  logic [5:0][31:0] add_a, add_b, add_y;
  logic [1:0][25:0] fi_a;
  logic [1:0][31:0] fi_y;
  logic [31:0]      fa_y, ra_y, fx_a;
  logic [pineda_pkg::ZGRAD_W-1:0] fx_y;
  logic [pineda_pkg::ZREF_W-1:0]  a_z0;

  for (genvar g = 0; g < 5; g++) begin : g_mul
    fp32_mul_p u_mul (
      .clk_i, .rst_ni, .en_i(op_en), .a_i(mul_a[g]), .b_i(mul_b[g]), .y_o(mul_y[g])
    );
  end
  for (genvar g = 0; g < 6; g++) begin : g_add
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
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZGRAD_W)) u_fx (.a_i(fx_a), .y_o(fx_y));
  fp32_to_fix #(.FracBits(pineda_pkg::Z_FRAC), .W(pineda_pkg::ZREF_W)) u_z0 (
    .a_i(r5_q.zs0), .y_o(a_z0)
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
  logic signed [25:0] ar_a, ar_b;
  logic signed [50:0] ar_p;                // the area multiplier (products mod 2^51)
  logic signed [24:0] pia [3];
  logic signed [24:0] pib [3];
  logic signed [24:0] pex [3];
  logic signed [24:0] pey [3];
  logic signed [24:0] ie_a [3];
  logic signed [24:0] ie_b [3];
  logic signed [49:0] ie_p [3];            // the edge-function multipliers
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
    // Doubled signed area (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0), exact in 51 bits.
    ar_a = ph_q ? pd[2] : pd[0];
    ar_b = ph_q ? pd[1] : pd[3];
    // E_k: edge v[i] -> v[j], i = k+1, j = k+2 (mod 3), at X = Y = 128; |E_k| < 2^49.
    for (int k = 0; k < 3; k++) begin
      pia[k]  = 25'(pvy[(k + 1) % 3]) - 25'(pvy[(k + 2) % 3]);
      pib[k]  = 25'(pvx[(k + 2) % 3]) - 25'(pvx[(k + 1) % 3]);
      pex[k]  = 25'sd128 - 25'(pvx[(k + 1) % 3]);
      pey[k]  = 25'sd128 - 25'(pvy[(k + 1) % 3]);
      ie_a[k] = ph_q ? pib[k] : pia[k];
      ie_b[k] = ph_q ? pey[k] : pex[k];
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
  logic signed [51:0] ar_full;
  mul_booth #(.AW(26), .BW(26)) u_ar (.a_i(ar_a), .b_i(ar_b), .y_o(ar_full));
  assign ar_p = ar_full[50:0];
  logic unused_ar;      // the area is used modulo 2^51 (exact in 51 bits signed)
  assign unused_ar = ar_full[51];
  for (genvar k = 0; k < 3; k++) begin : g_ie
    mul_booth #(.AW(25), .BW(25)) u_mul (.a_i(ie_a[k]), .b_i(ie_b[k]), .y_o(ie_p[k]));
  end

  // The FP32 operands (the slot table above). Phase 0: the depth scaling, dx1, dy1 and uv deltas
  // 0..3 of S0, dz1 and dz2 of S1, m1 and m2 of S2; phase 1: dx2, dy2 and uv deltas 4..7 of S0,
  // m3 and m4 of S2, nx and ny of S3, fza and fzb of S4 (mul 4 idle).
  always_comb begin
    fi_a[0] = ph_q ? pd[2] : pd[0];
    fi_a[1] = ph_q ? pd[3] : pd[1];
    // add 0..3: uv deltas i (phase 0) and 4 + i (phase 1): uv(v[1 + i/4]) - uv(v0).
    for (int i = 0; i < 4; i++) begin
      add_a[i] = ph_q ? vuv[2][i] : vuv[1][i];
      add_b[i] = vuv[0][i] ^ Neg;
    end
    // add 4: dz1 = zs1 - zs0 (S1, phase 0), nx = m1 - m2 (S3, phase 1);
    // add 5: dz2 = zs2 - zs0 (S1, phase 0), ny = m3 - m4 (S3, phase 1).
    add_a[4] = ph_q ? h3_q.m1 : mul_y[1];
    add_b[4] = (ph_q ? h3_q.m2 : mul_y[0]) ^ Neg;
    add_a[5] = ph_q ? mul_y[0] : mul_y[2];
    add_b[5] = (ph_q ? mul_y[1] : mul_y[0]) ^ Neg;
    // mul 0..2: zs (S0) in phase 0; m3 = dz2*dx1, m4 = dz1*dx2 (S2) and fza = nx*ra (S4) in
    // phase 1. mul 3: m1 = dz1*dy2 (S2) in phase 0, fzb = ny*ra (S4) in phase 1; mul 4:
    // m2 = dz2*dy1 (S2) in phase 0.
    mul_a[0] = ph_q ? h2_q.dz2 : zin[0];
    mul_b[0] = ph_q ? r2_q.fd[0] : DepthScale;
    mul_a[1] = ph_q ? h2_q.dz1 : zin[1];
    mul_b[1] = ph_q ? r2_q.fd[2] : DepthScale;
    mul_a[2] = ph_q ? add_y[4] : zin[2];
    mul_b[2] = ph_q ? r4_q.ra : DepthScale;
    mul_a[3] = ph_q ? add_y[5] : add_y[4];
    mul_b[3] = ph_q ? r4_q.ra : r2_q.fd[3];
    mul_a[4] = add_y[5];
    mul_b[4] = r2_q.fd[1];
    // to_fix: za in phase 1 (S5), zb in phase 0 (S6).
    fx_a = ph_q ? mul_y[2] : r6_q.fzb;
  end

  always_comb begin
    h0_d = h0_q;
    if (!ph_q) begin
      h0_d.pa  = ar_p;
      for (int k = 0; k < 3; k++) h0_d.iex[k] = ie_p[k];
    end
    // Stage 1: what S1..S6 need of the triangle (the depth, 1/w and vertex 1 and 2's texture
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
    r1_in.area2 = h0_q.pa - ar_p;
    r1_in.q     = q0;
    for (int k = 0; k < 3; k++) begin
      r1_in.ia[k] = pia[k];
      r1_in.ib[k] = pib[k];
      r1_in.ie[k] = h0_q.iex[k] + 50'(ie_p[k]);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // S1, S2: the Q_k products (6 multipliers of 33 x 26 bits: 0..2 for S1, 3..5 for S2) and the
  // FP32 results that land there; S3, S4: FP32 results only
  // ---------------------------------------------------------------------------------------------
  logic signed [32:0] iq_a [6];
  logic signed [25:0] iq_b [6];
  logic signed [58:0] iq_p [6];

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      iq_a[k]     = $signed({1'b0, r1_q.q[k]});
      iq_b[k]     = ph_q ? 26'($signed(r1_q.ib[k])) : 26'($signed(r1_q.ia[k]));
      iq_a[k + 3] = $signed({1'b0, r2_q.q[k]});
      // Q_k*E_k = Q_k*E_k[49:25]*2^25 + Q_k*E_k[24:0]
      iq_b[k + 3] = ph_q ? 26'($signed(r2_q.ie[k][49:25])) : $signed({1'b0, r2_q.ie[k][24:0]});
    end
  end
  // |iq_p| < 2^58
  for (genvar g = 0; g < 6; g++) begin : g_iq
    mul_booth #(.AW(33), .BW(26)) u_mul (.a_i(iq_a[g]), .b_i(iq_b[g]), .y_o(iq_p[g]));
  end

  always_comb begin
    // S1: zs, dx1, dy1 and uv deltas 0..3 land in phase 0, dx2, dy2 and uv deltas 4..7 in 1.
    h1_d = h1_q;
    if (!ph_q) begin
      h1_d.zs0 = mul_y[0];
      h1_d.fd  = {fi_y[1], fi_y[0]};
      h1_d.uvd = {add_y[3], add_y[2], add_y[1], add_y[0]};
      for (int k = 0; k < 3; k++) h1_d.ipa[k] = GW'(iq_p[k]);
    end
    r2_in.tp    = r1_q.tp;
    r2_in.area2 = r1_q.area2;
    r2_in.fd    = {fi_y[1], fi_y[0], h1_q.fd};
    r2_in.zs0   = h1_q.zs0;
    r2_in.q     = r1_q.q;
    r2_in.ie    = r1_q.ie;
    r2_in.ipa   = h1_q.ipa;
    for (int k = 0; k < 3; k++) r2_in.ipb[k] = GW'(iq_p[k]);
    r2_in.uvd   = {add_y[3], add_y[2], add_y[1], add_y[0], h1_q.uvd};

    // S2: dz1, dz2 land in phase 0 (m3 and m4 start from h2 in phase 1).
    h2_d = h2_q;
    if (!ph_q) begin
      h2_d.dz1 = add_y[4];
      h2_d.dz2 = add_y[5];
      for (int k = 0; k < 3; k++) h2_d.cl[k] = iq_p[k + 3];
    end
    r3_in       = '0;
    r3_in.tp    = r2_q.tp;
    r3_in.area2 = r2_q.area2;
    r3_in.zs0   = r2_q.zs0;
    r3_in.ipa   = r2_q.ipa;
    r3_in.ipb   = r2_q.ipb;
    for (int k = 0; k < 3; k++) begin
      r3_in.ipc[k] = (82'(iq_p[k + 3]) << 25) + 82'($signed(h2_q.cl[k]));  // |.| < 2^81
    end
    r3_in.uvd   = r2_q.uvd;

    // S3: m1, m2 land in phase 0, m3, m4 and ra in phase 1.
    h3_d = h3_q;
    if (!ph_q) begin
      h3_d.m1 = mul_y[3];
      h3_d.m2 = mul_y[4];
    end
    r4_in    = r3_q;
    r4_in.ra = ra_y;
    // S4: nx, ny land in phase 1 (fza, fzb start there with ra).
    r5_in    = r4_q;
    r5_in.ra = '0;
  end

  // ---------------------------------------------------------------------------------------------
  // S5 (r5): fixed-point depth, box, tiles, cull; the interpolation planes
  // ---------------------------------------------------------------------------------------------
  // The interpolation part: L_k = sigma * Q_k * E_k (sigma: the sign of area2, so that
  // every L_k >= 0 inside), W = L0 + L1 + L2. -x = ~x + 1: the negations fold into the sums.
  logic              a_sg;
  logic [GW-1:0]     a_wa, a_wb;
  logic [2:0][GW-1:0] a_pa, a_pb;
  logic [2:0][PW-1:0] a_pc;
  logic [PW-1:0]     a_wc;
  always_comb begin
    a_sg = r5_q.area2[50];
    for (int k = 0; k < 3; k++) begin
      a_pa[k] = r5_q.ipa[k] ^ {GW{a_sg}};
      a_pb[k] = r5_q.ipb[k] ^ {GW{a_sg}};
      a_pc[k] = PW'($signed(r5_q.ipc[k])) ^ {PW{a_sg}};
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
    tri_a = r5_q.tp;
    for (int k = 0; k < 3; k++) begin
      vin   = tri_a.v[k];
      vx[k] = $signed(vin.x);
      vy[k] = $signed(vin.y);
    end
    area2 = $signed(r5_q.area2);  // (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0), from S0

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
    a_in.za     = fx_y;
    a_in.fzb    = mul_y[3];
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
      a_f2       = {r5_q.uvd[2*i], r5_q.uvd[2*i+1]};  // fvec2_t: u is the upper field
      a_it.d1[i] = a_f2;
      a_f2       = {r5_q.uvd[4 + 2*i], r5_q.uvd[4 + 2*i + 1]};
      a_it.d2[i] = a_f2;
    end
    a_in.it = a_it;
  end

  // ---------------------------------------------------------------------------------------------
  // S6 (r6): orientation, edges and the depth plane's reference value
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
  // Two carry-save trees (csa_dot2), each used twice: phase 0 edges 0 and 1, phase 1 edge 2 and
  // the depth plane's c = z0 + a*(X - x0) + b*(Y - y0).
  logic signed [pineda_pkg::ZGRAD_W-1:0] cs_a [2];
  logic signed [pineda_pkg::ZGRAD_W-1:0] cs_b [2];
  logic signed [24:0]     cs_x [2];
  logic signed [24:0]     cs_z [2];
  logic [CW-1:0]          cs_c [2];
  logic [CW-1:0]          cs_y [2];

  for (genvar g = 0; g < 2; g++) begin : g_csa
    csa_dot2 #(.AW(pineda_pkg::ZGRAD_W), .MW(25), .OW(CW), .CarrySave(CarrySave)) u_csa (
      .a_i(cs_a[g]), .x_i(cs_x[g]), .b_i(cs_b[g]), .z_i(cs_z[g]), .c_i(cs_c[g]), .y_o(cs_y[g])
    );
  end

  always_comb begin
    w0    = r6_q.v[0];
    w1    = r6_q.neg ? r6_q.v[2] : r6_q.v[1];
    w2    = r6_q.neg ? r6_q.v[1] : r6_q.v[2];
    wx[0] = $signed(w0.x);
    wy[0] = $signed(w0.y);
    wx[1] = $signed(w1.x);
    wy[1] = $signed(w1.y);
    wx[2] = $signed(w2.x);
    wy[2] = $signed(w2.y);

    // Sample 0 of the first pixel of raster tile (start, tiles.y0).
    if (r6_q.target.msaa) begin
      sx = $signed({29'd0, r6_q.start, 10'd96});
      sy = $signed({29'd0, r6_q.tiles.y0, 10'd32});
    end else begin
      sx = $signed({28'd0, r6_q.start, 11'd128});
      sy = $signed({28'd0, r6_q.tiles.y0, 11'd128});
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

    for (int g = 0; g < 2; g++) begin
      cs_a[g] = pineda_pkg::ZGRAD_W'(ea[g]);
      cs_b[g] = pineda_pkg::ZGRAD_W'(eb[g]);
      cs_x[g] = ex[g];
      cs_z[g] = ey[g];
      cs_c[g] = {CW{ebias[g]}};
    end
    if (ph_q) begin
      cs_a[0] = pineda_pkg::ZGRAD_W'(ea[2]);
      cs_b[0] = pineda_pkg::ZGRAD_W'(eb[2]);
      cs_x[0] = ex[2];
      cs_z[0] = ey[2];
      cs_c[0] = {CW{ebias[2]}};
      cs_a[1] = $signed(r6_q.za);
      cs_b[1] = $signed(h6_q.zb);
      cs_x[1] = zdx;
      cs_z[1] = zdy;
      cs_c[1] = CW'($signed(r6_q.z0));
    end
    h6_d = h6_q;
    if (!ph_q) begin
      h6_d.e[0] = cs_y[0][49:0];  // |E| < 2^49 + 1 (numerics.md §2)
      h6_d.e[1] = cs_y[1][49:0];
      h6_d.zb   = fx_y;
    end
  end

  always_comb begin
    b_new        = '0;
    b_new.tiles  = r6_q.tiles;
    b_new.start  = r6_q.start;
    b_new.pix    = r6_q.pix;
    b_new.color  = r6_q.color;
    b_new.target = r6_q.target;
    b_new.tri_id = r6_q.tri_id;

    for (int k = 0; k < 3; k++) begin
      ed.a           = ea[k];
      ed.b           = eb[k];
      ed.e           = (k == 2) ? cs_y[0][49:0] : h6_q.e[k];
      b_new.edges[k] = ed;
    end
    b_new.zp.a  = r6_q.za;
    b_new.zp.b  = h6_q.zb;
    b_new.zp.c  = cs_y[1];
    b_new.zlo   = r6_q.zlo;
    b_new.zhi   = r6_q.zhi;
    b_new.front = r6_q.front;
    b_new.ds    = r6_q.ds;
    b_new.om    = r6_q.om;
    b_new.it    = r6_q.it;
    if (r6_q.eop) begin
      b_new     = '0;  // end-of-pipe token
      b_new.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Registers: h at the end of phase 0, the stages at the boundary; culled triangles leave none.
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    out_valid_o = ov_q;
    out_o       = ob_q;
    idle_o      = !v0_q && !v1_q && !v2_q && !v3_q && !v4_q && !v5_q && !v6_q && !ov_q;

    v0_d = v0_q;
    v1_d = v1_q;
    v2_d = v2_q;
    v3_d = v3_q;
    v4_d = v4_q;
    v5_d = v5_q;
    v6_d = v6_q;
    ov_d = ov_q && !out_ready_i;
    r0_d = r0_q;
    r1_d = r1_q;
    r2_d = r2_q;
    r3_d = r3_q;
    r4_d = r4_q;
    r5_d = r5_q;
    r6_d = r6_q;
    ob_d = ob_q;
    if (bnd) begin
      v0_d = in_valid_i;
      v1_d = v0_q;
      v2_d = v1_q;
      v3_d = v2_q;
      v4_d = v3_q;
      v5_d = v4_q;
      v6_d = v5_q;
      ov_d = v6_q && !r6_q.cull;
      if (in_valid_i) r0_d = in_i;
      if (v0_q) r1_d = r1_in;
      if (v1_q) r2_d = r2_in;
      if (v2_q) r3_d = r3_in;
      if (v3_q) r4_d = r4_in;
      if (v4_q) r5_d = r5_in;
      if (v5_q) r6_d = a_in;
      if (v6_q && !r6_q.cull) ob_d = b_new;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ph_q <= 1'b0;
      v0_q <= 1'b0;
      v1_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
      v4_q <= 1'b0;
      v5_q <= 1'b0;
      v6_q <= 1'b0;
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
      r5_q <= '0;
      r6_q <= '0;
      h6_q <= '0;
      ob_q <= '0;
    end else begin
      ph_q <= ph_d;
      v0_q <= v0_d;
      v1_q <= v1_d;
      v2_q <= v2_d;
      v3_q <= v3_d;
      v4_q <= v4_d;
      v5_q <= v5_d;
      v6_q <= v6_d;
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
      r5_q <= r5_d;
      r6_q <= r6_d;
      h6_q <= h6_d;
      ob_q <= ob_d;
    end
  end

  // The output holds its packet while it waits (valid/ready, docs/contract.md §1; empty in
  // synthesis).
  stream_assert #(.Width($bits(out_o))) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o)
  );

  logic unused_sig;
  assign unused_sig = ^{pix_x1m1[2:0], pix_y1m1[2:0], tri_a.z, a_va0.rhw, va.color};

endmodule

