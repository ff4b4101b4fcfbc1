// SPDX-License-Identifier: Apache-2.0
// fp32_round: the last step of every FP32 operation (docs/numerics.md §7; the C++ twin is
// round_pack in cpp_model/common/fp32.cpp). Combinational.
//
// Rounds a normalised 24-bit significand (sig_i[23] set) with its guard bit and sticky (the OR
// of every lower bit) to nearest even, then packs it with the biased exponent exp_i of sig_i:
// a rounded exponent >= 255 gives +-Inf, one <= 0 gives a zero with sign_i (flush to zero,
// tininess detected after rounding).
module fp32_round (
  input  logic              sign_i,
  input  logic signed [9:0] exp_i,
  input  logic [23:0]       sig_i,
  input  logic              guard_i,
  input  logic              sticky_i,
  output logic [31:0]       y_o
);

  logic [24:0]       sig_r;
  logic signed [9:0] exp_r;

  always_comb begin
    sig_r = {1'b0, sig_i} + {24'd0, guard_i & (sticky_i | sig_i[0])};
    exp_r = exp_i;
    // 1.11..1 + ulp = 10.00..0: one more in the exponent; the fraction bits are 0 either way.
    if (sig_r[24]) begin
      exp_r = exp_i + 10'sd1;
    end
    if (exp_r >= 10'sd255) begin
      y_o = {sign_i, 8'hFF, 23'd0};
    end else if (exp_r <= 10'sd0) begin
      y_o = {sign_i, 31'd0};
    end else begin
      y_o = {sign_i, exp_r[7:0], sig_r[22:0]};
    end
  end

  logic unused_sig;
  assign unused_sig = sig_r[23];  // the hidden bit

endmodule
