// SPDX-License-Identifier: Apache-2.0
// csa_dot2: y = a*x + b*z + c modulo 2^OW (exact whenever the result fits OW bits signed), for
// setup's multi-operand sums: the edge constants and the depth plane's reference value
// (docs/numerics.md §3, §9). a, b: AW-bit signed multiplicands; x, z: MW-bit signed multipliers;
// c: OW-bit.
//
// CarrySave = 1 (default): one tree over every partial product: MW rows per product
//   (row i = a << i where x[i] is set; the sign row MW-1 is subtracted as ~(a << (MW-1)) plus a
//   1 in a correction row), c and the correction row: 2*MW + 2 rows reduced by levels of 3:2
//   carry-save adders (each level maps every group of 3 rows to 2, leftovers pass) to two rows,
//   then ONE carry-propagate add.
//   Booth = 1 (default): the rows are radix-4 Booth partial products instead, D = ceil(MW / 2)
//   per product (x and z sign-extended to 2D bits, x[-1] = 0; each digit in {-2..2} selects 0,
//   +-a or +-2a, a negative one as ~(.) with its 1 in a negation row per product): 2D + 3 rows
//   (29 instead of 52 at MW = 25), as in rtl/common/mul_booth.
// CarrySave = 0: the plain form a*x + b*z + c (two multipliers and two carry-propagate adds, as
//   the synthesiser maps them). Same results; the parameter exists to compare the two in Yosys.
// Combinational.
module csa_dot2 #(
  parameter int unsigned AW        = 25,
  parameter int unsigned MW        = 25,
  parameter int unsigned OW        = 52,
  parameter bit          CarrySave = 1'b1,
  parameter bit          Booth     = 1'b1
) (
  input  logic signed [AW-1:0] a_i,
  input  logic signed [MW-1:0] x_i,
  input  logic signed [AW-1:0] b_i,
  input  logic signed [MW-1:0] z_i,
  input  logic [OW-1:0]        c_i,
  output logic [OW-1:0]        y_o
);

  localparam int unsigned D = (MW + 1) / 2;                  // Booth digits per product
  localparam int unsigned N = Booth ? 2 * D + 3 : 2 * MW + 2;  // rows
  localparam int unsigned NMax = 2 * MW + 3;                    // the array (either form's rows)

  // Rows left after level l of the tree.
  function automatic int unsigned cnt_at(input int unsigned l);
    int unsigned n;
    n = N;
    for (int unsigned i = 0; i < l; i++) begin
      n = (n / 3) * 2 + n % 3;
    end
    cnt_at = n;
  endfunction

  function automatic int unsigned levels(input int unsigned rows);
    int unsigned n, k;
    n = rows;
    k = 0;
    for (int unsigned i = 0; i < 64; i++) begin
      if (n > 2) begin
        n = (n / 3) * 2 + n % 3;
        k = k + 1;
      end
    end
    levels = k;
  endfunction

  localparam int unsigned L = levels(N);

  logic signed [OW-1:0] ax, bx;     // sign-extended multiplicands
  logic [2*D:0]         xe, ze;     // Booth: the multipliers sign-extended, with bit -1 = 0
  logic                 one, two, neg;
  logic [OW-1:0]        sel;
  logic [OW-1:0]        lv [L+1][NMax];

  always_comb begin
    ax = OW'(a_i);
    bx = OW'(b_i);
    for (int l = 0; l <= L; l++) begin
      for (int r = 0; r < int'(NMax); r++) begin
        lv[l][r] = '0;
      end
    end
    xe = {(2 * D)'(x_i), 1'b0};
    ze = {(2 * D)'(z_i), 1'b0};
    one = 1'b0;
    two = 1'b0;
    neg = 1'b0;
    sel = '0;
    if (Booth) begin
      // rows 0..D-1: x's digits times a; D..2D-1: z's times b; 2D: c; 2D+1, 2D+2: the negations
      for (int i = 0; i < int'(D); i++) begin
        one = xe[2*i+1] ^ xe[2*i];
        two = (xe[2*i+2] & ~xe[2*i+1] & ~xe[2*i]) | (~xe[2*i+2] & xe[2*i+1] & xe[2*i]);
        neg = xe[2*i+2];
        sel = one ? ax : (two ? (ax << 1) : '0);
        lv[0][i] = (neg ? ~sel : sel) << (2 * i);
        lv[0][2 * D + 1][2*i] = neg;
        one = ze[2*i+1] ^ ze[2*i];
        two = (ze[2*i+2] & ~ze[2*i+1] & ~ze[2*i]) | (~ze[2*i+2] & ze[2*i+1] & ze[2*i]);
        neg = ze[2*i+2];
        sel = one ? bx : (two ? (bx << 1) : '0);
        lv[0][D + i] = (neg ? ~sel : sel) << (2 * i);
        lv[0][2 * D + 2][2*i] = neg;
      end
      lv[0][2 * D] = c_i;
    end else begin
      for (int i = 0; i < int'(MW) - 1; i++) begin
        lv[0][i]      = x_i[i] ? (ax << i) : '0;
        lv[0][MW + i] = z_i[i] ? (bx << i) : '0;
      end
      lv[0][MW - 1]     = x_i[MW-1] ? ~(ax << (MW - 1)) : '0;
      lv[0][2 * MW - 1] = z_i[MW-1] ? ~(bx << (MW - 1)) : '0;
      lv[0][2 * MW]     = c_i;
      lv[0][2 * MW + 1] = OW'({1'b0, x_i[MW-1]}) + OW'({1'b0, z_i[MW-1]});
    end
    for (int l = 0; l < L; l++) begin
      for (int g = 0; g < N / 3; g++) begin
        if (g < cnt_at(l) / 3) begin
          lv[l+1][2*g]   = lv[l][3*g] ^ lv[l][3*g+1] ^ lv[l][3*g+2];
          lv[l+1][2*g+1] = {(lv[l][3*g][OW-2:0] & lv[l][3*g+1][OW-2:0]) |
                            (lv[l][3*g][OW-2:0] & lv[l][3*g+2][OW-2:0]) |
                            (lv[l][3*g+1][OW-2:0] & lv[l][3*g+2][OW-2:0]), 1'b0};
        end
      end
      for (int r = 0; r < 2; r++) begin
        if (r < cnt_at(l) % 3) begin
          lv[l+1][2*(cnt_at(l)/3)+r] = lv[l][3*(cnt_at(l)/3)+r];
        end
      end
    end
    if (CarrySave) begin
      y_o = lv[L][0] + lv[L][1];
    end else begin
      y_o = OW'($signed(ax) * $signed(OW'(x_i))) + OW'($signed(bx) * $signed(OW'(z_i))) + c_i;
    end
  end

endmodule
