// SPDX-License-Identifier: Apache-2.0
// stream_reg: full-throughput pipeline register with a skid buffer (2 entries).
//
// out_valid_o/out_data_o come from the main register; in_ready_o = !skid_valid is registered,
// so neither depends combinationally on out_ready_i: this cuts both the valid/data and the
// ready timing paths. Throughput: one transfer per clock. Latency: 1 cycle.
module stream_reg #(
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);

  logic             main_valid_q, main_valid_d;
  logic [Width-1:0] main_data_q,  main_data_d;
  logic             skid_valid_q, skid_valid_d;
  logic [Width-1:0] skid_data_q,  skid_data_d;
  logic             in_fire;

  // Outputs: registers only.
  always_comb begin
    in_ready_o  = ~skid_valid_q;
    out_valid_o = main_valid_q;
    out_data_o  = main_data_q;
  end

  always_comb begin
    main_valid_d = main_valid_q;
    main_data_d  = main_data_q;
    skid_valid_d = skid_valid_q;
    skid_data_d  = skid_data_q;
    in_fire      = in_valid_i & in_ready_o;

    if (!main_valid_q || out_ready_i) begin
      // The main register drains (or is empty): refill it from the skid first, else the input.
      if (skid_valid_q) begin
        main_valid_d = 1'b1;
        main_data_d  = skid_data_q;
        skid_valid_d = 1'b0;
      end else begin
        main_valid_d = in_fire;
        if (in_fire) begin
          main_data_d = in_data_i;
        end
      end
    end else if (in_fire) begin
      // The main register is stalled: park the input in the skid register.
      skid_valid_d = 1'b1;
      skid_data_d  = in_data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      main_valid_q <= 1'b0;
      main_data_q  <= '0;
      skid_valid_q <= 1'b0;
      skid_data_q  <= '0;
    end else begin
      main_valid_q <= main_valid_d;
      main_data_q  <= main_data_d;
      skid_valid_q <= skid_valid_d;
      skid_data_q  <= skid_data_d;
    end
  end

endmodule
