// SPDX-License-Identifier: Apache-2.0
// tex_amode: the second half of stage E of the sampler (docs/tex.md section 4 step 8, section 7
// step 5), combinational: per pixel and axis the texel index of the tap pair i0, i0 + 1 at the
// pass's level after the address mode, with one modulo per pixel and axis (i0 + 1 derived from
// i0's remainder) and the "in" flags (0: the tap reads the border). The modulo's first division
// steps are tex_amode_pre's, a stage earlier (a = i0, or ~i0 for i0 < 0, and i0 mod m =
// m - 1 - (a mod m) then); this module divides a's bits Split - 1..0.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_amode #(
  parameter int unsigned Split = 8   // tex_amode_pre's lowest dividend bit
) (
  input  logic [3:0][16:0]       iu_i,      // [p]: i0 along u (signed), from tex_amode_pre
  input  logic [3:0][16:0]       iv_i,
  input  logic [13:0]            du_i,      // modulus along u (lw, or 2 lw for MIRROR)
  input  logic [13:0]            dv_i,
  input  logic [3:0][13:0]       ru_i,      // remainder of a's bits 16..Split
  input  logic [3:0][13:0]       rv_i,
  input  logic [12:0]            lw_i,      // the pass's level size
  input  logic [12:0]            lh_i,
  input  logic [2:0]             addr_u_i,  // TEX_ADDR_*
  input  logic [2:0]             addr_v_i,
  output logic [3:0][1:0][12:0]  xi_o,      // [p][k]: column of tap k (i0 + k)
  output logic [3:0][1:0]        inu_o,
  output logic [3:0][1:0][12:0]  yj_o,      // [p][k]: row of tap k
  output logic [3:0][1:0]        inv_o
);

  // Address mode of i and i + 1 with one modulo (rr = a mod the mode's modulus d, a = i or ~i):
  // {in(i + 1), index(i + 1), in(i), index(i)}; in = 0: the tap reads the border.
  function automatic logic [29:0] amode2(input logic signed [16:0] i, input logic [13:0] rr,
                                         input logic [13:0] d, input logic [12:0] n,
                                         input logic [2:0] mode);
    logic [13:0] m0, m1, r0, r1, n1, n2, pm;
    logic signed [16:0] last, i1, j0, j1;
    logic in0, in1;
    last = $signed({4'd0, n}) - 17'sd1;
    i1 = i + 17'sd1;
    n1 = {1'b0, n};
    n2 = {n, 1'b0};
    // the non-negative i mod d
    pm = i[16] ? 14'(d - 14'd1 - rr) : rr;
    in0 = 1'b1;
    in1 = 1'b1;
    r0 = 14'd0;
    r1 = 14'd0;
    m0 = 14'd0;
    m1 = 14'd0;
    j0 = 17'sd0;
    j1 = 17'sd0;
    unique case (mode)
      pineda_pkg::TEX_ADDR_WRAP: begin
        r0 = pm;
        r1 = (r0 + 14'd1 == n1) ? 14'd0 : r0 + 14'd1;
      end
      pineda_pkg::TEX_ADDR_MIRROR: begin
        m0 = pm;
        m1 = (m0 + 14'd1 == n2) ? 14'd0 : m0 + 14'd1;
        r0 = (m0 < n1) ? m0 : 14'(n2 - 14'd1 - m0);
        r1 = (m1 < n1) ? m1 : 14'(n2 - 14'd1 - m1);
      end
      pineda_pkg::TEX_ADDR_CLAMP: begin
        r0 = (i < 0) ? 14'd0 : ((i > last) ? last[13:0] : i[13:0]);
        r1 = (i1 < 0) ? 14'd0 : ((i1 > last) ? last[13:0] : i1[13:0]);
      end
      pineda_pkg::TEX_ADDR_BORDER: begin  // inside: the texel itself; outside: the border
        in0 = (i >= 0) && (i <= last);
        in1 = (i1 >= 0) && (i1 <= last);
        r0  = in0 ? i[13:0] : 14'd0;
        r1  = in1 ? i1[13:0] : 14'd0;
      end
      default: begin
        j0 = (i < 0) ? (-17'sd1 - i) : i;
        j1 = (i1 < 0) ? (-17'sd1 - i1) : i1;
        r0 = (j0 > last) ? last[13:0] : j0[13:0];
        r1 = (j1 > last) ? last[13:0] : j1[13:0];
      end
    endcase
    amode2 = {in1, r1, in0, r0};
  endfunction

  logic [3:0][16:0] au, av;
  logic [3:0][13:0] rru, rrv;
  for (genvar p = 0; p < 4; p++) begin : g_div
    tex_amode_div #(.Hi(Split - 1), .Lo(0)) u_du (.a_i(au[p]), .d_i(du_i), .r_i(ru_i[p]), .r_o(rru[p]));
    tex_amode_div #(.Hi(Split - 1), .Lo(0)) u_dv (.a_i(av[p]), .d_i(dv_i), .r_i(rv_i[p]), .r_o(rrv[p]));
  end

  logic [3:0][29:0] am_u, am_v;
  always_comb begin
    for (int p = 0; p < 4; p++) begin
      au[p] = iu_i[p][16] ? ~iu_i[p] : iu_i[p];
      av[p] = iv_i[p][16] ? ~iv_i[p] : iv_i[p];
      am_u[p] = amode2(iu_i[p], rru[p], du_i, lw_i, addr_u_i);
      am_v[p] = amode2(iv_i[p], rrv[p], dv_i, lh_i, addr_v_i);
      xi_o[p][0] = am_u[p][12:0];
      xi_o[p][1] = am_u[p][27:15];
      inu_o[p][0] = am_u[p][14];
      inu_o[p][1] = am_u[p][29];
      yj_o[p][0] = am_v[p][12:0];
      yj_o[p][1] = am_v[p][27:15];
      inv_o[p][0] = am_v[p][14];
      inv_o[p][1] = am_v[p][29];
    end
  end

  logic unused_sig;
  assign unused_sig = ^{am_u, am_v};

endmodule
