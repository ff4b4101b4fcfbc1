// dma: the copy engine behind COPY (docs/contract.md §4), memory client MEM_CLIENT_DMA.
//
// A job (src, dst, len bytes, any alignment) is accepted only while the unit is idle
// (job_ready_o = idle_o). The source dwords covering [src, src + len) stream in through a
// mem_stream_reader (prefetching up to FetchDepth reads); every byte then becomes one byte write
// (be = one lane, the byte replicated in all four lanes of wdata) to dst, dst + 1, ... in
// increasing address order. Reads and writes share the client port: a pending write goes first,
// and a request that is offered and not accepted stays selected until it is (stream rule).
// Write acknowledgements are counted; idle_o (no job, no write held or outstanding, reader idle)
// is what the CP waits for before it decodes past the COPY, so every later command sees the
// copied bytes. The CP never issues overlapping source/destination ranges.
// Throughput: one byte per clock while the port accepts (plus one read per 4 source bytes).
module dma #(
  parameter int unsigned FetchDepth   = 64,
  parameter int unsigned OutstandingW = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Copy jobs from the CP
  input  logic                 job_valid_i,
  output logic                 job_ready_o,
  input  logic [31:0]          job_src_i,
  input  logic [31:0]          job_dst_i,
  input  logic [31:0]          job_len_i,
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

  logic [31:0]             rem_q,    rem_d;     // bytes still to write
  logic [31:0]             dst_q,    dst_d;     // next destination byte
  logic [1:0]              sb_q,     sb_d;      // byte lane of the next source byte
  logic                    wr_valid_q, wr_valid_d;
  pineda_pkg::mem_req_t    wr_q,     wr_d;
  logic [OutstandingW-1:0] outst_q,  outst_d;   // writes not yet acknowledged
  logic                    lock_q,   lock_d;    // a request was offered and not accepted
  logic                    lockwr_q, lockwr_d;  // ... and it was the write

  // Source reader.
  logic                 rd_job_valid, rd_job_ready;
  logic [31:0]          rd_job_addr;
  logic [32:0]          rd_job_count;
  logic [33:0]          last_byte;
  logic                 dat_valid, dat_ready;
  logic [31:0]          dat;
  logic                 rd_req_valid, rd_req_ready;
  pineda_pkg::mem_req_t rd_req;
  logic                 rd_rsp_valid, rd_rsp_ready;
  logic                 rd_idle;
  logic                 job_fire;

  always_comb begin
    job_fire     = job_valid_i && job_ready_o;
    rd_job_valid = job_fire && (job_len_i != 32'd0);
    rd_job_addr  = {job_src_i[31:2], 2'b00};
    // Dwords covering [src, src + len): ((src[1:0] + len - 1) >> 2) + 1.
    last_byte    = 34'(job_src_i[1:0]) + 34'(job_len_i) - 34'd1;
    rd_job_count = 33'(last_byte[33:2]) + 33'd1;
  end

  mem_stream_reader #(
    .Depth(FetchDepth)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .flush_i         (1'b0),
    .job_valid_i     (rd_job_valid),
    .job_ready_o     (rd_job_ready),
    .job_addr_i      (rd_job_addr),
    .job_count_i     (rd_job_count),
    .out_valid_o     (dat_valid),
    .out_ready_i     (dat_ready),
    .out_data_o      (dat),
    .mem_req_valid_o (rd_req_valid),
    .mem_req_ready_i (rd_req_ready),
    .mem_req_o       (rd_req),
    .mem_rsp_valid_i (rd_rsp_valid),
    .mem_rsp_ready_o (rd_rsp_ready),
    .mem_rsp_i,
    .idle_o          (rd_idle)
  );

  // Request port: the held write first, unless a read is locked in.
  logic grant_wr, wr_fire, rsp_wr_fire;
  always_comb begin
    grant_wr        = lock_q ? lockwr_q : wr_valid_q;
    mem_req_valid_o = grant_wr ? wr_valid_q : rd_req_valid;
    mem_req_o       = grant_wr ? wr_q : rd_req;
  end

  always_comb begin
    rd_req_ready    = mem_req_ready_i && !grant_wr;
    wr_fire         = grant_wr && wr_valid_q && mem_req_ready_i;
    // Responses: write acknowledgements are counted here, read data goes to the reader.
    rd_rsp_valid    = mem_rsp_valid_i && !mem_rsp_i.we;
    mem_rsp_ready_o = mem_rsp_i.we ? 1'b1 : rd_rsp_ready;
    rsp_wr_fire     = mem_rsp_valid_i && mem_rsp_i.we;
    idle_o          = (rem_q == 32'd0) && !wr_valid_q && (outst_q == '0) && rd_idle;
    job_ready_o     = idle_o;
  end

  // Byte writes.
  logic       load;
  logic [7:0] byte_val;
  always_comb begin
    rem_d      = rem_q;
    dst_d      = dst_q;
    sb_d       = sb_q;
    wr_valid_d = wr_valid_q;
    wr_d       = wr_q;
    dat_ready  = 1'b0;
    lock_d     = mem_req_valid_o && !mem_req_ready_i;
    lockwr_d   = grant_wr;

    byte_val = dat[8*sb_q +: 8];
    load     = dat_valid && (rem_q != 32'd0) && (!wr_valid_q || wr_fire);

    if (wr_fire) begin
      wr_valid_d = 1'b0;
    end
    if (load) begin
      wr_valid_d   = 1'b1;
      wr_d         = '0;
      wr_d.we      = 1'b1;
      wr_d.addr    = {dst_q[31:2], 2'b00};
      wr_d.wdata   = {4{byte_val}};
      wr_d.be      = 4'b0001 << dst_q[1:0];
      dst_d        = dst_q + 32'd1;
      rem_d        = rem_q - 32'd1;
      sb_d         = sb_q + 2'd1;
      dat_ready    = (sb_q == 2'd3) || (rem_q == 32'd1);  // last byte of this source dword
    end
    if (job_fire) begin
      rem_d = job_len_i;
      dst_d = job_dst_i;
      sb_d  = job_src_i[1:0];
    end

    unique case ({wr_fire, rsp_wr_fire})
      2'b10:   outst_d = outst_q + OutstandingW'(1);
      2'b01:   outst_d = outst_q - OutstandingW'(1);
      default: outst_d = outst_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rem_q      <= '0;
      dst_q      <= '0;
      sb_q       <= '0;
      wr_valid_q <= 1'b0;
      wr_q       <= '0;
      outst_q    <= '0;
      lock_q     <= 1'b0;
      lockwr_q   <= 1'b0;
    end else begin
      rem_q      <= rem_d;
      dst_q      <= dst_d;
      sb_q       <= sb_d;
      wr_valid_q <= wr_valid_d;
      wr_q       <= wr_d;
      outst_q    <= outst_d;
      lock_q     <= lock_d;
      lockwr_q   <= lockwr_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{rd_job_ready, last_byte[1:0]};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(job_valid_i && job_ready_o && !rd_job_ready))
        else $error("%m: job accepted while the reader is busy");
      assert (!(rsp_wr_fire && outst_q == '0 && !wr_fire))
        else $error("%m: write acknowledgement with no write outstanding");
    end
  end
`endif

endmodule
