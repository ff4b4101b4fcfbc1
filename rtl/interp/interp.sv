// SPDX-License-Identifier: Apache-2.0
// INTERP: per-pixel perspective-correct colour and texture coordinates of one quad per clock, or
// one per 2 clocks for a quad that samples texture 1 (docs/interp.md, docs/numerics.md section 10;
// model: cpp_model/interp/interp.cpp, bit-exact).
//
// Eleven pipeline stages, at most half of a deep operation (rcp, from_int: the two-stage *_p
// forms, the same bits) or one Booth product deep each; one FP32 operation per pixel (the
// reciprocal), the rest fixed point and block floating point (issue 29, numerics section 10.3).
// S6..S10 advance together when S10 is empty or taken (one enable: a stalled stage holds its
// payload); S0..S5 advance with them except for the first clock of a two-clock quad:
//   S0  the three planes (carried from SETUP in quad_pkt_t.it, c at the centre of pixel (0, 0))
//       at the centre of the quad's pixel (0, 0): c + 512*(a*qx + b*qy), exact (57 x 13-bit
//       Booth products)
//   S1  the three planes at the 4 pixel centres (exact 84-bit adds); k, W's leading one
//   S2  W / 2^k rounded to 24 bits as an FP32 value in [1, 2]; n_k = floor(L_k 2^25 / 2^k),
//       saturated to 36 bits
//   S3  rcp of that value per pixel, first half (quotient bits 24..12)
//   S4  rcp, second half (bits 11..0, round): R = rcp * 2^24
//   S5  b_k = round(n_k R / 2^25), 24 fraction bits (8 Booth products; 0 where W <= 0)
//   S6  the 0.16 colour weights (b1, b2 rounded; b1, b2 themselves wait for the uv products);
//       the phase's coordinate in block floating point: per component t0, d1, d2 aligned to
//       their largest exponent as 27-bit signed integers M0, M1, M2
//   S7  colour: the integer lerp per channel and clamp (or the flat colour); texture
//       coordinates: b1 * M1, b2 * M2 per pixel and component (16 radix-4 Booth products)
//   S8  M0 * 2^24 + b1 * M1 + b2 * M2 (62-bit integers)
//   S9  int -> FP32 with the block's exponent, first half (8 fp32_from_int_p)
//   S10 its second half (one rounding); NaN if an input was NaN or Inf; the output
// The one uv datapath (S6..S10) computes uv0; a quad whose om.comb.tex1 is set (combiner stage 1
// samples texture 1 with uv1) goes through it twice, uv0 then uv1, and S0..S5 hold for that clock.
// Otherwise uv1 is 0. End-of-pipe tokens pass in order with every per-pixel field 0.
module interp (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          in_valid_i,
  output logic                          in_ready_o,
  input  pineda_pkg::quad_pkt_t         in_i,
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output pineda_pkg::interp_pkt_t       out_o,
  output logic                          idle_o
);
  localparam int unsigned PW = pineda_pkg::IPLANE_W;  // 84
  localparam int unsigned NW = 36;    // L_k normalised by W's leading one: |.| < 2^35
  localparam int unsigned RW = 25;    // the reciprocal of W's 24 leading bits, in (2^23, 2^24]
  localparam int unsigned UvF  = 24;  // fraction bits of b (Interp::UV_F)
  localparam int unsigned UvBW = 34;  // b's width, |b| < 2^9 (Interp::UV_BW)
  localparam int unsigned UvMW = 27;  // M_i: 24 significand and 2 guard bits, signed
  localparam int unsigned UvPW = UvBW + UvMW;  // b * M_i, exact
  localparam int unsigned UvSW = UvPW + 1;     // M_0 * 2^UvF + b1 M_1 + b2 M_2: |.| < 2^61

  // ---- pipeline control. S6..S10 (the one uv datapath) advance on `en`; S0..S5 and the input
  // on `en_up`, which also holds them for the first of the two clocks of a quad that samples
  // texture 1 (om.comb.tex1): its uv0 products leave S5 first (phase 0), then its uv1 (phase 1).
  logic [10:0] v_q, v_d;
  logic        en, en_up, hold;
  logic        ph_q, ph_d;      // S5's quad has sent its phase 0 (uv0) to S6
  logic        s5_two;          // S5 holds a quad that samples texture 1: two clocks in S6..S10
  // Per stage of S6..S9: phase 0 of a two-clock quad (uv0; no output of its own), and the phase
  // (1: the products are of uv1). S10 keeps the phase only.
  logic [9:6]  first_q, first_d, phs_q, phs_d;
  logic        s10_ph_q, s10_ph_d;
  assign en          = !v_q[10] || out_ready_i;
  assign hold        = v_q[5] && s5_two && !ph_q;
  assign en_up       = en && !hold;
  assign in_ready_o  = en_up;
  assign out_valid_o = v_q[10];
  assign idle_o      = (v_q == '0);
  always_comb begin
    v_d      = v_q;
    ph_d     = ph_q;
    first_d  = first_q;
    phs_d    = phs_q;
    s10_ph_d = s10_ph_q;
    if (en_up) v_d[5:0] = {v_q[4:0], in_valid_i};
    if (en) begin
      v_d[9:6]  = v_q[8:5];
      v_d[10]   = v_q[9] && !first_q[9];  // phase 0 of a two-clock quad leaves only its uv0
      ph_d      = hold;
      first_d   = {first_q[8:6], hold};
      phs_d     = {phs_q[8:6], ph_q};
      s10_ph_d  = phs_q[9];
    end
  end

  // ---- S0: the planes at the centre of the quad's pixel (0, 0)
  pineda_pkg::quad_pkt_t s0_q, s0_d;
  logic [2:0][PW-1:0]    s0_c_q, s0_c_d;
  // One signal per plane: Yosys 0.55 misreads arrays of struct types (yosys#2677).
  pineda_pkg::iplane_t   ipl0, ipl1, ipl2;

  // g * q modulo 2^(PW-9) for a signed 57-bit gradient g and an unsigned 13-bit quad coordinate
  // q: radix-4 Booth (7 digits in {-2..2} of {0, q}, each selecting 0, +-g or +-2g), the 7
  // partial products and their negation bits summed as a tree. The same bits as the product;
  // about 1,250 LUT4 instead of Yosys's 1,940 for `$signed(g) * q` (issue 29).
  localparam int unsigned GW = pineda_pkg::IPGRAD_W;  // 57
  function automatic logic [PW-10:0] mul_q13(logic [GW-1:0] g, logic [12:0] q);
    logic [14:0]             qe;
    logic [6:0][PW-10:0]     pp;
    logic [PW-10:0]          negs;
    logic [GW+1:0]           sel;
    logic                    one, two, neg;
    qe   = {1'b0, q, 1'b0};  // q[-1] = 0 below, the sign (0) above
    negs = '0;
    for (int i = 0; i < 7; i++) begin
      one = qe[2*i+1] ^ qe[2*i];
      two = (qe[2*i+2] & ~qe[2*i+1] & ~qe[2*i]) | (~qe[2*i+2] & qe[2*i+1] & qe[2*i]);
      neg = qe[2*i+2];
      sel = one ? {{2{g[GW-1]}}, g} : (two ? {g[GW-1], g, 1'b0} : '0);
      if (neg) sel = ~sel;  // -x = ~x + 1: the 1 in negs
      pp[i] = (PW - 9)'($signed(sel)) << (2 * i);
      negs[2*i] = neg;
    end
    mul_q13 = ((pp[0] + pp[1]) + (pp[2] + pp[3])) + ((pp[4] + pp[5]) + (pp[6] + negs));
  endfunction

  // c + 512*(a*qx + b*qy): exact, |.| < 2^83 at every pixel centre of the render target.
  function automatic logic [PW-1:0] plane_at_quad(pineda_pkg::iplane_t p, logic [12:0] qx,
                                                  logic [12:0] qy);
    logic [PW-10:0] ax, by;  // modulo 2^(PW-9): only c + 512*(ax + by) modulo 2^PW is needed
    ax = mul_q13(p.a, qx);
    by = mul_q13(p.b, qy);
    plane_at_quad = p.c + {ax + by, 9'd0};
  endfunction

  always_comb begin
    ipl0 = in_i.it.w;
    ipl1 = in_i.it.l1;
    ipl2 = in_i.it.l2;
    s0_d   = s0_q;
    s0_c_d = s0_c_q;
    if (en_up) begin
      s0_d = in_i;
      s0_c_d[0] = plane_at_quad(ipl0, in_i.qx, in_i.qy);
      s0_c_d[1] = plane_at_quad(ipl1, in_i.qx, in_i.qy);
      s0_c_d[2] = plane_at_quad(ipl2, in_i.qx, in_i.qy);
    end
  end

  // ---- S1: plane values at the pixel centres; from_int, first half
  typedef struct packed {
    pineda_pkg::quad_pkt_t       quad;
    logic [31:0]                 c0, c1, c2;
    logic [1:0][63:0]            t0, d1, d2;  // fvec2_t each (not fvec2_t [1:0]: yosys#2677)
  } carry_t;

  carry_t          s1_q, s1_d;
  logic [3:0]      s1_wpos_q, s1_wpos_d;            // W > 0

  logic [3:0][PW-1:0] pw_w, pw_1, pw_2;  // plane values per pixel
  logic [3:0][PW-1:0] s1_w_q, s1_w_d, s1_l1_q, s1_l1_d, s1_l2_q, s1_l2_d;
  logic [3:0][6:0]    s1_k_q, s1_k_d;    // W's leading one (W > 0)

  function automatic logic [PW-1:0] plane_at(pineda_pkg::iplane_t p, logic dx, logic dy);
    logic [PW-1:0] a8, b8;
    a8 = {{(PW - pineda_pkg::IPGRAD_W - 8){p.a[pineda_pkg::IPGRAD_W-1]}}, p.a, 8'd0};
    b8 = {{(PW - pineda_pkg::IPGRAD_W - 8){p.b[pineda_pkg::IPGRAD_W-1]}}, p.b, 8'd0};
    plane_at = p.c + (dx ? a8 : '0) + (dy ? b8 : '0);
  endfunction

  // The position of the leading one of a positive plane value (0 for 0 or negative ones: unused).
  function automatic logic [6:0] lead(logic [PW-1:0] x);
    lead = '0;
    for (int i = 0; i < PW - 1; i++) begin
      if (x[i]) lead = 7'(i);
    end
  endfunction

  pineda_pkg::iplane_t s0_w, s0_l1, s0_l2;
  always_comb begin
    s0_w    = s0_q.it.w;
    s0_w.c  = s0_c_q[0];
    s0_l1   = s0_q.it.l1;
    s0_l1.c = s0_c_q[1];
    s0_l2   = s0_q.it.l2;
    s0_l2.c = s0_c_q[2];
  end
  for (genvar p = 0; p < 4; p++) begin : g_s1
    assign pw_w[p] = plane_at(s0_w,  1'(p & 1), 1'(p >> 1));
    assign pw_1[p] = plane_at(s0_l1, 1'(p & 1), 1'(p >> 1));
    assign pw_2[p] = plane_at(s0_l2, 1'(p & 1), 1'(p >> 1));
  end

  always_comb begin
    s1_d      = s1_q;
    s1_wpos_d = s1_wpos_q;
    s1_w_d    = s1_w_q;
    s1_l1_d   = s1_l1_q;
    s1_l2_d   = s1_l2_q;
    s1_k_d    = s1_k_q;
    if (en_up) begin
      s1_d.quad    = s0_q;
      s1_d.quad.it = '0;  // not needed after INTERP
      s1_d.c0      = s0_q.it.c0;
      s1_d.c1      = s0_q.it.c1;
      s1_d.c2      = s0_q.it.c2;
      s1_d.t0      = s0_q.it.t0;
      s1_d.d1      = s0_q.it.d1;
      s1_d.d2      = s0_q.it.d2;
      s1_w_d       = pw_w;
      s1_l1_d      = pw_1;
      s1_l2_d      = pw_2;
      for (int p = 0; p < 4; p++) begin
        s1_wpos_d[p] = !pw_w[p][PW-1] && (pw_w[p] != '0);
        s1_k_d[p]    = lead(pw_w[p]);
      end
    end
  end

  // ---- S2: W rounded to 24 leading bits (half up) as an FP32 value in [1, 2], and L1, L2 by the
  // same shift: floor(L 2^25 / 2^k), saturated to +-(2^35 - 1) when |L| >= 2^(k + 10).
  // S3, S4: the reciprocal of that W in two halves (fp32_rcp_p), L1 and L2 wait beside it.
  function automatic logic [NW-1:0] norm_l(logic [PW-1:0] l, logic [6:0] k);
    logic [PW-1:0]    lx, mask;
    logic [NW-1:0]    sh;
    lx   = l ^ {PW{l[PW-1]}};              // |l| - 1 for a negative l
    mask = {PW{1'b1}} << (k + 7'd10);      // the bits at k + 10 and above
    sh   = NW'($signed({l, 25'd0}) >>> k);
    if ((lx & mask) != '0) norm_l = l[PW-1] ? {1'b1, {(NW - 2){1'b0}}, 1'b1} : {1'b0, {(NW - 1){1'b1}}};
    else norm_l = sh;
  endfunction

  carry_t              s2_q, s2_d, s3_q, s3_d, s4_q, s4_d;
  logic [3:0]          s2_wpos_q, s2_wpos_d, s3_wpos_q, s3_wpos_d, s4_wpos_q, s4_wpos_d;
  logic [3:0][31:0]    s2_fw_q, s2_fw_d;
  logic [3:0][NW-1:0]  s2_n1_q, s2_n1_d, s2_n2_q, s2_n2_d, s3_n1_q, s3_n1_d, s3_n2_q, s3_n2_d;
  logic [3:0][NW-1:0]  s4_n1_q, s4_n1_d, s4_n2_q, s4_n2_d;
  logic [3:0][31:0]    rw;  // a register of S4
  logic [23:0]         wsh;
  for (genvar p = 0; p < 4; p++) begin : g_rcp
    fp32_rcp_p u_rcp (.clk_i, .rst_ni, .en_i(en_up), .a_i(s2_fw_q[p]), .y_o(rw[p]));
  end
  always_comb begin
    s2_d      = s2_q;
    s2_wpos_d = s2_wpos_q;
    s2_fw_d   = s2_fw_q;
    s2_n1_d   = s2_n1_q;
    s2_n2_d   = s2_n2_q;
    s3_d      = s3_q;
    s3_wpos_d = s3_wpos_q;
    s3_n1_d   = s3_n1_q;
    s3_n2_d   = s3_n2_q;
    s4_d      = s4_q;
    s4_wpos_d = s4_wpos_q;
    s4_n1_d   = s4_n1_q;
    s4_n2_d   = s4_n2_q;
    wsh       = '0;
    if (en_up) begin
      s2_d      = s1_q;
      s2_wpos_d = s1_wpos_q;
      for (int p = 0; p < 4; p++) begin
        wsh        = 24'({s1_w_q[p], 24'd0} >> s1_k_q[p]);  // floor(W 2^24 / 2^k), less its leading one
        s2_fw_d[p] = {1'b0, 8'd127, wsh[23:1]} + {31'd0, wsh[0]};
        s2_n1_d[p] = norm_l(s1_l1_q[p], s1_k_q[p]);
        s2_n2_d[p] = norm_l(s1_l2_q[p], s1_k_q[p]);
      end
      s3_d      = s2_q;
      s3_wpos_d = s2_wpos_q;
      s3_n1_d   = s2_n1_q;
      s3_n2_d   = s2_n2_q;
      s4_d      = s3_q;
      s4_wpos_d = s3_wpos_q;
      s4_n1_d   = s3_n1_q;
      s4_n2_d   = s3_n2_q;
    end
  end

  // ---- S5: the perspective barycentrics b_k = L_k / W: round(n_k R / 2^25) half up, saturated
  // to +-(2^33 - 1), with R = rcp * 2^24 (2 radix-4 Booth products per pixel); 0 where W <= 0
  carry_t                s5_q, s5_d;
  logic [3:0][UvBW-1:0]  s5_b1_q, s5_b1_d, s5_b2_q, s5_b2_d;
  logic [3:0][RW-1:0]    rfix;
  logic [3:0][NW+RW:0]   pr1, pr2;

  function automatic logic [UvBW-1:0] bary_fix(logic [NW+RW:0] pr);
    logic signed [NW+RW-25:0] r;
    r = (NW + RW - 24)'($signed(pr + (NW + RW + 1)'(1 << 24)) >>> 25);
    if (r > $signed((NW + RW - 24)'((64'd1 << (UvBW - 1)) - 1)))
      bary_fix = {1'b0, {(UvBW - 1){1'b1}}};
    else if (r < $signed(-(NW + RW - 24)'((64'd1 << (UvBW - 1)) - 1)))
      bary_fix = {1'b1, {(UvBW - 2){1'b0}}, 1'b1};
    else bary_fix = r[UvBW-1:0];
  endfunction

  for (genvar p = 0; p < 4; p++) begin : g_s5
    assign rfix[p] = (rw[p][30:23] == 8'd127) ? RW'(1 << 24) : {2'b01, rw[p][22:0]};
    mul_booth #(.AW(NW), .BW(RW + 1)) u_b1 (.a_i(s4_n1_q[p]), .b_i({1'b0, rfix[p]}), .y_o(pr1[p]));
    mul_booth #(.AW(NW), .BW(RW + 1)) u_b2 (.a_i(s4_n2_q[p]), .b_i({1'b0, rfix[p]}), .y_o(pr2[p]));
  end
  always_comb begin
    s5_d    = s5_q;
    s5_b1_d = s5_b1_q;
    s5_b2_d = s5_b2_q;
    if (en_up) begin
      s5_d = s4_q;
      for (int p = 0; p < 4; p++) begin
        s5_b1_d[p] = s4_wpos_q[p] ? bary_fix(pr1[p]) : '0;
        s5_b2_d[p] = s4_wpos_q[p] ? bary_fix(pr2[p]) : '0;
      end
    end
  end

  // ---- S6: the colour weights; the uv weights b1, b2 wait; the phase's coordinate (uv0 in
  // phase 0, uv1 in phase 1) in block floating point: per component t0, d1, d2 as signed
  // integers M_i * 2^(e - 176), e the largest of their exponent fields
  typedef struct packed {
    logic                    nan;  // one of the three is NaN or +-Inf: the result is NaN
    logic [7:0]              e;    // the largest exponent field (0: all three zero)
    logic [2:0][UvMW-1:0]    m;    // t0, d1, d2
  } aligned_t;

  // Interp::align: each significand (0 for a zero or denormal, DAZ) with 2 guard bits shifted
  // right by e - its exponent field (truncated), then its sign.
  function automatic aligned_t align3(logic [31:0] a0, logic [31:0] a1, logic [31:0] a2);
    logic [2:0][31:0] a;
    logic [25:0]      sig, mag;
    logic [7:0]       d;
    aligned_t         r;  // not the function's name: Yosys 0.55 misreads its fields
    a = {a2, a1, a0};
    r = '0;
    for (int i = 0; i < 3; i++) begin
      if (a[i][30:23] == 8'hFF) r.nan = 1'b1;
      if (a[i][30:23] > r.e) r.e = a[i][30:23];
    end
    for (int i = 0; i < 3; i++) begin
      sig = (a[i][30:23] == 8'h00) ? '0 : {1'b1, a[i][22:0], 2'b00};
      d   = r.e - a[i][30:23];
      mag = sig >> d;  // 0 from d >= 26
      r.m[i] = a[i][31] ? -{1'b0, mag} : {1'b0, mag};
    end
    align3 = r;
  endfunction

  carry_t                s6_q, s6_d;
  logic [3:0][16:0]      s6_w1_q, s6_w1_d, s6_w2_q, s6_w2_d;
  logic [3:0][UvBW-1:0]  s6_b1_q, s6_b1_d, s6_b2_q, s6_b2_d;
  aligned_t              s6_al0_q, s6_al0_d, s6_al1_q, s6_al1_d;  // components u, v
  pineda_pkg::fvec2_t    t_f2, d1_f2, d2_f2;  // an element, then its fields (yosys#2677)
  always_comb begin
    s5_two = !s5_q.quad.eop && s5_q.quad.om.comb.tex1;
    t_f2   = ph_q ? s5_q.t0[1] : s5_q.t0[0];
    d1_f2  = ph_q ? s5_q.d1[1] : s5_q.d1[0];
    d2_f2  = ph_q ? s5_q.d2[1] : s5_q.d2[0];
  end

  // A 0.16 colour weight: b rounded half up to 16 fraction bits, clamped to [0, 65536].
  function automatic logic [16:0] weight16(logic [UvBW-1:0] b);
    logic signed [UvBW-8:0] t;
    t = (UvBW - 7)'(($signed({b[UvBW-1], b}) + (UvBW + 1)'(128)) >>> 8);
    if (t < 0) weight16 = '0;
    else if (t > $signed((UvBW - 7)'(65536))) weight16 = 17'd65536;
    else weight16 = t[16:0];
  endfunction

  always_comb begin
    s6_d     = s6_q;
    s6_w1_d  = s6_w1_q;
    s6_w2_d  = s6_w2_q;
    s6_b1_d  = s6_b1_q;
    s6_b2_d  = s6_b2_q;
    s6_al0_d = s6_al0_q;
    s6_al1_d = s6_al1_q;
    if (en) begin
      s6_d     = s5_q;
      s6_b1_d  = s5_b1_q;
      s6_b2_d  = s5_b2_q;
      s6_al0_d = align3(t_f2.u, d1_f2.u, d2_f2.u);
      s6_al1_d = align3(t_f2.v, d1_f2.v, d2_f2.v);
      for (int p = 0; p < 4; p++) begin
        s6_w1_d[p] = weight16(s5_b1_q[p]);
        s6_w2_d[p] = weight16(s5_b2_q[p]);
      end
    end
  end

  // ---- S7: colour; the products. S8: the sums. S9, S10: to FP32
  // One RGBA8 colour: c0 + floor(((c1 - c0) t1 + (c2 - c0) t2 + 2^15) / 2^16), clamped per channel.
  function automatic logic [31:0] lerp_color(logic [31:0] c0, logic [31:0] c1, logic [31:0] c2,
                                             logic [16:0] t1, logic [16:0] t2);
    logic signed [8:0]  da, db;
    logic signed [27:0] s;
    logic signed [12:0] r;
    lerp_color = '0;
    for (int ch = 0; ch < 4; ch++) begin
      da = $signed({1'b0, c1[8*ch +: 8]}) - $signed({1'b0, c0[8*ch +: 8]});
      db = $signed({1'b0, c2[8*ch +: 8]}) - $signed({1'b0, c0[8*ch +: 8]});
      s  = 28'(da * $signed({1'b0, t1})) + 28'(db * $signed({1'b0, t2})) + 28'sd32768;
      r  = 13'(s >>> 16) + $signed({5'b0, c0[8*ch +: 8]});
      if (r < 0) lerp_color[8*ch +: 8] = 8'd0;
      else if (r > 255) lerp_color[8*ch +: 8] = 8'd255;
      else lerp_color[8*ch +: 8] = r[7:0];
    end
  endfunction

  pineda_pkg::quad_pkt_t s7_quad_q, s7_quad_d, s8_quad_q, s8_quad_d, s9_quad_q, s9_quad_d;
  pineda_pkg::quad_pkt_t s10_quad_q, s10_quad_d;
  logic [3:0][31:0]      s7_color_q, s7_color_d, s8_color_q, s8_color_d, s9_color_q, s9_color_d;
  logic [3:0][31:0]      s10_color_q, s10_color_d;
  // [pixel][component u, v]: S7 the products b1 M_1, b2 M_2, S8 the sums
  logic [3:0][1:0][UvPW-1:0] s7_p1_q, s7_p1_d, s7_p2_q, s7_p2_d, p1, p2;
  logic [3:0][1:0][UvSW-1:0] s8_sum_q, s8_sum_d;
  logic [1:0][UvMW-1:0]  s7_m0_q, s7_m0_d;             // [component] M_0
  logic [1:0][7:0]       s7_e_q, s7_e_d, s8_e_q, s8_e_d;
  logic [1:0]            s7_nan_q, s7_nan_d, s8_nan_q, s8_nan_d, s9_nan_q, s9_nan_d;
  logic [1:0]            s10_nan_q, s10_nan_d;
  logic [1:0][9:0]       uv_scale;                      // e - 176: the sums' exponent offset
  logic [3:0][1:0][31:0] uv_fi, uv;     // [pixel][component u, v]: registers of S10
  logic [3:0][63:0]      s10_uv0_q, s10_uv0_d;  // uv0 of a two-clock quad, beside its uv1
  logic [1:0][UvMW-1:0]  m1c, m2c;
  always_comb begin
    m1c[0] = s6_al0_q.m[1];
    m2c[0] = s6_al0_q.m[2];
    m1c[1] = s6_al1_q.m[1];
    m2c[1] = s6_al1_q.m[2];
    for (int j = 0; j < 2; j++) uv_scale[j] = {2'b00, s8_e_q[j]} - 10'd176;
  end
  for (genvar p = 0; p < 4; p++) begin : g_s7
    for (genvar j = 0; j < 2; j++) begin : g_comp
      mul_booth #(.AW(UvBW), .BW(UvMW)) u_p1 (.a_i(s6_b1_q[p]), .b_i(m1c[j]), .y_o(p1[p][j]));
      mul_booth #(.AW(UvBW), .BW(UvMW)) u_p2 (.a_i(s6_b2_q[p]), .b_i(m2c[j]), .y_o(p2[p][j]));
      fp32_from_int_p #(.W(UvSW)) u_uv (.clk_i, .rst_ni, .en_i(en), .a_i(s8_sum_q[p][j]),
                                        .scale_i(uv_scale[j]), .y_o(uv_fi[p][j]));
      assign uv[p][j] = s10_nan_q[j] ? 32'(pineda_pkg::FP32_QNAN) : uv_fi[p][j];
    end
  end
  always_comb begin
    s7_quad_d   = s7_quad_q;
    s7_color_d  = s7_color_q;
    s7_p1_d     = s7_p1_q;
    s7_p2_d     = s7_p2_q;
    s7_m0_d     = s7_m0_q;
    s7_e_d      = s7_e_q;
    s7_nan_d    = s7_nan_q;
    s8_quad_d   = s8_quad_q;
    s8_color_d  = s8_color_q;
    s8_sum_d    = s8_sum_q;
    s8_e_d      = s8_e_q;
    s8_nan_d    = s8_nan_q;
    s9_quad_d   = s9_quad_q;
    s9_color_d  = s9_color_q;
    s9_nan_d    = s9_nan_q;
    s10_quad_d  = s10_quad_q;
    s10_color_d = s10_color_q;
    s10_nan_d   = s10_nan_q;
    s10_uv0_d   = s10_uv0_q;
    if (en) begin
      s7_quad_d = s6_q.quad;
      for (int p = 0; p < 4; p++) begin
        s7_color_d[p] = s6_q.quad.om.gouraud
                      ? lerp_color(s6_q.c0, s6_q.c1, s6_q.c2, s6_w1_q[p], s6_w2_q[p])
                      : s6_q.quad.color;
      end
      s7_p1_d     = p1;
      s7_p2_d     = p2;
      s7_m0_d[0]  = s6_al0_q.m[0];
      s7_m0_d[1]  = s6_al1_q.m[0];
      s7_e_d[0]   = s6_al0_q.e;
      s7_e_d[1]   = s6_al1_q.e;
      s7_nan_d[0] = s6_al0_q.nan;
      s7_nan_d[1] = s6_al1_q.nan;
      s8_quad_d   = s7_quad_q;
      s8_color_d  = s7_color_q;
      for (int p = 0; p < 4; p++) begin
        for (int j = 0; j < 2; j++) begin
          s8_sum_d[p][j] = {{(UvSW - UvMW - UvF){s7_m0_q[j][UvMW-1]}}, s7_m0_q[j], UvF'(0)}
                         + {s7_p1_q[p][j][UvPW-1], s7_p1_q[p][j]}
                         + {s7_p2_q[p][j][UvPW-1], s7_p2_q[p][j]};
        end
      end
      s8_e_d      = s7_e_q;
      s8_nan_d    = s7_nan_q;
      s9_quad_d   = s8_quad_q;
      s9_color_d  = s8_color_q;
      s9_nan_d    = s8_nan_q;
      s10_quad_d  = s9_quad_q;
      s10_color_d = s9_color_q;
      s10_nan_d   = s9_nan_q;
      // S10's uv0 as the next phase arrives: kept for phase 1 of a two-clock quad, whose phase 0
      // left it there one clock before (the two phases move through S6..S10 back to back)
      for (int p = 0; p < 4; p++) s10_uv0_d[p] = {uv[p][0], uv[p][1]};
    end
  end

  // ---- S10: the output. Phase 0 of a two-clock quad is never valid; phase 1 takes its uv0 from
  // s10_uv0_q and its uv1 from the adders. fvec2_t: u is the upper field; uv1 = 0 unless the
  // quad samples texture 1; a token has every per-pixel field 0.
  always_comb begin
    out_o      = '0;
    out_o.quad = s10_quad_q;
    if (!s10_quad_q.eop) begin
      for (int p = 0; p < 4; p++) begin
        out_o.pcolor[p] = s10_color_q[p];
        if (s10_ph_q) begin
          out_o.uv0[p] = s10_uv0_q[p];
          out_o.uv1[p] = {uv[p][0], uv[p][1]};
        end else begin
          out_o.uv0[p] = {uv[p][0], uv[p][1]};
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q         <= '0;
      ph_q        <= 1'b0;
      first_q     <= '0;
      phs_q       <= '0;
      s10_ph_q    <= 1'b0;
      s0_q        <= '0;
      s0_c_q      <= '0;
      s1_q        <= '0;
      s1_wpos_q   <= '0;
      s1_w_q      <= '0;
      s1_l1_q     <= '0;
      s1_l2_q     <= '0;
      s1_k_q      <= '0;
      s2_q        <= '0;
      s2_wpos_q   <= '0;
      s2_fw_q     <= '0;
      s2_n1_q     <= '0;
      s2_n2_q     <= '0;
      s3_q        <= '0;
      s3_wpos_q   <= '0;
      s3_n1_q     <= '0;
      s3_n2_q     <= '0;
      s4_q        <= '0;
      s4_wpos_q   <= '0;
      s4_n1_q     <= '0;
      s4_n2_q     <= '0;
      s5_q        <= '0;
      s5_b1_q     <= '0;
      s5_b2_q     <= '0;
      s6_q        <= '0;
      s6_w1_q     <= '0;
      s6_w2_q     <= '0;
      s6_b1_q     <= '0;
      s6_b2_q     <= '0;
      s6_al0_q    <= '0;
      s6_al1_q    <= '0;
      s7_quad_q   <= '0;
      s7_color_q  <= '0;
      s7_p1_q     <= '0;
      s7_p2_q     <= '0;
      s7_m0_q     <= '0;
      s7_e_q      <= '0;
      s7_nan_q    <= '0;
      s8_quad_q   <= '0;
      s8_color_q  <= '0;
      s8_sum_q    <= '0;
      s8_e_q      <= '0;
      s8_nan_q    <= '0;
      s9_quad_q   <= '0;
      s9_color_q  <= '0;
      s9_nan_q    <= '0;
      s10_quad_q  <= '0;
      s10_color_q <= '0;
      s10_nan_q   <= '0;
      s10_uv0_q   <= '0;
    end else begin
      v_q         <= v_d;
      ph_q        <= ph_d;
      first_q     <= first_d;
      phs_q       <= phs_d;
      s10_ph_q    <= s10_ph_d;
      s0_q        <= s0_d;
      s0_c_q      <= s0_c_d;
      s1_q        <= s1_d;
      s1_wpos_q   <= s1_wpos_d;
      s1_w_q      <= s1_w_d;
      s1_l1_q     <= s1_l1_d;
      s1_l2_q     <= s1_l2_d;
      s1_k_q      <= s1_k_d;
      s2_q        <= s2_d;
      s2_wpos_q   <= s2_wpos_d;
      s2_fw_q     <= s2_fw_d;
      s2_n1_q     <= s2_n1_d;
      s2_n2_q     <= s2_n2_d;
      s3_q        <= s3_d;
      s3_wpos_q   <= s3_wpos_d;
      s3_n1_q     <= s3_n1_d;
      s3_n2_q     <= s3_n2_d;
      s4_q        <= s4_d;
      s4_wpos_q   <= s4_wpos_d;
      s4_n1_q     <= s4_n1_d;
      s4_n2_q     <= s4_n2_d;
      s5_q        <= s5_d;
      s5_b1_q     <= s5_b1_d;
      s5_b2_q     <= s5_b2_d;
      s6_q        <= s6_d;
      s6_w1_q     <= s6_w1_d;
      s6_w2_q     <= s6_w2_d;
      s6_b1_q     <= s6_b1_d;
      s6_b2_q     <= s6_b2_d;
      s6_al0_q    <= s6_al0_d;
      s6_al1_q    <= s6_al1_d;
      s7_quad_q   <= s7_quad_d;
      s7_color_q  <= s7_color_d;
      s7_p1_q     <= s7_p1_d;
      s7_p2_q     <= s7_p2_d;
      s7_m0_q     <= s7_m0_d;
      s7_e_q      <= s7_e_d;
      s7_nan_q    <= s7_nan_d;
      s8_quad_q   <= s8_quad_d;
      s8_color_q  <= s8_color_d;
      s8_sum_q    <= s8_sum_d;
      s8_e_q      <= s8_e_d;
      s8_nan_q    <= s8_nan_d;
      s9_quad_q   <= s9_quad_d;
      s9_color_q  <= s9_color_d;
      s9_nan_q    <= s9_nan_d;
      s10_quad_q  <= s10_quad_d;
      s10_color_q <= s10_color_d;
      s10_nan_q   <= s10_nan_d;
      s10_uv0_q   <= s10_uv0_d;
    end
  end

`ifndef SYNTHESIS
  stream_assert #(.Width($bits(in_i))) u_in_chk (
    .clk_i, .rst_ni, .valid_i(in_valid_i), .ready_i(in_ready_o), .data_i(in_i));
  stream_assert #(.Width($bits(out_o))) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o));
`endif
endmodule
