// SPDX-License-Identifier: Apache-2.0
// INTERP: per-pixel perspective-correct colour and texture coordinates of one quad per clock, or
// one per 2 clocks for a quad that samples texture 1 (docs/interp.md, docs/numerics.md section 10;
// model: cpp_model/interp/interp.cpp, bit-exact).
//
// Eleven pipeline stages, at most half of a deep FP32 operation (from_int, rcp, add: the
// two-stage *_p forms, the same bits) or one fp32_mul deep each. S6..S10 advance together when
// S10 is empty or taken (one enable: a stalled stage holds its payload); S0..S5 advance with them
// except for the first clock of a two-clock quad:
//   S0  the three planes (carried from SETUP in quad_pkt_t.it, c at the centre of pixel (0, 0))
//       at the centre of the quad's pixel (0, 0): c + 512*(a*qx + b*qy), exact (57 x 14-bit
//       products)
//   S1  the three planes at the 4 pixel centres (exact 84-bit adds); from_int, first half
//       (magnitude, leading zeros)
//   S2  from_int, second half (shift, round): W, L1, L2 in FP32
//   S3  rw = rcp(W) per pixel, first half (quotient bits 24..12)
//   S4  rcp, second half (bits 11..0, round)
//   S5  l1 = L1 * rw, l2 = L2 * rw (0 where W <= 0)
//   S6  the 0.16 colour weights of l1, l2; texture coordinates: l1 * d1, l2 * d2 per component
//       of one coordinate (16 fp32_mul)
//   S7  colour: the integer lerp per channel and clamp (or the flat colour);
//       l1 * d1 + l2 * d2 per component, first half (8 fp32_add_p)
//   S8  the sums, second half
//   S9  uv = t0 + (l1 * d1 + l2 * d2), first half (8 fp32_add_p)
//   S10 uv, second half; the output
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
  logic [3:0][31:0]   fw, f1, f2;        // their FP32 values, registers of S2

  function automatic logic [PW-1:0] plane_at(pineda_pkg::iplane_t p, logic dx, logic dy);
    logic [PW-1:0] a8, b8;
    a8 = {{(PW - pineda_pkg::IPGRAD_W - 8){p.a[pineda_pkg::IPGRAD_W-1]}}, p.a, 8'd0};
    b8 = {{(PW - pineda_pkg::IPGRAD_W - 8){p.b[pineda_pkg::IPGRAD_W-1]}}, p.b, 8'd0};
    plane_at = p.c + (dx ? a8 : '0) + (dy ? b8 : '0);
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
    fp32_from_int_p #(.W(PW)) u_fw (.clk_i, .rst_ni, .en_i(en_up), .a_i(pw_w[p]), .y_o(fw[p]));
    fp32_from_int_p #(.W(PW)) u_f1 (.clk_i, .rst_ni, .en_i(en_up), .a_i(pw_1[p]), .y_o(f1[p]));
    fp32_from_int_p #(.W(PW)) u_f2 (.clk_i, .rst_ni, .en_i(en_up), .a_i(pw_2[p]), .y_o(f2[p]));
  end

  always_comb begin
    s1_d      = s1_q;
    s1_wpos_d = s1_wpos_q;
    if (en_up) begin
      s1_d.quad    = s0_q;
      s1_d.quad.it = '0;  // not needed after INTERP
      s1_d.c0      = s0_q.it.c0;
      s1_d.c1      = s0_q.it.c1;
      s1_d.c2      = s0_q.it.c2;
      s1_d.t0      = s0_q.it.t0;
      s1_d.d1      = s0_q.it.d1;
      s1_d.d2      = s0_q.it.d2;
      for (int p = 0; p < 4; p++) s1_wpos_d[p] = !pw_w[p][PW-1] && (pw_w[p] != '0);
    end
  end

  // ---- S2: from_int, second half (in fp32_from_int_p); S3, S4: the reciprocal of W in two
  // halves (fp32_rcp_p), L1 and L2 wait beside it
  carry_t           s2_q, s2_d, s3_q, s3_d, s4_q, s4_d;
  logic [3:0]       s2_wpos_q, s2_wpos_d, s3_wpos_q, s3_wpos_d, s4_wpos_q, s4_wpos_d;
  logic [3:0][31:0] s3_f1_q, s3_f1_d, s3_f2_q, s3_f2_d, s4_f1_q, s4_f1_d, s4_f2_q, s4_f2_d;
  logic [3:0][31:0] rw;  // a register of S4
  for (genvar p = 0; p < 4; p++) begin : g_rcp
    fp32_rcp_p u_rcp (.clk_i, .rst_ni, .en_i(en_up), .a_i(fw[p]), .y_o(rw[p]));
  end
  always_comb begin
    s2_d      = s2_q;
    s2_wpos_d = s2_wpos_q;
    s3_d      = s3_q;
    s3_wpos_d = s3_wpos_q;
    s3_f1_d   = s3_f1_q;
    s3_f2_d   = s3_f2_q;
    s4_d      = s4_q;
    s4_wpos_d = s4_wpos_q;
    s4_f1_d   = s4_f1_q;
    s4_f2_d   = s4_f2_q;
    if (en_up) begin
      s2_d      = s1_q;
      s2_wpos_d = s1_wpos_q;
      s3_d      = s2_q;
      s3_wpos_d = s2_wpos_q;
      s3_f1_d   = f1;
      s3_f2_d   = f2;
      s4_d      = s3_q;
      s4_wpos_d = s3_wpos_q;
      s4_f1_d   = s3_f1_q;
      s4_f2_d   = s3_f2_q;
    end
  end

  // ---- S5: the perspective barycentrics
  carry_t           s5_q, s5_d;
  logic [3:0][31:0] s5_l1_q, s5_l1_d, s5_l2_q, s5_l2_d;
  logic [3:0][31:0] l1, l2;
  for (genvar p = 0; p < 4; p++) begin : g_s5
    fp32_mul u_l1 (.a_i(s4_f1_q[p]), .b_i(rw[p]), .y_o(l1[p]));
    fp32_mul u_l2 (.a_i(s4_f2_q[p]), .b_i(rw[p]), .y_o(l2[p]));
  end
  always_comb begin
    s5_d    = s5_q;
    s5_l1_d = s5_l1_q;
    s5_l2_d = s5_l2_q;
    if (en_up) begin
      s5_d = s4_q;
      for (int p = 0; p < 4; p++) begin
        s5_l1_d[p] = s4_wpos_q[p] ? l1[p] : 32'd0;
        s5_l2_d[p] = s4_wpos_q[p] ? l2[p] : 32'd0;
      end
    end
  end

  // ---- S6: the colour weights; texture coordinate products of uv0 (phase 0) or uv1 (phase 1)
  carry_t                s6_q, s6_d;
  logic [3:0][16:0]      s6_w1_q, s6_w1_d, s6_w2_q, s6_w2_d;
  logic [3:0][1:0][31:0] s6_m1_q, s6_m1_d, s6_m2_q, s6_m2_d;  // [pixel][component u, v]
  logic [3:0][24:0]      t1_fix, t2_fix;
  logic [3:0][1:0][31:0] m1, m2;
  logic [1:0][31:0]      d1c, d2c;  // components u, v of the phase's coordinate
  pineda_pkg::fvec2_t    d_f2;      // an element, then its fields (Yosys 0.55, yosys#2677)
  always_comb begin
    s5_two = !s5_q.quad.eop && s5_q.quad.om.comb.tex1;
    d_f2   = ph_q ? s5_q.d1[1] : s5_q.d1[0];
    d1c[0] = d_f2.u;
    d1c[1] = d_f2.v;
    d_f2   = ph_q ? s5_q.d2[1] : s5_q.d2[0];
    d2c[0] = d_f2.u;
    d2c[1] = d_f2.v;
  end
  for (genvar p = 0; p < 4; p++) begin : g_s6
    fp32_to_fix #(.FracBits(16), .W(25)) u_t1 (.a_i(s5_l1_q[p]), .y_o(t1_fix[p]));
    fp32_to_fix #(.FracBits(16), .W(25)) u_t2 (.a_i(s5_l2_q[p]), .y_o(t2_fix[p]));
    for (genvar j = 0; j < 2; j++) begin : g_comp
      fp32_mul u_m1 (.a_i(s5_l1_q[p]), .b_i(d1c[j]), .y_o(m1[p][j]));
      fp32_mul u_m2 (.a_i(s5_l2_q[p]), .b_i(d2c[j]), .y_o(m2[p][j]));
    end
  end

  // A 0.16 weight clamped to [0, 65536].
  function automatic logic [16:0] weight16(logic [24:0] t);
    if (t[24]) weight16 = '0;
    else if (t[23:0] > 24'd65536) weight16 = 17'd65536;
    else weight16 = t[16:0];
  endfunction

  always_comb begin
    s6_d    = s6_q;
    s6_w1_d = s6_w1_q;
    s6_w2_d = s6_w2_q;
    s6_m1_d = s6_m1_q;
    s6_m2_d = s6_m2_q;
    if (en) begin
      s6_d    = s5_q;
      s6_m1_d = m1;
      s6_m2_d = m2;
      for (int p = 0; p < 4; p++) begin
        s6_w1_d[p] = weight16(t1_fix[p]);
        s6_w2_d[p] = weight16(t2_fix[p]);
      end
    end
  end

  // ---- S7: colour; the sums of the products, first half; the phase's t0
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
  logic [1:0][31:0]      s7_t0_q, s7_t0_d, s8_t0_q, s8_t0_d;  // [component u, v]
  logic [3:0][1:0][31:0] sum, uv;       // [pixel][component u, v]: registers of S8, S10
  logic [3:0][63:0]      s10_uv0_q, s10_uv0_d;  // uv0 of a two-clock quad, beside its uv1
  pineda_pkg::fvec2_t    t_f2;
  for (genvar p = 0; p < 4; p++) begin : g_s7
    for (genvar j = 0; j < 2; j++) begin : g_comp
      fp32_add_p u_sum (.clk_i, .rst_ni, .en_i(en), .a_i(s6_m1_q[p][j]), .b_i(s6_m2_q[p][j]),
                        .y_o(sum[p][j]));
      fp32_add_p u_uv (.clk_i, .rst_ni, .en_i(en), .a_i(s8_t0_q[j]), .b_i(sum[p][j]),
                       .y_o(uv[p][j]));
    end
  end
  always_comb begin
    s7_quad_d   = s7_quad_q;
    s7_color_d  = s7_color_q;
    s7_t0_d     = s7_t0_q;
    s8_quad_d   = s8_quad_q;
    s8_color_d  = s8_color_q;
    s8_t0_d     = s8_t0_q;
    s9_quad_d   = s9_quad_q;
    s9_color_d  = s9_color_q;
    s10_quad_d  = s10_quad_q;
    s10_color_d = s10_color_q;
    s10_uv0_d   = s10_uv0_q;
    t_f2        = phs_q[6] ? s6_q.t0[1] : s6_q.t0[0];
    if (en) begin
      s7_quad_d = s6_q.quad;
      for (int p = 0; p < 4; p++) begin
        s7_color_d[p] = s6_q.quad.om.gouraud
                      ? lerp_color(s6_q.c0, s6_q.c1, s6_q.c2, s6_w1_q[p], s6_w2_q[p])
                      : s6_q.quad.color;
      end
      s7_t0_d[0]  = t_f2.u;
      s7_t0_d[1]  = t_f2.v;
      s8_quad_d   = s7_quad_q;
      s8_color_d  = s7_color_q;
      s8_t0_d     = s7_t0_q;
      s9_quad_d   = s8_quad_q;
      s9_color_d  = s8_color_q;
      s10_quad_d  = s9_quad_q;
      s10_color_d = s9_color_q;
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
      s2_q        <= '0;
      s2_wpos_q   <= '0;
      s3_q        <= '0;
      s3_wpos_q   <= '0;
      s3_f1_q     <= '0;
      s3_f2_q     <= '0;
      s4_q        <= '0;
      s4_wpos_q   <= '0;
      s4_f1_q     <= '0;
      s4_f2_q     <= '0;
      s5_q        <= '0;
      s5_l1_q     <= '0;
      s5_l2_q     <= '0;
      s6_q        <= '0;
      s6_w1_q     <= '0;
      s6_w2_q     <= '0;
      s6_m1_q     <= '0;
      s6_m2_q     <= '0;
      s7_quad_q   <= '0;
      s7_color_q  <= '0;
      s7_t0_q     <= '0;
      s8_quad_q   <= '0;
      s8_color_q  <= '0;
      s8_t0_q     <= '0;
      s9_quad_q   <= '0;
      s9_color_q  <= '0;
      s10_quad_q  <= '0;
      s10_color_q <= '0;
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
      s2_q        <= s2_d;
      s2_wpos_q   <= s2_wpos_d;
      s3_q        <= s3_d;
      s3_wpos_q   <= s3_wpos_d;
      s3_f1_q     <= s3_f1_d;
      s3_f2_q     <= s3_f2_d;
      s4_q        <= s4_d;
      s4_wpos_q   <= s4_wpos_d;
      s4_f1_q     <= s4_f1_d;
      s4_f2_q     <= s4_f2_d;
      s5_q        <= s5_d;
      s5_l1_q     <= s5_l1_d;
      s5_l2_q     <= s5_l2_d;
      s6_q        <= s6_d;
      s6_w1_q     <= s6_w1_d;
      s6_w2_q     <= s6_w2_d;
      s6_m1_q     <= s6_m1_d;
      s6_m2_q     <= s6_m2_d;
      s7_quad_q   <= s7_quad_d;
      s7_color_q  <= s7_color_d;
      s7_t0_q     <= s7_t0_d;
      s8_quad_q   <= s8_quad_d;
      s8_color_q  <= s8_color_d;
      s8_t0_q     <= s8_t0_d;
      s9_quad_q   <= s9_quad_d;
      s9_color_q  <= s9_color_d;
      s10_quad_q  <= s10_quad_d;
      s10_color_q <= s10_color_d;
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
