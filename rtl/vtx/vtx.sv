// SPDX-License-Identifier: Apache-2.0
// vtx: fixed-function vertex transform (docs/contract.md §5.1, docs/numerics.md §7.5).
// In the front end (rtl/top/front_end.sv) between vertex fetch (vf_vtx) and PA (vtx_clip).
//
// Input stream (vtx_in_pkt_t), in order:
//  - kind VTX_KIND_MATRIX_ROW: pos = (M[row][0], M[row][1], M[row][2], M[row][3]) replaces row
//    `row` of the position matrix for every vertex behind it in the stream (none ahead of it).
//    Consumed in one clock, nothing is output. The matrix resets to the identity.
//  - kind VTX_KIND_VERTEX: one clip_vtx_pkt_t with, for each row r (x, y, z, w = rows 0..3),
//      clip[r] = ((M[r][0]*x + M[r][1]*y) + M[r][2]*z) + M[r][3]*w
//    every * and + an FP32 operation (fp32_mul, fp32_add: round to nearest even, FTZ/DAZ,
//    canonical NaN), in exactly this order (no fused multiply-add); colour, tex0, tex1 and
//    vtx_id are passed through.
//  - other kinds are consumed and ignored.
//  - an end-of-pipe token (eop = 1, whatever the other fields) leaves as a clip_vtx_pkt_t token
//    (every other field 0), in order behind the vertices ahead of it.
//
// Datapath: one matrix row per clock. A vertex stays on the input port (the stream keeps it
// stable) while its four rows issue, rows 0..3 on consecutive clocks, and is accepted with
// row 3. Stages: issue (4 fp32_mul: the row's products) -> S1 (fp32_add: p0+p1) -> S2 (+p2)
// -> S3 (+p3, the row's result): rows 0..2 wait in acc_q, row 3 forms the output register
// with them and the vertex's pass-through fields (ctx_q, captured when row 3 issues; at most
// one vertex's row 3 is ever between issue and the output, asserted below). A token takes one
// slot through the stages (as a row 3 with s*_eop set) and forms a token output.
// Throughput: 1 vertex per 4 clocks (0.25/clock); a matrix row or a token takes 1 clock. Latency: 7
// clocks from the first row's issue to out_valid_o. The pipeline collapses bubbles; only row 3
// waits for the output register.
module vtx (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      in_valid_i,
  output logic                      in_ready_o,
  input  pineda_pkg::vtx_in_pkt_t   in_i,
  output logic                      out_valid_o,
  input  logic                      out_ready_i,
  output pineda_pkg::clip_vtx_pkt_t out_o,
  output logic                      idle_o
);

  // Pass-through fields of a vertex.
  typedef struct packed {
    logic [31:0]        color;
    pineda_pkg::fvec2_t tex0;
    pineda_pkg::fvec2_t tex1;
    logic [31:0]        vtx_id;
  } ctx_t;

  // Identity: row r has 1.0 in column r (fvec4_t packs x at the top, w at the bottom).
  localparam logic [511:0] Identity = {  // = mat_q's layout: row 3 at the top
    {96'd0, pineda_pkg::FP32_ONE},
    {64'd0, pineda_pkg::FP32_ONE, 32'd0},
    {32'd0, pineda_pkg::FP32_ONE, 64'd0},
    {pineda_pkg::FP32_ONE, 96'd0}
  };

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic [3:0][127:0]         mat_q, mat_d;        // row r: fvec4_t (M[r][0..3] in x, y, z, w)
  logic [1:0]                beat_q, beat_d;      // next row to issue for the input vertex
  logic                      s1_valid_q, s1_valid_d;
  logic                      s1_eop_q, s1_eop_d;   // an end-of-pipe token (row 3)
  logic [1:0]                s1_row_q, s1_row_d;
  logic [3:0][31:0]          s1_p_q, s1_p_d;      // M[r][k] * v[k]
  logic                      s2_valid_q, s2_valid_d;
  logic                      s2_eop_q, s2_eop_d;
  logic [1:0]                s2_row_q, s2_row_d;
  logic [31:0]               s2_sum_q, s2_sum_d;  // p0 + p1
  logic [31:0]               s2_p2_q, s2_p2_d;
  logic [31:0]               s2_p3_q, s2_p3_d;
  logic                      s3_valid_q, s3_valid_d;
  logic                      s3_eop_q, s3_eop_d;
  logic [1:0]                s3_row_q, s3_row_d;
  logic [31:0]               s3_sum_q, s3_sum_d;  // (p0 + p1) + p2
  logic [31:0]               s3_p3_q, s3_p3_d;
  logic [2:0][31:0]          acc_q, acc_d;        // results of rows 0..2
  ctx_t                      ctx_q, ctx_d;
  logic                      out_valid_q, out_valid_d;
  pineda_pkg::clip_vtx_pkt_t out_q, out_d;

  // ---------------------------------------------------------------------------------------------
  // Control and the issue stage's operands (nothing here reads an FP result)
  // ---------------------------------------------------------------------------------------------
  logic               in_token, in_vertex, in_matrix, in_fire;
  logic               out_free, s3_go, s3_free, s2_free, s1_free;
  logic               issue, issue_last, issue_token;
  pineda_pkg::fvec4_t row, pos;

  always_comb begin
    in_token   = in_i.eop;
    in_vertex  = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_VERTEX);
    in_matrix  = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_MATRIX_ROW);

    out_free   = !out_valid_q || out_ready_i;
    s3_go      = s3_valid_q && ((s3_row_q != 2'd3) || out_free);  // S3 hands its row on
    s3_free    = !s3_valid_q || s3_go;
    s2_free    = !s2_valid_q || s3_free;
    s1_free    = !s1_valid_q || s2_free;
    issue       = in_valid_i && in_vertex && s1_free;
    issue_last  = issue && (beat_q == 2'd3);
    issue_token = in_valid_i && in_token && s1_free;

    // A vertex is accepted with its last row, a token when S1 takes it, anything else at once.
    if (in_vertex) begin
      in_ready_o = s1_free && (beat_q == 2'd3);
    end else if (in_token) begin
      in_ready_o = s1_free;
    end else begin
      in_ready_o = 1'b1;
    end
    in_fire    = in_valid_i && in_ready_o;

    row = pineda_pkg::fvec4_t'(mat_q[beat_q]);
    pos = in_i.pos;
  end

  // ---------------------------------------------------------------------------------------------
  // FP32 operators
  // ---------------------------------------------------------------------------------------------
  logic [3:0][31:0] prod;
  logic [31:0]      add1, add2, add3;

  fp32_mul u_mul0 (.a_i(row.x), .b_i(pos.x), .y_o(prod[0]));
  fp32_mul u_mul1 (.a_i(row.y), .b_i(pos.y), .y_o(prod[1]));
  fp32_mul u_mul2 (.a_i(row.z), .b_i(pos.z), .y_o(prod[2]));
  fp32_mul u_mul3 (.a_i(row.w), .b_i(pos.w), .y_o(prod[3]));

  fp32_add u_add1 (.a_i(s1_p_q[0]), .b_i(s1_p_q[1]), .y_o(add1));  // p0 + p1
  fp32_add u_add2 (.a_i(s2_sum_q),  .b_i(s2_p2_q),   .y_o(add2));  // + p2
  fp32_add u_add3 (.a_i(s3_sum_q),  .b_i(s3_p3_q),   .y_o(add3));  // + p3

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::fvec4_t res;

  always_comb begin
    mat_d       = mat_q;
    beat_d      = beat_q;
    s1_valid_d  = s1_valid_q;
    s1_eop_d    = s1_eop_q;
    s1_row_d    = s1_row_q;
    s1_p_d      = s1_p_q;
    s2_valid_d  = s2_valid_q;
    s2_eop_d    = s2_eop_q;
    s2_row_d    = s2_row_q;
    s2_sum_d    = s2_sum_q;
    s2_p2_d     = s2_p2_q;
    s2_p3_d     = s2_p3_q;
    s3_valid_d  = s3_valid_q;
    s3_eop_d    = s3_eop_q;
    s3_row_d    = s3_row_q;
    s3_sum_d    = s3_sum_q;
    s3_p3_d     = s3_p3_q;
    acc_d       = acc_q;
    ctx_d       = ctx_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    res         = '0;

    // Input: matrix rows and the issue of a vertex's rows.
    if (in_fire && in_matrix) begin
      mat_d[in_i.row] = in_i.pos;
    end
    if (issue) begin
      beat_d = beat_q + 2'd1;
    end
    if (issue_last) begin
      ctx_d.color  = in_i.color;
      ctx_d.tex0   = in_i.tex0;
      ctx_d.tex1   = in_i.tex1;
      ctx_d.vtx_id = in_i.vtx_id;
    end

    // Issue -> S1: the row's four products (a token's are don't-care).
    if (s1_free) begin
      s1_valid_d = issue || issue_token;
      if (issue || issue_token) begin
        s1_eop_d = issue_token;
        s1_row_d = issue_token ? 2'd3 : beat_q;
        s1_p_d   = prod;
      end
    end

    // S1 -> S2: p0 + p1.
    if (s2_free) begin
      s2_valid_d = s1_valid_q;
      if (s1_valid_q) begin
        s2_eop_d = s1_eop_q;
        s2_row_d = s1_row_q;
        s2_sum_d = add1;
        s2_p2_d  = s1_p_q[2];
        s2_p3_d  = s1_p_q[3];
      end
    end

    // S2 -> S3: + p2.
    if (s3_free) begin
      s3_valid_d = s2_valid_q;
      if (s2_valid_q) begin
        s3_eop_d = s2_eop_q;
        s3_row_d = s2_row_q;
        s3_sum_d = add2;
        s3_p3_d  = s2_p3_q;
      end
    end

    // S3: + p3. Rows 0..2 wait in acc_q; row 3 forms the output packet, a token a token.
    if (s3_go && (s3_row_q != 2'd3)) begin
      acc_d[s3_row_q] = add3;
    end
    if (out_free) begin
      out_valid_d = s3_valid_q && (s3_row_q == 2'd3);
      if (s3_valid_q && (s3_row_q == 2'd3)) begin
        res.x        = acc_q[0];
        res.y        = acc_q[1];
        res.z        = acc_q[2];
        res.w        = add3;
        out_d.pos    = res;
        out_d.color  = ctx_q.color;
        out_d.tex0   = ctx_q.tex0;
        out_d.tex1   = ctx_q.tex1;
        out_d.vtx_id = ctx_q.vtx_id;
        out_d.eop    = 1'b0;
        if (s3_eop_q) begin
          out_d     = '0;
          out_d.eop = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mat_q       <= Identity;
      beat_q      <= '0;
      s1_valid_q  <= 1'b0;
      s1_eop_q    <= 1'b0;
      s1_row_q    <= '0;
      s1_p_q      <= '0;
      s2_valid_q  <= 1'b0;
      s2_eop_q    <= 1'b0;
      s2_row_q    <= '0;
      s2_sum_q    <= '0;
      s2_p2_q     <= '0;
      s2_p3_q     <= '0;
      s3_valid_q  <= 1'b0;
      s3_eop_q    <= 1'b0;
      s3_row_q    <= '0;
      s3_sum_q    <= '0;
      s3_p3_q     <= '0;
      acc_q       <= '0;
      ctx_q       <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      mat_q       <= mat_d;
      beat_q      <= beat_d;
      s1_valid_q  <= s1_valid_d;
      s1_eop_q    <= s1_eop_d;
      s1_row_q    <= s1_row_d;
      s1_p_q      <= s1_p_d;
      s2_valid_q  <= s2_valid_d;
      s2_eop_q    <= s2_eop_d;
      s2_row_q    <= s2_row_d;
      s2_sum_q    <= s2_sum_d;
      s2_p2_q     <= s2_p2_d;
      s2_p3_q     <= s2_p3_d;
      s3_valid_q  <= s3_valid_d;
      s3_eop_q    <= s3_eop_d;
      s3_row_q    <= s3_row_d;
      s3_sum_q    <= s3_sum_d;
      s3_p3_q     <= s3_p3_d;
      acc_q       <= acc_d;
      ctx_q       <= ctx_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
    end
  end

  always_comb begin
    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !s1_valid_q && !s2_valid_q && !s3_valid_q && !out_valid_q && (beat_q == 2'd0);
  end

  // ---------------------------------------------------------------------------------------------
  // Checks (simulation only)
  // ---------------------------------------------------------------------------------------------
  stream_assert #(.Width($bits(in_i))) u_chk_in (
    .clk_i, .rst_ni, .valid_i(in_valid_i), .ready_i(in_ready_o), .data_i(in_i)
  );
  stream_assert #(.Width($bits(out_o))) u_chk_out (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o)
  );

`ifndef SYNTHESIS
  // ctx_q holds one vertex: a vertex's row 3 may only issue when no earlier vertex's row 3
  // still needs it (one in S3 that leaves at this edge has read it already). Tokens do not use
  // ctx_q.
  always_ff @(posedge clk_i) begin
    if (rst_ni && issue_last) begin
      assert (!((s1_valid_q && (s1_row_q == 2'd3) && !s1_eop_q) ||
                (s2_valid_q && (s2_row_q == 2'd3) && !s2_eop_q) ||
                (s3_valid_q && (s3_row_q == 2'd3) && !s3_eop_q && !s3_go)))
        else $error("%m: a row 3 issued while ctx_q was still needed");
    end
  end
`endif

endmodule
