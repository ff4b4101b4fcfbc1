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
  logic [31:0]           pc_color_q, pc_color_d;
  logic [3:0][LineW-1:0] pc_line_q,  pc_line_d;
  logic [3:0][15:0]      pc_mask_q,  pc_mask_d;   // 0: piece done (or none)

  logic [1:0][EntriesPerBank-1:0][LineW-1:0] tag_q, tag_d;
  logic [1:0][EntriesPerBank-1:0][15:0]      dm_q,  dm_d;    // dirty dwords; 0 = empty
  logic [1:0][EW-1:0]                        ptr_q, ptr_d;

  logic [1:0]            ev_valid_q, ev_valid_d;  // an evicted line is being read from the SRAM
  logic [1:0][LineW-1:0] ev_line_q,  ev_line_d;
  logic [1:0][15:0]      ev_mask_q,  ev_mask_d;
  logic [1:0][SeqW-1:0]  ev_seq_q,   ev_seq_d;
  logic [SeqW-1:0]       seq_q, seq_d;            // next sequence number to hand out
  logic [SeqW-1:0]       nseq_q, nseq_d;          // next sequence number to send
  logic [OutstandingW-1:0] outst_q, outst_d;

  // SRAM and write-back FIFO signals (per bank)
  logic [1:0]            s_we, s_re;
  logic [1:0][EW-1:0]    s_waddr, s_raddr;
  logic [1:0][15:0]      s_wmask;
  logic [511:0]          s_wdata;
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
          if (dm_q[b][e] != '0 && tag_q[b][e] == sl[s]) begin
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

    go[0] = pc_valid_q && !pc_eop_q && sel_ok[0] && (!evict[0] || room[bank[0]]);
    go[1] = go[0] && sel_ok[1] && (bank[1] != bank[0]) && (!evict[1] || room[bank[1]]);
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
    fgo       = flushing && any_dirty && (!fd[0] || room[0]) && (!fd[1] || room[1]);
    all_clean = !any_dirty && (ev_valid_q == '0) && (wb_empty == 2'b11) && (outst_q == '0);
    tok_done  = pc_valid_q && pc_eop_q && all_clean && eop_done_ready_i;

    eop_done_valid_o = pc_valid_q && pc_eop_q && all_clean;
    in_ready_o       = !pc_valid_q || pc_done;
    quiet_o          = !pc_valid_q;
    clean_o          = all_clean;
    idle_o           = !pc_valid_q && all_clean;
    seq_j            = seq_q + SeqW'(evict[0] && go[0]);
  end

  // State update
  always_comb begin
    pc_valid_d = pc_valid_q;
    pc_eop_d   = pc_eop_q;
    pc_color_d = pc_color_q;
    pc_line_d  = pc_line_q;
    pc_mask_d  = pc_mask_q;
    tag_d      = tag_q;
    dm_d       = dm_q;
    ptr_d      = ptr_q;
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
    s_wdata    = {16{pc_color_q}};

    for (int s = 0; s < 2; s++) begin
      if (go[s]) begin
        s_we[bank[s]]    = 1'b1;
        s_waddr[bank[s]] = ent[s];
        s_wmask[bank[s]] = sm[s];
        tag_d[bank[s]][ent[s]] = sl[s];
        dm_d[bank[s]][ent[s]]  = (hit[s] ? dm_q[bank[s]][ent[s]] : 16'd0) | sm[s];
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
    seq_d = seq_q + SeqW'(go[0] && evict[0]) + SeqW'(go[1] && evict[1]);

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

    if (pc_done || tok_done) pc_valid_d = 1'b0;
    if (in_valid_i && in_ready_o) begin
      pc_valid_d = in_i.eop || (nm != '0);
      pc_eop_d   = in_i.eop;
      pc_color_d = in_i.color;
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
    sram_1r1w #(.Width(512), .Depth(EntriesPerBank), .MaskW(16)) u_data (
      .clk_i,
      .we_i    (s_we[b]),
      .waddr_i (s_waddr[b]),
      .wdata_i (s_wdata),
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
    mem_req_valid_o = |hv;
    mem_req_o       = '0;
    mem_req_o.we    = 1'b1;
    mem_req_o.addr  = {h_line[osel], 6'd0};
    mem_req_o.wdata = h_data[osel];
    for (int k = 0; k < 16; k++) mem_req_o.be[4*k +: 4] = {4{h_mask[osel][k]}};
  end

  always_comb begin
    req_fire        = mem_req_valid_o && mem_req_ready_i;
    wb_out_ready    = '0;
    wb_out_ready[osel] = req_fire;
    nseq_d          = nseq_q + SeqW'(req_fire);
    mem_rsp_ready_o = 1'b1;
    rsp_fire        = mem_rsp_valid_i;
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
      pc_line_q  <= '0;
      pc_mask_q  <= '0;
      tag_q      <= '0;
      dm_q       <= '0;
      ptr_q      <= '0;
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
      pc_line_q  <= pc_line_d;
      pc_mask_q  <= pc_mask_d;
      tag_q      <= tag_d;
      dm_q       <= dm_d;
      ptr_q      <= ptr_d;
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
  assign unused_sig = ^{mem_rsp_i, in_i.tri_id, wb_full, wb_in_ready, in_i.mask[15:8], in_i.z, in_i.front, in_i.ds, in_i.om};

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
      assert (!(mem_rsp_valid_i && !mem_rsp_i.we)) else $error("%m: read response on a write-only port");
    end
  end
`endif

endmodule
