// SPDX-License-Identifier: Apache-2.0
// fine_cover: coverage of one raster tile (8x8 samples), the evaluation stage of fine_raster
// (docs/numerics.md §5). Combinational: fine_raster registers its result.
//
// Sample (i, j) of the tile (i, j = 0..7) is inside edge k when E_k(i, j) >= 0, with
//   E_k(i, j) = e_k + 2^sh * (P_k(i) + Q_k(j)),   P(i) = (i>>1)*p1 + (i&1)*p0,
//                                                 Q(j) = (j>>1)*q1 + (j&1)*q0
// (e_k: E at sample (0, 0), from the coarse rasterizer; the lattice of numerics §5.3:
// 1x: sh = 8, p0 = A, p1 = 2A, q0 = B, q1 = 2B; 4x MSAA: sh = 5, p0 = 4A + 2B, p1 = 8A,
// q0 = 4B - 2A, q1 = 8B). Because the step terms are multiples of 2^sh, E >= 0 exactly when
//   F_k(i, j) = (e_k >>> sh) + P_k(i) + Q_k(j) >= 0.
// An edge with edge_in[k] set (every sample inside, from the coarse rasterizer's min corner)
// covers the tile. Every other edge of a tile from the coarse rasterizer crosses the tile
// (min F < 0 <= max F), so every F(i, j) lies in an interval narrower than 2^30: the 64
// evaluations run in FW = FINE_W = 31 bits modulo 2^31 and are exact (numerics §5.2).
//
// Per edge: 8 row bases R(j) = (e >>> sh) + Q(j) (7 carry-propagate adds), then per sample the
// sign bit of R(j) + P(i): an add of which only the carry chain and the top bit are kept (on a
// LUT4 + carry fabric: one LUT per sample and edge). 64 x 3 of them.
//
// The coverage is ANDed with the pix rectangle (sample (i, j) belongs to pixel (i, j) at 1x,
// (i/2, j/2) at 4x). mask_o bit j*8+i: sample (i, j) covered. qnz_o bit n: quad n of the tile
// has coverage (1x: quad n = (n%4, n/4) of 4x4 quads; 4x: quad n = (n%2, n/2) of 2x2, n < 4).
// Model: FineRaster::coverage_mask in cpp_model/rast/fine_raster.cpp.
module fine_cover (
  input  pineda_pkg::tile_pkt_t tile_i,
  output logic [63:0]           mask_o,
  output logic [15:0]           qnz_o
);

  localparam int unsigned FW = pineda_pkg::FINE_W;   // 31: narrowed per-sample width
  localparam int unsigned DW = pineda_pkg::DELTA_W;  // 25: A, B

  // ---------------------------------------------------------------------------------------------
  // Per edge: lattice terms (mod 2^FW)
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::edge_t    ed;
  logic                 msaa;
  logic signed [DW-1:0] ea [3];
  logic signed [DW-1:0] eb [3];
  logic [FW-1:0]        p0 [3], p1 [3], q0 [3], q1 [3];
  logic [FW-1:0]        ptab [3][8];     // P(i) mod 2^FW
  logic [FW-1:0]        f0   [3];        // (e >>> sh) mod 2^FW

  // m * v for m = 0..3 (m is a loop constant: a shift, or a shift and one add).
  function automatic logic [FW-1:0] mult3(input int m, input logic [FW-1:0] v);
    unique case (m)
      0:       mult3 = '0;
      1:       mult3 = v;
      2:       mult3 = v << 1;
      default: mult3 = (v << 1) + v;
    endcase
  endfunction

  always_comb begin
    msaa = tile_i.target.msaa;
    // Element -> plain struct variable -> fields (Yosys 0.55 mis-handles member selects on
    // elements of packed arrays of structs).
    for (int k = 0; k < 3; k++) begin
      ed    = tile_i.edges[k];
      ea[k] = $signed(ed.a);
      eb[k] = $signed(ed.b);
      if (msaa) begin  // 1/8-pixel units: sh = 5
        f0[k] = ed.e[FW+4:5];
        p0[k] = (FW'(ea[k]) << 2) + (FW'(eb[k]) << 1);
        p1[k] = FW'(ea[k]) << 3;
        q0[k] = (FW'(eb[k]) << 2) - (FW'(ea[k]) << 1);
        q1[k] = FW'(eb[k]) << 3;
      end else begin   // pixel units: sh = 8
        f0[k] = ed.e[FW+7:8];
        p0[k] = FW'(ea[k]);
        p1[k] = FW'(ea[k]) << 1;
        q0[k] = FW'(eb[k]);
        q1[k] = FW'(eb[k]) << 1;
      end
      // 0, p1, 2*p1, 3*p1 (one add), each plus p0 for odd n (one add each).
      for (int n = 0; n < 8; n++) begin
        ptab[k][n] = mult3(n / 2, p1[k]) + ((n % 2) != 0 ? p0[k] : '0);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // 64 x 3 sample signs
  // ---------------------------------------------------------------------------------------------
  logic [FW-1:0] rowb [3][8];     // (e >>> sh) + Q(j)
  logic [FW-1:0] fsum [3][8][8];  // F(i, j) mod 2^FW: only its sign bit is used
  logic          sneg [3][8][8];  // F_k(i, j) < 0

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      // Q(j) = (j>>1)*q1 + (j&1)*q0: even rows from f0 with q1 and 2*q1, odd rows one q0 more
      // (7 adds, at most 3 in a row).
      rowb[k][0] = f0[k];
      rowb[k][2] = f0[k] + q1[k];
      rowb[k][4] = f0[k] + (q1[k] << 1);
      rowb[k][6] = rowb[k][2] + (q1[k] << 1);
      for (int j = 1; j < 8; j += 2) rowb[k][j] = rowb[k][j - 1] + q0[k];
      for (int j = 0; j < 8; j++) begin
        for (int i = 0; i < 8; i++) begin
          fsum[k][j][i] = rowb[k][j] + ptab[k][i];
          sneg[k][j][i] = fsum[k][j][i][FW-1];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Coverage, clip rectangle, quads with coverage
  // ---------------------------------------------------------------------------------------------
  logic [7:0]  col_ok, row_ok;
  logic [14:0] px, py;
  logic        in_tri;

  always_comb begin
    for (int n = 0; n < 8; n++) begin
      // Pixel of lattice column / row n: tx*8 + n (1x), tx*4 + n/2 (4x).
      if (msaa) begin
        px = {tile_i.tx, 2'(n / 2)};
        py = {tile_i.ty, 2'(n / 2)};
      end else begin
        px = {tile_i.tx[11:0], 3'(n)};
        py = {tile_i.ty[11:0], 3'(n)};
      end
      col_ok[n] = (px >= tile_i.pix.x0) && (px < tile_i.pix.x1);
      row_ok[n] = (py >= tile_i.pix.y0) && (py < tile_i.pix.y1);
    end

    for (int j = 0; j < 8; j++) begin
      for (int i = 0; i < 8; i++) begin
        in_tri = 1'b1;
        for (int k = 0; k < 3; k++) begin
          if (!tile_i.edge_in[k] && sneg[k][j][i]) in_tri = 1'b0;
        end
        mask_o[j * 8 + i] = in_tri && col_ok[i] && row_ok[j];
      end
    end

    // 1x: quad n covers lattice (2*(n%4) + 0..1, 2*(n/4) + 0..1); 4x: quad n < 4 covers
    // (4*(n%2) + 0..3, 4*(n/2) + 0..3).
    for (int n = 0; n < 16; n++) begin
      qnz_o[n] = 1'b0;
      for (int j = 0; j < 8; j++) begin
        for (int i = 0; i < 8; i++) begin
          if (msaa ? (n < 4 && i / 4 == n % 2 && j / 4 == n / 2)
                   : (i / 2 == n % 4 && j / 2 == n / 4)) begin
            qnz_o[n] = qnz_o[n] | mask_o[j * 8 + i];
          end
        end
      end
    end
  end

  // Only the low sh bits of e are dropped (they are below the step unit); the rest of the tile
  // is fine_raster's.
  logic unused_sig;
  assign unused_sig = ^{ed.e, tile_i};

endmodule
