// SPDX-License-Identifier: Apache-2.0
// fp32_to_fix: y = a * 2^FracBits rounded to nearest even to a W-bit signed integer, saturated
// to [-(2^(W-1) - 1), 2^(W-1) - 1]; NaN, zeros and denormals -> 0, +-Inf saturate
// (docs/numerics.md §9). C++ twin: fp32::to_fix in cpp_model/common/fp32.cpp.
//
// a * 2^FracBits = m * 2^(e - 150 + FracBits); with 27 fraction bits kept, m is shifted left by
// l = e - 123 + FracBits: l < 0 rounds to 0, l >= W + 3 saturates, else the integer part,
// guard bit and sticky of m << l are rounded to nearest even. Combinational.
module fp32_to_fix #(
  parameter int unsigned FracBits = 16,
  parameter int unsigned W        = 57   // 25 .. 63
) (
  input  logic [31:0]  a_i,
  output logic [W-1:0] y_o
);

  localparam int unsigned VW = W + 26;  // m << l for l <= W + 2

  logic             a_nan, a_inf, a_zero;
  logic signed [9:0] l;
  logic [VW-1:0]    v;
  logic [W-1:0]     mag;   // W-1 integer bits and a carry
  logic             guard, sticky, sat;
  logic [W-1:0]     vmax;

  always_comb begin
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    l      = $signed({2'b00, a_i[30:23]}) - 10'sd123 + 10'(FracBits);
    v      = '0;
    if ((l >= 10'sd0) && (l < 10'(W + 3))) v = VW'({1'b1, a_i[22:0]}) << l[6:0];
    mag    = {1'b0, v[VW-1:27]};
    guard  = v[26];
    sticky = |v[25:0];
    mag    = mag + {{(W - 1){1'b0}}, guard & (sticky | mag[0])};
    vmax   = {1'b0, {(W - 1){1'b1}}};
    sat    = a_inf || (!a_nan && !a_zero && (l >= 10'(W + 3))) || (mag > vmax);
    if (a_nan || a_zero || (l < 10'sd0)) begin
      y_o = '0;
    end else if (sat) begin
      y_o = a_i[31] ? -vmax : vmax;
    end else begin
      y_o = a_i[31] ? -mag : mag;
    end
  end

endmodule
