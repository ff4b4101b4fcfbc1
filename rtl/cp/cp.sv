// cp: command processor, encoding v2 (docs/contract.md §3-§4).
//
// - Host register file: ID, CONTROL, STATUS, RING_BASE/SIZE/WPTR/RPTR, ERROR_CAUSE/ADDR,
//   IRQ_STATUS (W1C), IRQ_ENABLE, INT_PAYLOAD, VALID_BASE/LIMIT, WATCHDOG, IB_DEPTH,
//   FENCE0..15. reg_rdata_o is combinational from reg_addr_i; addresses the CP does not own
//   read 0. Writes take effect at the clock edge.
// - Fetch: one mem_stream_reader. In the ring, one read job per contiguous span (fetch pointer
//   up to WPTR, or up to the end of the ring, then wrap to 0), only while the ring lies inside
//   the valid window. In an indirect buffer (IB), one job for the rest of the IB. Every change of
//   position (JUMP, CALL, RET, end of an IB, CONTROL.CP_RESET) flushes the reader, discarding
//   prefetched dwords and reads still in flight, and starts fetching at the new position.
// - Decoder: one dword per clock from the prefetch FIFO. Headers are checked on their own
//   (opcode, len incl. "fits in the IB", arg, return stack) before any payload is consumed; on
//   such an error the header is not consumed. JUMP/CALL targets and COPY ranges are checked when
//   the last payload dword arrives; on such an error RING_RPTR goes back to the header. Either
//   way nothing of the command executes and nothing more is decoded until CONTROL.CP_RESET.
//   SET_STATE writes the 16 state registers (indices [0, NUM_STATE)) or, for indices
//   [NUM_STATE, FE_STATE_END), sends one front-end state write per dword on fe_o (FE_IB_BASE
//   and FE_IB_SIZE are also kept here for the idraw packets). DRAW emits a draw_pkt_t carrying
//   the state it needs on out_o (the pre-transformed path through IA); DRAW_FE emits an
//   idraw_pkt_t on fe_o (the geometry front end). The two paths meet in front of SETUP; the CP
//   keeps them in order by switching path only when the other one has drained (ia_idle_i /
//   fe_idle_i and its own output register empty): a draw for the other path waits for that.
//   Tokens go down the current path (path_q: the path of the last draw). WRITE_REG writes a fence at once (top of pipe) or, at the end of pipe, queues the
//   write (EOP_QUEUE_DEPTH entries) and emits an end-of-pipe token (draw_pkt_t with eop = 1)
//   behind the earlier draws; every unit forwards the token in order and the pixel writer
//   returns it on eop_done_* once every earlier write is acknowledged, which writes the oldest
//   queued fence. Decoding goes on meanwhile. A top-of-pipe WRITE_REG to a register with an
//   end-of-pipe write queued waits for it (writes to one register land in decode order); an
//   end-of-pipe WRITE_REG with the queue full waits for a completion. WAIT_REG blocks until its
//   compare holds (watchdog: ERR_WAIT_TIMEOUT), INTERRUPT sets INT_PAYLOAD and IRQ INTERRUPT,
//   COPY waits for the pipeline to drain and the DMA to be idle, hands the job to the DMA and
//   waits until the DMA is idle again (every copy write acknowledged), END halts.
// Throughput: one command dword per clock (a DRAW is 3 clocks, one draw packet per 3 clocks).
// Latency: header to draw packet on out_o = 3 clocks; a change of position costs one memory
// round trip (the prefetch restarts).
module cp #(
  parameter int unsigned FetchDepth = 256
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Host register port
  input  logic                    reg_valid_i,
  input  logic                    reg_we_i,
  input  logic [7:0]              reg_addr_i,
  input  logic [31:0]             reg_wdata_i,
  output logic [31:0]             reg_rdata_o,
  output logic                    irq_o,
  // Memory client port (command fetch)
  output logic                    mem_req_valid_o,
  input  logic                    mem_req_ready_i,
  output pineda_pkg::mem_req_t    mem_req_o,
  input  logic                    mem_rsp_valid_i,
  output logic                    mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t    mem_rsp_i,
  // Draw output
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output pineda_pkg::draw_pkt_t   out_o,
  // Front-end output: DRAW_FE draws, front-end state writes, tokens while path_q = FE
  output logic                    fe_valid_o,
  input  logic                    fe_ready_i,
  output pineda_pkg::idraw_pkt_t  fe_o,
  // Copy jobs to the DMA (offered only while dma_idle_i, which is the DMA's job ready)
  output logic                    copy_valid_o,
  input  logic                    copy_ready_i,
  output logic [31:0]             copy_src_o,
  output logic [31:0]             copy_dst_o,
  output logic [31:0]             copy_len_o,
  input  logic                    dma_idle_i,
  // End-of-pipe completions (one per token, in order; always accepted)
  input  logic                    eop_done_valid_i,
  output logic                    eop_done_ready_o,
  // Status
  input  logic                    pipe_idle_i,  // every unit after the CP idle, boundaries empty
  input  logic                    ia_idle_i,    // the pre-transformed path (IA) has drained
  input  logic                    fe_idle_i,    // the front-end path (index fetch .. PA) has drained
  output logic                    idle_o
);

  typedef enum logic [2:0] {
    DecHdr     = 3'd0,  // next dword is a command header
    DecPayload = 3'd1,  // consuming the payload of op_q
    DecWait    = 3'd3,  // WAIT_REG: compare does not hold yet
    DecCopy    = 3'd4,  // COPY: waiting for the pipeline and the DMA to be idle
    DecCopyRun = 3'd5   // COPY: handed to the DMA, waiting for it to finish
  } dec_state_e;

  localparam logic [31:0] IdValue  = 32'h5049_0000 | pineda_pkg::CONTRACT_VERSION;
  localparam logic [14:0] MaxDim   = 15'(pineda_pkg::MAX_RT_DIM);
  localparam int unsigned Depth    = pineda_pkg::RET_STACK_DEPTH;
  localparam int unsigned IrqW     = 3;
  localparam int unsigned EopDepth = pineda_pkg::EOP_QUEUE_DEPTH;
  localparam int unsigned EopW     = $clog2(EopDepth);

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  logic [31:0]       control_q,     control_d;
  logic              halted_q,      halted_d;
  logic              error_q,       error_d;
  logic [31:0]       ring_base_q,   ring_base_d;
  logic [31:0]       ring_size_q,   ring_size_d;
  logic [31:0]       ring_wptr_q,   ring_wptr_d;
  logic [31:0]       ring_rptr_q,   ring_rptr_d;
  logic [31:0]       fetch_ptr_q,   fetch_ptr_d;
  logic [31:0]       err_cause_q,   err_cause_d;
  logic [31:0]       err_addr_q,    err_addr_d;
  logic [IrqW-1:0]   irq_status_q,  irq_status_d;
  logic [31:0]       irq_enable_q,  irq_enable_d;
  logic [31:0]       int_payload_q, int_payload_d;
  logic [31:0]       valid_base_q,  valid_base_d;
  logic [31:0]       valid_limit_q, valid_limit_d;
  logic [31:0]       watchdog_q,    watchdog_d;
  logic [15:0][31:0] fence_q,       fence_d;
  logic [15:0][31:0] state_q,       state_d;
  dec_state_e        dec_q,         dec_d;
  logic [7:0]        op_q,          op_d;
  logic [11:0]       cnt_q,         cnt_d;       // payload dwords left
  logic [5:0]        idx_q,         idx_d;       // SET_STATE index / fence index / DRAW_FE flags
  logic              eop_q,         eop_d;       // arg[11]: WRITE_REG end of pipe, WAIT_REG >=
  logic [31:0]       word_q,        word_d;      // payload 0 (DRAW first vertex, fence value, target, src)
  logic [31:0]       word1_q,       word1_d;     // payload 1 (COPY dst, DRAW_FE count)
  logic [31:0]       word2_q,       word2_d;     // payload 2 (DRAW_FE base vertex)
  logic [31:0]       word3_q,       word3_d;     // payload 3 (DRAW_FE instance count)
  logic              path_q,        path_d;      // path of the last draw: 0 IA, 1 front end
  logic [31:0]       ib_base_q,     ib_base_d;   // FE_IB_BASE
  logic [31:0]       ib_size_q,     ib_size_d;   // FE_IB_SIZE
  logic [31:0]       copy_len_q,    copy_len_d;
  logic [15:0]       draw_id_q,     draw_id_d;
  logic [31:0]       hdr_addr_q,    hdr_addr_d;  // byte address of the current command's header
  logic [31:0]       hdr_rptr_q,    hdr_rptr_d;  // RING_RPTR at that header
  logic [31:0]       wd_cnt_q,      wd_cnt_d;    // cycles spent in DecWait
  // Position: the ring, or an IB (next dword address, dwords left); return stack.
  logic              in_ib_q,       in_ib_d;
  logic [31:0]       ib_addr_q,     ib_addr_d;
  logic [31:0]       ib_rem_q,      ib_rem_d;
  logic              ibjob_q,       ibjob_d;     // the IB's fetch job is still to be issued
  logic [Depth-1:0]         stk_ring_q, stk_ring_d;
  logic [Depth-1:0][31:0]   stk_addr_q, stk_addr_d;
  logic [Depth-1:0][31:0]   stk_rem_q,  stk_rem_d;
  logic [2:0]               sp_q,       sp_d;
  // End-of-pipe fence writes in flight (a ring of EopDepth entries from eop_head_q).
  logic [EopDepth-1:0][3:0]  eop_idx_q,  eop_idx_d;
  logic [EopDepth-1:0][31:0] eop_val_q,  eop_val_d;
  logic [EopW-1:0]           eop_head_q, eop_head_d;
  logic [EopW:0]             eop_cnt_q,  eop_cnt_d;

  // ---------------------------------------------------------------------------------------------
  // Valid address window
  // ---------------------------------------------------------------------------------------------
  // [addr, addr + bytes) inside [VALID_BASE, VALID_LIMIT]; true for bytes == 0.
  function automatic logic range_ok(input logic [31:0] addr, input logic [34:0] bytes,
                                    input logic [31:0] lo, input logic [31:0] hi);
    range_ok = (bytes == 35'd0) ||
               ((addr >= lo) && (35'(addr) + bytes - 35'd1 <= 35'(hi)));
  endfunction

  logic ring_ok;
  assign ring_ok = range_ok(ring_base_q, 35'(ring_size_q), valid_base_q, valid_limit_q);

  // ---------------------------------------------------------------------------------------------
  // Fetch
  // ---------------------------------------------------------------------------------------------
  logic        job_valid, job_ready, job_take;
  logic [31:0] job_addr, span;
  logic [32:0] job_count;
  logic        fifo_valid, fifo_ready;
  logic [31:0] fifo_data;
  logic        reader_idle;
  logic        flush;

  // The job interface is internal: job_addr/job_count are sampled when job_ready is high
  // (a registered signal of the reader), so it is fine that they follow RING_WPTR. The reader
  // ignores a job in a flush cycle (job_take).
  always_comb begin
    span = (ring_wptr_q > fetch_ptr_q) ? (ring_wptr_q - fetch_ptr_q)
                                       : (ring_size_q - fetch_ptr_q);
    if (in_ib_q) begin
      job_valid = ibjob_q && !error_q;
      job_addr  = ib_addr_q;
      job_count = {1'b0, ib_rem_q};
    end else begin
      job_valid = control_q[0] && !error_q && ring_ok && (fetch_ptr_q != ring_wptr_q);
      job_addr  = ring_base_q + fetch_ptr_q;
      job_count = {3'b000, span[31:2]};
    end
  end

  mem_stream_reader #(
    .Depth(FetchDepth)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .flush_i         (flush),
    .job_valid_i     (job_valid),
    .job_ready_o     (job_ready),
    .job_addr_i      (job_addr),
    .job_count_i     (job_count),
    .out_valid_o     (fifo_valid),
    .out_ready_i     (fifo_ready),
    .out_data_o      (fifo_data),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_o,
    .mem_rsp_valid_i,
    .mem_rsp_ready_o,
    .mem_rsp_i,
    .idle_o          (reader_idle)
  );

  // ---------------------------------------------------------------------------------------------
  // Draw output register
  // ---------------------------------------------------------------------------------------------
  logic                  draw_push, draw_ready;
  pineda_pkg::draw_pkt_t draw_pkt;
  logic                  out_empty;

  stream_reg #(
    .Width($bits(draw_pkt))
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (draw_push),
    .in_ready_o  (draw_ready),
    .in_data_i   (draw_pkt),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  (out_o)
  );

  // The skid entry of stream_reg is only ever full when the main entry is.
  assign out_empty = ~out_valid_o;

  logic                   fe_push, fe_ready;
  pineda_pkg::idraw_pkt_t fe_pkt;
  logic                   fe_empty;

  stream_reg #(
    .Width($bits(fe_pkt))
  ) u_fe_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (fe_push),
    .in_ready_o  (fe_ready),
    .in_data_i   (fe_pkt),
    .out_valid_o (fe_valid_o),
    .out_ready_i (fe_ready_i),
    .out_data_o  (fe_o)
  );

  assign fe_empty = ~fe_valid_o;

  // Front-end packet: a state write (SET_STATE payload), a draw (DRAW_FE's last dword) or a
  // token (end-of-pipe WRITE_REG).
  always_comb begin
    fe_pkt = '0;
    unique case (32'(op_q))
      pineda_pkg::OP_SET_STATE: begin
        fe_pkt.wr     = 1'b1;
        fe_pkt.wr_idx = 8'(idx_q);
        fe_pkt.wr_val = fifo_data;
      end
      pineda_pkg::OP_WRITE_REG: fe_pkt.eop = 1'b1;
      default: begin
        fe_pkt.indexed        = idx_q[0];
        fe_pkt.index32        = idx_q[1];
        fe_pkt.strip          = idx_q[2];
        fe_pkt.restart        = idx_q[3];
        fe_pkt.ib_base        = ib_base_q;
        fe_pkt.ib_size        = ib_size_q;
        fe_pkt.first          = word_q;
        fe_pkt.count          = word1_q;
        fe_pkt.base_vertex    = word2_q;
        fe_pkt.instance_count = word3_q;
        fe_pkt.start_instance = fifo_data;
        fe_pkt.draw_id        = draw_id_q;
      end
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // Draw packet from the state registers (docs/contract.md §4)
  // ---------------------------------------------------------------------------------------------
  logic [14:0] rt_w, rt_h;

  function automatic logic [14:0] min_dim(input logic [15:0] v, input logic [14:0] lim);
    min_dim = (v < {1'b0, lim}) ? v[14:0] : lim;
  endfunction

  always_comb begin
    rt_w = min_dim(state_q[pineda_pkg::ST_RT_SIZE][15:0],  MaxDim);
    rt_h = min_dim(state_q[pineda_pkg::ST_RT_SIZE][31:16], MaxDim);

    draw_pkt              = '0;
    draw_pkt.vb_base      = state_q[pineda_pkg::ST_VB_BASE];
    draw_pkt.first_vertex = word_q;
    draw_pkt.vertex_count = fifo_data;
    draw_pkt.color        = state_q[pineda_pkg::ST_COLOR];
    draw_pkt.target.base  = state_q[pineda_pkg::ST_RT_BASE];
    draw_pkt.target.pitch = state_q[pineda_pkg::ST_RT_PITCH][15:0];
    draw_pkt.target.msaa  = state_q[pineda_pkg::ST_RT_PITCH][16];  // 4x MSAA
    draw_pkt.clip.x0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][15:0],  rt_w);
    draw_pkt.clip.x1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][31:16], rt_w);
    draw_pkt.clip.y0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][15:0],  rt_h);
    draw_pkt.clip.y1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][31:16], rt_h);
    draw_pkt.draw_id      = draw_id_q;
    if (32'(op_q) == pineda_pkg::OP_WRITE_REG) begin
      draw_pkt     = '0;  // end-of-pipe token
      draw_pkt.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Header checks (from the header and the CP's position alone)
  // ---------------------------------------------------------------------------------------------
  logic [7:0]  hdr_op;
  logic [11:0] hdr_arg;
  logic [11:0] hdr_len;
  logic        hdr_err;
  logic [31:0] hdr_cause;

  always_comb begin
    hdr_op    = fifo_data[pineda_pkg::CMD_OP_MSB:pineda_pkg::CMD_OP_LSB];
    hdr_arg   = fifo_data[pineda_pkg::CMD_ARG_MSB:pineda_pkg::CMD_ARG_LSB];
    hdr_len   = fifo_data[pineda_pkg::CMD_LEN_MSB:pineda_pkg::CMD_LEN_LSB];
    hdr_cause = pineda_pkg::ERR_NONE;
    unique case (32'(hdr_op))
      pineda_pkg::OP_NOP: ;
      pineda_pkg::OP_SET_STATE: begin
        if ((13'(hdr_arg) + 13'(hdr_len)) > 13'(pineda_pkg::FE_STATE_END)) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_DRAW_FE: begin
        if (hdr_len != 12'd5) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[11:4] != 8'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_DRAW, pineda_pkg::OP_JUMP, pineda_pkg::OP_CALL: begin
        if (hdr_len != 12'd2) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_WRITE_REG, pineda_pkg::OP_WAIT_REG: begin
        if (hdr_len != 12'd1) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[10:4] != 7'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_INTERRUPT: begin
        if (hdr_len != 12'd1) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_COPY: begin
        if (hdr_len != 12'd3) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_RET, pineda_pkg::OP_END: begin
        if (hdr_len != 12'd0) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      default: hdr_cause = pineda_pkg::ERR_BAD_OPCODE;
    endcase
    // The command must fit in what is left of the IB (a len check: before arg).
    if (hdr_cause != pineda_pkg::ERR_BAD_OPCODE && hdr_cause != pineda_pkg::ERR_BAD_LEN &&
        in_ib_q && (33'(hdr_len) + 33'd1 > 33'(ib_rem_q))) begin
      hdr_cause = pineda_pkg::ERR_BAD_LEN;
    end
    if (hdr_cause == pineda_pkg::ERR_NONE && 32'(hdr_op) == pineda_pkg::OP_CALL &&
        32'(sp_q) == Depth) begin
      hdr_cause = pineda_pkg::ERR_STACK_OVERFLOW;
    end
    if (hdr_cause == pineda_pkg::ERR_NONE && 32'(hdr_op) == pineda_pkg::OP_RET && !in_ib_q) begin
      hdr_cause = pineda_pkg::ERR_STACK_UNDERFLOW;
    end
    hdr_err = (hdr_cause != pineda_pkg::ERR_NONE);
  end

  // ---------------------------------------------------------------------------------------------
  // Payload-time checks: JUMP/CALL target (word_q, fifo_data dwords), COPY ranges
  // (word_q -> word1_q, fifo_data bytes)
  // ---------------------------------------------------------------------------------------------
  logic        target_bad;
  logic        copy_addr_bad, copy_overlap;
  logic [32:0] src_end, dst_end;

  always_comb begin
    target_bad    = (word_q[1:0] != 2'b00) ||
                    !range_ok(word_q, 35'({fifo_data, 2'b00}), valid_base_q, valid_limit_q);
    copy_addr_bad = !range_ok(word_q,  35'(fifo_data), valid_base_q, valid_limit_q) ||
                    !range_ok(word1_q, 35'(fifo_data), valid_base_q, valid_limit_q);
    src_end       = 33'(word_q)  + 33'(fifo_data);
    dst_end       = 33'(word1_q) + 33'(fifo_data);
    copy_overlap  = (fifo_data != 32'd0) && (33'(word_q) < dst_end) && (33'(word1_q) < src_end);
  end

  // ---------------------------------------------------------------------------------------------
  // Decoder and register file
  // ---------------------------------------------------------------------------------------------
  logic        run;         // decoding allowed
  logic        consume;     // one dword taken from the prefetch FIFO
  logic        fence_we;
  logic [3:0]  fence_widx;
  logic [31:0] fence_wdata;
  logic        set_end;
  logic        set_error;
  logic        set_int;
  logic [31:0] cause;
  logic [31:0] cause_addr;
  logic        pay_error;   // payload-time error: RPTR back on the header
  logic        do_ret;
  logic        do_enter;
  logic        cp_reset;
  logic        host_we;
  logic [31:0] rptr_inc;
  logic [31:0] cur_addr;
  logic        wait_cond;
  logic [31:0] wait_diff;
  logic [1:0]  top_idx;
  logic [1:0]  push_idx;
  logic [31:0] wd_next;
  logic        eop_full;      // no free entry for an end-of-pipe write
  logic        eop_same;      // an end-of-pipe write to fence idx_q is queued
  logic        eop_push, eop_pop;
  logic [EopW-1:0] eop_tail;
  logic [EopW-1:0] eop_rel;

  always_comb begin
    control_d     = control_q;
    halted_d      = halted_q;
    error_d       = error_q;
    ring_base_d   = ring_base_q;
    ring_size_d   = ring_size_q;
    ring_wptr_d   = ring_wptr_q;
    ring_rptr_d   = ring_rptr_q;
    fetch_ptr_d   = fetch_ptr_q;
    err_cause_d   = err_cause_q;
    err_addr_d    = err_addr_q;
    irq_status_d  = irq_status_q;
    irq_enable_d  = irq_enable_q;
    int_payload_d = int_payload_q;
    valid_base_d  = valid_base_q;
    valid_limit_d = valid_limit_q;
    watchdog_d    = watchdog_q;
    fence_d       = fence_q;
    state_d       = state_q;
    dec_d         = dec_q;
    op_d          = op_q;
    cnt_d         = cnt_q;
    idx_d         = idx_q;
    eop_d         = eop_q;
    word_d        = word_q;
    word1_d       = word1_q;
    word2_d       = word2_q;
    word3_d       = word3_q;
    path_d        = path_q;
    ib_base_d     = ib_base_q;
    ib_size_d     = ib_size_q;
    copy_len_d    = copy_len_q;
    draw_id_d     = draw_id_q;
    hdr_addr_d    = hdr_addr_q;
    hdr_rptr_d    = hdr_rptr_q;
    wd_cnt_d      = wd_cnt_q;
    in_ib_d       = in_ib_q;
    ib_addr_d     = ib_addr_q;
    ib_rem_d      = ib_rem_q;
    ibjob_d       = ibjob_q;
    stk_ring_d    = stk_ring_q;
    stk_addr_d    = stk_addr_q;
    stk_rem_d     = stk_rem_q;
    sp_d          = sp_q;
    eop_idx_d     = eop_idx_q;
    eop_val_d     = eop_val_q;
    eop_head_d    = eop_head_q;
    eop_cnt_d     = eop_cnt_q;

    consume      = 1'b0;
    eop_push     = 1'b0;
    draw_push    = 1'b0;
    fe_push      = 1'b0;
    fence_we     = 1'b0;
    fence_widx   = idx_q[3:0];
    fence_wdata  = fifo_data;
    set_end      = 1'b0;
    set_error    = 1'b0;
    set_int      = 1'b0;
    cause        = pineda_pkg::ERR_NONE;
    cause_addr   = hdr_addr_q;
    pay_error    = 1'b0;
    do_ret       = 1'b0;
    do_enter     = 1'b0;
    flush        = 1'b0;
    copy_valid_o = 1'b0;

    run       = control_q[0] && !halted_q && !error_q;
    cur_addr  = in_ib_q ? ib_addr_q : (ring_base_q + ring_rptr_q);
    wait_diff = fence_q[idx_q[3:0]] - word_q;
    wait_cond = eop_q ? !wait_diff[31] : (fence_q[idx_q[3:0]] == word_q);
    top_idx   = 2'(sp_q - 3'd1);
    push_idx  = sp_q[1:0];
    wd_next   = wd_cnt_q + 32'd1;
    eop_full  = (eop_cnt_q == (EopW+1)'(EopDepth));
    eop_tail  = eop_head_q + eop_cnt_q[EopW-1:0];
    eop_same  = 1'b0;
    for (int k = 0; k < EopDepth; k++) begin
      // Entry k is queued when (k - head) mod EopDepth < count.
      eop_rel = EopW'(k) - eop_head_q;
      if ({1'b0, eop_rel} < eop_cnt_q && eop_idx_q[k] == idx_q[3:0]) begin
        eop_same = 1'b1;
      end
    end

    unique case (dec_q)
      DecHdr: begin
        if (run) begin
          if (in_ib_q && ib_rem_q == 32'd0) begin
            do_ret = 1'b1;  // the IB ran out of dwords
          end else if (!in_ib_q && (ring_rptr_q != ring_wptr_q) && !ring_ok) begin
            set_error  = 1'b1;
            cause      = pineda_pkg::ERR_BAD_ADDR;
            cause_addr = cur_addr;
          end else if (fifo_valid) begin
            if (hdr_err) begin
              set_error  = 1'b1;
              cause      = hdr_cause;
              cause_addr = cur_addr;
            end else begin
              consume    = 1'b1;
              op_d       = hdr_op;
              cnt_d      = hdr_len;
              idx_d      = hdr_arg[5:0];
              eop_d      = hdr_arg[pineda_pkg::WRITE_REG_EOP_BIT];
              hdr_addr_d = cur_addr;
              hdr_rptr_d = ring_rptr_q;
              if (32'(hdr_op) == pineda_pkg::OP_END) begin
                set_end = 1'b1;
              end else if (32'(hdr_op) == pineda_pkg::OP_RET) begin
                do_ret = 1'b1;
              end else if (hdr_len != 12'd0) begin
                dec_d = DecPayload;
              end
            end
          end
        end
      end

      DecPayload: begin
        if (run && fifo_valid) begin
          unique case (32'(op_q))
            pineda_pkg::OP_SET_STATE: begin
              if (32'(idx_q) < pineda_pkg::NUM_STATE) begin
                consume                 = 1'b1;
                state_d[idx_q[3:0]]     = fifo_data;
                idx_d                   = idx_q + 6'd1;
              end else if (fe_ready) begin
                consume = 1'b1;  // front-end state: sent down the front end
                fe_push = 1'b1;
                idx_d   = idx_q + 6'd1;
                if (32'(idx_q) == pineda_pkg::FE_IB_BASE) ib_base_d = fifo_data;
                if (32'(idx_q) == pineda_pkg::FE_IB_SIZE) ib_size_d = fifo_data;
              end
            end
            pineda_pkg::OP_DRAW: begin
              if (cnt_q == 12'd2) begin
                consume = 1'b1;
                word_d  = fifo_data;  // first vertex
              end else if (draw_ready && (!path_q || (fe_idle_i && fe_empty))) begin
                consume   = 1'b1;     // vertex count: emit the draw
                draw_push = 1'b1;
                draw_id_d = draw_id_q + 16'd1;
                path_d    = 1'b0;
              end
            end
            pineda_pkg::OP_DRAW_FE: begin
              unique case (cnt_q)
                12'd5: begin consume = 1'b1; word_d  = fifo_data; end  // first
                12'd4: begin consume = 1'b1; word1_d = fifo_data; end  // count
                12'd3: begin consume = 1'b1; word2_d = fifo_data; end  // base vertex
                12'd2: begin consume = 1'b1; word3_d = fifo_data; end  // instance count
                default: begin                                         // start instance
                  if (fe_ready && (path_q || (ia_idle_i && out_empty))) begin
                    consume   = 1'b1;
                    fe_push   = 1'b1;
                    draw_id_d = draw_id_q + 16'd1;
                    path_d    = 1'b1;
                  end
                end
              endcase
            end
            pineda_pkg::OP_WRITE_REG: begin
              if (eop_q) begin
                if (!eop_full && (path_q ? fe_ready : draw_ready)) begin
                  consume   = 1'b1;  // queue the write, send the token down the current path
                  eop_push  = 1'b1;
                  draw_push = !path_q;
                  fe_push   = path_q;
                end
              end else if (!eop_same) begin
                consume  = 1'b1;
                fence_we = 1'b1;
              end
            end
            pineda_pkg::OP_WAIT_REG: begin
              consume  = 1'b1;
              word_d   = fifo_data;
              wd_cnt_d = '0;
            end
            pineda_pkg::OP_JUMP, pineda_pkg::OP_CALL: begin
              consume = 1'b1;
              if (cnt_q == 12'd2) begin
                word_d = fifo_data;  // target
              end else if (target_bad) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ADDR;
              end else begin
                do_enter = 1'b1;
              end
            end
            pineda_pkg::OP_INTERRUPT: begin
              consume       = 1'b1;
              int_payload_d = fifo_data;
              set_int       = 1'b1;
            end
            pineda_pkg::OP_COPY: begin
              consume = 1'b1;
              if (cnt_q == 12'd3) begin
                word_d = fifo_data;   // src
              end else if (cnt_q == 12'd2) begin
                word1_d = fifo_data;  // dst
              end else if (copy_addr_bad) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ADDR;
              end else if (copy_overlap) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ARG;
              end else begin
                copy_len_d = fifo_data;
              end
            end
            default: consume = 1'b1;  // NOP payload
          endcase
          if (consume) begin
            cnt_d = cnt_q - 12'd1;
            if (cnt_q == 12'd1) begin
              unique case (32'(op_q))
                pineda_pkg::OP_WAIT_REG:  dec_d = DecWait;
                pineda_pkg::OP_COPY:      dec_d = pay_error ? DecHdr : DecCopy;
                default:                  dec_d = DecHdr;
              endcase
            end
          end
          if (pay_error) begin
            set_error = 1'b1;
          end
        end
      end

      DecWait: begin
        if (run) begin
          if (wait_cond) begin
            dec_d = DecHdr;
          end else if (watchdog_q != 32'd0 && wd_next >= watchdog_q) begin
            pay_error = 1'b1;
            set_error = 1'b1;
            cause     = pineda_pkg::ERR_WAIT_TIMEOUT;
            dec_d     = DecHdr;
          end else begin
            wd_cnt_d = wd_next;
          end
        end
      end

      DecCopy: begin
        // Earlier work first: the pipeline drained (the copy may read what it wrote) and the
        // DMA idle; the DMA takes the job in this cycle (its job ready is its idle).
        if (pipe_idle_i && out_empty && fe_empty && dma_idle_i) begin
          copy_valid_o = 1'b1;
          if (copy_ready_i) dec_d = DecCopyRun;
        end
      end

      DecCopyRun: begin
        if (dma_idle_i) dec_d = DecHdr;  // every copy write acknowledged
      end

      default: dec_d = DecHdr;
    endcase

    // Decode position: RING_RPTR (wraps to 0 at RING_SIZE) or the IB position.
    rptr_inc = ring_rptr_q + 32'd4;
    if (consume) begin
      if (in_ib_q) begin
        ib_addr_d = ib_addr_q + 32'd4;
        ib_rem_d  = ib_rem_q - 32'd1;
      end else begin
        ring_rptr_d = (rptr_inc == ring_size_q) ? 32'd0 : rptr_inc;
      end
    end
    if (pay_error) begin
      ring_rptr_d = hdr_rptr_q;  // stop at the failing command
    end

    if (do_enter) begin
      flush = 1'b1;
      if (32'(op_q) == pineda_pkg::OP_CALL) begin
        stk_ring_d[push_idx] = !in_ib_q;
        stk_addr_d[push_idx] = ib_addr_q + 32'd4;  // after the CALL's last dword
        stk_rem_d[push_idx]  = ib_rem_q - 32'd1;
        sp_d                 = sp_q + 3'd1;
      end
      in_ib_d   = 1'b1;
      ib_addr_d = word_q;
      ib_rem_d  = fifo_data;
      ibjob_d   = 1'b1;
    end
    if (do_ret) begin
      flush = 1'b1;
      if (sp_q != 3'd0) begin
        sp_d      = sp_q - 3'd1;
        in_ib_d   = !stk_ring_q[top_idx];
        ib_addr_d = stk_addr_q[top_idx];
        ib_rem_d  = stk_rem_q[top_idx];
        ibjob_d   = !stk_ring_q[top_idx];
      end else begin
        in_ib_d = 1'b0;  // an IB entered by JUMP from the ring returns to the ring
        ibjob_d = 1'b0;
      end
      fetch_ptr_d = ring_rptr_q;  // used when back in the ring
    end

    // Host writes (the decoder's updates of the same cycle take priority where they overlap).
    host_we  = reg_valid_i && reg_we_i;
    cp_reset = 1'b0;
    if (host_we) begin
      unique case (32'(reg_addr_i))
        pineda_pkg::REG_CONTROL: begin
          control_d = {31'd0, reg_wdata_i[pineda_pkg::CONTROL_ENABLE]};  // only ENABLE is stored
          halted_d  = 1'b0;
          cp_reset  = reg_wdata_i[pineda_pkg::CONTROL_CP_RESET];
        end
        pineda_pkg::REG_RING_BASE:   ring_base_d   = reg_wdata_i;
        pineda_pkg::REG_RING_SIZE:   ring_size_d   = reg_wdata_i;
        pineda_pkg::REG_RING_WPTR:   ring_wptr_d   = reg_wdata_i;
        pineda_pkg::REG_IRQ_STATUS:  irq_status_d  = irq_status_q & ~reg_wdata_i[IrqW-1:0];
        pineda_pkg::REG_IRQ_ENABLE:  irq_enable_d  = {29'd0, reg_wdata_i[IrqW-1:0]};  // IRQ_* bits only
        pineda_pkg::REG_VALID_BASE:  valid_base_d  = reg_wdata_i;
        pineda_pkg::REG_VALID_LIMIT: valid_limit_d = reg_wdata_i;
        pineda_pkg::REG_WATCHDOG:    watchdog_d    = reg_wdata_i;
        default: begin
          if (reg_addr_i[7:4] == 4'(pineda_pkg::REG_FENCE0 >> 4)) begin
            fence_d[reg_addr_i[3:0]] = reg_wdata_i;
          end
        end
      endcase
    end

    if (fence_we) begin
      fence_d[fence_widx] = fence_wdata;
    end
    // End-of-pipe queue: push at the tail, a completion pops the head and writes its fence
    // (the same cycle's top-of-pipe write never targets that register; a host write to it in
    // the same cycle is overridden).
    eop_pop = eop_done_valid_i && (eop_cnt_q != '0);
    if (eop_push) begin
      eop_idx_d[eop_tail] = idx_q[3:0];
      eop_val_d[eop_tail] = fifo_data;
    end
    if (eop_pop) begin
      fence_d[eop_idx_q[eop_head_q]] = eop_val_q[eop_head_q];
      eop_head_d                     = eop_head_q + EopW'(1);
    end
    eop_cnt_d = eop_cnt_q + (EopW+1)'(eop_push) - (EopW+1)'(eop_pop);
    if (set_end) begin
      halted_d                          = 1'b1;
      irq_status_d[pineda_pkg::IRQ_END] = 1'b1;
    end
    if (set_int) begin
      irq_status_d[pineda_pkg::IRQ_INTERRUPT] = 1'b1;
    end
    if (set_error) begin
      error_d                             = 1'b1;
      err_cause_d                         = cause;
      err_addr_d                          = cause_addr;
      irq_status_d[pineda_pkg::IRQ_ERROR] = 1'b1;
    end

    // CONTROL.CP_RESET: abort decoding, drop the prefetch (and reads in flight) and the return
    // stack, clear ERROR and HALTED, skip what was submitted (RPTR := WPTR). A copy already
    // handed to the DMA completes; the next COPY waits for it. End-of-pipe writes in flight
    // are kept: their tokens are in the pipeline and complete as usual.
    if (cp_reset) begin
      flush       = 1'b1;
      dec_d       = DecHdr;
      error_d     = 1'b0;
      halted_d    = 1'b0;
      in_ib_d     = 1'b0;
      ibjob_d     = 1'b0;
      sp_d        = '0;
      ring_rptr_d = ring_wptr_q;
      fetch_ptr_d = ring_wptr_q;
    end

    // Fetch position: a ring job advances the fetch pointer by its span; an IB job is issued
    // once. The reader ignores a job in a flush cycle.
    job_take = job_valid && job_ready && !flush;
    if (job_take) begin
      if (in_ib_q) begin
        ibjob_d = 1'b0;
      end else begin
        fetch_ptr_d = fetch_ptr_q + span;
        if (fetch_ptr_d == ring_size_q) begin
          fetch_ptr_d = '0;
        end
      end
    end

    fifo_ready = consume;
  end

  assign eop_done_ready_o = 1'b1;
  assign copy_src_o = word_q;
  assign copy_dst_o = word1_q;
  assign copy_len_o = copy_len_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      control_q     <= '0;
      halted_q      <= 1'b0;
      error_q       <= 1'b0;
      ring_base_q   <= '0;
      ring_size_q   <= '0;
      ring_wptr_q   <= '0;
      ring_rptr_q   <= '0;
      fetch_ptr_q   <= '0;
      err_cause_q   <= '0;
      err_addr_q    <= '0;
      irq_status_q  <= '0;
      irq_enable_q  <= '0;
      int_payload_q <= '0;
      valid_base_q  <= '0;
      valid_limit_q <= pineda_pkg::VALID_LIMIT_RESET;
      watchdog_q    <= '0;
      fence_q       <= '0;
      state_q       <= '0;
      state_q[pineda_pkg::ST_VB_BASE]   <= pineda_pkg::ST_VB_BASE_RESET;
      state_q[pineda_pkg::ST_COLOR]     <= pineda_pkg::ST_COLOR_RESET;
      state_q[pineda_pkg::ST_RT_BASE]   <= pineda_pkg::ST_RT_BASE_RESET;
      state_q[pineda_pkg::ST_RT_PITCH]  <= pineda_pkg::ST_RT_PITCH_RESET;
      state_q[pineda_pkg::ST_RT_SIZE]   <= pineda_pkg::ST_RT_SIZE_RESET;
      state_q[pineda_pkg::ST_SCISSOR_X] <= pineda_pkg::ST_SCISSOR_X_RESET;
      state_q[pineda_pkg::ST_SCISSOR_Y] <= pineda_pkg::ST_SCISSOR_Y_RESET;
      dec_q         <= DecHdr;
      op_q          <= '0;
      cnt_q         <= '0;
      idx_q         <= '0;
      eop_q         <= 1'b0;
      word_q        <= '0;
      word1_q       <= '0;
      word2_q       <= '0;
      word3_q       <= '0;
      path_q        <= 1'b0;
      ib_base_q     <= '0;
      ib_size_q     <= '0;
      copy_len_q    <= '0;
      draw_id_q     <= '0;
      hdr_addr_q    <= '0;
      hdr_rptr_q    <= '0;
      wd_cnt_q      <= '0;
      in_ib_q       <= 1'b0;
      ib_addr_q     <= '0;
      ib_rem_q      <= '0;
      ibjob_q       <= 1'b0;
      stk_ring_q    <= '0;
      stk_addr_q    <= '0;
      stk_rem_q     <= '0;
      sp_q          <= '0;
      eop_idx_q     <= '0;
      eop_val_q     <= '0;
      eop_head_q    <= '0;
      eop_cnt_q     <= '0;
    end else begin
      control_q     <= control_d;
      halted_q      <= halted_d;
      error_q       <= error_d;
      ring_base_q   <= ring_base_d;
      ring_size_q   <= ring_size_d;
      ring_wptr_q   <= ring_wptr_d;
      ring_rptr_q   <= ring_rptr_d;
      fetch_ptr_q   <= fetch_ptr_d;
      err_cause_q   <= err_cause_d;
      err_addr_q    <= err_addr_d;
      irq_status_q  <= irq_status_d;
      irq_enable_q  <= irq_enable_d;
      int_payload_q <= int_payload_d;
      valid_base_q  <= valid_base_d;
      valid_limit_q <= valid_limit_d;
      watchdog_q    <= watchdog_d;
      fence_q       <= fence_d;
      state_q       <= state_d;
      dec_q         <= dec_d;
      op_q          <= op_d;
      cnt_q         <= cnt_d;
      idx_q         <= idx_d;
      eop_q         <= eop_d;
      word_q        <= word_d;
      word1_q       <= word1_d;
      word2_q       <= word2_d;
      word3_q       <= word3_d;
      path_q        <= path_d;
      ib_base_q     <= ib_base_d;
      ib_size_q     <= ib_size_d;
      copy_len_q    <= copy_len_d;
      draw_id_q     <= draw_id_d;
      hdr_addr_q    <= hdr_addr_d;
      hdr_rptr_q    <= hdr_rptr_d;
      wd_cnt_q      <= wd_cnt_d;
      in_ib_q       <= in_ib_d;
      ib_addr_q     <= ib_addr_d;
      ib_rem_q      <= ib_rem_d;
      ibjob_q       <= ibjob_d;
      stk_ring_q    <= stk_ring_d;
      stk_addr_q    <= stk_addr_d;
      stk_rem_q     <= stk_rem_d;
      sp_q          <= sp_d;
      eop_idx_q     <= eop_idx_d;
      eop_val_q     <= eop_val_d;
      eop_head_q    <= eop_head_d;
      eop_cnt_q     <= eop_cnt_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Register read, status, interrupt
  // ---------------------------------------------------------------------------------------------
  logic [31:0] status;
  logic        pipe_busy;

  always_comb begin
    pipe_busy = !pipe_idle_i || !out_empty || !fe_empty || (eop_cnt_q != '0);
    status    = '0;
    status[pineda_pkg::STATUS_RUNNING]    = run;
    status[pineda_pkg::STATUS_HALTED]     = halted_q;
    status[pineda_pkg::STATUS_ERROR]      = error_q;
    status[pineda_pkg::STATUS_PIPE_BUSY]  = pipe_busy;
    status[pineda_pkg::STATUS_RING_EMPTY] = (ring_rptr_q == ring_wptr_q);
    status[pineda_pkg::STATUS_WAITING]    = (dec_q == DecWait);
    status[pineda_pkg::STATUS_IN_IB]      = in_ib_q;
    status[pineda_pkg::STATUS_COPYING]    = (dec_q == DecCopy) || (dec_q == DecCopyRun);

    reg_rdata_o = '0;
    unique case (32'(reg_addr_i))
      pineda_pkg::REG_ID:          reg_rdata_o = IdValue;
      pineda_pkg::REG_CONTROL:     reg_rdata_o = control_q;
      pineda_pkg::REG_STATUS:      reg_rdata_o = status;
      pineda_pkg::REG_RING_BASE:   reg_rdata_o = ring_base_q;
      pineda_pkg::REG_RING_SIZE:   reg_rdata_o = ring_size_q;
      pineda_pkg::REG_RING_WPTR:   reg_rdata_o = ring_wptr_q;
      pineda_pkg::REG_RING_RPTR:   reg_rdata_o = ring_rptr_q;
      pineda_pkg::REG_ERROR_CAUSE: reg_rdata_o = err_cause_q;
      pineda_pkg::REG_ERROR_ADDR:  reg_rdata_o = err_addr_q;
      pineda_pkg::REG_IRQ_STATUS:  reg_rdata_o = {29'd0, irq_status_q};
      pineda_pkg::REG_IRQ_ENABLE:  reg_rdata_o = irq_enable_q;
      pineda_pkg::REG_INT_PAYLOAD: reg_rdata_o = int_payload_q;
      pineda_pkg::REG_VALID_BASE:  reg_rdata_o = valid_base_q;
      pineda_pkg::REG_VALID_LIMIT: reg_rdata_o = valid_limit_q;
      pineda_pkg::REG_WATCHDOG:    reg_rdata_o = watchdog_q;
      pineda_pkg::REG_IB_DEPTH:    reg_rdata_o = {29'd0, sp_q};
      default: begin
        if (reg_addr_i[7:4] == 4'(pineda_pkg::REG_FENCE0 >> 4)) begin
          reg_rdata_o = fence_q[reg_addr_i[3:0]];
        end
      end
    endcase

    irq_o = |(irq_status_q & irq_enable_q[IrqW-1:0]);

    // Starved: no command to decode (nothing in the FIFO, or decoding stopped/paused), not in the
    // middle of a command, not waiting on a fence, wait or copy, draw output empty.
    idle_o = (dec_q == DecHdr) && !(run && fifo_valid) && out_empty && fe_empty;
  end

  logic unused_sig;
  assign unused_sig = ^{reader_idle, irq_enable_q[31:IrqW], wait_diff[30:0]};

endmodule
