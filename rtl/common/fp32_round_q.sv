// SPDX-License-Identifier: Apache-2.0
// fp32_round_q: the shared last stage of the pipelined FP32 operators (fp32_add_p, fp32_mul_p,
// fp32_rcp_p, fp32_from_int_p): fp32_round of the normalised significand, the special-case select
// (spec_i.valid: the result is spec_i.val, e.g. NaN, Inf or a zero operand; the operators' first
// stages carry it as one pineda_pkg::fp32_spec_t) and the output register y_o, one
// result every clock in which en_i is set (en_i low holds y_o: the stall of the user's pipeline).
module fp32_round_q (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              en_i,
  input  pineda_pkg::fp32_spec_t spec_i,
  // fp32_round's operands (sig_i[23] set unless spec_i)
  input  logic              sign_i,
  input  logic signed [9:0] exp_i,
  input  logic [23:0]       sig_i,
  input  logic              guard_i,
  input  logic              sticky_i,
  output logic [31:0]       y_o
);

  logic [31:0] rounded;

  fp32_round u_round (
    .sign_i,
    .exp_i,
    .sig_i,
    .guard_i,
    .sticky_i,
    .y_o     (rounded)
  );

  flop_en #(.Width(32)) u_y (
    .clk_i,
    .rst_ni,
    .en_i,
    .d_i   (spec_i.valid ? spec_i.val : rounded),
    .q_o   (y_o)
  );

endmodule
