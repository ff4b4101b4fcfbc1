// SPDX-License-Identifier: Apache-2.0
// raster_array: NumRast rasterizers (coarse + fine) behind one setup and in front of one pixel
// writer (docs/architecture.md "Several rasterizers", numerics.md §4.3).
//
//   setup_pkt -> rast_dist -> [FIFO -> coarse_raster r -> throttle -> hiz r -> fine_raster r] x NumRast
//             -> quad_merge -> quad_pkt
//
// Rasterizer r owns the interleaved raster tiles of numerics §4.3 and walks only those;
// rast_dist sends it the triangles whose tile rectangle holds one of them (and every
// end-of-pipe token), a FIFO of FifoDepth packets lets the others run ahead while one works on a
// large triangle, and quad_merge interleaves the quad streams (each kept in order, end-of-pipe
// tokens merged into one). With NumRast = 1 there is no distributor, FIFO or merge: setup feeds
// the one coarse rasterizer and the fine rasterizer's quads go out directly, as before.
// throttle_i withholds transfers on every coarse -> fine boundary (the harness's stall
// injection); tap_tile_* are their consumer sides (a transfer on rasterizer r's boundary is
// tap_tile_valid_o[r] && tap_tile_ready_o[r]).
module raster_array #(
  parameter int unsigned NumRast   = 1,
  parameter int unsigned FifoDepth = 4
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            in_valid_i,
  output logic                            in_ready_o,
  input  pineda_pkg::setup_pkt_t          in_i,
  input  logic                            throttle_i,
  // depth clears for the Hi-Z of every rasterizer (docs/depth.md §5, §6)
  input  logic                            hiz_clear_valid_i,
  output logic                            hiz_clear_ready_o,
  input  pineda_pkg::clear_pkt_t          hiz_clear_i,
  // per rasterizer, per cycle: a Hi-Z decision tested a tile / rejected it (perf counters)
  output logic [NumRast-1:0]              hiz_tested_o,
  output logic [NumRast-1:0]              hiz_rejected_o,
  output logic                            out_valid_o,
  input  logic                            out_ready_i,
  output pineda_pkg::quad_pkt_t           out_o,
  // coarse -> fine boundaries (consumer side of the throttles)
  output logic [NumRast-1:0]              tap_tile_valid_o,
  output logic [NumRast-1:0]              tap_tile_ready_o,
  output logic [NumRast-1:0][pineda_pkg::TILE_PKT_BITS-1:0] tap_tile_o,
  // rasterizer 0's coarse output, producer side (perf counters)
  output logic                            coarse0_valid_o,
  output logic                            coarse0_ready_o,
  output logic                            coarse0_idle_o,
  // per rasterizer: it holds work (FIFO, coarse or fine not empty)
  output logic [NumRast-1:0]              busy_o,
  output logic                            fine_idle_o,  // every fine rasterizer and the merge
  output logic                            idle_o        // everything, boundaries included
);

  localparam int unsigned SetupW = pineda_pkg::SETUP_PKT_BITS;
  localparam int unsigned TileW  = pineda_pkg::TILE_PKT_BITS;
  localparam int unsigned QuadW  = pineda_pkg::QUAD_PKT_BITS;

  // Distributor outputs (one payload for all), FIFO outputs
  logic [NumRast-1:0]             d_valid, d_ready;
  pineda_pkg::setup_pkt_t         d_pkt;
  logic [NumRast-1:0]             f_valid, f_ready, f_empty;
  logic [NumRast-1:0][SetupW-1:0] f_pkt;
  // Coarse outputs (producer side), fine outputs
  logic [NumRast-1:0]             c_valid, c_ready, c_idle;
  logic [NumRast-1:0][TileW-1:0]  c_pkt;
  logic [NumRast-1:0]             q_valid, q_ready, q_idle;
  logic [NumRast-1:0][QuadW-1:0]  q_pkt;
  logic                           m_idle;
  // HIZ outputs, clear fork
  logic [NumRast-1:0]             h_valid, h_ready, h_idle;
  logic [NumRast-1:0]             hc_valid, hc_ready, hc_done_q, hc_done_d;
  logic                           hc_all;

  always_comb begin
    hc_valid          = {NumRast{hiz_clear_valid_i}} & ~hc_done_q;
    hc_all            = &(hc_done_q | hc_ready);
    hiz_clear_ready_o = hiz_clear_valid_i && hc_all;
    hc_done_d         = hc_done_q | hc_ready;
    if (hiz_clear_ready_o) hc_done_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hc_done_q <= '0;
    end else begin
      hc_done_q <= hc_done_d;
    end
  end

  if (NumRast == 1) begin : g_single
    assign in_ready_o = f_ready[0];
    assign f_valid[0] = in_valid_i;
    assign f_pkt[0]   = in_i;
    assign f_empty[0] = 1'b1;
    assign d_valid    = '0;
    assign d_ready    = '0;
    assign d_pkt      = '0;
  end else begin : g_dist
    rast_dist #(
      .NumRast(NumRast)
    ) u_dist (
      .clk_i,
      .rst_ni,
      .in_valid_i,
      .in_ready_o,
      .in_i,
      .out_valid_o (d_valid),
      .out_ready_i (d_ready),
      .out_o       (d_pkt)
    );
  end

  for (genvar r = 0; r < NumRast; r++) begin : g_rast
    pineda_pkg::setup_pkt_t c_in;
    pineda_pkg::tile_pkt_t  c_out, t_out, h_out;
    pineda_pkg::quad_pkt_t  q_out;
    logic                   t_valid, t_ready, f_idle;

    if (NumRast > 1) begin : g_fifo
      logic [$clog2(FifoDepth):0] unused_count;
      logic                       unused_full;
      stream_fifo #(
        .Depth(FifoDepth),
        .Width(SetupW)
      ) u_fifo (
        .clk_i,
        .rst_ni,
        .clear_i     (1'b0),
        .in_valid_i  (d_valid[r]),
        .in_ready_o  (d_ready[r]),
        .in_data_i   (d_pkt),
        .out_valid_o (f_valid[r]),
        .out_ready_i (f_ready[r]),
        .out_data_o  (f_pkt[r]),
        .count_o     (unused_count),
        .empty_o     (f_empty[r]),
        .full_o      (unused_full)
      );
    end

    assign c_in = f_pkt[r];

    coarse_raster #(
      .NumRast(NumRast),
      .RastIdx(r)
    ) u_coarse (
      .clk_i,
      .rst_ni,
      .in_valid_i  (f_valid[r]),
      .in_ready_o  (f_ready[r]),
      .in_i        (c_in),
      .out_valid_o (c_valid[r]),
      .out_ready_i (c_ready[r]),
      .out_o       (c_out),
      .idle_o      (c_idle[r])
    );
    assign c_pkt[r] = c_out;

    stream_throttle #(
      .Width(TileW)
    ) u_thr (
      .clk_i,
      .rst_ni,
      .throttle_i,
      .in_valid_i  (c_valid[r]),
      .in_ready_o  (c_ready[r]),
      .in_data_i   (c_pkt[r]),
      .out_valid_o (t_valid),
      .out_ready_i (t_ready),
      .out_data_o  (t_out)
    );
    assign tap_tile_valid_o[r] = t_valid;
    assign tap_tile_ready_o[r] = t_ready;
    assign tap_tile_o[r]       = t_out;

    hiz u_hiz (
      .clk_i,
      .rst_ni,
      .in_valid_i    (t_valid),
      .in_ready_o    (t_ready),
      .in_i          (t_out),
      .out_valid_o   (h_valid[r]),
      .out_ready_i   (h_ready[r]),
      .out_o         (h_out),
      .clear_valid_i (hc_valid[r]),
      .clear_ready_o (hc_ready[r]),
      .clear_i       (hiz_clear_i),
      .tested_o      (hiz_tested_o[r]),
      .rejected_o    (hiz_rejected_o[r]),
      .idle_o        (h_idle[r])
    );

    fine_raster u_fine (
      .clk_i,
      .rst_ni,
      .in_valid_i  (h_valid[r]),
      .in_ready_o  (h_ready[r]),
      .in_i        (h_out),
      .out_valid_o (q_valid[r]),
      .out_ready_i (q_ready[r]),
      .out_o       (q_out),
      .idle_o      (f_idle)
    );
    assign q_pkt[r]  = q_out;
    assign q_idle[r] = f_idle;
    assign busy_o[r] = !f_empty[r] || !c_idle[r] || !h_idle[r] || !f_idle || c_valid[r];
  end

  if (NumRast == 1) begin : g_direct
    assign out_valid_o = q_valid[0];
    assign q_ready[0]  = out_ready_i;
    assign out_o       = q_pkt[0];
    assign m_idle      = 1'b1;
  end else begin : g_merge
    quad_merge #(
      .NumRast(NumRast)
    ) u_merge (
      .clk_i,
      .rst_ni,
      .in_valid_i  (q_valid),
      .in_ready_o  (q_ready),
      .in_i        (q_pkt),
      .out_valid_o,
      .out_ready_i,
      .out_o,
      .idle_o      (m_idle)
    );
  end

  assign coarse0_valid_o = c_valid[0];
  assign coarse0_ready_o = c_ready[0];
  assign coarse0_idle_o  = c_idle[0];
  assign fine_idle_o     = (&q_idle) && m_idle;
  assign idle_o          = (&f_empty) && (&c_idle) && (&h_idle) && (&q_idle) && m_idle &&
                           !(|d_valid) && !(|c_valid) && !(|h_valid) && !(|q_valid);

  // Used by the distributor's FIFOs only (NumRast > 1).
  logic unused_sig;
  assign unused_sig = ^{d_ready, d_pkt};

`ifndef SYNTHESIS
  initial begin
    assert (NumRast == 1 || NumRast == 2 || NumRast == 4) else $fatal(1, "raster_array: NumRast is 1, 2 or 4");
  end
`endif

endmodule
