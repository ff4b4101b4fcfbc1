// SPDX-License-Identifier: Apache-2.0
// tex_filter_out: stage P of the sampler (docs/tex.md section 4 steps 10 and 11), combinational:
// per pixel and channel the trilinear blend of a second pass's filtered channels B (12.4) with the
// first pass's result B0, C = 256 * B0 + f * (B - B0) (one pass: C = 256 * B), and the RGBA8
// colour (C + 32768) >> 16. A stage after tex_filter (the bilinear lerps), so that neither holds
// the whole chain of products.
module tex_filter_out (
  input  logic [3:0][3:0][15:0]  bres_i,    // the pass's filtered channels (tex_filter, 12.4)
  input  logic                   two_i,     // second pass of a trilinear quad: blend with b0_i
  input  logic [7:0]             f_i,       // trilinear fraction
  input  logic [3:0][3:0][15:0]  b0_i,      // the first pass's result
  output logic [3:0][31:0]       color_o
);
  logic [3:0][3:0][16:0] db;       // bres - b0 (signed)
  logic [3:0][3:0][23:0] tri_sum;  // 256 b0 + f db + 32768 (the rounding of step 11)
  logic [3:0][3:0][15:0] one;      // bres + 128
  always_comb begin
    for (int p = 0; p < 4; p++) begin
      for (int c = 0; c < 4; c++) begin
        db[p][c] = {1'b0, bres_i[p][c]} - {1'b0, b0_i[p][c]};
        tri_sum[p][c] = 24'({b0_i[p][c], 8'd0} + 25'($signed(db[p][c]) * $signed({1'b0, f_i})) + 25'd32768);
        one[p][c] = bres_i[p][c] + 16'd128;
        color_o[p][8*c +: 8] = two_i ? tri_sum[p][c][23:16] : one[p][c][15:8];
      end
    end
  end

  logic unused_sig;
  assign unused_sig = ^{tri_sum, one};
endmodule
