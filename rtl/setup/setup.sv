// SPDX-License-Identifier: Apache-2.0
// setup: triangle setup (docs/numerics.md §3).
//
// Stage A (input -> a_q): doubled area (51-bit signed), sample bounding box
//   px0 = (xmin + 127 - d) >>> 8, px1 = ((xmax - 128 + d) >>> 8) + 1 (same for y; d = 0, or 96
//   at 4x MSAA where samples lie within 96/256 pixel of the centre), intersection with
//   clip, raster-tile rectangle (8x8 pixels, 4x4 at 4x MSAA: target.msaa), the walk's first
//   column start (the topmost vertex's tile column, clamped to the rectangle), and the cull
//   decision (area2 == 0 or an empty pixel rectangle).
// Stage B (a_q -> output register): swap v1/v2 when area2 < 0, the three edges
//   k: v[k] -> v[(k+1)%3] with A = yi - yj, B = xj - xi, top-left bias (0 for A > 0 or
//   A == 0 && B > 0, else -1), and e = A*(X - xi) + B*(Y - yi) + bias at sample 0 of the first
//   pixel of raster tile (start, tiles.y0): X = start*2048 + 128, Y = tiles.y0*2048 + 128 (1x),
//   X = start*1024 + 96, Y = tiles.y0*1024 + 32 (4x: D3D sample 0 at (-2, -6)/16 pixel).
// Culled triangles are dropped between the stages. An end-of-pipe token (eop = 1) is never
// culled and leaves as a setup_pkt_t token (every other field 0).
// Throughput: one triangle per clock. Latency: 2 clocks.
module setup (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  pineda_pkg::tri_pkt_t   in_i,
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output pineda_pkg::setup_pkt_t out_o,
  output logic                   idle_o
);

  typedef struct packed {
    logic                   eop;    // end-of-pipe token
    logic [2:0][2*pineda_pkg::COORD_W-1:0] v;  // vtx_t x3, API order
    logic                   neg;    // area2 < 0: swap v1 and v2
    logic                   cull;
    pineda_pkg::trect_t     tiles;
    logic [12:0]            start;  // first column of the walk
    pineda_pkg::rect_t      pix;
    logic [31:0]            color;
    pineda_pkg::target_t    target;
    logic [31:0]            tri_id;
  } stage_a_t;

  // ---------------------------------------------------------------------------------------------
  // Stage A
  // ---------------------------------------------------------------------------------------------
  stage_a_t a_in;

  logic signed [50:0] dx1, dy1, dx2, dy2;
  logic signed [50:0] area2;
  logic signed [23:0] xmin, xmax, ymin, ymax;
  logic signed [25:0] px0, px1, py0, py1;            // pixel bbox (half-open)
  logic signed [25:0] cx0, cx1, cy0, cy1;            // clip, as signed
  logic signed [25:0] qx0, qx1, qy0, qy1;            // intersection
  logic [14:0]        pix_x1m1, pix_y1m1;
  logic               msaa;
  logic signed [23:0] top_x;                         // x of the topmost vertex
  logic signed [15:0] top_col;                       // its raster-tile column
  logic signed [15:0] tcol_lo, tcol_hi;
  logic signed [23:0] vx [3];                        // vertex coordinates as signed values
  logic signed [23:0] vy [3];
  pineda_pkg::vtx_t   vin;

  function automatic logic signed [23:0] min3(input logic signed [23:0] a,
                                              input logic signed [23:0] b,
                                              input logic signed [23:0] c);
    logic signed [23:0] m;
    m    = (a < b) ? a : b;
    min3 = (c < m) ? c : m;
  endfunction

  function automatic logic signed [23:0] max3(input logic signed [23:0] a,
                                              input logic signed [23:0] b,
                                              input logic signed [23:0] c);
    logic signed [23:0] m;
    m    = (a > b) ? a : b;
    max3 = (c > m) ? c : m;
  endfunction

  always_comb begin
    // Doubled signed area: (x1-x0)*(y2-y0) - (x2-x0)*(y1-y0). Differences are 25-bit, products
    // 50-bit, the difference 51-bit; computed in 51 bits (exact).
    // Element -> plain struct variable -> fields (see the note in ia.sv).
    for (int k = 0; k < 3; k++) begin
      vin   = in_i.v[k];
      vx[k] = $signed(vin.x);
      vy[k] = $signed(vin.y);
    end
    dx1   = 51'(vx[1]) - 51'(vx[0]);
    dy1   = 51'(vy[1]) - 51'(vy[0]);
    dx2   = 51'(vx[2]) - 51'(vx[0]);
    dy2   = 51'(vy[2]) - 51'(vy[0]);
    area2 = dx1 * dy2 - dx2 * dy1;

    // Sample bounding box: first pixel whose centre is >= min, last whose centre is <= max.
    xmin = min3(vx[0], vx[1], vx[2]);
    xmax = max3(vx[0], vx[1], vx[2]);
    ymin = min3(vy[0], vy[1], vy[2]);
    ymax = max3(vy[0], vy[1], vy[2]);
    // 4x MSAA: samples lie within 96/256 pixel of the centre.
    px0  = (26'(xmin) + (in_i.target.msaa ? 26'sd31 : 26'sd127)) >>> 8;
    py0  = (26'(ymin) + (in_i.target.msaa ? 26'sd31 : 26'sd127)) >>> 8;
    px1  = ((26'(xmax) - (in_i.target.msaa ? 26'sd32 : 26'sd128)) >>> 8) + 26'sd1;
    py1  = ((26'(ymax) - (in_i.target.msaa ? 26'sd32 : 26'sd128)) >>> 8) + 26'sd1;

    cx0 = $signed({11'd0, in_i.clip.x0});
    cx1 = $signed({11'd0, in_i.clip.x1});
    cy0 = $signed({11'd0, in_i.clip.y0});
    cy1 = $signed({11'd0, in_i.clip.y1});
    qx0 = (px0 > cx0) ? px0 : cx0;
    qx1 = (px1 < cx1) ? px1 : cx1;
    qy0 = (py0 > cy0) ? py0 : cy0;
    qy1 = (py1 < cy1) ? py1 : cy1;

    a_in        = '0;
    a_in.v      = in_i.v;
    a_in.neg    = area2[50];
    a_in.eop    = in_i.eop;
    a_in.cull   = !in_i.eop && ((area2 == '0) || (qx1 <= qx0) || (qy1 <= qy0));
    // When not culled, clip.x0 <= qx0 < qx1 <= clip.x1 <= 16384: all fit 15 bits.
    a_in.pix.x0 = qx0[14:0];
    a_in.pix.x1 = qx1[14:0];
    a_in.pix.y0 = qy0[14:0];
    a_in.pix.y1 = qy1[14:0];
    pix_x1m1    = qx1[14:0] - 15'd1;
    pix_y1m1    = qy1[14:0] - 15'd1;
    msaa = in_i.target.msaa;
    if (msaa) begin  // 4x4-pixel raster tiles
      a_in.tiles.x0 = qx0[14:2];
      a_in.tiles.y0 = qy0[14:2];
      a_in.tiles.x1 = pix_x1m1[14:2] + 13'd1;
      a_in.tiles.y1 = pix_y1m1[14:2] + 13'd1;
    end else begin
      a_in.tiles.x0 = {1'b0, qx0[14:3]};
      a_in.tiles.y0 = {1'b0, qy0[14:3]};
      a_in.tiles.x1 = {1'b0, pix_x1m1[14:3]} + 13'd1;
      a_in.tiles.y1 = {1'b0, pix_y1m1[14:3]} + 13'd1;
    end
    // The walk starts in the column of the topmost vertex (the first in API order of the
    // smallest y), clamped to the tile rectangle.
    if (vy[1] < vy[0]) top_x = (vy[2] < vy[1]) ? vx[2] : vx[1];
    else               top_x = (vy[2] < vy[0]) ? vx[2] : vx[0];
    top_col    = msaa ? 16'(top_x >>> 10) : 16'(top_x >>> 11);
    tcol_lo    = $signed({3'd0, a_in.tiles.x0});
    tcol_hi    = $signed({3'd0, a_in.tiles.x1}) - 16'sd1;
    a_in.start = (top_col < tcol_lo) ? a_in.tiles.x0 :
                 (top_col > tcol_hi) ? tcol_hi[12:0] : top_col[12:0];
    a_in.color  = in_i.color;
    a_in.target = in_i.target;
    a_in.tri_id = in_i.tri_id;
  end

  // ---------------------------------------------------------------------------------------------
  // Stage B
  // ---------------------------------------------------------------------------------------------
  stage_a_t               a_q, a_d;
  logic                   a_valid_q, a_valid_d;
  pineda_pkg::setup_pkt_t b_q, b_d;
  pineda_pkg::setup_pkt_t b_new;
  logic                   b_valid_q, b_valid_d;

  logic signed [23:0]     wx [3];            // oriented vertices
  logic signed [23:0]     wy [3];
  pineda_pkg::vtx_t       w0, w1, w2;
  pineda_pkg::edge_t      ed;
  logic signed [24:0]     ea [3];
  logic signed [24:0]     eb [3];
  logic signed [51:0]     ex [3];
  logic signed [51:0]     ey [3];
  logic signed [51:0]     ev [3];
  logic signed [51:0]     sx, sy;            // sample position of the reference pixel

  always_comb begin
    w0    = a_q.v[0];
    w1    = a_q.neg ? a_q.v[2] : a_q.v[1];
    w2    = a_q.neg ? a_q.v[1] : a_q.v[2];
    wx[0] = $signed(w0.x);
    wy[0] = $signed(w0.y);
    wx[1] = $signed(w1.x);
    wy[1] = $signed(w1.y);
    wx[2] = $signed(w2.x);
    wy[2] = $signed(w2.y);

    // Sample 0 of the first pixel of raster tile (start, tiles.y0).
    if (a_q.target.msaa) begin
      sx = $signed({29'd0, a_q.start, 10'd96});
      sy = $signed({29'd0, a_q.tiles.y0, 10'd32});
    end else begin
      sx = $signed({28'd0, a_q.start, 11'd128});
      sy = $signed({28'd0, a_q.tiles.y0, 11'd128});
    end

    b_new        = '0;
    b_new.tiles  = a_q.tiles;
    b_new.start  = a_q.start;
    b_new.pix    = a_q.pix;
    b_new.color  = a_q.color;
    b_new.target = a_q.target;
    b_new.tri_id = a_q.tri_id;

    for (int k = 0; k < 3; k++) begin
      // Edge from w[k] to w[(k+1) % 3].
      ea[k] = 25'(wy[k]) - 25'(wy[(k + 1) % 3]);
      eb[k] = 25'(wx[(k + 1) % 3]) - 25'(wx[k]);
      ex[k] = sx - 52'(wx[k]);
      ey[k] = sy - 52'(wy[k]);
      ev[k] = 52'(ea[k]) * ex[k] + 52'(eb[k]) * ey[k];
      // Top-left rule: bias -1 unless a left edge (A > 0) or a top edge (A == 0 && B > 0).
      if (!((ea[k] > 25'sd0) || ((ea[k] == 25'sd0) && (eb[k] > 25'sd0)))) begin
        ev[k] = ev[k] - 52'sd1;
      end
      ed.a           = ea[k];
      ed.b           = eb[k];
      ed.e           = ev[k][49:0];  // |E| < 2^49 + 1 (numerics.md §2)
      b_new.edges[k] = ed;
    end
    if (a_q.eop) begin
      b_new     = '0;  // end-of-pipe token
      b_new.eop = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Pipeline control: each stage advances when the next one has room; culled entries drain.
  // ---------------------------------------------------------------------------------------------
  logic b_en, a_free;

  always_comb begin
    out_valid_o = b_valid_q;
    out_o       = b_q;
    idle_o      = !a_valid_q && !b_valid_q;
  end

  assign b_en       = !b_valid_q || out_ready_i;
  assign a_free     = !a_valid_q || a_q.cull || b_en;
  assign in_ready_o = a_free;

  always_comb begin
    a_valid_d = a_valid_q;
    a_d       = a_q;
    if (a_free) begin
      a_valid_d = in_valid_i;
      if (in_valid_i) begin
        a_d = a_in;
      end
    end

    b_valid_d = b_valid_q;
    b_d       = b_q;
    if (b_en) begin
      b_valid_d = a_valid_q && !a_q.cull;
      if (a_valid_q && !a_q.cull) begin
        b_d = b_new;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_q       <= '0;
      b_valid_q <= 1'b0;
      b_q       <= '0;
    end else begin
      a_valid_q <= a_valid_d;
      a_q       <= a_d;
      b_valid_q <= b_valid_d;
      b_q       <= b_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{pix_x1m1[2:0], pix_y1m1[2:0], in_i.z, in_i.front, in_i.ds};  // depth: contract v8, not built yet

endmodule
