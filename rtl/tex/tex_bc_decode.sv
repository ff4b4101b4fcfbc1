// SPDX-License-Identifier: Apache-2.0
// tex_bc_decode: one BC1 or BC3 block to 16 RGBA8 texels, combinational (docs/tex.md "BC decode";
// the model is cpp_model/tex/tex_bc_decode). The texture L1 decodes a block when a line is filled.
//
// block_i: the 16 block bytes, byte 0 in bits 7:0 (BC1 uses bits 63:0). bc3_i: 0 BC1, 1 BC3.
// texel_o[4*y + x]: R in bits 7:0, G 15:8, B 23:16, A 31:24.
//   565 -> 888 by bit replication. Colour palette per channel on the 8-bit endpoints e0, e1:
//     4-colour (BC1 with c0 > c1 as 16-bit values, BC3 always): (2*e0 + e1 + 1) / 3, (e0 + 2*e1 + 1) / 3
//     3-colour (BC1 with c0 <= c1): (e0 + e1 + 1) / 2, then transparent black.
//   BC3 alpha on a0, a1: a0 > a1: ((7-i)*a0 + i*a1 + 3) / 7, i = 1..6;
//                        else    ((5-i)*a0 + i*a1 + 2) / 5, i = 1..4, then 0 and 255.
// The divisions are round-to-nearest by construction (numerator + divisor/2, no ties except the
// 3-colour midpoint, rounded up); here they are multiplications by a reciprocal and a shift, exact
// over the numerators' ranges (the unit test sweeps every endpoint pair).
module tex_bc_decode (
  input  logic [127:0]      block_i,
  input  logic              bc3_i,
  output logic [15:0][31:0] texel_o
);

  // floor(x / 3), x <= 766: x * 683 >> 11
  function automatic logic [7:0] div3(input logic [9:0] x);
    div3 = 8'((21'(x) * 21'd683) >> 11);
  endfunction

  // floor(x / 5), x <= 1277: x * 1639 >> 13
  function automatic logic [7:0] div5(input logic [10:0] x);
    div5 = 8'((22'(x) * 22'd1639) >> 13);
  endfunction

  // floor(x / 7), x <= 1788: x * 2341 >> 14
  function automatic logic [7:0] div7(input logic [10:0] x);
    div7 = 8'((23'(x) * 23'd2341) >> 14);
  endfunction

  logic [63:0]      colour;
  logic [2:0][7:0]  e0, e1;      // expanded endpoints, R G B
  logic [15:0]      c0, c1;
  logic             four;
  logic [3:0][23:0] pal_rgb;     // colour palette, R in bits 7:0
  logic [3:0]       pal_opaque;  // alpha 255 (else 0) for BC1
  logic [7:0]       a0, a1;
  logic [7:0][7:0]  pal_a;       // BC3 alpha palette

  always_comb begin
    colour = bc3_i ? block_i[127:64] : block_i[63:0];
    c0 = colour[15:0];
    c1 = colour[31:16];
    four = bc3_i || (c0 > c1);
    e0[0] = {c0[15:11], c0[15:13]};
    e0[1] = {c0[10:5], c0[10:9]};
    e0[2] = {c0[4:0], c0[4:2]};
    e1[0] = {c1[15:11], c1[15:13]};
    e1[1] = {c1[10:5], c1[10:9]};
    e1[2] = {c1[4:0], c1[4:2]};
    pal_rgb = '0;
    for (int ch = 0; ch < 3; ch++) begin
      pal_rgb[0][8*ch +: 8] = e0[ch];
      pal_rgb[1][8*ch +: 8] = e1[ch];
      if (four) begin
        pal_rgb[2][8*ch +: 8] = div3({1'b0, e0[ch], 1'b0} + 10'(e1[ch]) + 10'd1);
        pal_rgb[3][8*ch +: 8] = div3(10'(e0[ch]) + {1'b0, e1[ch], 1'b0} + 10'd1);
      end else begin
        pal_rgb[2][8*ch +: 8] = 8'((9'(e0[ch]) + 9'(e1[ch]) + 9'd1) >> 1);
        pal_rgb[3][8*ch +: 8] = 8'd0;
      end
    end
    pal_opaque = {four, 3'b111};

    a0 = block_i[7:0];
    a1 = block_i[15:8];
    pal_a = '0;
    pal_a[0] = a0;
    pal_a[1] = a1;
    if (a0 > a1) begin
      for (int i = 1; i <= 6; i++) begin
        pal_a[1+i] = div7(11'(7 - i) * 11'(a0) + 11'(i) * 11'(a1) + 11'd3);
      end
    end else begin
      for (int i = 1; i <= 4; i++) begin
        pal_a[1+i] = div5(11'(5 - i) * 11'(a0) + 11'(i) * 11'(a1) + 11'd2);
      end
      pal_a[6] = 8'd0;
      pal_a[7] = 8'd255;
    end
  end

  always_comb begin
    texel_o = '0;
    for (int t = 0; t < 16; t++) begin
      texel_o[t][23:0] = pal_rgb[colour[32 + 2*t +: 2]];
      if (bc3_i) texel_o[t][31:24] = pal_a[block_i[16 + 3*t +: 3]];
      else       texel_o[t][31:24] = {8{pal_opaque[colour[32 + 2*t +: 2]]}};
    end
  end

endmodule
