// SPDX-License-Identifier: Apache-2.0
// pixel_writer: the colour tile cache, a write-back cache of 64-byte lines that takes one 2x2
// quad per clock and writes whole lines with byte enables on its own line port
// (docs/contract.md §5, docs/architecture.md "Colour cache"; the model is
// cpp_model/om/pixel_writer, which predicts the line-write stream exactly).
//
// Memory effect: every covered pixel (1x) or sample (4x MSAA) writes the quad's colour to the
// dword at (target.base + y*pitch + x*4 [4x: x*16 + s*4]) mod 2^32 (addr[1:0] ignored). As the
// whole quad has one colour, a line's data is the colour in its written dwords and the cache
// keeps a dword dirty mask per line. No fill read: the byte enables carry partial lines.
//
// Organisation: 2 banks x EntriesPerBank lines, fully associative (a line lives in one entry of
// either bank); tags and dirty masks in flip-flops, data in one sram_1r1w per bank (16 dword
// lanes). Stage 1 (in_i -> pc_q): the quad's two pixel rows become up to four pieces (row r's
// line and the next line when the row's 2 or 8 dwords straddle it), empty ones dropped, a row-1
// piece on a row-0 piece's line merged into it. Stage 2: the pieces in order, up to two per
// clock when they use different banks: a hit writes its dwords; a miss takes the entry at the
// round-robin pointer of bank r (its pixel row), evicting it when dirty (the SRAM reads the old
// line in the cycle the new piece overwrites it; the next cycle it goes into the bank's
// write-back FIFO with a sequence number). The two FIFOs drain to the line port in sequence
// order, so the line writes leave in exactly the model's order.
// Flushes: an end-of-pipe token, or flush_i with no quad held, writes back every dirty line
// (per step: bank 0's lowest dirty entry, then bank 1's); a token is then offered on
// eop_done_valid_o once every line write is acknowledged (no dirty line, nothing queued or
// outstanding), and no packet is taken until the CP has accepted it.
// quiet_o: no quad or token held (dirty lines may be cached); clean_o: no dirty line and no
// write queued or unacknowledged; idle_o = quiet_o && clean_o.
//
// Output merger (docs/om.md section 5): the quad's om state is applied here. A plain quad (no
// blending, no write mask) writes its encoded colour (u_enc) as above. An rmw quad (blending or
// a write mask) needs the destination: each entry also has a dword valid mask (lines are found
// by it; dirty is a subset). Its pieces whose dwords are all valid are read from the SRAM (up to
// two per clock, one per bank) and blended in stage 3 the next clock (u_blend, 16 dwords per
// bank), which writes them back; the previous clock's stage-3 write is forwarded into the read
// data (the SRAM reads first), so back-to-back quads on one line see each other in order. A piece
// that is not all valid first fills its line (blocking): on a miss the bank's pointer entry is
// taken (written back if dirty), every queued write-back is handed to the port, one line read is
// issued (the port keeps order, so it sees those writes) and its data fills the invalid dwords.
// While stage 3 writes, stage 2 neither writes, evicts nor fills. A flush also drops every clean
// line (memory may change behind the cache: DMA fills, COPY, the host).
module pixel_writer #(
  parameter int unsigned EntriesPerBank = 32,  // power of two
  parameter int unsigned WbDepth        = 8,   // write-back FIFO lines per bank (power of two)
  parameter int unsigned OutstandingW   = 10
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  pineda_pkg::quad_pkt_t       in_i,
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
  localparam int unsigned SeqW   = 6;
  localparam int unsigned LineW  = 26;
  localparam int unsigned WbW    = SeqW + LineW + 16 + 512;
  localparam int unsigned CountW = $clog2(WbDepth + 2) + 1;

  // ---------------------------------------------------------------------------------------------
  // Stage 1: pieces of the incoming quad
  // ---------------------------------------------------------------------------------------------
  logic [3:0][LineW-1:0] nl;     // line addresses
  logic [3:0][15:0]      nm;     // dword masks
  logic [1:0][13:0]      ny;
  logic [1:0][31:0]      nrow;
  logic [1:0][7:0]       nrm;
  logic [1:0][23:0]      nw;
  logic [31:0]           xoff;

  // the colour a plain quad writes: its source encoded for the target format (om_blend with
  // blending off; rmw quads are blended in stage 3)
  logic [31:0] enc_color;
  om_blend #(.Lanes(1)) u_enc (
    .state_i (in_i.om),
    .src_i   (in_i.color),
    .dst_i   (32'd0),
    .pix_o   (enc_color)
  );

  always_comb begin
    xoff = in_i.target.msaa ? {14'd0, in_i.qx, 5'd0} : {16'd0, in_i.qx, 3'd0};
    for (int r = 0; r < 2; r++) begin
      ny[r]   = {in_i.qy, r[0]};
      nrow[r] = in_i.target.base + 32'(ny[r]) * 32'(in_i.target.pitch) + xoff;
      nrm[r]  = in_i.target.msaa ? in_i.mask[8*r +: 8] : {6'd0, in_i.mask[2*r +: 2]};
      nw[r]   = 24'(nrm[r]) << nrow[r][5:2];
      nl[2*r]     = nrow[r][31:6];
      nm[2*r]     = nw[r][15:0];
      nl[2*r + 1] = nrow[r][31:6] + LineW'(1);
      nm[2*r + 1] = {8'd0, nw[r][23:16]};
    end
    // A row-1 piece on the line of a row-0 piece joins it.
    for (int k = 2; k < 4; k++) begin
      for (int j = 0; j < 2; j++) begin
        if (nm[k] != '0 && nm[j] != '0 && nl[k] == nl[j]) begin
          nm[j] = nm[j] | nm[k];
          nm[k] = '0;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                  pc_valid_q, pc_valid_d;
  logic                  pc_eop_q,   pc_eop_d;
  logic [31:0]           pc_color_q, pc_color_d;  // plain quads: the encoded colour
  logic [31:0]           pc_src_q,   pc_src_d;    // rmw quads: the source colour
  logic                  pc_rmw_q,   pc_rmw_d;
  pineda_pkg::om_state_t pc_om_q,    pc_om_d;
  logic [3:0][LineW-1:0] pc_line_q,  pc_line_d;
  logic [3:0][15:0]      pc_mask_q,  pc_mask_d;   // 0: piece done (or none)

  logic [1:0][EntriesPerBank-1:0][LineW-1:0] tag_q, tag_d;
  logic [1:0][EntriesPerBank-1:0][15:0]      dm_q,  dm_d;    // dirty dwords
  logic [1:0][EntriesPerBank-1:0][15:0]      vm_q,  vm_d;    // valid dwords (dm is a subset); 0 = empty
  logic [1:0][EW-1:0]                        ptr_q, ptr_d;

  logic [1:0]            ev_valid_q, ev_valid_d;  // an evicted line is being read from the SRAM
  logic [1:0][LineW-1:0] ev_line_q,  ev_line_d;
  logic [1:0][15:0]      ev_mask_q,  ev_mask_d;
  logic [1:0][SeqW-1:0]  ev_seq_q,   ev_seq_d;
  logic [SeqW-1:0]       seq_q, seq_d;            // next sequence number to hand out
  logic [SeqW-1:0]       nseq_q, nseq_d;          // next sequence number to send
  logic [OutstandingW-1:0] outst_q, outst_d;

  // stage 3 (rmw pieces: SRAM data arrives, blend, write back) and its forwarding register
  logic [1:0]            s3_valid_q, s3_valid_d;
  logic [1:0][EW-1:0]    s3_ent_q,   s3_ent_d;
  logic [1:0][15:0]      s3_mask_q,  s3_mask_d;
  logic [31:0]           s3_src_q,   s3_src_d;
  pineda_pkg::om_state_t s3_om_q,    s3_om_d;
  logic [1:0]            wf_valid_q, wf_valid_d;
  logic [1:0][EW-1:0]    wf_ent_q,   wf_ent_d;
  logic [1:0][15:0]      wf_mask_q,  wf_mask_d;
  logic [1:0][511:0]     wf_data_q,  wf_data_d;
  // the blocking line fill
  typedef enum logic [1:0] {FIdle, FDrain, FWait} fill_e;
  fill_e                 fs_q, fs_d;
  logic                  fb_q, fb_d;              // its bank
  logic [EW-1:0]         fe_q, fe_d;              // its entry
  logic                  s3_busy, full0, full1, fill_start, fill_req, fill_rsp;
  logic [1:0][511:0]     s3_line, s3_pix;

  // SRAM and write-back FIFO signals (per bank)
  logic [1:0]            s_we, s_re;
  logic [1:0][EW-1:0]    s_waddr, s_raddr;
  logic [1:0][15:0]      s_wmask;
  logic [1:0][511:0]     s_wdata;
  logic [1:0][511:0]     s_rdata;
  logic [1:0]            wb_in_valid, wb_in_ready, wb_out_valid, wb_out_ready;
  logic [1:0][WbW-1:0]   wb_in_data, wb_out_data;
  logic [1:0][CountW-1:0] wb_count;
  logic [1:0]            wb_empty, wb_full;

  // ---------------------------------------------------------------------------------------------
  // Stage 2: lookup and update
  // ---------------------------------------------------------------------------------------------
  logic [3:0]       rem, rem_after;
  logic [1:0]       sel_ok;        // piece slot 0 (i) / 1 (j) present
  logic [1:0][1:0]  sel_idx;       // which of the four pieces
  logic [1:0][LineW-1:0] sl;
  logic [1:0][15:0] sm;
  logic [1:0]       sb;            // preferred bank (the piece's pixel row: its index bit 1)
  logic [1:0]       hit, hbank, bank, evict, go;
  logic [1:0][EW-1:0] hidx, ent;
  logic [1:0]       room;
  logic [1:0]       fd;            // flush: bank has a dirty entry
  logic [1:0][EW-1:0] fidx;
  logic             flushing, fgo, pc_done, tok_done, all_clean, any_dirty;
  logic [SeqW-1:0]  seq_j;

  always_comb begin
    // The first two remaining pieces.
    rem = '0;
    for (int k = 0; k < 4; k++) rem[k] = (pc_mask_q[k] != '0);
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
      hit[s]   = 1'b0;
      hbank[s] = 1'b0;
      hidx[s]  = '0;
      for (int b = 0; b < 2; b++) begin
        for (int e = 0; e < EntriesPerBank; e++) begin
          if (vm_q[b][e] != '0 && tag_q[b][e] == sl[s]) begin
            hit[s]   = 1'b1;
            hbank[s] = b[0];
            hidx[s]  = EW'(e);
          end
        end
      end
      bank[s]  = hit[s] ? hbank[s] : sb[s];
      ent[s]   = hit[s] ? hidx[s] : ptr_q[bank[s]];
      evict[s] = !hit[s] && (dm_q[bank[s]][ptr_q[bank[s]]] != '0);
    end

    for (int b = 0; b < 2; b++) begin
      room[b] = ({1'b0, wb_count[b]} + (CountW + 1)'(ev_valid_q[b])) < (CountW + 1)'(WbDepth);
    end

    s3_busy = (s3_valid_q != '0);
    full0   = hit[0] && ((vm_q[hbank[0]][hidx[0]] & sm[0]) == sm[0]);
    full1   = hit[1] && ((vm_q[hbank[1]][hidx[1]] & sm[1]) == sm[1]);
    if (pc_rmw_q) begin
      // rmw: all-valid pieces are read for stage 3; any other piece 0 starts a fill
      go[0] = pc_valid_q && !pc_eop_q && sel_ok[0] && full0 && (fs_q == FIdle);
      go[1] = go[0] && sel_ok[1] && full1 && (bank[1] != bank[0]);
    end else begin
      go[0] = pc_valid_q && !pc_eop_q && sel_ok[0] && !s3_busy && (!evict[0] || room[bank[0]]);
      go[1] = go[0] && sel_ok[1] && (bank[1] != bank[0]) && (!evict[1] || room[bank[1]]);
    end
    fill_start = pc_valid_q && !pc_eop_q && pc_rmw_q && sel_ok[0] && !full0 && (fs_q == FIdle) &&
                 !s3_busy && (hit[0] || !evict[0] || room[bank[0]]);
    fill_req   = (fs_q == FDrain) && (ev_valid_q == '0) && (wb_empty == 2'b11);
    rem_after = rem;
    for (int s = 0; s < 2; s++) begin
      if (go[s]) rem_after[sel_idx[s]] = 1'b0;
    end
    pc_done = go[0] && (rem_after == '0);

    // Flush walk: lowest dirty entry of each bank.
    fd   = '0;
    fidx = '0;
    for (int b = 0; b < 2; b++) begin
      for (int e = EntriesPerBank - 1; e >= 0; e--) begin
        if (dm_q[b][e] != '0) begin
          fd[b]   = 1'b1;
          fidx[b] = EW'(e);
        end
      end
    end
    any_dirty = |fd;
    flushing  = pc_valid_q ? pc_eop_q : flush_i;
    fgo       = flushing && any_dirty && !s3_busy && (!fd[0] || room[0]) && (!fd[1] || room[1]);
    all_clean = !any_dirty && !s3_busy && (fs_q == FIdle) && (ev_valid_q == '0) && (wb_empty == 2'b11) &&
                (outst_q == '0);
    tok_done  = pc_valid_q && pc_eop_q && all_clean && eop_done_ready_i;

    eop_done_valid_o = pc_valid_q && pc_eop_q && all_clean;
    in_ready_o       = !pc_valid_q || pc_done;
    clean_o          = all_clean;
    idle_o           = !pc_valid_q && all_clean;
    seq_j            = seq_q + SeqW'(evict[0] && go[0]);
  end

  // from flip-flops only (pineda_top's flush request depends on it)
  assign quiet_o = !pc_valid_q && (s3_valid_q == '0);

  // State update
  always_comb begin
    pc_valid_d = pc_valid_q;
    pc_eop_d   = pc_eop_q;
    pc_color_d = pc_color_q;
    pc_src_d   = pc_src_q;
    pc_rmw_d   = pc_rmw_q;
    pc_om_d    = pc_om_q;
    pc_line_d  = pc_line_q;
    pc_mask_d  = pc_mask_q;
    tag_d      = tag_q;
    dm_d       = dm_q;
    vm_d       = vm_q;
    ptr_d      = ptr_q;
    s3_valid_d = '0;
    s3_ent_d   = s3_ent_q;
    s3_mask_d  = s3_mask_q;
    s3_src_d   = s3_src_q;
    s3_om_d    = s3_om_q;
    wf_valid_d = s3_valid_q;
    wf_ent_d   = s3_ent_q;
    wf_mask_d  = s3_mask_q;
    wf_data_d  = s3_pix;
    fs_d       = fs_q;
    fb_d       = fb_q;
    fe_d       = fe_q;
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
    s_wdata    = {2{{16{pc_color_q}}}};

    // stage 3: the blended rmw pieces go back into the SRAM
    for (int b = 0; b < 2; b++) begin
      if (s3_valid_q[b]) begin
        s_we[b]    = 1'b1;
        s_waddr[b] = s3_ent_q[b];
        s_wmask[b] = s3_mask_q[b];
        s_wdata[b] = s3_pix[b];
      end
    end

    for (int s = 0; s < 2; s++) begin
      if (go[s] && pc_rmw_q) begin
        s_re[bank[s]]      = 1'b1;
        s_raddr[bank[s]]   = ent[s];
        s3_valid_d[bank[s]] = 1'b1;
        s3_ent_d[bank[s]]   = ent[s];
        s3_mask_d[bank[s]]  = sm[s];
        s3_src_d           = pc_src_q;
        s3_om_d            = pc_om_q;
        dm_d[bank[s]][ent[s]] = dm_q[bank[s]][ent[s]] | sm[s];
        pc_mask_d[sel_idx[s]] = '0;
      end else if (go[s]) begin
        s_we[bank[s]]    = 1'b1;
        s_waddr[bank[s]] = ent[s];
        s_wmask[bank[s]] = sm[s];
        tag_d[bank[s]][ent[s]] = sl[s];
        dm_d[bank[s]][ent[s]]  = (hit[s] ? dm_q[bank[s]][ent[s]] : 16'd0) | sm[s];
        vm_d[bank[s]][ent[s]]  = (hit[s] ? vm_q[bank[s]][ent[s]] : 16'd0) | sm[s];
        pc_mask_d[sel_idx[s]]  = '0;
        if (!hit[s]) ptr_d[bank[s]] = ptr_q[bank[s]] + EW'(1);
        if (evict[s]) begin
          s_re[bank[s]]       = 1'b1;
          s_raddr[bank[s]]    = ent[s];
          ev_valid_d[bank[s]] = 1'b1;
          ev_line_d[bank[s]]  = tag_q[bank[s]][ent[s]];
          ev_mask_d[bank[s]]  = dm_q[bank[s]][ent[s]];
          ev_seq_d[bank[s]]   = (s == 0) ? seq_q : seq_j;
        end
      end
    end
    seq_d = seq_q + SeqW'(go[0] && !pc_rmw_q && evict[0]) + SeqW'(go[1] && !pc_rmw_q && evict[1]);

    // the blocking fill of piece 0's line
    if (fill_start) begin
      fs_d = FDrain;
      fb_d = bank[0];
      fe_d = ent[0];
      if (!hit[0]) begin
        tag_d[bank[0]][ent[0]] = sl[0];
        dm_d[bank[0]][ent[0]]  = '0;
        vm_d[bank[0]][ent[0]]  = '0;
        ptr_d[bank[0]] = ptr_q[bank[0]] + EW'(1);
        if (evict[0]) begin
          s_re[bank[0]]       = 1'b1;
          s_raddr[bank[0]]    = ent[0];
          ev_valid_d[bank[0]] = 1'b1;
          ev_line_d[bank[0]]  = tag_q[bank[0]][ent[0]];
          ev_mask_d[bank[0]]  = dm_q[bank[0]][ent[0]];
          ev_seq_d[bank[0]]   = seq_q;
          seq_d               = seq_q + SeqW'(1);
        end
      end
    end
    if (fill_req && mem_req_ready_i) fs_d = FWait;
    if (fill_rsp) begin
      s_we[fb_q]    = 1'b1;
      s_waddr[fb_q] = fe_q;
      s_wmask[fb_q] = ~vm_q[fb_q][fe_q];
      s_wdata[fb_q] = mem_rsp_i.rdata;
      vm_d[fb_q][fe_q] = 16'hFFFF;
      fs_d = FIdle;
    end

    if (fgo) begin
      for (int b = 0; b < 2; b++) begin
        if (fd[b]) begin
          s_re[b]       = 1'b1;
          s_raddr[b]    = fidx[b];
          ev_valid_d[b] = 1'b1;
          ev_line_d[b]  = tag_q[b][fidx[b]];
          ev_mask_d[b]  = dm_q[b][fidx[b]];
          ev_seq_d[b]   = (b == 0) ? seq_q : seq_q + SeqW'(fd[0]);
          dm_d[b][fidx[b]] = '0;
        end
      end
      seq_d = seq_q + SeqW'(fd[0]) + SeqW'(fd[1]);
    end
    // a flush with nothing dirty left drops the clean lines too
    if (flushing && !any_dirty && !s3_busy) vm_d = '0;

    if (pc_done || tok_done) pc_valid_d = 1'b0;
    if (in_valid_i && in_ready_o) begin
      pc_valid_d = in_i.eop || (nm != '0);
      pc_eop_d   = in_i.eop;
      pc_color_d = enc_color;
      pc_src_d   = in_i.color;
      pc_rmw_d   = in_i.om.blend || (in_i.om.mask_off != '0);
      pc_om_d    = in_i.om;
      pc_line_d  = nl;
      pc_mask_d  = in_i.eop ? '0 : nm;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Data SRAMs, write-back FIFOs, line port
  // ---------------------------------------------------------------------------------------------
  logic [1:0] hv;
  logic       osel, req_fire, rsp_fire;
  logic [1:0][SeqW-1:0]  h_seq;
  logic [1:0][LineW-1:0] h_line;
  logic [1:0][15:0]      h_mask;
  logic [1:0][511:0]     h_data;
  logic [1:0][511:0]     ev_data;

  for (genvar b = 0; b < 2; b++) begin : g_bank
    // ReadFirst: an eviction reads the old line in the cycle the new piece overwrites it.
    sram_1r1w #(.Width(512), .Depth(EntriesPerBank), .MaskW(16), .ReadFirst(1'b1)) u_data (
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
      for (int k = 0; k < 16; k++) ev_data[b][32*k +: 32] = ev_mask_q[b][k] ? s_rdata[b][32*k +: 32] : 32'd0;
      wb_in_valid[b] = ev_valid_q[b];
      wb_in_data[b]  = {ev_seq_q[b], ev_line_q[b], ev_mask_q[b], ev_data[b]};
      {h_seq[b], h_line[b], h_mask[b], h_data[b]} = wb_out_data[b];
      hv[b] = wb_out_valid[b] && (h_seq[b] == nseq_q);
    end

    // stage 3: the line as read, with last clock's stage-3 write forwarded, blended
    always_comb begin
      for (int k = 0; k < 16; k++) begin
        s3_line[b][32*k +: 32] = (wf_valid_q[b] && wf_ent_q[b] == s3_ent_q[b] && wf_mask_q[b][k])
                                 ? wf_data_q[b][32*k +: 32] : s_rdata[b][32*k +: 32];
      end
    end
    om_blend #(.Lanes(16)) u_blend (
      .state_i (s3_om_q),
      .src_i   ({16{s3_src_q}}),
      .dst_i   (s3_line[b]),
      .pix_o   (s3_pix[b])
    );

    sram_fifo #(.Depth(WbDepth), .Width(WbW)) u_wb (
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
  end

  always_comb begin
    osel = hv[1];
    mem_req_valid_o = (|hv) || fill_req;
    mem_req_o       = '0;
    if (fill_req) begin  // nothing queued: the line read of a fill
      mem_req_o.addr = {tag_q[fb_q][fe_q], 6'd0};
    end else begin
      mem_req_o.we    = 1'b1;
      mem_req_o.addr  = {h_line[osel], 6'd0};
      mem_req_o.wdata = h_data[osel];
      for (int k = 0; k < 16; k++) mem_req_o.be[4*k +: 4] = {4{h_mask[osel][k]}};
    end
  end

  always_comb begin
    req_fire        = mem_req_valid_o && mem_req_ready_i;
    wb_out_ready    = '0;
    wb_out_ready[osel] = req_fire && !fill_req;
    nseq_d          = nseq_q + SeqW'(req_fire && !fill_req);  // write-backs only
    mem_rsp_ready_o = 1'b1;
    rsp_fire        = mem_rsp_valid_i;
    fill_rsp        = mem_rsp_valid_i && !mem_rsp_i.we && (fs_q == FWait);
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
      pc_color_q <= '0;
      pc_src_q   <= '0;
      pc_rmw_q   <= 1'b0;
      pc_om_q    <= '0;
      pc_line_q  <= '0;
      pc_mask_q  <= '0;
      tag_q      <= '0;
      dm_q       <= '0;
      vm_q       <= '0;
      ptr_q      <= '0;
      s3_valid_q <= '0;
      s3_ent_q   <= '0;
      s3_mask_q  <= '0;
      s3_src_q   <= '0;
      s3_om_q    <= '0;
      wf_valid_q <= '0;
      wf_ent_q   <= '0;
      wf_mask_q  <= '0;
      wf_data_q  <= '0;
      fs_q       <= FIdle;
      fb_q       <= 1'b0;
      fe_q       <= '0;
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
      pc_color_q <= pc_color_d;
      pc_src_q   <= pc_src_d;
      pc_rmw_q   <= pc_rmw_d;
      pc_om_q    <= pc_om_d;
      pc_line_q  <= pc_line_d;
      pc_mask_q  <= pc_mask_d;
      tag_q      <= tag_d;
      dm_q       <= dm_d;
      vm_q       <= vm_d;
      ptr_q      <= ptr_d;
      s3_valid_q <= s3_valid_d;
      s3_ent_q   <= s3_ent_d;
      s3_mask_q  <= s3_mask_d;
      s3_src_q   <= s3_src_d;
      s3_om_q    <= s3_om_d;
      wf_valid_q <= wf_valid_d;
      wf_ent_q   <= wf_ent_d;
      wf_mask_q  <= wf_mask_d;
      wf_data_q  <= wf_data_d;
      fs_q       <= fs_d;
      fb_q       <= fb_d;
      fe_q       <= fe_d;
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
  assign unused_sig = ^{mem_rsp_i.src, mem_rsp_i.tag, in_i.tri_id, wb_full, wb_in_ready, in_i.mask[15:8], in_i.z, in_i.front, in_i.ds,
                        in_i.it};  // it: INTERP's planes (docs/interp.md)

`ifndef SYNTHESIS
  initial begin
    assert (EntriesPerBank >= 2 && (EntriesPerBank & (EntriesPerBank - 1)) == 0)
      else $fatal(1, "pixel_writer: EntriesPerBank must be a power of two >= 2");
    assert (2 * (WbDepth + 3) < (1 << SeqW))
      else $fatal(1, "pixel_writer: WbDepth too large for the sequence numbers");
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_fire && !req_fire && outst_q == '0))
        else $error("%m: write acknowledgement with no write outstanding");
      assert ((wb_in_valid & ~wb_in_ready) == '0) else $error("%m: write-back FIFO overflow");
      assert (!(go[0] && fgo)) else $error("%m: flush step while pieces are applied");
      assert (!(mem_rsp_valid_i && !mem_rsp_i.we && fs_q != FWait)) else $error("%m: read response with no fill waiting");
      assert (!(go[0] && fill_start)) else $error("%m: fill started while pieces are applied");
    end
  end
`endif

endmodule
