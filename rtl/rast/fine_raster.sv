// SPDX-License-Identifier: Apache-2.0
// fine_raster: coverage of one raster tile (8x8 samples) per clock, emitted as 2x2 quads
// (docs/numerics.md §5).
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
// CarrySave = 1 (default): each sample compresses the three terms (e>>>sh, P(i), Q(j)) with one
//   row of 3:2 carry-save adders into a sum and a carry vector, then one carry-propagate add;
//   only its sign bit is used. 64 x 3 of them.
// CarrySave = 0: the plain-adder version of the same datapath: row bases (e>>>sh) + Q(j)
//   (8 carry-propagate adds per edge), then one carry-propagate add per sample,
//   row base + P(i). Same results; the parameter exists to compare the two in Yosys.
//
// The coverage is ANDed with the pix rectangle (sample (i, j) belongs to pixel (i, j) at 1x,
// (i/2, j/2) at 4x) and held; the tile's non-empty 2x2 quads then leave one per clock, in
// row-major quad order (numerics §5.4): 16 quads of 4 pixels at 1x (mask bit p = pixel
// (p%2, p/2) of the quad), 4 quads of 4 pixels x 4 samples at 4x (bit 4p + s: sample s of
// pixel p, sample s at lattice (2*x + s%2, 2*y + s/2)). A tile with no coverage emits nothing.
// An end-of-pipe token (eop = 1) is forwarded as one quad_pkt_t token (every other field 0).
// Per-sample depth (docs/numerics.md §9): the depth plane is evaluated like an edge,
//   Z(i, j) = c + 2^sh * (Pz(i) + Qz(j))  (c: the plane at sample (0, 0), from the coarse
// rasterizer; Pz, Qz from the plane's a, b on the same lattice), for the 16 (4x) or 4 (1x)
// samples of the quad leaving, each a 3:2 carry-save row and one carry-propagate add
// (CarrySave = 0: two plain adds), rounded and clamped to [zlo, zhi] (zplane_d24); 0 where the
// mask bit is 0. ZPLANE_W bits, exact (every evaluated value fits, numerics §9).
// Throughput: one tile per clock when it has at most one non-empty quad; one quad per clock.
// The next tile is taken in the cycle the last quad of the current one leaves.
// Latency: 1 clock.
module fine_raster #(
  parameter bit CarrySave = 1'b1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  pineda_pkg::tile_pkt_t in_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output pineda_pkg::quad_pkt_t out_o,
  output logic                  idle_o
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
  logic [FW-1:0]        qtab [3][8];     // Q(j) mod 2^FW
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
    msaa = in_i.target.msaa;
    // Element -> plain struct variable -> fields (Yosys 0.55 mis-handles member selects on
    // elements of packed arrays of structs).
    for (int k = 0; k < 3; k++) begin
      ed    = in_i.edges[k];
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
        qtab[k][n] = mult3(n / 2, q1[k]) + ((n % 2) != 0 ? q0[k] : '0);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // 64 x 3 sample signs
  // ---------------------------------------------------------------------------------------------
  logic [FW-1:0] rowb [3][8];  // plain version: (e >>> sh) + Q(j)
  logic [FW-1:0] cs_s [3][8][8];
  logic [FW-1:0] cs_c [3][8][8];
  logic [FW-1:0] fsum [3][8][8];
  logic          sneg [3][8][8];  // F_k(i, j) < 0

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      for (int j = 0; j < 8; j++) begin
        rowb[k][j] = CarrySave ? '0 : (f0[k] + qtab[k][j]);
        for (int i = 0; i < 8; i++) begin
          if (CarrySave) begin
            // 3:2 compression of (e >>> sh, P(i), Q(j)), then one carry-propagate add.
            cs_s[k][j][i] = f0[k] ^ ptab[k][i] ^ qtab[k][j];
            cs_c[k][j][i] = {((f0[k][FW-2:0] & ptab[k][i][FW-2:0]) |
                              (f0[k][FW-2:0] & qtab[k][j][FW-2:0]) |
                              (ptab[k][i][FW-2:0] & qtab[k][j][FW-2:0])), 1'b0};
          end else begin
            cs_s[k][j][i] = rowb[k][j];
            cs_c[k][j][i] = ptab[k][i];
          end
          fsum[k][j][i] = cs_s[k][j][i] + cs_c[k][j][i];
          sneg[k][j][i] = fsum[k][j][i][FW-1];
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Coverage of the incoming tile, clip rectangle
  // ---------------------------------------------------------------------------------------------
  logic [7:0]  col_ok, row_ok;
  logic [14:0] px, py;
  logic [63:0] in_mask;   // bit j*8+i: sample (i, j) covered
  logic        in_tri;

  always_comb begin
    for (int n = 0; n < 8; n++) begin
      // Pixel of lattice column / row n: tx*8 + n (1x), tx*4 + n/2 (4x).
      if (msaa) begin
        px = {in_i.tx, 2'(n / 2)};
        py = {in_i.ty, 2'(n / 2)};
      end else begin
        px = {in_i.tx[11:0], 3'(n)};
        py = {in_i.ty[11:0], 3'(n)};
      end
      col_ok[n] = (px >= in_i.pix.x0) && (px < in_i.pix.x1);
      row_ok[n] = (py >= in_i.pix.y0) && (py < in_i.pix.y1);
    end

    for (int j = 0; j < 8; j++) begin
      for (int i = 0; i < 8; i++) begin
        in_tri = 1'b1;
        for (int k = 0; k < 3; k++) begin
          if (!in_i.edge_in[k] && sneg[k][j][i]) in_tri = 1'b0;
        end
        in_mask[j * 8 + i] = in_tri && col_ok[i] && row_ok[j];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Held tile and quad emission
  // ---------------------------------------------------------------------------------------------
  logic                  valid_q,  valid_d;   // a tile with quads left, or a token
  logic                  tok_q,    tok_d;     // the held entry is an end-of-pipe token
  logic [63:0]           mask_q,   mask_d;    // coverage not yet emitted (lattice order)
  pineda_pkg::tile_pkt_t tile_q,   tile_d;    // tx, ty, color, target, tri_id of the held tile

  logic [15:0]           qmask [16];          // quad n: its 16-bit coverage
  logic [15:0]           qnz;                 // quad n not empty
  logic [3:0]            qsel;                // first non-empty quad
  logic [63:0]           qbits;               // its samples in lattice order
  logic                  last;                // qsel is the held tile's last quad
  logic                  hmsaa;
  logic [1:0]            qxl, qyl;
  pineda_pkg::quad_pkt_t quad;

  // ---------------------------------------------------------------------------------------------
  // Per-sample depth of the quad leaving
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned ZW = pineda_pkg::ZPLANE_W;
  logic signed [ZW-1:0] za, zb, zp0, zp1, zq0, zq1;
  logic [ZW-1:0]        zptab [8];   // 2^sh * Pz(i)
  logic [ZW-1:0]        zqtab [8];   // 2^sh * Qz(j)
  logic [2:0]           zi [16];     // lattice column and row of mask bit n
  logic [2:0]           zj [16];
  logic [ZW-1:0]        zs [16];     // carry-save sum and carry, or the plain partial sum
  logic [ZW-1:0]        zc [16];
  logic [ZW-1:0]        zv [16];     // Z of sample n
  logic [23:0]          zd [16];     // its D24

  function automatic logic [ZW-1:0] zmult3(input int m, input logic [ZW-1:0] v);
    unique case (m)
      0:       zmult3 = '0;
      1:       zmult3 = v;
      2:       zmult3 = v << 1;
      default: zmult3 = (v << 1) + v;
    endcase
  endfunction

  always_comb begin
    za = ZW'($signed(tile_q.zp.a));
    zb = ZW'($signed(tile_q.zp.b));
    if (hmsaa) begin  // 1/8-pixel units: sh = 5
      zp0 = (za <<< 2) + (zb <<< 1);
      zp1 = za <<< 3;
      zq0 = (zb <<< 2) - (za <<< 1);
      zq1 = zb <<< 3;
    end else begin
      zp0 = za;
      zp1 = za <<< 1;
      zq0 = zb;
      zq1 = zb <<< 1;
    end
    for (int n = 0; n < 8; n++) begin
      zptab[n] = (zmult3(n / 2, zp1) + ((n % 2) != 0 ? zp0 : '0)) << (hmsaa ? 5 : 8);
      zqtab[n] = (zmult3(n / 2, zq1) + ((n % 2) != 0 ? zq0 : '0)) << (hmsaa ? 5 : 8);
    end
    for (int n = 0; n < 16; n++) begin
      if (hmsaa) begin  // bit 4p + s: sample s of pixel p
        zi[n] = {qsel[0], 1'(((n / 4) % 2)), 1'((n % 4) % 2)};
        zj[n] = {qsel[1], 1'(((n / 4) / 2)), 1'((n % 4) / 2)};
      end else begin    // bit p: pixel p (bits 4..15 unused)
        zi[n] = {qsel[1:0], 1'((n % 4) % 2)};
        zj[n] = {qsel[3:2], 1'((n % 4) / 2)};
      end
      if (CarrySave) begin
        zs[n] = tile_q.zp.c ^ zptab[zi[n]] ^ zqtab[zj[n]];
        zc[n] = {((tile_q.zp.c[ZW-2:0] & zptab[zi[n]][ZW-2:0]) |
                  (tile_q.zp.c[ZW-2:0] & zqtab[zj[n]][ZW-2:0]) |
                  (zptab[zi[n]][ZW-2:0] & zqtab[zj[n]][ZW-2:0])), 1'b0};
      end else begin
        zs[n] = tile_q.zp.c + zptab[zi[n]];
        zc[n] = zqtab[zj[n]];
      end
      zv[n] = zs[n] + zc[n];
    end
  end

  for (genvar n = 0; n < 16; n++) begin : g_zd
    zplane_d24 u_d24 (.z_i(zv[n]), .lo_i(tile_q.zlo), .hi_i(tile_q.zhi), .d_o(zd[n]));
  end

  always_comb begin
    hmsaa = tile_q.target.msaa;
    // Quads of the held coverage: 1x: quad n = (n%4, n/4) of 4x4, bit p = pixel (p%2, p/2);
    // 4x: quad n = (n%2, n/2) of 2x2, bit 4p + s = sample s of pixel p.
    for (int n = 0; n < 16; n++) begin
      qmask[n] = '0;
      for (int p = 0; p < 4; p++) begin
        if (!hmsaa) begin
          qmask[n][p] = mask_q[(2 * (n / 4) + p / 2) * 8 + 2 * (n % 4) + p % 2];
        end else if (n < 4) begin
          for (int s = 0; s < 4; s++) begin
            qmask[n][4 * p + s] = mask_q[(2 * (2 * (n / 2) + p / 2) + s / 2) * 8 +
                                         2 * (2 * (n % 2) + p % 2) + s % 2];
          end
        end
      end
      qnz[n] = (qmask[n] != '0);
    end
    qsel = '0;
    for (int n = 15; n >= 0; n--) begin
      if (qnz[n]) qsel = 4'(n);
    end
    // The lattice samples of quad qsel (a 2x2 block at 1x, 4x4 at 4x).
    for (int j = 0; j < 8; j++) begin
      for (int i = 0; i < 8; i++) begin
        qbits[j * 8 + i] = hmsaa ? ((4'(j / 4) == {3'd0, qsel[1]}) && (4'(i / 4) == {3'd0, qsel[0]}) &&
                                    (qsel[3:2] == 2'd0))
                                 : ((4'(j / 2) == {2'd0, qsel[3:2]}) && (4'(i / 2) == {2'd0, qsel[1:0]}));
      end
    end
    last = tok_q || ((mask_q & ~qbits) == 64'd0);

    qxl = hmsaa ? {1'b0, qsel[0]} : qsel[1:0];
    qyl = hmsaa ? {1'b0, qsel[1]} : qsel[3:2];
    quad        = '0;
    quad.qx     = hmsaa ? {tile_q.tx[11:0], qxl[0]} : {tile_q.tx[10:0], qxl};
    quad.qy     = hmsaa ? {tile_q.ty[11:0], qyl[0]} : {tile_q.ty[10:0], qyl};
    quad.mask   = qmask[qsel];
    quad.color  = tile_q.color;
    quad.target = tile_q.target;
    quad.tri_id = tile_q.tri_id;
    quad.front  = tile_q.front;
    quad.ds     = tile_q.ds;
    quad.om     = tile_q.om;
    quad.it     = tile_q.it;
    if (tok_q) begin
      quad     = '0;  // end-of-pipe token
      quad.eop = 1'b1;
    end
  end

  always_comb begin
    out_valid_o = valid_q;
    out_o       = quad;
    if (!tok_q) begin
      for (int n = 0; n < 16; n++) begin
        out_o.z[n] = quad.mask[n] ? zd[n] : 24'd0;
      end
    end
    idle_o      = !valid_q;
  end

  assign in_ready_o = !valid_q || (out_ready_i && last);

  always_comb begin
    valid_d = valid_q;
    tok_d   = tok_q;
    mask_d  = mask_q;
    tile_d  = tile_q;
    if (valid_q && out_ready_i) begin
      mask_d = mask_q & ~qbits;
      if (last) begin
        valid_d = 1'b0;
        tok_d   = 1'b0;
      end
    end
    if (in_valid_i && in_ready_o) begin
      // A tile with no coverage is consumed and dropped.
      valid_d = in_i.eop || (in_mask != 64'd0);
      tok_d   = in_i.eop;
      mask_d  = in_i.eop ? 64'd0 : in_mask;
      tile_d  = in_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      tok_q   <= 1'b0;
      mask_q  <= '0;
      tile_q  <= '0;
    end else begin
      valid_q <= valid_d;
      tok_q   <= tok_d;
      mask_q  <= mask_d;
      tile_q  <= tile_d;
    end
  end

  // Only the low sh bits of e are dropped (they are below the step unit); the held tile's edges
  // and clip rectangle are not needed after the evaluation (a synthesiser removes them).
  logic unused_sig;
  assign unused_sig = ^{ed.e, tile_q.edges, tile_q.pix, tile_q.edge_in, tile_q.eop,
                        tile_q.tx[12], tile_q.ty[12], tile_q.zmin, tile_q.zmax};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(valid_q && !tok_q && mask_q == 64'd0))
        else $error("%m: holding a tile with no coverage left");
    end
  end
`endif

endmodule
