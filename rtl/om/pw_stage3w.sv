// SPDX-License-Identifier: Apache-2.0
// pw_stage3w: one bank's stage 3W of the pixel writer (docs/om.md section 5, "Stage 3's blend
// lanes"), combinational, from the registers stage 3R (pw_stage3) filled last clock: the Lanes
// blend lanes (om_blend) on the compacted units, and the scatter of their results back into the
// line. The line the piece blends into (line_pre_o) is the one stage 3R saw with, when last
// clock's stage 3W wrote the same entry (wf_*), the halfwords that wrote: stage 3R could not see
// them (that piece was in stage 3W then). That line keeps the fill this piece merged in stage 3R
// (the previous piece may have hit on a partly valid line). Stage 3R reads line_pre_o for a piece
// on the same entry one clock behind.
module pw_stage3w #(
  parameter int unsigned EW    = 5,
  parameter int unsigned Lanes = 8,
  parameter int unsigned SrgbLanes = 2
) (
  input  logic [EW-1:0]          ent_i,     // the piece's entry
  input  logic [511:0]           line_i,    // the line stage 3R saw (its fill merged)
  input  logic [31:0]            pass_i,    // halfwords blended by this pass
  input  logic [Lanes-1:0][31:0] dst_i,     // the lanes' destination bits
  input  logic [Lanes-1:0][31:0] src_i,     // the lanes' source colours
  input  logic [31:0][3:0]    lane_i,    // per halfword: its unit's lane
  input  pineda_pkg::om_state_t  om_i,
  input  logic                   wf_valid_i,  // last clock's stage-3W line of this bank
  input  logic [EW-1:0]          wf_ent_i,
  input  logic [511:0]           wf_data_i,
  input  logic [31:0]            wf_wm_i,     // the halfwords it wrote
  output logic [511:0]           line_pre_o,  // the line before this piece's results
  output logic [511:0]           line_o       // the whole line after this clock
);

  logic                   b565;
  logic [Lanes-1:0][31:0] pix;
  logic [31:0]            w;

  om_blend #(.Lanes(Lanes), .SrgbLanes(SrgbLanes)) u_blend (
    .state_i (om_i),
    .src_i   (src_i),
    .dst_i   (dst_i),
    .pix_o   (pix)
  );

  // Scatter: each halfword blended this clock from its unit's lane, the others as they are
  always_comb begin
    b565       = (om_i.fmt == pineda_pkg::RT_FMT_B5G6R5);
    for (int h = 0; h < 32; h++) begin
      line_pre_o[16*h +: 16] = (wf_valid_i && wf_ent_i == ent_i && wf_wm_i[h]) ? wf_data_i[16*h +: 16]
                                                                             : line_i[16*h +: 16];
    end
    for (int h = 0; h < 32; h++) begin
      w = pix[lane_i[h]];
      line_o[16*h +: 16] = !pass_i[h] ? line_pre_o[16*h +: 16] :
                           (b565 || h % 2 == 0) ? w[15:0] : w[31:16];
    end
  end

endmodule
