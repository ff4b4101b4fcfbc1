// SPDX-License-Identifier: Apache-2.0
// sram_1r1w: simple dual-port SRAM (one write port, one read port, one clock), the primitive
// every cache, large FIFO and bank is built from, so that synthesis maps it to block RAM.
//
// Depth words of Width bits. Writes: we_i writes the lanes of word waddr_i whose wmask_i bit
// is set (lane k = bits [k*Width/MaskW +: Width/MaskW]). Reads: re_i reads word raddr_i into an
// output register; rdata_o is valid the cycle after re_i and held until the next re_i. A read of
// the word written in the same cycle (with any wmask_i bit set) is UNDEFINED unless ReadFirst = 1:
// block RAMs differ (iCE40's gives neither old nor new data reliably), and promising the old word
// costs Yosys about 150 flip-flops and 80 LUT4 of emulation per 64-bit instance (synth_ice40),
// which the no_rw_check attribute lets it leave out. Simulation returns the old word inverted on
// such a collision, so a client that relies on old or new data fails its tests; a client that
// needs the old word sets ReadFirst = 1 and pays for the emulation (no client does today:
// pixel_writer, the last one, never reads a word in the cycle it writes it). The contents have no reset (never-written words read as X in 4-state
// simulators, as 0 in the Verilator builds).
//
// The array is the one place where an always_ff writes something other than `q <= d`: this is
// the inference template Yosys' memory_bram (and FPGA/ASIC RAM generators) recognise.
module sram_1r1w #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter int unsigned MaskW = 4,   // write lanes (default: bytes of a dword); Width % MaskW == 0
  parameter bit          ReadFirst = 1'b0  // 1: a same-word read-during-write returns the old word
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

  logic [Width-1:0] rdata_q;

  if (ReadFirst) begin : g_read_first
    logic [Width-1:0] mem_q [Depth];

    always_ff @(posedge clk_i) begin
      if (we_i) begin
        for (int unsigned k = 0; k < MaskW; k++) begin
          if (wmask_i[k]) mem_q[waddr_i][k*LaneW +: LaneW] <= wdata_i[k*LaneW +: LaneW];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (re_i) rdata_q <= mem_q[raddr_i];
    end
  end else begin : g_undefined
    (* no_rw_check *) logic [Width-1:0] mem_q [Depth];

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
  end

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
