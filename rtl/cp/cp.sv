// cp: command processor v1 (docs/contract.md §3-§4).
//
// - Host register file: ID, CONTROL, STATUS, RING_BASE/SIZE/WPTR/RPTR, ERROR_CAUSE/ADDR,
//   IRQ_STATUS (W1C), IRQ_ENABLE, FENCE0..15. reg_rdata_o is combinational from reg_addr_i;
//   addresses the CP does not own read 0. Writes take effect at the clock edge.
// - Ring fetch: while enabled and the fetch pointer differs from RING_WPTR, one read job per
//   contiguous span (fetch pointer up to WPTR, or up to the end of the ring, then wrap to 0)
//   is handed to a mem_stream_reader, which prefetches into its FIFO with up to FetchDepth
//   reads in flight.
// - Decoder: one dword per clock from the prefetch FIFO. Headers are checked on their own
//   (BAD_OPCODE / BAD_LEN / BAD_ARG) before any payload is consumed; on an error the header is
//   not consumed (RING_RPTR stays at it) and nothing more is decoded until reset.
//   SET_STATE writes the 16 state registers, DRAW emits a draw_pkt_t carrying the state it
//   needs, WRITE_REG writes a fence at once (top of pipe) or after the pipeline has drained
//   (end of pipe: pipe_idle_i and the CP's own draw output empty), END halts.
// Throughput: one command dword per clock (a DRAW is 3 clocks, one draw packet per 3 clocks).
// Latency: header to draw packet on out_o = 3 clocks (header, payload 0, payload 1 -> register).
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
  // Memory client port (ring fetch)
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
  // Status
  input  logic                    pipe_idle_i,
  output logic                    idle_o
);

  typedef enum logic [1:0] {
    DecHdr     = 2'd0,  // next dword is a command header
    DecPayload = 2'd1,  // consuming the payload of op_q
    DecEop     = 2'd2   // end-of-pipe WRITE_REG waiting for the pipeline to drain
  } dec_state_e;

  localparam logic [31:0] IdValue = 32'h5049_0000 | pineda_pkg::CONTRACT_VERSION;
  localparam logic [14:0] MaxDim  = 15'(pineda_pkg::MAX_RT_DIM);

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
  logic [1:0]        irq_status_q,  irq_status_d;
  logic [31:0]       irq_enable_q,  irq_enable_d;
  logic [15:0][31:0] fence_q,       fence_d;
  logic [15:0][31:0] state_q,       state_d;
  dec_state_e        dec_q,         dec_d;
  logic [7:0]        op_q,          op_d;
  logic [11:0]       cnt_q,         cnt_d;       // payload dwords left
  logic [3:0]        idx_q,         idx_d;       // SET_STATE index / WRITE_REG fence index
  logic              eop_q,         eop_d;
  logic [31:0]       word_q,        word_d;      // DRAW first vertex / EOP fence value
  logic [15:0]       draw_id_q,     draw_id_d;

  // ---------------------------------------------------------------------------------------------
  // Ring fetch
  // ---------------------------------------------------------------------------------------------
  logic        job_valid, job_ready;
  logic [31:0] job_addr, span;
  logic [32:0] job_count;
  logic        fifo_valid, fifo_ready;
  logic [31:0] fifo_data;
  logic        reader_idle;

  // The job interface is internal: job_addr/job_count are sampled when job_ready is high
  // (a registered signal of the reader), so it is fine that they follow RING_WPTR.
  always_comb begin
    job_valid = control_q[0] && !error_q && (fetch_ptr_q != ring_wptr_q);
    span      = (ring_wptr_q > fetch_ptr_q) ? (ring_wptr_q - fetch_ptr_q)
                                            : (ring_size_q - fetch_ptr_q);
    job_addr  = ring_base_q + fetch_ptr_q;
    job_count = {3'b000, span[31:2]};
  end

  mem_stream_reader #(
    .Depth(FetchDepth)
  ) u_fetch (
    .clk_i,
    .rst_ni,
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
    draw_pkt.clip.x0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][15:0],  rt_w);
    draw_pkt.clip.x1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_X][31:16], rt_w);
    draw_pkt.clip.y0      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][15:0],  rt_h);
    draw_pkt.clip.y1      = min_dim(state_q[pineda_pkg::ST_SCISSOR_Y][31:16], rt_h);
    draw_pkt.draw_id      = draw_id_q;
  end

  // ---------------------------------------------------------------------------------------------
  // Header checks (from the header alone)
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
        if ((13'(hdr_arg) + 13'(hdr_len)) > 13'(pineda_pkg::NUM_STATE)) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_DRAW: begin
        if (hdr_len != 12'd2) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      pineda_pkg::OP_WRITE_REG: begin
        if (hdr_len != 12'd1) begin
          hdr_cause = pineda_pkg::ERR_BAD_LEN;
        end else if (hdr_arg[10:4] != 7'd0) begin
          hdr_cause = pineda_pkg::ERR_BAD_ARG;
        end
      end
      pineda_pkg::OP_END: begin
        if (hdr_len != 12'd0) hdr_cause = pineda_pkg::ERR_BAD_LEN;
      end
      default: hdr_cause = pineda_pkg::ERR_BAD_OPCODE;
    endcase
    hdr_err = (hdr_cause != pineda_pkg::ERR_NONE);
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
  logic        host_we;
  logic [31:0] rptr_inc;

  always_comb begin
    control_d    = control_q;
    halted_d     = halted_q;
    error_d      = error_q;
    ring_base_d  = ring_base_q;
    ring_size_d  = ring_size_q;
    ring_wptr_d  = ring_wptr_q;
    ring_rptr_d  = ring_rptr_q;
    fetch_ptr_d  = fetch_ptr_q;
    err_cause_d  = err_cause_q;
    err_addr_d   = err_addr_q;
    irq_status_d = irq_status_q;
    irq_enable_d = irq_enable_q;
    fence_d      = fence_q;
    state_d      = state_q;
    dec_d        = dec_q;
    op_d         = op_q;
    cnt_d        = cnt_q;
    idx_d        = idx_q;
    eop_d        = eop_q;
    word_d       = word_q;
    draw_id_d    = draw_id_q;

    consume     = 1'b0;
    draw_push   = 1'b0;
    fence_we    = 1'b0;
    fence_widx  = idx_q;
    fence_wdata = fifo_data;
    set_end     = 1'b0;
    set_error   = 1'b0;

    run = control_q[0] && !halted_q && !error_q;

    // Fetch pointer: advances by a whole span when the reader takes the job.
    if (job_valid && job_ready) begin
      fetch_ptr_d = fetch_ptr_q + span;
      if (fetch_ptr_d == ring_size_q) begin
        fetch_ptr_d = '0;
      end
    end

    unique case (dec_q)
      DecHdr: begin
        if (run && fifo_valid) begin
          if (hdr_err) begin
            set_error   = 1'b1;
            err_cause_d = hdr_cause;
            err_addr_d  = ring_base_q + ring_rptr_q;
          end else begin
            consume = 1'b1;
            op_d    = hdr_op;
            cnt_d   = hdr_len;
            idx_d   = hdr_arg[3:0];
            eop_d   = hdr_arg[pineda_pkg::WRITE_REG_EOP_BIT];
            if (32'(hdr_op) == pineda_pkg::OP_END) begin
              set_end = 1'b1;
            end else if (hdr_len != 12'd0) begin
              dec_d = DecPayload;
            end
          end
        end
      end

      DecPayload: begin
        if (run && fifo_valid) begin
          unique case (32'(op_q))
            pineda_pkg::OP_SET_STATE: begin
              consume        = 1'b1;
              state_d[idx_q] = fifo_data;
              idx_d          = idx_q + 4'd1;
            end
            pineda_pkg::OP_DRAW: begin
              if (cnt_q == 12'd2) begin
                consume = 1'b1;
                word_d  = fifo_data;  // first vertex
              end else if (draw_ready) begin
                consume   = 1'b1;     // vertex count: emit the draw
                draw_push = 1'b1;
                draw_id_d = draw_id_q + 16'd1;
              end
            end
            pineda_pkg::OP_WRITE_REG: begin
              consume = 1'b1;
              if (eop_q) begin
                word_d = fifo_data;
              end else begin
                fence_we = 1'b1;
              end
            end
            default: consume = 1'b1;  // NOP payload
          endcase
          if (consume) begin
            cnt_d = cnt_q - 12'd1;
            if (cnt_q == 12'd1) begin
              dec_d = (32'(op_q) == pineda_pkg::OP_WRITE_REG && eop_q) ? DecEop : DecHdr;
            end
          end
        end
      end

      DecEop: begin
        fence_wdata = word_q;
        if (pipe_idle_i && out_empty) begin
          fence_we = 1'b1;
          dec_d    = DecHdr;
        end
      end

      default: dec_d = DecHdr;
    endcase

    // RING_RPTR counts decoded dwords and wraps to 0 when it reaches RING_SIZE.
    rptr_inc = ring_rptr_q + 32'd4;
    if (consume) begin
      ring_rptr_d = (rptr_inc == ring_size_q) ? 32'd0 : rptr_inc;
    end

    // Host writes (the decoder's updates of the same cycle take priority where they overlap).
    host_we = reg_valid_i && reg_we_i;
    if (host_we) begin
      unique case (32'(reg_addr_i))
        pineda_pkg::REG_CONTROL: begin
          control_d = {31'd0, reg_wdata_i[0]};  // only ENABLE is stored
          halted_d  = 1'b0;
        end
        pineda_pkg::REG_RING_BASE:  ring_base_d  = reg_wdata_i;
        pineda_pkg::REG_RING_SIZE:  ring_size_d  = reg_wdata_i;
        pineda_pkg::REG_RING_WPTR:  ring_wptr_d  = reg_wdata_i;
        pineda_pkg::REG_IRQ_STATUS: irq_status_d = irq_status_q & ~reg_wdata_i[1:0];
        pineda_pkg::REG_IRQ_ENABLE: irq_enable_d = {30'd0, reg_wdata_i[1:0]};  // IRQ_* bits only
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
    if (set_end) begin
      halted_d                         = 1'b1;
      irq_status_d[pineda_pkg::IRQ_END] = 1'b1;
    end
    if (set_error) begin
      error_d                            = 1'b1;
      irq_status_d[pineda_pkg::IRQ_ERROR] = 1'b1;
    end

    fifo_ready = consume;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      control_q    <= '0;
      halted_q     <= 1'b0;
      error_q      <= 1'b0;
      ring_base_q  <= '0;
      ring_size_q  <= '0;
      ring_wptr_q  <= '0;
      ring_rptr_q  <= '0;
      fetch_ptr_q  <= '0;
      err_cause_q  <= '0;
      err_addr_q   <= '0;
      irq_status_q <= '0;
      irq_enable_q <= '0;
      fence_q      <= '0;
      state_q      <= '0;
      state_q[pineda_pkg::ST_VB_BASE]   <= pineda_pkg::ST_VB_BASE_RESET;
      state_q[pineda_pkg::ST_COLOR]     <= pineda_pkg::ST_COLOR_RESET;
      state_q[pineda_pkg::ST_RT_BASE]   <= pineda_pkg::ST_RT_BASE_RESET;
      state_q[pineda_pkg::ST_RT_PITCH]  <= pineda_pkg::ST_RT_PITCH_RESET;
      state_q[pineda_pkg::ST_RT_SIZE]   <= pineda_pkg::ST_RT_SIZE_RESET;
      state_q[pineda_pkg::ST_SCISSOR_X] <= pineda_pkg::ST_SCISSOR_X_RESET;
      state_q[pineda_pkg::ST_SCISSOR_Y] <= pineda_pkg::ST_SCISSOR_Y_RESET;
      dec_q        <= DecHdr;
      op_q         <= '0;
      cnt_q        <= '0;
      idx_q        <= '0;
      eop_q        <= 1'b0;
      word_q       <= '0;
      draw_id_q    <= '0;
    end else begin
      control_q    <= control_d;
      halted_q     <= halted_d;
      error_q      <= error_d;
      ring_base_q  <= ring_base_d;
      ring_size_q  <= ring_size_d;
      ring_wptr_q  <= ring_wptr_d;
      ring_rptr_q  <= ring_rptr_d;
      fetch_ptr_q  <= fetch_ptr_d;
      err_cause_q  <= err_cause_d;
      err_addr_q   <= err_addr_d;
      irq_status_q <= irq_status_d;
      irq_enable_q <= irq_enable_d;
      fence_q      <= fence_d;
      state_q      <= state_d;
      dec_q        <= dec_d;
      op_q         <= op_d;
      cnt_q        <= cnt_d;
      idx_q        <= idx_d;
      eop_q        <= eop_d;
      word_q       <= word_d;
      draw_id_q    <= draw_id_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Register read, status, interrupt
  // ---------------------------------------------------------------------------------------------
  logic [31:0] status;
  logic        pipe_busy;

  always_comb begin
    pipe_busy = !pipe_idle_i || !out_empty;
    status    = '0;
    status[pineda_pkg::STATUS_RUNNING]    = run;
    status[pineda_pkg::STATUS_HALTED]     = halted_q;
    status[pineda_pkg::STATUS_ERROR]      = error_q;
    status[pineda_pkg::STATUS_PIPE_BUSY]  = pipe_busy;
    status[pineda_pkg::STATUS_RING_EMPTY] = (ring_rptr_q == ring_wptr_q);

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
      pineda_pkg::REG_IRQ_STATUS:  reg_rdata_o = {30'd0, irq_status_q};
      pineda_pkg::REG_IRQ_ENABLE:  reg_rdata_o = irq_enable_q;
      default: begin
        if (reg_addr_i[7:4] == 4'(pineda_pkg::REG_FENCE0 >> 4)) begin
          reg_rdata_o = fence_q[reg_addr_i[3:0]];
        end
      end
    endcase

    irq_o = |(irq_status_q & irq_enable_q[1:0]);

    // Starved: no command to decode (nothing in the FIFO, or decoding stopped/paused), not in the
    // middle of a command, not waiting on a fence, draw output empty.
    idle_o = (dec_q == DecHdr) && !(run && fifo_valid) && out_empty;
  end

  logic unused_sig;
  assign unused_sig = ^{reader_idle, irq_enable_q[31:2]};

endmodule
