// pixel_writer: one memory write per covered pixel (docs/contract.md §5, numerics.md §6).
//
// Holds one cov_pkt_t and, one per clock, writes the pixel of its lowest set mask bit
// (find-first-set, then clear): bit j*8+i is pixel (x, y) = (tx*8+i, ty*8+j),
// addr = target.base + y*target.pitch + x*4 (mod 2^32), wdata = color, be = 4'hF, tag = 0.
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
  input  pineda_pkg::cov_pkt_t in_i,
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
  pineda_pkg::cov_pkt_t        pkt_q,   pkt_d;
  logic [OutstandingW-1:0]     outst_q, outst_d;
  logic                        tok_q,   tok_d;      // end-of-pipe token held

  logic [5:0]  bit_idx;
  logic [63:0] lowest;
  logic [14:0] x, y;
  logic [31:0] row_ofs;
  logic        req_fire, rsp_fire, last;

  // Request from registers only.
  always_comb begin
    // Find first set.
    bit_idx = '0;
    for (int n = 63; n >= 0; n--) begin
      if (pkt_q.mask[n]) bit_idx = 6'(n);
    end
    lowest = 64'd1 << bit_idx;

    x       = {pkt_q.tx, bit_idx[2:0]};
    y       = {pkt_q.ty, bit_idx[5:3]};
    row_ofs = 32'(y) * 32'(pkt_q.target.pitch);

    mem_req_valid_o = valid_q;
    mem_req_o       = '0;
    mem_req_o.we    = 1'b1;
    mem_req_o.addr  = pkt_q.target.base + row_ofs + {15'd0, x, 2'b00};
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

    if (in_valid_i && in_ready_o) begin
      if (in_i.eop) begin
        tok_d = 1'b1;
      end else begin
        pkt_d   = in_i;
        valid_d = (in_i.mask != 64'd0);
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
      assert (!(valid_q && pkt_q.mask == 64'd0))
        else $error("%m: holding an empty mask");
    end
  end
`endif

endmodule
