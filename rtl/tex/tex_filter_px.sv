// SPDX-License-Identifier: Apache-2.0
// tex_filter_px: stage F of the sampler for one pixel (docs/tex.md section 4 steps 9..11),
// combinational: the pixel's four taps' values (border colour, sRGB linearised (the linear values
// of the taps' R, G, B codes come in lin_i, looked up in block RAM as stage F is loaded), or UNORM8
// widened to 16 bits), the bilinear weights (or point) and the filtered 16-bit channels (the
// trilinear blend with the first pass's result and the RGBA8 colour are tex_filter_out's, a stage
// later). tex_filter instantiates one per pixel of the quad (a module of its own so that synthesis
// measures one pixel's products).
module tex_filter_px (
  input  logic [3:0][31:0]  tex_i,     // tap k's texel (RGBA8): k = 0 (i0, j0), 1 (i1, j0), 2 (i0, j1), 3 (i1, j1)
  input  logic [3:0]        border_i,  // tap k reads the border colour
  input  logic [31:0]       border_color_i,
  input  logic              srgb_i,    // RGBA8_SRGB: linearise R, G, B
  input  logic [3:0][2:0][15:0] lin_i, // SRGB_TO_LIN16 of tap k's channel c code
  input  logic [7:0]        fu_i,
  input  logic [7:0]        fv_i,
  input  logic              linear_i,
  output logic [3:0][15:0]  bres_o     // this pass's filtered channels
);

  // The bilinear sum of docs/tex.md section 4 step 10, sum_k (wu_k * wv_k) * t_k + 32768 with
  // wu = (256 - fu, fu), wv = (256 - fv, fv), is evaluated as two nested lerps,
  //   r0 = 256 * t00 + fu * (t10 - t00),  r1 = 256 * t01 + fu * (t11 - t01),
  //   sum = 256 * r0 + fv * (r1 - r0) + 32768,
  // which is the same integer (exact arithmetic, no rounding before the final >> 16), with three
  // signed 8-bit products per channel instead of four 17 x 16 weight products and the four
  // 9 x 9 weight products. Point sampling is fu = fv = 0 (weights 65536, 0, 0, 0).
  logic [3:0][3:0][15:0] tval;
  logic [7:0]              ku, kv;
  logic [3:0][16:0]        d0, d1;    // t10 - t00, t11 - t01 (signed)
  logic [3:0][24:0]        r0, r1;    // 0 .. 256 * 65535
  logic [3:0][25:0]        dr;        // r1 - r0 (signed)
  logic [3:0][33:0]        fsum;
  always_comb begin
    for (int t = 0; t < 4; t++) begin
      for (int c = 0; c < 4; c++) begin
        if (border_i[t]) tval[t][c] = {border_color_i[8*c +: 8], border_color_i[8*c +: 8]};
        else tval[t][c] = {tex_i[t][8*c +: 8], tex_i[t][8*c +: 8]};
      end
      for (int c = 0; c < 3; c++) begin
        if (!border_i[t] && srgb_i) tval[t][c] = lin_i[t][c];
      end
    end
    ku = linear_i ? fu_i : 8'd0;
    kv = linear_i ? fv_i : 8'd0;
    for (int c = 0; c < 4; c++) begin
      d0[c] = {1'b0, tval[1][c]} - {1'b0, tval[0][c]};
      d1[c] = {1'b0, tval[3][c]} - {1'b0, tval[2][c]};
      r0[c] = 25'({1'b0, tval[0][c], 8'd0} + 26'($signed(d0[c]) * $signed({1'b0, ku})));
      r1[c] = 25'({1'b0, tval[2][c], 8'd0} + 26'($signed(d1[c]) * $signed({1'b0, ku})));
      dr[c] = {1'b0, r1[c]} - {1'b0, r0[c]};
      fsum[c] = {1'b0, r0[c], 8'd0} + 34'($signed(dr[c]) * $signed({1'b0, kv})) + 34'd32768;
      bres_o[c] = fsum[c][31:16];
    end
  end

  logic unused_sig;
  assign unused_sig = ^fsum;

endmodule
