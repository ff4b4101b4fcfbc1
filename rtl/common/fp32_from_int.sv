// SPDX-License-Identifier: Apache-2.0
// fp32_from_int: a W-bit signed integer rounded to nearest even to FP32 (docs/numerics.md §9).
// C++ twin: fp32::from_int in cpp_model/common/fp32.cpp. The magnitude is normalised (its
// leading one moved to bit W-1), its top 24 bits are the significand, the next the guard bit,
// the rest the sticky; fp32_round rounds and packs. Combinational.
module fp32_from_int #(
  parameter int unsigned W = 51   // 26 .. 127
) (
  input  logic [W-1:0] a_i,
  output logic [31:0]  y_o
);

  logic [W-1:0]      mag, norm;
  logic [6:0]        lz;       // leading zeros of mag
  logic signed [9:0] exp;
  logic [31:0]       packed_y;

  always_comb begin
    mag = a_i[W-1] ? -a_i : a_i;  // -2^(W-1) stays 2^(W-1) as unsigned
    lz  = 7'(W);
    for (int i = 0; i < W; i++) begin
      if (mag[i]) lz = 7'(W - 1 - i);
    end
    norm = mag << lz;
    exp  = 10'sd127 + 10'(W - 1) - $signed({3'd0, lz});
  end

  fp32_round u_round (
    .sign_i   (a_i[W-1]),
    .exp_i    (exp),
    .sig_i    (norm[W-1:W-24]),
    .guard_i  (norm[W-25]),
    .sticky_i (|norm[W-26:0]),
    .y_o      (packed_y)
  );

  assign y_o = (mag == '0) ? 32'd0 : packed_y;

endmodule
