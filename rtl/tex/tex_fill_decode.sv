// SPDX-License-Identifier: Apache-2.0
// tex_fill_decode: the sampler's decode on fill (docs/tex.md section 7 step 9), combinational:
// one 4x4 block of a 64-byte line response to 16 RGBA8 texels (BGRA8 swapped, B5G6R5 widened,
// BC1/BC3 through tex_bc_decode, RGBA8 and sRGB as they are), arranged as the four parity banks'
// write words (bank {y0, x0} holds texel (2 x1 + x0, 2 y1 + y0) at lane {y1, x1}).
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_fill_decode (
  input  logic [511:0]      line_i,    // the line response
  input  logic [2:0]        b53_i,     // block address [5:3]: which block of the line
  input  logic [2:0]        dclass_i,  // 0 RGBA8 (and sRGB), 1 BGRA8, 2 B5G6R5, 3 BC1, 4 BC3
  output logic [3:0][127:0] wdata_o    // per parity bank
);

  logic [127:0] bc_block;
  logic [15:0][31:0] bc_texels;
  logic [511:0] dec;
  logic [255:0] half;
  logic [31:0] dw;
  logic [15:0] hw;

  assign bc_block = (dclass_i == 3'd4) ? line_i[{b53_i[2:1], 7'd0} +: 128] : {64'd0, line_i[{b53_i, 6'd0} +: 64]};

  tex_bc_decode u_bc (
    .block_i (bc_block),
    .bc3_i   (dclass_i == 3'd4),
    .texel_o (bc_texels)
  );

  always_comb begin
    half = b53_i[2] ? line_i[511:256] : line_i[255:0];
    for (int k = 0; k < 16; k++) begin
      dw = line_i[32*k +: 32];
      hw = half[16*k +: 16];
      unique case (dclass_i)
        3'd1: dec[32*k +: 32] = {dw[31:24], dw[7:0], dw[15:8], dw[23:16]};
        3'd2: dec[32*k +: 32] = {8'hFF, hw[4:0], hw[4:2], hw[10:5], hw[10:9], hw[15:11], hw[15:13]};
        3'd3, 3'd4: dec[32*k +: 32] = bc_texels[k];
        default: dec[32*k +: 32] = dw;
      endcase
    end
    for (int b = 0; b < 4; b++) begin
      for (int s = 0; s < 4; s++) begin
        wdata_o[b][32*s +: 32] = dec[32*(4*(2*(s/2) + b/2) + 2*(s%2) + b%2) +: 32];
      end
    end
  end

endmodule
