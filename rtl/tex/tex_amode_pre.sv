// SPDX-License-Identifier: Apache-2.0
// tex_amode_pre: the first half of stage E (docs/tex.md section 4 step 8, section 7 step 5),
// combinational: per pixel and axis the integer index i0 of the tap pair, the modulus of its
// address mode (the level size n, 2n for MIRROR) and the remainder of the first division steps
// (dividend bits 16..Split) of a mod modulus, a = i0 for i0 >= 0, else -1 - i0 (= ~i0): then
// i0 mod m = m - 1 - (a mod m). tex_amode finishes the division and applies the mode.
module tex_amode_pre #(
  parameter int unsigned Split = 8   // the lowest dividend bit divided here
) (
  input  logic [3:0][23:0]       x_i,       // pixel p's u * w_l (fix16.8)
  input  logic [3:0][23:0]       y_i,       // pixel p's v * h_l
  input  logic                   linear_i,  // bilinear: taps at coordinate - 0.5
  input  logic [12:0]            lw_i,      // the pass's level size (lvl_dim)
  input  logic [12:0]            lh_i,
  input  logic [2:0]             addr_u_i,  // TEX_ADDR_*
  input  logic [2:0]             addr_v_i,
  output logic [3:0][16:0]       iu_o,      // [p]: i0 along u (signed)
  output logic [3:0][16:0]       iv_o,
  output logic [13:0]            du_o,      // modulus along u: lw, or 2 lw for MIRROR
  output logic [13:0]            dv_o,
  output logic [3:0][13:0]       ru_o,      // [p]: remainder of a's bits 16..Split mod du
  output logic [3:0][13:0]       rv_o,
  output logic [3:0][7:0]        fu_o,      // bilinear fractions
  output logic [3:0][7:0]        fv_o
);
  logic [3:0][24:0] ax, ay;
  logic [3:0][16:0] au, av;
  always_comb begin
    du_o = (addr_u_i == pineda_pkg::TEX_ADDR_MIRROR) ? {lw_i, 1'b0} : {1'b0, lw_i};
    dv_o = (addr_v_i == pineda_pkg::TEX_ADDR_MIRROR) ? {lh_i, 1'b0} : {1'b0, lh_i};
    for (int p = 0; p < 4; p++) begin
      ax[p] = 25'($signed(x_i[p])) - (linear_i ? 25'd128 : 25'd0);
      ay[p] = 25'($signed(y_i[p])) - (linear_i ? 25'd128 : 25'd0);
      iu_o[p] = 17'($signed(ax[p]) >>> 8);
      iv_o[p] = 17'($signed(ay[p]) >>> 8);
      au[p] = iu_o[p][16] ? ~iu_o[p] : iu_o[p];
      av[p] = iv_o[p][16] ? ~iv_o[p] : iv_o[p];
      fu_o[p] = ax[p][7:0];
      fv_o[p] = ay[p][7:0];
    end
  end

  for (genvar p = 0; p < 4; p++) begin : g_div
    tex_amode_div #(.Hi(16), .Lo(Split)) u_du (.a_i(au[p]), .d_i(du_o), .r_i(14'd0), .r_o(ru_o[p]));
    tex_amode_div #(.Hi(16), .Lo(Split)) u_dv (.a_i(av[p]), .d_i(dv_o), .r_i(14'd0), .r_o(rv_o[p]));
  end

  logic unused_sig;
  assign unused_sig = ^{ax, ay};
endmodule
