// SPDX-License-Identifier: Apache-2.0
// dma: the copy engine behind COPY (docs/contract.md §4), line-port client MEM_LC_DMA
// (docs/contract.md §2.1).
//
// A job (src, dst, len bytes, any alignment) is accepted only while the unit is idle
// (job_ready_o = idle_o). It reads the ns source lines covering [src, src + len) in order and
// writes the nd destination lines covering [dst, dst + len) in order, each once, with byte
// enables = the bytes of the line inside the destination range (fewer than 64 only in the first
// and last line).
// Reads: up to FetchLines line reads in flight or buffered, through the shared client port
// rtl/common/line_port.sv (credits, an SRAM stream_fifo of FetchLines lines, one held write, the stream
// lock, write acknowledgements counted; the resolve engine has a port of its own on the same
// client, MEM_LC_DMA).
// Funnel: with o_s = src[5:0], o_d = dst[5:0] and rot = (o_s - o_d) mod 64, destination line j is
// bytes rot .. rot + 63 of the 128-byte window {V[j+1], V[j]} of the "virtual" source lines V:
// V = the source lines in order when o_s >= o_d, and one don't-care line followed by them when
// o_s < o_d. The window's low line is a register (lo_q), its high line the FIFO's head; each
// destination line written pops the head into lo_q (when there is a source line left). So one
// destination line per clock when the port accepts.
// Port (line_port): the held write first, unless a read was offered and not accepted. idle_o (no
// job, nothing in flight, no write held or unacknowledged) is what the CP waits for before it decodes past the COPY, so every
// later command sees the copied bytes. The CP never issues overlapping ranges (a source line that
// is also a destination line is only written in its destination bytes, so order does not matter).
// Fill (CLEAR, docs/depth.md section 5; model cpp_model/dma Dma::fill_lines): a clear_pkt_t the
// CP has checked (non-empty rectangle, dword-aligned base and pitch, inside the valid window) is
// accepted like a copy job, only while idle. Row by row, top to bottom, it writes the lines
// covering the row's bytes [s, e) (s = base + y*pitch + x0*bpp, e = s + (x1 - x0)*bpp, bpp 4 or
// 16 at 4x MSAA), left to right, one line per clock when the port accepts, every dword = value,
// byte enables = the row's bytes in the line AND the per-dword mask (colour or depth+stencil:
// 4 bytes; depth alone bytes 0-2; stencil alone byte 3). No reads. It shares the held write
// register and the write acknowledgement count with the copy, so idle_o covers it too.
// Throughput: one line request per clock: reads and writes share it, so about 32 bytes/clock
// copied at best, and half the memory's bandwidth (each byte is read and written once): 16
// bytes/clock at the default 32 bytes/clock. FetchLines = 128 covers 0.5 lines/clock of reads at
// 200 cycles of latency plus the FIFO's own latency.
module dma #(
  parameter int unsigned FetchLines   = 128,  // power of two
  parameter int unsigned OutstandingW = 16
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // Copy jobs from the CP
  input  logic                      job_valid_i,
  output logic                      job_ready_o,
  input  logic [31:0]               job_src_i,
  input  logic [31:0]               job_dst_i,
  input  logic [31:0]               job_len_i,
  // Fill jobs (CLEAR) from the CP
  input  logic                      fill_valid_i,
  output logic                      fill_ready_o,
  input  pineda_pkg::clear_pkt_t    fill_i,
  // Line-port client
  output pineda_pkg::mem_port_req_t mem_o,
  input  pineda_pkg::mem_port_rsp_t mem_i,
  // Status
  output logic                      idle_o
);

  localparam int unsigned LineW  = pineda_pkg::LINE_BYTES * 8;  // 512
  localparam int unsigned NW     = 28;                          // line counts (len < 2^32)

  // Job state
  logic [31:0]             rd_addr_q, rd_addr_d;  // next source line to read
  logic [NW-1:0]           rd_rem_q,  rd_rem_d;   // source lines still to read
  logic [NW-1:0]           pop_rem_q, pop_rem_d;  // source lines still to take into the window
  logic [31:0]             wr_addr_q, wr_addr_d;  // next destination line to write
  logic [NW-1:0]           wr_rem_q,  wr_rem_d;   // destination lines still to write
  logic                    first_q,   first_d;    // the next write is the first line
  logic [5:0]              od_q,      od_d;       // dst[5:0]
  logic [5:0]              end_q,     end_d;      // (dst + len - 1)[5:0]
  logic [5:0]              rot_q,     rot_d;      // (src - dst) mod 64
  logic                    lo_valid_q, lo_valid_d;
  logic [LineW-1:0]        lo_q,      lo_d;       // V[j]
  // Fill state
  logic [14:0]               fl_rows_q,  fl_rows_d;  // rows still to write (0: no fill)
  logic [32:0]               fl_s_q,     fl_s_d;     // current row's first byte
  logic [32:0]               fl_e_q,     fl_e_d;     // current row's end (exclusive)
  logic [32:0]               fl_l_q,     fl_l_d;     // current line address
  logic [15:0]               fl_pitch_q, fl_pitch_d;
  logic [31:0]               fl_val_q,   fl_val_d;
  logic [3:0]                fl_dm_q,    fl_dm_d;    // per-dword byte mask

  // The port: the read lines (FIFO head) and the write slot (lp_rsp), the line taken and the
  // write handed this cycle (lp_req)
  pineda_pkg::line_port_req_t lp_req;
  pineda_pkg::line_port_rsp_t lp_rsp;
  logic                       rd_fire;
  logic [LineW-1:0]           f_out;  // lp_rsp.line as bytes

  // Job decode
  logic        job_fire;
  logic [32:0] last_s, last_d;  // src[5:0] + len - 1, dst[5:0] + len - 1
  logic [NW-1:0] ns, nd;
  always_comb begin
    job_fire = job_valid_i && job_ready_o;
    last_s   = 33'(job_src_i[5:0]) + 33'(job_len_i) - 33'd1;
    last_d   = 33'(job_dst_i[5:0]) + 33'(job_len_i) - 33'd1;
    ns       = (job_len_i == 32'd0) ? '0 : NW'(last_s[32:6]) + NW'(1);
    nd       = (job_len_i == 32'd0) ? '0 : NW'(last_d[32:6]) + NW'(1);
  end

  line_port #(
    .FetchLines  (FetchLines),
    .OutstandingW(OutstandingW),
    .Tag         (8'd0)
  ) u_port (
    .clk_i,
    .rst_ni,
    .rd_valid_i     (rd_rem_q != '0),
    .rd_addr_i      (rd_addr_q),
    .rd_take_o      (rd_fire),
    .eng_i          (lp_req),
    .eng_o          (lp_rsp),
    .mem_o,
    .mem_i
  );
  assign f_out = lp_rsp.line;

  always_comb begin
    idle_o       = (rd_rem_q == '0) && (wr_rem_q == '0) && (fl_rows_q == '0) && !lp_rsp.busy;
    job_ready_o  = idle_o;
    fill_ready_o = idle_o;  // the CP never offers a copy and a fill at once
  end

  // Window and writes.
  logic            need_head, emit, load;
  logic [LineW-1:0] window;     // bytes rot .. rot + 63 of {f_out, lo_q}
  logic [63:0]     be;
  // Read issue.
  always_comb begin
    rd_addr_d = rd_addr_q;
    rd_rem_d  = rd_rem_q;
    if (rd_fire) begin
      rd_addr_d = rd_addr_q + 32'(pineda_pkg::LINE_BYTES);
      rd_rem_d  = rd_rem_q - NW'(1);
    end
    if (job_fire) begin
      rd_addr_d = {job_src_i[31:6], 6'd0};
      rd_rem_d  = ns;
    end
  end

  // Fill: job decode and the line walk.
  logic        fill_fire, fl_emit, fl_row_end;
  logic [4:0]  fl_shift;
  logic [32:0] fl_s0, fl_x0b, fl_rowb, fl_next_s, fl_left;
  logic [63:0] fl_be, fl_dm64;
  logic [5:0]  fl_lo;
  always_comb begin
    fill_fire  = fill_valid_i && fill_ready_o;
    fl_shift   = fill_i.target.msaa ? 5'd4 : 5'd2;
    fl_x0b     = 33'(fill_i.rect.x0) << fl_shift;
    fl_rowb    = (33'(fill_i.rect.x1) - 33'(fill_i.rect.x0)) << fl_shift;
    fl_s0      = 33'(fill_i.target.base) + 33'(32'(fill_i.rect.y0) * 32'(fill_i.target.pitch)) + fl_x0b;
    fl_rows_d  = fl_rows_q;
    fl_s_d     = fl_s_q;
    fl_e_d     = fl_e_q;
    fl_l_d     = fl_l_q;
    fl_pitch_d = fl_pitch_q;
    fl_val_d   = fl_val_q;
    fl_dm_d    = fl_dm_q;
    // Line l of the row [s, e): bytes from max(s, l) to min(e, l + 64).
    fl_left    = fl_e_q - fl_l_q;
    fl_lo      = (fl_l_q[32:6] == fl_s_q[32:6]) ? fl_s_q[5:0] : 6'd0;
    fl_be      = '1 << fl_lo;
    if (fl_left < 33'(pineda_pkg::LINE_BYTES)) begin
      fl_be = fl_be & ~('1 << fl_left[5:0]);
    end
    fl_dm64    = {16{fl_dm_q}};
    fl_be      = fl_be & fl_dm64;
    fl_row_end = (fl_left <= 33'(pineda_pkg::LINE_BYTES));
    fl_next_s  = fl_s_q + 33'(fl_pitch_q);
    fl_emit    = (fl_rows_q != '0) && lp_rsp.wr_free;
    if (fl_emit) begin
      if (fl_row_end) begin
        fl_rows_d = fl_rows_q - 15'd1;
        fl_s_d    = fl_next_s;
        fl_e_d    = fl_e_q + 33'(fl_pitch_q);
        fl_l_d    = {fl_next_s[32:6], 6'd0};
      end else begin
        fl_l_d = fl_l_q + 33'(pineda_pkg::LINE_BYTES);
      end
    end
    if (fill_fire) begin
      fl_rows_d  = fill_i.rect.y1 - fill_i.rect.y0;
      fl_s_d     = fl_s0;
      fl_e_d     = fl_s0 + fl_rowb;
      fl_l_d     = {fl_s0[32:6], 6'd0};
      fl_pitch_d = fill_i.target.pitch;
      fl_val_d   = fill_i.value;
      if (fill_i.color || (fill_i.depth && fill_i.stencil)) begin
        fl_dm_d = 4'b1111;
      end else if (fill_i.depth) begin
        fl_dm_d = 4'b0111;
      end else begin
        fl_dm_d = 4'b1000;
      end
    end
  end

  always_comb begin
    pop_rem_d  = pop_rem_q;
    wr_addr_d  = wr_addr_q;
    wr_rem_d   = wr_rem_q;
    first_d    = first_q;
    od_d       = od_q;
    end_d      = end_q;
    rot_d      = rot_q;
    lo_valid_d = lo_valid_q;
    lo_d       = lo_q;
    lp_req.wr_valid   = 1'b0;
    lp_req.wr         = '0;
    lp_req.line_ready = 1'b0;

    // Destination line j = bytes rot .. rot + 63 of {V[j+1], V[j]}; V[j+1] is the FIFO head
    // while a source line is left to take, else don't care (no byte of it is enabled).
    need_head = (pop_rem_q != '0);
    load      = !lo_valid_q && need_head && lp_rsp.line_valid;
    emit      = lo_valid_q && (wr_rem_q != '0) && (!need_head || lp_rsp.line_valid) && lp_rsp.wr_free;
    // The funnel as select-then-rotate: byte j of m is lo_q's where j >= rot, the head's
    // below; window byte i = m byte (i + rot) mod 64, a 64-byte rotation in six 2:1 stages
    // (a 128-byte shifter costs about twice as much).
    for (int j = 0; j < pineda_pkg::LINE_BYTES; j++) begin
      window[8*j +: 8] = (6'(j) >= rot_q) ? lo_q[8*j +: 8] : f_out[8*j +: 8];
    end
    for (int k = 0; k < 6; k++) begin
      if (rot_q[k]) window = (window >> (8 << k)) | (window << (LineW - (8 << k)));
    end
    be        = '1;
    if (first_q) begin
      be = be & ('1 << od_q);
    end
    if (wr_rem_q == NW'(1)) begin
      be = be & ('1 >> (6'd63 - end_q));
    end
    if (load) begin
      lo_d        = f_out;
      lo_valid_d  = 1'b1;
      lp_req.line_ready = 1'b1;
      pop_rem_d   = pop_rem_q - NW'(1);
    end
    if (emit) begin
      lp_req.wr_valid   = 1'b1;
      lp_req.wr.we      = 1'b1;
      lp_req.wr.addr    = wr_addr_q;
      lp_req.wr.wdata   = window;
      lp_req.wr.be      = be;
      wr_addr_d  = wr_addr_q + 32'(pineda_pkg::LINE_BYTES);
      wr_rem_d   = wr_rem_q - NW'(1);
      first_d    = 1'b0;
      if (need_head) begin
        lo_d        = f_out;
        lp_req.line_ready = 1'b1;
        pop_rem_d   = pop_rem_q - NW'(1);
      end
    end

    if (fl_emit) begin
      lp_req.wr_valid   = 1'b1;
      lp_req.wr.we      = 1'b1;
      lp_req.wr.addr    = fl_l_q[31:0];
      lp_req.wr.wdata   = {16{fl_val_q}};
      lp_req.wr.be      = fl_be;
    end

    if (job_fire) begin
      pop_rem_d  = ns;
      wr_addr_d  = {job_dst_i[31:6], 6'd0};
      wr_rem_d   = nd;
      first_d    = 1'b1;
      od_d       = job_dst_i[5:0];
      end_d      = last_d[5:0];
      rot_d      = job_src_i[5:0] - job_dst_i[5:0];
      // o_s < o_d: V[0] is a don't-care line, the first source line is V[1].
      lo_valid_d = (job_src_i[5:0] < job_dst_i[5:0]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_addr_q  <= '0;
      rd_rem_q   <= '0;
      pop_rem_q  <= '0;
      wr_addr_q  <= '0;
      wr_rem_q   <= '0;
      first_q    <= 1'b0;
      od_q       <= '0;
      end_q      <= '0;
      rot_q      <= '0;
      lo_valid_q <= 1'b0;
      lo_q       <= '0;
      fl_rows_q  <= '0;
      fl_s_q     <= '0;
      fl_e_q     <= '0;
      fl_l_q     <= '0;
      fl_pitch_q <= '0;
      fl_val_q   <= '0;
      fl_dm_q    <= '0;
    end else begin
      rd_addr_q  <= rd_addr_d;
      rd_rem_q   <= rd_rem_d;
      pop_rem_q  <= pop_rem_d;
      wr_addr_q  <= wr_addr_d;
      wr_rem_q   <= wr_rem_d;
      first_q    <= first_d;
      od_q       <= od_d;
      end_q      <= end_d;
      rot_q      <= rot_d;
      lo_valid_q <= lo_valid_d;
      lo_q       <= lo_d;
      fl_rows_q  <= fl_rows_d;
      fl_s_q     <= fl_s_d;
      fl_e_q     <= fl_e_d;
      fl_l_q     <= fl_l_d;
      fl_pitch_q <= fl_pitch_d;
      fl_val_q   <= fl_val_d;
      fl_dm_q    <= fl_dm_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{last_s[5:0], last_d[32:6], fl_l_q[5:0], fill_i.hiz_forget,
                        1'b0};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(lp_rsp.line_valid && pop_rem_q == '0))
        else $error("%m: a line in the FIFO that no destination line needs");
      assert (!(fl_rows_q != '0 && (wr_rem_q != '0 || rd_rem_q != '0)))
        else $error("%m: a fill and a copy at the same time");
      assert (!(fill_valid_i && job_valid_i))
        else $error("%m: a fill and a copy offered at once");
      assert (!(fill_valid_i && fill_ready_o && (fill_i.rect.x0 >= fill_i.rect.x1 ||
                                                 fill_i.rect.y0 >= fill_i.rect.y1)))
        else $error("%m: a fill job with an empty rectangle");
    end
  end
`endif

endmodule
