// SPDX-License-Identifier: Apache-2.0
// pw_stage3w: one bank's stages 3X and 3W of the pixel writer (docs/om.md section 5, "Stage 3's
// blend lanes"), from the registers stage 3R (pw_stage3) filled: the Lanes blend lanes (om_blend
// #(Pipe): a register inside every lane) take two clocks, the first (stage 3X: the s3x_*
// registers, dst_i, src_i, om_x_i) up to the lanes' register, the second (stage 3W: the s3w_*
// registers) from it to the lanes' results, which the scatter puts back into the line.
// The line a piece blends into: the one stage 3R saw, with the halfwords that last clock's stage
// 3W wrote (wf_*) when on the same entry, once in stage 3X (x_line_pre_o, which stage 3W
// registers) and once in stage 3W (line_pre_o): stage 3R could not see the writes of the two
// pieces ahead of it (in stages 3X and 3W then; the pixel writer holds a piece that shares a
// halfword with either in stage B). That line keeps the fill this piece merged in stage 3R (the
// previous piece may have hit on a partly valid line). Stage 3R reads x_line_pre_o and line_pre_o
// for a piece on the same entry one and two clocks behind.
module pw_stage3w #(
  parameter int unsigned EW    = 5,
  parameter int unsigned Lanes = 8,
  parameter int unsigned SrgbLanes = 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // stage 3X
  input  logic [EW-1:0]          x_ent_i,   // the piece's entry
  input  logic [511:0]           x_line_i,  // the line stage 3R saw (its fill merged)
  input  logic [Lanes-1:0][31:0] dst_i,     // the lanes' destination bits
  input  logic [Lanes-1:0][31:0] src_i,     // the lanes' source colours
  input  pineda_pkg::om_state_t  om_x_i,
  output logic [511:0]           x_line_pre_o,  // its line with last clock's stage-3W writes
  // stage 3W
  input  logic [EW-1:0]          ent_i,     // the piece's entry
  input  logic [511:0]           line_i,    // stage 3X's x_line_pre_o, one clock later
  input  logic [31:0]            pass_i,    // halfwords blended by this pass
  input  logic [31:0][Lanes-1:0] lane_i,    // per halfword: its unit's lane, one-hot (0: not
                                            // blended by this pass)
  input  pineda_pkg::om_state_t  om_i,
  input  logic                   wf_valid_i,  // last clock's stage-3W line of this bank
  input  logic [EW-1:0]          wf_ent_i,
  input  logic [511:0]           wf_data_i,
  input  logic [31:0]            wf_wm_i,     // the halfwords it wrote
  output logic [511:0]           line_pre_o,  // the line before this piece's results
  output logic [511:0]           line_o       // the whole line after this clock
);

  logic                   b565;
  logic [Lanes-1:0][31:0] pix;   // stage 3W's piece's results
  logic [15:0]            w;
  logic                   xf, wfw;

  om_blend #(.Lanes(Lanes), .SrgbLanes(SrgbLanes), .Pipe(1'b1)) u_blend (
    .clk_i,
    .rst_ni,
    .state_i   (om_x_i),
    .state_b_i (om_i),
    .src_i     (src_i),
    .dst_i     (dst_i),
    .pix_o     (pix)
  );

  // Last clock's writes into both lines; the scatter: each halfword blended this clock from its
  // unit's lane, the others as they are
  always_comb begin
    b565 = (om_i.fmt == pineda_pkg::RT_FMT_B5G6R5);
    xf   = wf_valid_i && wf_ent_i == x_ent_i;
    wfw  = wf_valid_i && wf_ent_i == ent_i;
    for (int h = 0; h < 32; h++) begin
      x_line_pre_o[16*h +: 16] = (xf && wf_wm_i[h]) ? wf_data_i[16*h +: 16] : x_line_i[16*h +: 16];
      line_pre_o[16*h +: 16]   = (wfw && wf_wm_i[h]) ? wf_data_i[16*h +: 16] : line_i[16*h +: 16];
    end
    // the scatter as an AND-OR of one-hot selects (no mux tree after the lanes)
    for (int h = 0; h < 32; h++) begin
      w = pass_i[h] ? 16'd0 : line_pre_o[16*h +: 16];
      for (int i = 0; i < Lanes; i++) begin
        if (b565 || h % 2 == 0) w = w | ({16{lane_i[h][i]}} & pix[i][15:0]);
        else                    w = w | ({16{lane_i[h][i]}} & pix[i][31:16]);
      end
      line_o[16*h +: 16] = w;
    end
  end

endmodule
