// SPDX-License-Identifier: Apache-2.0
// tex_filter_px: stage F of the sampler for one pixel (docs/tex.md section 4 steps 9..11),
// combinational: the pixel's four taps' values (border colour, sRGB linearised, or UNORM8 widened
// to 16 bits), the bilinear weights (or point), the filtered 16-bit channels, the trilinear blend
// with the first pass's result and the RGBA8 colour. tex_filter instantiates one per pixel of the
// quad (a module of its own so that synthesis measures one pixel's products).
module tex_filter_px (
  input  logic [3:0][31:0]  tex_i,     // tap k's texel (RGBA8): k = 0 (i0, j0), 1 (i1, j0), 2 (i0, j1), 3 (i1, j1)
  input  logic [3:0]        border_i,  // tap k reads the border colour
  input  logic [31:0]       border_color_i,
  input  logic              srgb_i,    // RGBA8_SRGB: linearise R, G, B
  input  logic [7:0]        fu_i,
  input  logic [7:0]        fv_i,
  input  logic              linear_i,
  input  logic              two_i,     // second pass of a trilinear quad: blend with b0_i
  input  logic [7:0]        f_i,       // trilinear fraction
  input  logic [3:0][15:0]  b0_i,      // the first pass's result
  output logic [3:0][15:0]  bres_o,    // this pass's filtered channels
  output logic [31:0]       color_o
);

  logic [3:0][3:0][15:0] tval;
  logic [3:0][16:0] tw;
  logic [3:0][33:0] fsum;
  logic [3:0][15:0] cres;
  logic [3:0][25:0] tri_sum;
  logic [3:0][23:0] out_sum;
  logic [8:0]  wu0, wu1, wv0, wv1;
  always_comb begin
    for (int t = 0; t < 4; t++) begin
      for (int c = 0; c < 4; c++) begin
        if (border_i[t]) tval[t][c] = {border_color_i[8*c +: 8], border_color_i[8*c +: 8]};
        else if (srgb_i && c < 3) tval[t][c] = pineda_pkg::srgb_to_lin16(tex_i[t][8*c +: 8]);
        else tval[t][c] = {tex_i[t][8*c +: 8], tex_i[t][8*c +: 8]};
      end
    end
    wu1 = {1'b0, fu_i};
    wu0 = 9'd256 - wu1;
    wv1 = {1'b0, fv_i};
    wv0 = 9'd256 - wv1;
    if (linear_i) begin
      tw[0] = 17'({8'd0, wu0} * {8'd0, wv0});
      tw[1] = 17'({8'd0, wu1} * {8'd0, wv0});
      tw[2] = 17'({8'd0, wu0} * {8'd0, wv1});
      tw[3] = 17'({8'd0, wu1} * {8'd0, wv1});
    end else begin
      tw[0] = 17'd65536;
      tw[1] = 17'd0;
      tw[2] = 17'd0;
      tw[3] = 17'd0;
    end
    for (int c = 0; c < 4; c++) begin
      fsum[c] = 34'd32768;
      for (int k = 0; k < 4; k++) fsum[c] = fsum[c] + 34'(tw[k]) * 34'(tval[k][c]);
      bres_o[c] = fsum[c][31:16];
      tri_sum[c] = {10'd0, b0_i[c]} * {17'd0, 9'd256 - {1'b0, f_i}} + {10'd0, bres_o[c]} * {18'd0, f_i} + 26'd128;
      cres[c] = two_i ? tri_sum[c][23:8] : bres_o[c];
      out_sum[c] = {8'd0, cres[c]} * 24'd255 + 24'd32768;
      color_o[8*c +: 8] = out_sum[c][23:16];
    end
  end

  logic unused_sig;
  assign unused_sig = ^{tri_sum, out_sum, fsum};

endmodule
