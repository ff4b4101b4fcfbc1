// SPDX-License-Identifier: Apache-2.0
// tex_filter: stage F of the sampler (docs/tex.md section 4 steps 9 and 10), combinational: one
// tex_filter_px per pixel of the quad (the pixel's four taps, weights, bilinear lerps; the
// trilinear blend and the colour are tex_filter_out's, a stage later).
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_filter (
  input  logic [15:0][31:0]      tex_i,     // tap 4p + k's texel (RGBA8)
  input  logic [15:0]            border_i,  // tap reads the border colour
  input  logic [31:0]            border_color_i,
  input  logic                   srgb_i,    // RGBA8_SRGB: linearise R, G, B
  input  logic [15:0][2:0][11:0] lin_i,     // SRGB_TO_TEX12 of tap 4p + k's R, G, B codes
  input  logic [3:0][7:0]        fu_i,
  input  logic [3:0][7:0]        fv_i,
  input  logic                   linear_i,
  output logic [3:0][3:0][15:0]  bres_o     // this pass's filtered channels (12.4)
);

  for (genvar p = 0; p < 4; p++) begin : g_px
    tex_filter_px u_px (
      .tex_i          (tex_i[4*p +: 4]),
      .border_i       (border_i[4*p +: 4]),
      .border_color_i,
      .srgb_i,
      .lin_i          (lin_i[4*p +: 4]),
      .fu_i           (fu_i[p]),
      .fv_i           (fv_i[p]),
      .linear_i,
      .bres_o         (bres_o[p])
    );
  end

endmodule
