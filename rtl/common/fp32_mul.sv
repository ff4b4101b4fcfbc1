// SPDX-License-Identifier: Apache-2.0
// fp32_mul: y = a * b, IEEE-754 binary32, round to nearest even, denormal inputs read as zero,
// tiny results flushed to a zero with the product's sign, overflow to Inf, every NaN result
// FP32_QNAN (docs/numerics.md §7; C++ twin: fp32::mul in cpp_model/common/fp32.cpp).
// Combinational (latency 0): one 24xBSigW multiplier, a 1-bit normalisation and the rounding.
// BSigW < 24 is for a client whose b_i always has at most BSigW significant significand bits
// (its mantissa's low 24 - BSigW bits are zero, e.g. a float made from a 13-bit integer): the
// product is then the same 48 bits from a narrower multiplier, so the result is unchanged.
module fp32_mul #(
  parameter int unsigned BSigW = 24  // significant bits of b_i's significand (hidden bit included), 1..24
) (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  logic              sign;
  logic              a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  logic [47:0]       prod;
  logic signed [9:0] exp_n;
  logic [23:0]       sig;
  logic              guard, sticky;
  logic [31:0]       rounded;

  always_comb begin
    // 1. Specials (a denormal is a zero).
    sign   = a_i[31] ^ b_i[31];
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    b_nan  = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    b_inf  = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    b_zero = (b_i[30:23] == 8'h00);

    // 2. 24 x 24 -> 48-bit product in [2^46, 2^48), normalised by at most one bit.
    prod  = (48'({1'b1, a_i[22:0]}) * 48'({1'b1, b_i[22:24-BSigW]})) << (24 - BSigW);
    exp_n = $signed({2'b00, a_i[30:23]}) + $signed({2'b00, b_i[30:23]}) - 10'sd127;
    if (prod[47]) begin
      exp_n  = exp_n + 10'sd1;
      sig    = prod[47:24];
      guard  = prod[23];
      sticky = |prod[22:0];
    end else begin
      sig    = prod[46:23];
      guard  = prod[22];
      sticky = |prod[21:0];
    end
  end

  always_comb begin
    // 3. Rounding in fp32_round; specials override it.
    if (a_nan || b_nan || ((a_inf || b_inf) && (a_zero || b_zero))) begin
      y_o = pineda_pkg::FP32_QNAN;
    end else if (a_inf || b_inf) begin
      y_o = {sign, 8'hFF, 23'd0};
    end else if (a_zero || b_zero) begin
      y_o = {sign, 31'd0};
    end else begin
      y_o = rounded;
    end
  end

  fp32_round u_round (
    .sign_i  (sign),
    .exp_i   (exp_n),
    .sig_i   (sig),
    .guard_i (guard),
    .sticky_i(sticky),
    .y_o     (rounded)
  );

endmodule
