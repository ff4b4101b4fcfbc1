// SPDX-License-Identifier: Apache-2.0
// stream_fifo: synchronous valid/ready FIFO.
//
// Depth entries (power of two, >= 2) of Width bits. The output is read straight from storage,
// so out_valid_o and out_data_o are functions of registers only (never of out_ready_i), and
// in_ready_o = !full is registered state too. Throughput: one push and one pop per clock.
// Latency: a pushed entry is visible at the output on the next cycle (no fall-through).
// The storage has no reset and a write enable, the usual lowRISC prim_fifo pattern, so that
// synthesis can map it to a register file or RAM.
// clear_i empties the FIFO at the clock edge (a push in the same cycle is dropped).
module stream_fifo #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 32
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              clear_i,
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [Width-1:0]  in_data_i,
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [Width-1:0]  out_data_o,
  output logic [$clog2(Depth):0] count_o,
  output logic              empty_o,
  output logic              full_o
);

  localparam int unsigned AddrW  = $clog2(Depth);
  localparam int unsigned CountW = AddrW + 1;

  logic [CountW-1:0] wptr_q, wptr_d;  // one extra wrap bit
  logic [CountW-1:0] rptr_q, rptr_d;
  logic [Width-1:0]  storage_q [0:Depth-1];
  logic              push, pop;

  // Outputs: functions of registers only.
  always_comb begin
    count_o     = wptr_q - rptr_q;
    empty_o     = (wptr_q == rptr_q);
    full_o      = (count_o == CountW'(Depth));
    in_ready_o  = ~full_o;
    out_valid_o = ~empty_o;
    out_data_o  = storage_q[rptr_q[AddrW-1:0]];
  end

  // Pointer updates.
  always_comb begin
    push        = in_valid_i & in_ready_o;
    pop         = out_valid_o & out_ready_i;
    wptr_d      = push ? wptr_q + CountW'(1) : wptr_q;
    rptr_d      = pop  ? rptr_q + CountW'(1) : rptr_q;
    if (clear_i) begin
      wptr_d = '0;
      rptr_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
    end
  end

  // Storage: no reset, written only on a push.
  always_ff @(posedge clk_i) begin
    if (push) begin
      storage_q[wptr_q[AddrW-1:0]] <= in_data_i;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0)
      else $fatal(1, "stream_fifo: Depth must be a power of two >= 2");
  end
`endif

endmodule
