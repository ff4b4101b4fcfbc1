// SPDX-License-Identifier: Apache-2.0
// pa_dist_p: the signed distances of one clip-space position to the seven clip planes and its
// clip code (docs/numerics.md §8.1) in two pipeline stages: a new position
// every clock, its distances and code 2 clocks later (latency 2, no stall). Each distance is one
// fp32_add_p; the NEAR distance z is delayed to match.
module pa_dist_p (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [31:0]       x_i,
  input  logic [31:0]       y_i,
  input  logic [31:0]       z_i,
  input  logic [31:0]       w_i,
  output logic [6:0][31:0]  d_o,
  output logic [6:0]        out_o
);

  logic [31:0] w2, neg_eps, neg_z, neg_x, neg_y;
  logic [1:0][31:0] z_q, z_d;

  // 2w exactly as fp32 mul(w, 2.0) (docs/numerics.md §8.1)
  always_comb begin
    if (w_i[30:23] == 8'h00) begin
      w2 = {w_i[31], 31'd0};
    end else if (w_i[30:23] == 8'hFF && w_i[22:0] != 23'd0) begin
      w2 = pineda_pkg::FP32_QNAN;
    end else if (w_i[30:23] >= 8'hFE) begin
      w2 = {w_i[31], 8'hFF, 23'd0};
    end else begin
      w2 = {w_i[31], w_i[30:23] + 8'd1, w_i[22:0]};
    end
    neg_eps = pineda_pkg::PA_CLIP_EPS ^ 32'h8000_0000;
    neg_z   = z_i ^ 32'h8000_0000;
    neg_x   = x_i ^ 32'h8000_0000;
    neg_y   = y_i ^ 32'h8000_0000;
    z_d     = {z_q[0], z_i};
  end

  fp32_add_p u_w   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w_i), .b_i(neg_eps), .y_o(d_o[0]));
  fp32_add_p u_far (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w_i), .b_i(neg_z),   .y_o(d_o[2]));
  fp32_add_p u_l   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w2),  .b_i(x_i),     .y_o(d_o[3]));
  fp32_add_p u_r   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w2),  .b_i(neg_x),   .y_o(d_o[4]));
  fp32_add_p u_b   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w2),  .b_i(y_i),     .y_o(d_o[5]));
  fp32_add_p u_t   (.clk_i, .rst_ni, .en_i(1'b1), .a_i(w2),  .b_i(neg_y),   .y_o(d_o[6]));
  assign d_o[1] = z_q[1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) z_q <= '0;
    else         z_q <= z_d;
  end

  always_comb begin
    for (int p = 0; p < 7; p++) begin
      out_o[p] = ((d_o[p][30:23] == 8'hFF) && (d_o[p][22:0] != 23'd0))      // NaN
              || (d_o[p][31] && (d_o[p][30:23] != 8'h00));                   // < 0, not a zero
    end
  end

endmodule
