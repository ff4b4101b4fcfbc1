// SPDX-License-Identifier: Apache-2.0
// coarse_raster: tile walk and corner test (docs/numerics.md §4).
//
// Holds one setup packet and walks the raster tiles (8x8 samples: 8x8 pixels, 4x4 at 4x MSAA)
// of its tile rectangle that pass the corner test, rows ascending, making ONE tile decision per
// clock. Per tile and edge, with Et = E at the tile's sample (0, 0) and the sample lattice of
// numerics §5.3 (P(i) + Q(j) in units of 2^sh):
//   max_k = Et_k + 2^sh * max(P + Q),   min_k = Et_k + 2^sh * min(P + Q)
// (1x: the corner offsets 1792*max(A,0) + 1792*max(B,0) and likewise for min; computed once per
// triangle). A tile passes when every max_k >= 0; edge_in[k] = (min_k >= 0). Passing tiles go
// out as tile_pkt_t with e = Et.
//
// The walk (numerics §4.2) does not visit the whole box. In a row, the tiles passing the edges
// with A > 0 are a right half-line, those passing the A < 0 edges a left half-line, and A = 0
// edges pass or fail whole rows. A row starts below the previous row's last tile (the first row
// at column start, the topmost vertex's), searches left or right for a passing tile (SEEK: the row is
// empty when it would have to turn back, or no tile passes both half-lines), emits it, emits
// leftwards while the tile to the left passes (LEFT), then jumps back right of the first tile and
// emits rightwards while the tile to the right passes (RIGHT). The tiles c - 1, c and c + 1 are
// tested every clock, so every decision either emits a tile or moves the search; a row costs
// max(1, tiles emitted) + its search distance.
//
// Several rasterizers (NumRast = 2 or 4) split the screen into interleaved tiles: rasterizer
// RastIdx owns the tiles with tx mod 2 = RastIdx mod 2 (NumRast >= 2) and ty mod 2 =
// RastIdx / 2 (NumRast = 4), and walks only those (steps of 2); the walk is the same on that
// sub-lattice. A packet must contain at least one owned tile (the distributor sends only
// those); an end-of-pipe token (eop = 1) is one decision that always emits a tile_pkt_t token.
// The next triangle is taken in the same cycle as the last decision (no bubble).
// The depth plane (docs/numerics.md §9) is walked like a fourth edge: c at the tile's sample
// (0, 0) goes out with the tile, and zmin / zmax are the plane's extremes over the tile's sample
// lattice (the corner offsets chosen from the signs of a and b), rounded and clamped to the depth
// range like every sample (zplane_d24 is monotone, so no sample of the tile lies outside them).
// Throughput: one tile decision per clock. Latency: 1 clock (input -> first tile_pkt_t).
module coarse_raster #(
  parameter int unsigned NumRast = 1,
  parameter int unsigned RastIdx = 0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  pineda_pkg::setup_pkt_t in_i,
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output pineda_pkg::tile_pkt_t  out_o,
  output logic                   idle_o
);

  localparam int unsigned EW = pineda_pkg::EDGE_W;
  localparam int unsigned TW = pineda_pkg::TILE_W;
  localparam int unsigned ZW = pineda_pkg::ZPLANE_W;
  // Lattice of owned tiles: column step Sx (offset Ox), row step Sy (offset Oy).
  localparam int unsigned Sx = (NumRast >= 2) ? 2 : 1;
  localparam int unsigned Sy = (NumRast >= 4) ? 2 : 1;
  localparam bit          Ox = (NumRast >= 2) ? RastIdx[0] : 1'b0;
  localparam bit          Oy = (NumRast >= 4) ? RastIdx[1] : 1'b0;

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  // The walk's decision for tile c (numerics §4.2).
  typedef enum logic [1:0] {
    Seek  = 2'd0,
    Left  = 2'd1,
    Right = 2'd2
  } phase_e;

  typedef enum logic [2:0] {
    MoveLeft  = 3'd0,
    MoveRight = 3'd1,
    JumpRight = 3'd2,  // right of the row's first tile
    NextRow   = 3'd3
  } move_e;

  logic                        busy_q,      busy_d;
  pineda_pkg::setup_pkt_t      cur_q,       cur_d;
  logic [TW-1:0]               tx_q,        tx_d;      // current tile c
  logic [TW-1:0]               ty_q,        ty_d;
  logic [TW-1:0]               x0_q,        x0_d;      // first owned column of the rectangle
  phase_e                      phase_q,     phase_d;   // walk phase in the row
  logic [1:0]                  seek_q,      seek_d;    // SEEK: [0] moved left, [1] moved right
  logic [TW-1:0]               first_q,     first_d;   // the row's first emitted tile
  logic                        rok_q,       rok_d;     // ... and the tile right of it passes
  logic [2:0][EW-1:0]          et_q,        et_d;      // E at pixel (tx*8, ty*8)
  logic [2:0][EW-1:0]          efirst_q,    efirst_d;  // E at first_q
  logic [2:0][EW-1:0]          cmax_q,      cmax_d;    // corner offsets of the tile maximum
  logic [2:0][EW-1:0]          cmin_q,      cmin_d;    // ... and minimum
  logic [2:0][EW-1:0]          stx_q,       stx_d;     // column step: Sx*2048*A
  logic [2:0][EW-1:0]          sty_q,       sty_d;     // row step: Sy*2048*B
  logic [2:0]                  apos_q,      apos_d;    // A > 0
  logic [2:0]                  aneg_q,      aneg_d;    // A < 0
  logic [ZW-1:0]               zt_q,        zt_d;      // depth plane at the tile's sample (0, 0)
  logic [ZW-1:0]               zfirst_q,    zfirst_d;  // ... at first_q
  logic [ZW-1:0]               zcmax_q,     zcmax_d;   // corner offsets of its tile maximum
  logic [ZW-1:0]               zcmin_q,     zcmin_d;   // ... and minimum
  logic [ZW-1:0]               zstx_q,      zstx_d;    // column step
  logic [ZW-1:0]               zsty_q,      zsty_d;    // row step
  logic                        out_valid_q, out_valid_d;
  pineda_pkg::tile_pkt_t       out_q,       out_d;

  function automatic logic signed [ZW-1:0] zpos(input logic signed [ZW-1:0] v);
    zpos = v[ZW-1] ? '0 : v;
  endfunction

  function automatic logic signed [ZW-1:0] zneg(input logic signed [ZW-1:0] v);
    zneg = v[ZW-1] ? v : '0;
  endfunction

  function automatic logic signed [EW-1:0] pos(input logic signed [EW-1:0] v);
    pos = v[EW-1] ? '0 : v;
  endfunction

  function automatic logic signed [EW-1:0] neg(input logic signed [EW-1:0] v);
    neg = v[EW-1] ? v : '0;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Per-triangle constants of the incoming packet
  // ---------------------------------------------------------------------------------------------
  logic [2:0][EW-1:0] in_cmax, in_cmin, in_stx, in_sty, in_e0;
  logic [2:0]         in_apos, in_aneg;
  logic signed [24:0] in_a [3];
  logic signed [24:0] in_b [3];
  logic [2:0][EW-1:0] in_e;
  logic signed [24:0] cur_a [3];
  logic signed [24:0] cur_b [3];
  logic               in_adj_x, in_adj_y, in_back;
  logic [TW-1:0]      in_x0, in_y0, in_start;
  logic signed [EW-1:0] lp0 [3], lp1 [3], lq0 [3], lq1 [3];  // sample lattice (numerics §5.3)
  logic signed [EW-1:0] lmax [3], lmin [3];
  logic signed [EW-1:0] tstep_x [3], tstep_y [3];            // E from one tile to the next
  pineda_pkg::edge_t  ed_in, ed_cur, ed_out;
  logic signed [ZW-1:0] in_za, in_zb, zp0, zp1, zq0, zq1, zlmax, zlmin, ztstep_x, ztstep_y;
  logic [ZW-1:0]        in_zcmax, in_zcmin, in_zstx, in_zsty, in_z0;

  // Edge coefficients as plain signals. Elements of the edges[] array are always copied to a
  // plain struct variable before a field is selected (Yosys 0.55 mis-handles member selects on
  // elements of packed arrays of structs).
  always_comb begin
    for (int k = 0; k < 3; k++) begin
      ed_in    = in_i.edges[k];
      in_a[k]  = $signed(ed_in.a);
      in_b[k]  = $signed(ed_in.b);
      in_e[k]  = ed_in.e;
      ed_cur   = cur_q.edges[k];
      cur_a[k] = $signed(ed_cur.a);
      cur_b[k] = $signed(ed_cur.b);
    end
  end

  always_comb begin
    // First owned column and row (NumRast > 1): one tile further when the parity differs. The
    // walk starts at column start, or next to it (right if there is room, else left) when
    // another rasterizer owns it.
    in_adj_x = (Sx == 2) && (in_i.start[0] != Ox);
    in_back  = ({1'b0, in_i.start} + (TW + 1)'(1)) >= {1'b0, in_i.tiles.x1};
    in_adj_y = (Sy == 2) && (in_i.tiles.y0[0] != Oy);
    in_x0    = in_i.tiles.x0 + TW'((Sx == 2) && (in_i.tiles.x0[0] != Ox));
    in_y0    = in_i.tiles.y0 + TW'(in_adj_y);
    in_start = !in_adj_x ? in_i.start : in_back ? (in_i.start - TW'(1)) : (in_i.start + TW'(1));
    for (int k = 0; k < 3; k++) begin
      // P(i) = (i>>1)*p1 + (i&1)*p0, Q(j) likewise; E(i, j) = Et + 2^sh (P(i) + Q(j)).
      if (in_i.target.msaa) begin  // 1/8-pixel units (sh = 5)
        lp0[k] = (EW'(in_a[k]) <<< 2) + (EW'(in_b[k]) <<< 1);
        lp1[k] = EW'(in_a[k]) <<< 3;
        lq0[k] = (EW'(in_b[k]) <<< 2) - (EW'(in_a[k]) <<< 1);
        lq1[k] = EW'(in_b[k]) <<< 3;
      end else begin               // pixel units (sh = 8)
        lp0[k] = EW'(in_a[k]);
        lp1[k] = EW'(in_a[k]) <<< 1;
        lq0[k] = EW'(in_b[k]);
        lq1[k] = EW'(in_b[k]) <<< 1;
      end
      lmax[k] = (pos(lp1[k]) <<< 1) + pos(lp1[k]) + pos(lp0[k])
              + (pos(lq1[k]) <<< 1) + pos(lq1[k]) + pos(lq0[k]);
      lmin[k] = (neg(lp1[k]) <<< 1) + neg(lp1[k]) + neg(lp0[k])
              + (neg(lq1[k]) <<< 1) + neg(lq1[k]) + neg(lq0[k]);
      in_cmax[k] = in_i.target.msaa ? (lmax[k] <<< 5) : (lmax[k] <<< 8);
      in_cmin[k] = in_i.target.msaa ? (lmin[k] <<< 5) : (lmin[k] <<< 8);
      // One tile: 4*p1 in 2^sh units = 2048*A (1x) or 1024*A (4x).
      tstep_x[k] = in_i.target.msaa ? (EW'(in_a[k]) <<< 10) : (EW'(in_a[k]) <<< 11);
      tstep_y[k] = in_i.target.msaa ? (EW'(in_b[k]) <<< 10) : (EW'(in_b[k]) <<< 11);
      in_stx[k]  = (Sx == 2) ? (tstep_x[k] <<< 1) : tstep_x[k];
      in_sty[k]  = (Sy == 2) ? (tstep_y[k] <<< 1) : tstep_y[k];
      in_e0[k]   = in_e[k] + (!in_adj_x ? '0 : in_back ? -tstep_x[k] : tstep_x[k])
                           + (in_adj_y ? tstep_y[k] : '0);
      in_apos[k] = in_a[k] > 25'sd0;
      in_aneg[k] = in_a[k] < 25'sd0;
    end
    // The depth plane, like an edge with coefficients (a, b).
    in_za = ZW'($signed(in_i.zp.a));
    in_zb = ZW'($signed(in_i.zp.b));
    if (in_i.target.msaa) begin
      zp0 = (in_za <<< 2) + (in_zb <<< 1);
      zp1 = in_za <<< 3;
      zq0 = (in_zb <<< 2) - (in_za <<< 1);
      zq1 = in_zb <<< 3;
    end else begin
      zp0 = in_za;
      zp1 = in_za <<< 1;
      zq0 = in_zb;
      zq1 = in_zb <<< 1;
    end
    zlmax    = (zpos(zp1) <<< 1) + zpos(zp1) + zpos(zp0) + (zpos(zq1) <<< 1) + zpos(zq1) + zpos(zq0);
    zlmin    = (zneg(zp1) <<< 1) + zneg(zp1) + zneg(zp0) + (zneg(zq1) <<< 1) + zneg(zq1) + zneg(zq0);
    in_zcmax = in_i.target.msaa ? (zlmax <<< 5) : (zlmax <<< 8);
    in_zcmin = in_i.target.msaa ? (zlmin <<< 5) : (zlmin <<< 8);
    ztstep_x = in_i.target.msaa ? (in_za <<< 10) : (in_za <<< 11);
    ztstep_y = in_i.target.msaa ? (in_zb <<< 10) : (in_zb <<< 11);
    in_zstx  = (Sx == 2) ? (ztstep_x <<< 1) : ztstep_x;
    in_zsty  = (Sy == 2) ? (ztstep_y <<< 1) : ztstep_y;
    in_z0    = in_i.zp.c + (!in_adj_x ? '0 : in_back ? -ztstep_x : ztstep_x)
                         + (in_adj_y ? ztstep_y : '0);
  end

  // ---------------------------------------------------------------------------------------------
  // Tile decision
  // ---------------------------------------------------------------------------------------------
  logic [EW-1:0]         emax   [3];   // max at c
  logic [EW-1:0]         emax_l [3];   // ... at c - Sx
  logic [EW-1:0]         emax_r [3];   // ... at c + Sx
  logic [EW-1:0]         emin   [3];
  logic                  pass_l, pass_l_left, pass_r, pass_r_right, pass_0;
  logic [2:0]            edge_in;
  logic                  at_left, has_right, last_row;
  logic [TW:0]           tx_right, ty_down;
  pineda_pkg::tile_pkt_t tile;
  logic [ZW-1:0]         zsum_min, zsum_max;
  logic [23:0]           tzmin, tzmax;

  assign zsum_min = zt_q + zcmin_q;
  assign zsum_max = zt_q + zcmax_q;
  zplane_d24 u_zmin (.z_i(zsum_min), .lo_i(cur_q.zlo), .hi_i(cur_q.zhi), .d_o(tzmin));
  zplane_d24 u_zmax (.z_i(zsum_max), .lo_i(cur_q.zlo), .hi_i(cur_q.zhi), .d_o(tzmax));

  always_comb begin
    pass_l       = 1'b1;
    pass_l_left  = 1'b1;
    pass_r       = 1'b1;
    pass_r_right = 1'b1;
    pass_0       = 1'b1;
    edge_in      = '1;
    for (int k = 0; k < 3; k++) begin
      emax[k]   = et_q[k] + cmax_q[k];
      emax_l[k] = emax[k] - stx_q[k];
      emax_r[k] = emax[k] + stx_q[k];
      emin[k]   = et_q[k] + cmin_q[k];
      if (apos_q[k] && emax[k][EW-1])                  pass_l       = 1'b0;
      if (apos_q[k] && emax_l[k][EW-1])                pass_l_left  = 1'b0;
      if (aneg_q[k] && emax[k][EW-1])                  pass_r       = 1'b0;
      if (aneg_q[k] && emax_r[k][EW-1])                pass_r_right = 1'b0;
      if (!apos_q[k] && !aneg_q[k] && emax[k][EW-1])   pass_0       = 1'b0;
      if (emin[k][EW-1])                               edge_in[k]   = 1'b0;
    end

    tile        = '0;
    tile.tx     = tx_q;
    tile.ty     = ty_q;
    tile.edge_in = edge_in;
    for (int k = 0; k < 3; k++) begin
      ed_out.a      = cur_a[k];
      ed_out.b      = cur_b[k];
      ed_out.e      = et_q[k];
      tile.edges[k] = ed_out;
    end
    tile.pix    = cur_q.pix;
    tile.color  = cur_q.color;
    tile.target = cur_q.target;
    tile.tri_id = cur_q.tri_id;
    tile.front  = cur_q.front;
    tile.ds     = cur_q.ds;
    tile.om     = cur_q.om;
    tile.it     = cur_q.it;
    tile.zp.a   = cur_q.zp.a;
    tile.zp.b   = cur_q.zp.b;
    tile.zp.c   = zt_q;
    tile.zlo    = cur_q.zlo;
    tile.zhi    = cur_q.zhi;
    tile.zmin   = tzmin;
    tile.zmax   = tzmax;
    if (cur_q.eop) begin
      tile     = '0;  // end-of-pipe token
      tile.eop = 1'b1;
    end

    tx_right  = {1'b0, tx_q} + (TW + 1)'(Sx);
    ty_down   = {1'b0, ty_q} + (TW + 1)'(Sy);
    at_left   = (tx_q == x0_q);
    has_right = (tx_right < {1'b0, cur_q.tiles.x1});
    last_row  = (ty_down >= {1'b0, cur_q.tiles.y1});
  end

  move_e  move;
  phase_e phase_n;    // phase after the move
  logic   emit_tile;  // c passes: emit it
  logic   set_first;  // c is the row's first emitted tile
  logic   seek_left, seek_right;

  always_comb begin
    move       = NextRow;
    phase_n    = phase_q;
    emit_tile  = 1'b0;
    set_first  = 1'b0;
    seek_left  = 1'b0;
    seek_right = 1'b0;
    unique case (phase_q)
      Seek: begin
        if (!pass_0 || (!pass_l && !pass_r)) begin
          move = NextRow;  // no tile of the row passes
        end else if (!pass_l) begin
          if (!seek_q[0] && has_right) begin
            move       = MoveRight;
            seek_right = 1'b1;
          end
        end else if (!pass_r) begin
          if (!seek_q[1] && !at_left) begin
            move      = MoveLeft;
            seek_left = 1'b1;
          end
        end else begin
          emit_tile = 1'b1;
          set_first = 1'b1;
          if (!at_left && pass_l_left) begin
            move    = MoveLeft;
            phase_n = Left;
          end else if (has_right && pass_r_right) begin
            move    = MoveRight;
            phase_n = Right;
          end
        end
      end
      Left: begin
        emit_tile = 1'b1;
        if (!at_left && pass_l_left) begin
          move = MoveLeft;
        end else if (rok_q) begin
          move    = JumpRight;
          phase_n = Right;
        end
      end
      default: begin  // Right
        emit_tile = 1'b1;
        if (has_right && pass_r_right) begin
          move = MoveRight;
        end
      end
    endcase
    if (move == NextRow) phase_n = Seek;
  end

  // ---------------------------------------------------------------------------------------------
  // Walk, input and output
  // ---------------------------------------------------------------------------------------------
  logic out_en, step, emit, last;

  always_comb begin
    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !busy_q && !out_valid_q;
  end

  // Handshake: a decision is made when nothing is emitted or the output register has room.
  always_comb begin
    out_en     = !out_valid_q || out_ready_i;
    emit       = busy_q && (cur_q.eop || emit_tile);
    step       = busy_q && (!emit || out_en);
    last       = cur_q.eop || ((move == NextRow) && last_row);
    in_ready_o = !busy_q || (step && last);
  end

  always_comb begin
    busy_d      = busy_q;
    cur_d       = cur_q;
    tx_d        = tx_q;
    ty_d        = ty_q;
    x0_d        = x0_q;
    phase_d     = phase_q;
    seek_d      = seek_q;
    first_d     = first_q;
    rok_d       = rok_q;
    et_d        = et_q;
    efirst_d    = efirst_q;
    cmax_d      = cmax_q;
    cmin_d      = cmin_q;
    stx_d       = stx_q;
    sty_d       = sty_q;
    apos_d      = apos_q;
    aneg_d      = aneg_q;
    zt_d        = zt_q;
    zfirst_d    = zfirst_q;
    zcmax_d     = zcmax_q;
    zcmin_d     = zcmin_q;
    zstx_d      = zstx_q;
    zsty_d      = zsty_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;

    if (out_en) begin
      out_valid_d = step && emit;
      if (step && emit) begin
        out_d = tile;
      end
    end

    if (step) begin
      phase_d = phase_n;
      seek_d  = seek_q | {seek_right, seek_left};
      if (set_first) begin
        first_d  = tx_q;
        efirst_d = et_q;
        zfirst_d = zt_q;
        rok_d    = has_right && pass_r_right;
      end
      unique case (move)
        MoveLeft: begin
          tx_d = tx_q - TW'(Sx);
          for (int k = 0; k < 3; k++) et_d[k] = et_q[k] - stx_q[k];
          zt_d = zt_q - zstx_q;
        end
        MoveRight: begin
          tx_d = tx_right[TW-1:0];
          for (int k = 0; k < 3; k++) et_d[k] = et_q[k] + stx_q[k];
          zt_d = zt_q + zstx_q;
        end
        JumpRight: begin
          tx_d = first_q + TW'(Sx);
          for (int k = 0; k < 3; k++) et_d[k] = efirst_q[k] + stx_q[k];
          zt_d = zfirst_q + zstx_q;
        end
        default: begin  // NextRow: the same column, one row down
          ty_d   = ty_down[TW-1:0];
          seek_d = '0;
          for (int k = 0; k < 3; k++) et_d[k] = et_q[k] + sty_q[k];
          zt_d = zt_q + zsty_q;
        end
      endcase
      if (last) begin
        busy_d = 1'b0;
      end
    end

    if (in_valid_i && in_ready_o) begin
      busy_d   = 1'b1;
      cur_d    = in_i;
      tx_d     = in_start;
      ty_d     = in_y0;
      x0_d     = in_x0;
      phase_d  = Seek;
      seek_d   = '0;
      et_d     = in_e0;
      cmax_d   = in_cmax;
      cmin_d   = in_cmin;
      stx_d    = in_stx;
      sty_d    = in_sty;
      apos_d   = in_apos;
      aneg_d   = in_aneg;
      zt_d     = in_z0;
      zcmax_d  = in_zcmax;
      zcmin_d  = in_zcmin;
      zstx_d   = in_zstx;
      zsty_d   = in_zsty;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      cur_q       <= '0;
      tx_q        <= '0;
      ty_q        <= '0;
      x0_q        <= '0;
      phase_q     <= Seek;
      seek_q      <= '0;
      first_q     <= '0;
      rok_q       <= 1'b0;
      et_q        <= '0;
      efirst_q    <= '0;
      cmax_q      <= '0;
      cmin_q      <= '0;
      stx_q       <= '0;
      sty_q       <= '0;
      apos_q      <= '0;
      aneg_q      <= '0;
      zt_q        <= '0;
      zfirst_q    <= '0;
      zcmax_q     <= '0;
      zcmin_q     <= '0;
      zstx_q      <= '0;
      zsty_q      <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      busy_q      <= busy_d;
      cur_q       <= cur_d;
      tx_q        <= tx_d;
      ty_q        <= ty_d;
      x0_q        <= x0_d;
      phase_q     <= phase_d;
      seek_q      <= seek_d;
      first_q     <= first_d;
      rok_q       <= rok_d;
      et_q        <= et_d;
      efirst_q    <= efirst_d;
      cmax_q      <= cmax_d;
      cmin_q      <= cmin_d;
      stx_q       <= stx_d;
      sty_q       <= sty_d;
      apos_q      <= apos_d;
      aneg_q      <= aneg_d;
      zt_q        <= zt_d;
      zfirst_q    <= zfirst_d;
      zcmax_q     <= zcmax_d;
      zcmin_q     <= zcmin_d;
      zstx_q      <= zstx_d;
      zsty_q      <= zsty_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
    end
  end

  // The e fields of the held packet are only used at load time (in_e); tiles.y0 only there too.
  logic unused_sig;
  assign unused_sig = ^{ed_cur.e, cur_q.tiles.x0, cur_q.tiles.y0, cur_q.start, cur_q.zp.c};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && in_valid_i && in_ready_o && !in_i.eop) begin
      assert (({1'b0, in_x0} < {1'b0, in_i.tiles.x1}) && ({1'b0, in_y0} < {1'b0, in_i.tiles.y1}))
        else $error("%m: triangle without a tile of rasterizer %0d", RastIdx);
    end
  end
`endif

endmodule
