// SPDX-License-Identifier: Apache-2.0
// cp_fetch: the CP's command fetch. Delivers the command dwords in DECODE order (ring, indirect
// buffers, returns) to the decoder, prefetching across JUMP/CALL/RET, over the line port.
//
// Structure:
//   request side -> line_stream_reader (4 dwords per clock) -> parser -> decode FIFO -> decoder
// - The parser walks the fetched dwords in decode order, 4 per clock, with its own copy of the
//   position (ring pointer, IB address and dwords left, return stack): it finds command headers
//   from their lengths, and when a JUMP/CALL's last payload dword passes it checks the target
//   (dword aligned, inside the valid window) and redirects: the reader is flushed (what follows
//   the CALL in memory is not what the decoder needs next) and the request side restarts at the
//   target, followed by the return positions (the rest of the calling IB, ..., the ring) so the
//   data after the IB's end is already on its way. A RET, or an IB running out of dwords, needs
//   no redirect: the request side has already requested the return position after the IB; the
//   parser drops the dwords of the IB after a RET (when more than RetCut dwords of the IB are
//   left, it flushes and refetches at the return position instead). So a CALL costs one memory round trip in the
//   parser, which runs 4 times faster than the decoder and hides it behind the decode FIFO
//   (DecGroups groups of 4 dwords in SRAM).
// - The request side issues the reader jobs in decode order: the current IB (one job), then it
//   pops its copy of the return stack (one job per IB rest), then the ring (one job per span up
//   to RING_WPTR or the ring's end, as the decoder's fetch did), and more ring jobs as the host
//   moves RING_WPTR. Requests stop while STATUS.ERROR is set; ring jobs need CONTROL.ENABLE and
//   the ring inside the valid window.
// - The parser parks (stops, after passing the dword on) where the decoder will stop with an
//   error: a JUMP/CALL or RET with a wrong len, a command that does not fit in its IB, a CALL
//   with the return stack full, a RET in the ring, a JUMP/CALL whose target is not aligned or
//   outside the window. Errors need no redirect; if the decoder enters the IB after all (the host
//   changed the window while the CP was stopped), it asks for a resync.
// - resync_i (CONTROL.CP_RESET, or an enter the parser did not predict) flushes the reader and
//   the decode FIFO and restarts both sides at the decoder's position (pos_*_i).
// Decode FIFO output: one dword per clock (the live dwords of the current group, in order).
module cp_fetch #(
  parameter int unsigned FetchLines = 32,   // line buffer of the reader (SRAM)
  parameter int unsigned DecGroups  = 128,  // decode FIFO: groups of 4 dwords (SRAM)
  parameter int unsigned RetCut     = 256   // a RET with more IB dwords after it refetches
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Registers
  input  logic                          enable_i,
  input  logic                          error_i,
  input  logic [31:0]                   ring_base_i,
  input  logic [31:0]                   ring_size_i,
  input  logic [31:0]                   ring_wptr_i,
  input  logic                          ring_ok_i,
  input  logic [31:0]                   valid_base_i,
  input  logic [31:0]                   valid_limit_i,
  // Resync at the decoder's position (after this cycle's update)
  input  logic                          resync_i,
  input  logic                          pos_in_ib_i,
  input  logic [31:0]                   pos_ib_addr_i,
  input  logic [31:0]                   pos_ib_rem_i,
  input  logic [31:0]                   pos_ring_rptr_i,
  input  logic [$clog2(pineda_pkg::RET_STACK_DEPTH+1)-1:0] pos_sp_i,
  input  logic [pineda_pkg::RET_STACK_DEPTH-1:0]           pos_stk_ring_i,
  input  logic [pineda_pkg::RET_STACK_DEPTH-1:0][31:0]     pos_stk_addr_i,
  input  logic [pineda_pkg::RET_STACK_DEPTH-1:0][31:0]     pos_stk_rem_i,
  output logic                          parked_o,
  // Command dwords in decode order
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output logic [31:0]                   out_data_o,
  // Line port client
  output pineda_pkg::mem_port_req_t     mem_o,
  input  pineda_pkg::mem_port_rsp_t     mem_i,
  output logic                          idle_o
);

  localparam int unsigned Depth = pineda_pkg::RET_STACK_DEPTH;
  localparam int unsigned SpW   = $clog2(Depth + 1);
  localparam int unsigned Lanes = 4;

  // A position: the ring, or an IB (next dword address, dwords left); the return stack.
  typedef struct packed {
    logic                   in_ib;
    logic [31:0]            addr;
    logic [31:0]            rem;
    logic [Depth-1:0]       stk_ring;
    logic [Depth-1:0][31:0] stk_addr;
    logic [Depth-1:0][31:0] stk_rem;
    logic [SpW-1:0]         sp;
  } where_t;

  // Parser: position of the next dword it takes, and the command being walked.
  typedef struct packed {
    where_t      at;
    logic [31:0] pring;    // ring offset of the next ring dword (the return point while in an IB)
    logic [11:0] skip;     // payload dwords of the current command still to come
    logic        cj;       // the current command is a JUMP/CALL
    logic        call;     // ... a CALL
    logic [31:0] target;   // its first payload dword
    logic        dead;     // after a RET: the IB's remaining dwords are dropped
    logic        parked;
  } parse_t;

  // Request side: the position of the next job.
  typedef struct packed {
    where_t      at;
    logic        pending;    // in an IB whose job is still to be issued
    logic [31:0] fetch_ptr;  // ring offset of the next ring job
  } req_t;

  parse_t ps_q, ps_d;
  req_t   rq_q, rq_d;

  function automatic logic range_ok(input logic [31:0] addr, input logic [34:0] bytes,
                                    input logic [31:0] lo, input logic [31:0] hi);
    range_ok = (bytes == 35'd0) ||
               ((addr >= lo) && (35'(addr) + bytes - 35'd1 <= 35'(hi)));
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Reader
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::line_job_t  job;
  logic                   job_ready, job_fire;
  logic [31:0]            span;
  logic                   rd_valid, rd_ready, rd_last;
  logic [Lanes-1:0][31:0] rd_data;
  logic [Lanes-1:0]       rd_mask;
  logic                   reader_idle;
  logic                   flush;

  line_stream_reader #(
    .DepthLines (FetchLines),
    .OutDwords  (Lanes)
  ) u_reader (
    .clk_i,
    .rst_ni,
    .flush_i      (flush),
    .job_i        (job),
    .job_ready_o  (job_ready),
    .out_valid_o  (rd_valid),
    .out_ready_i  (rd_ready),
    .out_data_o   (rd_data),
    .out_mask_o   (rd_mask),
    .out_last_o   (rd_last),
    .mem_o,
    .mem_i,
    .idle_o       (reader_idle)
  );

  // ---------------------------------------------------------------------------------------------
  // Decode FIFO: groups of 4 dwords with a mask of the live ones
  // ---------------------------------------------------------------------------------------------
  logic                   dq_push, dq_in_ready, dq_valid, dq_pop, dq_empty, dq_full;
  logic [Lanes-1:0]       live;
  logic [Lanes-1:0][31:0] dq_data;
  logic [Lanes-1:0]       dq_mask;
  logic [$clog2(DecGroups+2):0] dq_count;
  logic [Lanes-1:0]       used_q, used_d;   // lanes of the output group already taken
  logic [Lanes-1:0]       avail, pick;
  localparam int unsigned GrpCntW = $clog2(DecGroups) + 1;
  logic [GrpCntW-1:0]     dq_cnt_q, dq_cnt_d;
  logic                   dq_room;

  stream_fifo #(
    .Sram (1'b1),
    .Depth (DecGroups),
    .Width (Lanes * 33)
  ) u_decq (
    .clk_i,
    .rst_ni,
    .clear_i     (resync_i),
    .in_valid_i  (dq_push),
    .in_ready_o  (dq_in_ready),
    .in_data_i   ({rd_data, live}),
    .out_valid_o (dq_valid),
    .out_ready_i (dq_pop),
    .out_data_o  ({dq_data, dq_mask}),
    .count_o     (dq_count),
    .empty_o     (dq_empty),
    .full_o      (dq_full)
  );

  always_comb begin
    avail = dq_valid ? (dq_mask & ~used_q) : '0;
    pick  = avail & (~avail + Lanes'(1));  // lowest live lane not yet taken
    out_valid_o = (avail != '0);
    out_data_o  = '0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      if (pick[k]) out_data_o = dq_data[k];
    end
  end

  assign dq_pop = out_valid_o && out_ready_i && ((avail & ~pick) == '0);

  // Own occupancy count (groups held): room for a push without looking at the FIFO's ready,
  // which the SRAM stream_fifo computes in the same process as its push (a false combinational loop).
  always_comb begin
    used_d = used_q;
    if (out_valid_o && out_ready_i) used_d = dq_pop ? '0 : (used_q | pick);
    if (resync_i) used_d = '0;
    dq_cnt_d = dq_cnt_q + GrpCntW'(dq_push) - GrpCntW'(dq_pop);
    if (resync_i) dq_cnt_d = '0;
    dq_room = (dq_cnt_q < GrpCntW'(DecGroups));
  end

  // ---------------------------------------------------------------------------------------------
  // Parser
  // ---------------------------------------------------------------------------------------------
  logic        redirect;
  logic        ret_cut;
  logic [31:0] redirect_len;
  logic [31:0] pring_inc;
  logic        pop_ps;
  logic [2:0]  adv;                      // dwords passed this clock
  logic [Lanes-1:0][31:0] rem_at;        // IB dwords left at lane k
  logic [2:0]  npre;
  logic [Lanes-1:0][31:0] tgt_at;        // lane k's JUMP/CALL target, if it is the len
  logic [Lanes-1:0]       tgt_ok;        // ... aligned and [target, target + 4 len) in the window
  logic [1:0]             first;         // the group's first live lane
  logic [Lanes-1:0][7:0]  op_k;
  logic [Lanes-1:0][11:0] len_k, skc;
  logic [Lanes-1:0]       ijc, icall, iret, h0hit, hdr, lastpay, tpay;
  logic [Lanes-1:0]       fit_err, ret_ok, hpark, cut, dev, lpark, redir, stp, kill;
  logic [Lanes-1:0]       proc, ev_at, jcset, lh;
  logic [2:0]             cnt_mask, cnt_proc, above;

  always_comb begin
    ps_d         = ps_q;
    redirect     = 1'b0;
    ret_cut      = 1'b0;
    redirect_len = '0;
    live         = '0;
    rd_ready     = 1'b0;
    dq_push      = 1'b0;
    pring_inc    = '0;
    pop_ps       = 1'b0;
    adv          = '0;
    // A JUMP/CALL's target check for each lane as if it held the len (the last payload dword):
    // the target is the dword before it, in this group or the last one (masks are contiguous),
    // checked from the data alone so that it is not in series with the header walk.
    tgt_at[0] = ps_q.target;
    for (int unsigned k = 1; k < Lanes; k++) begin
      tgt_at[k] = rd_mask[k - 1] ? rd_data[k - 1] : ps_q.target;
    end
    for (int unsigned k = 0; k < Lanes; k++) begin
      tgt_ok[k] = (tgt_at[k][1:0] == 2'b00) &&
                  range_ok(tgt_at[k], 35'({rd_data[k], 2'b00}), valid_base_i, valid_limit_i);
    end
    // IB dwords left before lane k: rem less the group's live lanes below k (from the mask, so
    // no lane waits for the ones before it to count).
    for (int unsigned k = 0; k < Lanes; k++) begin
      npre = '0;
      for (int unsigned j = 0; j < k; j++) npre = npre + 3'(rd_mask[j]);
      rem_at[k] = ps_q.at.rem - 32'(npre);
    end

    // The header walk, in parallel: the group's first header is skip lanes after its first live
    // lane, each header's successor len + 1 lanes after it; hdr[k] is an OR over the lanes below
    // of small compares (len = 0, 1, 2), not a chain of payload counters.
    first = '0;
    for (int k = Lanes - 1; k >= 0; k--) begin
      if (rd_mask[k]) first = 2'(k);
    end
    for (int unsigned k = 0; k < Lanes; k++) begin
      op_k[k]  = rd_data[k][pineda_pkg::CMD_OP_MSB:pineda_pkg::CMD_OP_LSB];
      len_k[k] = rd_data[k][pineda_pkg::CMD_LEN_MSB:pineda_pkg::CMD_LEN_LSB];
      ijc[k]   = (op_k[k] == pineda_pkg::OP_JUMP) || (op_k[k] == pineda_pkg::OP_CALL);
      icall[k] = (op_k[k] == pineda_pkg::OP_CALL);
      iret[k]  = (op_k[k] == pineda_pkg::OP_RET);
      h0hit[k] = (ps_q.skip[11:2] == 10'd0) && ({1'b0, first} + {1'b0, ps_q.skip[1:0]} == 3'(k));
    end
    for (int unsigned k = 0; k < Lanes; k++) begin
      hdr[k] = h0hit[k];
      for (int unsigned j = 0; j < k; j++) begin
        if (hdr[j] && (len_k[j] == 12'(k - j - 1))) hdr[k] = 1'b1;
      end
      // a JUMP/CALL (OP_JUMP_LEN = 2): its target one lane on, its len (the last payload) two
      lastpay[k] = ps_q.cj && ((ps_q.skip == 12'd1 && 2'(k) == first) ||
                               (ps_q.skip == 12'd2 && 3'(k) == {1'b0, first} + 3'd1));
      tpay[k]    = ps_q.cj && (ps_q.skip == 12'd2) && (2'(k) == first);
      for (int unsigned j = 0; j < k; j++) begin
        if (hdr[j] && ijc[j] && (len_k[j] == pineda_pkg::OP_JUMP_LEN)) begin
          if (j + 2 == k) lastpay[k] = 1'b1;
          if (j + 1 == k) tpay[k] = 1'b1;
        end
      end
    end
    // What each lane would do if the walk reaches it; where the decoder will stop with an
    // error, stop too.
    for (int unsigned k = 0; k < Lanes; k++) begin
      fit_err[k] = ps_q.at.in_ib && (33'(len_k[k]) + 33'd1 > 33'(rem_at[k]));
      ret_ok[k]  = (len_k[k] == pineda_pkg::OP_RET_LEN) && ps_q.at.in_ib;
      hpark[k]   = hdr[k] && (fit_err[k] ||
                   (ijc[k] && (len_k[k] != pineda_pkg::OP_JUMP_LEN ||
                               (icall[k] && ps_q.at.sp == SpW'(Depth)))) ||
                   (iret[k] && !ret_ok[k]));
      cut[k]     = hdr[k] && !fit_err[k] && iret[k] && ret_ok[k] && (rem_at[k] > 32'(RetCut));
      dev[k]     = hdr[k] && !fit_err[k] && iret[k] && ret_ok[k] && !(rem_at[k] > 32'(RetCut));
      lpark[k]   = lastpay[k] && !tgt_ok[k];
      redir[k]   = lastpay[k] && tgt_ok[k];
      stp[k]     = hpark[k] || cut[k] || lpark[k] || redir[k];
      kill[k]    = rd_mask[k] && (stp[k] || dev[k]);
    end
    // Lanes the walk passes: up to and including the first that stops it (or starts dropping).
    for (int unsigned k = 0; k < Lanes; k++) begin
      proc[k] = rd_mask[k] && !ps_q.dead;
      for (int unsigned j = 0; j < k; j++) begin
        if (kill[j]) proc[k] = 1'b0;
      end
      ev_at[k] = proc[k] && kill[k];
      jcset[k] = proc[k] && hdr[k] && ijc[k] && !hpark[k];
    end
    lh = '0;  // the last header passed
    for (int unsigned k = 0; k < Lanes; k++) begin
      if (proc[k] && hdr[k]) lh = Lanes'(1) << k;
    end
    cnt_mask = '0;
    cnt_proc = '0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      cnt_mask = cnt_mask + 3'(rd_mask[k]);
      cnt_proc = cnt_proc + 3'(proc[k]);
      // payload of lane k's command left after the group (if it is the last header)
      above = '0;
      for (int unsigned j = k + 1; j < Lanes; j++) above = above + 3'(rd_mask[j]);
      skc[k] = len_k[k] - 12'(above);
    end

    if (!ps_q.parked) begin
      if (ps_q.at.in_ib && ps_q.at.rem == 32'd0) begin
        pop_ps = 1'b1;  // the IB is used up (or dropped after a RET): continue at the return
      end else if (rd_valid && dq_room) begin
        rd_ready = 1'b1;
        live     = proc;
        adv      = (|(ev_at & stp)) ? cnt_proc : cnt_mask;
        for (int unsigned k = 0; k < Lanes; k++) begin
          if (ev_at[k] && (hpark[k] || lpark[k])) ps_d.parked = 1'b1;
          if (ev_at[k] && redir[k]) begin
            redirect     = 1'b1;
            redirect_len = rd_data[k];
          end
          if (ev_at[k] && cut[k]) ret_cut = 1'b1;  // much of the IB left: refetch at the return
          if (ev_at[k] && dev[k]) ps_d.dead = 1'b1; // drop the rest of the IB as it arrives
          if (proc[k] && tpay[k]) ps_d.target = rd_data[k];
          if (jcset[k]) ps_d.call = icall[k];
        end
        if (!ps_q.dead) begin
          if (ev_at != '0) begin
            ps_d.skip = '0;
            ps_d.cj   = 1'b0;
          end else if (lh != '0) begin
            for (int unsigned k = 0; k < Lanes; k++) begin
              if (lh[k]) begin
                ps_d.skip = skc[k];
                ps_d.cj   = ijc[k];
              end
            end
          end else begin
            ps_d.skip = ps_q.skip - 12'(cnt_mask);
          end
        end
        // Position after the group's passed dwords, in one step. A group holds one reader job's
        // dwords, and a ring job ends at the ring's end at the latest, so the ring pointer meets
        // ring_size only after the last of them.
        if (ps_q.at.in_ib) begin
          ps_d.at.addr = ps_q.at.addr + {27'd0, adv, 2'b00};
          ps_d.at.rem  = ps_q.at.rem - 32'(adv);
        end else begin
          pring_inc  = ps_q.pring + {27'd0, adv, 2'b00};
          ps_d.pring = (pring_inc == ring_size_i) ? 32'd0 : pring_inc;
        end
        dq_push = (live != '0);
      end
    end

    if (redirect) begin
      // Enter the target; a CALL first pushes the return position (the dword after it).
      if (ps_d.call) begin
        ps_d.at.stk_ring[ps_d.at.sp[1:0]] = !ps_d.at.in_ib;
        ps_d.at.stk_addr[ps_d.at.sp[1:0]] = ps_d.at.addr;
        ps_d.at.stk_rem[ps_d.at.sp[1:0]]  = ps_d.at.rem;
        ps_d.at.sp                        = ps_d.at.sp + SpW'(1);
      end
      ps_d.at.in_ib = 1'b1;
      ps_d.at.addr  = ps_d.target;
      ps_d.at.rem   = redirect_len;
      ps_d.dead     = 1'b0;
    end

    if (pop_ps || ret_cut) begin
      ps_d.dead = 1'b0;
      ps_d.skip = '0;
      if (ps_d.at.sp != '0) begin
        ps_d.at.sp    = ps_d.at.sp - SpW'(1);
        ps_d.at.in_ib = !ps_d.at.stk_ring[2'(ps_d.at.sp)];
        ps_d.at.addr  = ps_d.at.stk_addr[2'(ps_d.at.sp)];
        ps_d.at.rem   = ps_d.at.stk_rem[2'(ps_d.at.sp)];
      end else begin
        ps_d.at.in_ib = 1'b0;  // an IB entered by JUMP from the ring returns to the ring
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Request side
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    rq_d      = rq_q;
    job.valid = 1'b0;
    job.addr  = rq_q.at.addr;
    job.count = {1'b0, rq_q.at.rem};
    span      = (ring_wptr_i > rq_q.fetch_ptr) ? (ring_wptr_i - rq_q.fetch_ptr)
                                               : (ring_size_i - rq_q.fetch_ptr);
    if (rq_q.at.in_ib) begin
      if (rq_q.pending) begin
        job.valid = !error_i;
      end else if (rq_q.at.sp != '0) begin
        // The IB's job is out: the return position comes next in decode order.
        rq_d.at.sp      = rq_q.at.sp - SpW'(1);
        rq_d.at.in_ib   = !rq_q.at.stk_ring[2'(rq_q.at.sp - SpW'(1))];
        rq_d.at.addr    = rq_q.at.stk_addr[2'(rq_q.at.sp - SpW'(1))];
        rq_d.at.rem     = rq_q.at.stk_rem[2'(rq_q.at.sp - SpW'(1))];
        rq_d.pending    = !rq_q.at.stk_ring[2'(rq_q.at.sp - SpW'(1))];
      end else begin
        rq_d.at.in_ib = 1'b0;
      end
    end else begin
      job.valid = enable_i && !error_i && ring_ok_i && (rq_q.fetch_ptr != ring_wptr_i);
      job.addr  = ring_base_i + rq_q.fetch_ptr;
      job.count = {3'b000, span[31:2]};
    end
    job_fire = job.valid && job_ready && !flush;
    if (job_fire) begin
      if (rq_q.at.in_ib) begin
        rq_d.pending = 1'b0;
      end else begin
        rq_d.fetch_ptr = rq_q.fetch_ptr + span;
        if (rq_d.fetch_ptr == ring_size_i) rq_d.fetch_ptr = '0;
      end
    end

    // A redirect (or a RET cut short) restarts the requests at the parser's new position.
    if (redirect || ret_cut) begin
      rq_d.at        = ps_d.at;
      rq_d.pending   = ps_d.at.in_ib;
      rq_d.fetch_ptr = ps_d.pring;
    end
  end

  // Resync: both sides at the decoder's position.
  where_t pos;
  always_comb begin
    pos.in_ib    = pos_in_ib_i;
    pos.addr     = pos_ib_addr_i;
    pos.rem      = pos_ib_rem_i;
    pos.stk_ring = pos_stk_ring_i;
    pos.stk_addr = pos_stk_addr_i;
    pos.stk_rem  = pos_stk_rem_i;
    pos.sp       = pos_sp_i;
    flush        = redirect || ret_cut || resync_i;
  end

  parse_t ps_n;
  req_t   rq_n;
  always_comb begin
    ps_n = ps_d;
    rq_n = rq_d;
    if (resync_i) begin
      ps_n           = '0;
      ps_n.at        = pos;
      ps_n.pring     = pos_ring_rptr_i;
      rq_n           = '0;
      rq_n.at        = pos;
      rq_n.pending   = pos_in_ib_i;
      rq_n.fetch_ptr = pos_ring_rptr_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ps_q     <= '0;
      rq_q     <= '0;
      used_q   <= '0;
      dq_cnt_q <= '0;
    end else begin
      ps_q     <= ps_n;
      rq_q     <= rq_n;
      used_q   <= used_d;
      dq_cnt_q <= dq_cnt_d;
    end
  end

  assign parked_o = ps_q.parked;
  assign idle_o   = reader_idle && dq_empty;

  logic unused_sig;
  assign unused_sig = ^{rd_last, dq_full, dq_count};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      ParseStack: assert (32'(ps_q.at.sp) <= Depth)
        else $error("cp_fetch: parser return stack holds %0d entries", ps_q.at.sp);
      NoPushIntoFull: assert (!(dq_push && !dq_in_ready))
        else $error("cp_fetch: push into a full decode FIFO");
    end
  end
`endif

endmodule
