// coarse_raster: tile walk and corner test (docs/numerics.md §4).
//
// Holds one setup packet and walks its tile rectangle row by row (ty outer, tx inner), making
// ONE tile decision per clock whether the tile is rejected or emitted. The edge values at the
// tile origins are walked incrementally (Et += A*2048 along a row; a new row starts from the
// previous row start + B*2048), which is exact. Per tile and edge:
//   max_k = Et_k + (A_k > 0 ? 1792*A_k : 0) + (B_k > 0 ? 1792*B_k : 0)
//   min_k = Et_k + (A_k < 0 ? 1792*A_k : 0) + (B_k < 0 ? 1792*B_k : 0)
// (the corner offsets are computed once per triangle). Rejected when any max_k < 0, trivially
// accepted when every min_k >= 0. Non-rejected tiles go out as tile_pkt_t with e = Et.
// The next triangle is taken in the same cycle as the last tile decision (no bubble).
// An end-of-pipe token (eop = 1, empty tile rectangle) is one decision that always emits a
// tile_pkt_t token (every other field 0).
// Throughput: one tile decision per clock. Latency: 1 clock (input -> first tile_pkt_t).
module coarse_raster (
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

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                        busy_q,      busy_d;
  pineda_pkg::setup_pkt_t      cur_q,       cur_d;
  logic [11:0]                 tx_q,        tx_d;
  logic [11:0]                 ty_q,        ty_d;
  logic [2:0][EW-1:0]          et_q,        et_d;     // E at pixel (tx*8, ty*8)
  logic [2:0][EW-1:0]          erow_q,      erow_d;   // E at pixel (tiles.x0*8, ty*8)
  logic [2:0][EW-1:0]          cmax_q,      cmax_d;   // corner offsets of the tile maximum
  logic [2:0][EW-1:0]          cmin_q,      cmin_d;   // ... and minimum
  logic                        out_valid_q, out_valid_d;
  pineda_pkg::tile_pkt_t       out_q,       out_d;

  // Multiples of an edge coefficient, sign-extended to EDGE_W bits.
  function automatic logic signed [EW-1:0] times2048(input logic signed [24:0] c);
    times2048 = EW'(c) <<< 11;
  endfunction

  function automatic logic signed [EW-1:0] times1792(input logic signed [24:0] c);
    times1792 = (EW'(c) <<< 11) - (EW'(c) <<< 8);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Per-triangle constants of the incoming packet
  // ---------------------------------------------------------------------------------------------
  logic [2:0][EW-1:0] in_cmax, in_cmin;
  logic signed [24:0] in_a [3];
  logic signed [24:0] in_b [3];
  logic [2:0][EW-1:0] in_e;
  logic signed [24:0] cur_a [3];
  logic signed [24:0] cur_b [3];
  pineda_pkg::edge_t  ed_in, ed_cur, ed_out;

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
    for (int k = 0; k < 3; k++) begin
      in_cmax[k] = ((in_a[k] > 25'sd0) ? times1792(in_a[k]) : '0)
                 + ((in_b[k] > 25'sd0) ? times1792(in_b[k]) : '0);
      in_cmin[k] = ((in_a[k] < 25'sd0) ? times1792(in_a[k]) : '0)
                 + ((in_b[k] < 25'sd0) ? times1792(in_b[k]) : '0);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Tile decision
  // ---------------------------------------------------------------------------------------------
  logic                  reject, accept;
  logic [EW-1:0]         emax [3];
  logic [EW-1:0]         emin [3];
  logic                  out_en, step, emit, row_end, last;
  logic [12:0]           tx_next, ty_next;
  pineda_pkg::tile_pkt_t tile;

  always_comb begin
    reject = 1'b0;
    accept = 1'b1;
    for (int k = 0; k < 3; k++) begin
      emax[k] = et_q[k] + cmax_q[k];
      emin[k] = et_q[k] + cmin_q[k];
      if (emax[k][EW-1] && !cur_q.eop) reject = 1'b1;   // max_k < 0
      if (emin[k][EW-1]) accept = 1'b0;                // min_k < 0
    end

    tile        = '0;
    tile.tx     = tx_q;
    tile.ty     = ty_q;
    tile.accept = accept;
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
    if (cur_q.eop) begin
      tile     = '0;  // end-of-pipe token
      tile.eop = 1'b1;
    end

    tx_next = {1'b0, tx_q} + 13'd1;
    ty_next = {1'b0, ty_q} + 13'd1;
    row_end = (tx_next >= {1'b0, cur_q.tiles.x1});
    last    = row_end && (ty_next >= {1'b0, cur_q.tiles.y1});
  end

  // ---------------------------------------------------------------------------------------------
  // Walk, input and output
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !busy_q && !out_valid_q;
  end

  // Handshake: a decision is made when the tile is rejected or the output register has room.
  always_comb begin
    out_en     = !out_valid_q || out_ready_i;
    step       = busy_q && (reject || out_en);
    emit       = busy_q && !reject && out_en;
    in_ready_o = !busy_q || (step && last);
  end

  always_comb begin
    busy_d      = busy_q;
    cur_d       = cur_q;
    tx_d        = tx_q;
    ty_d        = ty_q;
    et_d        = et_q;
    erow_d      = erow_q;
    cmax_d      = cmax_q;
    cmin_d      = cmin_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;

    if (out_en) begin
      out_valid_d = emit;
      if (emit) begin
        out_d = tile;
      end
    end

    if (step) begin
      if (!row_end) begin
        tx_d = tx_next[11:0];
        for (int k = 0; k < 3; k++) begin
          et_d[k] = et_q[k] + times2048(cur_a[k]);
        end
      end else begin
        tx_d = cur_q.tiles.x0;
        ty_d = ty_next[11:0];
        for (int k = 0; k < 3; k++) begin
          erow_d[k] = erow_q[k] + times2048(cur_b[k]);
          et_d[k]   = erow_d[k];
        end
      end
      if (last) begin
        busy_d = 1'b0;
      end
    end

    if (in_valid_i && in_ready_o) begin
      busy_d = 1'b1;
      cur_d  = in_i;
      tx_d   = in_i.tiles.x0;
      ty_d   = in_i.tiles.y0;
      et_d   = in_e;
      erow_d = in_e;
      cmax_d = in_cmax;
      cmin_d = in_cmin;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      cur_q       <= '0;
      tx_q        <= '0;
      ty_q        <= '0;
      et_q        <= '0;
      erow_q      <= '0;
      cmax_q      <= '0;
      cmin_q      <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      busy_q      <= busy_d;
      cur_q       <= cur_d;
      tx_q        <= tx_d;
      ty_q        <= ty_d;
      et_q        <= et_d;
      erow_q      <= erow_d;
      cmax_q      <= cmax_d;
      cmin_q      <= cmin_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
    end
  end

  // The e fields of the held packet are only used at load time (in_e).
  logic unused_sig;
  assign unused_sig = ^{ed_cur.e};

endmodule
