// SPDX-License-Identifier: Apache-2.0
// flop_en: a register with a load enable. q_o takes d_i at a clock edge where en_i is set and
// holds otherwise; reset clears it. The stage registers of the pipelined FP32 operators
// (fp32_add_p, fp32_mul_p, fp32_rcp_p, fp32_from_int_p, fp32_round_q), whose en_i is the user
// pipeline's stall: one definition of "a stage that holds while stalled".
module flop_en #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);

  logic [Width-1:0] q_q, q_d;

  always_comb begin
    q_d = q_q;
    if (en_i) q_d = d_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q <= '0;
    end else begin
      q_q <= q_d;
    end
  end

  assign q_o = q_q;

endmodule
