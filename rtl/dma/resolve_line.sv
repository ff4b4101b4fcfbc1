// SPDX-License-Identifier: Apache-2.0
// resolve_line: the resolve engine's destination line buffer (docs/om.md section 7). Resolved
// pixels arrive in row order, one per clock, each with its destination byte address (a dword
// for 4-byte formats, a halfword for B5G6R5) and are written into a one-line buffer (32
// halfword lanes with byte enables). The buffer goes out as one line write (be = the bytes
// written, wdata 0 elsewhere) when a pixel for another line arrives (within a row: a pixel at a
// line's first byte), or after a row's last pixel;
// in that cycle the buffer is cleared and the arriving pixel, if any, is its first. So every
// destination line covering a row is written once, left to right, as model::resolve_lines does.
// Writes go to resolve's line_port (wr_free_i: it can take one this cycle).
module resolve_line (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      b565_i,     // B5G6R5 (halfword pixels), constant per job
  // Pixels
  input  logic                      in_valid_i,
  output logic                      in_ready_o,
  input  logic [31:0]               in_pix_i,   // B5G6R5: in [15:0]
  input  logic [31:0]               in_da_i,    // destination byte address
  input  logic                      in_last_i,  // the row's last pixel
  // Line writes
  input  logic                      wr_free_i,
  output logic                      wr_valid_o,
  output pineda_pkg::mem_line_req_t wr_o,
  // Status
  output logic                      busy_o
);

  logic                full_q, full_d;   // the buffer holds a pixel
  logic                close_q, close_d; // ... and the row ended: send it
  logic [25:0]         line_q, line_d;   // its line address [31:6]
  logic [31:0]         be_q, be_d;       // halfword enables
  logic [31:0][15:0]   data_q, data_d;   // halfword lanes (no reset: cleared before use)

  logic        send, put, clear;
  logic [31:0] we;
  logic [31:0] din;
  always_comb begin
    // Send the buffer: the row ended, or a pixel for another line arrived. A row's pixels are
    // contiguous, so within a row only a pixel at a line's first byte starts another line.
    send       = full_q && (close_q || (in_valid_i && in_da_i[5:0] == 6'd0));
    in_ready_o = !send || wr_free_i;
    put        = in_valid_i && in_ready_o;
    clear      = !full_q || (send && wr_free_i);
    wr_valid_o = send && wr_free_i;
    // The lanes the pixel writes; the pixel on every lane pair (a halfword twice).
    din = b565_i ? {2{in_pix_i[15:0]}} : in_pix_i;
    for (int h = 0; h < 32; h++) begin
      we[h] = put && (b565_i ? (in_da_i[5:1] == 5'(h)) : (in_da_i[5:2] == 4'(h / 2)));
    end

    full_d  = full_q;
    close_d = close_q;
    line_d  = line_q;
    be_d    = be_q;
    data_d  = data_q;
    if (clear) begin
      full_d  = 1'b0;
      close_d = 1'b0;
      be_d    = '0;
    end
    for (int h = 0; h < 32; h++) begin
      if (we[h]) begin
        data_d[h] = din[16*(h % 2) +: 16];
      end else if (clear) begin
        data_d[h] = '0;
      end
    end
    if (put) begin
      full_d  = 1'b1;
      close_d = in_last_i;
      line_d  = in_da_i[31:6];
      be_d    = be_d | we;
    end

    wr_o       = '0;
    wr_o.we    = 1'b1;
    wr_o.addr  = {line_q, 6'd0};
    wr_o.wdata = data_q;
    for (int h = 0; h < 32; h++) wr_o.be[2*h +: 2] = {2{be_q[h]}};
    busy_o = full_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q  <= 1'b0;
      close_q <= 1'b0;
      line_q  <= '0;
      be_q    <= '0;
    end else begin
      full_q  <= full_d;
      close_q <= close_d;
      line_q  <= line_d;
      be_q    <= be_d;
    end
  end

  // The data lanes: cleared (synchronously) whenever the buffer is empty or sent.
  always_ff @(posedge clk_i) begin
    data_q <= data_d;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(put && full_q && !send && (in_da_i[31:6] != line_q)))
        else $error("%m: a pixel for another line written into the buffer");
      assert (!(put && !b565_i && in_da_i[1:0] != 2'd0)) else $error("%m: a 4-byte pixel not dword aligned");
      assert (!(put && b565_i && in_da_i[0])) else $error("%m: a B5G6R5 pixel not halfword aligned");
      assert (!(put && (be_q & we) != '0 && !clear)) else $error("%m: a halfword written twice in one line");
    end
  end
`endif

endmodule
