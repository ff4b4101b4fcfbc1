// SPDX-License-Identifier: Apache-2.0
// tex_filter_out: stage P of the sampler (docs/tex.md section 4 steps 10 and 11), combinational:
// per pixel and channel the trilinear blend of a second pass's filtered channels with the first
// pass's result, b0 * (256 - f) + b * f + 128 evaluated as 256 * b0 + f * (b - b0) + 128 (the
// same integer), and the RGBA8 colour (C * 255 + 32768) >> 16. A stage after tex_filter (the
// bilinear lerps), so that neither holds the whole chain of products.
module tex_filter_out (
  input  logic [3:0][3:0][15:0]  bres_i,    // the pass's filtered channels (tex_filter)
  input  logic                   two_i,     // second pass of a trilinear quad: blend with b0_i
  input  logic [7:0]             f_i,       // trilinear fraction
  input  logic [3:0][3:0][15:0]  b0_i,      // the first pass's result
  output logic [3:0][31:0]       color_o
);
  logic [3:0][3:0][16:0] db;       // bres - b0 (signed)
  logic [3:0][3:0][25:0] tri_sum;
  logic [3:0][3:0][15:0] cres;
  logic [3:0][3:0][23:0] out_sum;
  always_comb begin
    for (int p = 0; p < 4; p++) begin
      for (int c = 0; c < 4; c++) begin
        db[p][c] = {1'b0, bres_i[p][c]} - {1'b0, b0_i[p][c]};
        tri_sum[p][c] = {2'd0, b0_i[p][c], 8'd0} + 26'($signed(db[p][c]) * $signed({1'b0, f_i})) + 26'd128;
        cres[p][c] = two_i ? tri_sum[p][c][23:8] : bres_i[p][c];
        out_sum[p][c] = {8'd0, cres[p][c]} * 24'd255 + 24'd32768;
        color_o[p][8*c +: 8] = out_sum[p][c][23:16];
      end
    end
  end

  logic unused_sig;
  assign unused_sig = ^{tri_sum, out_sum};
endmodule
