// SPDX-License-Identifier: Apache-2.0
// sram_fifo: valid/ready FIFO whose storage is an sram_1r1w (block RAM), for the large FIFOs
// (prefetch buffers, line buffers).
//
// Same ports as stream_fifo. Capacity: Depth words in the SRAM (power of two >= 2) plus a
// 2-entry output register FIFO (stream_fifo) that hides the SRAM's one-cycle read latency, so
// out_valid_o / out_data_o come from registers and one push and one pop per clock are sustained.
// A push into an otherwise empty FIFO goes straight to the output register (visible the next
// cycle, like stream_fifo); otherwise it is written to the SRAM and read out as the output
// register drains (2 cycles from SRAM to output). in_ready_o = (SRAM not full) is registered.
// count_o counts every word held (SRAM, a read in flight, output register).
// clear_i empties everything at the clock edge (a push in the same cycle is dropped, a read in
// flight is discarded).
module sram_fifo #(
  parameter int unsigned Depth = 64,
  parameter int unsigned Width = 32
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,
  input  logic                     in_valid_i,
  output logic                     in_ready_o,
  input  logic [Width-1:0]         in_data_i,
  output logic                     out_valid_o,
  input  logic                     out_ready_i,
  output logic [Width-1:0]         out_data_o,
  output logic [$clog2(Depth+2):0] count_o,
  output logic                     empty_o,
  output logic                     full_o
);

  localparam int unsigned AddrW  = $clog2(Depth);
  localparam int unsigned PtrW   = AddrW + 1;        // one extra wrap bit
  localparam int unsigned CountW = $clog2(Depth + 2) + 1;

  logic [PtrW-1:0] wptr_q, wptr_d;   // SRAM write pointer
  logic [PtrW-1:0] rptr_q, rptr_d;   // SRAM read pointer (reads issued)
  logic            rd_q,   rd_d;     // an SRAM read was issued last cycle: its data is on rdata
  logic [PtrW-1:0] sram_count;
  logic            push, pop, bypass, sram_we, sram_re;
  logic [Width-1:0] sram_rdata;

  // The 2-entry output register FIFO.
  logic            ob_valid_in, ob_ready_in;
  logic [Width-1:0] ob_data_in;
  logic [1:0]      ob_count;
  logic            ob_empty, ob_full;

  // Status: functions of registers only (its own block, so that no tool sees a path from
  // out_ready_i or in_valid_i to them).
  always_comb begin
    sram_count = wptr_q - rptr_q;
    in_ready_o = (sram_count != PtrW'(Depth));
    full_o     = ~in_ready_o;
    count_o    = CountW'(sram_count) + CountW'(rd_q) + CountW'(ob_count);
    empty_o    = (count_o == '0);
  end

  always_comb begin
    push       = in_valid_i & in_ready_o;
    pop        = out_valid_o & out_ready_i;
    // Straight to the output register when nothing older is in the SRAM or in flight.
    bypass     = push & (sram_count == '0) & ~rd_q & ~ob_full;
    sram_we    = push & ~bypass;
    // Read the SRAM while the output register (with what is in flight) has room after this pop.
    // (ob_count + rd_q <= 2 always, so the 3-bit sum cannot wrap.)
    sram_re    = (sram_count != '0) & ({1'b0, ob_count} + {2'b0, rd_q} - {2'b0, pop} < 3'd2);
    ob_valid_in = rd_q | bypass;
    ob_data_in  = rd_q ? sram_rdata : in_data_i;
    wptr_d     = sram_we ? wptr_q + PtrW'(1) : wptr_q;
    rptr_d     = sram_re ? rptr_q + PtrW'(1) : rptr_q;
    rd_d       = sram_re;
    if (clear_i) begin
      wptr_d = '0;
      rptr_d = '0;
      rd_d   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
      rd_q   <= 1'b0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      rd_q   <= rd_d;
    end
  end

  sram_1r1w #(.Width(Width), .Depth(Depth), .MaskW(1)) u_sram (
    .clk_i,
    .we_i    (sram_we),
    .waddr_i (wptr_q[AddrW-1:0]),
    .wdata_i (in_data_i),
    .wmask_i (1'b1),
    .re_i    (sram_re),
    .raddr_i (rptr_q[AddrW-1:0]),
    .rdata_o (sram_rdata)
  );

  logic [1:0] ob_count_full;
  stream_fifo #(.Depth(2), .Width(Width)) u_out (
    .clk_i,
    .rst_ni,
    .clear_i,
    .in_valid_i  (ob_valid_in),
    .in_ready_o  (ob_ready_in),
    .in_data_i   (ob_data_in),
    .out_valid_o,
    .out_ready_i,
    .out_data_o,
    .count_o     (ob_count_full),
    .empty_o     (ob_empty),
    .full_o      (ob_full)
  );
  assign ob_count = ob_count_full;

`ifndef SYNTHESIS
  logic unused_ob;
  assign unused_ob = ob_empty;
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0)
      else $fatal(1, "sram_fifo: Depth must be a power of two >= 2");
  end
  // The credit rule guarantees the output register has room for every SRAM read and bypass.
  always_ff @(posedge clk_i) begin
    if (rst_ni && !clear_i && ob_valid_in)
      assert (ob_ready_in) else $error("sram_fifo: output register overflow");
    if (rst_ni && !clear_i) assert (!(rd_q && bypass)) else $error("sram_fifo: bypass while a read is in flight");
  end
`else
  logic unused_ob;
  assign unused_ob = ob_empty ^ ob_ready_in;
`endif

endmodule
