// SPDX-License-Identifier: Apache-2.0
// fp32_rcp_p: fp32_rcp (y = 1/a correctly rounded, same bits for every input: docs/numerics.md
// §7.3) in Stages (2 or 3) pipeline stages, a new operation every clock, the result Stages clocks
// after its operand (latency Stages); en_i low holds every stage (a stall: tie it to 1 in a
// pipeline that never stops). The restoring division's 25 rows are cut after quotient bit 12
// (Stages = 2: stage 1 computes quotient bits 24..12 and the partial remainder, stage 2 bits
// 11..0) or after bits 16 and 7 (Stages = 3: bits 24..16, 15..7, 6..0); the last stage also
// rounds (fp32_round) and selects the special case. y_o is a register.
module fp32_rcp_p #(
  parameter int unsigned Stages = 2
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  output logic [31:0] y_o
);

  // The lowest quotient bit of stage 1 and of the middle stage (Stages = 3; Stages = 2 has no
  // middle stage: its rows are empty and its register unused).
  localparam int Lo1 = (Stages == 3) ? 16 : 12;
  localparam int Lo2 = (Stages == 3) ? 7 : 12;

  typedef struct packed {
    logic        spec;      // the result is spec_val (NaN, Inf, zero, power of two)
    logic [31:0] spec_val;
    logic        sign;
    logic [9:0]  exp_n;     // 253 - the biased exponent
    logic [22:0] frac;      // a's fraction (the divisor)
    logic [24:0] rem;       // partial remainder after the stage's last row
    logic [24:0] quo;       // quotient bits computed so far (the rest 0)
  } s_t;

  s_t          s1_q, s1_d, s2_q, s2_d, s2;

  logic              a_nan, a_inf, a_zero, pow2;
  logic [24:0]       divisor1, rem1, trial1;
  logic signed [9:0] exp_p2;

  always_comb begin
    s1_d   = '0;
    a_nan  = (a_i[30:23] == 8'hFF) && (a_i[22:0] != 23'd0);
    a_inf  = (a_i[30:23] == 8'hFF) && (a_i[22:0] == 23'd0);
    a_zero = (a_i[30:23] == 8'h00);
    pow2   = (a_i[22:0] == 23'd0);
    exp_p2 = 10'sd254 - $signed({2'b00, a_i[30:23]});
    s1_d.spec = 1'b1;
    if (a_nan) begin
      s1_d.spec_val = pineda_pkg::FP32_QNAN;
    end else if (a_inf) begin
      s1_d.spec_val = {a_i[31], 31'd0};
    end else if (a_zero) begin
      s1_d.spec_val = {a_i[31], 8'hFF, 23'd0};
    end else if (pow2) begin
      s1_d.spec_val = (exp_p2 <= 10'sd0) ? {a_i[31], 31'd0} : {a_i[31], exp_p2[7:0], 23'd0};
    end else begin
      s1_d.spec     = 1'b0;
      s1_d.spec_val = 32'd0;
    end
    s1_d.sign  = a_i[31];
    s1_d.exp_n = 10'(10'sd253 - $signed({2'b00, a_i[30:23]}));
    s1_d.frac  = a_i[22:0];
    divisor1   = {2'b01, a_i[22:0]};
    rem1       = 25'h080_0000;
    trial1     = '0;
    for (int i = 24; i >= Lo1; i--) begin
      rem1   = {rem1[23:0], 1'b0};
      trial1 = rem1 - divisor1;
      s1_d.quo[i] = (rem1 >= divisor1);
      if (rem1 >= divisor1) begin
        rem1 = trial1;
      end
    end
    s1_d.rem = rem1;
    if (!en_i) s1_d = s1_q;
  end

  // The middle stage (Stages = 3): rows Lo1 - 1 .. Lo2.
  logic [24:0] divisorm, remm, trialm;

  always_comb begin
    s2_d     = s1_q;
    divisorm = {2'b01, s1_q.frac};
    remm     = s1_q.rem;
    trialm   = '0;
    for (int i = Lo1 - 1; i >= Lo2; i--) begin
      remm   = {remm[23:0], 1'b0};
      trialm = remm - divisorm;
      s2_d.quo[i] = (remm >= divisorm);
      if (remm >= divisorm) begin
        remm = trialm;
      end
    end
    s2_d.rem = remm;
    if (Stages == 3) begin
      s2 = s2_q;
      if (!en_i) s2_d = s2_q;
    end else begin
      s2   = s2_d;      // no middle register
      s2_d = '0;
    end
  end

  // Stage registers (each holds unless en_i)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= '0;
      s2_q <= '0;
    end else begin
      s1_q <= s1_d;
      s2_q <= s2_d;
    end
  end

  // The last stage: rows Lo2 - 1 .. 0, the rounding.
  logic [24:0] divisor2, rem2, trial2, quo;

  always_comb begin
    divisor2 = {2'b01, s2.frac};
    rem2     = s2.rem;
    trial2   = '0;
    quo      = s2.quo;
    for (int i = Lo2 - 1; i >= 0; i--) begin
      rem2   = {rem2[23:0], 1'b0};
      trial2 = rem2 - divisor2;
      quo[i] = (rem2 >= divisor2);
      if (quo[i]) begin
        rem2 = trial2;
      end
    end
  end

  fp32_round_q u_round (
    .clk_i, .rst_ni, .en_i,
    .spec_i    (s2.spec),
    .spec_val_i(s2.spec_val),
    .sign_i    (s2.sign),
    .exp_i     ($signed(s2.exp_n)),
    .sig_i     (quo[24:1]),
    .guard_i   (quo[0]),
    .sticky_i  (rem2 != 25'd0),
    .y_o
  );

endmodule
