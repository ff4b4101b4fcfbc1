// SPDX-License-Identifier: Apache-2.0
// mem_stream_reader: streams linear runs of dwords from memory.
//
// A job (job_addr_i, job_count_i dwords) is turned into job_count_i read requests at
// job_addr_i, +4, +8, ... (32-bit wraparound); the read data comes out of an internal FIFO in
// order. A credit scheme keeps up to Depth reads in flight: a read is issued only while
// (reads outstanding + FIFO occupancy) < Depth, so every response always has a free FIFO slot
// (mem_rsp_ready_o is effectively always 1 and the shared response path never blocks).
// A new job is accepted once the previous one has issued all of its requests; jobs therefore
// queue back to back and their data stays in order. A job with count 0 is accepted and does
// nothing.
//
// Throughput: one dword per clock as long as the memory round trip is shorter than Depth
// cycles (e.g. Depth = 256 hides the default 200-cycle DRAM latency; Depth = 64 sustains
// 64 / latency dwords per clock). Latency: memory latency + 1 cycle (FIFO).
// Jobs follow each other without an idle cycle: job_ready_o is also high in the cycle the
// current job's last request is accepted (so it depends on mem_req_ready_i).
// flush_i abandons everything: the current job stops issuing, the FIFO is emptied and every read
// still in flight (including one issued in the flush cycle, and one offered but not yet accepted,
// which stays offered until it is) is discarded when its response arrives, so the data of a job accepted after the flush is never mixed with older data. No job
// is accepted in the flush cycle (job_ready_o does not look at flush_i; the job is ignored). Responses come back in request order, so the discarded ones
// are exactly the next `discard` responses.
module mem_stream_reader #(
  parameter int unsigned Depth = 64
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 flush_i,
  // Jobs
  input  logic                 job_valid_i,
  output logic                 job_ready_o,
  input  logic [31:0]          job_addr_i,
  input  logic [32:0]          job_count_i,
  // Data out
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [31:0]          out_data_o,
  // Memory client port
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output pineda_pkg::mem_req_t mem_req_o,
  input  logic                 mem_rsp_valid_i,
  output logic                 mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t mem_rsp_i,
  // Status
  output logic                 idle_o
);

  localparam int unsigned CntW = $clog2(Depth) + 1;

  logic [31:0]     addr_q, addr_d;
  logic [32:0]     remaining_q, remaining_d;   // requests still to issue for the current job
  logic [CntW-1:0] outstanding_q, outstanding_d;
  logic [CntW-1:0] discard_q, discard_d;       // responses still to come that belong to a flush
  logic [CntW-1:0] fifo_count;
  logic [CntW-1:0] in_flight;
  logic            fifo_empty, fifo_full;
  logic            fifo_in_ready;
  logic            job_fire, req_fire, rsp_fire;
  logic            discarding, fifo_push, req_held;

  // Request side: functions of registers only (valid never depends on ready).
  always_comb begin
    // Credits: every slot is either free, reserved by an outstanding read, or occupied.
    in_flight       = outstanding_q + fifo_count;
    mem_req_valid_o = (remaining_q != 33'd0) && (in_flight < CntW'(Depth));
    mem_req_o       = '0;
    mem_req_o.we    = 1'b0;
    mem_req_o.addr  = addr_q;
    idle_o          = (remaining_q == 33'd0) && (outstanding_q == '0) && fifo_empty;
  end

  // A new job is taken when the current one has no request left to issue, or issues its last
  // one in this cycle (jobs follow each other without an idle cycle).
  assign job_ready_o     = (remaining_q == 33'd0) ||
                           ((remaining_q == 33'd1) && mem_req_valid_o && mem_req_ready_i);
  assign discarding      = (discard_q != '0);
  assign mem_rsp_ready_o = fifo_in_ready || discarding;
  assign rsp_fire        = mem_rsp_valid_i & mem_rsp_ready_o;
  assign fifo_push       = rsp_fire && !discarding;

  always_comb begin
    addr_d        = addr_q;
    remaining_d   = remaining_q;
    outstanding_d = outstanding_q;
    job_fire      = job_valid_i & job_ready_o & ~flush_i;
    req_fire      = mem_req_valid_o & mem_req_ready_i;
    req_held      = mem_req_valid_o & ~mem_req_ready_i;

    if (job_fire) begin
      addr_d      = job_addr_i;
      remaining_d = job_count_i;
    end else if (req_fire) begin
      addr_d      = addr_q + 32'd4;
      remaining_d = remaining_q - 33'd1;
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
      // issued later and its response discarded too.
      remaining_d = req_held ? 33'd1 : 33'd0;
      discard_d   = outstanding_d + (req_held ? CntW'(1) : CntW'(0));  // every read still to come
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      addr_q        <= '0;
      remaining_q   <= '0;
      outstanding_q <= '0;
      discard_q     <= '0;
    end else begin
      addr_q        <= addr_d;
      remaining_q   <= remaining_d;
      outstanding_q <= outstanding_d;
      discard_q     <= discard_d;
    end
  end

  stream_fifo #(
    .Depth(Depth),
    .Width(32)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .clear_i     (flush_i),
    .in_valid_i  (fifo_push),
    .in_ready_o  (fifo_in_ready),
    .in_data_i   (mem_rsp_i.rdata),
    .out_valid_o,
    .out_ready_i,
    .out_data_o,
    .count_o     (fifo_count),
    .empty_o     (fifo_empty),
    .full_o      (fifo_full)
  );

  logic unused_sig;
  assign unused_sig = ^{fifo_full, mem_rsp_i.we, mem_rsp_i.tag};

`ifndef SYNTHESIS
  // The request port keeps the stream rules, also across a flush.
  stream_assert #(.Width($bits(mem_req_o))) u_chk_req (
    .clk_i, .rst_ni, .valid_i(mem_req_valid_o), .ready_i(mem_req_ready_i), .data_i(mem_req_o));

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(mem_rsp_valid_i && !mem_rsp_ready_o))
        else $error("%m: response without a free FIFO slot (credit accounting broken)");
      assert (!(rsp_fire && outstanding_q == '0 && !req_fire))
        else $error("%m: response with no read outstanding");
    end
  end
`endif

endmodule
