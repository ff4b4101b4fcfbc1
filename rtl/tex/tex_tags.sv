// SPDX-License-Identifier: Apache-2.0
// tex_tags: the sampler's L1 tag store (docs/tex.md section 7 steps 6 and 7): per line a valid
// bit, the tag ({block address [31:3], decode class}) and the sequence number of the last emitted
// sub-pass that reads it. The tags are the cache's *future* state: an allocation writes them at
// once (two lines per clock at most). All in flip-flops, read combinationally: the 16 taps' hits
// (16 read ports) and the last readers of the one or two lines being allocated.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_tags #(
  parameter int unsigned IdxW = 8  // 2^IdxW lines
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,     // forget every line (inval_i while idle)
  // hit check of the 16 taps
  input  logic [15:0][IdxW-1:0]        idx_i,
  input  logic [15:0][31:0]            tag_i,
  output logic [15:0]                  hit_o,
  // allocations: write the tag (and set valid) of one or two lines
  input  logic                         we0_i,
  input  logic [IdxW-1:0]              widx0_i,
  input  logic [31:0]                  wtag0_i,
  input  logic                         we1_i,
  input  logic [IdxW-1:0]              widx1_i,
  input  logic [31:0]                  wtag1_i,
  // last readers: read at the allocated lines; on an emission every line of the mask gets val
  input  logic [IdxW-1:0]              lr_idx0_i,
  output logic [15:0]                  lr0_o,
  input  logic [IdxW-1:0]              lr_idx1_i,
  output logic [15:0]                  lr1_o,
  input  logic                         lr_we_i,
  input  logic [(1 << IdxW)-1:0]       lr_mask_i,
  input  logic [15:0]                  lr_val_i
);

  localparam int unsigned Lines = 1 << IdxW;

  logic [Lines-1:0]       ltv_q, ltv_d;
  logic [Lines-1:0][31:0] ltag_q, ltag_d;
  logic [Lines-1:0][15:0] lastrd_q, lastrd_d;

  always_comb begin
    for (int t = 0; t < 16; t++) hit_o[t] = ltv_q[idx_i[t]] && ltag_q[idx_i[t]] == tag_i[t];
  end
  assign lr0_o = lastrd_q[lr_idx0_i];
  assign lr1_o = lastrd_q[lr_idx1_i];

  always_comb begin
    ltv_d = ltv_q;
    ltag_d = ltag_q;
    lastrd_d = lastrd_q;
    if (clear_i) ltv_d = '0;
    if (lr_we_i) begin
      for (int i = 0; i < int'(Lines); i++) begin
        if (lr_mask_i[i]) lastrd_d[i] = lr_val_i;
      end
    end
    if (we0_i) begin
      ltv_d[widx0_i] = 1'b1;
      ltag_d[widx0_i] = wtag0_i;
    end
    if (we1_i) begin
      ltv_d[widx1_i] = 1'b1;
      ltag_d[widx1_i] = wtag1_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ltv_q <= '0;
      ltag_q <= '0;
      lastrd_q <= '0;
    end else begin
      ltv_q <= ltv_d;
      ltag_q <= ltag_d;
      lastrd_q <= lastrd_d;
    end
  end

endmodule
