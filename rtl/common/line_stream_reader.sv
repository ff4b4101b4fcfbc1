// SPDX-License-Identifier: Apache-2.0
// line_stream_reader: streams linear runs of dwords from memory over the line port
// (docs/contract.md §2.1), the successor of mem_stream_reader.
//
// A job (job_i: a pineda_pkg::line_job_t, offered with job_i.valid and taken with job_ready_o;
// job_i.addr, dword aligned: addr[1:0] ignored; job_i.count dwords, any alignment, 32-bit
// wraparound) is fetched as the whole 64-byte lines that hold it, one read request per line, in
// order. Each line's data goes into a line buffer (sram_1r1w, DepthLines lines) and leaves as
// groups of OutDwords dwords aligned to OutDwords * 4 bytes: out_data_o[k] is the dword at the
// group's address + 4k and out_mask_o[k] says whether it belongs to the job (only a job's first
// and last group can be partial; with OutDwords = 1 the mask is always 1). out_last_o marks the
// job's last group. Groups never mix two jobs.
//
// Credits: a request is issued only while (lines outstanding + lines buffered) < DepthLines, so
// every response has a free line slot (mem_o.rsp_ready is 1) and the shared response path
// never blocks. Throughput: one group per clock as long as DepthLines lines cover the memory
// round trip at the consumer's rate (OutDwords = 1: 16 lines hide ~250 cycles; a line is
// requested when its first group is due ~DepthLines * 16 / OutDwords clocks ahead). A partial
// first or last line costs nothing extra: the next line is read from the SRAM in the cycle the
// current line's last group leaves. Latency: memory latency + 3 clocks (SRAM write, read, out).
// Jobs follow each other without an idle cycle (job_ready_o is also high in the cycle the
// current job's last request is accepted). A job with count 0 is accepted and does nothing.
//
// flush_i abandons everything: the current job stops issuing, the buffered lines are dropped,
// and every read still in flight (including one issued in the flush cycle, and one offered but
// not yet accepted, which stays offered until it is) is discarded when its response arrives, so
// the data of a job accepted after the flush is never mixed with older data. No job is accepted
// in the flush cycle. Responses come back in request order, so the discarded ones are exactly
// the next `discard` responses.
module line_stream_reader #(
  parameter int unsigned DepthLines = 16,  // line buffer (power of two >= 2)
  parameter int unsigned OutDwords  = 1    // 1, 2, 4, 8 or 16 dwords per output group
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          flush_i,
  // Jobs
  input  pineda_pkg::line_job_t         job_i,
  output logic                          job_ready_o,
  // Data out
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output logic [OutDwords-1:0][31:0]    out_data_o,
  output logic [OutDwords-1:0]          out_mask_o,
  output logic                          out_last_o,
  // Line port client (mem_o depends on registers only)
  output pineda_pkg::mem_port_req_t     mem_o,
  input  pineda_pkg::mem_port_rsp_t     mem_i,
  // Status
  output logic                          idle_o
);

  localparam int unsigned LineDw = pineda_pkg::LINE_DWORDS;   // 16
  localparam int unsigned SlotW  = $clog2(DepthLines);
  localparam int unsigned CntW   = SlotW + 1;
  localparam int unsigned OutSh  = $clog2(OutDwords);         // log2 of the group size
  localparam int unsigned LineW  = LineDw * 32;

  // What the output side needs of each requested line: first and last dword of the job in it,
  // and whether it is the job's last line. Queued at request time, in request order.
  typedef struct packed {
    logic [3:0] start;
    logic [3:0] stop;
    logic       last;
  } meta_t;
  localparam int unsigned MetaW = 9;  // $bits(meta_t) (Yosys does not take $bits of a type here)

  // ---------------------------------------------------------------------------------------------
  // Request side
  // ---------------------------------------------------------------------------------------------
  logic [25:0]     line_q, line_d;          // line address (addr[31:6]) of the next request
  logic [29:0]     left_q, left_d;          // lines of the current job still to request
  logic            first_q, first_d;        // the next request is the job's first line
  logic [3:0]      start_q, start_d;        // first dword of the job in its first line
  logic [3:0]      stop_q, stop_d;          // last dword of the job in its last line
  logic            zombie_q, zombie_d;      // a request offered across a flush: issue, discard
  logic [CntW-1:0] outstanding_q, outstanding_d;
  logic [CntW-1:0] discard_q, discard_d;    // responses still to come that belong to a flush
  logic [CntW-1:0] filled_q, filled_d;      // lines in the buffer (the loaded one included)
  logic [CntW-1:0] in_flight;
  logic            req_fire, req_held, rsp_fire, job_fire, discarding;
  logic [33:0]     job_end;                 // job_addr[5:2] + count
  meta_t           req_meta;

  always_comb begin
    in_flight       = outstanding_q + filled_q;
    mem_o           = '0;
    mem_o.valid     = zombie_q || ((left_q != '0) && (in_flight < CntW'(DepthLines)));
    mem_o.req.addr  = {line_q, 6'b000000};
    mem_o.rsp_ready = 1'b1;
    req_meta.start  = first_q ? start_q : 4'd0;
    req_meta.stop   = (left_q == 30'd1) ? stop_q : 4'd15;
    req_meta.last   = (left_q == 30'd1);
  end

  // A new job is taken when the current one has no line left to request, or requests its last
  // one in this cycle.
  assign job_ready_o     = !zombie_q &&
                           ((left_q == '0) || ((left_q == 30'd1) && mem_o.valid && mem_i.req_ready));
  assign rsp_fire        = mem_i.rsp_valid;
  assign discarding      = (discard_q != '0);

  always_comb begin
    line_d        = line_q;
    left_d        = left_q;
    first_d       = first_q;
    start_d       = start_q;
    stop_d        = stop_q;
    zombie_d      = zombie_q;
    job_fire      = job_i.valid & job_ready_o & ~flush_i;
    req_fire      = mem_o.valid & mem_i.req_ready;
    req_held      = mem_o.valid & ~mem_i.req_ready;
    job_end       = 34'(job_i.addr[5:2]) + 34'(job_i.count);

    if (req_fire) begin
      if (zombie_q) begin
        zombie_d = 1'b0;
      end else begin
        line_d  = line_q + 26'd1;
        left_d  = left_q - 30'd1;
        first_d = 1'b0;
      end
    end
    if (job_fire) begin
      line_d  = job_i.addr[31:6];
      left_d  = (job_i.count == 33'd0) ? 30'd0 : 30'((job_end + 34'd15) >> 4);
      first_d = 1'b1;
      start_d = job_i.addr[5:2];
      stop_d  = 4'(job_end - 34'd1);
    end

    case ({req_fire, rsp_fire})
      2'b10:   outstanding_d = outstanding_q + CntW'(1);
      2'b01:   outstanding_d = outstanding_q - CntW'(1);
      default: outstanding_d = outstanding_q;
    endcase

    discard_d = discard_q;
    if (rsp_fire && discarding) begin
      discard_d = discard_q - CntW'(1);
    end
    if (flush_i) begin
      // A request offered and not accepted in the flush cycle stays offered (stream rule): it is
      // issued later as a zombie and its response discarded too.
      left_d    = '0;
      zombie_d  = req_held;
      discard_d = outstanding_d + (req_held ? CntW'(1) : CntW'(0));
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Line buffer: responses are written in order into slot wslot; the output side reads slot
  // rslot into the SRAM's output register, which is the line being sent.
  // ---------------------------------------------------------------------------------------------
  logic [SlotW-1:0] wslot_q, wslot_d, rslot_q, rslot_d;
  logic             loaded_q, loaded_d;     // the SRAM output register holds the current line
  meta_t            cur_q, cur_d;           // its meta
  logic [3:0]       grp_q, grp_d;           // current group (in OutDwords units)
  logic             sram_we, sram_re;
  logic [LineW-1:0] sram_rdata;
  logic             meta_valid, meta_pop;
  meta_t            meta_front;
  logic             meta_in_ready, meta_empty, meta_full;
  logic [$clog2(DepthLines+2):0] meta_count;
  logic             out_fire, line_done, load;
  logic [3:0]       grp_stop;

  assign sram_we = rsp_fire && !discarding;

  sram_1r1w #(
    .Width (LineW),
    .Depth (DepthLines),
    .MaskW (1)
  ) u_lines (
    .clk_i,
    .we_i    (sram_we),
    .waddr_i (wslot_q),
    .wdata_i (mem_i.rsp.rdata),
    .wmask_i (1'b1),
    .re_i    (sram_re),
    .raddr_i (rslot_q),
    .rdata_o (sram_rdata)
  );

  stream_fifo #(
    .Sram (1'b1),
    .Depth (DepthLines),
    .Width (MetaW)
  ) u_meta (
    .clk_i,
    .rst_ni,
    .clear_i     (flush_i),
    .in_valid_i  (req_fire && !zombie_q),
    .in_ready_o  (meta_in_ready),
    .in_data_i   (req_meta),
    .out_valid_o (meta_valid),
    .out_ready_i (meta_pop),
    .out_data_o  (meta_front),
    .count_o     (meta_count),
    .empty_o     (meta_empty),
    .full_o      (meta_full)
  );

  always_comb begin
    grp_stop  = 4'(cur_q.stop >> OutSh);
    out_fire  = out_valid_o && out_ready_i;
    line_done = out_fire && (grp_q == grp_stop);
    // Load the next line when none is loaded or the current one leaves now; it must have been
    // written in an earlier cycle (filled_q counts those) and not be the loaded one.
    load      = meta_valid && (filled_q > CntW'(loaded_q)) && (!loaded_q || line_done);
    sram_re   = load;
    meta_pop  = load;

    wslot_d  = sram_we ? wslot_q + SlotW'(1) : wslot_q;
    rslot_d  = load ? rslot_q + SlotW'(1) : rslot_q;
    cur_d    = load ? meta_front : cur_q;
    grp_d    = load ? 4'(meta_front.start >> OutSh) : (out_fire ? grp_q + 4'd1 : grp_q);
    loaded_d = load ? 1'b1 : (line_done ? 1'b0 : loaded_q);
    filled_d = filled_q + CntW'(sram_we) - CntW'(line_done);

    if (flush_i) begin
      wslot_d  = '0;
      rslot_d  = '0;
      loaded_d = 1'b0;
      filled_d = '0;
    end
  end

  // Output: the current group of the loaded line.
  always_comb begin
    out_valid_o = loaded_q;
    out_last_o  = cur_q.last && (grp_q == grp_stop);
    for (int unsigned k = 0; k < OutDwords; k++) begin
      out_data_o[k] = sram_rdata[(32'(grp_q) * OutDwords + k) * 32 +: 32];
      out_mask_o[k] = (5'(32'(grp_q) * OutDwords + k) >= 5'(cur_q.start)) &&
                      (5'(32'(grp_q) * OutDwords + k) <= 5'(cur_q.stop));
    end
    idle_o = (left_q == '0) && !zombie_q && (outstanding_q == '0) && (filled_q == '0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      line_q        <= '0;
      left_q        <= '0;
      first_q       <= 1'b0;
      start_q       <= '0;
      stop_q        <= '0;
      zombie_q      <= 1'b0;
      outstanding_q <= '0;
      discard_q     <= '0;
      filled_q      <= '0;
      wslot_q       <= '0;
      rslot_q       <= '0;
      loaded_q      <= 1'b0;
      cur_q         <= '0;
      grp_q         <= '0;
    end else begin
      line_q        <= line_d;
      left_q        <= left_d;
      first_q       <= first_d;
      start_q       <= start_d;
      stop_q        <= stop_d;
      zombie_q      <= zombie_d;
      outstanding_q <= outstanding_d;
      discard_q     <= discard_d;
      filled_q      <= filled_d;
      wslot_q       <= wslot_d;
      rslot_q       <= rslot_d;
      loaded_q      <= loaded_d;
      cur_q         <= cur_d;
      grp_q         <= grp_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{meta_in_ready, meta_empty, meta_full, meta_count, mem_i.rsp.we, job_i.addr[1:0],
                        mem_i.rsp.src, mem_i.rsp.tag};

`ifndef SYNTHESIS
  initial begin
    assert (DepthLines >= 2 && (DepthLines & (DepthLines - 1)) == 0)
      else $fatal(1, "line_stream_reader: DepthLines must be a power of two >= 2");
    assert (OutDwords >= 1 && OutDwords <= 16 && (OutDwords & (OutDwords - 1)) == 0)
      else $fatal(1, "line_stream_reader: OutDwords must be 1, 2, 4, 8 or 16");
  end

  stream_assert #(.Width($bits(mem_o.req))) u_chk_req (
    .clk_i, .rst_ni, .valid_i(mem_o.valid), .ready_i(mem_i.req_ready), .data_i(mem_o.req));
  // The output keeps the stream rules except across a flush (which withdraws it).
  logic                       out_held_q;
  logic [OutDwords*33:0]      out_pay_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_held_q <= 1'b0;
      out_pay_q  <= '0;
    end else begin
      out_held_q <= out_valid_o && !out_ready_i && !flush_i;
      out_pay_q  <= {out_data_o, out_mask_o, out_last_o};
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && out_held_q) begin
      assert (out_valid_o && {out_data_o, out_mask_o, out_last_o} == out_pay_q)
        else $error("%m: output withdrawn or changed while stalled (no flush)");
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_fire && outstanding_q == '0))
        else $error("%m: response with no read outstanding");
      assert (!(sram_we && !flush_i && filled_q == CntW'(DepthLines)))
        else $error("%m: response without a free line slot (credit accounting broken)");
      assert (!(req_fire && !zombie_q && !flush_i && !meta_in_ready))
        else $error("%m: line meta FIFO overflow");
      assert (!(out_valid_o && out_mask_o == '0))
        else $error("%m: an output group with no dword of the job");
    end
  end
`endif

endmodule
