// SPDX-License-Identifier: Apache-2.0
// perf_counters: free-running performance counters (docs/contract.md §6).
//
// Counter PERF_CYCLES counts cycles since reset. For each of the NumUnits units (CP, IA, SETUP,
// COARSE, FINE, PW, in that order) three counters at 1 + 3*u: BUSY, STALLED, STARVED; every
// cycle exactly one of them counts:
//   stalled = out_valid && !out_ready (its output is offered and not taken)
//   starved = !stalled && idle        (it holds no work)
//   busy    = otherwise
// Then NumEvents event counters (PERF_HIZ_TESTED, ...): each adds ev_cnt_i[e] every cycle.
// All counters are 32 bits and wrap. Read port: combinational, 0 beyond NUM_PERF.
module perf_counters #(
  parameter int unsigned NumUnits  = 6,
  parameter int unsigned NumEvents = 1,
  parameter int unsigned EvW       = 3   // width of an event count per cycle
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumUnits-1:0] out_valid_i,
  input  logic [NumUnits-1:0] out_ready_i,
  input  logic [NumUnits-1:0] idle_i,
  input  logic [NumEvents-1:0][EvW-1:0] ev_cnt_i,
  input  logic [7:0]          rd_addr_i,
  output logic [31:0]         rd_data_o
);

  localparam int unsigned NumCnt = 1 + 3 * NumUnits + NumEvents;

  logic [NumCnt-1:0][31:0] cnt_q, cnt_d;
  logic [NumUnits-1:0]     stalled, starved, busy;

  always_comb begin
    cnt_d    = cnt_q;
    cnt_d[0] = cnt_q[0] + 32'd1;
    for (int u = 0; u < NumUnits; u++) begin
      stalled[u] = out_valid_i[u] && !out_ready_i[u];
      starved[u] = !stalled[u] && idle_i[u];
      busy[u]    = !stalled[u] && !starved[u];
      if (busy[u])    cnt_d[1 + 3 * u + 0] = cnt_q[1 + 3 * u + 0] + 32'd1;
      if (stalled[u]) cnt_d[1 + 3 * u + 1] = cnt_q[1 + 3 * u + 1] + 32'd1;
      if (starved[u]) cnt_d[1 + 3 * u + 2] = cnt_q[1 + 3 * u + 2] + 32'd1;
    end
    for (int e = 0; e < NumEvents; e++) begin
      cnt_d[1 + 3 * NumUnits + e] = cnt_q[1 + 3 * NumUnits + e] + 32'(ev_cnt_i[e]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_d;
    end
  end

  always_comb begin
    rd_data_o = '0;
    for (int n = 0; n < NumCnt; n++) begin
      if (32'(rd_addr_i) == n) rd_data_o = cnt_q[n];
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (NumCnt == pineda_pkg::NUM_PERF)
      else $fatal(1, "perf_counters: 1 + 3*NumUnits + NumEvents must equal NUM_PERF");
  end
`endif

endmodule
