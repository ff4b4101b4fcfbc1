// SPDX-License-Identifier: Apache-2.0
// resolve_srgb: one colour channel of the sRGB resolve (docs/om.md sections 3 and 7), a pipeline
// of five register stages that advances when adv_i is high (resolve_pixel's global stall):
//   out = lin16_to_srgb((L0 + L1 + L2 + L3 + 2) >> 2), Lk = SRGB_TO_LIN16[ck],
// bit-exact with pineda_pkg::lin16_to_srgb (the 8-step binary search) for every v.
//   stage 1: the four SRGB_TO_LIN16 lookups (four 256 x 16 ROMs, one per sample);
//   stage 2: v = (L0 + L1 + L2 + L3 + 2) >> 2;
//   stage 3: c = CODE[idx(v)] (512 x 8 ROM): idx(v) is v[15:8] for v >= 16384, v[13:6] for
//            1024 <= v < 16384, 256 + v[9:4] below, buckets narrow enough that at most two
//            codes fall in one; CODE = (the bucket's highest code) - 1, or 0;
//   stage 4: t = LIN16_TO_SRGB_T[c + 1] (256 x 16 ROM, the table shifted by one);
//   stage 5: out = c + (v >= t).
// Six SB_RAM40_4K, a 16-bit sum, a compare and an increment.
module resolve_srgb (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       adv_i,   // the pipeline moves one stage
  input  logic [31:0] c_i,    // the four samples' codes, sample k in [8k +: 8] (stage 0)
  output logic [7:0] srgb_o   // stage 5
);

  // The bucket of v (v[15:4]).
  function automatic logic [8:0] code_idx(input logic [11:0] v);
    if (v[11:10] != 2'd0)    code_idx = {1'b1, v[11:4]};
    else if (v[9:6] != 4'd0) code_idx = {1'b0, v[9:2]};
    else                     code_idx = {3'b100, v[5:0]};
  endfunction

  // CODE table, computed at elaboration from LIN16_TO_SRGB_T: entry i = the code of the
  // bucket's largest v, minus one (0 for code 0). Indices 0..15 are never addressed.
  function automatic logic [4095:0] code_table();
    logic [4095:0] t;
    logic [15:0]   vhi;
    logic [7:0]    c;
    t = '0;
    for (int i = 0; i < 512; i++) begin
      if (i >= 256 && i < 320) vhi = {6'd0, 6'(i), 4'hF};
      else if (i >= 256)       vhi = {8'(i), 8'hFF};
      else                     vhi = {2'd0, 8'(i), 6'h3F};
      c = pineda_pkg::lin16_to_srgb(vhi);
      t[8*i +: 8] = (c == 8'd0) ? 8'd0 : c - 8'd1;
    end
    code_table = t;
  endfunction

  localparam logic [4095:0] CodeTab = code_table();
  // T[c + 1] at address c; address 255 (never read: CODE <= 254) holds 0xFFFF.
  localparam logic [4095:0] NextTab = {16'hFFFF, pineda_pkg::LIN16_TO_SRGB_T[4095:16]};

  // Stage 1: linear values.
  logic [3:0][15:0] lin;
  for (genvar k = 0; k < 4; k++) begin : g_lin
    sram_rom #(
      .Width(16),
      .Depth(256),
      .Init (pineda_pkg::SRGB_TO_LIN16)
    ) u_lin (
      .clk_i,
      .re_i   (adv_i),
      .addr_i (c_i[8*k +: 8]),
      .rdata_o(lin[k])
    );
  end

  // Stage 2: the average.
  logic [15:0] v2_q, v2_d;
  // Stage 3: the bucket's code (ROM), v
  logic [7:0]  c3;
  logic [15:0] v3_q, v3_d;
  // Stage 4: the next threshold (ROM), c, v
  logic [15:0] t4;
  logic [7:0]  c4_q, c4_d;
  logic [15:0] v4_q, v4_d;
  // Stage 5: the code
  logic [7:0]  o5_q, o5_d;
  logic [15:0] avg;
  logic [8:0]  idx;

  always_comb begin
    avg  = 16'((18'(lin[0]) + 18'(lin[1]) + 18'(lin[2]) + 18'(lin[3]) + 18'd2) >> 2);
    idx  = code_idx(v2_q[15:4]);
    v2_d = v2_q;
    v3_d = v3_q;
    c4_d = c4_q;
    v4_d = v4_q;
    o5_d = o5_q;
    if (adv_i) begin
      v2_d = avg;
      v3_d = v2_q;
      c4_d = c3;
      v4_d = v3_q;
      o5_d = c4_q + 8'((v4_q >= t4) ? 1 : 0);
    end
  end

  sram_rom #(
    .Width(8),
    .Depth(512),
    .Init (CodeTab)
  ) u_code (
    .clk_i,
    .re_i   (adv_i),
    .addr_i (idx),
    .rdata_o(c3)
  );

  sram_rom #(
    .Width(16),
    .Depth(256),
    .Init (NextTab)
  ) u_next (
    .clk_i,
    .re_i   (adv_i),
    .addr_i (c3),
    .rdata_o(t4)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v2_q <= '0;
      v3_q <= '0;
      c4_q <= '0;
      v4_q <= '0;
      o5_q <= '0;
    end else begin
      v2_q <= v2_d;
      v3_q <= v3_d;
      c4_q <= c4_d;
      v4_q <= v4_d;
      o5_q <= o5_d;
    end
  end

  assign srgb_o = o5_q;

endmodule
