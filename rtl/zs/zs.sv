// SPDX-License-Identifier: Apache-2.0
// zs: the depth/stencil unit (docs/depth.md §4; the model is cpp_model/zs/zs, bit-exact on the
// output quads and on memory once flushed). quad_pkt_t in -> quad_pkt_t out: the mask keeps the
// samples that pass stencil and depth, z is zeroed where the mask is 0, an empty quad is dropped,
// end-of-pipe tokens pass in order once every depth write before them is acknowledged.
//
// Depth tile cache: a read-allocate, write-back cache of 64-byte D24S8 lines on its own line port
// (MEM_LC_ZS). The depth buffer is taken in whole lines (ds.base[5:0], ds.pitch[5:0] ignored), so
// each pixel row of a quad lies in one line: a quad is at most two "pieces" (row 0, row 1).
// 2 banks x EntriesPerBank lines, fully associative across both banks (a line is in one entry);
// tags, data-valid, dirty bits and reference counts in flip-flops, data in one sram_1r1w per bank.
//
//   in -> T (tag stage) -> quad FIFO (SRAM, QDepth) -> A (SRAM read) -> B (test, write) -> out FIFO
//
// T: per piece in order, a hit takes the entry; a miss takes the entry at the round-robin
//   pointer of bank r (its pixel row) when no queued quad references it (else the pointer moves
//   on), first queueing its write-back when dirty, then its fill read (one request per clock into
//   the request queue). The entry is referenced (count + 1) until B has processed the piece.
//   A quad whose pieces both hit leaves T in one clock. The tag compare is done as the quad enters
//   T (against the port register's lines) and registered (th_q, ts_q); while the quad waits, each
//   line T allocates and a completed flush correct it, so T decides without a 128-way compare.
// Quads wait in the quad FIFO while their lines arrive: with QDepth quads in flight, the fill
//   reads of 200-cycle memory overlap.
// A: the head quad's pieces whose line data is valid read their bank (two per clock when the
//   banks differ; same bank: one after the other, row 0 first).
// B: the 8 (4x) or 2 (1x) samples of each piece are tested (zs_sample) and the line written back
//   when it changed; the last written line of each bank is forwarded to the next piece on it
//   (the SRAM read of the next clock does not see the write yet). Same-pixel order holds because
//   every piece is processed in quad order.
// Request queue head: a fill is sent as a line read (tag = bank, entry); a write-back reads its
//   entry (A waits that clock), then sends the whole line (be all ones). Requests leave in queue
//   order, so a write-back reaches memory before any later fill of the same line.
// Fills: read responses wait in a small FIFO and are written when B does not write that bank.
// Flush: an end-of-pipe token waits in T until every earlier quad is done; then every dirty line is
//   queued for write-back (one per clock: the entry picked a clock ahead, pk_q, if still dirty) and the token leaves once all are acknowledged. flush_i (COPY, CLEAR,
//   host flush) does the same with no packet held. A completed flush invalidates every line, so
//   memory written behind ZS afterwards (DMA clear fill, COPY, host) is read again. quiet_o: no packet held; clean_o: no dirty line, no
//   request queued or unanswered.
//
// Two ports (LatePort = 1; docs/comb.md section 5, docs/depth.md section 4 "Late Z"): the early
// port (in_* -> out_*: the rasterizers' quads, towards INTERP) and the late port (late_in_* ->
// late_out_*: the pixel path's interp_pkt_t back from COMB, towards PW). Every quad passes both.
//   early port: an early-Z quad (depth or stencil on, ds.late_z = 0) is tested; a late-Z quad and
//     an end-of-pipe token pass untouched and count as late in flight (late_cnt_q + 1); a quad
//     with depth and stencil off passes untouched.
//   late port: a late-Z quad (its mask already without the alpha-killed pixels) is tested; one
//     left with no coverage is dropped at once; a token flushes (the rule above); both count
//     down (when they leave T). Everything else (early-Z quads already tested, depth off) passes.
//   Order: an early-Z quad enters T only while no late quad or token is in flight (an earlier
//     late quad on its pixels must test and write first); the late port never waits on the early
//     one. Tested quads of both ports share one test pipeline (T, quad FIFO, A, B, the cache):
//     with that rule they never overlap in time (a late quad reaches the late port only after
//     every earlier early quad left the early port; an early quad waits for every earlier late
//     one), so a second zs_sample bank would never run in parallel with the first. Per port, a
//     payload FIFO (zs_pay_fifo, block RAM) holds every packet in arrival order with a flag
//     (1 = tested: its mask comes from the pipeline's result FIFO, 0 = passed untouched); the test
//     pipeline carries only the fields it tests and returns the mask of the samples kept; a tested
//     quad left empty is dropped at the output. The late output has quad.it = 0.
// LatePort = 0: one test point at the early port, today's pineda_top (every quad with depth or
//   stencil on is tested there, tokens flush there, the late port is unused).
module zs #(
  parameter int unsigned LatePort       = 1,     // 1: the late port (see above); 0: one test point
  parameter int unsigned EntriesPerBank = 64,   // power of two, <= 128
  parameter int unsigned QDepth         = 256,  // quads waiting for their lines
  parameter int unsigned OutstandingW   = 10,
  parameter int unsigned FillDepth      = 64,   // line reads in flight or waiting to fill
  parameter int unsigned ClrRows        = 256   // fast-clear bitmap rows (power of two), 64 lines each
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  pineda_pkg::quad_pkt_t       in_i,
  output logic                        out_valid_o,
  input  logic                        out_ready_i,
  output pineda_pkg::quad_pkt_t       out_o,
  input  logic                        late_in_valid_i,   // late port (LatePort = 1): from COMB
  output logic                        late_in_ready_o,
  input  pineda_pkg::interp_pkt_t     late_in_i,
  output logic                        late_out_valid_o,  // towards PW
  input  logic                        late_out_ready_i,
  output pineda_pkg::interp_pkt_t     late_out_o,
  // The pixel path between the ports holds no packet (nothing between out_* and late_in_*, on
  // the wires included). It resynchronises the late-in-flight count: a unit there may drop a
  // late-Z quad its alpha kill emptied (that quad never reaches the late port to count down).
  input  logic                        path_idle_i,
  input  logic                        flush_i,
  input  logic                        clear_valid_i,   // depth/stencil fast clear (CP, CLEAR)
  output logic                        clear_ready_o,
  input  pineda_pkg::clear_pkt_t      clear_i,
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output pineda_pkg::mem_line_req_t   mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t   mem_rsp_i,
  output logic                        quiet_o,
  output logic                        clean_o,
  output logic                        idle_o,
  // Span: line addresses [span_lo_o, span_hi_o] cover every line ZS may hold, read, write back or
  // owe as fast-cleared since its last completed flush (span_valid_o = 0: none). pineda_top
  // flushes ZS for a COPY or DMA fill only when the job's bytes meet the span.
  output logic                        span_valid_o,
  output logic [25:0]                 span_lo_o,
  output logic [25:0]                 span_hi_o
);

  localparam int unsigned E     = EntriesPerBank;
  localparam int unsigned EW    = $clog2(E);
  localparam int unsigned SW    = EW + 1;                   // slot: {bank, entry}
  localparam int unsigned LineW = 26;
  localparam int unsigned RW    = $clog2(QDepth + 8) + 1;   // reference counts
  localparam int unsigned QW    = pineda_pkg::QUAD_PKT_BITS;
  localparam int unsigned DSW   = 56;                         // ds_state_t without base, pitch
  localparam int unsigned TQW   = 16 + 16 * 24 + 3 + 1 + 1 + DSW;  // tq_pack: what B tests
  localparam int unsigned QFW   = 1 + TQW + 2 + 2 * SW;      // {port, test quad, need, slots}
  localparam int unsigned RQW   = 2 + SW + LineW;             // {we, cf, bank, entry, line}
  localparam int unsigned CR    = ClrRows;
  localparam int unsigned CRW   = $clog2(ClrRows);
  localparam int unsigned FFW   = SW + 512;
  localparam int unsigned OFD   = 4;
  localparam int unsigned OFW   = 1 + 16;                   // result FIFO: {port, samples kept}
  localparam int unsigned IPW   = pineda_pkg::INTERP_PKT_BITS;
  localparam int unsigned PFD   = QDepth;                   // payload FIFOs
  localparam int unsigned PLW   = $clog2(PFD) + 2;          // late packets in the early payload FIFO
  localparam int unsigned LCW   = 16;                       // late quads in flight

  // The fields of a quad the test pipeline uses (T: in_s, lin_s below; the quad FIFO and B:
  // t_tq's). Everything else stays in the ports' payload FIFOs; the zeroed fields' flip-flops
  // are constants.

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                     t_valid_q, t_valid_d;
  pineda_pkg::quad_pkt_t    t_q, t_d;
  logic [1:0]               t_res_q, t_res_d;
  logic [1:0][SW-1:0]       t_slot_q, t_slot_d;
  logic                     t_port_q, t_port_d;   // T holds a late-port packet
  // T's lookup, done as the quad enters T (against the port register's lines) and kept current
  // while it waits (the lines T allocates since, a completed flush): per piece, its line is in
  // entry ts_q (th_q). No 128-way compare on T's decision path.
  logic [1:0]               th_q, th_d;
  logic [1:0][SW-1:0]       ts_q, ts_d;
  logic                     pk_v_q, pk_v_d;       // the flush walk's pick (registered)
  logic [SW-1:0]            pk_q, pk_d;
  // Port input registers and the late-in-flight count
  logic                     e_valid_q, e_valid_d;
  pineda_pkg::quad_pkt_t    e_q, e_d;
  logic                     l_valid_q, l_valid_d;
  pineda_pkg::quad_pkt_t    l_q, l_d;             // the late packet's quad (tq_strip)
  logic [PLW-1:0]           epl_q, epl_d;         // late-Z quads and tokens in the early payload FIFO
  logic [LCW-1:0]           late_cnt_q, late_cnt_d;
  // The line addresses of a quad's two pixel rows (base + y * pitch + x), computed as the packet
  // enters its port register and carried into T: the product is not on T's lookup path.
  logic [1:0][LineW-1:0]    e_line_q, e_line_d, l_line_q, l_line_d, t_line_q, t_line_d;

  logic [1:0][E-1:0][LineW-1:0] tag_q, tag_d;
  logic [1:0][E-1:0]        tval_q, tval_d;       // entry holds a line
  logic [1:0][E-1:0]        dval_q, dval_d;       // its data has arrived
  logic [1:0][E-1:0]        dirty_q, dirty_d;
  logic [1:0][E-1:0][RW-1:0] ref_q, ref_d;
  logic [1:0][EW-1:0]       ptr_q, ptr_d;

  logic [1:0]               a_done_q, a_done_d;
  logic                     span_v_q, span_v_d;
  logic [LineW-1:0]         span_lo_q, span_lo_d, span_hi_q, span_hi_d;

  // Fast clear: a bitmap of cleared lines of one target (fc_*), ClrRows pixel rows x 64 lines, in
  // an sram_1r1w. The rows whose SRAM word is valid and may hold set bits are [rv_lo_q, rv_hi_q):
  // always one range (the clear engine sets rows in ascending order from an empty bitmap, since
  // a clear starts only once ZS is clean; the resolve takes the lowest row), so two counters
  // instead of a flip-flop per row, its priority encoder and its two row muxes.
  logic [1:0][E-1:0]        cval_q, cval_d;       // entry's data is the clear value (not in the SRAM)
  logic [CRW:0]             rv_lo_q, rv_lo_d, rv_hi_q, rv_hi_d;
  logic [25:0]              fc_base_q, fc_base_d; // target base, line address
  logic [9:0]               fc_pitch_q, fc_pitch_d;  // target pitch in lines
  logic                     fc_msaa_q, fc_msaa_d;
  logic [31:0]              fc_value_q, fc_value_d;
  logic                     lk_v_q, lk_v_d;       // bitmap row of T's missing piece read (bm_rdata)
  logic                     ce_busy_q, ce_busy_d; // clear engine
  logic [14:0]              ce_y_q, ce_y_d;
  logic [12:0]              ce_c_q, ce_c_d;
  logic                     rs_rd_q, rs_rd_d;     // resolve: bitmap row read issued
  logic                     rs_act_q, rs_act_d;   // resolve: rs_bits_q being written out
  logic [CRW-1:0]           rs_row_q, rs_row_d;
  logic [63:0]              rs_bits_q, rs_bits_d;
  logic                     bm_we, bm_re;
  logic [CRW-1:0]           bm_waddr, bm_raddr;
  logic [63:0]              bm_wdata, bm_wmask, bm_rdata;

  logic                     b_valid_q, b_valid_d;
  logic                     b_last_q, b_last_d;
  logic [1:0]               b_go_q, b_go_d;
  logic [1:0][SW-1:0]       b_slot_q, b_slot_d;
  logic                     b_port_q, b_port_d;
  pineda_pkg::quad_pkt_t    b_quad_q, b_quad_d;
  logic [15:0]              b_fail_q, b_fail_d;   // failed samples of pieces done in earlier clocks

  logic [1:0]               fwd_v_q, fwd_v_d;
  logic [1:0]               fwd_w_q, fwd_w_d;     // the forwarded piece was written (its clear value is gone)
  logic [1:0]               b_cv_q, b_cv_d;       // per piece: its entry was clear-valued when A read it
  logic [1:0][EW-1:0]       fwd_idx_q, fwd_idx_d;
  logic [1:0][511:0]        fwd_data_q, fwd_data_d;

  logic                     wbr_q, wbr_d;         // a write-back read was issued last clock
  logic                     wbr_bank_q, wbr_bank_d;
  logic [LineW-1:0]         wbr_line_q, wbr_line_d;
  logic                     wb_valid_q, wb_valid_d;
  logic [LineW-1:0]         wb_line_q, wb_line_d;
  logic [511:0]             wb_data_q, wb_data_d;
  logic [63:0]              wb_be_q, wb_be_d;
  logic                     wbr_cf_q, wbr_cf_d;   // the write-back read is of a clear-valued entry
  logic [OutstandingW-1:0]  outst_q, outst_d;
  localparam int unsigned   RCW = $clog2(FillDepth) + 1;
  logic [RCW-1:0]           rcred_q, rcred_d;

  // FIFOs and SRAMs
  logic                     qf_in_valid, qf_in_ready, qf_out_valid, qf_out_ready, qf_empty;
  logic [QFW-1:0]           qf_in_data, qf_out_data;
  logic                     rq_in_valid, rq_in_ready, rq_out_valid, rq_out_ready, rq_empty;
  logic [RQW-1:0]           rq_in_data, rq_out_data;
  logic                     ff_in_valid, ff_in_ready, ff_out_valid, ff_out_ready;
  logic [FFW-1:0]           ff_in_data, ff_out_data;
  logic                     of_in_valid, of_in_ready, of_empty, of_out_valid, of_out_ready;
  logic [OFW-1:0]           of_in_data, of_out_data;
  logic [$clog2(OFD):0]     of_count;

  // Per port: the payload FIFO, every packet in arrival order with a flag: 1 = its mask comes from
  // the test pipeline's result FIFO (a tested quad or a flushing token), 0 = it passes untouched.
  logic                     epf_in_valid, epf_in_ready, epf_out_valid, epf_out_ready, epf_empty;
  logic [QW:0]              epf_in_data, epf_out_data;
  logic                     lpf_in_valid, lpf_in_ready, lpf_out_valid, lpf_out_ready, lpf_empty;
  logic [IPW:0]             lpf_in_data, lpf_out_data;

  logic [1:0]               s_we, s_re;
  logic [1:0][EW-1:0]       s_waddr, s_raddr;
  logic [1:0][15:0]         s_wmask;
  logic [1:0][511:0]        s_wdata, s_rdata;

  // ---------------------------------------------------------------------------------------------
  // T: tag stage
  // ---------------------------------------------------------------------------------------------
  logic             t_act;
  logic [1:0]       t_need, pend, hit, res_now;
  logic [1:0][LineW-1:0] t_line;
  logic [1:0][SW-1:0]    hslot;
  logic [1:0][13:0] t_y;
  logic             cur;             // the piece handled by the miss path
  logic             miss_go;
  logic [EW-1:0]    vic;
  logic             vic_busy, vic_dirty;
  logic             t_push_q, t_tok_out, t_done;
  logic [RQW-1:0]   t_rq;
  logic             t_rq_valid;
  // flush walk
  logic             walk_en, walk_any;
  logic             walk_bank;
  logic [EW-1:0]    walk_idx;
  logic             down_empty, all_clean, any_dirty;
  logic             wbr_issue;
  logic             fc_any, t_match, t_hold, lk_wait, lk_bit, miss_pend, alloc;
  logic [6:0]       fc_lim;
  logic [1:0][11:0] t_xl;
  logic [1:0]       t_amb, t_lk;
  logic [511:0]     fc_line;
  logic             ce_start;

  logic [TQW-1:0]   t_tq;            // what B needs of T's quad
  logic [1:0]       vb_busy, vb_dirty, vb_cval;   // per bank: the entry at its pointer
  logic [1:0][LineW-1:0] vb_tag;
  logic [1:0][E-1:0] dt;             // dirty entries (valid and dirty)
  logic [1:0][E-1:0] refnz;          // referenced entries

  always_comb begin
    dt    = tval_q & dirty_q;
    t_tq  = {t_q.mask, t_q.z, t_q.qx[2:0], t_q.target.msaa, t_q.front,
             t_q.ds.z_enable, t_q.ds.z_func, t_q.ds.z_write, t_q.ds.late_z, t_q.ds.hiz, t_q.ds.s_enable,
             t_q.ds.s_ref, t_q.ds.s_read_mask, t_q.ds.s_write_mask, t_q.ds.s_front, t_q.ds.s_back};
    t_act = !t_q.eop && (t_q.ds.z_enable || t_q.ds.s_enable);
    for (int r = 0; r < 2; r++) begin
      t_y[r]    = {t_q.qy, r[0]};
      t_line[r] = t_line_q[r];
      t_need[r] = t_valid_q && t_act &&
                  (t_q.target.msaa ? (t_q.mask[8*r +: 8] != '0) : (t_q.mask[2*r +: 2] != '0));
      t_xl[r]   = t_q.target.msaa ? t_q.qx[12:1] : 12'(t_q.qx[12:3]);
    end
    // Fast-cleared lines: a quad of another target (or beyond the pitch) waits until they are
    // written out (a flush); a piece in the bitmap's range looks its bit up on a miss.
    fc_any  = rv_lo_q != rv_hi_q;
    fc_lim  = (fc_pitch_q >= 10'd64) ? 7'd64 : 7'(fc_pitch_q);
    fc_line = {16{fc_value_q}};
    t_match = t_q.ds.base[31:6] == fc_base_q && t_q.ds.pitch[15:6] == fc_pitch_q && t_q.target.msaa == fc_msaa_q;
    for (int r = 0; r < 2; r++) begin
      t_amb[r] = t_need[r] && (32'(t_xl[r]) >= 32'(fc_pitch_q));
      t_lk[r]  = fc_any && t_match && (32'(t_y[r]) < CR) && (32'(t_xl[r]) < 32'(fc_lim)) &&
                 (32'(t_y[r]) >= 32'(rv_lo_q)) && (32'(t_y[r]) < 32'(rv_hi_q));
    end
    // (and every quad waits while a resolve is writing lines out: its reads would overtake them)
    t_hold = t_valid_q && t_act && (t_need != '0) &&
             ((fc_any && (!t_match || t_amb != '0)) || rs_rd_q || rs_act_q);
    // The lookup was done as the quad entered T and is kept current since (th_q, ts_q).
    for (int r = 0; r < 2; r++) begin
      pend[r]   = t_need[r] && !t_res_q[r] && !t_hold;
      hit[r]    = th_q[r];
      hslot[r]  = ts_q[r];
    end
    cur       = !pend[0];
    vic       = ptr_q[cur];
    // (per bank first, the piece's bank last: cur is later than the pointers)
    for (int b = 0; b < 2; b++) begin
      for (int e = 0; e < E; e++) refnz[b][e] = ref_q[b][e] != '0;
      vb_busy[b]  = refnz[b][ptr_q[b]];
      vb_dirty[b] = tval_q[b][ptr_q[b]] && dirty_q[b][ptr_q[b]];
      vb_cval[b]  = cval_q[b][ptr_q[b]];
      vb_tag[b]   = tag_q[b][ptr_q[b]];
    end
    vic_busy  = vb_busy[cur];
    vic_dirty = vb_dirty[cur];

    // Hits resolve at once (piece 1 only after piece 0); a miss takes the request queue.
    res_now = '0;
    if (pend[0] && hit[0]) res_now[0] = 1'b1;
    if (pend[1] && hit[1] && (!pend[0] || hit[0])) res_now[1] = 1'b1;
    miss_pend  = (pend[0] && !hit[0]) || (!pend[0] && pend[1] && !hit[1]);
    // A miss in the bitmap's range reads its bitmap row first (one clock); a set bit makes the
    // fill a clear fill (no memory read) and clears the bit.
    lk_wait    = miss_pend && t_lk[cur] && !lk_v_q;
    lk_bit     = t_lk[cur] && lk_v_q && bm_rdata[t_xl[cur][5:0]];
    miss_go    = 1'b0;
    t_rq_valid = 1'b0;
    t_rq       = '0;
    if (miss_pend && !lk_wait) begin
      if (!vic_busy) begin
        t_rq_valid = 1'b1;
        if (vic_dirty) t_rq = {1'b1, vb_cval[cur], cur, vic, vb_tag[cur]};
        else           t_rq = {1'b0, lk_bit, cur, vic, t_line[cur]};
        miss_go = !vic_dirty && rq_in_ready;
      end
    end
    if (miss_go) res_now[cur] = 1'b1;
    alloc = miss_go;   // the victim takes the missing line

    down_empty = qf_empty && !b_valid_q;
    t_push_q   = t_valid_q && !t_q.eop && ((~t_need | t_res_q | res_now) == 2'b11) && qf_in_ready;

    // Flush walk: the dirty entry picked last clock (pk_q), if it is still dirty.
    walk_bank = pk_q[EW];
    walk_idx  = pk_q[EW-1:0];
    walk_any  = pk_v_q && dt[walk_bank][walk_idx];
    any_dirty = dt != '0;
    walk_en   = (t_valid_q ? (t_q.eop || t_hold) : (flush_i || clear_valid_i)) && down_empty && !ce_busy_q;
    all_clean = !any_dirty && rq_empty && !wbr_q && !wb_valid_q && (outst_q == '0) && !fc_any &&
                !rs_rd_q && !rs_act_q && !ce_busy_q;
    ce_start  = clear_valid_i && !t_valid_q && down_empty && all_clean;
    t_tok_out = t_valid_q && t_q.eop && down_empty && all_clean && of_in_ready && (32'(of_count) < OFD);
    t_done    = t_push_q || t_tok_out;

    rq_in_valid = t_rq_valid || (walk_en && walk_any);
    rq_in_data  = t_rq_valid ? t_rq : {1'b1, cval_q[walk_bank][walk_idx], walk_bank, walk_idx,
                                       tag_q[walk_bank][walk_idx]};
  end

  // The flush walk's pick for the next clock: the lowest dirty entry (bank 0 first) other than
  // this clock's pick (it may be written back now; if not, it is picked again a clock later).
  // Registered: the 128-way pick is not on the request queue's path. Two levels of 16-way picks.
  localparam int unsigned PkG = (2 * E + 15) / 16;   // groups of 16 entries
  logic [PkG*16-1:0]       pk_cand;
  logic [PkG-1:0]          pk_gv;
  logic [PkG-1:0][3:0]     pk_gi;
  logic [$clog2(PkG+1)-1:0] pk_g;
  always_comb begin
    pk_cand = '0;
    for (int b = 0; b < 2; b++) begin
      for (int e = 0; e < E; e++) begin
        pk_cand[b * E + e] = dt[b][e] && !(pk_v_q && pk_q == SW'(b * E + e));
      end
    end
    for (int g = 0; g < PkG; g++) begin
      pk_gv[g] = pk_cand[16*g +: 16] != '0;
      pk_gi[g] = '0;
      for (int i = 15; i >= 0; i--) if (pk_cand[16*g + i]) pk_gi[g] = 4'(i);
    end
    pk_g = '0;
    for (int g = PkG - 1; g >= 0; g--) if (pk_gv[g]) pk_g = ($clog2(PkG+1))'(g);
    pk_v_d = pk_gv != '0;
    pk_d   = SW'({pk_g, pk_gi[pk_g]});
  end

  always_comb begin


    qf_in_valid = t_push_q;
    qf_in_data  = {t_port_q, t_tq, t_need, t_res_q[1] ? t_slot_q[1] : hslot[1], t_res_q[0] ? t_slot_q[0] : hslot[0]};
    // A miss-resolved piece takes the victim slot.
    if (miss_go && cur == 1'b0 && !t_res_q[0]) qf_in_data[SW-1:0]      = {1'b0, vic};
    if (miss_go && cur == 1'b1 && !t_res_q[1]) qf_in_data[2*SW-1:SW]   = {1'b1, vic};
  end

  // ---------------------------------------------------------------------------------------------
  // Ports: the input registers, T's input (the late port first), the late-in-flight count
  // ---------------------------------------------------------------------------------------------
  logic                  t_free, t_load, e_act, e_late, e_tst, e_take, e_go;
  logic                  l_act, l_drop, l_tst, l_take, l_go;
  logic [1:0]            late_dec;
  logic                  late_sync;
  pineda_pkg::quad_pkt_t t_in, in_s, lin_s;
  logic                  in_tst, in_late, lin_act, lin_drop, lin_tst, epl_pop;
  logic [1:0][LineW-1:0] in_line, lin_line;

  // The arriving quads stripped to the fields T uses.
  always_comb begin
    in_s             = '0;
    in_s.eop         = in_i.eop;
    in_s.qx          = in_i.qx;
    in_s.qy          = in_i.qy;
    in_s.mask        = in_i.mask;
    in_s.target.msaa = in_i.target.msaa;
    in_s.z           = in_i.z;
    in_s.front       = in_i.front;
    in_s.ds          = in_i.ds;
    lin_s             = '0;
    lin_s.eop         = late_in_i.quad.eop;
    lin_s.qx          = late_in_i.quad.qx;
    lin_s.qy          = late_in_i.quad.qy;
    lin_s.mask        = late_in_i.quad.mask;
    lin_s.target.msaa = late_in_i.quad.target.msaa;
    lin_s.z           = late_in_i.quad.z;
    lin_s.front       = late_in_i.quad.front;
    lin_s.ds          = late_in_i.quad.ds;
    // Row 0's line, and row 1's one pitch further.
    in_line[0]  = in_i.ds.base[31:6] + LineW'({in_i.qy, 1'b0}) * LineW'(in_i.ds.pitch[15:6]) +
                  (in_i.target.msaa ? LineW'(in_i.qx[12:1]) : LineW'(in_i.qx[12:3]));
    in_line[1]  = in_line[0] + LineW'(in_i.ds.pitch[15:6]);
    lin_line[0] = late_in_i.quad.ds.base[31:6] +
                  LineW'({late_in_i.quad.qy, 1'b0}) * LineW'(late_in_i.quad.ds.pitch[15:6]) +
                  (late_in_i.quad.target.msaa ? LineW'(late_in_i.quad.qx[12:1]) : LineW'(late_in_i.quad.qx[12:3]));
    lin_line[1] = lin_line[0] + LineW'(late_in_i.quad.ds.pitch[15:6]);
  end

  always_comb begin
    t_free = !t_valid_q || t_done;
    e_act  = e_valid_q && !e_q.eop && (e_q.ds.z_enable || e_q.ds.s_enable);
    e_late = (LatePort != 0) && e_valid_q && (e_q.eop || (e_act && e_q.ds.late_z));
    e_tst  = (LatePort != 0) ? (e_act && !e_q.ds.late_z) : (e_act || (e_valid_q && e_q.eop));
    l_act  = (LatePort != 0) && l_valid_q && !l_q.eop && (l_q.ds.z_enable || l_q.ds.s_enable) && l_q.ds.late_z;
    l_drop = l_act && (l_q.mask == '0);
    l_tst  = (LatePort != 0) && l_valid_q && ((l_act && !l_drop) || l_q.eop);
    l_take = l_tst && t_free;
    l_go   = l_take || l_drop || (l_valid_q && !l_tst && !l_drop);
    // An early-Z quad waits while late quads or tokens are in flight.
    e_take = e_tst && t_free && !l_tst && (late_cnt_q == '0);
    e_go   = e_take || (e_valid_q && !e_tst);
    t_load = l_take || e_take;
    t_in   = l_take ? l_q : e_q;

    // The same classification of the packets arriving (their payload FIFO flags).
    in_tst   = (LatePort != 0) ? (!in_i.eop && (in_i.ds.z_enable || in_i.ds.s_enable) && !in_i.ds.late_z)
                               : (in_i.eop || in_i.ds.z_enable || in_i.ds.s_enable);
    in_late  = (LatePort != 0) && (in_i.eop || ((in_i.ds.z_enable || in_i.ds.s_enable) && in_i.ds.late_z));
    lin_act  = !late_in_i.quad.eop && (late_in_i.quad.ds.z_enable || late_in_i.quad.ds.s_enable) &&
               late_in_i.quad.ds.late_z;
    lin_drop = lin_act && (late_in_i.quad.mask == '0);
    lin_tst  = (lin_act && !lin_drop) || late_in_i.quad.eop;

    in_ready_o      = (!e_valid_q || e_go) && !ce_busy_q && !clear_valid_i && epf_in_ready;
    late_in_ready_o = (LatePort != 0) && (!l_valid_q || l_go) && lpf_in_ready;
    e_valid_d = e_valid_q && !e_go;
    e_d       = e_q;
    e_line_d  = e_line_q;
    if (in_valid_i && in_ready_o) begin
      e_valid_d = 1'b1;
      e_d       = in_s;
      e_line_d  = in_line;
    end
    l_valid_d = l_valid_q && !l_go;
    l_d       = l_q;
    l_line_d  = l_line_q;
    if (late_in_valid_i && late_in_ready_o) begin
      l_valid_d = 1'b1;
      l_d       = lin_s;
      l_line_d  = lin_line;
    end

    epf_in_valid = in_valid_i && in_ready_o;
    epf_in_data  = {in_tst, in_i};
    lpf_in_valid = late_in_valid_i && late_in_ready_o && !lin_drop;
    lpf_in_data  = {lin_tst, late_in_i};

    late_dec   = {l_go && l_drop, t_done && t_port_q};
    late_cnt_d = late_cnt_q + LCW'(e_go && e_late) - LCW'(late_dec[0]) - LCW'(late_dec[1]);
    // Nothing late anywhere between the two ports (the path, the early payload FIFO, the late
    // input register, T): no late quad is in flight, whatever the count says (it is too high when
    // the path dropped late quads). A late quad passing the early port this clock still counts.
    late_sync = (LatePort != 0) && path_idle_i && (epl_q == '0) && !l_valid_q && !(t_valid_q && t_port_q);
    if (late_sync) late_cnt_d = LCW'(e_go && e_late);
  end

  // ---------------------------------------------------------------------------------------------
  // A: SRAM reads of the head quad's pieces
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::quad_pkt_t  a_quad;
  logic [TQW-1:0]         a_tq;
  logic                   a_port;
  logic [1:0]             a_need, a_rem, a_ok, a_go, a_cv;
  logic [1:0][SW-1:0]     a_slot;
  logic                   a_block, a_last, a_fire;

  always_comb begin
    {a_port, a_tq, a_need, a_slot[1], a_slot[0]} = qf_out_data;
    a_quad = '0;
    {a_quad.mask, a_quad.z, a_quad.qx[2:0], a_quad.target.msaa, a_quad.front,
     a_quad.ds.z_enable, a_quad.ds.z_func, a_quad.ds.z_write, a_quad.ds.late_z, a_quad.ds.hiz,
     a_quad.ds.s_enable, a_quad.ds.s_ref, a_quad.ds.s_read_mask, a_quad.ds.s_write_mask,
     a_quad.ds.s_front, a_quad.ds.s_back} = a_tq;
    for (int r = 0; r < 2; r++) begin
      a_rem[r] = a_need[r] && !a_done_q[r];
      a_ok[r]  = dval_q[a_slot[r][EW]][a_slot[r][EW-1:0]];
      a_cv[r]  = cval_q[a_slot[r][EW]][a_slot[r][EW-1:0]];
    end
    a_block = wbr_issue || ((32'(of_count) + 32'(b_valid_q)) >= OFD);
    a_go[0] = qf_out_valid && !a_block && a_rem[0] && a_ok[0];
    a_go[1] = qf_out_valid && !a_block && a_rem[1] && a_ok[1] &&
              (!a_rem[0] || (a_go[0] && a_slot[1][EW] != a_slot[0][EW]));
    a_last  = qf_out_valid && !a_block && (!a_rem[0] || a_go[0]) && (!a_rem[1] || a_go[1]);
    a_fire  = a_last || (a_go != '0);
    qf_out_ready = a_last;
    a_done_d = a_last ? 2'b00 : (a_done_q | a_go);
  end

  // ---------------------------------------------------------------------------------------------
  // B: test and update
  // ---------------------------------------------------------------------------------------------
  logic [1:0][511:0]  b_line, b_new;
  logic [1:0]         b_fm, b_cvn;
  logic [1:0][15:0]   b_cvd;           // per dword of a piece's line: a covered sample's
  logic [1:0][7:0]    b_schg;          // per sample: its dword changes
  logic [1:0]         b_chg;           // per piece: its line changes (B writes it)
  logic [1:0][7:0]    b_pass;
  logic [1:0][7:0]    b_cov;
  logic [1:0]         b_bank;
  logic [1:0][EW-1:0] b_idx;
  logic [3:0]         b_d0;
  logic [1:0][7:0][31:0] b_stored, b_word;
  logic [1:0][7:0][23:0] b_z;
  logic [7:0][3:0]    b_dw;            // dword of the line of sample k of a piece
  logic [15:0]        b_fail_now, b_fail_all;
  logic [1:0]         b_on;            // per bank: B has a piece on it this clock (may write it)

  always_comb begin
    b_d0 = b_quad_q.target.msaa ? {b_quad_q.qx[0], 3'd0} : {b_quad_q.qx[2:0], 1'b0};
    for (int k = 0; k < 8; k++) b_dw[k] = 4'(k) + b_d0;
    for (int r = 0; r < 2; r++) begin
      b_bank[r] = b_slot_q[r][EW];
      b_idx[r]  = b_slot_q[r][EW-1:0];
      // The forward first: it is the line as B left it last clock (also when it was clear-valued,
      // whose flag A read a clock ago and B may have cleared since); then the clear value.
      b_fm[r] = fwd_v_q[b_bank[r]] && fwd_idx_q[b_bank[r]] == b_idx[r];
      b_cvn[r] = b_cv_q[r] && !(b_fm[r] && fwd_w_q[b_bank[r]]);   // = cval_q of the entry
      if (b_fm[r])        b_line[r] = fwd_data_q[b_bank[r]];
      else if (b_cv_q[r]) b_line[r] = fc_line;
      else                b_line[r] = s_rdata[b_bank[r]];
      for (int k = 0; k < 8; k++) begin
        if (b_quad_q.target.msaa) begin
          b_cov[r][k] = b_go_q[r] && b_quad_q.mask[8*r + k];
          b_z[r][k]   = b_quad_q.z[8*r + k];
        end else begin
          b_cov[r][k] = b_go_q[r] && (k < 2) && b_quad_q.mask[2*r + (k % 2)];
          b_z[r][k]   = b_quad_q.z[2*r + (k % 2)];
        end
        b_stored[r][k] = b_line[r][32*b_dw[k] +: 32];
      end
    end
  end

  for (genvar r = 0; r < 2; r++) begin : g_row
    for (genvar k = 0; k < 8; k++) begin : g_smp
      zs_sample u_smp (
        .cov_i    (b_cov[r][k]),
        .stored_i (b_stored[r][k]),
        .z_i      (b_z[r][k]),
        .ds_i     (b_quad_q.ds),
        .front_i  (b_quad_q.front),
        .pass_o   (b_pass[r][k]),
        .word_o   (b_word[r][k]),
        .chg_o    (b_schg[r][k])
      );
    end
  end

  // The updated lines, one dword at a time (fixed-index writes: dword d of row r takes sample
  // k = d - b_d0 of that row when it is covered). A piece's line changes when one of its samples'
  // dwords does (the samples' dwords are distinct): that, from zs_sample's change beside its
  // word, and not a compare of the muxed dwords, decides B's write, its flags and the forward.
  // The write's mask is the covered dwords (an unchanged one is written with the value it holds).
  for (genvar r = 0; r < 2; r++) begin : g_chg
    assign b_chg[r] = b_schg[r] != 8'd0;
  end
  for (genvar r = 0; r < 2; r++) begin : g_upd
    for (genvar d = 0; d < 16; d++) begin : g_dw
      logic [31:0] nd;
      logic        ch;
      always_comb begin
        nd = b_line[r][32*d +: 32];
        ch = 1'b0;
        for (int k = 0; k < 8; k++) begin
          if (b_dw[k] == 4'(d) && b_cov[r][k]) begin
            nd = b_word[r][k];
            ch = 1'b1;
          end
        end
      end
      assign b_new[r][32*d +: 32] = nd;
      assign b_cvd[r][d]          = ch;
    end
  end

  always_comb begin
    b_fail_now = '0;
    for (int r = 0; r < 2; r++) begin
      for (int k = 0; k < 8; k++) begin
        if (b_cov[r][k] && !b_pass[r][k]) begin
          if (b_quad_q.target.msaa) b_fail_now[8*r + k] = 1'b1;
          else                      b_fail_now[2*r + (k % 2)] = 1'b1;
        end
      end
    end
    b_fail_all = b_fail_q | b_fail_now;
    for (int b = 0; b < 2; b++) begin
      b_on[b] = b_valid_q && ((b_go_q[0] && b_bank[0] == b[0]) || (b_go_q[1] && b_bank[1] == b[0]));
    end


    // Every tested quad, also one left empty (its order FIFO entry waits for it; the merge drops it).
    of_in_valid = (b_valid_q && b_last_q) || t_tok_out;
    of_in_data  = t_tok_out ? {t_port_q, 16'hFFFF} : {b_port_q, ~b_fail_all};
  end

  // ---------------------------------------------------------------------------------------------
  // Request queue head, fills, line port
  // ---------------------------------------------------------------------------------------------
  logic             h_we, h_cf, h_bank;
  logic [EW-1:0]    h_idx;
  logic [LineW-1:0] h_line;
  logic             req_fire, rsp_fire, fill_go, cf_go;
  logic             f_bank;
  logic [EW-1:0]    f_idx;
  logic [511:0]     f_data;

  // ---------------------------------------------------------------------------------------------
  // Fast clear (docs/depth.md §4). The clear engine runs once ZS is clean (no dirty line, no
  // cleared line left: a clear first flushes like flush_i), one pixel row per clock plus one clock
  // per line written: lines of the rectangle wholly covered, depth and stencil both cleared, in
  // the bitmap's range (row < ClrRows, line < 64 and < the pitch) get their bitmap bit; every
  // other line of the rectangle is written at once with byte enables (as the DMA fill would).
  // Resolve: a flush writes every set bit's line out (whole line of the clear value), row by row.
  // ---------------------------------------------------------------------------------------------
  logic [18:0]      ce_bx0, ce_bx1m1;
  logic [12:0]      ce_xa, ce_xb, ce_e0, ce_e1, ce_cn;
  logic [5:0]       ce_lo, ce_hi;
  logic [6:0]       ce_lim;
  logic             ce_rowfast, ce_infast, ce_adv, ce_rowend, ce_fin, ce_emit;
  logic [63:0]      ce_be, ce_rowmask;
  logic [3:0]       ce_pat;
  logic [LineW-1:0] ce_line;
  logic             rs_start, rs_emit;
  logic [CRW-1:0]   rs_pick;
  logic [5:0]       rs_bit;
  logic [15:0]      rs_gany, rs_glow;      // per group of 4 bits: any set / any set in a lower group
  logic [63:0]      rs_low, rs_one;        // per bit: a lower bit is set / it is the lowest set
  logic [LineW-1:0] rs_line;

  // The write register is free for the engine or the resolve (a write-back read owns it otherwise).
  logic wb_free;
  assign wb_free = !wb_valid_q && !wbr_q && !(rq_out_valid && rq_out_data[RQW-1] && !wbr_q);

  always_comb begin
    ce_bx0   = clear_i.target.msaa ? {clear_i.rect.x0, 4'd0} : {2'd0, clear_i.rect.x0, 2'd0};
    ce_bx1m1 = (clear_i.target.msaa ? {clear_i.rect.x1, 4'd0} : {2'd0, clear_i.rect.x1, 2'd0}) - 19'd1;
    ce_xa    = ce_bx0[18:6];
    ce_xb    = ce_bx1m1[18:6];
    ce_lim   = (clear_i.target.pitch[15:6] >= 10'd64) ? 7'd64 : 7'(clear_i.target.pitch[15:6]);
    ce_e0    = ce_xa + 13'(ce_bx0[5:0] != 6'd0);
    ce_e1    = (ce_bx1m1[5:0] == 6'd63) ? ce_xb + 13'd1 : ce_xb;
    if (ce_e1 > 13'(ce_lim)) ce_e1 = 13'(ce_lim);
    ce_rowfast = clear_i.depth && clear_i.stencil && (32'(ce_y_q) < CR) && (ce_e1 > ce_e0);
    ce_infast  = ce_rowfast && ce_c_q >= ce_e0 && ce_c_q < ce_e1;
    ce_emit    = ce_busy_q && !ce_infast && wb_free;
    ce_adv     = ce_busy_q && (ce_infast || wb_free);
    ce_cn      = ce_infast ? ce_e1 : ce_c_q + 13'd1;
    ce_rowend  = ce_adv && ce_cn > ce_xb;
    ce_fin     = ce_rowend && (32'(ce_y_q) + 32'd1 >= 32'(clear_i.rect.y1));
    clear_ready_o = ce_fin;
    ce_lo   = (ce_c_q == ce_xa) ? ce_bx0[5:0] : 6'd0;
    ce_hi   = (ce_c_q == ce_xb) ? ce_bx1m1[5:0] : 6'd63;
    ce_pat  = {clear_i.stencil, {3{clear_i.depth}}};
    for (int i = 0; i < 64; i++) begin
      ce_be[i]      = (6'(i) >= ce_lo) && (6'(i) <= ce_hi) && ce_pat[i % 4];
      ce_rowmask[i] = (13'(i) >= ce_e0) && (13'(i) < ce_e1);
    end
    ce_line = clear_i.target.base[31:6] + LineW'(ce_y_q) * LineW'(clear_i.target.pitch[15:6]) + LineW'(ce_c_q);

    ce_busy_d = ce_busy_q;
    ce_y_d    = ce_y_q;
    ce_c_d    = ce_c_q;
    if (ce_adv) ce_c_d = ce_cn;
    if (ce_rowend) begin
      ce_y_d = ce_y_q + 15'd1;
      ce_c_d = ce_xa;
    end
    if (ce_fin) ce_busy_d = 1'b0;
    if (ce_start) begin
      ce_busy_d = 1'b1;
      ce_y_d    = clear_i.rect.y0;
      ce_c_d    = ce_bx0[18:6];
    end
    fc_base_d  = ce_start ? clear_i.target.base[31:6]  : fc_base_q;
    fc_pitch_d = ce_start ? clear_i.target.pitch[15:6] : fc_pitch_q;
    fc_msaa_d  = ce_start ? clear_i.target.msaa        : fc_msaa_q;
    fc_value_d = ce_start ? clear_i.value              : fc_value_q;

    // Resolve: the lowest valid bitmap row, once the dirty walk is done.
    rs_pick = rv_lo_q[CRW-1:0];
    rs_start = walk_en && fc_any && !any_dirty && rq_empty && !wbr_q && !rs_rd_q && !rs_act_q;
    // The lowest set bit as a tree (groups of 4, then a prefix over the 16 groups), not a
    // 64-deep priority chain; its number an OR of the one-hot's bits.
    for (int g = 0; g < 16; g++) rs_gany[g] = rs_bits_q[4*g +: 4] != 4'd0;
    for (int g = 0; g < 16; g++) rs_glow[g] = (rs_gany & ((16'd1 << g) - 16'd1)) != 16'd0;
    for (int i = 0; i < 64; i++) begin
      rs_low[i] = rs_glow[i / 4] || ((rs_bits_q[4*(i/4) +: 4] & ((4'd1 << (i % 4)) - 4'd1)) != 4'd0);
      rs_one[i] = rs_bits_q[i] && !rs_low[i];
    end
    for (int j = 0; j < 6; j++) begin
      rs_bit[j] = 1'b0;
      for (int i = 0; i < 64; i++) if (((i >> j) & 1) != 0) rs_bit[j] = rs_bit[j] | rs_one[i];
    end
    rs_emit  = rs_act_q && rs_bits_q != '0 && wb_free;
    rs_line  = fc_base_q + LineW'(rs_row_q) * LineW'(fc_pitch_q) + LineW'(rs_bit);
    rs_rd_d  = rs_start;
    rs_row_d = rs_start ? rs_pick : rs_row_q;
    rs_act_d = rs_rd_q || (rs_act_q && rs_bits_q != '0);
    rs_bits_d = rs_bits_q;
    if (rs_emit) rs_bits_d = rs_bits_q & ~rs_one;
    if (rs_rd_q) rs_bits_d = bm_rdata;

    // Bitmap port: T's lookup or the resolve's row read; T's bit clear or the engine's row write.
    bm_re    = lk_wait || rs_start;
    bm_raddr = rs_start ? rs_pick : t_y[cur][CRW-1:0];
    bm_we    = (alloc && lk_bit) || (ce_busy_q && ce_rowfast);
    bm_waddr = ce_busy_q ? ce_y_q[CRW-1:0] : t_y[cur][CRW-1:0];
    bm_wdata = ce_busy_q ? ce_rowmask : 64'd0;
    bm_wmask = ce_busy_q ? '1 : (64'd1 << t_xl[cur][5:0]);

    // T's lookup result
    lk_v_d = lk_v_q || lk_wait;
    if (alloc || t_done || !t_valid_q) lk_v_d = 1'b0;
  end

  // Valid bitmap rows: the engine adds its row (the next one up, or the first of an empty range),
  // the resolve takes the lowest. (Never in the same clock: the resolve waits for the engine.)
  always_comb begin
    rv_lo_d = rv_lo_q;
    rv_hi_d = rv_hi_q;
    if (ce_busy_q && ce_rowfast) begin
      if (!fc_any) rv_lo_d = (CRW + 1)'(ce_y_q[CRW-1:0]);
      rv_hi_d = (CRW + 1)'(ce_y_q[CRW-1:0]) + (CRW + 1)'(1);
    end
    if (rs_start) rv_lo_d = rv_lo_q + (CRW + 1)'(1);
  end

  always_comb begin
    {h_we, h_cf, h_bank, h_idx, h_line} = rq_out_data;
    wbr_issue = rq_out_valid && h_we && !wbr_q && !wb_valid_q;
    cf_go     = rq_out_valid && !h_we && h_cf && !wbr_q && !wb_valid_q;
    mem_req_o = '0;
    mem_req_valid_o = 1'b0;
    if (wb_valid_q) begin
      mem_req_valid_o = 1'b1;
      mem_req_o.we    = 1'b1;
      mem_req_o.addr  = {wb_line_q, 6'd0};
      mem_req_o.wdata = wb_data_q;
      mem_req_o.be    = wb_be_q;
    end else if (rq_out_valid && !h_we && !h_cf && !wbr_q && (rcred_q != '0)) begin
      mem_req_valid_o = 1'b1;
      mem_req_o.addr  = {h_line, 6'd0};
      mem_req_o.tag   = 8'({h_bank, h_idx});
    end
  end

  // The ready side of the line port (kept apart from the request: no combinational loop through
  // the line arbiter).
  always_comb begin
    req_fire = mem_req_valid_o && mem_req_ready_i;
    rq_out_ready = wbr_issue || cf_go || (req_fire && !wb_valid_q);

    wbr_d      = wbr_issue;
    wbr_bank_d = wbr_issue ? h_bank : wbr_bank_q;
    wbr_line_d = wbr_issue ? h_line : wbr_line_q;
    wbr_cf_d   = wbr_issue ? h_cf : wbr_cf_q;
    wb_valid_d = wb_valid_q;
    wb_line_d  = wb_line_q;
    wb_data_d  = wb_data_q;
    wb_be_d    = wb_be_q;
    if (wb_valid_q && req_fire) wb_valid_d = 1'b0;
    if (wbr_q) begin
      wb_valid_d = 1'b1;
      wb_line_d  = wbr_line_q;
      wb_data_d  = wbr_cf_q ? fc_line : s_rdata[wbr_bank_q];
      wb_be_d    = '1;
    end else if (ce_emit) begin
      wb_valid_d = 1'b1;
      wb_line_d  = ce_line;
      wb_data_d  = {16{clear_i.value}};
      wb_be_d    = ce_be;
    end else if (rs_emit) begin
      wb_valid_d = 1'b1;
      wb_line_d  = rs_line;
      wb_data_d  = fc_line;
      wb_be_d    = '1;
    end

    mem_rsp_ready_o = mem_rsp_i.we || ff_in_ready;
    rsp_fire    = mem_rsp_valid_i && mem_rsp_ready_o;
    ff_in_valid = mem_rsp_valid_i && !mem_rsp_i.we;
    ff_in_data  = {SW'(mem_rsp_i.tag), mem_rsp_i.rdata};
    {f_bank, f_idx, f_data} = ff_out_data;
    // The fill takes a bank's write port when B has no piece on it this clock (registered state:
    // B's change compare, deep, is not on the fill's slot; a piece that changes nothing costs the
    // fill a clock).
    fill_go      = ff_out_valid && !b_on[f_bank];
    ff_out_ready = fill_go;

    // read credits: one per free fill-buffer slot
    unique case ({req_fire && !wb_valid_q, ff_out_valid && ff_out_ready})
      2'b10:   rcred_d = rcred_q - RCW'(1);
      2'b01:   rcred_d = rcred_q + RCW'(1);
      default: rcred_d = rcred_q;
    endcase

    unique case ({req_fire, rsp_fire})
      2'b10:   outst_d = outst_q + OutstandingW'(1);
      2'b01:   outst_d = outst_q - OutstandingW'(1);
      default: outst_d = outst_q;
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // State update. Every array element has its own small next-state expression from one-hot
  // update enables (no loop writing whole arrays at dynamic indices: Yosys's proc_dlatch took
  // more than 10 minutes on that form).
  // ---------------------------------------------------------------------------------------------
  logic       wbq, walk_clr, flush_inv;
  logic [1:0] b_use;                 // per piece: B processes it this clock

  always_comb begin
    wbq       = t_rq_valid && rq_in_ready && vic_dirty;    // the victim's write-back is queued
    walk_clr  = walk_en && walk_any && !t_rq_valid && rq_in_ready;
    // A completed flush also forgets every line: memory may change behind ZS before the next quad
    // (a DMA clear fill or COPY into the depth buffer, host writes), nothing references a line.
    flush_inv = walk_en && all_clean;
    for (int r = 0; r < 2; r++) b_use[r] = b_valid_q && b_go_q[r];
  end

  // Span: a completed flush empties it; an allocated line and each row of the clear engine's
  // rectangle (base + y * pitch + [first, last] line) widen it.
  logic [LineW-1:0] span_row, span_a_lo, span_a_hi;
  logic             span_add, span_keep;
  always_comb begin
    span_row  = ce_line - LineW'(ce_c_q);
    span_add  = alloc || ce_busy_q;
    span_a_lo = alloc ? t_line[cur] : span_row + LineW'(ce_xa);
    span_a_hi = alloc ? t_line[cur] : span_row + LineW'(ce_xb);
    span_keep = span_v_q && !flush_inv;
    span_v_d  = span_keep || span_add;
    span_lo_d = span_lo_q;
    span_hi_d = span_hi_q;
    if (span_add) begin
      span_lo_d = (!span_keep || span_a_lo < span_lo_q) ? span_a_lo : span_lo_q;
      span_hi_d = (!span_keep || span_a_hi > span_hi_q) ? span_a_hi : span_hi_q;
    end
    span_valid_o = span_v_q;
    span_lo_o    = span_lo_q;
    span_hi_o    = span_hi_q;
  end

  for (genvar b = 0; b < 2; b++) begin : g_st_bank
    for (genvar e = 0; e < E; e++) begin : g_st_ent
      localparam logic [SW-1:0] Slot = {b[0], EW'(e)};
      logic [1:0] at_hit, at_b, at_bw;
      logic       at_vic, at_walk, at_fill, at_cf;
      always_comb begin
        at_vic  = cur == b[0] && vic == EW'(e);
        at_walk = walk_clr && walk_bank == b[0] && walk_idx == EW'(e);
        at_fill = fill_go && f_bank == b[0] && f_idx == EW'(e);
        at_cf   = cf_go && h_bank == b[0] && h_idx == EW'(e);
        for (int r = 0; r < 2; r++) begin
          at_hit[r] = res_now[r] && hit[r] && hslot[r] == Slot;
          at_b[r]   = b_use[r] && b_slot_q[r] == Slot;
          at_bw[r]  = at_b[r] && b_chg[r];
        end
      end
      assign ref_d[b][e]   = ref_q[b][e] + RW'(at_hit[0]) + RW'(at_hit[1]) + RW'(alloc && at_vic)
                             - RW'(at_b[0]) - RW'(at_b[1]);
      assign tag_d[b][e]   = (alloc && at_vic) ? t_line[b] : tag_q[b][e];
      assign tval_d[b][e]  = !flush_inv && (tval_q[b][e] || (alloc && at_vic));
      assign dval_d[b][e]  = at_fill || at_cf || (dval_q[b][e] && !(alloc && at_vic));
      // A clear-filled line is dirty from its allocation (memory does not hold the clear value).
      assign dirty_d[b][e] = (at_bw != '0) || (alloc && lk_bit && at_vic) ||
                             (dirty_q[b][e] && !(wbq && at_vic) && !at_walk);
      assign cval_d[b][e]  = at_cf || (cval_q[b][e] && !at_fill && at_bw == '0);
    end
  end

  always_comb begin
    // T
    t_valid_d = t_valid_q;
    t_d       = t_q;
    t_res_d   = t_res_q | res_now;
    for (int r = 0; r < 2; r++) begin
      t_slot_d[r] = t_slot_q[r];
      if (res_now[r] && hit[r])        t_slot_d[r] = hslot[r];
      if (alloc && cur == r[0])        t_slot_d[r] = {cur, vic};
      ptr_d[r] = ptr_q[r];
      if (cur == r[0] && (alloc || (miss_pend && vic_busy))) ptr_d[r] = ptr_q[r] + EW'(1);
    end
    if (t_done) begin
      t_valid_d = 1'b0;
      t_res_d   = '0;
    end
    t_port_d = t_port_q;
    t_line_d = t_line_q;
    if (t_load) begin
      t_valid_d = 1'b1;
      t_d       = t_in;
      t_line_d  = l_take ? l_line_q : e_line_q;
      t_res_d   = '0;
      t_port_d  = l_take;
    end

    // A and B
    b_valid_d = a_fire;
    b_last_d  = a_last;
    b_go_d    = a_go;
    b_slot_d  = a_slot;
    b_cv_d    = a_cv;
    b_quad_d  = a_fire ? a_quad : b_quad_q;
    b_port_d  = a_fire ? a_port : b_port_q;
    b_fail_d  = b_valid_q ? (b_last_q ? 16'd0 : b_fail_all) : b_fail_q;
  end

  // T's lookup: the lines of the packet T takes next (the late port's when it has one: an early
  // packet is taken only when the late port has none to test), compared with every valid tag. A
  // line is in one entry at most, so the slot is an OR of the matching entries' numbers. The
  // result is corrected for this clock's allocation (and a completed flush) and registered with
  // the quad; while the quad waits in T, the same correction keeps it current.
  logic [1:0][LineW-1:0]  lk_line;
  logic [1:0][2*E-1:0]    lk_m;
  logic [1:0]             lk_hit, hl, hh, al_ln, al_lh;
  logic [1:0][SW-1:0]     lk_slot;
  logic [SW-1:0][2*E-1:0] slot_bit;    // constant: slot_bit[j][k] = bit j of k
  logic [SW-1:0]          al_slot;
  always_comb begin
    for (int k = 0; k < 2 * E; k++) begin
      for (int j = 0; j < SW; j++) slot_bit[j][k] = ((k >> j) & 1) != 0;
    end
    al_slot = {cur, vic};
    for (int r = 0; r < 2; r++) begin
      lk_line[r] = l_tst ? l_line_q[r] : e_line_q[r];
      for (int b = 0; b < 2; b++) begin
        for (int e = 0; e < E; e++) lk_m[r][b * E + e] = tval_q[b][e] && tag_q[b][e] == lk_line[r];
      end
      lk_hit[r] = lk_m[r] != '0;
      for (int j = 0; j < SW; j++) lk_slot[r][j] = (lk_m[r] & slot_bit[j]) != '0;
      // the line allocated this clock is this piece's (load / hold)
      al_ln[r] = alloc && lk_line[r] == t_line[cur];
      al_lh[r] = alloc && t_line_q[r] == t_line[cur];
      hl[r]    = al_ln[r] || (lk_hit[r] && !(alloc && lk_slot[r] == al_slot));
      hh[r]    = al_lh[r] || (th_q[r] && !(alloc && ts_q[r] == al_slot));
      th_d[r]  = !flush_inv && (t_load ? hl[r] : hh[r]);
      if (t_load) ts_d[r] = al_ln[r] ? al_slot : lk_slot[r];
      else        ts_d[r] = al_lh[r] ? al_slot : ts_q[r];
    end
  end

  // Per bank: SRAM ports (A's reads or a write-back read; B's write or a fill) and B's forward.
  for (genvar b = 0; b < 2; b++) begin : g_port
    always_comb begin
      s_re[b]    = 1'b0;
      s_raddr[b] = '0;
      for (int r = 0; r < 2; r++) begin
        if (a_go[r] && a_slot[r][EW] == b[0]) begin
          s_re[b]    = 1'b1;
          s_raddr[b] = a_slot[r][EW-1:0];
        end
      end
      if (wbr_issue && h_bank == b[0]) begin
        s_re[b]    = 1'b1;
        s_raddr[b] = h_idx;
      end

      s_we[b]       = 1'b0;
      s_waddr[b]    = '0;
      s_wmask[b]    = '0;
      s_wdata[b]    = '0;
      fwd_v_d[b]    = 1'b0;
      fwd_w_d[b]    = 1'b0;
      fwd_idx_d[b]  = fwd_idx_q[b];
      fwd_data_d[b] = fwd_data_q[b];
      for (int r = 0; r < 2; r++) begin
        if (b_use[r] && b_bank[r] == b[0]) begin
          fwd_v_d[b]    = 1'b1;
          fwd_w_d[b]    = b_chg[r];
          fwd_idx_d[b]  = b_idx[r];
          fwd_data_d[b] = b_new[r];
          if (b_chg[r]) begin
            s_we[b]    = 1'b1;
            s_waddr[b] = b_idx[r];
            s_wmask[b] = b_cvn[r] ? '1 : b_cvd[r];
            s_wdata[b] = b_new[r];
          end
        end
      end
      if (fill_go && f_bank == b[0]) begin
        s_we[b]    = 1'b1;
        s_waddr[b] = f_idx;
        s_wmask[b] = '1;
        s_wdata[b] = f_data;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Storage
  // ---------------------------------------------------------------------------------------------
  for (genvar b = 0; b < 2; b++) begin : g_bank
    sram_1r1w #(.Width(512), .Depth(E), .MaskW(16)) u_data (
      .clk_i,
      .we_i    (s_we[b]),
      .waddr_i (s_waddr[b]),
      .wdata_i (s_wdata[b]),
      .wmask_i (s_wmask[b]),
      .re_i    (s_re[b]),
      .raddr_i (s_raddr[b]),
      .rdata_o (s_rdata[b])
    );
  end

  sram_1r1w #(.Width(64), .Depth(CR), .MaskW(64)) u_bitmap (
    .clk_i,
    .we_i    (bm_we),
    .waddr_i (bm_waddr),
    .wdata_i (bm_wdata),
    .wmask_i (bm_wmask),
    .re_i    (bm_re),
    .raddr_i (bm_raddr),
    .rdata_o (bm_rdata)
  );

  // (zs_pay_fifo: the head is the SRAM's read register, held until A takes the quad; no wide
  // output flip-flops. A push is visible 2 clocks later: one clock of latency, not of rate.)
  zs_pay_fifo #(.Depth(QDepth), .Width(QFW)) u_qf (
    .clk_i,
    .rst_ni,
    .in_valid_i  (qf_in_valid),
    .in_ready_o  (qf_in_ready),
    .in_data_i   (qf_in_data),
    .out_valid_o (qf_out_valid),
    .out_ready_i (qf_out_ready),
    .out_data_o  (qf_out_data),
    .empty_o     (qf_empty)
  );

  logic [3:0] rq_count;
  logic       rq_full;
  stream_fifo #(.Depth(8), .Width(RQW)) u_rq (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (rq_in_valid),
    .in_ready_o  (rq_in_ready),
    .in_data_i   (rq_in_data),
    .out_valid_o (rq_out_valid),
    .out_ready_i (rq_out_ready),
    .out_data_o  (rq_out_data),
    .count_o     (rq_count),
    .empty_o     (rq_empty),
    .full_o      (rq_full)
  );

  // Fill buffer: every line read has its slot reserved before it is requested (rcred_q), so a
  // response is always taken at once (contract 2.1) even while B's writes hold the data SRAM.
  logic ff_empty;
  zs_pay_fifo #(.Depth(FillDepth), .Width(FFW)) u_ff (
    .clk_i,
    .rst_ni,
    .in_valid_i  (ff_in_valid),
    .in_ready_o  (ff_in_ready),
    .in_data_i   (ff_in_data),
    .out_valid_o (ff_out_valid),
    .out_ready_i (ff_out_ready),
    .out_data_o  (ff_out_data),
    .empty_o     (ff_empty)
  );

  // Results of the test pipeline ({port, quad}, both ports: see the header for why they never
  // interleave in a way that blocks one port behind the other).
  logic of_full;
  stream_fifo #(.Depth(OFD), .Width(OFW)) u_of (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (of_in_valid),
    .in_ready_o  (of_in_ready),
    .in_data_i   (of_in_data),
    .out_valid_o (of_out_valid),
    .out_ready_i (of_out_ready),
    .out_data_o  (of_out_data),
    .count_o     (of_count),
    .empty_o     (of_empty),
    .full_o      (of_full)
  );

  zs_pay_fifo #(.Depth(PFD), .Width(QW + 1)) u_epf (
    .clk_i,
    .rst_ni,
    .in_valid_i  (epf_in_valid),
    .in_ready_o  (epf_in_ready),
    .in_data_i   (epf_in_data),
    .out_valid_o (epf_out_valid),
    .out_ready_i (epf_out_ready),
    .out_data_o  (epf_out_data),
    .empty_o     (epf_empty)
  );
  zs_pay_fifo #(.Depth(PFD), .Width(IPW + 1)) u_lpf (
    .clk_i,
    .rst_ni,
    .in_valid_i  (lpf_in_valid),
    .in_ready_o  (lpf_in_ready),
    .in_data_i   (lpf_in_data),
    .out_valid_o (lpf_out_valid),
    .out_ready_i (lpf_out_ready),
    .out_data_o  (lpf_out_data),
    .empty_o     (lpf_empty)
  );

  // Output merges, per port in arrival order: the payload FIFO's head is the packet; when flagged,
  // its mask is the head result's (samples kept) and z is zeroed where the mask is 0; a tested
  // quad left with no sample is dropped here. (Valid and data apart from the readies: no
  // combinational path from a ready to a valid.)
  logic                    of_port, e_hd_t, e_res, e_drop, l_hd_t, l_res, l_drop_o, e_hd_late;
  logic [15:0]             of_keep, e_mask, l_mask;
  pineda_pkg::quad_pkt_t   e_hd;
  pineda_pkg::interp_pkt_t l_hd;
  always_comb begin
    {of_port, of_keep} = of_out_data;
    {e_hd_t, e_hd}     = epf_out_data;
    e_hd_late = e_hd.eop || ((e_hd.ds.z_enable || e_hd.ds.s_enable) && e_hd.ds.late_z);
    e_res     = epf_out_valid && e_hd_t && of_out_valid && !of_port;
    e_mask    = e_hd.mask & of_keep;
    e_drop    = e_res && !e_hd.eop && (e_mask == '0);
    out_valid_o = epf_out_valid && (e_hd_t ? (e_res && !e_drop) : 1'b1);
    out_o       = e_hd;
    if (e_hd_t) begin
      out_o.mask = e_mask;
      for (int i = 0; i < 16; i++) if (!e_mask[i]) out_o.z[i] = '0;
    end

    {l_hd_t, l_hd} = lpf_out_data;
    l_res    = lpf_out_valid && l_hd_t && of_out_valid && of_port;
    l_mask   = l_hd.quad.mask & of_keep;
    l_drop_o = l_res && !l_hd.quad.eop && (l_mask == '0);
    late_out_valid_o = lpf_out_valid && (l_hd_t ? (l_res && !l_drop_o) : 1'b1);
    late_out_o       = l_hd;
    if (l_hd_t) begin
      late_out_o.quad.mask = l_mask;
      for (int i = 0; i < 16; i++) if (!l_mask[i]) late_out_o.quad.z[i] = '0;
    end
    late_out_o.quad.it = '0;
  end

  // Late packets (late-Z quads, tokens) in the early payload FIFO, not yet out of the early port.
  // (Its own block: the output readies must not reach the input readies, not even in Verilator's
  // per-variable ordering.)
  always_comb begin
    epl_pop = epf_out_valid && epf_out_ready && (LatePort != 0) && e_hd_late;
    epl_d   = epl_q + PLW'(epf_in_valid && in_late) - PLW'(epl_pop);
  end

  always_comb begin
    epf_out_ready = e_hd_t ? (e_res && (e_drop || out_ready_i)) : (epf_out_valid && out_ready_i);
    lpf_out_ready = l_hd_t ? (l_res && (l_drop_o || late_out_ready_i)) : (lpf_out_valid && late_out_ready_i);
    of_out_ready  = (e_res && (e_drop || out_ready_i)) || (l_res && (l_drop_o || late_out_ready_i));
  end

  always_comb begin
    // (a clear in progress is not a packet: the CP holds its offer on pipe idle)
    quiet_o = !t_valid_q && qf_empty && !b_valid_q && of_empty && !e_valid_q && !l_valid_q && epf_empty &&
              lpf_empty;
    clean_o = all_clean;
    idle_o  = quiet_o && all_clean;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      t_valid_q  <= 1'b0;
      t_q        <= '0;
      t_res_q    <= '0;
      t_slot_q   <= '0;
      t_port_q   <= 1'b0;
      th_q       <= '0;
      ts_q       <= '0;
      pk_v_q     <= 1'b0;
      pk_q       <= '0;
      e_valid_q  <= 1'b0;
      e_q        <= '0;
      l_valid_q  <= 1'b0;
      l_q        <= '0;
      late_cnt_q <= '0;
      epl_q      <= '0;
      e_line_q   <= '0;
      l_line_q   <= '0;
      t_line_q   <= '0;
      b_port_q   <= 1'b0;
      tag_q      <= '0;
      tval_q     <= '0;
      dval_q     <= '0;
      dirty_q    <= '0;
      ref_q      <= '0;
      ptr_q      <= '0;
      a_done_q   <= '0;
      span_v_q   <= 1'b0;
      span_lo_q  <= '0;
      span_hi_q  <= '0;
      b_valid_q  <= 1'b0;
      b_last_q   <= 1'b0;
      b_go_q     <= '0;
      b_slot_q   <= '0;
      b_quad_q   <= '0;
      b_fail_q   <= '0;
      fwd_v_q    <= '0;
      fwd_w_q    <= '0;
      b_cv_q     <= '0;
      fwd_idx_q  <= '0;
      fwd_data_q <= '0;
      wbr_q      <= 1'b0;
      wbr_bank_q <= 1'b0;
      wbr_line_q <= '0;
      wb_valid_q <= 1'b0;
      wb_line_q  <= '0;
      wb_data_q  <= '0;
      wb_be_q    <= '0;
      wbr_cf_q   <= 1'b0;
      cval_q     <= '0;
      rv_lo_q    <= '0;
      rv_hi_q    <= '0;
      fc_base_q  <= '0;
      fc_pitch_q <= '0;
      fc_msaa_q  <= 1'b0;
      fc_value_q <= '0;
      lk_v_q     <= 1'b0;
      ce_busy_q  <= 1'b0;
      ce_y_q     <= '0;
      ce_c_q     <= '0;
      rs_rd_q    <= 1'b0;
      rs_act_q   <= 1'b0;
      rs_row_q   <= '0;
      rs_bits_q  <= '0;
      outst_q    <= '0;
      rcred_q    <= RCW'(FillDepth);
    end else begin
      t_valid_q  <= t_valid_d;
      t_q        <= t_d;
      t_res_q    <= t_res_d;
      t_slot_q   <= t_slot_d;
      t_port_q   <= t_port_d;
      th_q       <= th_d;
      ts_q       <= ts_d;
      pk_v_q     <= pk_v_d;
      pk_q       <= pk_d;
      e_valid_q  <= e_valid_d;
      e_q        <= e_d;
      l_valid_q  <= l_valid_d;
      l_q        <= l_d;
      late_cnt_q <= late_cnt_d;
      epl_q      <= epl_d;
      e_line_q   <= e_line_d;
      l_line_q   <= l_line_d;
      t_line_q   <= t_line_d;
      b_port_q   <= b_port_d;
      tag_q      <= tag_d;
      tval_q     <= tval_d;
      dval_q     <= dval_d;
      dirty_q    <= dirty_d;
      ref_q      <= ref_d;
      ptr_q      <= ptr_d;
      a_done_q   <= a_done_d;
      span_v_q   <= span_v_d;
      span_lo_q  <= span_lo_d;
      span_hi_q  <= span_hi_d;
      b_valid_q  <= b_valid_d;
      b_last_q   <= b_last_d;
      b_go_q     <= b_go_d;
      b_slot_q   <= b_slot_d;
      b_quad_q   <= b_quad_d;
      b_fail_q   <= b_fail_d;
      fwd_v_q    <= fwd_v_d;
      fwd_w_q    <= fwd_w_d;
      b_cv_q     <= b_cv_d;
      fwd_idx_q  <= fwd_idx_d;
      fwd_data_q <= fwd_data_d;
      wbr_q      <= wbr_d;
      wbr_bank_q <= wbr_bank_d;
      wbr_line_q <= wbr_line_d;
      wb_valid_q <= wb_valid_d;
      wb_line_q  <= wb_line_d;
      wb_data_q  <= wb_data_d;
      wb_be_q    <= wb_be_d;
      wbr_cf_q   <= wbr_cf_d;
      cval_q     <= cval_d;
      rv_lo_q    <= rv_lo_d;
      rv_hi_q    <= rv_hi_d;
      fc_base_q  <= fc_base_d;
      fc_pitch_q <= fc_pitch_d;
      fc_msaa_q  <= fc_msaa_d;
      fc_value_q <= fc_value_d;
      lk_v_q     <= lk_v_d;
      ce_busy_q  <= ce_busy_d;
      ce_y_q     <= ce_y_d;
      ce_c_q     <= ce_c_d;
      rs_rd_q    <= rs_rd_d;
      rs_act_q   <= rs_act_d;
      rs_row_q   <= rs_row_d;
      rs_bits_q  <= rs_bits_d;
      outst_q    <= outst_d;
      rcred_q    <= rcred_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i.src, rq_count, rq_full, ff_empty,
                        of_full, t_q.ds.base[5:0], t_q.ds.pitch[5:0], t_y, epf_empty, lpf_empty};

`ifndef SYNTHESIS
  initial begin
    assert (E >= 2 && E <= 128 && (E & (E - 1)) == 0)
      else $fatal(1, "zs: EntriesPerBank must be a power of two in 2..128 (the line tag is 8 bits)");
  end
  stream_assert #(.Width(QW)) u_in_chk (
    .clk_i, .rst_ni, .valid_i(in_valid_i), .ready_i(in_ready_o), .data_i(in_i));
  stream_assert #(.Width($bits(pineda_pkg::clear_pkt_t))) u_clr_chk (
    .clk_i, .rst_ni, .valid_i(clear_valid_i), .ready_i(clear_ready_o), .data_i(clear_i));
  stream_assert #(.Width(QW)) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o));
  stream_assert #(.Width(IPW)) u_lin_chk (
    .clk_i, .rst_ni, .valid_i(late_in_valid_i), .ready_i(late_in_ready_o), .data_i(late_in_i));
  stream_assert #(.Width(IPW)) u_lout_chk (
    .clk_i, .rst_ni, .valid_i(late_out_valid_o), .ready_i(late_out_ready_i), .data_i(late_out_o));
  stream_assert #(.Width($bits(pineda_pkg::mem_line_req_t))) u_mem_chk (
    .clk_i, .rst_ni, .valid_i(mem_req_valid_o), .ready_i(mem_req_ready_i), .data_i(mem_req_o));
  logic chk_unref, chk_unfilled, chk_cv, chk_hit;
  always_comb begin
    chk_unref    = 1'b0;
    chk_unfilled = 1'b0;
    chk_cv       = 1'b0;
    chk_hit      = 1'b0;
    for (int r = 0; r < 2; r++) begin
      // B's clear-value flag (read by A, corrected by the forward) is the entry's
      if (b_valid_q && b_go_q[r] && b_cvn[r] != cval_q[b_bank[r]][b_idx[r]]) chk_cv = 1'b1;
      // T's kept lookup is the lookup of its line now
      if (t_valid_q && t_need[r] && !t_res_q[r]) begin
        for (int b = 0; b < 2; b++) begin
          for (int e = 0; e < E; e++) begin
            if ((tval_q[b][e] && tag_q[b][e] == t_line_q[r]) != (th_q[r] && ts_q[r] == SW'(b * E + e)))
              chk_hit = 1'b1;
          end
        end
      end
    end
    for (int r = 0; r < 2; r++) begin
      if (b_valid_q && b_go_q[r] && ref_q[b_bank[r]][b_idx[r]] == '0) chk_unref = 1'b1;
      if (a_go[r] && !dval_q[a_slot[r][EW]][a_slot[r][EW-1:0]]) chk_unfilled = 1'b1;
    end
  end
  logic [3:0] chk_ofe_q, chk_ofe_d;   // early-port results in the result FIFO
  always_comb begin
    chk_ofe_d = chk_ofe_q + 4'(of_in_valid && of_in_ready && !of_in_data[OFW-1]) -
                4'(of_out_valid && of_out_ready && !of_port);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_ofe_q <= '0;
    else         chk_ofe_q <= chk_ofe_d;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_fire && !req_fire && outst_q == '0)) else $error("%m: response with no request outstanding");
      assert (!(of_in_valid && !of_in_ready)) else $error("%m: output FIFO overflow");
      assert (!(mem_rsp_valid_i && !mem_rsp_i.we && !ff_in_ready))
        else $error("%m: line read response with no fill-buffer slot (read credits)");
      assert (!chk_unref) else $error("%m: piece on an unreferenced entry");
      assert (!chk_cv) else $error("%m: B's clear-value flag differs from the entry's");
      assert (!chk_hit) else $error("%m: T's kept lookup differs from a lookup now");
      assert (!chk_unfilled) else $error("%m: read of an unfilled entry");
      assert (!(fill_go && dval_q[f_bank][f_idx])) else $error("%m: fill of a valid entry");
      assert (!(cf_go && dval_q[h_bank][h_idx])) else $error("%m: clear fill of a valid entry");
      assert (!(wbr_q && wb_valid_q && !req_fire)) else $error("%m: line write overwritten while stalled");
      assert (!(wb_valid_q && !req_fire && (ce_emit || rs_emit))) else $error("%m: line write overwritten");
      assert (!(clear_valid_i && in_valid_i)) else $error("%m: a quad offered during a clear");
      assert (!(alloc && ce_busy_q)) else $error("%m: a line allocated while the clear engine runs (span)");
      // (the next-state span: a line's read can leave in the clock it is allocated)
      assert (!(req_fire && (!span_v_d || mem_req_o.addr[31:6] < span_lo_d || mem_req_o.addr[31:6] > span_hi_d)))
        else $error("%m: a line request outside the span");
      assert (!(clear_valid_i && clear_i.color)) else $error("%m: a colour clear offered to ZS");
      // The valid bitmap rows stay one range: the engine adds the row just above it (or starts it).
      assert (!(ce_busy_q && ce_rowfast && fc_any && 32'(ce_y_q) != 32'(rv_hi_q) &&
                32'(ce_y_q) + 1 != 32'(rv_hi_q)))
        else $error("%m: a fast-cleared row outside the valid range");
      assert (!(ce_busy_q && ce_rowfast && rs_start)) else $error("%m: a resolve during a clear");
      // Late port
      assert ((LatePort != 0) || !late_in_valid_i) else $error("%m: a packet on the late port with LatePort = 0");
      assert (!(l_valid_q && (l_act || l_q.eop) && late_cnt_q == '0))
        else $error("%m: a late quad or token at the late port that did not pass the early port");
      assert (!(late_cnt_q == '0 && late_dec != '0)) else $error("%m: late-in-flight count underflow");
      assert (!(late_cnt_q == '1 && e_go && e_late)) else $error("%m: late-in-flight count overflow");
      assert (!(e_take && late_cnt_q != '0)) else $error("%m: an early-Z quad tested with late quads in flight");
      assert (!(out_valid_o && !out_o.eop && out_o.mask == '0)) else $error("%m: an empty quad leaves the early port");
      assert (!(late_out_valid_o && !late_out_o.quad.eop && late_out_o.quad.mask == '0))
        else $error("%m: an empty quad leaves the late port");
      // The order rule keeps an early-port result from ever sitting before a late-port one in the
      // shared result FIFO (the early output may wait on the late one through the pixel path).
      assert (!(of_in_valid && of_in_data[OFW-1] && chk_ofe_q != '0))
        else $error("%m: a late-port result queued behind an early-port one");
    end
  end
`endif

endmodule
