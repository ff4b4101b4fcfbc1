// SPDX-License-Identifier: Apache-2.0
// pw_pieces: stage 1 of the pixel writer (docs/om.md section 5), combinational: a quad's two
// pixel rows as up to four pieces of 64-byte lines. Row r (pixels y = 2*qy + r) covers 2 pixels
// (1x) or 8 samples (4x) of 4 bytes, or 2 bytes for B5G6R5, from address base + y*pitch + x*b
// (its bits [1:0], or [0] for B5G6R5, ignored); piece 2r is the part in the row's first line,
// piece 2r + 1 the part in the next line (a row straddling a line boundary). Masks are per
// halfword of the line (a 4-byte pixel is an aligned pair); an empty piece has mask 0. A row-1
// piece on the line of a row-0 piece joins it (pitch below 64 bytes), keeping its halfwords'
// row-1 pixel (row 1's writes come last). For every piece, sel_o gives the pixel (0..3: {row, x})
// whose colour each halfword of the line takes; all samples of a pixel take the pixel's colour.
module pw_pieces (
  input  pineda_pkg::target_t target_i,
  input  logic [12:0]         qx_i,
  input  logic [12:0]         qy_i,
  input  logic [15:0]         mask_i,   // the quad's coverage (quad_pkt_t.mask)
  input  logic                b565_i,   // 2-byte pixels (RT_FMT_B5G6R5)
  output logic [3:0][25:0]    line_o,   // line addresses (byte address [31:6])
  output logic [3:0][31:0]    mask_o,   // halfword masks; 0: no piece
  output logic [3:0][63:0]    sel_o     // per piece: the pixel of each halfword of its line
);

  logic [1:0][13:0] ny;
  logic [1:0][31:0] nrow;
  logic [1:0][7:0]  nrm;
  logic [1:0][15:0] nex;    // covered halfwords from the row's first
  logic [1:0][4:0]  nst;    // the row's first halfword in its line
  logic [1:0][47:0] nw;
  logic [31:0]      xoff;
  logic [1:0][31:0] nsx;    // per row: the pixel of each halfword from the row's first
  logic [1:0][95:0] nsw;

  always_comb begin
    xoff = target_i.msaa ? (b565_i ? {15'd0, qx_i, 4'd0} : {14'd0, qx_i, 5'd0})
                         : (b565_i ? {17'd0, qx_i, 2'd0} : {16'd0, qx_i, 3'd0});
    for (int r = 0; r < 2; r++) begin
      ny[r]   = {qy_i, r[0]};
      nrow[r] = target_i.base + 32'(ny[r]) * 32'(target_i.pitch) + xoff;
      nrm[r]  = target_i.msaa ? mask_i[8*r +: 8] : {6'd0, mask_i[2*r +: 2]};
      nex[r]  = '0;
      for (int k = 0; k < 8; k++) begin
        if (b565_i) nex[r][k] = nrm[r][k];
        else        nex[r][2*k +: 2] = {2{nrm[r][k]}};
      end
      nst[r]  = b565_i ? nrow[r][5:1] : {nrow[r][5:2], 1'b0};  // addr[0] (or addr[1:0]) ignored
      nw[r]   = 48'(nex[r]) << nst[r];
      line_o[2*r]     = nrow[r][31:6];
      mask_o[2*r]     = nw[r][31:0];
      line_o[2*r + 1] = nrow[r][31:6] + 26'd1;
      mask_o[2*r + 1] = {16'd0, nw[r][47:32]};
      // slot k of the row: pixel {r, x} with x = k (1x) or k / 4 (4x: samples of pixel x)
      nsx[r] = '0;
      for (int k = 0; k < 8; k++) begin
        if (b565_i) nsx[r][2*k +: 2] = {r[0], target_i.msaa ? k[2] : k[0]};
        else        nsx[r][4*k +: 4] = {2{r[0], target_i.msaa ? k[2] : k[0]}};
      end
      nsw[r]          = 96'(nsx[r]) << {nst[r], 1'b0};
      sel_o[2*r]     = nsw[r][63:0];
      sel_o[2*r + 1] = {32'd0, nsw[r][95:64]};
    end
    // A row-1 piece on the line of a row-0 piece joins it (its halfwords keep their row-1 pixel:
    // row 1's writes come last).
    for (int k = 2; k < 4; k++) begin
      for (int j = 0; j < 2; j++) begin
        if (mask_o[k] != '0 && mask_o[j] != '0 && line_o[k] == line_o[j]) begin
          for (int h = 0; h < 32; h++) begin
            if (mask_o[k][h]) sel_o[j][2*h +: 2] = sel_o[k][2*h +: 2];
          end
          mask_o[j] = mask_o[j] | mask_o[k];
          mask_o[k] = '0;
        end
      end
    end
  end

endmodule
