// SPDX-License-Identifier: Apache-2.0
// fp32_add: y = a + b, IEEE-754 binary32, round to nearest even, denormal inputs read as zero,
// tiny results flushed to a signed zero, overflow to Inf, every NaN result FP32_QNAN
// (docs/numerics.md §7; C++ twin: fp32::add in cpp_model/common/fp32.cpp). a - b is
// fp32_add(a, b ^ 32'h8000_0000). Combinational (latency 0).
//
// Steps: order the operands by magnitude (the result takes the larger one's sign), align the
// smaller one in 27 bits (24-bit significand, guard, round, sticky ORed into bit 0), add or
// subtract, normalise (right by one after a carry, left by the leading-zero count after a
// subtraction), round in fp32_round. An exact cancellation gives +0; -0 + -0 = -0.
module fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  logic              a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  logic              swap;
  logic [31:0]       op_hi, op_lo;
  logic [7:0]        diff;
  logic [26:0]       m_hi, m_lo, m_aligned, lost_mask;
  logic [27:0]       sum;
  logic [26:0]       norm;
  logic [4:0]        lzc;
  logic signed [9:0] exp_n;
  logic [31:0]       rounded;

  always_comb begin
    // 1. Specials (a denormal is a zero).
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    b_nan  = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    b_inf  = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    b_zero = (b_i[30:23] == 8'h00);

    // 2. Order by magnitude: |op_hi| >= |op_lo|, so diff >= 0.
    swap  = b_i[30:0] > a_i[30:0];
    op_hi = swap ? b_i : a_i;
    op_lo = swap ? a_i : b_i;
    diff  = op_hi[30:23] - op_lo[30:23];

    // 3. Align the smaller significand; the bits shifted out become the sticky bit 0.
    m_hi      = {1'b1, op_hi[22:0], 3'b000};
    m_lo      = {1'b1, op_lo[22:0], 3'b000};
    lost_mask = '0;
    if (diff >= 8'd27) begin
      m_aligned = 27'd1;  // only the sticky is left
    end else begin
      lost_mask = ~(27'h7FF_FFFF << diff[4:0]);
      m_aligned = (m_lo >> diff[4:0]) | {26'd0, |(m_lo & lost_mask)};
    end

    // 4. Add or subtract magnitudes and normalise (bit 26 = the leading 1).
    exp_n = $signed({2'b00, op_hi[30:23]});
    lzc   = '0;
    if (a_i[31] == b_i[31]) begin
      sum = {1'b0, m_hi} + {1'b0, m_aligned};
      if (sum[27]) begin
        norm  = {sum[27:2], sum[1] | sum[0]};
        exp_n = exp_n + 10'sd1;
      end else begin
        norm = sum[26:0];
      end
    end else begin
      sum = {1'b0, m_hi - m_aligned};
      for (int i = 0; i < 27; i++) begin
        if (sum[i]) begin
          lzc = 5'(26 - i);  // the highest set bit wins
        end
      end
      norm  = sum[26:0] << lzc;
      exp_n = exp_n - $signed({5'd0, lzc});
    end
  end

  always_comb begin
    // 5. Rounding in fp32_round; specials and exact cancellation override it.
    if (a_nan || b_nan || (a_inf && b_inf && (a_i[31] != b_i[31]))) begin
      y_o = pineda_pkg::FP32_QNAN;
    end else if (a_inf) begin
      y_o = a_i;
    end else if (b_inf) begin
      y_o = b_i;
    end else if (a_zero && b_zero) begin
      y_o = {a_i[31] & b_i[31], 31'd0};
    end else if (a_zero) begin
      y_o = b_i;
    end else if (b_zero) begin
      y_o = a_i;
    end else if (sum == 28'd0) begin
      y_o = 32'd0;  // exact cancellation: +0
    end else begin
      y_o = rounded;
    end
  end

  fp32_round u_round (
    .sign_i  (op_hi[31]),
    .exp_i   (exp_n),
    .sig_i   (norm[26:3]),
    .guard_i (norm[2]),
    .sticky_i(norm[1] | norm[0]),
    .y_o     (rounded)
  );

  logic unused_sig;
  assign unused_sig = op_lo[31];

endmodule
