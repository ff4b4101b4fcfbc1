// SPDX-License-Identifier: Apache-2.0
// zplane_d24: a depth plane value (pineda_pkg::ZPLANE_W bits signed, 2^-Z_FRAC D24 units) to
// D24: rounded half up, (z + 2^(Z_FRAC-1)) >>> Z_FRAC, then clamped to [lo, hi] (lo <= hi; the
// viewport depth range, docs/numerics.md §9). Monotone in z. Model: zplane_d24 in
// cpp_model/rast/zplane_d24.h. Combinational.
// Rounded = 1: z_i already holds z + 2^(Z_FRAC-1) (the caller folded the rounding constant
// into an add it does anyway); the result is the same function of z.
module zplane_d24 #(
  parameter bit Rounded = 1'b0
) (
  input  logic [pineda_pkg::ZPLANE_W-1:0] z_i,
  input  logic [23:0]                     lo_i,
  input  logic [23:0]                     hi_i,
  output logic [23:0]                     d_o
);

  localparam int unsigned ZW = pineda_pkg::ZPLANE_W;
  localparam int unsigned F  = pineda_pkg::Z_FRAC;
  localparam int unsigned RW = ZW - F;   // the rounded value, signed

  logic signed [ZW-1:0] zr;
  logic signed [RW-1:0] r;

  always_comb begin
    // |z| < 2^58: no overflow
    zr = Rounded ? $signed(z_i) : ($signed(z_i) + $signed(ZW'(1) << (F - 1)));
    r  = zr[ZW-1:F];
    if (r < $signed(RW'(lo_i)))      d_o = lo_i;
    else if (r > $signed(RW'(hi_i))) d_o = hi_i;
    else                             d_o = r[23:0];
  end

  logic unused_sig;
  assign unused_sig = ^zr[F-1:0];

endmodule
