// SPDX-License-Identifier: Apache-2.0
// tex_amode: stage E of the sampler (docs/tex.md section 4 step 8, section 7 step 5),
// combinational: per pixel and axis the texel index of the tap pair i0, i0 + 1 at the pass's
// level after the address mode, with one modulo per pixel and axis (i0 + 1 derived from i0's
// remainder), the "in" flags (0: the tap reads the border) and the bilinear fractions.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_amode (
  input  logic [3:0][23:0]       x_i,       // pixel p's u * w_l (fix16.8)
  input  logic [3:0][23:0]       y_i,       // pixel p's v * h_l
  input  logic                   linear_i,  // bilinear: taps at coordinate - 0.5
  input  logic [15:0]            width_i,   // level-0 size
  input  logic [15:0]            height_i,
  input  logic [3:0]             lvl_i,     // the pass's level
  input  logic [2:0]             addr_u_i,  // TEX_ADDR_*
  input  logic [2:0]             addr_v_i,
  output logic [3:0][1:0][12:0]  xi_o,      // [p][k]: column of tap k (i0 + k)
  output logic [3:0][1:0]        inu_o,
  output logic [3:0][1:0][12:0]  yj_o,      // [p][k]: row of tap k
  output logic [3:0][1:0]        inv_o,
  output logic [3:0][7:0]        fu_o,      // bilinear fractions
  output logic [3:0][7:0]        fv_o
);

  function automatic logic [12:0] lvl_dim(input logic [15:0] d, input logic [3:0] l);
    logic [15:0] s;
    s = d >> l;
    lvl_dim = (s == 16'd0) ? 13'd1 : s[12:0];
  endfunction

  // Non-negative i mod n, i signed 17-bit, 1 <= n <= 8192.
  function automatic logic [13:0] pmod(input logic signed [16:0] i, input logic [13:0] n);
    logic [16:0] a, r;
    if (i < 0) begin
      a = 17'(-i);
      r = a % {3'd0, n};
      pmod = (r == 17'd0) ? 14'd0 : 14'({3'd0, n} - r);
    end else begin
      a = i;
      pmod = 14'(a % {3'd0, n});
    end
  endfunction

  // Address mode of i and i + 1 with one modulo:
  // {in(i + 1), index(i + 1), in(i), index(i)}; in = 0: the tap reads the border.
  function automatic logic [29:0] amode2(input logic signed [16:0] i, input logic [12:0] n, input logic [2:0] mode);
    logic [13:0] m0, m1, r0, r1, n1, n2;
    logic signed [16:0] last, i1, j0, j1;
    logic in0, in1;
    last = $signed({4'd0, n}) - 17'sd1;
    i1 = i + 17'sd1;
    n1 = {1'b0, n};
    n2 = {n, 1'b0};
    in0 = 1'b1;
    in1 = 1'b1;
    r0 = 14'd0;
    r1 = 14'd0;
    m0 = 14'd0;
    m1 = 14'd0;
    j0 = 17'sd0;
    j1 = 17'sd0;
    unique case (mode)
      pineda_pkg::TEX_ADDR_WRAP: begin
        r0 = pmod(i, n1);
        r1 = (r0 + 14'd1 == n1) ? 14'd0 : r0 + 14'd1;
      end
      pineda_pkg::TEX_ADDR_MIRROR: begin
        m0 = pmod(i, n2);
        m1 = (m0 + 14'd1 == n2) ? 14'd0 : m0 + 14'd1;
        r0 = (m0 < n1) ? m0 : 14'(n2 - 14'd1 - m0);
        r1 = (m1 < n1) ? m1 : 14'(n2 - 14'd1 - m1);
      end
      pineda_pkg::TEX_ADDR_CLAMP: begin
        r0 = (i < 0) ? 14'd0 : ((i > last) ? last[13:0] : i[13:0]);
        r1 = (i1 < 0) ? 14'd0 : ((i1 > last) ? last[13:0] : i1[13:0]);
      end
      pineda_pkg::TEX_ADDR_BORDER: begin  // inside: the texel itself; outside: the border
        in0 = (i >= 0) && (i <= last);
        in1 = (i1 >= 0) && (i1 <= last);
        r0  = in0 ? i[13:0] : 14'd0;
        r1  = in1 ? i1[13:0] : 14'd0;
      end
      default: begin
        j0 = (i < 0) ? (-17'sd1 - i) : i;
        j1 = (i1 < 0) ? (-17'sd1 - i1) : i1;
        r0 = (j0 > last) ? last[13:0] : j0[13:0];
        r1 = (j1 > last) ? last[13:0] : j1[13:0];
      end
    endcase
    amode2 = {in1, r1, in0, r0};
  endfunction

  logic [3:0][29:0] am_u, am_v;
  logic [3:0][24:0] ax, ay;
  logic [12:0] lw, lh;
  always_comb begin
    lw = lvl_dim(width_i, lvl_i);
    lh = lvl_dim(height_i, lvl_i);
    for (int p = 0; p < 4; p++) begin
      ax[p] = 25'($signed(x_i[p])) - (linear_i ? 25'd128 : 25'd0);
      ay[p] = 25'($signed(y_i[p])) - (linear_i ? 25'd128 : 25'd0);
      am_u[p] = amode2(17'($signed(ax[p]) >>> 8), lw, addr_u_i);
      am_v[p] = amode2(17'($signed(ay[p]) >>> 8), lh, addr_v_i);
      xi_o[p][0] = am_u[p][12:0];
      xi_o[p][1] = am_u[p][27:15];
      inu_o[p][0] = am_u[p][14];
      inu_o[p][1] = am_u[p][29];
      yj_o[p][0] = am_v[p][12:0];
      yj_o[p][1] = am_v[p][27:15];
      inv_o[p][0] = am_v[p][14];
      inv_o[p][1] = am_v[p][29];
      fu_o[p] = ax[p][7:0];
      fv_o[p] = ay[p][7:0];
    end
  end

  logic unused_sig;
  assign unused_sig = ^{am_u, am_v, ax, ay};

endmodule
