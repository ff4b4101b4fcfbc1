// fine_raster: 8x8 coverage of one tile per clock (docs/numerics.md §5).
//
// For each edge k the 64 sample values E_k(i, j) = e_k + i*256*A_k + j*256*B_k (i, j = 0..7)
// are formed as row bases e_k + j*256*B_k plus column offsets i*256*A_k (constant multiples:
// shifts and adds), 192 EDGE_W-bit sums in all. A sample is covered when the tile is trivially
// accepted or all three E >= 0, and its pixel (tx*8+i, ty*8+j) lies in the pix rectangle;
// mask bit j*8+i. Tiles with an empty mask are dropped. An end-of-pipe token (eop = 1) is
// forwarded as a cov_pkt_t token (every other field 0).
// Throughput: one tile per clock. Latency: 1 clock.
module fine_raster (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  pineda_pkg::tile_pkt_t in_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output pineda_pkg::cov_pkt_t  out_o,
  output logic                  idle_o
);

  localparam int unsigned EW = pineda_pkg::EDGE_W;

  logic [EW-1:0]        row_base [3][8];   // e + j*256*B
  logic [EW-1:0]        col_ofs  [3][8];   // i*256*A
  logic [EW-1:0]        ev       [3][8][8];
  logic [7:0]           col_ok, row_ok;
  logic [14:0]          px, py;
  logic [63:0]          mask;
  pineda_pkg::cov_pkt_t cov;

  logic                 out_valid_q, out_valid_d;
  pineda_pkg::cov_pkt_t out_q,       out_d;

  logic signed [24:0]   ea [3];
  logic signed [24:0]   eb [3];
  logic [EW-1:0]        ee [3];
  pineda_pkg::edge_t    ed;

  always_comb begin
    // Element -> plain struct variable -> fields (Yosys 0.55 mis-handles member selects on
    // elements of packed arrays of structs).
    for (int k = 0; k < 3; k++) begin
      ed    = in_i.edges[k];
      ea[k] = $signed(ed.a);
      eb[k] = $signed(ed.b);
      ee[k] = ed.e;
    end
    for (int k = 0; k < 3; k++) begin
      for (int n = 0; n < 8; n++) begin
        // n*256*c, c sign-extended to EDGE_W bits (n is a loop constant: shifts and adds).
        row_base[k][n] = ee[k] + EW'(eb[k]) * EW'(n * 256);
        col_ofs[k][n]  = EW'(ea[k]) * EW'(n * 256);
      end
    end

    for (int n = 0; n < 8; n++) begin
      px        = {in_i.tx, 3'(n)};
      py        = {in_i.ty, 3'(n)};
      col_ok[n] = (px >= in_i.pix.x0) && (px < in_i.pix.x1);
      row_ok[n] = (py >= in_i.pix.y0) && (py < in_i.pix.y1);
    end

    for (int j = 0; j < 8; j++) begin
      for (int i = 0; i < 8; i++) begin
        for (int k = 0; k < 3; k++) begin
          ev[k][j][i] = row_base[k][j] + col_ofs[k][i];
        end
        mask[j * 8 + i] = (in_i.accept ||
                           (!ev[0][j][i][EW-1] && !ev[1][j][i][EW-1] && !ev[2][j][i][EW-1]))
                          && col_ok[i] && row_ok[j];
      end
    end

    cov        = '0;
    cov.tx     = in_i.tx;
    cov.ty     = in_i.ty;
    cov.mask   = mask;
    cov.color  = in_i.color;
    cov.target = in_i.target;
    cov.tri_id = in_i.tri_id;
    if (in_i.eop) begin
      cov     = '0;  // end-of-pipe token
      cov.eop = 1'b1;
    end
  end

  always_comb begin
    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !out_valid_q;
  end

  assign in_ready_o = !out_valid_q || out_ready_i;

  always_comb begin
    out_valid_d = out_valid_q;
    out_d       = out_q;
    if (in_ready_o) begin
      out_valid_d = in_valid_i && ((mask != 64'd0) || in_i.eop);
      if (in_valid_i && ((mask != 64'd0) || in_i.eop)) begin
        out_d = cov;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
    end
  end

endmodule
