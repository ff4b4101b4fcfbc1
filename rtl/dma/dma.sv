// SPDX-License-Identifier: Apache-2.0
// dma: the copy engine behind COPY (docs/contract.md §4), memory client MEM_CLIENT_DMA.
//
// A job (src, dst, len bytes, any alignment) is accepted only while the unit is idle
// (job_ready_o = idle_o). The source dwords covering [src, src + len) stream in through a
// mem_stream_reader (prefetching up to FetchDepth reads) into a byte funnel (up to 8 bytes); each
// write covers the bytes that complete one destination dword (be = those lanes, wdata = the bytes
// in their lanes, other lanes 0), in increasing address order: the first and last dword of an
// unaligned range take fewer bytes, every other one four. Reads and writes share the client port: a pending write goes first,
// and a request that is offered and not accepted stays selected until it is (stream rule).
// Write acknowledgements are counted; idle_o (no job, no write held or outstanding, reader idle)
// is what the CP waits for before it decodes past the COPY, so every later command sees the
// copied bytes. The CP never issues overlapping source/destination ranges.
// Throughput: one write (4 bytes) per clock while the port accepts, sharing the port with one
// read per 4 source bytes: about 2 bytes per clock on a busy port.
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
  logic [31:0]             src_q,    src_d;     // source bytes still to take from the reader
  logic [63:0]             bb_q,     bb_d;      // byte funnel, next byte in [7:0]
  logic [3:0]              cnt_q,    cnt_d;     // bytes in the funnel (0..8)
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

  // Byte funnel: source bytes are appended to bb_q (next byte to write in [7:0]); each write
  // takes the bytes that complete the destination dword at dst_q (4 - dst[1:0] of them, fewer
  // at the end) once they are all there.
  logic [3:0]  k_need;     // bytes of the next write
  logic [3:0]  k_take;     // source bytes appended this cycle
  logic [3:0]  cnt_mid;    // bytes left in the funnel after this cycle's write
  logic [63:0] bb_mid;
  logic        wr_load;
  logic [2:0]  lane_room;  // 4 - sb: source bytes left in the current dword
  logic [2:0]  dst_room;   // 4 - dst[1:0]: bytes that complete the destination dword
  logic [31:0] src_dw;     // the source dword shifted down to lane sb
  always_comb begin
    rem_d      = rem_q;
    dst_d      = dst_q;
    sb_d       = sb_q;
    src_d      = src_q;
    bb_d       = bb_q;
    cnt_d      = cnt_q;
    wr_valid_d = wr_valid_q;
    wr_d       = wr_q;
    dat_ready  = 1'b0;
    lock_d     = mem_req_valid_o && !mem_req_ready_i;
    lockwr_d   = grant_wr;

    if (wr_fire) begin
      wr_valid_d = 1'b0;
    end

    // The write: the bytes that complete the dword at dst_q.
    dst_room = 3'd4 - {1'b0, dst_q[1:0]};
    k_need   = ({29'd0, dst_room} < rem_q) ? {1'b0, dst_room} : rem_q[3:0];
    wr_load = (rem_q != 32'd0) && (cnt_q >= k_need) && (!wr_valid_q || wr_fire);
    bb_mid  = bb_q;
    cnt_mid = cnt_q;
    if (wr_load) begin
      wr_valid_d = 1'b1;
      wr_d       = '0;
      wr_d.we    = 1'b1;
      wr_d.addr  = {dst_q[31:2], 2'b00};
      wr_d.wdata = bb_q[31:0] << {dst_q[1:0], 3'b000};
      wr_d.be    = 4'(((5'd1 << k_need) - 5'd1) << dst_q[1:0]);
      dst_d      = dst_q + 32'(k_need);
      rem_d      = rem_q - 32'(k_need);
      bb_mid     = bb_q >> {k_need, 3'b000};
      cnt_mid    = cnt_q - k_need;
    end

    // The source: the bytes of the next source dword from lane sb_q, while they fit.
    lane_room = 3'd4 - {1'b0, sb_q};
    k_take    = ({29'd0, lane_room} < src_q) ? {1'b0, lane_room} : src_q[3:0];
    src_dw    = dat >> {sb_q, 3'b000};
    bb_d      = bb_mid;
    cnt_d     = cnt_mid;
    if (dat_valid && (src_q != 32'd0) && (cnt_mid <= 4'd4)) begin
      dat_ready = 1'b1;
      bb_d      = bb_mid | ({32'd0, src_dw} << {cnt_mid, 3'b000});
      // Only the k_take bytes taken are valid; the rest of the dword is masked off.
      bb_d      = bb_d & ((64'd1 << {cnt_mid + k_take, 3'b000}) - 64'd1);
      cnt_d     = cnt_mid + k_take;
      src_d     = src_q - 32'(k_take);
      sb_d      = 2'd0;
    end

    if (job_fire) begin
      rem_d = job_len_i;
      dst_d = job_dst_i;
      src_d = job_len_i;
      sb_d  = job_src_i[1:0];
      bb_d  = '0;
      cnt_d = '0;
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
      src_q      <= '0;
      bb_q       <= '0;
      cnt_q      <= '0;
      wr_valid_q <= 1'b0;
      wr_q       <= '0;
      outst_q    <= '0;
      lock_q     <= 1'b0;
      lockwr_q   <= 1'b0;
    end else begin
      rem_q      <= rem_d;
      dst_q      <= dst_d;
      sb_q       <= sb_d;
      src_q      <= src_d;
      bb_q       <= bb_d;
      cnt_q      <= cnt_d;
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
