// SPDX-License-Identifier: Apache-2.0
// pw_tag_bank: the state of one bank of the pixel writer's colour cache that stage A works on
// (docs/om.md section 5), in flip-flops: per entry the line tag, the valid and dirty halfword
// masks (dirty is a subset of valid; valid 0 = empty), the busy bit and the number of the last
// quad that uses the entry; and the bank's round-robin pointer.
//   Lookup (combinational, from the registers): for each of stage A's two piece slots, whether
//   the line is in a valid entry of this bank (at most one holds it), with that entry's valid
//   and dirty masks; the entry at the pointer (the victim of a miss: its tag, dirty mask, busy
//   bit and last quad); the lowest dirty entry (the flush walk).
//   Updates, in this order (as the flat pixel writer made them): busy cleared by stage 3 and by
//   a plain stage-B write when the writing quad is the entry's last (c3_*, cb_*); stage A's piece
//   (at most one per bank per clock) writes an entry's tag, masks and last quad and sets its busy
//   bit, advancing the pointer on a miss; a flush step clears the dirty mask of the lowest dirty
//   entry; a finished flush clears every valid mask.
module pw_tag_bank #(
  parameter int unsigned EW    = 5,   // 2^EW entries
  parameter int unsigned LineW = 26,
  parameter int unsigned QW    = 10   // quad numbers
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // lookup of stage A's two piece slots
  input  logic [1:0][LineW-1:0]  line_i,
  output logic [1:0]             hit_o,
  output logic [1:0][EW-1:0]     hidx_o,
  output logic [1:0][31:0]       hvm_o,     // valid mask of the hit entry
  output logic [1:0][31:0]       hdm_o,     // dirty mask of the hit entry
  // the entry at the pointer (a miss's victim)
  output logic [EW-1:0]          ptr_o,
  output logic [LineW-1:0]       ptag_o,
  output logic [31:0]            pdm_o,
  output logic                   pbusy_o,
  output logic [QW-1:0]          plq_o,
  // the flush walk: the lowest dirty entry
  output logic                   fd_o,      // the bank has a dirty entry
  output logic [EW-1:0]          fidx_o,
  output logic [LineW-1:0]       ftag_o,
  output logic [31:0]            fdm_o,
  // busy clears: stage 3 and a plain stage-B write, each by quad qn on entry ent
  input  logic                   c3_i,
  input  logic [EW-1:0]          c3_ent_i,
  input  logic [QW-1:0]          c3_qn_i,
  input  logic                   cb_i,
  input  logic [EW-1:0]          cb_ent_i,
  input  logic [QW-1:0]          cb_qn_i,
  // stage A's piece on this bank
  input  logic                   we_i,
  input  logic [EW-1:0]          went_i,
  input  logic [LineW-1:0]       wtag_i,
  input  logic [31:0]            wdm_i,
  input  logic [31:0]            wvm_i,
  input  logic [QW-1:0]          wlq_i,
  input  logic                   wmiss_i,   // the piece missed: advance the pointer
  // flush
  input  logic                   fclr_i,    // clear the dirty mask of entry fidx_o
  input  logic                   vclr_i     // clear every valid mask
);

  localparam int unsigned Entries = 1 << EW;

  logic [Entries-1:0][LineW-1:0] tag_q, tag_d;
  logic [Entries-1:0][31:0]      dm_q,  dm_d;    // dirty halfwords (after every issued piece)
  logic [Entries-1:0][31:0]      vm_q,  vm_d;    // valid halfwords (dm is a subset); 0 = empty
  logic [EW-1:0]                 ptr_q, ptr_d;
  logic [Entries-1:0]            busy_q, busy_d; // a queued or applying piece uses the entry
  logic [Entries-1:0][QW-1:0]    lq_q,  lq_d;    // number of the last quad that uses it
  // vm != 0 and dm != 0 of each entry, kept in flip-flops beside the masks (set from the written
  // mask's OR, one per bank, not a 32-input OR per entry on the lookup and the flush walk)
  logic [Entries-1:0]            vnz_q, vnz_d;   // valid mask not empty
  logic [Entries-1:0]            dnz_q, dnz_d;   // dirty mask not empty

  // A line is in at most one valid entry (a miss allocates only when no entry of either bank
  // holds it; asserted below), so the hit entry's index and masks are ORs over the one-hot
  // match, not a priority pick and a mux behind it (fewer logic levels on stage A's path).
  logic [1:0][Entries-1:0] match;

  always_comb begin
    for (int s = 0; s < 2; s++) begin
      hidx_o[s] = '0;
      hvm_o[s]  = '0;
      hdm_o[s]  = '0;
      for (int e = 0; e < Entries; e++) begin
        match[s][e] = vnz_q[e] && (tag_q[e] == line_i[s]);
        hidx_o[s]   = hidx_o[s] | (match[s][e] ? EW'(e) : EW'(0));
        hvm_o[s]    = hvm_o[s] | (match[s][e] ? vm_q[e] : 32'd0);
        hdm_o[s]    = hdm_o[s] | (match[s][e] ? dm_q[e] : 32'd0);
      end
      hit_o[s] = (match[s] != '0);
    end
    ptr_o   = ptr_q;
    ptag_o  = tag_q[ptr_q];
    pdm_o   = dm_q[ptr_q];
    pbusy_o = busy_q[ptr_q];
    plq_o   = lq_q[ptr_q];
    fd_o    = 1'b0;
    fidx_o  = '0;
    for (int e = Entries - 1; e >= 0; e--) begin
      if (dnz_q[e]) begin
        fd_o   = 1'b1;
        fidx_o = EW'(e);
      end
    end
    ftag_o = tag_q[fidx_o];
    fdm_o  = dm_q[fidx_o];
  end

  always_comb begin
    tag_d  = tag_q;
    dm_d   = dm_q;
    vm_d   = vm_q;
    ptr_d  = ptr_q;
    busy_d = busy_q;
    lq_d   = lq_q;
    vnz_d  = vnz_q;
    dnz_d  = dnz_q;
    if (c3_i && lq_q[c3_ent_i] == c3_qn_i) busy_d[c3_ent_i] = 1'b0;
    if (cb_i && lq_q[cb_ent_i] == cb_qn_i) busy_d[cb_ent_i] = 1'b0;
    if (we_i) begin
      tag_d[went_i]  = wtag_i;
      dm_d[went_i]   = wdm_i;
      vm_d[went_i]   = wvm_i;
      busy_d[went_i] = 1'b1;
      lq_d[went_i]   = wlq_i;
      vnz_d[went_i]  = (wvm_i != '0);
      dnz_d[went_i]  = (wdm_i != '0);
      if (wmiss_i) ptr_d = ptr_q + EW'(1);
    end
    if (fclr_i) begin
      dm_d[fidx_o]  = '0;
      dnz_d[fidx_o] = 1'b0;
    end
    if (vclr_i) begin
      vm_d  = '0;
      vnz_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tag_q  <= '0;
      dm_q   <= '0;
      vm_q   <= '0;
      ptr_q  <= '0;
      busy_q <= '0;
      lq_q   <= '0;
      vnz_q  <= '0;
      dnz_q  <= '0;
    end else begin
      tag_q  <= tag_d;
      dm_q   <= dm_d;
      vm_q   <= vm_d;
      ptr_q  <= ptr_d;
      busy_q <= busy_d;
      lq_q   <= lq_d;
      vnz_q  <= vnz_d;
      dnz_q  <= dnz_d;
    end
  end

`ifndef SYNTHESIS
  logic nz_bad;  // an entry whose vnz / dnz bit differs from its mask's OR
  always_comb begin
    nz_bad = 1'b0;
    for (int e = 0; e < Entries; e++) begin
      if (vnz_q[e] != (vm_q[e] != '0) || dnz_q[e] != (dm_q[e] != '0)) nz_bad = 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert ($countones(match[0]) <= 1 && $countones(match[1]) <= 1)
        else $error("%m: a line in two entries of a bank");
      assert (!nz_bad) else $error("%m: vnz / dnz do not follow the masks");
    end
  end
`endif

endmodule
