// SPDX-License-Identifier: Apache-2.0
// resolve: the MSAA resolve engine behind OP_RESOLVE (docs/om.md section 7), beside the DMA on
// the DMA's line-port client (pineda_top muxes the two; this unit tags its requests TAG = 1).
// Model: cpp_model/om/resolve (model::resolve_lines), the same line writes in the same order.
//
// A job (resolve_pkt_t, checked by the CP: non-empty rectangle, src and src pitch multiples of
// the 4x pixel P = 16 bytes (8 for B5G6R5), dst and dst pitch dword aligned, spans inside the
// valid window and disjoint) is accepted only while the unit is idle (job_ready_o = idle_o).
// Reads: row by row, the source lines covering the row's 4x pixels [s, e) (s = src + y*src_pitch
// + x0*P, e = s + (x1 - x0)*P), up to FetchLines reads in flight or buffered, through the client
// port the DMA uses too (rtl/common/line_port.sv: credits, an sram_fifo, one held write, the
// stream lock, TAG = 1); one read per clock when the port is free, so 200 cycles of latency are
// covered by the FIFO's depth.
// Each source line (64 bytes: 4 pixels of 4 samples of 4 bytes, or 8 pixels of 4 halfwords) is
// resolved in one clock into a 16-byte chunk of destination pixels, with a byte mask of the
// pixels inside [s, e). Chunk k of a row lands at c = d - s[5:0]/4 + 16k (d = the row's first
// destination byte; P / bpp = 4 for every format), which is dword (4-byte formats) or halfword
// (B5G6R5) aligned. Chunks are merged into a two-line window (the line at L and the next): a
// chunk whose line is L + 64 first sends the line at L (if any byte of it is enabled) and shifts
// the window. After a row's last chunk the window's two lines go out (those with bytes enabled).
// So every destination line covering a row is written once, left to right, with be = the row's
// bytes in it and wdata 0 elsewhere: whole lines inside the row.
// Port (line_port): the held write first, unless a read was offered and not accepted. Steady state: 4 reads and 1 write per 4 source lines (0.8 source lines per clock when the
// memory keeps up). idle_o: no job, nothing in flight, every write acknowledged.
module resolve #(
  parameter int unsigned FetchLines   = 128,  // power of two
  parameter int unsigned OutstandingW = 16
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // Jobs from the CP
  input  logic                      job_valid_i,
  output logic                      job_ready_o,
  input  pineda_pkg::resolve_pkt_t  job_i,
  // Line-port client
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output pineda_pkg::mem_line_req_t mem_req_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t mem_rsp_i,
  // Status
  output logic                      idle_o
);

  localparam int unsigned LineW   = pineda_pkg::LINE_BYTES * 8;  // 512

  // Job
  logic [1:0]  fmt_q, fmt_d;
  logic [15:0] sp_q, sp_d;        // source pitch
  logic [15:0] dp_q, dp_d;        // destination pitch
  // Read walk
  logic [14:0] rd_rows_q, rd_rows_d;  // rows still to read (0: no reads)
  logic [32:0] rd_s_q, rd_s_d;        // the row's first source byte
  logic [32:0] rd_l_q, rd_l_d;        // next line to read
  logic [32:0] rd_e_q, rd_e_d;        // the row's end (exclusive)
  // Consume walk
  logic [14:0] cs_rows_q, cs_rows_d;  // rows still to consume
  logic [32:0] cs_s_q, cs_s_d;        // the row's first source byte
  logic [32:0] cs_e_q, cs_e_d;        // the row's source end
  logic [32:0] cs_l_q, cs_l_d;        // the line at the FIFO head
  logic [31:0] cs_d_q, cs_d_d;        // the row's first destination byte
  logic [31:0] cs_c_q, cs_c_d;        // the chunk address of the FIFO head
  logic [1:0]  tail_q, tail_d;        // window lines still to send after a row's last chunk
  // Window: the line at win_l_q (bytes 0..63) and the next (64..127)
  logic                win_valid_q, win_valid_d;
  logic [31:0]         win_l_q, win_l_d;
  logic [2*LineW-1:0]  win_data_q, win_data_d;
  logic [127:0]        win_be_q, win_be_d;
  // The write handed to the port this cycle; the port's read lines (FIFO head)
  logic                      wr_valid;
  pineda_pkg::mem_line_req_t wr;
  logic                      f_out_valid, f_out_ready, wr_free, rd_fire, port_busy;
  logic [LineW-1:0]          f_out;

  // Job decode: the first row's source and destination bytes.
  logic        job_fire, b565;
  logic [32:0] j_s0, j_d0, j_e0, j_rowb;
  always_comb begin
    job_fire = job_valid_i && job_ready_o;
    b565     = (job_i.fmt == pineda_pkg::RT_FMT_B5G6R5);
    j_rowb   = (33'(job_i.rect.x1) - 33'(job_i.rect.x0)) << (b565 ? 3 : 4);
    j_s0     = 33'(job_i.src) + 33'(32'(job_i.rect.y0) * 32'(job_i.src_pitch)) +
               (33'(job_i.rect.x0) << (b565 ? 3 : 4));
    j_e0     = j_s0 + j_rowb;
    j_d0     = 33'(job_i.dst) + 33'(32'(job_i.rect.y0) * 32'(job_i.dst_pitch)) +
               (33'(job_i.rect.x0) << (b565 ? 1 : 2));
  end

  line_port #(
    .FetchLines  (FetchLines),
    .OutstandingW(OutstandingW),
    .Tag         (8'd1)
  ) u_port (
    .clk_i,
    .rst_ni,
    .rd_valid_i     (rd_rows_q != '0),
    .rd_addr_i      (rd_l_q[31:0]),
    .rd_take_o      (rd_fire),
    .line_valid_o   (f_out_valid),
    .line_ready_i   (f_out_ready),
    .line_o         (f_out),
    .wr_free_o      (wr_free),
    .wr_valid_i     (wr_valid),
    .wr_i           (wr),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_o,
    .mem_rsp_valid_i,
    .mem_rsp_ready_o,
    .mem_rsp_i,
    .busy_o         (port_busy)
  );

  always_comb begin
    idle_o      = (rd_rows_q == '0) && (cs_rows_q == '0) && (tail_q == '0) && !port_busy;
    job_ready_o = idle_o;
  end

  // Read walk.
  logic rd_row_end;
  always_comb begin
    rd_rows_d  = rd_rows_q;
    rd_s_d     = rd_s_q;
    rd_l_d     = rd_l_q;
    rd_e_d     = rd_e_q;
    rd_row_end = (rd_l_q + 33'(pineda_pkg::LINE_BYTES) >= rd_e_q);
    if (rd_fire) begin
      if (rd_row_end) begin
        rd_rows_d = rd_rows_q - 15'd1;
        rd_s_d    = rd_s_q + 33'(sp_q);
        rd_l_d    = {rd_s_d[32:6], 6'd0};
        rd_e_d    = rd_e_q + 33'(sp_q);
      end else begin
        rd_l_d = rd_l_q + 33'(pineda_pkg::LINE_BYTES);
      end
    end
    if (job_fire) begin
      rd_rows_d = job_i.rect.y1 - job_i.rect.y0;
      rd_s_d    = j_s0;
      rd_l_d    = {j_s0[32:6], 6'd0};
      rd_e_d    = j_e0;
    end
  end

  // Resolve the FIFO head: a 16-byte chunk and its byte mask.
  logic [127:0] chunk;
  logic [15:0]  chunk_be;
  logic [63:0]  src_be;
  logic [127:0] res_px;            // each 16-byte group of the FIFO head resolved (resolve_pixel)
  for (genvar i = 0; i < 4; i++) begin : g_px
    resolve_pixel u_px (
      .fmt_i (fmt_q),
      .src_i (f_out[128*i +: 128]),
      .pix_o (res_px[32*i +: 32])
    );
  end
  logic [32:0]  cs_left;
  logic [5:0]   cs_lo;
  always_comb begin
    cs_left = cs_e_q - cs_l_q;
    cs_lo   = (cs_l_q[32:6] == cs_s_q[32:6]) ? cs_s_q[5:0] : 6'd0;
    src_be  = '1 << cs_lo;
    if (cs_left < 33'(pineda_pkg::LINE_BYTES)) begin
      src_be = src_be & ~('1 << cs_left[5:0]);
    end
    chunk_be = '0;
    for (int i = 0; i < 4; i++) begin
      if (fmt_q == pineda_pkg::RT_FMT_B5G6R5) chunk_be[4*i +: 4] = {{2{src_be[16*i + 8]}}, {2{src_be[16*i]}}};
      else                                    chunk_be[4*i +: 4] = {4{src_be[16*i]}};
    end
    chunk = res_px;
    for (int b = 0; b < 16; b++) begin
      if (!chunk_be[b]) chunk[8*b +: 8] = 8'd0;
    end
  end

  // Consume walk, window and writes.
  logic               next_line, emit_lo, cs_row_end, take;
  logic [2*LineW-1:0] sh_data, placed;
  logic [127:0]       sh_be, placed_be;
  logic [31:0]        base_l;
  logic [5:0]         off;
  always_comb begin
    fmt_d       = fmt_q;
    sp_d        = sp_q;
    dp_d        = dp_q;
    cs_rows_d   = cs_rows_q;
    cs_s_d      = cs_s_q;
    cs_e_d      = cs_e_q;
    cs_l_d      = cs_l_q;
    cs_d_d      = cs_d_q;
    cs_c_d      = cs_c_q;
    tail_d      = tail_q;
    win_valid_d = win_valid_q;
    win_l_d     = win_l_q;
    win_data_d  = win_data_q;
    win_be_d    = win_be_q;
    wr_valid    = 1'b0;
    wr          = '0;
    f_out_ready = 1'b0;
    take        = 1'b0;
    emit_lo     = 1'b0;

    cs_row_end = (cs_left <= 33'(pineda_pkg::LINE_BYTES));
    // The window shifted by one line (the low line leaves).
    sh_data    = {512'd0, win_data_q[2*LineW-1:LineW]};
    sh_be      = {64'd0, win_be_q[127:64]};
    next_line  = win_valid_q && (cs_c_q[31:6] != win_l_q[31:6]);

    if (tail_q != 2'd0) begin
      // After a row's last chunk: send the low line (if any byte), shift; twice.
      if (wr_free || (win_be_q[63:0] == '0)) begin
        emit_lo     = (win_be_q[63:0] != '0);
        win_data_d  = sh_data;
        win_be_d    = sh_be;
        win_l_d     = win_l_q + 32'd64;
        tail_d      = tail_q - 2'd1;
        win_valid_d = (tail_q != 2'd1);
      end
    end else if (f_out_valid && cs_rows_q != '0) begin
      if (!(next_line && (win_be_q[63:0] != '0) && !wr_free)) begin
        take = 1'b1;
      end
    end

    // Insert the head's chunk into the (possibly shifted, possibly new) window.
    base_l    = next_line ? win_l_q + 32'd64 : (win_valid_q ? win_l_q : {cs_c_q[31:6], 6'd0});
    off       = cs_c_q[5:0];
    placed    = {896'd0, chunk} << {off, 3'b000};
    placed_be = {112'd0, chunk_be} << off;
    if (take) begin
      f_out_ready = 1'b1;
      emit_lo     = next_line && (win_be_q[63:0] != '0);
      win_valid_d = 1'b1;
      win_l_d     = base_l;
      if (next_line) begin
        win_data_d = sh_data | placed;
        win_be_d   = sh_be | placed_be;
      end else begin
        win_data_d = (win_valid_q ? win_data_q : '0) | placed;
        win_be_d   = (win_valid_q ? win_be_q : '0) | placed_be;
      end
      if (cs_row_end) begin
        cs_rows_d = cs_rows_q - 15'd1;
        cs_s_d    = cs_s_q + 33'(sp_q);
        cs_e_d    = cs_e_q + 33'(sp_q);
        cs_l_d    = {cs_s_d[32:6], 6'd0};
        cs_d_d    = cs_d_q + 32'(dp_q);
        cs_c_d    = cs_d_d - 32'(cs_s_d[5:2]);
        tail_d    = 2'd2;
      end else begin
        cs_l_d = cs_l_q + 33'(pineda_pkg::LINE_BYTES);
        cs_c_d = cs_c_q + 32'd16;
      end
    end

    if (emit_lo) begin
      wr_valid = 1'b1;
      wr.we    = 1'b1;
      wr.addr  = win_l_q;
      wr.wdata = win_data_q[LineW-1:0];
      wr.be    = win_be_q[63:0];
    end

    if (job_fire) begin
      fmt_d       = job_i.fmt;
      sp_d        = job_i.src_pitch;
      dp_d        = job_i.dst_pitch;
      cs_rows_d   = job_i.rect.y1 - job_i.rect.y0;
      cs_s_d      = j_s0;
      cs_e_d      = j_e0;
      cs_l_d      = {j_s0[32:6], 6'd0};
      cs_d_d      = j_d0[31:0];
      cs_c_d      = j_d0[31:0] - 32'(j_s0[5:2]);
      tail_d      = 2'd0;
      win_valid_d = 1'b0;
      win_data_d  = '0;
      win_be_d    = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fmt_q       <= '0;
      sp_q        <= '0;
      dp_q        <= '0;
      rd_rows_q   <= '0;
      rd_s_q      <= '0;
      rd_l_q      <= '0;
      rd_e_q      <= '0;
      cs_rows_q   <= '0;
      cs_s_q      <= '0;
      cs_e_q      <= '0;
      cs_l_q      <= '0;
      cs_d_q      <= '0;
      cs_c_q      <= '0;
      tail_q      <= '0;
      win_valid_q <= 1'b0;
      win_l_q     <= '0;
      win_data_q  <= '0;
      win_be_q    <= '0;
    end else begin
      fmt_q       <= fmt_d;
      sp_q        <= sp_d;
      dp_q        <= dp_d;
      rd_rows_q   <= rd_rows_d;
      rd_s_q      <= rd_s_d;
      rd_l_q      <= rd_l_d;
      rd_e_q      <= rd_e_d;
      cs_rows_q   <= cs_rows_d;
      cs_s_q      <= cs_s_d;
      cs_e_q      <= cs_e_d;
      cs_l_q      <= cs_l_d;
      cs_d_q      <= cs_d_d;
      cs_c_q      <= cs_c_d;
      tail_q      <= tail_d;
      win_valid_q <= win_valid_d;
      win_l_q     <= win_l_d;
      win_data_q  <= win_data_d;
      win_be_q    <= win_be_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{j_d0[32], cs_s_q[1:0], 1'b0};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(f_out_valid && cs_rows_q == '0))
        else $error("%m: a line in the FIFO that no row needs");
      assert (!(job_valid_i && job_ready_o && (job_i.rect.x0 >= job_i.rect.x1 ||
                                               job_i.rect.y0 >= job_i.rect.y1)))
        else $error("%m: a resolve job with an empty rectangle");
    end
  end
`endif

endmodule
