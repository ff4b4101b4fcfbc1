// SPDX-License-Identifier: Apache-2.0
// line_port: the line-port client side of an engine that streams lines from memory and writes
// lines back (the DMA's copy/fill and the resolve engine; docs/contract.md section 2.1).
//
// The engine side is two bundles (pineda_pkg::line_port_req_t eng_i, line_port_rsp_t eng_o) and
// the loose read offer: rd_take_o depends on rd_valid_i, so folding the offer into eng_i/eng_o
// would make the pair a combinational loop to Verilator; eng_o depends on registers and mem_i only.
// Reads: the engine offers the next line address (rd_valid_i, rd_addr_i, from its registers);
// the read is issued only while reads outstanding + lines buffered < FetchLines (credits), so
// every response has room in the line FIFO (an SRAM stream_fifo of FetchLines lines) and responses are
// always accepted. rd_take_o: the read went out this cycle (the engine advances its walk). The
// lines come out in order on eng_o.line_valid / eng_o.line, taken with eng_i.line_ready.
// Writes: one held write register. eng_o.wr_free: the engine may hand a write this cycle (nothing
// held, or the held write goes out now); eng_i.wr_valid with eng_i.wr (we, addr, wdata, be) loads
// it.
// Port: the held write first, unless a request was offered and not accepted (it stays offered
// until taken: stream rule). Requests carry TAG = Tag. Write acknowledgements are counted.
// mem_o depends on registers only (rsp_ready is 1), never on mem_i: a bundle that did would be a
// combinational loop through the line arbiter to Verilator (docs/rtl_conventions.md).
// eng_o.busy: a read outstanding or buffered, a write held or not yet acknowledged.
module line_port #(
  parameter int unsigned FetchLines   = 128,  // power of two
  parameter int unsigned OutstandingW = 16,
  parameter logic [7:0]  Tag          = 8'd0
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // Reads from the engine
  input  logic                                   rd_valid_i,
  input  logic [31:0]                            rd_addr_i,
  output logic                                   rd_take_o,
  // The read lines (in order) and the writes
  input  pineda_pkg::line_port_req_t             eng_i,
  output pineda_pkg::line_port_rsp_t             eng_o,
  // Line-port client
  output pineda_pkg::mem_port_req_t              mem_o,
  input  pineda_pkg::mem_port_rsp_t              mem_i
);

  localparam int unsigned LineW   = pineda_pkg::LINE_BYTES * 8;  // 512
  localparam int unsigned CntW    = $clog2(FetchLines) + 2;
  localparam int unsigned FCountW = $clog2(FetchLines + 2) + 1;  // SRAM stream_fifo count_o

  logic                      wr_valid_q, wr_valid_d;
  pineda_pkg::mem_line_req_t wr_q,       wr_d;
  logic [CntW-1:0]           used_q,     used_d;   // lines read and not yet taken (credits)
  logic [OutstandingW-1:0]   outst_q,    outst_d;  // writes not yet acknowledged
  logic                      lock_q,     lock_d;   // a request was offered and not accepted
  logic                      lockwr_q,   lockwr_d; // ... and it was the write

  logic               f_in_valid, f_in_ready, f_empty, f_full, f_out_valid, wr_free;
  logic [FCountW-1:0] f_count;
  logic [LineW-1:0]   f_out;

  // Request port: the held write first, unless a read is locked in.
  logic rd_valid, grant_wr, wr_fire, rsp_wr_fire;
  always_comb begin
    rd_valid        = rd_valid_i && (32'(used_q) < FetchLines);
    grant_wr        = lock_q ? lockwr_q : wr_valid_q;
    mem_o.valid     = grant_wr ? wr_valid_q : rd_valid;
    // Responses are always taken: write acknowledgements are counted, and every read has its
    // line slot reserved (credits; asserted below). So mem_o never depends on mem_i.
    mem_o.rsp_ready = 1'b1;
    mem_o.req       = '0;
    if (grant_wr) begin
      mem_o.req = wr_q;
    end else begin
      mem_o.req.addr = rd_addr_i;
      mem_o.req.tag  = Tag;
    end
  end

  // Handshakes and status (a block of their own: valid never depends on ready).
  always_comb begin
    wr_fire         = grant_wr && wr_valid_q && mem_i.req_ready;
    rd_take_o       = !grant_wr && rd_valid && mem_i.req_ready;
    wr_free         = !wr_valid_q || wr_fire;
    // Responses: write acknowledgements are counted, read lines go to the FIFO (room reserved).
    rsp_wr_fire     = mem_i.rsp_valid && mem_i.rsp.we;
    f_in_valid      = mem_i.rsp_valid && !mem_i.rsp.we;
    eng_o.line_valid = f_out_valid;
    eng_o.line       = f_out;
    eng_o.wr_free    = wr_free;
    eng_o.busy       = (used_q != '0) || wr_valid_q || (outst_q != '0);
  end

  stream_fifo #(
    .Sram (1'b1),
    .Depth(FetchLines),
    .Width(LineW)
  ) u_lines (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (f_in_valid),
    .in_ready_o  (f_in_ready),
    .in_data_i   (mem_i.rsp.rdata),
    .out_valid_o (f_out_valid),
    .out_ready_i (eng_i.line_ready),
    .out_data_o  (f_out),
    .count_o     (f_count),
    .empty_o     (f_empty),
    .full_o      (f_full)
  );

  always_comb begin
    lock_d     = mem_o.valid && !mem_i.req_ready;
    lockwr_d   = grant_wr;
    wr_valid_d = wr_valid_q && !wr_fire;
    wr_d       = wr_q;
    if (eng_i.wr_valid) begin
      wr_valid_d = 1'b1;
      wr_d       = eng_i.wr;
      wr_d.tag   = Tag;
    end
    unique case ({rd_take_o, eng_i.line_ready && f_out_valid})
      2'b10:   used_d = used_q + CntW'(1);
      2'b01:   used_d = used_q - CntW'(1);
      default: used_d = used_q;
    endcase
    unique case ({wr_fire, rsp_wr_fire})
      2'b10:   outst_d = outst_q + OutstandingW'(1);
      2'b01:   outst_d = outst_q - OutstandingW'(1);
      default: outst_d = outst_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_valid_q <= 1'b0;
      wr_q       <= '0;
      used_q     <= '0;
      outst_q    <= '0;
      lock_q     <= 1'b0;
      lockwr_q   <= 1'b0;
    end else begin
      wr_valid_q <= wr_valid_d;
      wr_q       <= wr_d;
      used_q     <= used_d;
      outst_q    <= outst_d;
      lock_q     <= lock_d;
      lockwr_q   <= lockwr_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{f_full, f_empty, f_count, mem_i.rsp.src, mem_i.rsp.tag, 1'b0};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_wr_fire && outst_q == '0 && !wr_fire))
        else $error("%m: write acknowledgement with no write outstanding");
      assert (!(mem_i.rsp_valid && !mem_i.rsp.we && !f_in_ready))
        else $error("%m: read line with no room reserved");
      assert (!(mem_i.rsp_valid && !mem_i.rsp.we && used_q == '0))
        else $error("%m: read line with no read outstanding");
      assert (!(eng_i.wr_valid && !wr_free))
        else $error("%m: a write handed while one is held");
      assert (!(eng_i.wr_valid && !eng_i.wr.we))
        else $error("%m: a write request without we");
    end
  end
`endif

endmodule
