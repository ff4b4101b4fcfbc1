// SPDX-License-Identifier: Apache-2.0
// fp32_to_fix16_8: y = a * 256 rounded to nearest even, as a signed 16.8 fixed-point value in
// 24 bits (pineda_pkg::COORD_W), the snapping of ARCHITECTURE §4 (docs/numerics.md §7):
// NaN -> 0; zeros and denormals -> 0; +-Inf and values out of range saturate to
// [-2^23, 2^23 - 1] (FIX16_8_MAX). C++ twin: fp32::to_fix16_8 in cpp_model/common/fp32.cpp.
//
// a * 256 = m * 2^(e-142) for the 24-bit significand m: e >= 142 saturates; otherwise m is
// shifted right by s = 142 - e (capped at 27, where everything rounds to 0) keeping the guard
// bit and sticky, rounded to nearest even (the magnitude is then <= 2^23), negated for a
// negative a, and +2^23 saturates to 2^23 - 1. Combinational (latency 0).
module fp32_to_fix16_8 (
  input  logic [31:0] a_i,
  output logic [23:0] y_o   // two's complement, 8 fraction bits
);

  logic        a_nan, a_inf, a_zero, big;
  logic [5:0]  shift;
  logic [50:0] ext;          // integer part [50:27], fraction [26:0]
  logic [23:0] mag;
  logic        guard, sticky;

  always_comb begin
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    big    = (a_i[30:23] >= 8'd142);

    shift  = (a_i[30:23] < 8'd116) ? 6'd27 : 6'(8'd142 - a_i[30:23]);
    ext    = {1'b1, a_i[22:0], 27'd0} >> shift;
    mag    = ext[50:27];
    guard  = ext[26];
    sticky = |ext[25:0];
    mag    = mag + {23'd0, guard & (sticky | mag[0])};

    if (a_nan || a_zero) begin
      y_o = 24'd0;
    end else if (a_inf || big) begin
      y_o = a_i[31] ? 24'h80_0000 : pineda_pkg::FIX16_8_MAX;
    end else if (a_i[31]) begin
      y_o = -mag;
    end else begin
      y_o = mag[23] ? pineda_pkg::FIX16_8_MAX : mag;
    end
  end

endmodule
