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
// Datapath: `Lanes` matrix rows per clock (1, 2 or 4; default 2: half a vertex per clock, see
// docs/architecture.md "VTX throughput and area"). A vertex stays on the input port (the stream
// keeps it stable) while its 4 / Lanes beats issue, rows Lanes*b .. Lanes*b + Lanes - 1 in beat
// b, and is accepted with its last beat. Each lane is the same row pipeline: issue (4 fp32_mul:
// the row's products) -> S1 (fp32_add: p0+p1) -> S2 (+p2) -> S3 (+p3, the row's result). Every
// row is computed in exactly the documented order whatever the lane count; lanes only change
// which rows are in flight together. The rows of earlier beats wait in acc_q; the last beat
// forms the output register with them and the vertex's pass-through fields, which travel down
// the pipeline with the last beat (ctx in S1..S3). A token takes one beat through the stages
// (as a last beat with s*_eop set) and forms a token output.
// Throughput: Lanes / 4 vertices per clock; a matrix row or a token takes 1 clock. Latency: 4 /
// Lanes + 3 clocks from the first beat's issue to out_valid_o. The pipeline collapses bubbles;
// only the last beat waits for the output register.
module vtx #(
  parameter int unsigned Lanes = 2
) (
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

  localparam int unsigned Beats = 4 / Lanes;
  localparam logic [1:0] LastBeat = 2'(Beats - 1);

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
  logic [3:0][127:0]             mat_q, mat_d;        // row r: fvec4_t (M[r][0..3] in x, y, z, w)
  logic [1:0]                    beat_q, beat_d;      // next beat to issue for the input vertex
  logic                          s1_valid_q, s1_valid_d;
  logic                          s1_eop_q, s1_eop_d;  // an end-of-pipe token (a last beat)
  logic [1:0]                    s1_beat_q, s1_beat_d;
  logic [Lanes-1:0][3:0][31:0]   s1_p_q, s1_p_d;      // per lane: M[r][k] * v[k]
  ctx_t                          s1_ctx_q, s1_ctx_d;  // the vertex's pass-through (last beat)
  logic                          s2_valid_q, s2_valid_d;
  logic                          s2_eop_q, s2_eop_d;
  logic [1:0]                    s2_beat_q, s2_beat_d;
  logic [Lanes-1:0][31:0]        s2_sum_q, s2_sum_d;  // p0 + p1
  logic [Lanes-1:0][31:0]        s2_p2_q, s2_p2_d;
  logic [Lanes-1:0][31:0]        s2_p3_q, s2_p3_d;
  ctx_t                          s2_ctx_q, s2_ctx_d;
  logic                          s3_valid_q, s3_valid_d;
  logic                          s3_eop_q, s3_eop_d;
  logic [1:0]                    s3_beat_q, s3_beat_d;
  logic [Lanes-1:0][31:0]        s3_sum_q, s3_sum_d;  // (p0 + p1) + p2
  logic [Lanes-1:0][31:0]        s3_p3_q, s3_p3_d;
  ctx_t                          s3_ctx_q, s3_ctx_d;
  logic [3:0][31:0]              acc_q, acc_d;        // results of the earlier beats' rows
  logic                          out_valid_q, out_valid_d;
  pineda_pkg::clip_vtx_pkt_t     out_q, out_d;

  // ---------------------------------------------------------------------------------------------
  // Control and the issue stage's operands (nothing here reads an FP result)
  // ---------------------------------------------------------------------------------------------
  logic               in_token, in_vertex, in_matrix, in_fire;
  logic               out_free, s3_last, s3_go, s3_free, s2_free, s1_free;
  logic               issue, issue_last, issue_token;
  pineda_pkg::fvec4_t pos;
  logic [Lanes-1:0][127:0] row;  // per lane: its matrix row (fvec4_t: x at the top, w at the bottom)
  ctx_t               in_ctx;

  always_comb begin
    in_token   = in_i.eop;
    in_vertex  = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_VERTEX);
    in_matrix  = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_MATRIX_ROW);

    out_free   = !out_valid_q || out_ready_i;
    s3_last    = s3_beat_q == LastBeat;
    s3_go      = s3_valid_q && (!s3_last || out_free);  // S3 hands its rows on
    s3_free    = !s3_valid_q || s3_go;
    s2_free    = !s2_valid_q || s3_free;
    s1_free    = !s1_valid_q || s2_free;
    issue       = in_valid_i && in_vertex && s1_free;
    issue_last  = issue && (beat_q == LastBeat);
    issue_token = in_valid_i && in_token && s1_free;

    // A vertex is accepted with its last beat, a token when S1 takes it, anything else at once.
    if (in_vertex) begin
      in_ready_o = s1_free && (beat_q == LastBeat);
    end else if (in_token) begin
      in_ready_o = s1_free;
    end else begin
      in_ready_o = 1'b1;
    end
    in_fire    = in_valid_i && in_ready_o;

    for (int l = 0; l < Lanes; l++) begin
      row[l] = mat_q[2'(beat_q * Lanes + l)];
    end
    pos = in_i.pos;

    in_ctx.color  = in_i.color;
    in_ctx.tex0   = in_i.tex0;
    in_ctx.tex1   = in_i.tex1;
    in_ctx.vtx_id = in_i.vtx_id;
  end

  // ---------------------------------------------------------------------------------------------
  // FP32 operators: per lane 4 fp32_mul and 3 fp32_add
  // ---------------------------------------------------------------------------------------------
  logic [Lanes-1:0][3:0][31:0] prod;
  logic [Lanes-1:0][31:0]      add1, add2, add3;

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    fp32_mul u_mul0 (.a_i(row[l][127:96]), .b_i(pos.x), .y_o(prod[l][0]));
    fp32_mul u_mul1 (.a_i(row[l][95:64]),  .b_i(pos.y), .y_o(prod[l][1]));
    fp32_mul u_mul2 (.a_i(row[l][63:32]),  .b_i(pos.z), .y_o(prod[l][2]));
    fp32_mul u_mul3 (.a_i(row[l][31:0]),   .b_i(pos.w), .y_o(prod[l][3]));

    fp32_add u_add1 (.a_i(s1_p_q[l][0]), .b_i(s1_p_q[l][1]), .y_o(add1[l]));  // p0 + p1
    fp32_add u_add2 (.a_i(s2_sum_q[l]),  .b_i(s2_p2_q[l]),   .y_o(add2[l]));  // + p2
    fp32_add u_add3 (.a_i(s3_sum_q[l]),  .b_i(s3_p3_q[l]),   .y_o(add3[l]));  // + p3
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  logic [3:0][31:0] res;  // rows 0..3 of the vertex in the last beat

  always_comb begin
    mat_d       = mat_q;
    beat_d      = beat_q;
    s1_valid_d  = s1_valid_q;
    s1_eop_d    = s1_eop_q;
    s1_beat_d   = s1_beat_q;
    s1_p_d      = s1_p_q;
    s1_ctx_d    = s1_ctx_q;
    s2_valid_d  = s2_valid_q;
    s2_eop_d    = s2_eop_q;
    s2_beat_d   = s2_beat_q;
    s2_sum_d    = s2_sum_q;
    s2_p2_d     = s2_p2_q;
    s2_p3_d     = s2_p3_q;
    s2_ctx_d    = s2_ctx_q;
    s3_valid_d  = s3_valid_q;
    s3_eop_d    = s3_eop_q;
    s3_beat_d   = s3_beat_q;
    s3_sum_d    = s3_sum_q;
    s3_p3_d     = s3_p3_q;
    s3_ctx_d    = s3_ctx_q;
    acc_d       = acc_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    res         = acc_q;

    // Input: matrix rows and the issue of a vertex's beats.
    if (in_fire && in_matrix) begin
      mat_d[in_i.row] = in_i.pos;
    end
    if (issue) begin
      beat_d = issue_last ? 2'd0 : beat_q + 2'd1;
    end

    // Issue -> S1: the beat's products (a token's are don't-care); the last beat takes the
    // vertex's pass-through fields along.
    if (s1_free) begin
      s1_valid_d = issue || issue_token;
      if (issue || issue_token) begin
        s1_eop_d  = issue_token;
        s1_beat_d = issue_token ? LastBeat : beat_q;
        s1_p_d    = prod;
      end
      if (issue_last) begin
        s1_ctx_d = in_ctx;
      end
    end

    // S1 -> S2: p0 + p1.
    if (s2_free) begin
      s2_valid_d = s1_valid_q;
      if (s1_valid_q) begin
        s2_eop_d  = s1_eop_q;
        s2_beat_d = s1_beat_q;
        for (int l = 0; l < Lanes; l++) begin
          s2_sum_d[l] = add1[l];
          s2_p2_d[l]  = s1_p_q[l][2];
          s2_p3_d[l]  = s1_p_q[l][3];
        end
      end
      if (s1_valid_q && (s1_beat_q == LastBeat)) begin
        s2_ctx_d = s1_ctx_q;
      end
    end

    // S2 -> S3: + p2.
    if (s3_free) begin
      s3_valid_d = s2_valid_q;
      if (s2_valid_q) begin
        s3_eop_d  = s2_eop_q;
        s3_beat_d = s2_beat_q;
        s3_sum_d  = add2;
        s3_p3_d   = s2_p3_q;
      end
      if (s2_valid_q && (s2_beat_q == LastBeat)) begin
        s3_ctx_d = s2_ctx_q;
      end
    end

    // S3: + p3. Earlier beats' rows wait in acc_q; the last beat forms the output packet, a
    // token a token.
    for (int l = 0; l < Lanes; l++) begin
      res[2'(s3_beat_q * Lanes + l)] = add3[l];
    end
    if (s3_go && !s3_last) begin
      acc_d = res;
    end
    if (out_free) begin
      out_valid_d = s3_valid_q && s3_last;
      if (s3_valid_q && s3_last) begin
        out_d.pos.x  = res[0];
        out_d.pos.y  = res[1];
        out_d.pos.z  = res[2];
        out_d.pos.w  = res[3];
        out_d.color  = s3_ctx_q.color;
        out_d.tex0   = s3_ctx_q.tex0;
        out_d.tex1   = s3_ctx_q.tex1;
        out_d.vtx_id = s3_ctx_q.vtx_id;
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
      s1_beat_q   <= '0;
      s1_p_q      <= '0;
      s1_ctx_q    <= '0;
      s2_valid_q  <= 1'b0;
      s2_eop_q    <= 1'b0;
      s2_beat_q   <= '0;
      s2_sum_q    <= '0;
      s2_p2_q     <= '0;
      s2_p3_q     <= '0;
      s2_ctx_q    <= '0;
      s3_valid_q  <= 1'b0;
      s3_eop_q    <= 1'b0;
      s3_beat_q   <= '0;
      s3_sum_q    <= '0;
      s3_p3_q     <= '0;
      s3_ctx_q    <= '0;
      acc_q       <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
    end else begin
      mat_q       <= mat_d;
      beat_q      <= beat_d;
      s1_valid_q  <= s1_valid_d;
      s1_eop_q    <= s1_eop_d;
      s1_beat_q   <= s1_beat_d;
      s1_p_q      <= s1_p_d;
      s1_ctx_q    <= s1_ctx_d;
      s2_valid_q  <= s2_valid_d;
      s2_eop_q    <= s2_eop_d;
      s2_beat_q   <= s2_beat_d;
      s2_sum_q    <= s2_sum_d;
      s2_p2_q     <= s2_p2_d;
      s2_p3_q     <= s2_p3_d;
      s2_ctx_q    <= s2_ctx_d;
      s3_valid_q  <= s3_valid_d;
      s3_eop_q    <= s3_eop_d;
      s3_beat_q   <= s3_beat_d;
      s3_sum_q    <= s3_sum_d;
      s3_p3_q     <= s3_p3_d;
      s3_ctx_q    <= s3_ctx_d;
      acc_q       <= acc_d;
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
  initial begin
    assert (Lanes == 1 || Lanes == 2 || Lanes == 4)
      else $error("%m: Lanes must be 1, 2 or 4");
  end
  // The beats of one vertex issue back to back in order (the input holds the vertex), so a beat
  // in S1..S3 is followed by the next beat of the same vertex or by a first beat / token.
  always_ff @(posedge clk_i) begin
    if (rst_ni && s3_go && !s3_last && s2_valid_q) begin
      assert (!s2_eop_q && (s2_beat_q == s3_beat_q + 2'd1))
        else $error("%m: beats of a vertex out of order in the pipeline");
    end
  end
`endif

endmodule
