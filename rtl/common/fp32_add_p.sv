// SPDX-License-Identifier: Apache-2.0
// fp32_add_p: fp32_add (y = a + b, same bits for every input: docs/numerics.md §7) in two
// pipeline stages, a new operation every clock, the result 2 clocks after its operands
// (latency 2); en_i low holds both stages (a stall: tie it to 1 in a pipeline that never
// stops). Stage 1: specials, order by magnitude, align, add or subtract the
// significands (fp32_add's steps 1-4 up to the raw sum); stage 2: normalise (carry or
// leading-zero shift), round (fp32_round) and the special-case select. y_o is a register.
module fp32_add_p (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  // stage 1 -> 2
  typedef struct packed {
    pineda_pkg::fp32_spec_t spec;  // valid: the result is spec.val (NaN, Inf, a zero operand)
    logic        sub;       // magnitudes subtracted (operand signs differ)
    logic        sign;      // sign of the larger magnitude
    logic [7:0]  exp;       // its biased exponent
    logic [27:0] sum;       // the raw sum or difference of the aligned significands
  } s1_t;

  s1_t         s1_q, s1_d;

  logic              a_nan, b_nan, a_inf, b_inf, a_zero, b_zero, swap;
  logic [31:0]       op_hi, op_lo;
  logic [7:0]        diff;
  logic [26:0]       m_hi, m_lo, m_aligned, lost_mask;

  always_comb begin
    s1_d   = '0;
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    b_nan  = (b_i[30:23] == 8'hFF) && (b_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    b_inf  = (b_i[30:23] == 8'hFF) && (b_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    b_zero = (b_i[30:23] == 8'h00);
    s1_d.spec.valid = 1'b1;
    if (a_nan || b_nan || (a_inf && b_inf && (a_i[31] != b_i[31]))) begin
      s1_d.spec.val = pineda_pkg::FP32_QNAN;
    end else if (a_inf) begin
      s1_d.spec.val = a_i;
    end else if (b_inf) begin
      s1_d.spec.val = b_i;
    end else if (a_zero && b_zero) begin
      s1_d.spec.val = {a_i[31] & b_i[31], 31'd0};
    end else if (a_zero) begin
      s1_d.spec.val = b_i;
    end else if (b_zero) begin
      s1_d.spec.val = a_i;
    end else begin
      s1_d.spec.valid = 1'b0;
      s1_d.spec.val = 32'd0;
    end

    swap  = b_i[30:0] > a_i[30:0];
    op_hi = swap ? b_i : a_i;
    op_lo = swap ? a_i : b_i;
    diff  = op_hi[30:23] - op_lo[30:23];
    m_hi      = {1'b1, op_hi[22:0], 3'b000};
    m_lo      = {1'b1, op_lo[22:0], 3'b000};
    lost_mask = '0;
    if (diff >= 8'd27) begin
      m_aligned = 27'd1;
    end else begin
      lost_mask = ~(27'h7FF_FFFF << diff[4:0]);
      m_aligned = (m_lo >> diff[4:0]) | {26'd0, |(m_lo & lost_mask)};
    end
    s1_d.sub  = (a_i[31] != b_i[31]);
    s1_d.sign = op_hi[31];
    s1_d.exp  = op_hi[30:23];
    if (a_i[31] == b_i[31]) begin
      s1_d.sum = {1'b0, m_hi} + {1'b0, m_aligned};
    end else begin
      s1_d.sum = {1'b0, m_hi - m_aligned};
    end
  end

  // Stage 1 -> 2 register (holds while en_i is low)
  flop_en #(.Width($bits(s1_d))) u_s1 (.clk_i, .rst_ni, .en_i, .d_i(s1_d), .q_o(s1_q));

  // Stage 2
  logic [26:0]       norm;
  logic [4:0]        lzc;
  logic signed [9:0] exp_n;

  always_comb begin
    exp_n = $signed({2'b00, s1_q.exp});
    lzc   = '0;
    if (!s1_q.sub) begin
      if (s1_q.sum[27]) begin
        norm  = {s1_q.sum[27:2], s1_q.sum[1] | s1_q.sum[0]};
        exp_n = exp_n + 10'sd1;
      end else begin
        norm = s1_q.sum[26:0];
      end
    end else begin
      for (int i = 0; i < 27; i++) begin
        if (s1_q.sum[i]) begin
          lzc = 5'(26 - i);
        end
      end
      norm  = s1_q.sum[26:0] << lzc;
      exp_n = exp_n - $signed({5'd0, lzc});
    end
  end

  // An exact cancellation (sum 0) gives +0, like a special case (spec.val is 0 unless valid).
  fp32_round_q u_round (
    .clk_i, .rst_ni, .en_i,
    .spec_i    ({s1_q.spec.valid || (s1_q.sum == 28'd0), s1_q.spec.val}),
    .sign_i    (s1_q.sign),
    .exp_i     (exp_n),
    .sig_i     (norm[26:3]),
    .guard_i   (norm[2]),
    .sticky_i  (norm[1] | norm[0]),
    .y_o
  );

  logic unused_lo;
  assign unused_lo = op_lo[31];

endmodule
