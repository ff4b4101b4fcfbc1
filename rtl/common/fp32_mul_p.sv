// SPDX-License-Identifier: Apache-2.0
// fp32_mul_p: fp32_mul (y = a * b, same bits for every input: docs/numerics.md §7) in two
// pipeline stages, a new operation every clock, the result 2 clocks after its operands
// (latency 2); en_i low holds both stages (a stall: tie it to 1 in a pipeline that never
// stops). Stage 1: specials and the 24 x 24 product; stage 2: the 1-bit
// normalisation, rounding (fp32_round) and the special-case select. y_o is a register.
module fp32_mul_p (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  typedef struct packed {
    pineda_pkg::fp32_spec_t spec;  // valid: the result is spec.val (NaN, Inf, a zero operand)
    logic        sign;
    logic [9:0]  exp;       // a's + b's biased exponent - 127
    logic [47:0] prod;      // the significands' product, in [2^46, 2^48)
  } s1_t;

  s1_t         s1_q, s1_d;
  logic        a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;

  always_comb begin
    s1_d      = '0;
    s1_d.sign = a_i[31] ^ b_i[31];
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    b_nan  = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    b_inf  = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    b_zero = (b_i[30:23] == 8'h00);
    s1_d.spec.valid = 1'b1;
    if (a_nan || b_nan || ((a_inf || b_inf) && (a_zero || b_zero))) begin
      s1_d.spec.val = pineda_pkg::FP32_QNAN;
    end else if (a_inf || b_inf) begin
      s1_d.spec.val = {s1_d.sign, 8'hFF, 23'd0};
    end else if (a_zero || b_zero) begin
      s1_d.spec.val = {s1_d.sign, 31'd0};
    end else begin
      s1_d.spec.valid = 1'b0;
      s1_d.spec.val = 32'd0;
    end
    s1_d.prod = 48'({1'b1, a_i[22:0]}) * 48'({1'b1, b_i[22:0]});
    s1_d.exp  = 10'($signed({2'b00, a_i[30:23]}) + $signed({2'b00, b_i[30:23]}) - 10'sd127);
  end

  // Stage 1 -> 2 register (holds while en_i is low)
  flop_en #(.Width($bits(s1_d))) u_s1 (.clk_i, .rst_ni, .en_i, .d_i(s1_d), .q_o(s1_q));

  // Stage 2
  logic signed [9:0] exp_n;
  logic [23:0]       sig;
  logic              guard, sticky;

  always_comb begin
    exp_n = $signed(s1_q.exp);
    if (s1_q.prod[47]) begin
      exp_n  = exp_n + 10'sd1;
      sig    = s1_q.prod[47:24];
      guard  = s1_q.prod[23];
      sticky = |s1_q.prod[22:0];
    end else begin
      sig    = s1_q.prod[46:23];
      guard  = s1_q.prod[22];
      sticky = |s1_q.prod[21:0];
    end
  end

  fp32_round_q u_round (
    .clk_i, .rst_ni, .en_i,
    .spec_i    (s1_q.spec),
    .sign_i    (s1_q.sign),
    .exp_i     (exp_n),
    .sig_i     (sig),
    .guard_i   (guard),
    .sticky_i  (sticky),
    .y_o
  );

endmodule
