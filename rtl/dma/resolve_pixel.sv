// SPDX-License-Identifier: Apache-2.0
// resolve_pixel: the resolve arithmetic of OP_RESOLVE (docs/om.md section 7) for 16 source bytes,
// combinational: one 4x pixel of a 4-byte format (four samples of 4 bytes -> 4 bytes) or two 4x
// pixels of B5G6R5 (four samples of 2 bytes each -> two 2-byte pixels). The model is
// model::resolve_pixel (cpp_model/om/resolve), one pixel per call.
//   RGBA8, BGRA8: every byte (c0 + c1 + c2 + c3 + 2) >> 2;
//   RGBA8_SRGB:   R, G, B lin16_to_srgb((L0 + L1 + L2 + L3 + 2) >> 2), Lk = srgb_to_lin16(ck); A as above;
//   B5G6R5:       every field (f0 + f1 + f2 + f3 + 2) >> 2.
// A module of its own so that synthesis maps one pixel's sRGB tables at a time (resolve
// instantiates four).
module resolve_pixel (
  input  logic [1:0]   fmt_i,  // RT_FMT_*
  input  logic [127:0] src_i,  // sample s of the pixel at bytes 4s (B5G6R5: pixel k's at 8k + 2s)
  output logic [31:0]  pix_o   // B5G6R5: pixel 0 in [15:0], pixel 1 in [31:16]
);

  function automatic logic [7:0] avg8(input logic [7:0] a, input logic [7:0] b,
                                      input logic [7:0] c, input logic [7:0] d);
    avg8 = 8'((10'(a) + 10'(b) + 10'(c) + 10'(d) + 10'd2) >> 2);
  endfunction

  // Linear-space average of four sRGB codes.
  function automatic logic [7:0] avg_srgb(input logic [7:0] a, input logic [7:0] b,
                                          input logic [7:0] c, input logic [7:0] d);
    avg_srgb = pineda_pkg::lin16_to_srgb(16'((18'(pineda_pkg::srgb_to_lin16(a)) + 18'(pineda_pkg::srgb_to_lin16(b)) +
                                              18'(pineda_pkg::srgb_to_lin16(c)) + 18'(pineda_pkg::srgb_to_lin16(d)) +
                                              18'd2) >> 2));
  endfunction

  // One B5G6R5 pixel from four samples: each field averaged.
  function automatic logic [15:0] avg565(input logic [15:0] a, input logic [15:0] b,
                                         input logic [15:0] c, input logic [15:0] d);
    avg565 = {5'((7'(a[15:11]) + 7'(b[15:11]) + 7'(c[15:11]) + 7'(d[15:11]) + 7'd2) >> 2),
              6'((8'(a[10:5]) + 8'(b[10:5]) + 8'(c[10:5]) + 8'(d[10:5]) + 8'd2) >> 2),
              5'((7'(a[4:0]) + 7'(b[4:0]) + 7'(c[4:0]) + 7'(d[4:0]) + 7'd2) >> 2)};
  endfunction

  always_comb begin
    pix_o = '0;
    if (fmt_i == pineda_pkg::RT_FMT_B5G6R5) begin
      for (int k = 0; k < 2; k++) begin
        pix_o[16*k +: 16] = avg565(src_i[64*k +: 16], src_i[64*k + 16 +: 16], src_i[64*k + 32 +: 16],
                                   src_i[64*k + 48 +: 16]);
      end
    end else begin
      for (int c = 0; c < 4; c++) begin
        if (fmt_i == pineda_pkg::RT_FMT_RGBA8_SRGB && c < 3) begin
          pix_o[8*c +: 8] = avg_srgb(src_i[8*c +: 8], src_i[32 + 8*c +: 8], src_i[64 + 8*c +: 8], src_i[96 + 8*c +: 8]);
        end else begin
          pix_o[8*c +: 8] = avg8(src_i[8*c +: 8], src_i[32 + 8*c +: 8], src_i[64 + 8*c +: 8], src_i[96 + 8*c +: 8]);
        end
      end
    end
  end

endmodule
