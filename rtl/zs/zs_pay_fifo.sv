// SPDX-License-Identifier: Apache-2.0
// zs_pay_fifo: ZS's packet payload FIFO (docs/depth.md section 4): the whole packets of one port
// wait here, in arrival order, while the narrow test pipeline decides their masks. The storage is
// one sram_1r1w (block RAM) and the output is the SRAM's own read register: no flip-flop or
// multiplexer as wide as the packet (the SRAM stream_fifo's 2-entry output stage costs 2 x Width FFs).
//
// valid/ready with a stable payload: the head is read into the SRAM's output register once and
// held there (no new read) until it is popped; the next word is read in the clock of the pop, so
// one push and one pop per clock are sustained. A push is visible at the output 2 clocks later
// (the SRAM word is read only once written: no read of the word written in the same clock).
// Capacity: Depth words in the SRAM plus the one in the output register. in_ready_o and
// out_valid_o are functions of registers.
module zs_pay_fifo #(
  parameter int unsigned Depth = 256,   // power of two >= 2
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o,
  output logic             empty_o
);

  localparam int unsigned AddrW = $clog2(Depth);
  localparam int unsigned PtrW  = AddrW + 1;

  logic [PtrW-1:0] wptr_q, wptr_d;   // SRAM write pointer
  logic [PtrW-1:0] rptr_q, rptr_d;   // next SRAM word to read
  logic            head_q, head_d;   // the SRAM's read register holds the head packet
  logic            push, pop, re;

  always_comb begin
    in_ready_o  = (wptr_q - rptr_q) != PtrW'(Depth);
    out_valid_o = head_q;
    empty_o     = !head_q && (wptr_q == rptr_q);
  end

  always_comb begin
    push   = in_valid_i && in_ready_o;
    pop    = head_q && out_ready_i;
    re     = (!head_q || pop) && (wptr_q != rptr_q);
    wptr_d = push ? wptr_q + PtrW'(1) : wptr_q;
    rptr_d = re ? rptr_q + PtrW'(1) : rptr_q;
    head_d = re || (head_q && !pop);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
      head_q <= 1'b0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      head_q <= head_d;
    end
  end

  sram_1r1w #(.Width(Width), .Depth(Depth), .MaskW(1)) u_sram (
    .clk_i,
    .we_i    (push),
    .waddr_i (wptr_q[AddrW-1:0]),
    .wdata_i (in_data_i),
    .wmask_i (1'b1),
    .re_i    (re),
    .raddr_i (rptr_q[AddrW-1:0]),
    .rdata_o (out_data_o)
  );

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0)
      else $fatal(1, "zs_pay_fifo: Depth must be a power of two >= 2");
  end
  stream_assert #(.Width(Width)) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_data_o));
`endif

endmodule
