// SPDX-License-Identifier: Apache-2.0
// stream_assert: simulation-only checker for the valid/ready stream rules (docs/contract.md §1).
//
// If a stream presents valid && !ready at one rising edge, then at the next rising edge valid
// must still be high and the payload must be unchanged. Everything is compiled out under
// SYNTHESIS, so the module is an empty sink for synthesis.
module stream_assert #(
  parameter int unsigned Width = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  input  logic             ready_i,
  input  logic [Width-1:0] data_i
);

`ifndef SYNTHESIS
  logic             stall_q, stall_d;
  logic [Width-1:0] data_q,  data_d;

  always_comb begin
    stall_d = valid_i & ~ready_i;
    data_d  = data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stall_q <= 1'b0;
      data_q  <= '0;
    end else begin
      stall_q <= stall_d;
      data_q  <= data_d;
    end
  end

  // Checks sample the pre-edge values, so stall_q is the stall seen at the previous edge.
  always_ff @(posedge clk_i) begin
    if (rst_ni && stall_q) begin
      assert (valid_i)
        else $error("%m: valid dropped while stalled (valid && !ready at the previous edge)");
      assert (data_i == data_q)
        else $error("%m: payload changed while stalled");
    end
  end
`else
  logic unused_sig;
  assign unused_sig = ^{clk_i, rst_ni, valid_i, ready_i, data_i};
`endif

endmodule
