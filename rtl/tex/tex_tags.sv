// SPDX-License-Identifier: Apache-2.0
// tex_tags: the sampler's L1 tag store (docs/tex.md section 7 steps 6 and 7): per line a valid
// bit, the tag ({block address [31:3], decode class}) and the sequence number of the last emitted
// sub-pass that reads it. The tags are the cache's *future* state: an allocation writes them at
// once (two lines per clock at most, write ports 0 and 1).
//
// The tags live in block RAM, read a clock ahead: when a pass enters the tag stage (load_i),
// ridx_i (its 16 taps' lines) is read from 16 copies (16 sram_1r1w of 2^IdxW x 32: each tap has
// its own read port). The copies have one write port: a port-1 allocation is written into them
// the clock after (the tag stage allocates on port 0 only when no port-1 allocation was made in
// the clock before: its fill record waits in the spill register that clock; asserted below), so
// no flip-flop per line has to say which port wrote it last. In the pass's first clock in the
// stage a tap's line tag is that copy's word, or the tag the copies took at the load edge, or
// the port-1 tag not yet in them (bypass: a read of the word written in the same cycle is
// undefined); the 16 line tags are then kept in flip-flops and follow the stage's own allocations
// while the pass stays (several sub-passes). So hit_o is, in every clock, exactly what a read of a
// flip-flop tag array at idx_i would give (the earlier design, which read 256 x 32 flip-flops
// through 16 ports).
// Valid bits (cleared at once by clear_i) and last readers (written for up to 16 lines at once,
// the lines of the taps in lr_mask_i) stay in flip-flops.
module tex_tags #(
  parameter int unsigned IdxW = 8  // 2^IdxW lines
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,     // forget every line (inval_i while idle)
  // a pass enters the tag stage at the next edge: read its taps' lines now
  input  logic                         load_i,
  input  logic [15:0][IdxW-1:0]        ridx_i,
  // hit check of the 16 taps of the pass in the stage (idx_i is ridx_i of its load)
  input  logic [15:0][IdxW-1:0]        idx_i,
  input  logic [15:0][31:0]            tag_i,
  output logic [15:0]                  hit_o,
  // allocations: write the tag (and set valid) of one or two lines (different lines)
  input  logic                         we0_i,
  input  logic [IdxW-1:0]              widx0_i,
  input  logic [31:0]                  wtag0_i,
  input  logic                         we1_i,
  input  logic [IdxW-1:0]              widx1_i,
  input  logic [31:0]                  wtag1_i,
  // last readers: read at the allocated lines; on an emission the line of every tap of the mask
  // (idx_i) gets val
  input  logic [IdxW-1:0]              lr_idx0_i,
  output logic [15:0]                  lr0_o,
  input  logic [IdxW-1:0]              lr_idx1_i,
  output logic [15:0]                  lr1_o,
  input  logic                         lr_we_i,
  input  logic [15:0]                  lr_mask_i,
  input  logic [15:0]                  lr_val_i
);

  localparam int unsigned Lines = 1 << IdxW;

  logic [Lines-1:0]       ltv_q, ltv_d;
  logic [Lines-1:0][15:0] lastrd_q, lastrd_d;
  logic [Lines-1:0]       lr_en;   // the lines of lr_mask_i's taps
  // the pass in the stage: its taps' line tags (after its first clock); the copies' write of its
  // load edge (b*[0]) and the port-1 allocation of that clock, written into the copies the clock
  // after (b*[1])
  logic                   first_q, first_d;
  logic [15:0][31:0]      cur_q, cur_d;
  logic [1:0]             bwe_q, bwe_d;
  logic [1:0][IdxW-1:0]   bidx_q, bidx_d;
  logic [1:0][31:0]       btag_q, btag_d;

  // the copies' one write: a port-0 allocation, else the port-1 allocation of the clock before
  logic            cwe;
  logic [IdxW-1:0] cwidx;
  logic [31:0]     cwtag;
  always_comb begin
    cwe = we0_i || bwe_q[1];
    cwidx = we0_i ? widx0_i : bidx_q[1];
    cwtag = we0_i ? wtag0_i : btag_q[1];
  end

  logic [15:0][31:0] rdata;
  for (genvar t = 0; t < 16; t++) begin : g_copy
    sram_1r1w #(.Width(32), .Depth(Lines), .MaskW(1)) u_tag (
      .clk_i   (clk_i),
      .we_i    (cwe),
      .waddr_i (cwidx),
      .wdata_i (cwtag),
      .wmask_i (1'b1),
      .re_i    (load_i),
      .raddr_i (ridx_i[t]),
      .rdata_o (rdata[t])
    );
  end

  logic [15:0][31:0] cur;
  always_comb begin
    for (int t = 0; t < 16; t++) begin
      cur[t] = cur_q[t];
      if (first_q) begin
        cur[t] = rdata[t];
        if (bwe_q[0] && bidx_q[0] == idx_i[t]) cur[t] = btag_q[0];
        if (bwe_q[1] && bidx_q[1] == idx_i[t]) cur[t] = btag_q[1];
      end
      hit_o[t] = ltv_q[idx_i[t]] && cur[t] == tag_i[t];
    end
  end
  assign lr0_o = lastrd_q[lr_idx0_i];
  assign lr1_o = lastrd_q[lr_idx1_i];

  always_comb begin
    ltv_d = ltv_q;
    lastrd_d = lastrd_q;
    if (clear_i) ltv_d = '0;
    lr_en = '0;
    for (int t = 0; t < 16; t++) begin
      if (lr_mask_i[t]) lr_en[idx_i[t]] = 1'b1;
    end
    if (lr_we_i) begin
      for (int i = 0; i < int'(Lines); i++) begin
        if (lr_en[i]) lastrd_d[i] = lr_val_i;
      end
    end
    if (we0_i) ltv_d[widx0_i] = 1'b1;
    if (we1_i) ltv_d[widx1_i] = 1'b1;
    // the pass in the stage follows its own allocations
    first_d = load_i;
    for (int t = 0; t < 16; t++) begin
      cur_d[t] = cur[t];
      if (we0_i && widx0_i == idx_i[t]) cur_d[t] = wtag0_i;
      if (we1_i && widx1_i == idx_i[t]) cur_d[t] = wtag1_i;
    end
    bwe_d = {we1_i, cwe};
    bidx_d = {widx1_i, cwidx};
    btag_d = {wtag1_i, cwtag};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ltv_q <= '0;
      lastrd_q <= '0;
      first_q <= 1'b0;
      cur_q <= '0;
      bwe_q <= '0;
      bidx_q <= '0;
      btag_q <= '0;
    end else begin
      ltv_q <= ltv_d;
      lastrd_q <= lastrd_d;
      first_q <= first_d;
      cur_q <= cur_d;
      bwe_q <= bwe_d;
      bidx_q <= bidx_d;
      btag_q <= btag_d;
    end
  end

`ifndef SYNTHESIS
  // the reference: a flip-flop tag array written by the same allocations (the earlier design);
  // every clock the hits from block RAM must be the hits it gives
  logic [Lines-1:0][31:0] ref_q;
  logic [15:0] ref_hit;
  always_comb begin
    for (int t = 0; t < 16; t++) ref_hit[t] = ltv_q[idx_i[t]] && ref_q[idx_i[t]] == tag_i[t];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ref_q <= '0;
    end else begin
      assert (hit_o == ref_hit) else $error("tex_tags: hits %h, the flop array gives %h", hit_o, ref_hit);
      // one write port: no port-0 allocation in the clock after a port-1 allocation
      assert (!(we0_i && bwe_q[1])) else $error("tex_tags: a port-0 allocation while a port-1 tag waits");
      assert (!we1_i || we0_i) else $error("tex_tags: a port-1 allocation without port 0");
      if (we0_i) ref_q[widx0_i] <= wtag0_i;
      if (we1_i) ref_q[widx1_i] <= wtag1_i;
    end
  end
`endif

endmodule
