// SPDX-License-Identifier: Apache-2.0
// pw_stage3: one bank's stage 3 of the pixel writer (docs/om.md section 5, "Stage 3's blend
// lanes"), combinational, from stage 3's registers: the line as it is now (last clock's stage-3
// line when that wrote this entry, else the SRAM read), the fill data merged into the halfwords
// the fill provides, and the piece's units blended by Lanes om_blend lanes. A piece's units are
// its dwords (4-byte formats) or halfwords (B5G6R5); lane i takes the unit of rank i (the i-th
// active one): its destination bits (B5G6R5: in the lane's low 16 bits) and its pixel's source
// colour; each blended unit goes back to its place in the line from its lane. Units of rank Lanes
// (SrgbLanes for an RGBA8_SRGB target: only that many lanes have the U16 sRGB path) and above
// are left for the next clock (more_o: the pixel writer holds the piece).
module pw_stage3 #(
  parameter int unsigned EW    = 5,  // entry index bits
  parameter int unsigned Lanes = 8,  // blend lanes (1..16)
  parameter int unsigned SrgbLanes = 2  // of them, lanes with the sRGB path (1..Lanes)
) (
  input  logic                  valid_i,   // a piece is in stage 3
  input  logic [EW-1:0]         ent_i,     // its entry
  input  logic [31:0]           mask_i,    // its halfwords (those not yet blended)
  input  logic [31:0]           fm_i,      // halfwords taken from the fill data
  input  logic [511:0]          fd_i,      // the fill data
  input  logic [63:0]           sel_i,     // the pixel of each halfword of the line
  input  logic [3:0][31:0]      src_i,     // the source colour of each pixel
  input  pineda_pkg::om_state_t om_i,
  input  logic                  wf_valid_i,  // last clock's stage-3 line of this bank
  input  logic [EW-1:0]         wf_ent_i,
  input  logic [511:0]          wf_data_i,
  input  logic [511:0]          rdata_i,   // the SRAM read of the entry
  output logic [511:0]          line_o,    // the whole line after this clock
  output logic [31:0]           pass_o,    // halfwords blended this clock
  output logic                  more_o     // units left for the next clock
);

  logic                        b565;
  logic [511:0]                base, line;
  logic [31:0]                 um;      // the piece's units
  logic [31:0][4:0]            rank;    // the number of units below each
  logic [4:0]                  cnt;
  logic [4:0]                  nl;      // lanes this clock (RGBA8_SRGB: SrgbLanes)
  logic [Lanes-1:0][31:0]      lsel;    // lane i takes unit p (one-hot in p)
  logic [Lanes-1:0][31:0]      dst, srcl, pix;
  logic [Lanes-1:0][1:0]       lpx;     // the pixel of each blend lane

  // the line as it is now, the fill data in the halfwords that were not valid
  always_comb begin
    b565 = (om_i.fmt == pineda_pkg::RT_FMT_B5G6R5);
    nl   = (om_i.fmt == pineda_pkg::RT_FMT_RGBA8_SRGB) ? 5'(SrgbLanes) : 5'(Lanes);
    base = (wf_valid_i && wf_ent_i == ent_i) ? wf_data_i : rdata_i;
    for (int k = 0; k < 32; k++) begin
      line[16*k +: 16] = fm_i[k] ? fd_i[16*k +: 16] : base[16*k +: 16];
    end
  end
  // Blend units: 4-byte formats, dword k (its two halfwords); B5G6R5, halfword k. A piece
  // usually has at most 8 (a quad row: 2 pixels, or 8 samples at 4x); one that holds both rows
  // of a quad (pitch below 64 bytes: stage 1 merged them) up to 16, anywhere in the line.
  always_comb begin
    for (int p = 0; p < 32; p++) begin
      um[p] = b565 ? mask_i[p] : (p < 16) && mask_i[(2 * p) % 32];
    end
    cnt = '0;
    for (int p = 0; p < 32; p++) begin
      rank[p] = cnt;
      cnt     = cnt + 5'(um[p]);
    end
    pass_o = '0;
    for (int p = 0; p < 32; p++) begin
      if (um[p] && rank[p] < nl) begin
        if (b565) pass_o[p] = 1'b1;
        else      pass_o[(2 * p) % 32 +: 2] = 2'b11;
      end
    end
    more_o = valid_i && ((mask_i & ~pass_o) != '0);
  end
  // Compaction: lane i takes the unit of rank i, its destination bits (B5G6R5: in the lane's low
  // 16 bits) and its pixel's source colour.
  always_comb begin
    for (int i = 0; i < Lanes; i++) begin
      dst[i] = '0;
      lpx[i] = '0;
      for (int p = 0; p < 32; p++) begin
        lsel[i][p] = um[p] && (rank[p] == 5'(i));
        if (lsel[i][p]) begin
          if (b565) begin
            dst[i] = dst[i] | {16'd0, line[16*p +: 16]};
            lpx[i] = lpx[i] | sel_i[2*p +: 2];
          end else begin
            dst[i] = dst[i] | line[32*(p % 16) +: 32];
            lpx[i] = lpx[i] | sel_i[4*(p % 16) +: 2];
          end
        end
      end
      srcl[i] = src_i[lpx[i]];
    end
  end
  // Scatter: each halfword blended this clock from its unit's lane, the others as they are
  always_comb begin
    for (int h = 0; h < 32; h++) begin
      line_o[16*h +: 16] = pass_o[h] ? 16'd0 : line[16*h +: 16];
      for (int i = 0; i < Lanes; i++) begin
        if (pass_o[h] && lsel[i][b565 ? h : h / 2]) begin
          line_o[16*h +: 16] = line_o[16*h +: 16] |
                               ((b565 || h % 2 == 0) ? pix[i][15:0] : pix[i][31:16]);
        end
      end
    end
  end

  om_blend #(.Lanes(Lanes), .SrgbLanes(SrgbLanes)) u_blend (
    .state_i (om_i),
    .src_i   (srcl),
    .dst_i   (dst),
    .pix_o   (pix)
  );

endmodule
