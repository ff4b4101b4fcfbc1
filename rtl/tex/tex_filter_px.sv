// SPDX-License-Identifier: Apache-2.0
// tex_filter_px: stage F of the sampler for one pixel (docs/tex.md section 4 steps 9 and 10),
// combinational: the pixel's four taps' values (border colour, sRGB linearised (the 12-bit values
// of the taps' R, G, B codes come in lin_i, looked up in block RAM as stage F is loaded), or UNORM8
// times 16), the bilinear lerps (or point) and the filtered channels in 12.4 (the trilinear blend
// with the first pass's result and the RGBA8 colour are tex_filter_out's, a stage later).
// tex_filter instantiates one per pixel of the quad (a module of its own so that synthesis
// measures one pixel's products).
module tex_filter_px (
  input  logic [3:0][31:0]  tex_i,     // tap k's texel (RGBA8): k = 0 (i0, j0), 1 (i1, j0), 2 (i0, j1), 3 (i1, j1)
  input  logic [3:0]        border_i,  // tap k reads the border colour
  input  logic [31:0]       border_color_i,
  input  logic              srgb_i,    // RGBA8_SRGB: linearise R, G, B
  input  logic [3:0][2:0][11:0] lin_i, // SRGB_TO_TEX12 of tap k's channel c code
  input  logic [7:0]        fu_i,
  input  logic [7:0]        fv_i,
  input  logic              linear_i,
  output logic [3:0][15:0]  bres_o     // this pass's filtered channels B (12.4, in 1/4080)
);

  // docs/tex.md section 4 step 10: texel values t (12 bits, 1/4080: UNORM8 c is 16c), two lerps
  // in u rounded to 12.4,
  //   r0 = (256 * t00 + fu * (t10 - t00) + 8) >> 4,  r1 = (256 * t01 + fu * (t11 - t01) + 8) >> 4,
  // and one in v rounded to 12.4,
  //   B = (256 * r0 + fv * (r1 - r0) + 128) >> 8:
  // three signed 13 x 8, 13 x 8 and 17 x 8 products per channel. Point sampling is fu = fv = 0
  // (B = 16 t).
  logic [3:0][3:0][11:0] tval;
  logic [7:0]              ku, kv;
  logic [3:0][12:0]        d0, d1;    // t10 - t00, t11 - t01 (signed)
  logic [3:0][19:0]        s0, s1;    // 256 t + fu d: 0 .. 256 * 4080
  logic [3:0][15:0]        r0, r1;    // 12.4: 0 .. 65280
  logic [3:0][16:0]        dr;        // r1 - r0 (signed)
  logic [3:0][23:0]        fsum;      // 256 r0 + fv dr + 128: 0 .. 65280 * 256 + 128
  always_comb begin
    for (int t = 0; t < 4; t++) begin
      for (int c = 0; c < 4; c++) begin
        if (border_i[t]) tval[t][c] = {border_color_i[8*c +: 8], 4'd0};
        else tval[t][c] = {tex_i[t][8*c +: 8], 4'd0};
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
      s0[c] = 20'({tval[0][c], 8'd0} + 21'($signed(d0[c]) * $signed({1'b0, ku})) + 21'd8);
      s1[c] = 20'({tval[2][c], 8'd0} + 21'($signed(d1[c]) * $signed({1'b0, ku})) + 21'd8);
      r0[c] = s0[c][19:4];
      r1[c] = s1[c][19:4];
      dr[c] = {1'b0, r1[c]} - {1'b0, r0[c]};
      fsum[c] = 24'({r0[c], 8'd0} + 25'($signed(dr[c]) * $signed({1'b0, kv})) + 25'd128);
      bres_o[c] = fsum[c][23:8];
    end
  end

  logic unused_sig;
  assign unused_sig = ^{s0, s1, fsum};

endmodule
