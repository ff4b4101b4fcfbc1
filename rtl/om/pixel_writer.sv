// SPDX-License-Identifier: Apache-2.0
// pixel_writer: one memory write per covered pixel or sample (docs/contract.md §5,
// numerics.md §6).
//
// Holds one quad_pkt_t and, one per clock, writes the pixel (1x) or sample (4x MSAA) of its
// lowest set mask bit (find-first-set, then clear). 1x: bit p < 4 is pixel
// (x, y) = (2*qx + p%2, 2*qy + p/2), addr = target.base + y*target.pitch + x*4 (bits 4..15
// are ignored); 4x: bit n is sample s = n%4 of pixel p = n/4,
// addr = target.base + y*target.pitch + x*16 + s*4 (mod 2^32); wdata = color, be = 4'hF, tag = 0.
// The next packet is taken in the cycle the last write of the current one is accepted.
// Write acknowledgements are always accepted and counted. An end-of-pipe token (eop = 1) is
// held until every earlier write is acknowledged, then offered on eop_done_valid_o (the CP's
// completion input); the next packet is taken once the CP has accepted it. idle_o: no packet
// or token held and no write outstanding.
// Throughput: one pixel write per clock. Latency: 1 clock (packet in -> first write request).
module pixel_writer #(
  parameter int unsigned OutstandingW = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  pineda_pkg::quad_pkt_t in_i,
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output pineda_pkg::mem_req_t mem_req_o,
  input  logic                 mem_rsp_valid_i,
  output logic                 mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t mem_rsp_i,
  output logic                 eop_done_valid_o,
  input  logic                 eop_done_ready_i,
  output logic                 idle_o
);

  logic                        valid_q, valid_d;    // mask_q != 0
  pineda_pkg::quad_pkt_t       pkt_q,   pkt_d;
  logic [OutstandingW-1:0]     outst_q, outst_d;
  logic                        tok_q,   tok_d;      // end-of-pipe token held

  logic [3:0]  bit_idx;
  logic [15:0] lowest;
  logic [15:0] in_mask;   // the mask bits that are writes (1x: pixels 0..3)
  logic [1:0]  pix;       // pixel of the quad
  logic [13:0] x, y;
  logic [31:0] row_ofs, col_ofs;
  logic        req_fire, rsp_fire, last;

  // Request from registers only.
  always_comb begin
    // Find first set.
    bit_idx = '0;
    for (int n = 15; n >= 0; n--) begin
      if (pkt_q.mask[n]) bit_idx = 4'(n);
    end
    lowest = 16'd1 << bit_idx;

    pix     = pkt_q.target.msaa ? bit_idx[3:2] : bit_idx[1:0];
    x       = {pkt_q.qx, pix[0]};
    y       = {pkt_q.qy, pix[1]};
    row_ofs = 32'(y) * 32'(pkt_q.target.pitch);
    col_ofs = pkt_q.target.msaa ? {14'd0, x, bit_idx[1:0], 2'b00} : {16'd0, x, 2'b00};

    mem_req_valid_o = valid_q;
    mem_req_o       = '0;
    mem_req_o.we    = 1'b1;
    mem_req_o.addr  = pkt_q.target.base + row_ofs + col_ofs;
    mem_req_o.wdata = pkt_q.color;
    mem_req_o.be    = 4'hF;
    mem_req_o.tag   = '0;

    mem_rsp_ready_o  = 1'b1;
    eop_done_valid_o = tok_q && (outst_q == '0);
    idle_o           = !valid_q && !tok_q && (outst_q == '0);
  end

  always_comb begin
    req_fire   = mem_req_valid_o && mem_req_ready_i;
    rsp_fire   = mem_rsp_valid_i && mem_rsp_ready_o;
    last       = (pkt_q.mask == lowest);
    in_ready_o = !tok_q && (!valid_q || (req_fire && last));
  end

  always_comb begin
    valid_d = valid_q;
    pkt_d   = pkt_q;
    tok_d   = tok_q;

    if (eop_done_valid_o && eop_done_ready_i) begin
      tok_d = 1'b0;
    end

    if (req_fire) begin
      pkt_d.mask = pkt_q.mask & ~lowest;
      if (last) begin
        valid_d = 1'b0;
      end
    end

    in_mask = in_i.target.msaa ? in_i.mask : {12'd0, in_i.mask[3:0]};
    if (in_valid_i && in_ready_o) begin
      if (in_i.eop) begin
        tok_d = 1'b1;
      end else begin
        pkt_d      = in_i;
        pkt_d.mask = in_mask;
        valid_d    = (in_mask != 16'd0);
      end
    end

    unique case ({req_fire, rsp_fire})
      2'b10:   outst_d = outst_q + OutstandingW'(1);
      2'b01:   outst_d = outst_q - OutstandingW'(1);
      default: outst_d = outst_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      pkt_q   <= '0;
      outst_q <= '0;
      tok_q   <= 1'b0;
    end else begin
      valid_q <= valid_d;
      pkt_q   <= pkt_d;
      outst_q <= outst_d;
      tok_q   <= tok_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i, pkt_q.tri_id, pkt_q.eop};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rsp_fire && !req_fire && outst_q == '0))
        else $error("%m: write acknowledgement with no write outstanding");
      assert (!(valid_q && pkt_q.mask == 16'd0))
        else $error("%m: holding an empty mask");
    end
  end
`endif

endmodule
