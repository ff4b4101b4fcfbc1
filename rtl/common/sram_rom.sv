// SPDX-License-Identifier: Apache-2.0
// sram_rom: a read-only table in block RAM (one read per clock), for the lookup tables that
// would otherwise be large LUT trees (sRGB conversions).
//
// Depth words of Width bits, word i = Init[i*Width +: Width] (an elaboration-time constant).
// re_i reads word addr_i into an output register: rdata_o is valid the cycle after re_i and
// held until the next re_i, so a pipeline that stalls holds re_i low and keeps its data. A
// 256 x 16 or 512 x 8 table is one SB_RAM40_4K under synth_ice40 (the initial block is the
// inference template Yosys turns into the BRAM's INIT contents, like sram_1r1w's array).
module sram_rom #(
  parameter int unsigned          Width = 16,
  parameter int unsigned          Depth = 256,
  parameter logic [Width*Depth-1:0] Init  = '0
) (
  input  logic                     clk_i,
  input  logic                     re_i,
  input  logic [$clog2(Depth)-1:0] addr_i,
  output logic [Width-1:0]         rdata_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  initial begin
    for (int unsigned i = 0; i < Depth; i++) mem_q[i] = Init[i*Width +: Width];
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[addr_i];
  end

  assign rdata_o = rdata_q;

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2) else $fatal(1, "sram_rom: Depth must be >= 2");
  end
  always_ff @(posedge clk_i) begin
    if (re_i) assert (32'(addr_i) < Depth) else $error("sram_rom: address %0d >= Depth", addr_i);
  end
`endif

endmodule
