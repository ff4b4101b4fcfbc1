// SPDX-License-Identifier: Apache-2.0
// pa_dist: signed distances of one clip-space position to the seven clip planes of PA
// (docs/numerics.md §8.1), combinational. Plane order (bit p of a clip code):
//   0 W:      w - PA_CLIP_EPS        1 NEAR: z              2 FAR:   w - z
//   3 LEFT:   2w + x                 4 RIGHT: 2w - x        5 BOTTOM: 2w + y      6 TOP: 2w - y
// with 2w = fp32 mul(w, 2.0) and every + / - one fp32_add. out_o[p] = 1 when the position is
// outside plane p: the distance is NaN, or negative and not a zero (-0 is inside).
module pa_dist (
  input  logic [31:0]       x_i,
  input  logic [31:0]       y_i,
  input  logic [31:0]       z_i,
  input  logic [31:0]       w_i,
  output logic [6:0][31:0]  d_o,
  output logic [6:0]        out_o
);

  logic [31:0] w2, neg_eps, neg_z, neg_x, neg_y;

  // 2w exactly as fp32 mul(w, 2.0): zeros and denormals -> signed zero, NaN -> FP32_QNAN,
  // Inf and exponent 254 -> Inf, otherwise exponent + 1.
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
  end

  fp32_add u_w  (.a_i(w_i), .b_i(neg_eps), .y_o(d_o[0]));
  assign d_o[1] = z_i;
  fp32_add u_far (.a_i(w_i), .b_i(neg_z), .y_o(d_o[2]));
  fp32_add u_l  (.a_i(w2),  .b_i(x_i),   .y_o(d_o[3]));
  fp32_add u_r  (.a_i(w2),  .b_i(neg_x), .y_o(d_o[4]));
  fp32_add u_b  (.a_i(w2),  .b_i(y_i),   .y_o(d_o[5]));
  fp32_add u_t  (.a_i(w2),  .b_i(neg_y), .y_o(d_o[6]));

  always_comb begin
    for (int p = 0; p < 7; p++) begin
      out_o[p] = ((d_o[p][30:23] == 8'hFF) && (d_o[p][22:0] != 23'd0))      // NaN
              || (d_o[p][31] && (d_o[p][30:23] != 8'h00));                   // < 0, not a zero
    end
  end

endmodule
