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
// Datapath: one vertex per 3 clocks (the front end feeds VTX at most 1/3 triangle per clock
// times its ACMR: 0.257 vertices per clock on fe_bunny_full_opt; docs/architecture.md "VTX
// throughput and area"), on 6 fp32_mul and 4 fp32_add, each used by one operation per clock.
// A vertex stays on the input port (the stream keeps it stable) for its 3 beats t0..t2 and is
// accepted with t2; it then passes t3 and t4 (registers v3_q, v4_q). Products p_rk = M[r][k]*v[k]:
//   multiplier  t0        t1        t2            adder  t1         t2         t3         t4
//   A0          p00       p30       p33           X0     p00+p01    +p02       +p03
//   A1          p10       p31       -             X1     p10+p11    +p12       +p13
//   A2          p20       -         p32           X2     p20+p21    +p22       +p23
//   Br (r<3)    p_r1      p_r2      p_r3          X3                p30+p31    +p32       +p33
// A product is registered (pa_q, pb_q) and added in the next clock (p33 waits one more in
// p33_q); every row is the documented ((p0 + p1) + p2) + p3. Beats of consecutive vertices are
// at least 3 clocks apart, so a multiplier or adder serves at most one of the stages that share
// it (A and B: t0..t2; X0..X2: t1..t3; X3: t2..t4) in any clock. Rows 0..2 wait in res_q from
// t3; t4 forms the output register with row 3 and the pass-through fields (ctx_q, taken at t2).
// A token is accepted in one clock and passes t3 and t4 without arithmetic, in order.
// Stall: the stages only hold when t4 has a packet and the output register is full
// (adv = 0); then the input is not accepted and nothing changes.
// Throughput: 1/3 vertex per clock; a matrix row or a token takes 1 clock. Latency: 5 clocks
// from t0 to out_valid_o.
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
  logic [3:0][127:0] mat_q, mat_d;        // row r: fvec4_t (M[r][0..3] in x, y, z, w)
  logic [1:0]        phase_q, phase_d;    // the input vertex's next beat (t0, t1, t2)
  logic [2:0][31:0]  pa_q, pa_d;          // products of A0..A2 in the last beat
  logic [2:0][31:0]  pb_q, pb_d;          // products of B0..B2 in the last beat
  logic [31:0]       p33_q, p33_d;        // p33 from t3 to t4
  logic [3:0][31:0]  acc_q, acc_d;        // partial sums of rows 0..3
  logic [2:0][31:0]  res_q, res_d;        // rows 0..2 of the vertex in t4
  ctx_t              ctx_q, ctx_d;        // pass-through of the vertex in t3..t4
  logic              v3_q, v3_d;          // t3 holds a vertex or a token
  logic              e3_q, e3_d;          // ... a token
  logic              v4_q, v4_d;
  logic              e4_q, e4_d;
  logic              out_valid_q, out_valid_d;
  pineda_pkg::clip_vtx_pkt_t out_q, out_d;

  // ---------------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------------
  logic in_token, in_vertex, in_matrix, in_fire;
  logic out_free, adv, issue, issue_t1, issue_t2, go_t3;

  always_comb begin
    in_token  = in_i.eop;
    in_vertex = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_VERTEX);
    in_matrix = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_MATRIX_ROW);

    out_free = !out_valid_q || out_ready_i;
    adv      = !v4_q || out_free;  // every stage moves on
    issue    = in_valid_i && in_vertex && adv;  // a beat of the input vertex
    issue_t1 = issue && (phase_q == 2'd1);
    issue_t2 = issue && (phase_q == 2'd2);
    go_t3    = adv && v3_q && !e3_q;

    // A vertex is accepted with its last beat, a token when it enters t3, anything else at once.
    if (in_vertex) begin
      in_ready_o = adv && (phase_q == 2'd2);
    end else if (in_token) begin
      in_ready_o = adv;
    end else begin
      in_ready_o = 1'b1;
    end
    in_fire = in_valid_i && in_ready_o;
  end

  // ---------------------------------------------------------------------------------------------
  // FP32 operators and their operands
  // ---------------------------------------------------------------------------------------------
  logic [3:0][3:0][31:0] m;  // m[r][3 - k] = M[r][k] (mat_q's rows as 4 columns each)
  logic [2:0][31:0]      a_op, a_pos, b_op, b_pos, a_y, b_y;
  logic [3:0][31:0]      x_a, x_b, x_y;

  always_comb begin
    m = mat_q;
    // Multipliers (the beat is phase_q; A1's t2 and A2's t1 are idle and take the other beat's).
    unique case (phase_q)
      2'd0: begin
        a_op[0] = m[0][3];  a_pos[0] = in_i.pos.x;
      end
      2'd1: begin
        a_op[0] = m[3][3];  a_pos[0] = in_i.pos.x;
      end
      default: begin
        a_op[0] = m[3][0];  a_pos[0] = in_i.pos.w;
      end
    endcase
    if (phase_q == 2'd0) begin
      a_op[1] = m[1][3];  a_pos[1] = in_i.pos.x;
      a_op[2] = m[2][3];  a_pos[2] = in_i.pos.x;
    end else begin
      a_op[1] = m[3][2];  a_pos[1] = in_i.pos.y;
      a_op[2] = m[3][1];  a_pos[2] = in_i.pos.z;
    end
    for (int r = 0; r < 3; r++) begin
      unique case (phase_q)
        2'd0: begin
          b_op[r] = m[r][2];  b_pos[r] = in_i.pos.y;
        end
        2'd1: begin
          b_op[r] = m[r][1];  b_pos[r] = in_i.pos.z;
        end
        default: begin
          b_op[r] = m[r][0];  b_pos[r] = in_i.pos.w;
        end
      endcase
    end

    // Adders: X0..X2 start rows 0..2 at t1 (p_r0 + p_r1), X3 row 3 at t2 (p30 + p31).
    for (int r = 0; r < 3; r++) begin
      x_a[r] = (phase_q == 2'd1) ? pa_q[r] : acc_q[r];
      x_b[r] = pb_q[r];
    end
    if (phase_q == 2'd2) begin
      x_a[3] = pa_q[0];  // p30
      x_b[3] = pa_q[1];  // p31
    end else if (v4_q && !e4_q) begin
      x_a[3] = acc_q[3];
      x_b[3] = p33_q;
    end else begin
      x_a[3] = acc_q[3];
      x_b[3] = pa_q[2];  // p32
    end
  end

  for (genvar i = 0; i < 3; i++) begin : g_mul
    fp32_mul u_mul_a (.a_i(a_op[i]), .b_i(a_pos[i]), .y_o(a_y[i]));
    fp32_mul u_mul_b (.a_i(b_op[i]), .b_i(b_pos[i]), .y_o(b_y[i]));
  end
  for (genvar r = 0; r < 4; r++) begin : g_add
    fp32_add u_add (.a_i(x_a[r]), .b_i(x_b[r]), .y_o(x_y[r]));
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    mat_d       = mat_q;
    phase_d     = phase_q;
    pa_d        = pa_q;
    pb_d        = pb_q;
    p33_d       = p33_q;
    acc_d       = acc_q;
    res_d       = res_q;
    ctx_d       = ctx_q;
    v3_d        = v3_q;
    e3_d        = e3_q;
    v4_d        = v4_q;
    e4_d        = e4_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;

    if (in_fire && in_matrix) begin
      mat_d[in_i.row] = in_i.pos;
    end

    // t0..t2: the beats' products; X0..X2 at t1 and t2, X3 at t2.
    if (issue) begin
      phase_d = (phase_q == 2'd2) ? 2'd0 : phase_q + 2'd1;
      pa_d    = a_y;
      pb_d    = b_y;
    end
    if (issue_t1 || issue_t2) begin
      for (int r = 0; r < 3; r++) begin
        acc_d[r] = x_y[r];
      end
    end
    if (issue_t2) begin
      acc_d[3]     = x_y[3];
      ctx_d.color  = in_i.color;
      ctx_d.tex0   = in_i.tex0;
      ctx_d.tex1   = in_i.tex1;
      ctx_d.vtx_id = in_i.vtx_id;
    end

    // t3: rows 0..2 done, row 3 + p32; t4: row 3 done, the output packet.
    if (go_t3) begin
      for (int r = 0; r < 3; r++) begin
        res_d[r] = x_y[r];
      end
      acc_d[3] = x_y[3];
      p33_d    = pa_q[0];
    end
    if (adv) begin
      v3_d = issue_t2 || (in_valid_i && in_token);
      e3_d = in_valid_i && in_token;
      v4_d = v3_q;
      e4_d = e3_q;
    end
    if (out_free) begin
      out_valid_d = v4_q;
      if (v4_q) begin
        out_d.pos.x  = res_q[0];
        out_d.pos.y  = res_q[1];
        out_d.pos.z  = res_q[2];
        out_d.pos.w  = x_y[3];
        out_d.color  = ctx_q.color;
        out_d.tex0   = ctx_q.tex0;
        out_d.tex1   = ctx_q.tex1;
        out_d.vtx_id = ctx_q.vtx_id;
        out_d.eop    = 1'b0;
        if (e4_q) begin
          out_d     = '0;
          out_d.eop = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mat_q       <= Identity;
      phase_q     <= '0;
      pa_q        <= '0;
      pb_q        <= '0;
      p33_q       <= '0;
      acc_q       <= '0;
      res_q       <= '0;
      ctx_q       <= '0;
      v3_q        <= 1'b0;
      e3_q        <= 1'b0;
      v4_q        <= 1'b0;
      e4_q        <= 1'b0;
      out_valid_q <= 1'b0;
    end else begin
      mat_q       <= mat_d;
      phase_q     <= phase_d;
      pa_q        <= pa_d;
      pb_q        <= pb_d;
      p33_q       <= p33_d;
      acc_q       <= acc_d;
      res_q       <= res_d;
      ctx_q       <= ctx_d;
      v3_q        <= v3_d;
      e3_q        <= e3_d;
      v4_q        <= v4_d;
      e4_q        <= e4_d;
      out_valid_q <= out_valid_d;
    end
  end

  // The output register needs no reset (it is read only with out_valid_q); without one, a
  // token's zeros are the flip-flops' synchronous reset instead of 321 LUT4 of select.
  always_ff @(posedge clk_i) begin
    out_q <= out_d;
  end

  always_comb begin
    out_valid_o = out_valid_q;
    out_o       = out_q;
    idle_o      = !v3_q && !v4_q && !out_valid_q && (phase_q == 2'd0);
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
  // The shared operators: a vertex in t3 or t4 never meets another vertex's beat that uses the
  // same adder (beats of consecutive vertices are at least 3 clocks apart).
  always_ff @(posedge clk_i) begin
    if (rst_ni && v3_q && !e3_q) begin
      assert (phase_q == 2'd0) else $error("%m: t3 overlaps a t1/t2 beat");
    end
    if (rst_ni && v4_q && !e4_q) begin
      assert ((phase_q != 2'd2) && !(v3_q && !e3_q)) else $error("%m: t4 overlaps X3's t2/t3");
    end
  end
`endif

endmodule
