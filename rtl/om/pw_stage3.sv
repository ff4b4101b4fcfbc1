// SPDX-License-Identifier: Apache-2.0
// pw_stage3: one bank's stage 3R of the pixel writer (docs/om.md section 5, "Stage 3's blend
// lanes"), combinational, from stage 3R's registers: the line as it is now, the fill data merged
// into the halfwords the fill provides, and the piece's units ranked and compacted into Lanes
// lane inputs for stage 3W (pw_stage3w, one clock later: the blend lanes and the scatter back).
// The line as it is now: when the piece in stage 3X this clock is on the same entry, its line
// (pw_stage3w's x_line_pre_o: everything before it but the results of the piece in stage 3W);
// else, when the piece in stage 3W is, the line it blends into (line_pre_o: everything before
// it); else last clock's stage-3W line when that wrote this entry; else the SRAM read. The units
// of the pieces in stages 3X and 3W this piece never shares (the pixel writer holds such a piece
// in stage B), and stages 3X and 3W add their results to its line later (pw_stage3w). A piece's units are its dwords (4-byte formats) or
// halfwords (B5G6R5); lane i takes the unit of rank i (the i-th active one): its destination bits
// (B5G6R5: in the lane's low 16 bits) and its pixel's source colour; lane_o gives, per halfword,
// the lane its unit went to (stage 3W scatters the results back by it). Units of rank Lanes
// (SrgbLanes for an RGBA8_SRGB target: only that many lanes have the U16 sRGB path) and above
// are left for the next clock (more_o: the pixel writer holds the piece).
module pw_stage3 #(
  parameter int unsigned EW    = 5,  // entry index bits
  parameter int unsigned Lanes = 8,  // blend lanes (1..16)
  parameter int unsigned SrgbLanes = 2   // of them, lanes with the sRGB path (1..Lanes)
) (
  input  logic                  valid_i,   // a piece is in stage 3R
  input  logic [EW-1:0]         ent_i,     // its entry
  input  logic [31:0]           mask_i,    // its halfwords (those not yet blended)
  input  logic [31:0]           fm_i,      // halfwords taken from the fill data
  input  logic [511:0]          fd_i,      // the fill data
  input  logic [63:0]           sel_i,     // the pixel of each halfword of the line
  input  logic [3:0][31:0]      src_i,     // the source colour of each pixel
  input  logic [1:0]            fmt_i,     // RT_FMT_*
  input  logic                  x_valid_i, // the piece in stage 3X of this bank
  input  logic [EW-1:0]         x_ent_i,
  input  logic [511:0]          x_line_i,  // its line (without stage 3W's results)
  input  logic                  w_valid_i, // the piece in stage 3W of this bank
  input  logic [EW-1:0]         w_ent_i,
  input  logic [511:0]          w_line_i,  // the line it blends into
  input  logic                  wf_valid_i,  // last clock's stage-3W line of this bank
  input  logic [EW-1:0]         wf_ent_i,
  input  logic [511:0]          wf_data_i,
  input  logic [511:0]          rdata_i,   // the SRAM read of the entry
  output logic [511:0]          line_o,    // the line this piece's units are blended into
  output logic [31:0]           pass_o,    // halfwords blended by this pass
  output logic                  more_o,    // units left for the next clock
  output logic [Lanes-1:0][31:0] dst_o,    // the lanes' destination bits
  output logic [Lanes-1:0][31:0] src_o,    // the lanes' source colours
  output logic [31:0][3:0]   lane_o     // per halfword: its unit's lane (where pass_o)
);

  logic                        b565;
  logic [511:0]                base, line;
  logic [31:0]                 um;      // the piece's units
  logic [31:0][4:0]            rank;    // the number of units below each
  logic [31:0][5:0]            pre;     // the number of units up to each (inclusive)
  logic [4:0]                  nl;      // lanes this clock (RGBA8_SRGB: SrgbLanes)
  logic [Lanes-1:0][31:0]      lsel;    // lane i takes unit p (one-hot in p)
  logic [Lanes-1:0][1:0]       lpx;     // the pixel of each blend lane

  // the line as it is now, the fill data in the halfwords that were not valid
  always_comb begin
    b565 = (fmt_i == pineda_pkg::RT_FMT_B5G6R5);
    nl   = (fmt_i == pineda_pkg::RT_FMT_RGBA8_SRGB) ? 5'(SrgbLanes) : 5'(Lanes);
    if (x_valid_i && x_ent_i == ent_i)        base = x_line_i;
    else if (w_valid_i && w_ent_i == ent_i)   base = w_line_i;
    else if (wf_valid_i && wf_ent_i == ent_i) base = wf_data_i;
    else                                      base = rdata_i;
    for (int k = 0; k < 32; k++) begin
      line[16*k +: 16] = fm_i[k] ? fd_i[16*k +: 16] : base[16*k +: 16];
    end
    line_o = line;
  end
  // Blend units: 4-byte formats, dword k (its two halfwords); B5G6R5, halfword k. A piece
  // usually has at most 8 (a quad row: 2 pixels, or 8 samples at 4x); one that holds both rows
  // of a quad (pitch below 64 bytes: stage 1 merged them) up to 16, anywhere in the line.
  always_comb begin
    for (int p = 0; p < 32; p++) begin
      um[p] = b565 ? mask_i[p] : (p < 16) && mask_i[(2 * p) % 32];
    end
    // ranks by a parallel prefix (Sklansky: 5 levels of adders, not a chain of 32)
    for (int p = 0; p < 32; p++) pre[p] = 6'(um[p]);
    for (int k = 0; k < 5; k++) begin
      for (int p = 0; p < 32; p++) begin
        if (((p >> k) & 1) == 1) pre[p] = pre[p] + pre[((p >> k) << k) - 1];
      end
    end
    for (int p = 0; p < 32; p++) rank[p] = (p == 0) ? 5'd0 : 5'(pre[(p + 31) % 32]);
    pass_o = '0;
    for (int p = 0; p < 32; p++) begin
      if (um[p] && rank[p] < nl) begin
        if (b565) pass_o[p] = 1'b1;
        else      pass_o[(2 * p) % 32 +: 2] = 2'b11;
      end
    end
    more_o = valid_i && ((mask_i & ~pass_o) != '0);
    for (int h = 0; h < 32; h++) begin
      lane_o[h] = 4'(b565 ? rank[h] : rank[h / 2]);
    end
  end
  // Compaction: lane i takes the unit of rank i, its destination bits (B5G6R5: in the lane's low
  // 16 bits) and its pixel's source colour.
  always_comb begin
    for (int i = 0; i < Lanes; i++) begin
      dst_o[i] = '0;
      lpx[i]   = '0;
      for (int p = 0; p < 32; p++) begin
        lsel[i][p] = um[p] && (rank[p] == 5'(i));
        if (lsel[i][p]) begin
          if (b565) begin
            dst_o[i] = dst_o[i] | {16'd0, line[16*p +: 16]};
            lpx[i]   = lpx[i] | sel_i[2*p +: 2];
          end else begin
            dst_o[i] = dst_o[i] | line[32*(p % 16) +: 32];
            lpx[i]   = lpx[i] | sel_i[4*(p % 16) +: 2];
          end
        end
      end
      src_o[i] = src_i[lpx[i]];
    end
  end

endmodule
