// SPDX-License-Identifier: Apache-2.0
// cp: command processor, encoding v2 (docs/contract.md §3-§4).
//
// - Host register file: cp_regs (rtl/cp/cp_regs.sv); the decoder's events (fence writes, END,
//   INTERRUPT, errors) and the read-only STATUS, RING_RPTR and IB_DEPTH go to it.
// - Fetch: cp_fetch (rtl/cp/cp_fetch.sv) delivers the command dwords in decode order over the
//   line port, prefetching across JUMP/CALL/RET (it walks the fetched commands with its own copy
//   of the position and return stack and requests each target and return position ahead of the
//   decoder). The decoder tracks its own position as before; CONTROL.CP_RESET, or an enter the
//   fetch did not predict (the window changed while the CP was stopped), resyncs the fetch at
//   the decoder's position (flushing the prefetch and discarding reads in flight).
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
//   Tokens go down the current path (dec_q.path_fe: the path of the last draw). WRITE_REG
//   writes a fence at once (top of pipe) or, at the end of pipe, queues the write
//   (EOP_QUEUE_DEPTH entries) and emits an end-of-pipe token (draw_pkt_t with eop = 1)
//   behind the earlier draws; every unit forwards the token in order and the pixel writer
//   returns it on eop_done_* once every earlier write is acknowledged, which writes the oldest
//   queued fence. Decoding goes on meanwhile. A top-of-pipe WRITE_REG to a register with an
//   end-of-pipe write queued waits for it (writes to one register land in decode order); an
//   end-of-pipe WRITE_REG with the queue full waits for a completion. WAIT_REG blocks until its
//   compare holds (watchdog: ERR_WAIT_TIMEOUT), INTERRUPT sets INT_PAYLOAD and IRQ INTERRUPT,
//   COPY waits for the pipeline to drain and the DMA to be idle, hands the job to the DMA and
//   waits until the DMA is idle again (every copy write acknowledged), END halts.
//   CLEAR (docs/depth.md section 5): the header's arg must be CLEAR_COLOR alone or a non-empty
//   subset of CLEAR_DEPTH | CLEAR_STENCIL (ERR_BAD_CLEAR, a header error). At the last payload
//   dword the rectangle is clamped to MAX_RT_DIM; an empty one ends the command there (no-op).
//   A target base or pitch that is not dword aligned, or bytes of the rectangle outside
//   [VALID_BASE, VALID_LIMIT], is ERR_BAD_ADDR (RPTR back on the header, like COPY). Otherwise
//   the CP waits as for COPY (pipeline drained, DMA idle; pineda_top then holds the job until
//   the colour cache is clean) and offers clear_o: a depth/stencil clear to ZS's fast clear on
//   zs_clear_* when zs_fast_clear_i and not CONTROL.NO_FAST_CLEAR (decoding goes on once ZS takes
//   it), every other clear to the DMA's fill on fill_* (decoding goes on once the DMA is idle
//   again, every fill write acknowledged). A depth clear first goes to hierarchical Z on
//   hiz_clear_* (payload hiz_clear_o = clear_o, pipeline idle), then to the fill or ZS as above.
//   Hi-Z forget (docs/depth.md section 6): the CP remembers the buffer of the last depth clear
//   ([base, base + HIZ_BUF_ROWS * pitch)); a COPY, colour clear or RESOLVE whose destination
//   bytes meet it first sends hiz_clear_o with hiz_forget set (HIZ then rejects nothing until
//   the next depth clear), once per buffer, with the pipeline idle, then runs as above.
//   RESOLVE (docs/om.md section 7): arg[11:2] must be 0 (ERR_BAD_ARG, a header error). At the
//   last payload dword: an empty or too large rectangle is ERR_BAD_ARG, a misaligned base or
//   pitch or a span outside the window ERR_BAD_ADDR, overlapping spans ERR_BAD_ARG (RPTR back on
//   the header). Otherwise it waits as for COPY and offers resolve_o to the resolve engine
//   (pineda_top holds it until PW and ZS are clean); decoding goes on once the engine is idle.
// Throughput: one command dword per clock (a DRAW is 3 clocks, one draw packet per 3 clocks).
// Latency: header to draw packet on out_o = 3 clocks; a change of position costs nothing when
// the prefetch is far enough ahead (cp_fetch).
module cp #(
  parameter int unsigned FetchLines = 32,   // cp_fetch: reader line buffer
  parameter int unsigned DecGroups  = 128   // cp_fetch: decode FIFO (groups of 4 dwords)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Host register port
  input  pineda_pkg::reg_req_t    reg_i,
  output pineda_pkg::reg_rsp_t    reg_o,
  // Line-port client (command fetch)
  output pineda_pkg::mem_port_req_t mem_o,
  input  pineda_pkg::mem_port_rsp_t mem_i,
  // Draw output
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output pineda_pkg::draw_pkt_t   out_o,
  // Front-end output: DRAW_FE draws, front-end state writes, tokens while the path is FE
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
  // CLEAR: the packet (stable while offered), to the DMA fill or to ZS's fast clear
  output pineda_pkg::clear_pkt_t  clear_o,
  output logic                    fill_valid_o,
  input  logic                    fill_ready_i,
  output logic                    zs_clear_valid_o,
  input  logic                    zs_clear_ready_i,
  input  logic                    zs_fast_clear_i,  // ZS takes depth/stencil clears (fast clear)
  output logic                    hiz_clear_valid_o,  // depth clears and Hi-Z forgets, to HIZ first
  input  logic                    hiz_clear_ready_i,
  output pineda_pkg::clear_pkt_t  hiz_clear_o,        // clear_o, with hiz_forget for a forget
  // RESOLVE: the checked job (stable while offered), to the resolve engine (offered only while
  // dma_idle_i, which covers the engine too); decoding goes on once it is idle again
  output pineda_pkg::resolve_pkt_t resolve_o,
  output logic                    resolve_valid_o,
  input  logic                    resolve_ready_i,
  // End-of-pipe completions (one per token, in order; always accepted)
  input  logic                    eop_done_valid_i,
  output logic                    eop_done_ready_o,
  // Status
  input  logic                    pipe_idle_i,  // every unit after the CP idle, boundaries empty
  input  logic                    ia_idle_i,    // the pre-transformed path (IA) has drained
  input  logic                    fe_idle_i,    // the front-end path (index fetch .. PA) has drained
  // TEX (pixel stage): a faulted quad left TEX (sticky STATUS.TEX_FAULT, IRQ TEX_FAULT; non-fatal)
  input  logic                    tex_fault_i,
  output logic [31:0]             valid_base_o,   // REG_VALID_BASE / LIMIT, for TEX's checks
  output logic [31:0]             valid_limit_o,
  output logic                    idle_o
);

  typedef enum logic [2:0] {
    DecHdr     = 3'd0,  // next dword is a command header
    DecPayload = 3'd1,  // consuming the payload of dec_q.op
    DecWait    = 3'd3,  // WAIT_REG: compare does not hold yet
    DecCopy    = 3'd4,  // COPY: waiting for the pipeline and the DMA to be idle
    DecCopyRun = 3'd5,  // COPY or CLEAR fill: handed to the DMA, waiting for it to finish
    DecClear   = 3'd6,  // CLEAR: waiting for the pipeline and the DMA to be idle
    DecResolve = 3'd7   // RESOLVE: checks, then waiting for the pipeline and the DMA to be idle
  } dec_state_e;

  localparam logic [14:0] MaxDim   = 15'(pineda_pkg::MAX_RT_DIM);
  localparam int unsigned Depth    = pineda_pkg::RET_STACK_DEPTH;
  localparam int unsigned SpW      = $clog2(Depth + 1);
  localparam int unsigned EopDepth = pineda_pkg::EOP_QUEUE_DEPTH;
  localparam int unsigned EopW     = $clog2(EopDepth);

  // ---------------------------------------------------------------------------------------------
  // State, one packed struct per concern (reset: all zero, but the draw state)
  // ---------------------------------------------------------------------------------------------
  // The command being decoded.
  typedef struct packed {
    dec_state_e          state;
    pineda_pkg::opcode_e op;
    logic [11:0]         cnt;       // payload dwords left
    logic [7:0]          idx;       // SET_STATE index / fence index / DRAW_FE flags (header arg)
    logic                eop;       // arg[11]: WRITE_REG end of pipe, WAIT_REG >=
    logic [31:0]         word0;     // payload 0 (DRAW first vertex, fence value, target, src)
    logic [31:0]         word1;     // payload 1 (COPY dst, DRAW_FE count)
    logic [31:0]         word2;     // payload 2 (DRAW_FE base vertex)
    logic [31:0]         word3;     // payload 3 (DRAW_FE instance count)
    logic                path_fe;   // path of the last draw: 0 IA, 1 front end
    logic [31:0]         ib_base;   // FE_IB_BASE
    logic [31:0]         ib_size;   // FE_IB_SIZE
    logic [31:0]         copy_len;  // COPY byte count, CLEAR value
    logic [15:0]         draw_id;
    logic [31:0]         hdr_addr;  // byte address of the current command's header
    logic [31:0]         hdr_rptr;  // RING_RPTR at that header
    logic [31:0]         wd_cnt;    // cycles spent in DecWait
  } dec_t;

  // Position: the ring, or an IB (next dword address, dwords left); the return stack.
  typedef struct packed {
    logic [31:0]            ring_rptr;
    logic                   in_ib;
    logic [31:0]            ib_addr;
    logic [31:0]            ib_rem;
    logic [Depth-1:0]       stk_ring;  // entry returns to the ring
    logic [Depth-1:0][31:0] stk_addr;
    logic [Depth-1:0][31:0] stk_rem;
    logic [SpW-1:0]         sp;        // entries in use
  } pos_t;

  // End-of-pipe fence writes in flight: a ring of EopDepth entries from head.
  typedef struct packed {
    logic [EopDepth-1:0][3:0]  idx;
    logic [EopDepth-1:0][31:0] val;
    logic [EopW-1:0]           head;
    logic [EopW:0]             cnt;
  } eopq_t;

  dec_t                   dec_q,   dec_d;
  pos_t                   pos_q,   pos_d;
  eopq_t                  eopq_q,  eopq_d;
  logic [15:0][31:0]      state_q, state_d;  // draw state (SET_STATE indices [0, NUM_STATE))

  // ---------------------------------------------------------------------------------------------
  // Host register file
  // ---------------------------------------------------------------------------------------------
  logic                   enable, halted, error, cp_reset, no_fast_clear;
  logic                   hiz_done_q, hiz_done_d;  // HIZ has taken the depth clear / forget being executed
  logic                   hzb_valid_q, hzb_valid_d;  // the last depth clear's buffer (not yet forgotten)
  logic [31:0]            hzb_lo_q, hzb_lo_d;
  logic [34:0]            hzb_end_q, hzb_end_d;
  logic                   hzb_hit;                   // this command's destination meets it
  logic [31:0]            ring_base, ring_size, ring_wptr, valid_base, valid_limit, watchdog;
  logic [15:0][31:0]      fence;
  logic [31:0]            status;
  logic                   fence_we, eop_pop, set_end, set_int, set_error;
  logic [3:0]             fence_widx;
  logic [31:0]            fence_wdata;
  pineda_pkg::err_cause_e cause;
  logic [31:0]            cause_addr;

  cp_regs u_regs (
    .clk_i,
    .rst_ni,
    .reg_i,
    .reg_o,
    .status_i      (status),
    .ring_rptr_i   (pos_q.ring_rptr),
    .ib_depth_i    (32'(pos_q.sp)),
    .fence_we_i    (fence_we),
    .fence_widx_i  (fence_widx),
    .fence_wdata_i (fence_wdata),
    .eop_we_i      (eop_pop),
    .eop_widx_i    (eopq_q.idx[eopq_q.head]),
    .eop_wdata_i   (eopq_q.val[eopq_q.head]),
    .set_end_i     (set_end),
    .set_int_i     (set_int),
    .int_payload_i (fifo_data),
    .set_error_i   (set_error),
    .cause_i       (cause),
    .cause_addr_i  (cause_addr),
    .set_tex_fault_i(tex_fault_i),
    .enable_o      (enable),
    .halted_o      (halted),
    .error_o       (error),
    .ring_base_o   (ring_base),
    .ring_size_o   (ring_size),
    .ring_wptr_o   (ring_wptr),
    .valid_base_o  (valid_base),
    .valid_limit_o (valid_limit),
    .watchdog_o    (watchdog),
    .fence_o       (fence),
    .cp_reset_o    (cp_reset),
    .no_fast_clear_o (no_fast_clear)
  );

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
  assign valid_base_o  = valid_base;
  assign valid_limit_o = valid_limit;
  assign ring_ok = range_ok(ring_base, 35'(ring_size), valid_base, valid_limit);

  // ---------------------------------------------------------------------------------------------
  // Fetch
  // ---------------------------------------------------------------------------------------------
  logic        fifo_valid, fifo_ready;
  logic [31:0] fifo_data;
  logic        fetch_idle, fetch_parked;
  logic        resync;

  cp_fetch #(
    .FetchLines (FetchLines),
    .DecGroups  (DecGroups)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .enable_i        (enable),
    .error_i         (error),
    .ring_base_i     (ring_base),
    .ring_size_i     (ring_size),
    .ring_wptr_i     (ring_wptr),
    .ring_ok_i       (ring_ok),
    .valid_base_i    (valid_base),
    .valid_limit_i   (valid_limit),
    .resync_i        (resync),
    .pos_in_ib_i     (pos_d.in_ib),
    .pos_ib_addr_i   (pos_d.ib_addr),
    .pos_ib_rem_i    (pos_d.ib_rem),
    .pos_ring_rptr_i (pos_d.ring_rptr),
    .pos_sp_i        (pos_d.sp),
    .pos_stk_ring_i  (pos_d.stk_ring),
    .pos_stk_addr_i  (pos_d.stk_addr),
    .pos_stk_rem_i   (pos_d.stk_rem),
    .parked_o        (fetch_parked),
    .out_valid_o     (fifo_valid),
    .out_ready_i     (fifo_ready),
    .out_data_o      (fifo_data),
    .mem_o,
    .mem_i,
    .idle_o          (fetch_idle)
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
    unique case (dec_q.op)
      pineda_pkg::OP_SET_STATE: begin
        fe_pkt.wr     = 1'b1;
        fe_pkt.wr_idx = dec_q.idx;
        fe_pkt.wr_val = fifo_data;
      end
      pineda_pkg::OP_WRITE_REG: fe_pkt.eop = 1'b1;
      default: begin
        fe_pkt.indexed        = dec_q.idx[pineda_pkg::DRAW_FE_INDEXED_BIT];
        fe_pkt.index32        = dec_q.idx[pineda_pkg::DRAW_FE_INDEX32_BIT];
        fe_pkt.strip          = dec_q.idx[pineda_pkg::DRAW_FE_STRIP_BIT];
        fe_pkt.restart        = dec_q.idx[pineda_pkg::DRAW_FE_RESTART_BIT];
        fe_pkt.ib_base        = dec_q.ib_base;
        fe_pkt.ib_size        = dec_q.ib_size;
        fe_pkt.first          = dec_q.word0;
        fe_pkt.count          = dec_q.word1;
        fe_pkt.base_vertex    = dec_q.word2;
        fe_pkt.instance_count = dec_q.word3;
        fe_pkt.start_instance = fifo_data;
        fe_pkt.draw_id        = dec_q.draw_id;
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
    rt_w = min_dim(state_q[pineda_pkg::ST_RT_SIZE][pineda_pkg::RT_WIDTH_MSB:pineda_pkg::RT_WIDTH_LSB],   MaxDim);
    rt_h = min_dim(state_q[pineda_pkg::ST_RT_SIZE][pineda_pkg::RT_HEIGHT_MSB:pineda_pkg::RT_HEIGHT_LSB], MaxDim);

    draw_pkt              = '0;
    draw_pkt.vb_base      = state_q[pineda_pkg::ST_VB_BASE];
    draw_pkt.first_vertex = dec_q.word0;
    draw_pkt.vertex_count = fifo_data;
    draw_pkt.color        = state_q[pineda_pkg::ST_COLOR];
    draw_pkt.target.base  = state_q[pineda_pkg::ST_RT_BASE];
    draw_pkt.target.pitch = state_q[pineda_pkg::ST_RT_PITCH][pineda_pkg::RT_PITCH_MSB:pineda_pkg::RT_PITCH_LSB];
    draw_pkt.target.msaa  = state_q[pineda_pkg::ST_RT_PITCH][pineda_pkg::RT_MSAA_BIT];
    draw_pkt.clip.x0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][pineda_pkg::SCISSOR_LO_MSB:pineda_pkg::SCISSOR_LO_LSB], rt_w);
    draw_pkt.clip.x1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][pineda_pkg::SCISSOR_HI_MSB:pineda_pkg::SCISSOR_HI_LSB], rt_w);
    draw_pkt.clip.y0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][pineda_pkg::SCISSOR_LO_MSB:pineda_pkg::SCISSOR_LO_LSB], rt_h);
    draw_pkt.clip.y1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][pineda_pkg::SCISSOR_HI_MSB:pineda_pkg::SCISSOR_HI_LSB], rt_h);
    draw_pkt.draw_id      = dec_q.draw_id;
    if (dec_q.op == pineda_pkg::OP_WRITE_REG) begin
      draw_pkt     = '0;  // end-of-pipe token
      draw_pkt.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Header checks (from the header and the CP's position alone)
  // ---------------------------------------------------------------------------------------------
  logic [7:0]             hdr_op;
  logic [11:0]            hdr_arg;
  logic [11:0]            hdr_len;
  logic                   hdr_err;
  pineda_pkg::err_cause_e hdr_cause;

  always_comb begin
    hdr_op    = fifo_data[pineda_pkg::CMD_OP_MSB:pineda_pkg::CMD_OP_LSB];
    hdr_arg   = fifo_data[pineda_pkg::CMD_ARG_MSB:pineda_pkg::CMD_ARG_LSB];
    hdr_len   = fifo_data[pineda_pkg::CMD_LEN_MSB:pineda_pkg::CMD_LEN_LSB];
    hdr_cause = pineda_pkg::ERR_NONE;
    unique case (hdr_op)
      pineda_pkg::OP_NOP: ;
      pineda_pkg::OP_SET_STATE: begin
        if (({1'b0, hdr_arg} + {1'b0, hdr_len}) > 13'(pineda_pkg::FE_STATE_END)) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_DRAW_FE: begin
        if (hdr_len != pineda_pkg::OP_DRAW_FE_LEN) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[11:4] != 8'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_DRAW: begin
        if (hdr_len != pineda_pkg::OP_DRAW_LEN) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_JUMP, pineda_pkg::OP_CALL: begin
        if (hdr_len != pineda_pkg::OP_JUMP_LEN) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_WRITE_REG, pineda_pkg::OP_WAIT_REG: begin
        if (hdr_len != pineda_pkg::OP_WRITE_REG_LEN) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[10:4] != 7'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_INTERRUPT: begin
        if (hdr_len != pineda_pkg::OP_INTERRUPT_LEN) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_COPY: begin
        if (hdr_len != pineda_pkg::OP_COPY_LEN) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_CLEAR: begin
        if (hdr_len != pineda_pkg::OP_CLEAR_LEN) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[11:3] != 9'd0 ||
                     !(hdr_arg[2:0] == 3'b001 || (hdr_arg[2:0] != 3'b000 && !hdr_arg[0]))) begin
          hdr_cause = pineda_pkg::ERR_BAD_CLEAR;
        end
      end
      pineda_pkg::OP_RESOLVE: begin
        if (hdr_len != pineda_pkg::OP_RESOLVE_LEN) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[11:2] != 10'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_RET, pineda_pkg::OP_END: begin
        if (hdr_len != pineda_pkg::OP_END_LEN) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      default: hdr_cause = pineda_pkg::ERR_BAD_OPCODE;
    endcase
    // The command must fit in what is left of the IB (a len check: before arg).
    if (hdr_cause != pineda_pkg::ERR_BAD_OPCODE && hdr_cause != pineda_pkg::ERR_BAD_LEN &&
        pos_q.in_ib && (33'(hdr_len) + 33'd1 > 33'(pos_q.ib_rem))) begin
      hdr_cause = pineda_pkg::ERR_BAD_LEN;
    end
    if (hdr_cause == pineda_pkg::ERR_NONE && hdr_op == pineda_pkg::OP_CALL &&
        pos_q.sp == SpW'(Depth)) begin
      hdr_cause = pineda_pkg::ERR_STACK_OVERFLOW;
    end
    if (hdr_cause == pineda_pkg::ERR_NONE && hdr_op == pineda_pkg::OP_RET && !pos_q.in_ib) begin
      hdr_cause = pineda_pkg::ERR_STACK_UNDERFLOW;
    end
    hdr_err = (hdr_cause != pineda_pkg::ERR_NONE);
  end

  // ---------------------------------------------------------------------------------------------
  // Payload-time checks: JUMP/CALL target (word0, fifo_data dwords), COPY ranges
  // (word0 -> word1, fifo_data bytes)
  // ---------------------------------------------------------------------------------------------
  logic        target_bad;
  logic        copy_addr_bad, copy_overlap;
  logic [32:0] src_end, dst_end;

  always_comb begin
    target_bad    = (dec_q.word0[1:0] != 2'b00) ||
                    !range_ok(dec_q.word0, 35'({fifo_data, 2'b00}), valid_base, valid_limit);
    copy_addr_bad = !range_ok(dec_q.word0, 35'(fifo_data), valid_base, valid_limit) ||
                    !range_ok(dec_q.word1, 35'(fifo_data), valid_base, valid_limit);
    src_end       = 33'(dec_q.word0) + 33'(fifo_data);
    dst_end       = 33'(dec_q.word1) + 33'(fifo_data);
    copy_overlap  = (fifo_data != 32'd0) && (33'(dec_q.word0) < dst_end) && (33'(dec_q.word1) < src_end);
  end

  // CLEAR (from the registered payload words; word0 base, word1 pitch | msaa, word2 x, word3 y,
  // copy_len value): the clamped rectangle, and the bytes from its first sample to its last.
  logic        clr_empty, clr_addr_bad, clr_to_zs;
  logic [4:0]  clr_shift;
  logic [34:0] clr_first, clr_end;
  logic [31:0] clr_y1m1;

  always_comb begin
    clear_o              = '0;
    clear_o.color        = dec_q.idx[pineda_pkg::CLEAR_COLOR_BIT];
    clear_o.depth        = dec_q.idx[pineda_pkg::CLEAR_DEPTH_BIT];
    clear_o.stencil      = dec_q.idx[pineda_pkg::CLEAR_STENCIL_BIT];
    clear_o.target.base  = dec_q.word0;
    clear_o.target.pitch = dec_q.word1[pineda_pkg::RT_PITCH_MSB:pineda_pkg::RT_PITCH_LSB];
    clear_o.target.msaa  = dec_q.word1[pineda_pkg::RT_MSAA_BIT];
    clear_o.rect.x0      = min_dim(dec_q.word2[15:0],  MaxDim);
    clear_o.rect.x1      = min_dim(dec_q.word2[31:16], MaxDim);
    clear_o.rect.y0      = min_dim(dec_q.word3[15:0],  MaxDim);
    clear_o.rect.y1      = min_dim(dec_q.word3[31:16], MaxDim);
    clear_o.value        = dec_q.copy_len;
    clr_empty    = (clear_o.rect.x0 >= clear_o.rect.x1) || (clear_o.rect.y0 >= clear_o.rect.y1);
    clr_shift    = clear_o.target.msaa ? 5'd4 : 5'd2;
    clr_first    = 35'(dec_q.word0) + 35'(32'(clear_o.rect.y0) * 32'(clear_o.target.pitch)) +
                   (35'(clear_o.rect.x0) << clr_shift);
    clr_y1m1     = 32'(clear_o.rect.y1) - 32'd1;
    clr_end      = 35'(dec_q.word0) + 35'(clr_y1m1 * 32'(clear_o.target.pitch)) +
                   (35'(clear_o.rect.x1) << clr_shift);
    clr_addr_bad = (dec_q.word0[1:0] != 2'b00) || (clear_o.target.pitch[1:0] != 2'b00) ||
                   (clr_first < 35'(valid_base)) || (clr_end - 35'd1 > 35'(valid_limit));
    // ZS fast-clears whole-line-aligned depth targets (base and pitch multiples of 64, as ZS reads
    // them); any other depth/stencil clear is a DMA fill.
    clr_to_zs    = !clear_o.color && zs_fast_clear_i && !no_fast_clear &&
                   (dec_q.word0[5:0] == 6'd0) && (clear_o.target.pitch[5:0] == 6'd0);
  end

  // RESOLVE (registered payload: word0 src, word1 dst, word2 src pitch | dst pitch << 16, word3
  // x0 | x1 << 16, copy_len y0 | y1 << 16; format dec_q.idx[1:0]). Checks in the model's order
  // (docs/om.md section 7): rectangle (BAD_ARG), alignment (BAD_ADDR), window (BAD_ADDR), overlap
  // of the spans (BAD_ARG).
  logic        rs_rect_bad, rs_align_bad, rs_addr_bad, rs_overlap, rs_b565;
  logic [15:0] rs_x0, rs_x1, rs_y0, rs_y1;
  logic [34:0] rs_sfirst, rs_send, rs_dfirst, rs_dend;
  logic [31:0] rs_y1m1;
  always_comb begin
    rs_b565      = (dec_q.idx[1:0] == pineda_pkg::RT_FMT_B5G6R5);
    rs_x0        = dec_q.word3[15:0];
    rs_x1        = dec_q.word3[31:16];
    rs_y0        = dec_q.copy_len[15:0];
    rs_y1        = dec_q.copy_len[31:16];
    rs_rect_bad  = (rs_x0 >= rs_x1) || (rs_y0 >= rs_y1) || (rs_x1 > 16'(pineda_pkg::MAX_RT_DIM)) ||
                   (rs_y1 > 16'(pineda_pkg::MAX_RT_DIM));
    rs_align_bad = (rs_b565 ? (dec_q.word0[2:0] != 3'd0) : (dec_q.word0[3:0] != 4'd0)) ||
                   (rs_b565 ? (dec_q.word2[2:0] != 3'd0) : (dec_q.word2[3:0] != 4'd0)) ||
                   (dec_q.word1[1:0] != 2'd0) || (dec_q.word2[17:16] != 2'd0);
    rs_y1m1      = 32'(rs_y1) - 32'd1;
    rs_sfirst    = 35'(dec_q.word0) + 35'(32'(rs_y0) * 32'(dec_q.word2[15:0])) + (35'(rs_x0) << (rs_b565 ? 3 : 4));
    rs_send      = 35'(dec_q.word0) + 35'(rs_y1m1 * 32'(dec_q.word2[15:0])) + (35'(rs_x1) << (rs_b565 ? 3 : 4));
    rs_dfirst    = 35'(dec_q.word1) + 35'(32'(rs_y0) * 32'(dec_q.word2[31:16])) + (35'(rs_x0) << (rs_b565 ? 1 : 2));
    rs_dend      = 35'(dec_q.word1) + 35'(rs_y1m1 * 32'(dec_q.word2[31:16])) + (35'(rs_x1) << (rs_b565 ? 1 : 2));
    rs_addr_bad  = (rs_sfirst < 35'(valid_base)) || (rs_send - 35'd1 > 35'(valid_limit)) ||
                   (rs_dfirst < 35'(valid_base)) || (rs_dend - 35'd1 > 35'(valid_limit));
    rs_overlap   = (rs_sfirst < rs_dend) && (rs_dfirst < rs_send);
    resolve_o           = '0;
    resolve_o.fmt       = dec_q.idx[1:0];
    resolve_o.src       = dec_q.word0;
    resolve_o.dst       = dec_q.word1;
    resolve_o.src_pitch = dec_q.word2[15:0];
    resolve_o.dst_pitch = dec_q.word2[31:16];
    resolve_o.rect.x0   = rs_x0[14:0];
    resolve_o.rect.x1   = rs_x1[14:0];
    resolve_o.rect.y0   = rs_y0[14:0];
    resolve_o.rect.y1   = rs_y1[14:0];
  end

  // ---------------------------------------------------------------------------------------------
  // Decoder
  // ---------------------------------------------------------------------------------------------
  logic            run;         // decoding allowed
  logic            consume;     // one dword taken from the prefetch FIFO
  logic            pay_error;   // payload-time error: RPTR back on the header
  logic            do_ret;
  logic            do_enter;
  logic [31:0]     rptr_inc;
  logic [31:0]     cur_addr;
  logic            wait_cond;
  logic [31:0]     wait_diff;
  logic [1:0]      top_idx;
  logic [1:0]      push_idx;
  logic [31:0]     wd_next;
  logic            eop_full;      // no free entry for an end-of-pipe write
  logic            eop_same;      // an end-of-pipe write to fence dec_q.idx is queued
  logic            eop_push;
  logic [EopW-1:0] eop_tail;
  logic [EopW-1:0] eop_rel;

  // Job offers of COPY, CLEAR and RESOLVE: each valid from the decode state alone, in a block of
  // its own, so that no path (not even one of Verilator's block granularity) runs from a job's
  // ready back to its valid (pineda_top's ready for a copy depends on the copy's addresses).
  // Earlier work first: the pipeline drained (the job may read what it wrote) and the DMA idle;
  // HIZ forgets (or clears) first when the job's destination meets its buffer, the job in a
  // later cycle. The decoder below moves on when an offer is taken.
  logic job_go;
  logic rs_bad;
  always_comb begin
    job_go            = pipe_idle_i && out_empty && fe_empty && dma_idle_i;
    rs_bad            = rs_rect_bad || rs_align_bad || rs_addr_bad || rs_overlap;
    copy_valid_o      = 1'b0;
    fill_valid_o      = 1'b0;
    zs_clear_valid_o  = 1'b0;
    hiz_clear_valid_o = 1'b0;
    resolve_valid_o   = 1'b0;
    unique case (dec_q.state)
      DecCopy: begin
        if (job_go) begin
          if (hzb_hit && !hiz_done_q) hiz_clear_valid_o = 1'b1;
          else                        copy_valid_o      = 1'b1;
        end
      end
      DecClear: begin
        if (!clr_empty && !clr_addr_bad && job_go) begin
          if ((clear_o.depth || hzb_hit) && !hiz_done_q) hiz_clear_valid_o = 1'b1;
          else if (clr_to_zs)                             zs_clear_valid_o  = 1'b1;
          else                                            fill_valid_o      = 1'b1;
        end
      end
      DecResolve: begin
        if (!rs_bad && job_go) begin
          if (hzb_hit && !hiz_done_q) hiz_clear_valid_o = 1'b1;
          else                        resolve_valid_o   = 1'b1;
        end
      end
      default: ;
    endcase
  end

  always_comb begin
    dec_d   = dec_q;
    pos_d   = pos_q;
    eopq_d  = eopq_q;
    state_d = state_q;

    consume      = 1'b0;
    eop_push     = 1'b0;
    draw_push    = 1'b0;
    fe_push      = 1'b0;
    fence_we     = 1'b0;
    fence_widx   = dec_q.idx[pineda_pkg::FENCE_IDX_MSB:pineda_pkg::FENCE_IDX_LSB];
    fence_wdata  = fifo_data;
    set_end      = 1'b0;
    set_error    = 1'b0;
    set_int      = 1'b0;
    cause        = pineda_pkg::ERR_NONE;
    cause_addr   = dec_q.hdr_addr;
    pay_error    = 1'b0;
    do_ret       = 1'b0;
    do_enter     = 1'b0;
    resync       = 1'b0;

    run       = enable && !halted && !error;
    cur_addr  = pos_q.in_ib ? pos_q.ib_addr : (ring_base + pos_q.ring_rptr);
    wait_diff = fence[fence_widx] - dec_q.word0;
    wait_cond = dec_q.eop ? !wait_diff[31] : (fence[fence_widx] == dec_q.word0);
    top_idx   = 2'(pos_q.sp - SpW'(1));
    push_idx  = pos_q.sp[1:0];
    wd_next   = dec_q.wd_cnt + 32'd1;
    eop_full  = (eopq_q.cnt == (EopW+1)'(EopDepth));
    eop_tail  = eopq_q.head + eopq_q.cnt[EopW-1:0];
    eop_same  = 1'b0;
    for (int k = 0; k < EopDepth; k++) begin
      // Entry k is queued when (k - head) mod EopDepth < count.
      eop_rel = EopW'(k) - eopq_q.head;
      if ({1'b0, eop_rel} < eopq_q.cnt && eopq_q.idx[k] == fence_widx) begin
        eop_same = 1'b1;
      end
    end

    unique case (dec_q.state)
      DecHdr: begin
        if (run) begin
          if (pos_q.in_ib && pos_q.ib_rem == 32'd0) begin
            do_ret = 1'b1;  // the IB ran out of dwords
          end else if (!pos_q.in_ib && (pos_q.ring_rptr != ring_wptr) && !ring_ok) begin
            set_error  = 1'b1;
            cause      = pineda_pkg::ERR_BAD_ADDR;
            cause_addr = cur_addr;
          end else if (fifo_valid) begin
            if (hdr_err) begin
              set_error  = 1'b1;
              cause      = hdr_cause;
              cause_addr = cur_addr;
            end else begin
              consume        = 1'b1;
              dec_d.op       = pineda_pkg::opcode_e'(hdr_op);
              dec_d.cnt      = hdr_len;
              dec_d.idx      = hdr_arg[7:0];
              dec_d.eop      = hdr_arg[pineda_pkg::WRITE_REG_EOP_BIT];
              dec_d.hdr_addr = cur_addr;
              dec_d.hdr_rptr = pos_q.ring_rptr;
              if (hdr_op == pineda_pkg::OP_END) begin
                set_end = 1'b1;
              end else if (hdr_op == pineda_pkg::OP_RET) begin
                do_ret = 1'b1;
              end else if (hdr_len != 12'd0) begin
                dec_d.state = DecPayload;
              end
            end
          end
        end
      end

      DecPayload: begin
        if (run && fifo_valid) begin
          unique case (dec_q.op)
            pineda_pkg::OP_SET_STATE: begin
              if (dec_q.idx < pineda_pkg::NUM_STATE) begin
                consume                   = 1'b1;
                state_d[dec_q.idx[3:0]]   = fifo_data;
                dec_d.idx                 = dec_q.idx + 8'd1;
              end else if (fe_ready) begin
                consume   = 1'b1;  // front-end state: sent down the front end
                fe_push   = 1'b1;
                dec_d.idx = dec_q.idx + 8'd1;
                if (dec_q.idx == pineda_pkg::FE_IB_BASE) dec_d.ib_base = fifo_data;
                if (dec_q.idx == pineda_pkg::FE_IB_SIZE) dec_d.ib_size = fifo_data;
              end
            end
            pineda_pkg::OP_DRAW: begin
              if (dec_q.cnt == 12'd2) begin
                consume     = 1'b1;
                dec_d.word0 = fifo_data;  // first vertex
              end else if (draw_ready && (!dec_q.path_fe || (fe_idle_i && fe_empty))) begin
                consume       = 1'b1;     // vertex count: emit the draw
                draw_push     = 1'b1;
                dec_d.draw_id = dec_q.draw_id + 16'd1;
                dec_d.path_fe = 1'b0;
              end
            end
            pineda_pkg::OP_DRAW_FE: begin
              unique case (dec_q.cnt)
                12'd5: begin consume = 1'b1; dec_d.word0 = fifo_data; end  // first
                12'd4: begin consume = 1'b1; dec_d.word1 = fifo_data; end  // count
                12'd3: begin consume = 1'b1; dec_d.word2 = fifo_data; end  // base vertex
                12'd2: begin consume = 1'b1; dec_d.word3 = fifo_data; end  // instance count
                default: begin                                             // start instance
                  if (fe_ready && (dec_q.path_fe || (ia_idle_i && out_empty))) begin
                    consume       = 1'b1;
                    fe_push       = 1'b1;
                    dec_d.draw_id = dec_q.draw_id + 16'd1;
                    dec_d.path_fe = 1'b1;
                  end
                end
              endcase
            end
            pineda_pkg::OP_WRITE_REG: begin
              if (dec_q.eop) begin
                if (!eop_full && (dec_q.path_fe ? fe_ready : draw_ready)) begin
                  consume   = 1'b1;  // queue the write, send the token down the current path
                  eop_push  = 1'b1;
                  draw_push = !dec_q.path_fe;
                  fe_push   = dec_q.path_fe;
                end
              end else if (!eop_same) begin
                consume  = 1'b1;
                fence_we = 1'b1;
              end
            end
            pineda_pkg::OP_WAIT_REG: begin
              consume      = 1'b1;
              dec_d.word0  = fifo_data;
              dec_d.wd_cnt = '0;
            end
            pineda_pkg::OP_JUMP, pineda_pkg::OP_CALL: begin
              consume = 1'b1;
              if (dec_q.cnt == 12'd2) begin
                dec_d.word0 = fifo_data;  // target
              end else if (target_bad) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ADDR;
              end else begin
                do_enter = 1'b1;
              end
            end
            pineda_pkg::OP_INTERRUPT: begin
              consume = 1'b1;
              set_int = 1'b1;  // INT_PAYLOAD = fifo_data
            end
            pineda_pkg::OP_COPY: begin
              consume = 1'b1;
              if (dec_q.cnt == 12'd3) begin
                dec_d.word0 = fifo_data;  // src
              end else if (dec_q.cnt == 12'd2) begin
                dec_d.word1 = fifo_data;  // dst
              end else if (copy_addr_bad) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ADDR;
              end else if (copy_overlap) begin
                pay_error = 1'b1;
                cause     = pineda_pkg::ERR_BAD_ARG;
              end else begin
                dec_d.copy_len = fifo_data;
              end
            end
            pineda_pkg::OP_CLEAR: begin
              consume = 1'b1;
              unique case (dec_q.cnt)
                12'd5: dec_d.word0 = fifo_data;     // target base
                12'd4: dec_d.word1 = fifo_data;     // pitch | msaa
                12'd3: dec_d.word2 = fifo_data;     // x0 | x1 << 16
                12'd2: dec_d.word3 = fifo_data;     // y0 | y1 << 16
                default: dec_d.copy_len = fifo_data;  // value (rectangle checked next cycle)
              endcase
            end
            pineda_pkg::OP_RESOLVE: begin
              consume = 1'b1;
              unique case (dec_q.cnt)
                12'd5: dec_d.word0 = fifo_data;       // src
                12'd4: dec_d.word1 = fifo_data;       // dst
                12'd3: dec_d.word2 = fifo_data;       // pitches
                12'd2: dec_d.word3 = fifo_data;       // x0 | x1 << 16
                default: dec_d.copy_len = fifo_data;  // y0 | y1 << 16 (checked next cycle)
              endcase
            end
            default: consume = 1'b1;  // NOP payload
          endcase
          if (consume) begin
            dec_d.cnt = dec_q.cnt - 12'd1;
            if (dec_q.cnt == 12'd1) begin
              unique case (dec_q.op)
                pineda_pkg::OP_WAIT_REG: dec_d.state = DecWait;
                pineda_pkg::OP_COPY:     dec_d.state = pay_error ? DecHdr : DecCopy;
                pineda_pkg::OP_CLEAR:    dec_d.state = DecClear;
                pineda_pkg::OP_RESOLVE:  dec_d.state = DecResolve;
                default:                 dec_d.state = DecHdr;
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
            dec_d.state = DecHdr;
          end else if (watchdog != 32'd0 && wd_next >= watchdog) begin
            pay_error   = 1'b1;
            set_error   = 1'b1;
            cause       = pineda_pkg::ERR_WAIT_TIMEOUT;
            dec_d.state = DecHdr;
          end else begin
            dec_d.wd_cnt = wd_next;
          end
        end
      end

      DecCopy: begin
        // offered by the job-offer block above once earlier work is done; the DMA takes the job
        // in this cycle (its job ready is its idle)
        if (copy_valid_o && copy_ready_i) dec_d.state = DecCopyRun;
      end

      DecClear: begin
        // The payload is registered: an empty rectangle ends the command, a bad target is an
        // error at the header, else as COPY: earlier work first, then the fill or ZS.
        if (clr_empty) begin
          dec_d.state = DecHdr;
        end else if (clr_addr_bad) begin
          pay_error   = 1'b1;
          set_error   = 1'b1;
          cause       = pineda_pkg::ERR_BAD_ADDR;
          dec_d.state = DecHdr;
        end else if (zs_clear_valid_o && zs_clear_ready_i) begin
          dec_d.state = DecHdr;
        end else if (fill_valid_o && fill_ready_i) begin
          dec_d.state = DecCopyRun;
        end
      end

      DecResolve: begin
        // The payload is registered: a bad argument is an error at the header, else as COPY:
        // earlier work first (pineda_top flushes PW and ZS), then the resolve engine.
        if (rs_bad) begin
          pay_error   = 1'b1;
          set_error   = 1'b1;
          cause       = (rs_rect_bad || (!rs_align_bad && !rs_addr_bad)) ? pineda_pkg::ERR_BAD_ARG
                                                                         : pineda_pkg::ERR_BAD_ADDR;
          dec_d.state = DecHdr;
        end else if (resolve_valid_o && resolve_ready_i) begin
          dec_d.state = DecCopyRun;
        end
      end

      DecCopyRun: begin
        if (dma_idle_i) dec_d.state = DecHdr;  // every copy write acknowledged
      end

      default: dec_d.state = DecHdr;
    endcase

    // Decode position: RING_RPTR (wraps to 0 at RING_SIZE) or the IB position.
    rptr_inc = pos_q.ring_rptr + 32'd4;
    if (consume) begin
      if (pos_q.in_ib) begin
        pos_d.ib_addr = pos_q.ib_addr + 32'd4;
        pos_d.ib_rem  = pos_q.ib_rem - 32'd1;
      end else begin
        pos_d.ring_rptr = (rptr_inc == ring_size) ? 32'd0 : rptr_inc;
      end
    end
    if (pay_error) begin
      pos_d.ring_rptr = dec_q.hdr_rptr;  // stop at the failing command
    end

    if (do_enter) begin
      resync = fetch_parked;  // the fetch stopped at this command: restart it at the target
      if (dec_q.op == pineda_pkg::OP_CALL) begin
        pos_d.stk_ring[push_idx] = !pos_q.in_ib;
        pos_d.stk_addr[push_idx] = pos_q.ib_addr + 32'd4;  // after the CALL's last dword
        pos_d.stk_rem[push_idx]  = pos_q.ib_rem - 32'd1;
        pos_d.sp                 = pos_q.sp + SpW'(1);
      end
      pos_d.in_ib   = 1'b1;
      pos_d.ib_addr = dec_q.word0;
      pos_d.ib_rem  = fifo_data;
    end
    if (do_ret) begin
      if (pos_q.sp != '0) begin
        pos_d.sp      = pos_q.sp - SpW'(1);
        pos_d.in_ib   = !pos_q.stk_ring[top_idx];
        pos_d.ib_addr = pos_q.stk_addr[top_idx];
        pos_d.ib_rem  = pos_q.stk_rem[top_idx];
      end else begin
        pos_d.in_ib = 1'b0;  // an IB entered by JUMP from the ring returns to the ring
      end
    end

    // End-of-pipe queue: push at the tail, a completion pops the head and writes its fence in
    // cp_regs (the same cycle's top-of-pipe write never targets that register; a host write to
    // it in the same cycle is overridden).
    eop_pop = eop_done_valid_i && (eopq_q.cnt != '0);
    if (eop_push) begin
      eopq_d.idx[eop_tail] = fence_widx;
      eopq_d.val[eop_tail] = fifo_data;
    end
    if (eop_pop) begin
      eopq_d.head = eopq_q.head + EopW'(1);
    end
    eopq_d.cnt = eopq_q.cnt + (EopW+1)'(eop_push) - (EopW+1)'(eop_pop);

    // CONTROL.CP_RESET: abort decoding, drop the prefetch (and reads in flight) and the return
    // stack, clear ERROR and HALTED (in cp_regs), skip what was submitted (RPTR := WPTR). A copy
    // already handed to the DMA completes; the next COPY waits for it. End-of-pipe writes in
    // flight are kept: their tokens are in the pipeline and complete as usual.
    if (cp_reset) begin
      resync          = 1'b1;
      dec_d.state     = DecHdr;
      pos_d.in_ib     = 1'b0;
      pos_d.sp        = '0;
      pos_d.ring_rptr = ring_wptr;
    end

    fifo_ready = consume;
  end

  assign eop_done_ready_o = 1'b1;
  assign copy_src_o = dec_q.word0;
  assign copy_dst_o = dec_q.word1;
  assign copy_len_o = dec_q.copy_len;

  // Hi-Z forget: does the destination of the COPY / colour clear / RESOLVE being executed meet
  // the last depth clear's buffer? (A depth clear renames the buffer itself.)
  always_comb begin
    hzb_hit = 1'b0;
    unique case (dec_q.state)
      DecCopy:    hzb_hit = (copy_len_o != 32'd0) && (35'(copy_dst_o) < hzb_end_q) &&
                            (35'(copy_dst_o) + 35'(copy_len_o) > 35'(hzb_lo_q));
      DecClear:   hzb_hit = !clear_o.depth && (clr_first < hzb_end_q) && (clr_end > 35'(hzb_lo_q));
      DecResolve: hzb_hit = (rs_dfirst < hzb_end_q) && (rs_dend > 35'(hzb_lo_q));
      default:    hzb_hit = 1'b0;
    endcase
    hzb_hit                = hzb_hit && hzb_valid_q;
    hiz_clear_o            = clear_o;
    hiz_clear_o.hiz_forget = hzb_hit;
  end

  always_comb begin
    hiz_done_d  = ((dec_d.state == DecClear) || (dec_d.state == DecCopy) || (dec_d.state == DecResolve)) &&
                  (hiz_done_q || (hiz_clear_valid_o && hiz_clear_ready_i));
    hzb_valid_d = hzb_valid_q;
    hzb_lo_d    = hzb_lo_q;
    hzb_end_d   = hzb_end_q;
    if (hiz_clear_valid_o && hiz_clear_ready_i) begin
      if (hiz_clear_o.hiz_forget) begin
        hzb_valid_d = 1'b0;
      end else begin
        hzb_valid_d = 1'b1;
        hzb_lo_d    = clear_o.target.base;
        hzb_end_d   = 35'(clear_o.target.base) + 35'(pineda_pkg::HIZ_BUF_ROWS) * 35'(clear_o.target.pitch);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hiz_done_q  <= 1'b0;
      hzb_valid_q <= 1'b0;
      hzb_lo_q    <= '0;
      hzb_end_q   <= '0;
    end else begin
      hiz_done_q  <= hiz_done_d;
      hzb_valid_q <= hzb_valid_d;
      hzb_lo_q    <= hzb_lo_d;
      hzb_end_q   <= hzb_end_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q   <= '0;
      pos_q   <= '0;
      eopq_q  <= '0;
      state_q <= pineda_pkg::DRAW_STATE_RESET;
    end else begin
      dec_q   <= dec_d;
      pos_q   <= pos_d;
      eopq_q  <= eopq_d;
      state_q <= state_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Status, idle
  // ---------------------------------------------------------------------------------------------
  logic pipe_busy;

  always_comb begin
    pipe_busy = !pipe_idle_i || !out_empty || !fe_empty || (eopq_q.cnt != '0);
    status    = '0;
    status[pineda_pkg::STATUS_RUNNING]    = run;
    status[pineda_pkg::STATUS_HALTED]     = halted;
    status[pineda_pkg::STATUS_ERROR]      = error;
    status[pineda_pkg::STATUS_PIPE_BUSY]  = pipe_busy;
    status[pineda_pkg::STATUS_RING_EMPTY] = (pos_q.ring_rptr == ring_wptr);
    status[pineda_pkg::STATUS_WAITING]    = (dec_q.state == DecWait);
    status[pineda_pkg::STATUS_IN_IB]      = pos_q.in_ib;
    status[pineda_pkg::STATUS_COPYING]    = (dec_q.state == DecCopy) || (dec_q.state == DecCopyRun) ||
                                            (dec_q.state == DecClear) || (dec_q.state == DecResolve);

    // Starved: no command to decode (nothing in the FIFO, or decoding stopped/paused), not in the
    // middle of a command, not waiting on a fence, wait or copy, draw output empty.
    idle_o = (dec_q.state == DecHdr) && !(run && fifo_valid) && out_empty && fe_empty;
  end

`ifndef SYNTHESIS
  // Invariants the decoder relies on.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      RetStackDepth: assert (32'(pos_q.sp) <= Depth)
        else $error("cp: return stack holds %0d entries, more than RET_STACK_DEPTH", pos_q.sp);
      EopQueueOccupancy: assert (32'(eopq_q.cnt) <= EopDepth)
        else $error("cp: end-of-pipe queue holds %0d writes, more than EOP_QUEUE_DEPTH", eopq_q.cnt);
      EopDoneExpected: assert (!eop_done_valid_i || eopq_q.cnt != '0)
        else $error("cp: an end-of-pipe completion with no end-of-pipe write queued");
      EopPushHasRoom: assert (!eop_push || !eop_full)
        else $error("cp: end-of-pipe write pushed into a full queue");
    end
  end
`endif

  logic unused_sig;
  assign unused_sig = ^{fetch_idle, wait_diff[30:0]};

endmodule
