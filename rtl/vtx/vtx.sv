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
// throughput and area"), on 6 fp32_mul_p and 4 fp32_add_p (two-stage operators, result
// registered 2 clocks after the operands), each taking one operation per clock. A vertex stays
// on the input port (the stream keeps it stable) for its 3 beats t0..t2 and is accepted with t2;
// it then passes the stages t3..t9 (flags v_q/e_q). Products p_rk = M[r][k]*v[k] leave a
// multiplier 2 clocks after their beat; a row's three adds are 2 clocks apart:
//   multiplier  t0     t1     t2          adder  t2       t3       t4    t5     t6      t7
//   A0          p00    p30    p32         X0..2  p0+p1             +p2          +p3
//   A1          p10    p31    p33         X3              p30+p31        +p32           +p33
//   A2          p20    -      -
//   Br (r<3)    p_r1   p_r3   p_r2
// p_r3 (r < 3) waits in h3_q from t3 to t6, p32 in h32_q from t4 to t5, p33 in h33_q from t4
// to t7; every row is the documented ((p0 + p1) + p2) + p3. Rows 0..2 leave their adders at t8
// (res_q), row 3 at t9, which forms the output register with them and the pass-through fields
// (a 3-entry ring ctx_q written at t2, read at t9: at most 3 vertices between t2 and t9).
// Operator use: the multipliers serve the vertex on the input only; an adder serves one vertex
// at t2, t4, t6 (X0..X2) or t3, t5, t7 (X3), so two vertices whose t0 are 3 or at least 5 clocks
// apart never want one adder in one clock; a vertex does not start while another is in t4 (4
// clocks apart: the one clock it costs follows a single token or matrix row between vertices).
// A token is accepted in one clock and passes t3..t9 without arithmetic, in order.
// Stall: everything (the operators through en_i) holds only when t9 has a packet and the output
// register is full (adv = 0); then the input is not accepted and nothing changes.
// Throughput: 1/3 vertex per clock; a matrix row or a token takes 1 clock. Latency: 10 clocks
// from t0 to out_valid_o. Deepest path: one stage of a two-stage operator and its operand mux.
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
  localparam int unsigned CtxW = 192;  // $bits(ctx_t)

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
  logic [2:0][31:0]  h3_q, h3_d;          // p03, p13, p23 from t3 to t6
  logic [31:0]       h32_q, h32_d;        // p32 from t4 to t5
  logic [31:0]       h33_q, h33_d;        // p33 from t4 to t7
  logic [2:0][31:0]  res_q, res_d;        // rows 0..2 of the vertex in t9
  logic [9:3]        v_q, v_d;            // stage t3..t9 holds a vertex or a token
  logic [9:3]        e_q, e_d;            // ... a token
  logic [2:0][CtxW-1:0] ctx_q, ctx_d;     // ring: pass-through of the vertices in t3..t9
  ctx_t              ctx_rd;              // its slot cr_q
  logic [1:0]        cw_q, cw_d;          // ring slot the next accepted vertex writes
  logic [1:0]        cr_q, cr_d;          // ring slot of the oldest vertex (read at t9)
  logic              out_valid_q, out_valid_d;
  pineda_pkg::clip_vtx_pkt_t out_q, out_d;

  // ---------------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------------
  logic       in_token, in_vertex, in_matrix, in_fire;
  logic       out_free, adv, issue, issue_t2;
  logic [8:3] vv;  // stage holds a vertex (not a token)

  always_comb begin
    in_token  = in_i.eop;
    in_vertex = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_VERTEX);
    in_matrix = !in_i.eop && (in_i.kind == pineda_pkg::VTX_KIND_MATRIX_ROW);
    vv        = v_q[8:3] & ~e_q[8:3];

    out_free = !out_valid_q || out_ready_i;
    adv      = !v_q[9] || out_free;  // every stage (and every operator) moves on
    // A beat of the input vertex; its t0 waits while a vertex is in t4 (adders X0..X2 at t6).
    issue    = in_valid_i && in_vertex && adv && !((phase_q == 2'd0) && vv[4]);
    issue_t2 = issue && (phase_q == 2'd2);

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
    // Multipliers (the beat is phase_q; A2 is idle at t1 and t2 and keeps its t0 operands).
    unique case (phase_q)
      2'd0: begin
        a_op[0] = m[0][3];  a_pos[0] = in_i.pos.x;  // p00
        a_op[1] = m[1][3];  a_pos[1] = in_i.pos.x;  // p10
      end
      2'd1: begin
        a_op[0] = m[3][3];  a_pos[0] = in_i.pos.x;  // p30
        a_op[1] = m[3][2];  a_pos[1] = in_i.pos.y;  // p31
      end
      default: begin
        a_op[0] = m[3][1];  a_pos[0] = in_i.pos.z;  // p32
        a_op[1] = m[3][0];  a_pos[1] = in_i.pos.w;  // p33
      end
    endcase
    a_op[2] = m[2][3];  a_pos[2] = in_i.pos.x;      // p20
    for (int r = 0; r < 3; r++) begin
      unique case (phase_q)
        2'd0: begin
          b_op[r] = m[r][2];  b_pos[r] = in_i.pos.y;  // p_r1
        end
        2'd1: begin
          b_op[r] = m[r][0];  b_pos[r] = in_i.pos.w;  // p_r3
        end
        default: begin
          b_op[r] = m[r][1];  b_pos[r] = in_i.pos.z;  // p_r2
        end
      endcase
    end

    // Adders X0..X2: t2 p_r0 + p_r1 (the input vertex's t0 products), t4 + p_r2 (its t2
    // products), t6 + p_r3 (h3_q). X3: t3 p30 + p31, t5 + p32, t7 + p33.
    for (int r = 0; r < 3; r++) begin
      x_a[r] = (phase_q == 2'd2) ? a_y[r] : x_y[r];
      x_b[r] = vv[6] ? h3_q[r] : b_y[r];
    end
    if (vv[3]) begin
      x_a[3] = a_y[0];
      x_b[3] = a_y[1];
    end else begin
      x_a[3] = x_y[3];
      x_b[3] = vv[5] ? h32_q : h33_q;
    end
  end

  for (genvar i = 0; i < 3; i++) begin : g_mul
    fp32_mul_p u_mul_a (.clk_i, .rst_ni, .en_i(adv), .a_i(a_op[i]), .b_i(a_pos[i]), .y_o(a_y[i]));
    fp32_mul_p u_mul_b (.clk_i, .rst_ni, .en_i(adv), .a_i(b_op[i]), .b_i(b_pos[i]), .y_o(b_y[i]));
  end
  for (genvar r = 0; r < 4; r++) begin : g_add
    fp32_add_p u_add (.clk_i, .rst_ni, .en_i(adv), .a_i(x_a[r]), .b_i(x_b[r]), .y_o(x_y[r]));
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    mat_d       = mat_q;
    phase_d     = phase_q;
    h3_d        = h3_q;
    h32_d       = h32_q;
    h33_d       = h33_q;
    res_d       = res_q;
    v_d         = v_q;
    e_d         = e_q;
    ctx_d       = ctx_q;
    cw_d        = cw_q;
    cr_d        = cr_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    ctx_rd      = ctx_q[cr_q];

    if (in_fire && in_matrix) begin
      mat_d[in_i.row] = in_i.pos;
    end
    if (issue) begin
      phase_d = (phase_q == 2'd2) ? 2'd0 : phase_q + 2'd1;
    end
    if (issue_t2) begin
      ctx_d[cw_q] = {in_i.color, in_i.tex0, in_i.tex1, in_i.vtx_id};
      cw_d        = (cw_q == 2'd2) ? 2'd0 : cw_q + 2'd1;
    end

    if (adv) begin
      // Products that wait, rows 0..2 done at t8.
      if (vv[3]) begin
        h3_d = b_y;
      end
      if (vv[4]) begin
        h32_d = a_y[0];
        h33_d = a_y[1];
      end
      if (vv[8]) begin
        for (int r = 0; r < 3; r++) begin
          res_d[r] = x_y[r];
        end
      end
      v_d = {v_q[8:3], issue_t2 || (in_valid_i && in_token)};
      e_d = {e_q[8:3], in_valid_i && in_token};
    end

    // t9: row 3 done, the output packet.
    if (out_free) begin
      out_valid_d = v_q[9];
      if (v_q[9]) begin
        out_d.pos.x  = res_q[0];
        out_d.pos.y  = res_q[1];
        out_d.pos.z  = res_q[2];
        out_d.pos.w  = x_y[3];
        out_d.color  = ctx_rd.color;
        out_d.tex0   = ctx_rd.tex0;
        out_d.tex1   = ctx_rd.tex1;
        out_d.vtx_id = ctx_rd.vtx_id;
        out_d.eop    = 1'b0;
        if (e_q[9]) begin
          out_d     = '0;
          out_d.eop = 1'b1;
        end else begin
          cr_d = (cr_q == 2'd2) ? 2'd0 : cr_q + 2'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mat_q       <= Identity;
      phase_q     <= '0;
      h3_q        <= '0;
      h32_q       <= '0;
      h33_q       <= '0;
      res_q       <= '0;
      v_q         <= '0;
      e_q         <= '0;
      ctx_q       <= '0;
      cw_q        <= '0;
      cr_q        <= '0;
      out_valid_q <= 1'b0;
    end else begin
      mat_q       <= mat_d;
      phase_q     <= phase_d;
      h3_q        <= h3_d;
      h32_q       <= h32_d;
      h33_q       <= h33_d;
      res_q       <= res_d;
      v_q         <= v_d;
      e_q         <= e_d;
      ctx_q       <= ctx_d;
      cw_q        <= cw_d;
      cr_q        <= cr_d;
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
    idle_o      = !(|v_q) && !out_valid_q && (phase_q == 2'd0);
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
  // The shared adders: no two vertices want one adder in one clock (their t0 are 3 or at least
  // 5 clocks apart): X0..X2 at t2 / t4 / t6, X3 at t3 / t5 / t7.
  always_ff @(posedge clk_i) begin
    if (rst_ni && adv) begin
      assert (32'(phase_q == 2'd2) + 32'(vv[4]) + 32'(vv[6]) <= 1)
        else $error("%m: X0..X2 wanted by two vertices");
      assert (32'(vv[3]) + 32'(vv[5]) + 32'(vv[7]) <= 1)
        else $error("%m: X3 wanted by two vertices");
    end
  end
`endif

endmodule
