// SPDX-License-Identifier: Apache-2.0
// tex_amode_div: steps Hi..Lo of a restoring division a mod d (combinational), so that the
// address modes' modulo (tex_amode_pre, tex_amode) can be split over pipeline stages:
// r_i is the remainder of a's bits above Hi (0 before the first step), r_o that of a's bits
// above Lo - 1 (r_i, r_o < d). 1 <= d < 2^14.
module tex_amode_div #(
  parameter int unsigned Hi = 16,
  parameter int unsigned Lo = 0
) (
  input  logic [16:0] a_i,
  input  logic [13:0] d_i,
  input  logic [13:0] r_i,
  output logic [13:0] r_o
);
  localparam int Steps = int'(Hi) - int'(Lo) + 1;
  logic [14:0] t;
  logic [13:0] r;
  always_comb begin
    r = r_i;
    t = '0;
    for (int k = 0; k < Steps; k++) begin
      t = {r, a_i[Hi - k]};
      r = (t >= {1'b0, d_i}) ? 14'(t - {1'b0, d_i}) : t[13:0];
    end
    r_o = r;
  end
  logic unused_sig;
  assign unused_sig = ^a_i;  // bits outside Hi..Lo belong to other stages
endmodule
