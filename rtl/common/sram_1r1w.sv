// SPDX-License-Identifier: Apache-2.0
// sram_1r1w: simple dual-port SRAM (one write port, one read port, one clock), the primitive
// every cache, large FIFO and bank is built from, so that synthesis maps it to block RAM.
//
// Depth words of Width bits. Writes: we_i writes the lanes of word waddr_i whose wmask_i bit
// is set (lane k = bits [k*Width/MaskW +: Width/MaskW]). Reads: re_i reads word raddr_i into an
// output register; rdata_o is valid the cycle after re_i and held until the next re_i. A read of
// the word written in the same cycle (with any wmask_i bit set) is UNDEFINED: block RAMs differ
// (iCE40's gives neither old nor new data reliably), and promising either costs Yosys about 150
// flip-flops and 80 LUTs of emulation per instance (the no_rw_check attribute below lets it map without).
// Simulation returns the old word inverted on such a collision, so a client that relies on old
// or new data fails its tests; clients forward the written word themselves where they need it.
// The contents have no reset (never-written words read as X in 4-state simulators, as 0 in
// the Verilator builds).
//
// The array is the one place where an always_ff writes something other than `q <= d`: this is
// the inference template Yosys' memory_bram (and FPGA/ASIC RAM generators) recognise.
module sram_1r1w #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter int unsigned MaskW = 4    // write lanes (default: bytes of a dword); Width % MaskW == 0
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [$clog2(Depth)-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [MaskW-1:0] wmask_i,
  input  logic             re_i,
  input  logic [$clog2(Depth)-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  localparam int unsigned LaneW = Width / MaskW;

  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      for (int unsigned k = 0; k < MaskW; k++) begin
        if (wmask_i[k]) mem_q[waddr_i][k*LaneW +: LaneW] <= wdata_i[k*LaneW +: LaneW];
      end
    end
  end

`ifdef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end
`else
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= (we_i && |wmask_i && waddr_i == raddr_i) ? ~mem_q[raddr_i] : mem_q[raddr_i];
  end
`endif

  assign rdata_o = rdata_q;

`ifndef SYNTHESIS
  initial begin
    assert (Width % MaskW == 0) else $fatal(1, "sram_1r1w: Width %0d not a multiple of MaskW %0d", Width, MaskW);
    assert (Depth >= 2) else $fatal(1, "sram_1r1w: Depth must be >= 2");
  end
  always_ff @(posedge clk_i) begin
    if (we_i) assert (32'(waddr_i) < Depth) else $error("sram_1r1w: write address %0d >= Depth", waddr_i);
    if (re_i) assert (32'(raddr_i) < Depth) else $error("sram_1r1w: read address %0d >= Depth", raddr_i);
  end
`endif

endmodule
