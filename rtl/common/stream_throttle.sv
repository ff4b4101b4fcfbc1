// SPDX-License-Identifier: Apache-2.0
// stream_throttle: stall injection on a stream boundary (used by pineda_top for throttle_i).
//
// While throttle_i is high no NEW transfer may start this cycle. A transfer already offered to
// the consumer (out_valid_o seen without out_ready_i at an earlier edge, tracked by shown_q)
// stays offered, so the consumer side still obeys the stream rules. Combinational pass-through:
// zero latency, full throughput when throttle_i is low.
module stream_throttle #(
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             throttle_i,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);

  logic shown_q, shown_d;
  logic pass;

  // Separate assignments keep the valid and ready paths apart for Verilator's scheduling.
  assign pass        = ~throttle_i | shown_q;
  assign out_valid_o = in_valid_i & pass;
  assign in_ready_o  = out_ready_i & pass;
  assign out_data_o  = in_data_i;
  // Offered and not taken: it must stay offered at the next edge.
  assign shown_d     = out_valid_o & ~out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shown_q <= 1'b0;
    end else begin
      shown_q <= shown_d;
    end
  end

endmodule
