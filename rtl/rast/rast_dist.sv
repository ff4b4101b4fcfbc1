// SPDX-License-Identifier: Apache-2.0
// rast_dist: sends each setup packet to the rasterizers that own one of its raster tiles
// (docs/architecture.md "Several rasterizers", numerics.md §4.3).
//
// With NumRast = 2, rasterizer r owns the raster-tile columns tx with tx mod 2 = r; with
// NumRast = 4, the tiles with tx mod 2 = r mod 2 and ty mod 2 = r / 2. A triangle goes to
// rasterizer r when its tile rectangle holds a column (and a row) of r: for columns,
// tiles.x1 - tiles.x0 >= 2 or tiles.x0 mod 2 = r mod 2. An end-of-pipe token goes to every
// rasterizer. The packet is offered to each of its rasterizers at once and consumed when each has
// taken it (a rasterizer that took it is not offered it again): the outputs are valid from the
// input and a register of the ones already served, never from a ready.
// NumRast = 1: a wire. Throughput: one packet per clock when every target is ready.
module rast_dist #(
  parameter int unsigned NumRast = 2
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                in_valid_i,
  output logic                                in_ready_o,
  input  pineda_pkg::setup_pkt_t              in_i,
  output logic [NumRast-1:0]                  out_valid_o,
  input  logic [NumRast-1:0]                  out_ready_i,
  output pineda_pkg::setup_pkt_t              out_o    // the same packet for every rasterizer
);

  logic [NumRast-1:0] sent_q, sent_d;  // already taken by these rasterizers
  logic [NumRast-1:0] dest;            // rasterizers that get this packet
  logic [NumRast-1:0] done;
  logic               cols_both, rows_both;

  always_comb begin
    cols_both = ({1'b0, in_i.tiles.x1} - {1'b0, in_i.tiles.x0}) >= 14'd2;
    rows_both = ({1'b0, in_i.tiles.y1} - {1'b0, in_i.tiles.y0}) >= 14'd2;
    for (int r = 0; r < NumRast; r++) begin
      dest[r] = 1'b1;
      if (NumRast >= 2 && !cols_both && (in_i.tiles.x0[0] != r[0])) dest[r] = 1'b0;
      if (NumRast >= 4 && !rows_both && (in_i.tiles.y0[0] != r[1])) dest[r] = 1'b0;
      if (in_i.eop) dest[r] = 1'b1;
    end
    out_o       = in_i;
    out_valid_o = {NumRast{in_valid_i}} & dest & ~sent_q;
    done        = ~dest | sent_q | out_ready_i;
    in_ready_o  = &done;
    sent_d      = sent_q;
    if (in_valid_i) begin
      sent_d = in_ready_o ? '0 : (sent_q | (out_valid_o & out_ready_i));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sent_q <= '0;
    end else begin
      sent_q <= sent_d;
    end
  end

endmodule
