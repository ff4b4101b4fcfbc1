// SPDX-License-Identifier: Apache-2.0
// fp32_from_int_p: fp32_from_int (a W-bit signed integer rounded to nearest even to FP32, same
// bits for every input: docs/numerics.md §9) in two pipeline stages, a new operation every clock
// in which en_i is set, the result 2 such clocks after its operand (latency 2); en_i low holds
// both stages (a stall). Stage 1: the magnitude (a negation) and its leading-zero count;
// stage 2: the normalising shift, guard and sticky, the rounding (fp32_round) and the zero
// select. y_o is a register. scale_i (signed, with a_i) offsets the exponent: y = a_i * 2^scale_i
// rounded the same way, below 2^-126 a zero of a_i's sign (FTZ), from 2^128 +-Inf
// (fp32::from_int128_scaled; 0 for plain from_int).
module fp32_from_int_p #(
  parameter int unsigned W = 51   // 26 .. 127
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,
  input  logic [W-1:0] a_i,
  input  logic [9:0]   scale_i,
  output logic [31:0]  y_o
);

  // stage 1 -> 2
  typedef struct packed {
    logic         sign;
    logic         zero;   // a_i == 0: the result is +0
    logic [6:0]   lz;     // leading zeros of mag
    logic [9:0]   scale;  // scale_i
    logic [W-1:0] mag;    // |a_i| (-2^(W-1) stays 2^(W-1) as unsigned)
  } s1_t;

  s1_t s1_q, s1_d;

  always_comb begin
    s1_d      = '0;
    s1_d.sign = a_i[W-1];
    s1_d.mag  = a_i[W-1] ? -a_i : a_i;
    s1_d.zero = (a_i == '0);
    s1_d.scale = scale_i;
    s1_d.lz   = 7'(W);
    for (int i = 0; i < W; i++) begin
      if (s1_d.mag[i]) s1_d.lz = 7'(W - 1 - i);
    end
  end

  // Stage 1 -> 2 register (holds while en_i is low)
  flop_en #(.Width($bits(s1_d))) u_s1 (.clk_i, .rst_ni, .en_i, .d_i(s1_d), .q_o(s1_q));

  // Stage 2
  logic [W-1:0]      norm;
  logic signed [9:0] exp;

  always_comb begin
    norm = s1_q.mag << s1_q.lz;
    exp  = 10'sd127 + 10'(W - 1) - $signed({3'd0, s1_q.lz}) + $signed(s1_q.scale);
  end

  fp32_round_q u_round (
    .clk_i, .rst_ni, .en_i,
    .spec_i    ({s1_q.zero, 32'd0}),
    .sign_i    (s1_q.sign),
    .exp_i     (exp),
    .sig_i     (norm[W-1:W-24]),
    .guard_i   (norm[W-25]),
    .sticky_i  (|norm[W-26:0]),
    .y_o
  );

endmodule
