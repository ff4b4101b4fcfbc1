// SPDX-License-Identifier: Apache-2.0
// om_encode: one pixel's U16 RGBA channels (value / 65535) encoded for the render-target format
// (docs/om.md section 2; the model is model::om::encode in cpp_model/om/om_blend), combinational:
//   RGBA8 / BGRA8: div257r per channel (BGRA8 swaps R and B);
//   RGBA8_SRGB:    R, G, B lin16_to_srgb (LIN16_TO_SRGB_T binary search), A div257r;
//   B5G6R5:        div65535r(v * 31 | 63) per field in the low 16 bits, the high 16 bits 0.
// Used by every blend lane (om_blend_lane) and by the pixel writer's plain quads, whose source
// needs no blend. SrgbOnly = 1 builds the RGBA8_SRGB encode alone (fmt_i is not read; the other
// formats' division and rounding are not built): om_blend_lane #(SrgbOnly), om_blend's sRGB lanes.
module om_encode #(
  parameter bit SrgbOnly = 1'b0
) (
  input  logic [1:0]       fmt_i,   // RT_FMT_*
  input  logic [3:0][15:0] v_i,     // R, G, B, A
  output logic [31:0]      pix_o
);

  logic [1:0] fmt;
  assign fmt = SrgbOnly ? pineda_pkg::RT_FMT_RGBA8_SRGB : fmt_i;

  always_comb begin
    unique case (fmt)
      pineda_pkg::RT_FMT_BGRA8:
        pix_o = {pineda_pkg::div257r(v_i[3]), pineda_pkg::div257r(v_i[0]), pineda_pkg::div257r(v_i[1]),
                 pineda_pkg::div257r(v_i[2])};
      pineda_pkg::RT_FMT_RGBA8_SRGB:
        pix_o = {pineda_pkg::div257r(v_i[3]), pineda_pkg::lin16_to_srgb(v_i[2]), pineda_pkg::lin16_to_srgb(v_i[1]),
                 pineda_pkg::lin16_to_srgb(v_i[0])};
      pineda_pkg::RT_FMT_B5G6R5: begin
        pix_o = '0;
        pix_o[15:11] = 5'(pineda_pkg::div65535r(32'(v_i[0]) * 32'd31));
        pix_o[10:5]  = 6'(pineda_pkg::div65535r(32'(v_i[1]) * 32'd63));
        pix_o[4:0]   = 5'(pineda_pkg::div65535r(32'(v_i[2]) * 32'd31));
      end
      default:
        pix_o = {pineda_pkg::div257r(v_i[3]), pineda_pkg::div257r(v_i[2]), pineda_pkg::div257r(v_i[1]),
                 pineda_pkg::div257r(v_i[0])};
    endcase
  end

  if (SrgbOnly) begin : g_unused
    logic unused_sig;
    assign unused_sig = ^fmt_i;
  end

endmodule
