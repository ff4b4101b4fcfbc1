// SPDX-License-Identifier: Apache-2.0
// pixel_writer: the colour tile cache, a write-back cache of 64-byte lines that takes one 2x2
// quad per clock and writes whole lines with byte enables on its own line port
// (docs/contract.md §5, docs/architecture.md "Colour cache"; the model is
// cpp_model/om/pixel_writer, which predicts the line-write stream exactly).
//
// Memory effect: every covered pixel (1x) or sample (4x MSAA) writes the quad's colour, encoded
// for the target format (b = 4 bytes, or 2 for B5G6R5), at (target.base + y*pitch + x*b
// [4x: x*4b + s*b]) mod 2^32, the address aligned down to b. The cache works in halfwords: a
// line's masks (valid, dirty, a piece's) have 32 bits, a 4-byte pixel is an aligned pair, and a
// line write's byte enables come in pairs. Plain quads need no fill read: the byte enables carry
// partial lines.
//
// Organisation: 2 banks x EntriesPerBank lines, fully associative (a line lives in one entry of
// either bank); tags and masks in flip-flops (one pw_tag_bank per bank), data in one sram_1r1w
// per bank (32 halfword lanes). Stage 1 (pw_pieces, in_i -> pc_q): the quad's two pixel rows
// become up to four pieces (row r's line and the next line when the row straddles it), empty ones
// dropped, a row-1 piece on a row-0 piece's line merged into it. Stage A (below): the pieces in
// order, up to two per clock when they use different banks: a hit or a miss (the entry at the
// round-robin pointer of bank r, its pixel row, evicted when dirty: the SRAM reads the old line,
// the next cycle it goes into the bank's write-back FIFO with a sequence number). The write-back
// and fill FIFOs drain to the line port in sequence order, so the line requests leave in exactly
// the model's order.
// Flushes: an end-of-pipe token, or flush_i with no quad held, writes back every dirty line
// (per step: bank 0's lowest dirty entry, then bank 1's); a token is then offered on
// eop_done_valid_o once every line write is acknowledged (no dirty line, nothing queued or
// outstanding), and no packet is taken until the CP has accepted it.
// quiet_o: no quad or token held (dirty lines may be cached); clean_o: no dirty line and no
// write queued or unacknowledged; idle_o = quiet_o && clean_o.
//
// Output merger (docs/om.md section 5): the quad's om state is applied here. A plain quad (no
// blending, no logic op, no write mask) writes its encoded colour (g_enc: om_encode) as above. An rmw quad
// (blending, a logic op or a write mask) needs the destination: each entry also has a dword valid mask (lines are found
// by it; dirty is a subset), and the cache is split in two stages with an in-order queue between:
// stage A (the pc_* register; tags, valid/dirty masks, pointers in pw_tag_bank) looks the pieces up, allocates,
// evicts (SRAM read into the write-back FIFO) and issues the fill of every rmw piece whose
// dwords are not all valid at once (non-blocking: up to RfDepth per bank in flight, data routed
// back by tag = bank); stage B (b_*) applies the pieces strictly in stream order: a plain piece
// writes the SRAM (its line from pw_plain_line), an rmw piece is read (or taken from stage 3
// when stage 3 holds the same entry), and stage 3 blends it in three clocks: stage 3R (one
// pw_stage3 per bank, registers s3_*) merges the fill data and compacts the piece's units into
// the lanes, stages 3X and 3W (one pw_stage3w per bank, registers s3x_* and s3w_*) blend
// (om_blend #(Pipe): a register inside every lane), scatter the results back and write the line.
// Stage 3R takes a line stage 3X or 3W holds from there (with last clock's stage-3W writes,
// wf_*); a piece sharing a halfword with stage 3R's or 3X's piece on the same entry waits in
// stage B (stage 3R would not see that piece's results).
// Stage 3 has BlendLanes (4) blend lanes per bank: lane i takes the piece's i-th active unit (a
// dword, or a halfword for B5G6R5: its destination bits and its pixel's colour) and the results
// go back to their units' places. A 1x quad row has at most 2 units (2 pixels; a merged 1x
// piece up to 4), so it blends in one clock; a 4x quad row has up to 8 (samples) and takes two
// clocks (4x blending at half a quad per clock, as ROPs blend MSAA), a piece holding both rows of
// a quad (stage 1 merged them: pitch below 64 bytes) up to 16, four clocks: a piece with more
// units than lanes stays in stage 3R a further clock for the units after the 4th (8th, 12th),
// reading the line the previous clock's pass blends into, while stage B waits.
// The lanes are 8-bit lanes (om_blend_lane8: RGBA8, BGRA8, B5G6R5); only SrgbLanes (2) of them
// per bank also have the U16 path that RGBA8_SRGB needs, so an sRGB piece takes SrgbLanes units
// a clock (a 1x quad row still one clock, a 4x quad row four; docs/om.md section 5).
// Interlocks: an rmw piece waits for its fill's data; a miss never takes an entry a queued
// piece still uses (busy bit, cleared by the last quad that used it, at its last stage-3W
// write); stage A's SRAM reads take the read port first. Write-backs and fills leave in one sequence (the
// model's order). A flush waits for stage B to empty and also drops every clean line (memory
// may change behind the cache: DMA fills, COPY, the host).
//
// Parts (so that synthesis takes each on its own: the flat module ran the WebAssembly Yosys out of
// memory): pw_pieces (stage 1, combinational), pw_tag_bank x 2 (stage A's per-bank state and its
// lookups and updates), pw_plain_line x 2 (stage B, one per piece slot), pw_stage3 x 2 (stage 3R
// of a bank: line, fill merge, rank compaction), pw_stage3w x 2 (stages 3X and 3W of a bank:
// om_blend of BlendLanes lanes with the lanes' own registers, scatter; the other stage registers
// stay here), om_encode x 4 (plain quads' colours). This module keeps the stage
// registers, stage A's and B's control, the queue, the SRAMs, the FIFOs and the line port.
module pixel_writer #(
  parameter int unsigned EntriesPerBank = 32,  // power of two
  parameter int unsigned WbDepth        = 8,   // write-back FIFO lines per bank (power of two)
  parameter int unsigned OutstandingW   = 10,
  parameter int unsigned QDepth         = 256, // stage A -> B queue (quads): covers the fill latency
  parameter int unsigned RfDepth        = 32,  // fills in flight per bank (power of two)
  parameter int unsigned BlendLanes     = 4,   // stage 3's blend lanes per bank (1..16)
  parameter int unsigned SrgbLanes      = 2    // of them, lanes with the sRGB (U16) path (1..BlendLanes)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  pineda_pkg::interp_pkt_t     in_i,
  input  logic                        flush_i,
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output pineda_pkg::mem_line_req_t   mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t   mem_rsp_i,
  output logic                        eop_done_valid_o,
  input  logic                        eop_done_ready_i,
  output logic                        quiet_o,
  output logic                        clean_o,
  output logic                        idle_o
);

  localparam int unsigned EW     = $clog2(EntriesPerBank);
  localparam int unsigned SeqW   = 8;
  localparam int unsigned LineW  = 26;
  localparam int unsigned WbW    = SeqW + LineW + 32 + 512;
  localparam int unsigned CountW = $clog2(WbDepth + 2) + 1;
  localparam int unsigned QW     = $clog2(QDepth) + 2;          // quad numbers
  localparam int unsigned CrW    = $clog2(RfDepth) + 1;
  localparam int unsigned FqW    = SeqW + LineW;
  localparam int unsigned OmW    = pineda_pkg::OM_STATE_BITS;
  // a piece: mask, fill halfwords, fill, bank, entry, the pixel (0..3) of each halfword
  localparam int unsigned PieceW = 32 + 32 + 1 + 1 + EW + 64;
  localparam int unsigned RecW   = 1 + 128 + OmW + 4 * PieceW;  // rmw, the 4 pixel colours, om

  // ---------------------------------------------------------------------------------------------
  // Stage 1: pieces of the incoming quad
  // ---------------------------------------------------------------------------------------------
  logic [3:0][LineW-1:0] nl;     // line addresses
  logic [3:0][31:0]      nm;     // halfword masks
  // Per-pixel colours (INTERP's pcolor, flat or Gouraud): every halfword of a piece records the
  // pixel (0..3) whose colour it takes; all samples of a pixel (4x MSAA) take the pixel's colour.
  logic [3:0][63:0]      ns;     // per piece: the pixel of each halfword of its line
  pineda_pkg::quad_pkt_t inq;    // the quad
  assign inq = in_i.quad;

  pw_pieces u_pieces (
    .target_i (inq.target),
    .qx_i     (inq.qx),
    .qy_i     (inq.qy),
    .mask_i   (inq.mask),
    .b565_i   (inq.om.fmt == pineda_pkg::RT_FMT_B5G6R5),
    .line_o   (nl),
    .mask_o   (nm),
    .sel_o    (ns)
  );

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  // Stage A (pc_*): the quad whose pieces are looked up, allocated and filled.
  logic                  pc_valid_q, pc_valid_d;
  logic                  pc_eop_q,   pc_eop_d;
  logic [3:0][31:0]      pc_src_q,   pc_src_d;    // the source colour of each pixel
  logic [3:0][63:0]      pc_sel_q,   pc_sel_d;    // per piece: the pixel of each halfword
  logic                  pc_rmw_q,   pc_rmw_d;
  pineda_pkg::om_state_t pc_om_q,    pc_om_d;
  logic [3:0][LineW-1:0] pc_line_q,  pc_line_d;
  logic [3:0][31:0]      pc_mask_q,  pc_mask_d;   // 0: piece done (or none)
  logic [3:0]            pc_live_q,  pc_live_d;   // pc_mask != 0, registered (stage A's depth)
  logic [3:0][31:0]      pc_pm_q,    pc_pm_d;     // the piece's dwords (kept for the record)
  logic [3:0]            pc_pb_q,    pc_pb_d;     // decisions: bank, entry, fill, fill dwords
  logic [3:0][EW-1:0]    pc_pe_q,    pc_pe_d;
  logic [3:0]            pc_pf_q,    pc_pf_d;
  logic [3:0][31:0]      pc_pfm_q,   pc_pfm_d;

  // The tags, valid / dirty masks, busy bits, last quads and pointers: one pw_tag_bank per bank.
  logic [QW-1:0]                             aq_q,  aq_d;    // number of stage A's quad
  logic [1:0][CrW-1:0]                       cr_q,  cr_d;    // fills issued and not yet consumed

  logic [1:0]            ev_valid_q, ev_valid_d;  // an evicted line is being read from the SRAM
  logic [1:0][LineW-1:0] ev_line_q,  ev_line_d;
  logic [1:0][31:0]      ev_mask_q,  ev_mask_d;
  logic [1:0][SeqW-1:0]  ev_seq_q,   ev_seq_d;
  logic [SeqW-1:0]       seq_q, seq_d;            // next sequence number to hand out
  logic [SeqW-1:0]       nseq_q, nseq_d;          // next sequence number to send
  logic [OutstandingW-1:0] outst_q, outst_d;

  // Stage B (b_*): the quad whose pieces are applied, in stream order.
  logic                  b_valid_q,  b_valid_d;
  logic [3:0][31:0]      b_src_q,    b_src_d;
  logic [3:0][63:0]      b_sel_q,    b_sel_d;
  logic                  b_rmw_q,    b_rmw_d;
  pineda_pkg::om_state_t b_om_q,     b_om_d;
  logic [3:0][31:0]      b_mask_q,   b_mask_d;    // remaining pieces
  logic [3:0]            b_bank_q,   b_bank_d;
  logic [3:0][EW-1:0]    b_ent_q,    b_ent_d;
  logic [3:0]            b_fill_q,   b_fill_d;
  logic [3:0][31:0]      b_fm_q,     b_fm_d;
  logic [QW-1:0]         b_qn_q,     b_qn_d;      // its number

  // stage 3 (rmw pieces: SRAM data arrives, fill merged, blend, write back) and the line it wrote
  logic [1:0]            s3_valid_q, s3_valid_d;
  logic [1:0][EW-1:0]    s3_ent_q,   s3_ent_d;
  logic [1:0][31:0]      s3_mask_q,  s3_mask_d;
  logic [1:0][31:0]      s3_fm_q,    s3_fm_d;     // halfwords taken from the fill data
  logic [1:0][511:0]     s3_fd_q,    s3_fd_d;     // the fill data
  logic [QW-1:0]         s3_qn_q,    s3_qn_d;
  logic [3:0][31:0]      s3_src_q,   s3_src_d;
  logic [1:0][63:0]      s3_sel_q,   s3_sel_d;    // the pixel of each halfword of the line
  pineda_pkg::om_state_t s3_om_q,    s3_om_d;
  // stage 3X (the blend lanes' first half, one clock after stage 3R: the s3_* registers above)
  logic [1:0]            s3x_valid_q, s3x_valid_d;
  logic [1:0]            s3x_last_q,  s3x_last_d;   // the piece's last pass (busy clear)
  logic [1:0][EW-1:0]    s3x_ent_q,   s3x_ent_d;
  logic [1:0][511:0]     s3x_line_q,  s3x_line_d;   // the line stage 3R saw, fill merged
  logic [1:0][31:0]      s3x_pass_q,  s3x_pass_d;   // halfwords blended by this pass
  logic [1:0][31:0]      s3x_fm_q,    s3x_fm_d;     // halfwords from the fill data
  logic [1:0][BlendLanes-1:0][31:0] s3x_dst_q, s3x_dst_d;  // the lanes' operands
  logic [1:0][BlendLanes-1:0][31:0] s3x_src_q, s3x_src_d;
  logic [1:0][31:0][3:0] s3x_lane_q,  s3x_lane_d;   // per halfword: its unit's lane
  pineda_pkg::om_state_t s3x_om_q,    s3x_om_d;
  logic [QW-1:0]         s3x_qn_q,    s3x_qn_d;
  // stage 3W (the lanes' second half, the scatter and the write, one clock after stage 3X)
  logic [1:0]            s3w_valid_q, s3w_valid_d;
  logic [1:0]            s3w_last_q,  s3w_last_d;   // the piece's last pass (busy clear)
  logic [1:0][EW-1:0]    s3w_ent_q,   s3w_ent_d;
  logic [1:0][511:0]     s3w_line_q,  s3w_line_d;   // stage 3X's line with its clock's wf_* writes
  logic [1:0][31:0]      s3w_pass_q,  s3w_pass_d;   // halfwords blended by this pass
  logic [1:0][31:0]      s3w_fm_q,    s3w_fm_d;     // halfwords from the fill data
  logic [1:0][31:0][BlendLanes-1:0] s3w_lane_q, s3w_lane_d;  // per halfword: its unit's lane,
                                                    // one-hot (0: not blended by this pass)
  pineda_pkg::om_state_t s3w_om_q,    s3w_om_d;
  logic [QW-1:0]         s3w_qn_q,    s3w_qn_d;
  logic [1:0]            wf_valid_q, wf_valid_d;
  logic [1:0][EW-1:0]    wf_ent_q,   wf_ent_d;
  logic [1:0][511:0]     wf_data_q,  wf_data_d;   // the whole line after last clock's stage 3W
  logic [1:0][31:0]      wf_wm_q,    wf_wm_d;     // the halfwords it wrote
  logic                  s3_busy;
  // Stage 3R of each bank (pw_stage3): the line merged, the piece's units ranked and compacted
  // into BlendLanes lanes; units of rank BlendLanes and above wait for the next clock (stage 3R
  // holds the piece, s3_more). Stage 3W (pw_stage3w): the lanes blend, the results go back.
  logic [1:0][511:0]     s3_line;  // the line stage 3R sees (fill merged)
  logic [1:0][31:0]      s3_pass;  // halfwords blended by this pass
  logic [1:0]            s3_more;  // units left for the next clock
  logic [1:0][BlendLanes-1:0][31:0] s3_dst, s3_srcl;
  logic [1:0][31:0][3:0] s3_lane;
  logic [1:0][511:0]     s3x_pre;  // stage 3X's line with last clock's stage-3W writes
  logic [1:0][511:0]     s3w_pre;  // the line stage 3W blends into
  logic [1:0][511:0]     s3w_out;  // the whole line after stage 3W
  logic                  s3_hold;  // a piece takes another clock: stage B waits
  logic                             s3_b565;
  assign s3_b565 = (s3_om_q.fmt == pineda_pkg::RT_FMT_B5G6R5);

  // SRAM, FIFO and queue signals
  logic [1:0]            s_we, s_re, a_re;
  logic [1:0][EW-1:0]    s_waddr, s_raddr;
  logic [1:0][31:0]      s_wmask;
  logic [1:0][511:0]     s_wdata;
  logic [1:0][511:0]     s_rdata;
  logic [1:0]            wb_in_valid, wb_in_ready, wb_out_valid, wb_out_ready;
  logic [1:0][WbW-1:0]   wb_in_data, wb_out_data;
  logic [1:0][CountW-1:0] wb_count;
  logic [1:0]            wb_empty, wb_full;
  logic [1:0]            fq_in_valid, fq_in_ready, fq_out_valid, fq_out_ready, fq_empty, fq_full;
  logic [1:0][FqW-1:0]   fq_in_data, fq_out_data;
  logic [1:0]            rf_in_valid, rf_in_ready, rf_out_valid, rf_out_ready, rf_empty, rf_full;
  logic [1:0][511:0]     rf_out_data;
  logic                  q_in_valid, q_in_ready, q_out_valid, q_out_ready, q_empty, q_full;
  logic [RecW-1:0]       q_in_data, q_out_data;
  logic [$clog2(QDepth+2):0]      q_count;
  logic [1:0][$clog2(RfDepth+2):0] fq_count, rf_count;

  // ---------------------------------------------------------------------------------------------
  // Stage A: lookup, allocation, eviction, fill issue
  // ---------------------------------------------------------------------------------------------
  logic [3:0]       rem, rem_after;
  logic [1:0]       sel_ok;        // piece slot 0 (i) / 1 (j) present
  logic [1:0][1:0]  sel_idx;       // which of the four pieces
  logic [1:0][LineW-1:0] sl;
  logic [1:0][31:0] sm, sfm;
  logic [1:0]       sb;            // preferred bank (the piece's pixel row: its index bit 1)
  logic [1:0]       hit, hbank, bank, evict, go, abusy, nf, cr_ok;
  logic [1:0][EW-1:0] hidx, ent;
  logic [1:0][31:0] hvm, hdm;      // the hit entry's valid and dirty masks
  logic [1:0]       room;
  logic [1:0]       fd;            // flush: bank has a dirty entry
  logic [1:0][EW-1:0] fidx;
  logic             flushing, fgo, pc_done, pc_split, tok_done, all_clean, any_dirty, b_idle;
  logic [SeqW-1:0]  seq_f0, seq_e1, seq_f1;
  logic [2:0]       n_f0, n_e1, n_f1, n_all;

  // the tag banks: lookups of both slots in each bank, victims, flush walk, and their updates
  logic [1:0][1:0]          t_hit;     // [bank][slot]
  logic [1:0][1:0][EW-1:0]  t_hidx;
  logic [1:0][1:0][31:0]    t_hvm, t_hdm;
  logic [1:0][EW-1:0]       t_ptr;
  logic [1:0][LineW-1:0]    t_ptag, t_ftag;
  logic [1:0][31:0]         t_pdm, t_fdm;
  logic [1:0]               t_pbusy;
  logic [1:0][QW-1:0]       t_plq;
  logic [1:0]               t_c3, t_cb, t_we, t_wmiss, t_fclr;
  logic                     t_vclr;
  logic [1:0][EW-1:0]       t_cbent, t_went;
  logic [1:0][LineW-1:0]    t_wtag;
  logic [1:0][31:0]         t_wdm, t_wvm;

  for (genvar b = 0; b < 2; b++) begin : g_tags
    pw_tag_bank #(.EW(EW), .LineW(LineW), .QW(QW)) u_tags (
      .clk_i,
      .rst_ni,
      .line_i   (sl),
      .hit_o    (t_hit[b]),
      .hidx_o   (t_hidx[b]),
      .hvm_o    (t_hvm[b]),
      .hdm_o    (t_hdm[b]),
      .ptr_o    (t_ptr[b]),
      .ptag_o   (t_ptag[b]),
      .pdm_o    (t_pdm[b]),
      .pbusy_o  (t_pbusy[b]),
      .plq_o    (t_plq[b]),
      .fd_o     (fd[b]),
      .fidx_o   (fidx[b]),
      .ftag_o   (t_ftag[b]),
      .fdm_o    (t_fdm[b]),
      .c3_i     (t_c3[b]),
      .c3_ent_i (s3w_ent_q[b]),
      .c3_qn_i  (s3w_qn_q),
      .cb_i     (t_cb[b]),
      .cb_ent_i (t_cbent[b]),
      .cb_qn_i  (b_qn_q),
      .we_i     (t_we[b]),
      .went_i   (t_went[b]),
      .wtag_i   (t_wtag[b]),
      .wdm_i    (t_wdm[b]),
      .wvm_i    (t_wvm[b]),
      .wlq_i    (aq_q),
      .wmiss_i  (t_wmiss[b]),
      .fclr_i   (t_fclr[b]),
      .vclr_i   (t_vclr)
    );
  end

  // the pieces in slots 0 and 1 (sl feeds the tag banks' lookups)
  always_comb begin
    // The first two remaining pieces.
    rem = '0;
    rem = pc_live_q;
    sel_ok  = '0;
    sel_idx = '0;
    for (int k = 3; k >= 0; k--) begin
      if (rem[k]) begin
        sel_idx[1] = sel_idx[0];
        sel_ok[1]  = sel_ok[0];
        sel_idx[0] = 2'(k);
        sel_ok[0]  = 1'b1;
      end
    end
    for (int s = 0; s < 2; s++) begin
      sl[s] = pc_line_q[sel_idx[s]];
      sm[s] = pc_mask_q[sel_idx[s]];
      sb[s] = sel_idx[s][1];
    end
  end

  // per bank, from registers only (stage A's decisions pick them by the piece's bank, which is
  // known only after the lookup): the victim dirty, its last quad this quad, a fill credit left;
  // the sequence numbers seq_q + 0..4 (the decisions pick one by how many requests precede)
  logic [1:0] pdirty, plq_aq, bcr_ok;
  logic [4:0][SeqW-1:0] seq_k;
  always_comb begin
    for (int b = 0; b < 2; b++) begin
      pdirty[b] = (t_pdm[b] != '0);
      plq_aq[b] = (t_plq[b] == aq_q);
      bcr_ok[b] = (cr_q[b] < CrW'(RfDepth));
    end
    for (int k = 0; k < 5; k++) seq_k[k] = seq_q + SeqW'(k);
  end

  always_comb begin
    for (int s = 0; s < 2; s++) begin
      // a line is in one entry; should both banks match, bank 1 wins (as the flat lookup did)
      hit[s]   = t_hit[0][s] || t_hit[1][s];
      hbank[s] = t_hit[1][s];
      hidx[s]  = t_hit[1][s] ? t_hidx[1][s] : t_hidx[0][s];
      hvm[s]   = t_hit[1][s] ? t_hvm[1][s] : t_hvm[0][s];
      hdm[s]   = t_hit[1][s] ? t_hdm[1][s] : t_hdm[0][s];
      bank[s]  = hit[s] ? hbank[s] : sb[s];
      ent[s]   = hit[s] ? hidx[s] : t_ptr[bank[s]];
      evict[s] = !hit[s] && pdirty[bank[s]];
      // a miss may not take an entry that queued pieces still use
      abusy[s] = !hit[s] && t_pbusy[bank[s]];
      // an rmw piece whose dwords are not all valid fills its line
      nf[s]    = pc_rmw_q && !(hit[s] && ((hvm[s] & sm[s]) == sm[s]));
      sfm[s]   = nf[s] ? (hit[s] ? ~hvm[s] : 32'hFFFF_FFFF) : 32'd0;
      cr_ok[s] = bcr_ok[bank[s]];
    end

    for (int b = 0; b < 2; b++) begin
      room[b] = ({1'b0, wb_count[b]} + (CountW + 1)'(ev_valid_q[b])) < (CountW + 1)'(WbDepth);
    end

    go[0] = pc_valid_q && !pc_eop_q && q_in_ready && sel_ok[0] && !abusy[0] &&
            (!evict[0] || room[bank[0]]) && (!nf[0] || cr_ok[0]);
    go[1] = go[0] && sel_ok[1] && (bank[1] != bank[0]) && !abusy[1] &&
            (!evict[1] || room[bank[1]]) && (!nf[1] || cr_ok[1]);
    rem_after = rem;
    for (int s = 0; s < 2; s++) begin
      if (go[s]) rem_after[sel_idx[s]] = 1'b0;
    end
    pc_done = go[0] && (rem_after == '0);
    // A miss whose victim is held busy by an earlier piece of this same quad (whose record is not
    // in the queue yet) would wait forever: the pieces done so far go to stage B as a quad of
    // their own (a new number), and the rest follow as the next one. Same order, no deadlock.
    pc_split = pc_valid_q && !pc_eop_q && q_in_ready && sel_ok[0] && abusy[0] && plq_aq[bank[0]];

    // Flush walk: lowest dirty entry of each bank (fd, fidx from the tag banks).
    any_dirty = |fd;
    s3_busy   = (s3_valid_q != '0) || (s3x_valid_q != '0) || (s3w_valid_q != '0);
    b_idle    = q_empty && !b_valid_q && !s3_busy;
    flushing  = pc_valid_q ? pc_eop_q : flush_i;
    fgo       = flushing && b_idle && any_dirty && (!fd[0] || room[0]) && (!fd[1] || room[1]);
    all_clean = !any_dirty && b_idle && (ev_valid_q == '0) && (wb_empty == 2'b11) && (fq_empty == 2'b11) &&
                (outst_q == '0);
    tok_done  = pc_valid_q && pc_eop_q && all_clean && eop_done_ready_i;

    eop_done_valid_o = pc_valid_q && pc_eop_q && all_clean;
    in_ready_o       = !pc_valid_q || pc_done;
    clean_o          = all_clean;
    idle_o           = !pc_valid_q && all_clean;

    // request order: piece 0's write-back, its fill, piece 1's write-back, its fill (the model's)
    // (picked from seq_k: no adder behind the decisions)
    n_f0   = 3'(go[0] && evict[0]);
    n_e1   = n_f0 + 3'(go[0] && nf[0]);
    n_f1   = n_e1 + 3'(go[1] && evict[1]);
    n_all  = n_f1 + 3'(go[1] && nf[1]);
    seq_f0 = seq_k[n_f0];
    seq_e1 = seq_k[n_e1];
    seq_f1 = seq_k[n_f1];
  end

  // from flip-flops only (pineda_top's flush request depends on it)
  assign quiet_o = !pc_valid_q && q_empty && !b_valid_q && (s3_valid_q == '0) && (s3x_valid_q == '0) &&
                   (s3w_valid_q == '0);

  // ---------------------------------------------------------------------------------------------
  // Stage B: the pieces applied in stream order
  // ---------------------------------------------------------------------------------------------
  logic [3:0]            brem, brem_after;
  logic [1:0]            bsel_ok, bbank, bfill, chain, raw, bok, bgo;
  logic [1:0][1:0]       bsel_idx;
  logic [1:0][EW-1:0]    bent;
  logic [1:0][31:0]      bm, bfm;
  logic [1:0][63:0]      bsel;          // the pixel of each halfword of the piece
  logic [1:0][511:0]     bdata;         // a plain piece's line data
  logic                  b_done;
  logic                  b_n2;
  logic [3:0][31:0]      b_enc;         // the colour a plain quad's pixel writes: its source encoded

  // plain quads (no blend, logic op or write mask): each pixel's source encoded for the target
  // format (what om_blend gives with blending off; rmw quads are blended in stage 3)
  for (genvar p = 0; p < 4; p++) begin : g_enc
    om_encode u_enc (
      .fmt_i (b_om_q.fmt),
      .v_i   ({{2{b_src_q[p][31:24]}}, {2{b_src_q[p][23:16]}}, {2{b_src_q[p][15:8]}}, {2{b_src_q[p][7:0]}}}),
      .pix_o (b_enc[p])
    );
  end
  // a plain piece's line: each halfword its pixel's encoded colour
  for (genvar s = 0; s < 2; s++) begin : g_plain
    pw_plain_line u_plain (
      .enc_i  (b_enc),
      .sel_i  (bsel[s]),
      .b565_i (b_n2),
      .data_o (bdata[s])
    );
  end

  assign b_n2 = (b_om_q.fmt == pineda_pkg::RT_FMT_B5G6R5);

  always_comb begin
    brem = '0;
    for (int k = 0; k < 4; k++) brem[k] = (b_mask_q[k] != '0);
    bsel_ok  = '0;
    bsel_idx = '0;
    for (int k = 3; k >= 0; k--) begin
      if (brem[k]) begin
        bsel_idx[1] = bsel_idx[0];
        bsel_ok[1]  = bsel_ok[0];
        bsel_idx[0] = 2'(k);
        bsel_ok[0]  = 1'b1;
      end
    end
    // stage A's reads (write-backs, flush steps) take the read port first
    a_re = '0;
    for (int s = 0; s < 2; s++) if (go[s] && evict[s]) a_re[bank[s]] = 1'b1;
    if (fgo) a_re = fd;
    for (int s = 0; s < 2; s++) begin
      bbank[s] = b_bank_q[bsel_idx[s]];
      bent[s]  = b_ent_q[bsel_idx[s]];
      bm[s]    = b_mask_q[bsel_idx[s]];
      bfill[s] = b_fill_q[bsel_idx[s]];
      bfm[s]   = b_fm_q[bsel_idx[s]];
      bsel[s]  = b_sel_q[bsel_idx[s]];
      // the line is in stage 3R, 3X or 3W now: it comes from there next clock, no SRAM read
      // (which could also meet stage 3W's write of the entry)
      chain[s] = (s3_valid_q[bbank[s]] && (s3_ent_q[bbank[s]] == bent[s])) ||
                 (s3x_valid_q[bbank[s]] && (s3x_ent_q[bbank[s]] == bent[s])) ||
                 (s3w_valid_q[bbank[s]] && (s3w_ent_q[bbank[s]] == bent[s]));
      // stage 3R's and 3X's pieces on the entry: next clock they are in stages 3X and 3W and
      // their results are not seen by stage 3R, so a piece that shares a halfword with either
      // waits
      raw[s]   = (s3_valid_q[bbank[s]] && (s3_ent_q[bbank[s]] == bent[s]) &&
                  ((bm[s] & s3_mask_q[bbank[s]]) != '0)) ||
                 (s3x_valid_q[bbank[s]] && (s3x_ent_q[bbank[s]] == bent[s]) &&
                  ((bm[s] & s3x_pass_q[bbank[s]]) != '0));
      if (b_rmw_q) begin
        // an rmw piece waits for its line's fill data (the interlock) and for the read port
        bok[s] = (!bfill[s] || rf_out_valid[bbank[s]]) && (chain[s] || !a_re[bbank[s]]) && !raw[s];
      end else begin
        bok[s] = !s3_busy;  // a plain write waits while stage 3 writes
      end
    end
    // a piece that takes another clock in stage 3 keeps it (its source colours, om state and
    // quad number are shared by both banks' stage 3): nothing enters stage 3 or writes the SRAM
    s3_hold = |s3_more;
    bgo[0] = b_valid_q && bsel_ok[0] && bok[0] && !s3_hold;
    bgo[1] = bgo[0] && bsel_ok[1] && (bbank[1] != bbank[0]) && bok[1];
    brem_after = brem;
    for (int s = 0; s < 2; s++) begin
      if (bgo[s]) brem_after[bsel_idx[s]] = 1'b0;
    end
    b_done      = bgo[0] && (brem_after == '0);
    q_out_ready = !b_valid_q || b_done;
  end

  // ---------------------------------------------------------------------------------------------
  // State update
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    pc_valid_d = pc_valid_q;
    pc_eop_d   = pc_eop_q;
    pc_src_d   = pc_src_q;
    pc_sel_d   = pc_sel_q;
    pc_rmw_d   = pc_rmw_q;
    pc_om_d    = pc_om_q;
    pc_line_d  = pc_line_q;
    pc_mask_d  = pc_mask_q;
    pc_live_d  = pc_live_q;
    pc_pm_d    = pc_pm_q;
    pc_pb_d    = pc_pb_q;
    pc_pe_d    = pc_pe_q;
    pc_pf_d    = pc_pf_q;
    pc_pfm_d   = pc_pfm_q;
    aq_d       = aq_q;
    cr_d       = cr_q;
    b_valid_d  = b_valid_q;
    b_src_d    = b_src_q;
    b_sel_d    = b_sel_q;
    b_rmw_d    = b_rmw_q;
    b_om_d     = b_om_q;
    b_mask_d   = b_mask_q;
    b_bank_d   = b_bank_q;
    b_ent_d    = b_ent_q;
    b_fill_d   = b_fill_q;
    b_fm_d     = b_fm_q;
    b_qn_d     = b_qn_q;
    s3_valid_d = '0;
    s3_ent_d   = s3_ent_q;
    s3_mask_d  = s3_mask_q;
    s3_fm_d    = s3_fm_q;
    s3_fd_d    = s3_fd_q;
    s3_qn_d    = s3_qn_q;
    s3_src_d   = s3_src_q;
    s3_sel_d   = s3_sel_q;
    s3_om_d    = s3_om_q;
    s3x_valid_d = '0;
    s3x_last_d  = s3x_last_q;
    s3x_ent_d   = s3x_ent_q;
    s3x_line_d  = s3x_line_q;
    s3x_pass_d  = s3x_pass_q;
    s3x_fm_d    = s3x_fm_q;
    s3x_dst_d   = s3x_dst_q;
    s3x_src_d   = s3x_src_q;
    s3x_lane_d  = s3x_lane_q;
    s3x_om_d    = s3x_om_q;
    s3x_qn_d    = s3x_qn_q;
    // stage 3X -> 3W every clock (the lanes' registers move with it)
    s3w_valid_d = s3x_valid_q;
    s3w_last_d  = s3x_last_q;
    s3w_ent_d   = s3x_ent_q;
    s3w_line_d  = s3x_pre;
    s3w_pass_d  = s3x_pass_q;
    s3w_fm_d    = s3x_fm_q;
    for (int b = 0; b < 2; b++) begin
      for (int h = 0; h < 32; h++) begin
        for (int i = 0; i < BlendLanes; i++) s3w_lane_d[b][h][i] = s3x_pass_q[b][h] && (s3x_lane_q[b][h] == 4'(i));
      end
    end
    s3w_om_d    = s3x_om_q;
    s3w_qn_d    = s3x_qn_q;
    wf_valid_d = s3w_valid_q;
    wf_ent_d   = s3w_ent_q;
    wf_data_d  = s3w_out;
    wf_wm_d    = s3w_pass_q | s3w_fm_q;
    ev_valid_d = '0;
    ev_line_d  = ev_line_q;
    ev_mask_d  = ev_mask_q;
    ev_seq_d   = ev_seq_q;
    seq_d      = seq_q;
    s_we       = '0;
    s_re       = '0;
    s_waddr    = '0;
    s_raddr    = '0;
    s_wmask    = '0;
    s_wdata    = '0;
    fq_in_valid = '0;
    fq_in_data  = '0;
    rf_out_ready = '0;
    t_c3       = '0;
    t_cb       = '0;
    t_cbent    = '0;
    t_we       = '0;
    t_went     = '0;
    t_wtag     = '0;
    t_wdm      = '0;
    t_wvm      = '0;
    t_wmiss    = '0;
    t_fclr     = '0;
    t_vclr     = 1'b0;

    // ---- stage 3W: the blended rmw pieces (and their fills) go back into the SRAM
    for (int b = 0; b < 2; b++) begin
      if (s3w_valid_q[b]) begin
        s_we[b]    = 1'b1;
        s_waddr[b] = s3w_ent_q[b];
        s_wmask[b] = s3w_pass_q[b] | s3w_fm_q[b];
        s_wdata[b] = s3w_out[b];
        t_c3[b]    = s3w_last_q[b];  // busy cleared when this is the entry's last quad
      end
    end
    // ---- stage 3R: the compacted units go to stage 3X; a piece with units left stays for the
    // next clock, which takes its line from stage 3X (pw_stage3w's x_line_pre_o)
    for (int b = 0; b < 2; b++) begin
      if (s3_valid_q[b]) begin
        s3x_valid_d[b] = 1'b1;
        s3x_last_d[b]  = !s3_more[b];
        s3x_ent_d[b]   = s3_ent_q[b];
        s3x_line_d[b]  = s3_line[b];
        s3x_pass_d[b]  = s3_pass[b];
        s3x_fm_d[b]    = s3_fm_q[b];
        s3x_dst_d[b]   = s3_dst[b];
        s3x_src_d[b]   = s3_srcl[b];
        s3x_lane_d[b]  = s3_lane[b];
        s3x_om_d       = s3_om_q;
        s3x_qn_d       = s3_qn_q;
        if (s3_more[b]) begin
          s3_valid_d[b] = 1'b1;
          s3_mask_d[b]  = s3_mask_q[b] & ~s3_pass[b];
          s3_fm_d[b]    = '0;  // merged this clock (stage 3W writes it)
        end
      end
    end

    // ---- stage B
    for (int s = 0; s < 2; s++) begin
      if (bgo[s] && b_rmw_q) begin
        if (!chain[s]) begin
          s_re[bbank[s]]    = 1'b1;
          s_raddr[bbank[s]] = bent[s];
        end
        s3_valid_d[bbank[s]] = 1'b1;
        s3_ent_d[bbank[s]]   = bent[s];
        s3_mask_d[bbank[s]]  = bm[s];
        s3_fm_d[bbank[s]]    = bfill[s] ? bfm[s] : 32'd0;
        s3_fd_d[bbank[s]]    = rf_out_data[bbank[s]];
        rf_out_ready[bbank[s]] = bfill[s];
        s3_sel_d[bbank[s]] = bsel[s];
        s3_qn_d  = b_qn_q;
        s3_src_d = b_src_q;
        s3_om_d  = b_om_q;
      end else if (bgo[s]) begin
        s_we[bbank[s]]    = 1'b1;
        s_waddr[bbank[s]] = bent[s];
        s_wmask[bbank[s]] = bm[s];
        s_wdata[bbank[s]] = bdata[s];
        t_cb[bbank[s]]    = 1'b1;  // busy cleared when this is the entry's last quad
        t_cbent[bbank[s]] = bent[s];
      end
      if (bgo[s]) b_mask_d[bsel_idx[s]] = '0;
    end
    for (int b = 0; b < 2; b++) begin
      if (rf_out_ready[b]) cr_d[b] = cr_d[b] - CrW'(1);
    end
    if (b_done) begin
      b_valid_d = 1'b0;
      b_qn_d    = b_qn_q + QW'(1);
    end
    if (q_out_valid && q_out_ready) begin
      b_valid_d = 1'b1;
      {b_rmw_d, b_src_d, b_om_d} = q_out_data[RecW-1 -: 1 + 128 + OmW];
      for (int k = 0; k < 4; k++) begin
        {b_mask_d[k], b_fm_d[k], b_fill_d[k], b_bank_d[k], b_ent_d[k], b_sel_d[k]} = q_out_data[k*PieceW +: PieceW];
      end
    end

    // ---- stage A: pieces
    for (int s = 0; s < 2; s++) begin
      if (go[s]) begin
        // the two slots' banks differ: one write per tag bank (it also sets the entry's busy bit
        // and last quad, and advances the pointer on a miss)
        t_we[bank[s]]   = 1'b1;
        t_went[bank[s]] = ent[s];
        t_wtag[bank[s]] = sl[s];
        t_wdm[bank[s]]  = (hit[s] ? hdm[s] : 32'd0) | sm[s];
        if (pc_rmw_q) begin
          // (a piece that fills nothing hit: its entry's valid mask is hvm)
          t_wvm[bank[s]] = nf[s] ? 32'hFFFF_FFFF : (hvm[s] | sm[s]);
        end else begin
          t_wvm[bank[s]] = (hit[s] ? hvm[s] : 32'd0) | sm[s];
        end
        t_wmiss[bank[s]] = !hit[s];
        if (evict[s]) begin
          // a miss: the victim is the entry at the pointer
          s_re[bank[s]]       = 1'b1;
          s_raddr[bank[s]]    = ent[s];
          ev_valid_d[bank[s]] = 1'b1;
          ev_line_d[bank[s]]  = t_ptag[bank[s]];
          ev_mask_d[bank[s]]  = t_pdm[bank[s]];
          ev_seq_d[bank[s]]   = (s == 0) ? seq_q : seq_e1;
        end
        if (nf[s]) begin
          fq_in_valid[bank[s]] = 1'b1;
          fq_in_data[bank[s]]  = {(s == 0) ? seq_f0 : seq_f1, sl[s]};
          cr_d[bank[s]]        = cr_d[bank[s]] + CrW'(1);
        end
        pc_pb_d[sel_idx[s]]   = bank[s];
        pc_pe_d[sel_idx[s]]   = ent[s];
        pc_pf_d[sel_idx[s]]   = nf[s];
        pc_pfm_d[sel_idx[s]]  = sfm[s];
        pc_mask_d[sel_idx[s]] = '0;
        pc_live_d[sel_idx[s]] = 1'b0;
      end
    end
    seq_d = seq_k[n_all];

    // the quad's record goes to stage B once every piece is issued
    q_in_valid = pc_done || pc_split;
    q_in_data  = '0;
    q_in_data[RecW-1 -: 1 + 128 + OmW] = {pc_rmw_q, pc_src_q, pc_om_q};
    for (int k = 0; k < 4; k++) begin
      // a split sends only the pieces already issued (and forgets them)
      q_in_data[k*PieceW +: PieceW] = {(pc_split && pc_live_q[k]) ? 32'd0 : pc_pm_q[k], pc_pfm_d[k],
                                       pc_pf_d[k], pc_pb_d[k], pc_pe_d[k], pc_sel_q[k]};
      if (pc_split && !pc_live_q[k]) pc_pm_d[k] = '0;
    end
    if (pc_done || pc_split) aq_d = aq_q + QW'(1);

    // ---- flush (stage B idle): every dirty line is written back
    if (fgo) begin
      for (int b = 0; b < 2; b++) begin
        if (fd[b]) begin
          s_re[b]       = 1'b1;
          s_raddr[b]    = fidx[b];
          ev_valid_d[b] = 1'b1;
          ev_line_d[b]  = t_ftag[b];
          ev_mask_d[b]  = t_fdm[b];
          ev_seq_d[b]   = (b == 0) ? seq_q : seq_q + SeqW'(fd[0]);
          t_fclr[b]     = 1'b1;
        end
      end
      seq_d = seq_q + SeqW'(fd[0]) + SeqW'(fd[1]);
    end
    // a flush with nothing dirty left drops the clean lines too
    t_vclr = flushing && !any_dirty && b_idle;

    if (pc_done || tok_done) pc_valid_d = 1'b0;
    if (in_valid_i && in_ready_o) begin
      pc_valid_d = inq.eop || (nm != '0);
      pc_eop_d   = inq.eop;
      pc_src_d   = in_i.pcolor;
      pc_sel_d   = ns;
      pc_rmw_d   = inq.om.blend || inq.om.lop_en || (inq.om.mask_off != '0);
      pc_om_d    = inq.om;
      pc_line_d  = nl;
      pc_mask_d  = inq.eop ? '0 : nm;
      for (int k = 0; k < 4; k++) pc_live_d[k] = !inq.eop && (nm[k] != '0);
      pc_pm_d    = inq.eop ? '0 : nm;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Data SRAMs, stage 3, queues, line port
  // ---------------------------------------------------------------------------------------------
  logic [1:0] hv, fv;
  logic       req_fire, rsp_fire, fill_sel;
  logic       fsel, osel;
  logic [1:0][SeqW-1:0]  h_seq, f_seq;
  logic [1:0][LineW-1:0] h_line, f_line;
  logic [1:0][31:0]      h_mask;
  logic [1:0][511:0]     h_data;
  logic [1:0][511:0]     ev_data;

  stream_fifo #(.Sram(1'b1), .Depth(QDepth), .Width(RecW)) u_queue (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (q_in_valid),
    .in_ready_o  (q_in_ready),
    .in_data_i   (q_in_data),
    .out_valid_o (q_out_valid),
    .out_ready_i (q_out_ready),
    .out_data_o  (q_out_data),
    .count_o     (q_count),
    .empty_o     (q_empty),
    .full_o      (q_full)
  );

  for (genvar b = 0; b < 2; b++) begin : g_bank
    // No read ever meets a write of its word (asserted below), so the bank needs no read-first
    // emulation: an eviction's victim is never busy, so no queued piece writes it in the cycle
    // stage A reads it (a busy bit is cleared by the write itself, so the earliest read of a
    // freed entry is the next cycle); a flush step reads only when stage B and 3 are empty; a
    // stage-B read of an entry stage 3R, 3X or 3W holds is not made (chain: the line comes from
    // stage 3X, 3W or wf_*),
    // and a plain piece's write never shares a cycle with a stage-B read (one quad is plain or
    // rmw; its two pieces use two banks).
    sram_1r1w #(.Width(512), .Depth(EntriesPerBank), .MaskW(32)) u_data (
      .clk_i,
      .we_i    (s_we[b]),
      .waddr_i (s_waddr[b]),
      .wdata_i (s_wdata[b]),
      .wmask_i (s_wmask[b]),
      .re_i    (s_re[b]),
      .raddr_i (s_raddr[b]),
      .rdata_o (s_rdata[b])
    );

    // The evicted line: its dirty dwords, zero elsewhere.
    always_comb begin
      for (int k = 0; k < 32; k++) ev_data[b][16*k +: 16] = ev_mask_q[b][k] ? s_rdata[b][16*k +: 16] : 16'd0;
      wb_in_valid[b] = ev_valid_q[b];
      wb_in_data[b]  = {ev_seq_q[b], ev_line_q[b], ev_mask_q[b], ev_data[b]};
      {h_seq[b], h_line[b], h_mask[b], h_data[b]} = wb_out_data[b];
      hv[b] = wb_out_valid[b] && (h_seq[b] == nseq_q);
      {f_seq[b], f_line[b]} = fq_out_data[b];
      fv[b] = fq_out_valid[b] && (f_seq[b] == nseq_q);
    end

    // stage 3R: the line as it is now (stage 3X's line when it holds this entry, else the line
    // stage 3W blends into when it does, else last clock's stage-3W line when it wrote this
    // entry, else the SRAM read), the fill
    // data in the halfwords that were not valid, the piece's units compacted into the lanes
    pw_stage3 #(.EW(EW), .Lanes(BlendLanes), .SrgbLanes(SrgbLanes)) u_s3 (
      .valid_i    (s3_valid_q[b]),
      .ent_i      (s3_ent_q[b]),
      .mask_i     (s3_mask_q[b]),
      .fm_i       (s3_fm_q[b]),
      .fd_i       (s3_fd_q[b]),
      .sel_i      (s3_sel_q[b]),
      .src_i      (s3_src_q),
      .fmt_i      (s3_om_q.fmt),
      .x_valid_i  (s3x_valid_q[b]),
      .x_ent_i    (s3x_ent_q[b]),
      .x_line_i   (s3x_pre[b]),
      .w_valid_i  (s3w_valid_q[b]),
      .w_ent_i    (s3w_ent_q[b]),
      .w_line_i   (s3w_pre[b]),
      .wf_valid_i (wf_valid_q[b]),
      .wf_ent_i   (wf_ent_q[b]),
      .wf_data_i  (wf_data_q[b]),
      .rdata_i    (s_rdata[b]),
      .line_o     (s3_line[b]),
      .pass_o     (s3_pass[b]),
      .more_o     (s3_more[b]),
      .dst_o      (s3_dst[b]),
      .src_o      (s3_srcl[b]),
      .lane_o     (s3_lane[b])
    );

    // stages 3X and 3W: the lanes blend (a register inside), the results go back to their
    // halfwords
    pw_stage3w #(.EW(EW), .Lanes(BlendLanes), .SrgbLanes(SrgbLanes)) u_s3w (
      .clk_i,
      .rst_ni,
      .x_ent_i    (s3x_ent_q[b]),
      .x_line_i   (s3x_line_q[b]),
      .dst_i      (s3x_dst_q[b]),
      .src_i      (s3x_src_q[b]),
      .om_x_i     (s3x_om_q),
      .x_line_pre_o (s3x_pre[b]),
      .ent_i      (s3w_ent_q[b]),
      .line_i     (s3w_line_q[b]),
      .pass_i     (s3w_pass_q[b]),
      .lane_i     (s3w_lane_q[b]),
      .om_i       (s3w_om_q),
      .wf_valid_i (wf_valid_q[b]),
      .wf_ent_i   (wf_ent_q[b]),
      .wf_data_i  (wf_data_q[b]),
      .wf_wm_i    (wf_wm_q[b]),
      .line_pre_o (s3w_pre[b]),
      .line_o     (s3w_out[b])
    );

    stream_fifo #(.Sram(1'b1), .Depth(WbDepth), .Width(WbW)) u_wb (
      .clk_i,
      .rst_ni,
      .clear_i     (1'b0),
      .in_valid_i  (wb_in_valid[b]),
      .in_ready_o  (wb_in_ready[b]),
      .in_data_i   (wb_in_data[b]),
      .out_valid_o (wb_out_valid[b]),
      .out_ready_i (wb_out_ready[b]),
      .out_data_o  (wb_out_data[b]),
      .count_o     (wb_count[b]),
      .empty_o     (wb_empty[b]),
      .full_o      (wb_full[b])
    );

    // the fill requests of this bank's lines, and their data as it returns
    stream_fifo #(.Sram(1'b1), .Depth(RfDepth), .Width(FqW)) u_fq (
      .clk_i,
      .rst_ni,
      .clear_i     (1'b0),
      .in_valid_i  (fq_in_valid[b]),
      .in_ready_o  (fq_in_ready[b]),
      .in_data_i   (fq_in_data[b]),
      .out_valid_o (fq_out_valid[b]),
      .out_ready_i (fq_out_ready[b]),
      .out_data_o  (fq_out_data[b]),
      .count_o     (fq_count[b]),
      .empty_o     (fq_empty[b]),
      .full_o      (fq_full[b])
    );
    stream_fifo #(.Sram(1'b1), .Depth(RfDepth), .Width(512)) u_rf (
      .clk_i,
      .rst_ni,
      .clear_i     (1'b0),
      .in_valid_i  (rf_in_valid[b]),
      .in_ready_o  (rf_in_ready[b]),
      .in_data_i   (mem_rsp_i.rdata),
      .out_valid_o (rf_out_valid[b]),
      .out_ready_i (rf_out_ready[b]),
      .out_data_o  (rf_out_data[b]),
      .count_o     (rf_count[b]),
      .empty_o     (rf_empty[b]),
      .full_o      (rf_full[b])
    );
  end

  // The line port: the write-backs and fills of both banks leave in sequence order.
  always_comb begin
    fill_sel = |fv;
    fsel     = fv[1];
    osel     = hv[1];
    mem_req_valid_o = (|hv) || fill_sel;
    mem_req_o       = '0;
    if (fill_sel) begin
      mem_req_o.addr = {f_line[fsel], 6'd0};
      mem_req_o.tag  = 8'(fsel);
    end else begin
      mem_req_o.we    = 1'b1;
      mem_req_o.addr  = {h_line[osel], 6'd0};
      mem_req_o.wdata = h_data[osel];
      for (int k = 0; k < 32; k++) mem_req_o.be[2*k +: 2] = {2{h_mask[osel][k]}};
    end
  end

  always_comb begin
    req_fire        = mem_req_valid_o && mem_req_ready_i;
    wb_out_ready    = '0;
    fq_out_ready    = '0;
    if (fill_sel) fq_out_ready[fsel] = req_fire;
    else          wb_out_ready[osel] = req_fire;
    nseq_d          = nseq_q + SeqW'(req_fire);
    mem_rsp_ready_o = 1'b1;
    rsp_fire        = mem_rsp_valid_i;
    rf_in_valid     = '0;
    if (mem_rsp_valid_i && !mem_rsp_i.we) rf_in_valid[mem_rsp_i.tag[0]] = 1'b1;
    unique case ({req_fire, rsp_fire})
      2'b10:   outst_d = outst_q + OutstandingW'(1);
      2'b01:   outst_d = outst_q - OutstandingW'(1);
      default: outst_d = outst_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_valid_q <= 1'b0;
      pc_eop_q   <= 1'b0;
      pc_src_q   <= '0;
      pc_sel_q   <= '0;
      pc_rmw_q   <= 1'b0;
      pc_om_q    <= '0;
      pc_line_q  <= '0;
      pc_mask_q  <= '0;
      pc_live_q  <= '0;
      pc_pm_q    <= '0;
      pc_pb_q    <= '0;
      pc_pe_q    <= '0;
      pc_pf_q    <= '0;
      pc_pfm_q   <= '0;
      aq_q       <= '0;
      cr_q       <= '0;
      b_valid_q  <= 1'b0;
      b_src_q    <= '0;
      b_sel_q    <= '0;
      b_rmw_q    <= 1'b0;
      b_om_q     <= '0;
      b_mask_q   <= '0;
      b_bank_q   <= '0;
      b_ent_q    <= '0;
      b_fill_q   <= '0;
      b_fm_q     <= '0;
      b_qn_q     <= '0;
      s3_valid_q <= '0;
      s3_ent_q   <= '0;
      s3_mask_q  <= '0;
      s3_fm_q    <= '0;
      s3_fd_q    <= '0;
      s3_qn_q    <= '0;
      s3_src_q   <= '0;
      s3_sel_q   <= '0;
      s3_om_q    <= '0;
      s3x_valid_q <= '0;
      s3x_last_q  <= '0;
      s3x_ent_q   <= '0;
      s3x_line_q  <= '0;
      s3x_pass_q  <= '0;
      s3x_fm_q    <= '0;
      s3x_dst_q   <= '0;
      s3x_src_q   <= '0;
      s3x_lane_q  <= '0;
      s3x_om_q    <= '0;
      s3x_qn_q    <= '0;
      s3w_valid_q <= '0;
      s3w_last_q  <= '0;
      s3w_ent_q   <= '0;
      s3w_line_q  <= '0;
      s3w_pass_q  <= '0;
      s3w_fm_q    <= '0;
      s3w_lane_q  <= '0;
      s3w_om_q    <= '0;
      s3w_qn_q    <= '0;
      wf_valid_q <= '0;
      wf_ent_q   <= '0;
      wf_data_q  <= '0;
      wf_wm_q    <= '0;
      ev_valid_q <= '0;
      ev_line_q  <= '0;
      ev_mask_q  <= '0;
      ev_seq_q   <= '0;
      seq_q      <= '0;
      nseq_q     <= '0;
      outst_q    <= '0;
    end else begin
      pc_valid_q <= pc_valid_d;
      pc_eop_q   <= pc_eop_d;
      pc_src_q   <= pc_src_d;
      pc_sel_q   <= pc_sel_d;
      pc_rmw_q   <= pc_rmw_d;
      pc_om_q    <= pc_om_d;
      pc_line_q  <= pc_line_d;
      pc_mask_q  <= pc_mask_d;
      pc_live_q  <= pc_live_d;
      pc_pm_q    <= pc_pm_d;
      pc_pb_q    <= pc_pb_d;
      pc_pe_q    <= pc_pe_d;
      pc_pf_q    <= pc_pf_d;
      pc_pfm_q   <= pc_pfm_d;
      aq_q       <= aq_d;
      cr_q       <= cr_d;
      b_valid_q  <= b_valid_d;
      b_src_q    <= b_src_d;
      b_sel_q    <= b_sel_d;
      b_rmw_q    <= b_rmw_d;
      b_om_q     <= b_om_d;
      b_mask_q   <= b_mask_d;
      b_bank_q   <= b_bank_d;
      b_ent_q    <= b_ent_d;
      b_fill_q   <= b_fill_d;
      b_fm_q     <= b_fm_d;
      b_qn_q     <= b_qn_d;
      s3_valid_q <= s3_valid_d;
      s3_ent_q   <= s3_ent_d;
      s3_mask_q  <= s3_mask_d;
      s3_fm_q    <= s3_fm_d;
      s3_fd_q    <= s3_fd_d;
      s3_qn_q    <= s3_qn_d;
      s3_src_q   <= s3_src_d;
      s3_sel_q   <= s3_sel_d;
      s3_om_q    <= s3_om_d;
      s3x_valid_q <= s3x_valid_d;
      s3x_last_q  <= s3x_last_d;
      s3x_ent_q   <= s3x_ent_d;
      s3x_line_q  <= s3x_line_d;
      s3x_pass_q  <= s3x_pass_d;
      s3x_fm_q    <= s3x_fm_d;
      s3x_dst_q   <= s3x_dst_d;
      s3x_src_q   <= s3x_src_d;
      s3x_lane_q  <= s3x_lane_d;
      s3x_om_q    <= s3x_om_d;
      s3x_qn_q    <= s3x_qn_d;
      s3w_valid_q <= s3w_valid_d;
      s3w_last_q  <= s3w_last_d;
      s3w_ent_q   <= s3w_ent_d;
      s3w_line_q  <= s3w_line_d;
      s3w_pass_q  <= s3w_pass_d;
      s3w_fm_q    <= s3w_fm_d;
      s3w_lane_q  <= s3w_lane_d;
      s3w_om_q    <= s3w_om_d;
      s3w_qn_q    <= s3w_qn_d;
      wf_valid_q <= wf_valid_d;
      wf_ent_q   <= wf_ent_d;
      wf_data_q  <= wf_data_d;
      wf_wm_q    <= wf_wm_d;
      ev_valid_q <= ev_valid_d;
      ev_line_q  <= ev_line_d;
      ev_mask_q  <= ev_mask_d;
      ev_seq_q   <= ev_seq_d;
      seq_q      <= seq_d;
      nseq_q     <= nseq_d;
      outst_q    <= outst_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i.src, mem_rsp_i.tag[7:1], inq.tri_id, wb_full, wb_in_ready, inq.mask[15:8], inq.z,
                        inq.front, inq.ds, q_full, fq_full, fq_in_ready, rf_full, rf_in_ready, rf_empty,
                        q_count, fq_count, rf_count, inq.color,  // flat colour: INTERP put it in pcolor
                        inq.it, in_i.uv0, in_i.uv1};  // planes (0 after INTERP), texture coordinates

`ifndef SYNTHESIS
  initial begin
    assert (EntriesPerBank >= 2 && (EntriesPerBank & (EntriesPerBank - 1)) == 0)
      else $fatal(1, "pixel_writer: EntriesPerBank must be a power of two >= 2");
    assert (2 * (WbDepth + 3) + 2 * (RfDepth + 3) < (1 << SeqW))
      else $fatal(1, "pixel_writer: WbDepth / RfDepth too large for the sequence numbers");
    assert (QDepth + 8 < (1 << QW)) else $fatal(1, "pixel_writer: QW too small");
    assert (BlendLanes >= 1 && BlendLanes <= 16) else $fatal(1, "pixel_writer: BlendLanes must be 1..16");
    assert (SrgbLanes >= 1 && SrgbLanes <= BlendLanes) else $fatal(1, "pixel_writer: SrgbLanes must be 1..BlendLanes");
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_fire && !req_fire && outst_q == '0))
        else $error("%m: line response with no request outstanding");
      assert ((wb_in_valid & ~wb_in_ready) == '0) else $error("%m: write-back FIFO overflow");
      assert ((fq_in_valid & ~fq_in_ready) == '0) else $error("%m: fill request FIFO overflow");
      assert ((rf_in_valid & ~rf_in_ready) == '0) else $error("%m: fill data FIFO overflow");
      assert (!(q_in_valid && !q_in_ready)) else $error("%m: stage B queue overflow");
      assert (!(go[0] && fgo)) else $error("%m: flush step while pieces are issued");
      assert (!(go[0] && pc_split)) else $error("%m: split while a piece is issued");
      assert (!(|hv && fill_sel)) else $error("%m: two line requests with one sequence number");
      assert (!(mem_rsp_valid_i && !mem_rsp_i.we && mem_rsp_i.tag[7:1] != '0)) else $error("%m: fill data with a foreign tag");
      assert (!(s3w_valid_q[0] && s_waddr[0] != s3w_ent_q[0]) && !(s3w_valid_q[1] && s_waddr[1] != s3w_ent_q[1]))
        else $error("%m: two SRAM writes in one bank");
      assert (!(s_we[0] && s_wmask[0] != '0 && s_re[0] && s_waddr[0] == s_raddr[0]) &&
              !(s_we[1] && s_wmask[1] != '0 && s_re[1] && s_waddr[1] == s_raddr[1]))
        else $error("%m: a bank reads the entry it writes in the same cycle (undefined in sram_1r1w)");
    end
  end
  for (genvar b = 0; b < 2; b++) begin : g_chk
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        // a 4-byte pixel is a halfword pair: the units (dwords) stand for whole pairs
        assert (!(s3_valid_q[b] && !s3_b565 && (((s3_mask_q[b] ^ (s3_mask_q[b] >> 1)) & 32'h5555_5555) != '0)))
          else $error("%m: stage 3 piece with half a 4-byte pixel");
        // each clock blends a non-empty part of the piece
        assert (!(s3_valid_q[b] && (s3_pass[b] == '0 || (s3_pass[b] & ~s3_mask_q[b]) != '0)))
          else $error("%m: stage 3 pass outside its piece");
      end
    end
  end
`endif

endmodule
