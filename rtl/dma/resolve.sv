// SPDX-License-Identifier: Apache-2.0
// resolve: the MSAA resolve engine behind OP_RESOLVE (docs/om.md section 7), beside the DMA on
// the DMA's line-port client (pineda_top muxes the two; this unit tags its requests TAG = 1).
// Model: cpp_model/om/resolve (model::resolve_lines), the same line writes in the same order.
//
// A job (resolve_pkt_t, checked by the CP: non-empty rectangle, src and src pitch multiples of
// the 4x pixel P = 16 bytes (8 for B5G6R5), dst and dst pitch dword aligned, spans inside the
// valid window and disjoint) is accepted only while the unit is idle (job_ready_o = idle_o).
// Setup: the first row's source and destination bytes (s = src + y0*src_pitch + x0*P,
// d = dst + y0*dst_pitch + x0*P/4), the products by shift-and-add, one bit of y0 per clock.
// Reads (here): row by row, the source lines covering the row's 4x pixels [s, e) (e = s +
// (x1 - x0)*P), up to FetchLines reads in flight or buffered, through the client port the DMA
// uses too (rtl/common/line_port.sv: credits, an SRAM stream_fifo, one held write, the stream lock,
// TAG = 1); one read per clock when the port is free, so 200 cycles of latency are covered by
// the FIFO's depth.
// Then one 4x pixel per clock through three stages with valid/ready:
//   resolve_unpack: the consume walk, a pixel's samples out of the FIFO head line and its
//                   destination byte;
//   resolve_pixel:  the arithmetic (five stages; the sRGB tables in block RAM);
//   resolve_line:   a one-line destination buffer, sent as one line write when a pixel for
//                   another line arrives or the row ends (be = the row's bytes in the line,
//                   wdata 0 elsewhere): every destination line covering a row written once,
//                   left to right.
// Port (line_port): the held write first, unless a read was offered and not accepted. Steady
// state, RGBA8: 1 read per 4 pixels and 1 write per 16. idle_o: no job, nothing in flight,
// every write acknowledged.
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
  output pineda_pkg::mem_port_req_t mem_o,
  input  pineda_pkg::mem_port_rsp_t mem_i,
  // Status
  output logic                      idle_o
);

  localparam int unsigned MetaW = 33;  // destination byte, row's last

  // Job
  logic [1:0]  fmt_q, fmt_d;
  logic        b565_q, b565_d;
  logic [15:0] sp_q, sp_d;        // source pitch
  logic [15:0] dp_q, dp_d;        // destination pitch
  logic [14:0] rows_q, rows_d;    // y1 - y0
  logic [14:0] npx_q, npx_d;      // x1 - x0
  logic [18:0] rowb_q, rowb_d;    // a row's source bytes
  // Setup: s += src_pitch << k, d += dst_pitch << k for every set bit k of y0
  logic        setup_q, setup_d;
  logic [14:0] m_q, m_d;          // y0 >> k
  logic [32:0] mcs_q, mcs_d;      // src_pitch << k
  logic [31:0] mcd_q, mcd_d;      // dst_pitch << k
  logic [32:0] accs_q, accs_d;    // s
  logic [31:0] accd_q, accd_d;    // d
  // Read walk
  logic [14:0] rd_rows_q, rd_rows_d;  // rows still to read (0: no reads)
  logic [32:0] rd_s_q, rd_s_d;        // the row's first source byte
  logic [32:0] rd_l_q, rd_l_d;        // next line to read
  logic [32:0] rd_e_q, rd_e_d;        // the row's end (exclusive)

  logic                      start, job_fire, rd_fire;
  // The port: the read lines and the write slot (lp_rsp) to the unpacker and the line packer,
  // the line they take and the write they hand (lp_req) from them.
  pineda_pkg::line_port_req_t lp_req;
  pineda_pkg::line_port_rsp_t lp_rsp;
  logic                      f_out_ready, wr_valid;
  pineda_pkg::mem_line_req_t wr;
  // unpack -> pixel -> line
  logic                      up_valid, up_ready, up_last, up_busy;
  logic [127:0]              up_src;
  logic [31:0]               up_da;
  logic                      px_valid, px_ready, px_busy;
  logic [31:0]               px_pix;
  logic [MetaW-1:0]          px_meta;
  logic                      ln_busy;

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
    .eng_i          (lp_req),
    .eng_o          (lp_rsp),
    .mem_o,
    .mem_i
  );
  always_comb begin
    lp_req.line_ready = f_out_ready;
    lp_req.wr_valid   = wr_valid;
    lp_req.wr         = wr;
  end

  // Status (a block of its own: ready never depends on valid).
  always_comb begin
    idle_o      = !setup_q && (rd_rows_q == '0) && !up_busy && !px_busy && !ln_busy && !lp_rsp.busy;
    job_ready_o = idle_o;
  end
  assign job_fire = job_valid_i && job_ready_o;

  // Job and setup.
  always_comb begin
    fmt_d   = fmt_q;
    b565_d  = b565_q;
    sp_d    = sp_q;
    dp_d    = dp_q;
    rows_d  = rows_q;
    npx_d   = npx_q;
    rowb_d  = rowb_q;
    setup_d = setup_q;
    m_d     = m_q;
    mcs_d   = mcs_q;
    mcd_d   = mcd_q;
    accs_d  = accs_q;
    accd_d  = accd_q;
    start   = setup_q && (m_q == '0);
    if (setup_q) begin
      if (m_q[0]) begin
        accs_d = accs_q + mcs_q;
        accd_d = accd_q + mcd_q;
      end
      m_d     = m_q >> 1;
      mcs_d   = mcs_q << 1;
      mcd_d   = mcd_q << 1;
      setup_d = !start;
    end
    if (job_fire) begin
      fmt_d   = job_i.fmt;
      b565_d  = (job_i.fmt == pineda_pkg::RT_FMT_B5G6R5);
      sp_d    = job_i.src_pitch;
      dp_d    = job_i.dst_pitch;
      rows_d  = job_i.rect.y1 - job_i.rect.y0;
      npx_d   = job_i.rect.x1 - job_i.rect.x0;
      rowb_d  = 19'(npx_d) << (b565_d ? 3 : 4);
      setup_d = 1'b1;
      m_d     = job_i.rect.y0;
      mcs_d   = 33'(job_i.src_pitch);
      mcd_d   = 32'(job_i.dst_pitch);
      accs_d  = 33'(job_i.src) + (33'(job_i.rect.x0) << (b565_d ? 3 : 4));
      accd_d  = job_i.dst + (32'(job_i.rect.x0) << (b565_d ? 1 : 2));
    end
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
    if (start) begin
      rd_rows_d = rows_q;
      rd_s_d    = accs_q;
      rd_l_d    = {accs_q[32:6], 6'd0};
      rd_e_d    = accs_q + 33'(rowb_q);
    end
  end

  resolve_unpack u_unpack (
    .clk_i,
    .rst_ni,
    .start_i     (start),
    .b565_i      (b565_q),
    .rows_i      (rows_q),
    .npx_i       (npx_q),
    .s_lo_i      (accs_q[5:0]),
    .d0_i        (accd_q),
    .sp_lo_i     (sp_q[5:0]),
    .dp_i        (dp_q),
    .line_valid_i(lp_rsp.line_valid),
    .line_ready_o(f_out_ready),
    .line_i      (lp_rsp.line),
    .out_valid_o (up_valid),
    .out_ready_i (up_ready),
    .out_src_o   (up_src),
    .out_da_o    (up_da),
    .out_last_o  (up_last),
    .busy_o      (up_busy)
  );

  resolve_pixel #(
    .MetaW(MetaW)
  ) u_pixel (
    .clk_i,
    .rst_ni,
    .fmt_i      (fmt_q),
    .in_valid_i (up_valid),
    .in_ready_o (up_ready),
    .src_i      (up_src),
    .meta_i     ({up_last, up_da}),
    .out_valid_o(px_valid),
    .out_ready_i(px_ready),
    .pix_o      (px_pix),
    .meta_o     (px_meta),
    .busy_o     (px_busy)
  );

  resolve_line u_line (
    .clk_i,
    .rst_ni,
    .b565_i    (b565_q),
    .in_valid_i(px_valid),
    .in_ready_o(px_ready),
    .in_pix_i  (px_pix),
    .in_da_i   (px_meta[31:0]),
    .in_last_i (px_meta[32]),
    .wr_free_i (lp_rsp.wr_free),
    .wr_valid_o(wr_valid),
    .wr_o      (wr),
    .busy_o    (ln_busy)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fmt_q     <= '0;
      b565_q    <= 1'b0;
      sp_q      <= '0;
      dp_q      <= '0;
      rows_q    <= '0;
      npx_q     <= '0;
      rowb_q    <= '0;
      setup_q   <= 1'b0;
      m_q       <= '0;
      mcs_q     <= '0;
      mcd_q     <= '0;
      accs_q    <= '0;
      accd_q    <= '0;
      rd_rows_q <= '0;
      rd_s_q    <= '0;
      rd_l_q    <= '0;
      rd_e_q    <= '0;
    end else begin
      fmt_q     <= fmt_d;
      b565_q    <= b565_d;
      sp_q      <= sp_d;
      dp_q      <= dp_d;
      rows_q    <= rows_d;
      npx_q     <= npx_d;
      rowb_q    <= rowb_d;
      setup_q   <= setup_d;
      m_q       <= m_d;
      mcs_q     <= mcs_d;
      mcd_q     <= mcd_d;
      accs_q    <= accs_d;
      accd_q    <= accd_d;
      rd_rows_q <= rd_rows_d;
      rd_s_q    <= rd_s_d;
      rd_l_q    <= rd_l_d;
      rd_e_q    <= rd_e_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(job_valid_i && job_ready_o && (job_i.rect.x0 >= job_i.rect.x1 ||
                                               job_i.rect.y0 >= job_i.rect.y1)))
        else $error("%m: a resolve job with an empty rectangle");
    end
  end
`endif

endmodule
