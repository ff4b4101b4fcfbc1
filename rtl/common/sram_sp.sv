// SPDX-License-Identifier: Apache-2.0
// sram_sp: single-port SRAM (one read or one write per clock), the block-RAM primitive for
// structures that never read and write in the same cycle.
//
// Depth words of Width bits. req_i && we_i writes the lanes of word addr_i whose wmask_i bit is
// set (lane k = bits [k*Width/MaskW +: Width/MaskW]); req_i && !we_i reads word addr_i into an
// output register: rdata_o is valid the cycle after the read and held until the next read (a
// write leaves it unchanged). The contents have no reset. See sram_1r1w for the always_ff note.
module sram_sp #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  parameter int unsigned MaskW = 4    // write lanes (default: bytes of a dword); Width % MaskW == 0
) (
  input  logic             clk_i,
  input  logic             req_i,
  input  logic             we_i,
  input  logic [$clog2(Depth)-1:0] addr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [MaskW-1:0] wmask_i,
  output logic [Width-1:0] rdata_o
);

  localparam int unsigned LaneW = Width / MaskW;

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (req_i && we_i) begin
      for (int unsigned k = 0; k < MaskW; k++) begin
        if (wmask_i[k]) mem_q[addr_i][k*LaneW +: LaneW] <= wdata_i[k*LaneW +: LaneW];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (req_i && !we_i) rdata_q <= mem_q[addr_i];
  end

  assign rdata_o = rdata_q;

`ifndef SYNTHESIS
  initial begin
    assert (Width % MaskW == 0) else $fatal(1, "sram_sp: Width %0d not a multiple of MaskW %0d", Width, MaskW);
    assert (Depth >= 2) else $fatal(1, "sram_sp: Depth must be >= 2");
  end
  always_ff @(posedge clk_i) begin
    if (req_i) assert (32'(addr_i) < Depth) else $error("sram_sp: address %0d >= Depth", addr_i);
  end
`endif

endmodule
