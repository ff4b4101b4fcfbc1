// SPDX-License-Identifier: Apache-2.0
// quad_merge: merges the quad streams of NumRast rasterizers into the one the pixel writer takes
// (docs/architecture.md "Several rasterizers").
//
// Each input is in order; the output keeps the order of every input (not a global order: two
// rasterizers own different pixels, so the order per pixel holds). Round robin among the inputs
// offering a quad. An end-of-pipe token waits at its input until every input offers one; then
// one token goes out and all are consumed: everything before the token, on every input, has gone
// out before it. Output register: valid and data from registers. Throughput: one quad per clock.
// Latency: 1 clock.
module quad_merge #(
  parameter int unsigned NumRast = 2
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic [NumRast-1:0]                 in_valid_i,
  output logic [NumRast-1:0]                 in_ready_o,
  input  logic [NumRast-1:0][pineda_pkg::QUAD_PKT_BITS-1:0] in_i,
  output logic                               out_valid_o,
  input  logic                               out_ready_i,
  output pineda_pkg::quad_pkt_t              out_o,
  output logic                               idle_o
);

  localparam int unsigned IdxW = (NumRast > 1) ? $clog2(NumRast) : 1;

  logic                  out_valid_q, out_valid_d;
  pineda_pkg::quad_pkt_t out_q,       out_d;
  logic [IdxW-1:0]       prio_q,      prio_d;    // round robin: first input to look at

  pineda_pkg::quad_pkt_t head;
  logic [NumRast-1:0]    quad_v, tok_v;
  logic                  out_en, all_tok, found;
  logic [IdxW-1:0]       sel, idx;

  always_comb begin
    for (int r = 0; r < NumRast; r++) begin
      head      = in_i[r];
      tok_v[r]  = in_valid_i[r] && head.eop;
      quad_v[r] = in_valid_i[r] && !head.eop;
    end
    all_tok = &tok_v;
    // Round robin from prio_q.
    found = 1'b0;
    sel   = '0;
    for (int k = 0; k < NumRast; k++) begin
      idx = IdxW'((32'(prio_q) + k) % NumRast);
      if (!found && quad_v[idx]) begin
        found = 1'b1;
        sel   = idx;
      end
    end
    out_en = !out_valid_q || out_ready_i;

    in_ready_o  = '0;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    prio_d      = prio_q;
    if (out_en) begin
      out_valid_d = 1'b0;
      if (found) begin
        in_ready_o[sel] = 1'b1;
        out_valid_d     = 1'b1;
        out_d           = in_i[sel];
        prio_d          = IdxW'((32'(sel) + 1) % NumRast);
      end else if (all_tok) begin
        in_ready_o  = '1;
        out_valid_d = 1'b1;
        out_d       = '0;
        out_d.eop   = 1'b1;
      end
    end

    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !out_valid_q;
  end

  // Only the heads' eop bits are looked at.
  logic unused_sig;
  assign unused_sig = ^head;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_q       <= '0;
      prio_q      <= '0;
    end else begin
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
      prio_q      <= prio_d;
    end
  end

endmodule
