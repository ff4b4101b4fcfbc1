// SPDX-License-Identifier: Apache-2.0
// fp32_rcp: y = 1/a correctly rounded (round to nearest even), with the FP32 rules of
// docs/numerics.md §7: denormal inputs read as zero (1/+-0 = +-Inf), 1/+-Inf = +-0, NaN ->
// FP32_QNAN, tiny results flushed to a zero of the input's sign. So y equals IEEE 1.0f/a under
// FTZ|DAZ for every a (max error 0.5 ulp). C++ twin: fp32::rcp in cpp_model/common/fp32.cpp.
//
// For a = M * 2^(e-127), M = m / 2^23 in (1, 2): 1/a = (2/M) * 2^(126-e) and 2/M = q / 2^24
// with q = floor(2^48 / m), 25 bits (24-bit significand and the guard bit); the remainder
// gives the sticky. q comes from a restoring division, one quotient bit per row (25 rows of a
// 25-bit subtract and select). A power of two (m = 2^23) is exact: 2^(127-e).
// Combinational (latency 0); the rows are regular, so a user that needs a clock rate can cut
// them into pipeline stages without changing any result.
module fp32_rcp (
  input  logic [31:0] a_i,
  output logic [31:0] y_o
);

  logic              a_nan, a_inf, a_zero, pow2;
  logic [24:0]       divisor;
  logic [24:0]       rem;
  logic [24:0]       quo;
  logic [24:0]       trial;
  logic signed [9:0] exp_n, exp_p2;
  logic [31:0]       rounded;

  always_comb begin
    // 1. Specials (a denormal is a zero).
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    pow2   = (a_i[22:0] == 23'd0);

    // 2. q = floor(2^48 / m) by restoring division. The partial remainder starts at 2^23
    //    (< m when m > 2^23) and stays below m, so 2 * rem fits 25 bits.
    divisor = {2'b01, a_i[22:0]};
    rem     = 25'h080_0000;
    quo     = '0;
    trial   = '0;
    for (int i = 24; i >= 0; i--) begin
      rem   = {rem[23:0], 1'b0};
      trial = rem - divisor;
      quo[i] = (rem >= divisor);
      if (quo[i]) begin
        rem = trial;
      end
    end
    exp_n  = 10'sd253 - $signed({2'b00, a_i[30:23]});
    exp_p2 = 10'sd254 - $signed({2'b00, a_i[30:23]});
  end

  always_comb begin
    // 3. Rounding in fp32_round; specials and powers of two override it.
    if (a_nan) begin
      y_o = pineda_pkg::FP32_QNAN;
    end else if (a_inf) begin
      y_o = {a_i[31], 31'd0};
    end else if (a_zero) begin
      y_o = {a_i[31], 8'hFF, 23'd0};
    end else if (pow2) begin
      y_o = (exp_p2 <= 10'sd0) ? {a_i[31], 31'd0} : {a_i[31], exp_p2[7:0], 23'd0};
    end else begin
      y_o = rounded;
    end
  end

  fp32_round u_round (
    .sign_i  (a_i[31]),
    .exp_i   (exp_n),
    .sig_i   (quo[24:1]),
    .guard_i (quo[0]),
    .sticky_i(rem != 25'd0),
    .y_o     (rounded)
  );

endmodule
