// SPDX-License-Identifier: Apache-2.0
// fine_raster: coverage of one raster tile (8x8 samples) emitted as 2x2 quads, one per clock
// (docs/numerics.md §5).
//
// Two register stages:
//   1. hold: the coverage of the incoming tile (fine_cover: the 64 x 3 edge signs ANDed with the
//      pix rectangle) is registered with the tile, and with the set of its quads that have
//      coverage. A tile with no coverage is consumed and dropped.
//   2. out: the held tile's non-empty 2x2 quads leave one per clock, in row-major quad order
//      (numerics §5.4), into the output register: 16 quads of 4 pixels at 1x (mask bit p =
//      pixel (p%2, p/2) of the quad), 4 quads of 4 pixels x 4 samples at 4x (bit 4p + s: sample
//      s of pixel p, sample s at lattice (2*x + s%2, 2*y + s/2)). With the quad goes the depth
//      plane at its first lattice sample, zq = c + 2^sh * (Pz(qi) + Qz(qj)) ((qi, qj): the
//      quad's first lattice sample; Pz, Qz from the plane's a, b on the lattice of numerics
//      §5.3).
// Per-sample depth (docs/numerics.md §9), from the output register: sample n of the quad sits at
// lattice offset (di(n), dj(n)) from (qi, qj), the same offsets at 1x and 4x for n < 4, so
//   Z(n) = zq + 2^sh * (Pz(di(n)) + Qz(dj(n)))
// (Pz, Qz linear in the lattice index: the same value as c + 2^sh * (Pz(i) + Qz(j))), rounded
// and clamped to [zlo, zhi] (zplane_d24; its rounding constant 2^(Z_FRAC-1) is added once, to
// zq, and the Rounded form takes the sums); 0 where the mask bit is 0. ZPLANE_W bits, exact
// (every evaluated value fits, numerics §9; the partial sums wrap modulo 2^ZPLANE_W).
// An end-of-pipe token (eop = 1) is forwarded as one quad_pkt_t token (every other field 0).
// Throughput: one tile per clock when it has at most one non-empty quad; one quad per clock.
// The next tile is taken in the cycle the last quad of the held one leaves. Latency: 2 clocks.
module fine_raster (
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

  localparam int unsigned ZW = pineda_pkg::ZPLANE_W;
  localparam int unsigned AW = 33;  // zplane_t.a, .b

  // ---------------------------------------------------------------------------------------------
  // Coverage of the incoming tile
  // ---------------------------------------------------------------------------------------------
  logic [63:0] in_mask;   // bit j*8+i: sample (i, j) covered
  logic [15:0] in_qnz;    // quad n has coverage

  fine_cover u_cover (.tile_i(in_i), .mask_o(in_mask), .qnz_o(in_qnz));

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                  hvalid_q, hvalid_d;  // held: a tile with quads left, or a token
  logic                  htok_q,   htok_d;    // the held entry is an end-of-pipe token
  logic [63:0]           hmask_q,  hmask_d;   // the held tile's coverage (lattice order)
  logic [15:0]           hqnz_q,   hqnz_d;    // its non-empty quads not yet emitted
  logic                  hlast_q,  hlast_d;   // ... at most one of them (or a token)
  pineda_pkg::tile_pkt_t htile_q,  htile_d;   // tx, ty, color, target, tri_id, ... of the tile
  logic                  ovalid_q, ovalid_d;  // output register
  pineda_pkg::quad_pkt_t oquad_q,  oquad_d;   // the quad leaving (z filled in below)
  logic [ZW-1:0]         ozq_q,    ozq_d;     // depth plane at its first lattice sample + 2^(Z_FRAC-1)
  logic [AW-1:0]         oza_q,    oza_d;     // the plane's a, b
  logic [AW-1:0]         ozb_q,    ozb_d;
  logic [23:0]           ozlo_q,   ozlo_d;    // clamp range
  logic [23:0]           ozhi_q,   ozhi_d;

  // ---------------------------------------------------------------------------------------------
  // Quad selection from the held tile
  // ---------------------------------------------------------------------------------------------
  logic                  hmsaa;
  logic [15:0]           lowbit;   // first non-empty quad, one-hot
  logic [15:0]           rest;     // the non-empty quads after it
  logic [3:0]            qsel;
  logic                  last;     // qsel is the held tile's last quad
  logic [15:0]           qmask;
  logic [1:0]            qxl, qyl;
  logic                  out_en, emit;
  pineda_pkg::quad_pkt_t quad;

  always_comb begin
    hmsaa  = htile_q.target.msaa;
    lowbit = hqnz_q & (~hqnz_q + 16'd1);
    rest   = hqnz_q & ~lowbit;
    last   = hlast_q;  // htok_q || (rest == 16'd0), from a register: in_ready_o is shallow
    qsel   = '0;
    for (int n = 0; n < 16; n++) begin
      if (lowbit[n]) qsel = qsel | 4'(n);
    end
    // Quads of the held coverage: 1x: quad n = (n%4, n/4) of 4x4, bit p = pixel (p%2, p/2);
    // 4x: quad n = (n%2, n/2) of 2x2, bit 4p + s = sample s of pixel p.
    qmask = '0;
    for (int n = 0; n < 16; n++) begin
      for (int p = 0; p < 4; p++) begin
        if (!hmsaa) begin
          qmask[p] = qmask[p] |
                     (lowbit[n] & hmask_q[(2 * (n / 4) + p / 2) * 8 + 2 * (n % 4) + p % 2]);
        end else if (n < 4) begin
          for (int s = 0; s < 4; s++) begin
            qmask[4 * p + s] = qmask[4 * p + s] |
                               (lowbit[n] & hmask_q[(2 * (2 * (n / 2) + p / 2) + s / 2) * 8 +
                                                    2 * (2 * (n % 2) + p % 2) + s % 2]);
          end
        end
      end
    end

    qxl = hmsaa ? {1'b0, qsel[0]} : qsel[1:0];
    qyl = hmsaa ? {1'b0, qsel[1]} : qsel[3:2];
    quad        = '0;
    quad.qx     = hmsaa ? {htile_q.tx[11:0], qxl[0]} : {htile_q.tx[10:0], qxl};
    quad.qy     = hmsaa ? {htile_q.ty[11:0], qyl[0]} : {htile_q.ty[10:0], qyl};
    quad.mask   = qmask;
    quad.color  = htile_q.color;
    quad.target = htile_q.target;
    quad.tri_id = htile_q.tri_id;
    quad.front  = htile_q.front;
    quad.ds     = htile_q.ds;
    quad.om     = htile_q.om;
    quad.it     = htile_q.it;
    // End-of-pipe token: the held tile of a token is all zero (contract: every other field of a
    // token is 0; its coverage is 0), so the quad built from it is too.
    quad.eop    = htok_q;
  end

  // The depth plane at the quad's first lattice sample: lattice column qi = 2*qxl (1x) or
  // 4*qxl (4x), so 2^sh * Pz(qi) = mx * (2^sh * p1) with mx = qxl (1x) or 2*qxl (4x); rows alike.
  logic signed [ZW-1:0] hza, hzb;
  logic [ZW-1:0]        hp1, hq1, hp3, hq3, hpm, hqm, zq;
  logic [1:0]           mx, my;

  always_comb begin
    hza = ZW'($signed(htile_q.zp.a));
    hzb = ZW'($signed(htile_q.zp.b));
    hp1 = hmsaa ? (hza <<< 8) : (hza <<< 9);  // 2^sh * p1: 8a << 5, 2a << 8
    hq1 = hmsaa ? (hzb <<< 8) : (hzb <<< 9);
    hp3 = (hp1 << 1) + hp1;
    hq3 = (hq1 << 1) + hq1;
    mx  = hmsaa ? {qxl[0], 1'b0} : qxl;
    my  = hmsaa ? {qyl[0], 1'b0} : qyl;
    unique case (mx)
      2'd0:    hpm = '0;
      2'd1:    hpm = hp1;
      2'd2:    hpm = hp1 << 1;
      default: hpm = hp3;
    endcase
    unique case (my)
      2'd0:    hqm = '0;
      2'd1:    hqm = hq1;
      2'd2:    hqm = hq1 << 1;
      default: hqm = hq3;
    endcase
    // With the rounding constant of zplane_d24 folded in (its Rounded form).
    zq = htile_q.zp.c + hpm + hqm + (ZW'(1) << (pineda_pkg::Z_FRAC - 1));
  end

  // ---------------------------------------------------------------------------------------------
  // Handshakes and next state
  // ---------------------------------------------------------------------------------------------
  assign out_en     = !ovalid_q || out_ready_i;
  assign emit       = hvalid_q && out_en;
  assign in_ready_o = !hvalid_q || (emit && last);

  always_comb begin
    hvalid_d = hvalid_q;
    htok_d   = htok_q;
    hmask_d  = hmask_q;
    hqnz_d   = hqnz_q;
    hlast_d  = hlast_q;
    htile_d  = htile_q;
    ovalid_d = ovalid_q;
    oquad_d  = oquad_q;
    ozq_d    = ozq_q;
    oza_d    = oza_q;
    ozb_d    = ozb_q;
    ozlo_d   = ozlo_q;
    ozhi_d   = ozhi_q;
    if (out_ready_i) ovalid_d = 1'b0;
    if (emit) begin
      ovalid_d = 1'b1;
      oquad_d  = quad;
      ozq_d    = zq;
      oza_d    = htile_q.zp.a;
      ozb_d    = htile_q.zp.b;
      ozlo_d   = htile_q.zlo;
      ozhi_d   = htile_q.zhi;
      hqnz_d   = rest;
      hlast_d  = ((rest & (rest - 16'd1)) == 16'd0);
      if (last) begin
        hvalid_d = 1'b0;
        htok_d   = 1'b0;
      end
    end
    if (in_valid_i && in_ready_o) begin
      // A tile with no coverage is consumed and dropped.
      hvalid_d = in_i.eop || (in_qnz != 16'd0);
      htok_d   = in_i.eop;
      hmask_d  = in_i.eop ? 64'd0 : in_mask;
      hqnz_d   = in_i.eop ? 16'd0 : in_qnz;
      hlast_d  = in_i.eop || ((in_qnz & (in_qnz - 16'd1)) == 16'd0);
      htile_d  = in_i;
      // Not needed after the coverage (a synthesiser removes their registers).
      htile_d.edges   = '0;
      htile_d.pix     = '0;
      htile_d.edge_in = '0;
      htile_d.zmin    = '0;
      htile_d.zmax    = '0;
      htile_d.eop     = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hvalid_q <= 1'b0;
      htok_q   <= 1'b0;
      hmask_q  <= '0;
      hqnz_q   <= '0;
      hlast_q  <= 1'b0;
      htile_q  <= '0;
      ovalid_q <= 1'b0;
      oquad_q  <= '0;
      ozq_q    <= '0;
      oza_q    <= '0;
      ozb_q    <= '0;
      ozlo_q   <= '0;
      ozhi_q   <= '0;
    end else begin
      hvalid_q <= hvalid_d;
      htok_q   <= htok_d;
      hmask_q  <= hmask_d;
      hqnz_q   <= hqnz_d;
      hlast_q  <= hlast_d;
      htile_q  <= htile_d;
      ovalid_q <= ovalid_d;
      oquad_q  <= oquad_d;
      ozq_q    <= ozq_d;
      oza_q    <= oza_d;
      ozb_q    <= ozb_d;
      ozlo_q   <= ozlo_d;
      ozhi_q   <= ozhi_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Per-sample depth of the quad in the output register
  // ---------------------------------------------------------------------------------------------
  // Sample n's lattice offset from the quad's first sample: 1x bit p = n < 4: (p%2, p/2);
  // 4x bit 4p + s: (2*(p%2) + s%2, 2*(p/2) + s/2), which for n < 4 is (n%2, n/2) as well.
  logic                 omsaa;
  logic signed [ZW-1:0] za, zb;
  logic [ZW-1:0]        zp0, zp1, zq0, zq1;
  logic [ZW-1:0]        zpt [4];   // 2^sh * Pz(d), d = 0..3
  logic [ZW-1:0]        zqt [4];   // 2^sh * Qz(d)
  logic [ZW-1:0]        zrow [4];  // zq + 2^sh * Qz(d), d = 0..3
  logic [ZW-1:0]        zv [16];   // Z of sample n
  logic [23:0]          zd [16];   // its D24

  always_comb begin
    omsaa = oquad_q.target.msaa;
    za    = ZW'($signed(oza_q));
    zb    = ZW'($signed(ozb_q));
    if (omsaa) begin  // 1/8-pixel units: sh = 5
      zp0 = ((za <<< 2) + (zb <<< 1)) << 5;
      zp1 = za <<< 8;
      zq0 = ((zb <<< 2) - (za <<< 1)) << 5;
      zq1 = zb <<< 8;
    end else begin    // pixel units: sh = 8
      zp0 = za <<< 8;
      zp1 = za <<< 9;
      zq0 = zb <<< 8;
      zq1 = zb <<< 9;
    end
    zpt[0] = '0;
    zpt[1] = zp0;
    zpt[2] = zp1;
    zpt[3] = zp1 + zp0;
    zqt[0] = '0;
    zqt[1] = zq0;
    zqt[2] = zq1;
    zqt[3] = zq1 + zq0;
    for (int d = 0; d < 4; d++) zrow[d] = ozq_q + zqt[d];
    for (int n = 0; n < 16; n++) begin
      zv[n] = zrow[2 * ((n / 4) / 2) + (n % 4) / 2] + zpt[2 * ((n / 4) % 2) + (n % 4) % 2];
    end
  end

  for (genvar n = 0; n < 16; n++) begin : g_zd
    zplane_d24 #(.Rounded(1'b1)) u_d24 (.z_i(zv[n]), .lo_i(ozlo_q), .hi_i(ozhi_q), .d_o(zd[n]));
  end

  always_comb begin
    out_valid_o = ovalid_q;
    out_o       = oquad_q;
    for (int n = 0; n < 16; n++) begin
      out_o.z[n] = oquad_q.mask[n] ? zd[n] : 24'd0;
    end
    idle_o      = !hvalid_q && !ovalid_q;
  end

  logic unused_sig;
  assign unused_sig = ^{htile_q.edges, htile_q.pix, htile_q.edge_in, htile_q.eop,
                        htile_q.tx[12], htile_q.ty[12], htile_q.zmin, htile_q.zmax};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(hvalid_q && !htok_q && hqnz_q == 16'd0))
        else $error("%m: holding a tile with no coverage left");
      assert (!(hvalid_q && hlast_q != (htok_q || rest == 16'd0)))
        else $error("%m: hlast_q out of step with the quads left");
      assert (!(in_valid_i && in_i.eop && in_i != pineda_pkg::tile_pkt_t'({1'b1, {($bits(in_i) - 1){1'b0}}})))
        else $error("%m: end-of-pipe token with a field not 0");
    end
  end
`endif

endmodule
