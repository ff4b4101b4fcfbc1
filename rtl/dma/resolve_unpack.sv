// SPDX-License-Identifier: Apache-2.0
// resolve_unpack: the resolve engine's consume walk (docs/om.md section 7). Takes the source
// lines of each row in order (line_*: every line covering the row's 4x pixels, one FIFO entry
// per line per row, as resolve's read walk requests them) and hands out one 4x pixel per clock
// with its destination byte address: 16 source bytes (four 4-byte samples) or, for B5G6R5, 8
// (four halfwords, in bits [63:0]). A line leaves the FIFO with its last pixel, or the row's.
// start_i (only while idle) loads a job: rows, pixels per row, the first row's source offset in
// its line (s[5:0], a multiple of the 4x pixel size) and destination byte, the pitches.
// Output: valid/ready, a register (held while stalled); row_last marks a row's last pixel.
module resolve_unpack (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // Job
  input  logic                                start_i,
  input  logic                                b565_i,    // B5G6R5 (8-byte 4x pixels), constant per job
  input  logic [14:0]                         rows_i,
  input  logic [14:0]                         npx_i,     // pixels per row (>= 1)
  input  logic [5:0]                          s_lo_i,    // the first row's source offset in its line
  input  logic [31:0]                         d0_i,      // the first row's first destination byte
  input  logic [5:0]                          sp_lo_i,   // source pitch [5:0]
  input  logic [15:0]                         dp_i,      // destination pitch
  // Source lines, in order
  input  logic                                line_valid_i,
  output logic                                line_ready_o,
  input  logic [pineda_pkg::LINE_BYTES*8-1:0] line_i,
  // Pixels
  output logic                                out_valid_o,
  input  logic                                out_ready_i,
  output logic [127:0]                        out_src_o,
  output logic [31:0]                         out_da_o,    // destination byte address
  output logic                                out_last_o,  // the row's last pixel
  // Status
  output logic                                busy_o
);

  logic [14:0]  rows_q, rows_d;   // rows still to hand out (0: no job)
  logic [14:0]  left_q, left_d;   // pixels left in the row, this one included
  logic [5:0]   srow_q, srow_d;   // the row's source offset in its line
  logic [2:0]   off_q, off_d;     // this pixel's source offset in its line, in 8-byte units
  logic [31:0]  drow_q, drow_d;   // the row's first destination byte
  logic [31:0]  da_q, da_d;       // this pixel's destination byte
  logic         ov_q, ov_d;       // output register
  logic [127:0] osrc_q, osrc_d;
  logic [31:0]  oda_q, oda_d;
  logic         olast_q, olast_d;

  logic         take, row_last, line_last;
  logic [127:0] quarter;
  always_comb begin
    rows_d  = rows_q;
    left_d  = left_q;
    srow_d  = srow_q;
    off_d   = off_q;
    drow_d  = drow_q;
    da_d    = da_q;
    ov_d    = ov_q && !out_ready_i;
    osrc_d  = osrc_q;
    oda_d   = oda_q;
    olast_d = olast_q;

    row_last  = (left_q == 15'd1);
    line_last = b565_i ? (off_q == 3'd7) : (off_q[2:1] == 2'd3);
    take      = (rows_q != '0) && line_valid_i && (!ov_q || out_ready_i);
    line_ready_o = take && (line_last || row_last);
    // The pixel's 16 bytes of the line; for B5G6R5 the 8 at off, moved to the low half.
    quarter = line_i[128*off_q[2:1] +: 128];
    if (b565_i && off_q[0]) quarter[63:0] = quarter[127:64];

    if (take) begin
      ov_d    = 1'b1;
      osrc_d  = quarter;
      oda_d   = da_q;
      olast_d = row_last;
      if (row_last) begin
        rows_d = rows_q - 15'd1;
        left_d = npx_i;
        srow_d = srow_q + sp_lo_i;
        off_d  = srow_d[5:3];
        drow_d = drow_q + 32'(dp_i);
        da_d   = drow_d;
      end else begin
        left_d = left_q - 15'd1;
        off_d  = off_q + (b565_i ? 3'd1 : 3'd2);
        da_d   = da_q + (b565_i ? 32'd2 : 32'd4);
      end
    end
    if (start_i) begin
      rows_d = rows_i;
      left_d = npx_i;
      srow_d = s_lo_i;
      off_d  = s_lo_i[5:3];
      drow_d = d0_i;
      da_d   = d0_i;
    end
  end

  always_comb begin
    out_valid_o = ov_q;
    out_src_o   = osrc_q;
    out_da_o    = oda_q;
    out_last_o  = olast_q;
    busy_o      = (rows_q != '0) || ov_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rows_q  <= '0;
      left_q  <= '0;
      srow_q  <= '0;
      off_q   <= '0;
      drow_q  <= '0;
      da_q    <= '0;
      ov_q    <= 1'b0;
      osrc_q  <= '0;
      oda_q   <= '0;
      olast_q <= 1'b0;
    end else begin
      rows_q  <= rows_d;
      left_q  <= left_d;
      srow_q  <= srow_d;
      off_q   <= off_d;
      drow_q  <= drow_d;
      da_q    <= da_d;
      ov_q    <= ov_d;
      osrc_q  <= osrc_d;
      oda_q   <= oda_d;
      olast_q <= olast_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(line_valid_i && rows_q == '0))
        else $error("%m: a line in the FIFO that no row needs");
      assert (!(start_i && busy_o)) else $error("%m: a job started while busy");
      assert (!(ov_q && !out_ready_i && (osrc_d != osrc_q || oda_d != oda_q || olast_d != olast_q)))
        else $error("%m: output changed while stalled");
    end
  end
`endif

endmodule
