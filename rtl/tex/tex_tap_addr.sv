// SPDX-License-Identifier: Apache-2.0
// tex_tap_addr: the front of the sampler's tag stage (docs/tex.md section 7 step 6),
// combinational: for the 16 taps of a pass (tap 4p + k, k = {ky, kx}) whether it reads the L1
// or the border, its block's L1 tag ({block address [31:3], decode class}), L1 line, parity bank,
// texel in the bank word, and its bank group (a tap whose bank an earlier tap of its pixel reads
// at another line goes to a later sub-pass).
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_tap_addr #(
  parameter int unsigned IdxW = 8  // L1 line index bits: 8 (256 lines) or 6 (64 lines)
) (
  input  logic                    use_i,     // a sampling pass (not a token, no fault)
  input  logic                    linear_i,  // bilinear: four taps per pixel, else tap 4p only
  input  logic [3:0]              live_i,
  input  logic [15:0]             width_i,   // level-0 width
  input  logic [3:0]              lvl_i,
  input  logic [32:0]             lbase_i,   // the level's byte address
  input  logic [2:0]              bpb_lg_i,  // log2 bytes per 4x4 block
  input  logic [2:0]              dclass_i,  // decode class (part of the tag)
  input  logic [3:0][1:0][12:0]   xi_i,      // from tex_amode
  input  logic [3:0][1:0]         inu_i,
  input  logic [3:0][1:0][12:0]   yj_i,
  input  logic [3:0][1:0]         inv_i,
  output logic [15:0]             fetch_o,
  output logic [15:0]             border_o,
  output logic [15:0][31:0]       tag_o,
  output logic [15:0][IdxW-1:0]   idx_o,
  output logic [15:0][1:0]        bank_o,
  output logic [15:0][1:0]        sel_o,
  output logic [15:0][1:0]        grp_o
);

  logic [12:0] lw;
  logic [10:0] lbw;
  logic [3:0][1:0][22:0] rowoff;
  logic [7:0]  ix256;
  logic [5:0]  ix64;
  logic [15:0][12:0] tp_xi, tp_yj;
  logic [15:0][31:0] tp_blk;
  logic [15:0]       tp_use, tp_in;
  always_comb begin
    lw = (16'(width_i >> lvl_i) == 16'd0) ? 13'd1 : 13'(width_i >> lvl_i);
    lbw = 11'((lw + 13'd3) >> 2);
    for (int p = 0; p < 4; p++) begin
      for (int ky = 0; ky < 2; ky++) begin
        rowoff[p][ky] = 23'({12'd0, yj_i[p][ky][12:2]} * {12'd0, lbw});
      end
    end
    for (int t = 0; t < 16; t++) begin
      tp_use[t] = use_i && live_i[t/4] && (linear_i || (t % 4) == 0);
      tp_in[t] = inu_i[t/4][t%2] && inv_i[t/4][(t/2)%2];
      fetch_o[t] = tp_use[t] && tp_in[t];
      border_o[t] = tp_use[t] && !tp_in[t];
      tp_xi[t] = xi_i[t/4][t%2];
      tp_yj[t] = yj_i[t/4][(t/2)%2];
      tp_blk[t] = 32'(lbase_i + ((33'(rowoff[t/4][(t/2)%2]) + 33'(tp_xi[t][12:2])) << bpb_lg_i));
      tag_o[t] = {tp_blk[t][31:3], dclass_i};
      ix256 = {tp_yj[t][3:2] ^ tp_xi[t][9:8], tp_xi[t][7:2]} ^ {lvl_i[0], 1'b0, lvl_i[1], 5'd0};
      ix64 = {tp_yj[t][3:2] ^ tp_xi[t][7:6], tp_xi[t][5:2]} ^ {lvl_i[0], 1'b0, lvl_i[1], 3'd0};
      idx_o[t] = (IdxW == 8) ? IdxW'(ix256) : IdxW'(ix64);
      bank_o[t] = {tp_yj[t][0], tp_xi[t][0]};
      sel_o[t] = {tp_yj[t][1], tp_xi[t][1]};
    end
    // bank groups
    for (int t = 0; t < 16; t++) begin
      grp_o[t] = 2'd0;
      for (int k = 0; k < 4; k++) begin
        if (k < t % 4 && fetch_o[t] && fetch_o[4*(t/4) + k] && bank_o[4*(t/4) + k] == bank_o[t] &&
            idx_o[4*(t/4) + k] != idx_o[t]) grp_o[t] = 2'(t % 4);
      end
    end
  end

  logic unused_sig;
  assign unused_sig = ^{tp_blk, tp_xi, tp_yj, lw};

endmodule
