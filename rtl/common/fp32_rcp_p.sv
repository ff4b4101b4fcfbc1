// SPDX-License-Identifier: Apache-2.0
// fp32_rcp_p: fp32_rcp (y = 1/a correctly rounded, same bits for every input: docs/numerics.md
// §7.3) in two pipeline stages, a new operation every clock, the result 2 clocks after its
// operand (latency 2); en_i low holds both stages (a stall: tie it to 1 in a pipeline that never
// stops). The restoring division's 25 rows are cut after row 12: stage 1
// computes quotient bits 24..12 and the partial remainder, stage 2 bits 11..0, the rounding
// (fp32_round) and the special-case select. y_o is a register.
module fp32_rcp_p (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  output logic [31:0] y_o
);

  typedef struct packed {
    pineda_pkg::fp32_spec_t spec;  // valid: the result is spec.val (NaN, Inf, zero, power of two)
    logic        sign;
    logic [9:0]  exp_n;     // 253 - the biased exponent
    logic [22:0] frac;      // a's fraction (the divisor)
    logic [24:0] rem;       // partial remainder after row 12
    logic [12:0] quo_hi;    // quotient bits 24..12
  } s1_t;

  s1_t         s1_q, s1_d;

  logic              a_nan, a_inf, a_zero, pow2;
  logic [24:0]       divisor1, rem1, trial1;
  logic signed [9:0] exp_p2;

  always_comb begin
    s1_d   = '0;
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    pow2   = (a_i[22:0] == 23'd0);
    exp_p2 = 10'sd254 - $signed({2'b00, a_i[30:23]});
    s1_d.spec.valid = 1'b1;
    if (a_nan) begin
      s1_d.spec.val = pineda_pkg::FP32_QNAN;
    end else if (a_inf) begin
      s1_d.spec.val = {a_i[31], 31'd0};
    end else if (a_zero) begin
      s1_d.spec.val = {a_i[31], 8'hFF, 23'd0};
    end else if (pow2) begin
      s1_d.spec.val = (exp_p2 <= 10'sd0) ? {a_i[31], 31'd0} : {a_i[31], exp_p2[7:0], 23'd0};
    end else begin
      s1_d.spec.valid = 1'b0;
      s1_d.spec.val = 32'd0;
    end
    s1_d.sign  = a_i[31];
    s1_d.exp_n = 10'(10'sd253 - $signed({2'b00, a_i[30:23]}));
    s1_d.frac  = a_i[22:0];
    divisor1   = {2'b01, a_i[22:0]};
    rem1       = 25'h080_0000;
    trial1     = '0;
    for (int i = 24; i >= 12; i--) begin
      rem1   = {rem1[23:0], 1'b0};
      trial1 = rem1 - divisor1;
      s1_d.quo_hi[i - 12] = (rem1 >= divisor1);
      if (rem1 >= divisor1) begin
        rem1 = trial1;
      end
    end
    s1_d.rem = rem1;
  end

  // Stage 1 -> 2 register (holds while en_i is low)
  flop_en #(.Width($bits(s1_d))) u_s1 (.clk_i, .rst_ni, .en_i, .d_i(s1_d), .q_o(s1_q));

  // Stage 2
  logic [24:0] divisor2, rem2, trial2, quo;

  always_comb begin
    divisor2 = {2'b01, s1_q.frac};
    rem2     = s1_q.rem;
    trial2   = '0;
    quo      = {s1_q.quo_hi, 12'd0};
    for (int i = 11; i >= 0; i--) begin
      rem2   = {rem2[23:0], 1'b0};
      trial2 = rem2 - divisor2;
      quo[i] = (rem2 >= divisor2);
      if (quo[i]) begin
        rem2 = trial2;
      end
    end
  end

  fp32_round_q u_round (
    .clk_i, .rst_ni, .en_i,
    .spec_i    (s1_q.spec),
    .sign_i    (s1_q.sign),
    .exp_i     ($signed(s1_q.exp_n)),
    .sig_i     (quo[24:1]),
    .guard_i   (quo[0]),
    .sticky_i  (rem2 != 25'd0),
    .y_o
  );

endmodule
