// SPDX-License-Identifier: Apache-2.0
// pw_plain_line: the line data of a plain piece in the pixel writer's stage B (docs/om.md
// section 5), combinational: every halfword of the line takes its pixel's encoded colour
// (B5G6R5: the pixel's 16 bits; 4-byte formats: the half of the pixel's dword the halfword holds).
// The SRAM write's mask (the piece's halfwords) picks the ones written.
module pw_plain_line (
  input  logic [3:0][31:0] enc_i,   // each pixel's colour, encoded for the target format
  input  logic [63:0]      sel_i,   // the pixel of each halfword of the line
  input  logic             b565_i,  // 2-byte pixels (RT_FMT_B5G6R5)
  output logic [511:0]     data_o
);

  always_comb begin
    for (int h = 0; h < 32; h++) begin
      data_o[16*h +: 16] = b565_i ? enc_i[sel_i[2*h +: 2]][15:0] : enc_i[sel_i[2*h +: 2]][16*(h % 2) +: 16];
    end
  end

endmodule
