// SPDX-License-Identifier: Apache-2.0
// COMB: the fixed-function texture combiner (two stages) and the alpha test, one quad per clock
// (docs/comb.md; model: cpp_model/comb/combiner.cpp, bit-exact).
//
// Three pipeline stages advancing together when the last one is empty or taken (one enable: a
// stalled stage holds its payload); one quad per clock, latency 3:
//   S0  stage 0: colour = st.tex ? comb(st.mode, pcolor, texel0) : pcolor, per pixel
//   S1  stage 1: colour = st.tex1 ? comb(st.mode1, colour, texel1) : colour
//   S2  the alpha test on the final alpha kills failing pixels (coverage and depth cleared);
//       with st.a2c (alpha to coverage) the final alpha also selects the samples kept
//       (a2c_mask). A quad left with no coverage is dropped here; end-of-pipe tokens always
//       pass, unchanged.
// Each combiner stage is one operator: a channel's 8 x 8 carry-save product, the div255 add
// and a 2-way select (comb_ch).
// The combiner state rides in each packet (comb_in_pkt_t.st): no register holds draw state.
module combiner (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       in_valid_i,
  output logic                       in_ready_o,
  input  pineda_pkg::comb_in_pkt_t   in_i,
  output logic                       out_valid_o,
  input  logic                       out_ready_i,
  output pineda_pkg::interp_pkt_t    out_o,
  output logic                       idle_o
);
  // ---- the frozen arithmetic (docs/comb.md section 2)
  // One channel of one stage: c the colour, t the texel, ta the texel's alpha, alpha: the
  // channel is A; on: the stage combines this pixel (off: the colour passes); decal: mode is
  // COMB_DECAL (decoded by the caller, ahead of the product). Modes 4..7 (reserved) pass the
  // colour.
  //
  // One 8 x 8 product per channel serves MODULATE (t * c), ADD's alpha (t * c) and DECAL
  // (t * ta + c * (255 - ta)): since 255 - ta = ~ta, the DECAL sum is
  //   sum_i 2^i * (ta[i] ? t : c)
  // so partial-product row i is (sel[i] ? t : alt) with sel = ta, alt = c for DECAL and
  // sel = c, alt = 0 for the product t * c: one carry-save tree of eight rows and the rounding
  // constant 128 gives x = n + 128 for the n of the contract (n <= 65025, x <= 65153), and
  // div255(n) = (x + (x >> 8)) >> 8 is one more 16-bit add (x + (x >> 8) <= 65407).
  // The result is (useq ? q : other): the product's path ends in one 2-way select, the
  // rest (REPLACE, ADD's saturated sum, pass) is ready beside it.
  function automatic logic [7:0] comb_ch(logic [2:0] mode, logic on, logic decal, logic alpha,
                                         logic [7:0] c, logic [7:0] t, logic [7:0] ta);
    logic        dc, useq;
    logic [7:0]  sel, alt, row, other;
    logic [15:0] x;
    logic [7:0]  q;
    logic [8:0]  sum;
    dc    = decal && !alpha;
    sel   = dc ? ta : c;
    alt   = dc ? c : 8'd0;
    x     = 16'd128;
    for (int i = 0; i < 8; i++) begin
      row = sel[i] ? t : alt;
      x   = x + (16'(row) << i);
    end
    q     = 8'((x + {8'd0, x[15:8]}) >> 8);  // div255(n)
    sum   = {1'b0, c} + {1'b0, t};
    useq  = 1'b0;
    other = c;
    if (on) begin
      unique case (mode)
        pineda_pkg::COMB_MODULATE: useq = 1'b1;
        pineda_pkg::COMB_REPLACE:  other = t;
        pineda_pkg::COMB_ADD: begin
          useq  = alpha;
          other = sum[8] ? 8'd255 : sum[7:0];
        end
        pineda_pkg::COMB_DECAL:    useq = !alpha;
        default:                   other = c;
      endcase
    end
    comb_ch = useq ? q : other;
  endfunction

  function automatic logic [31:0] comb_px(logic [2:0] mode, logic on, logic decal, logic [31:0] c,
                                          logic [31:0] t);
    comb_px = {comb_ch(mode, on, decal, 1'b1, c[31:24], t[31:24], t[31:24]),
               comb_ch(mode, on, decal, 1'b0, c[23:16], t[23:16], t[31:24]),
               comb_ch(mode, on, decal, 1'b0, c[15:8],  t[15:8],  t[31:24]),
               comb_ch(mode, on, decal, 1'b0, c[7:0],   t[7:0],   t[31:24])};
  endfunction

  // Alpha to coverage (docs/comb.md section 3b): the samples kept for alpha a. 4x: n = (4a + 128)
  // >> 8 = (a >= 32) + (a >= 96) + (a >= 160) + (a >= 224) samples, masks 0x0, 0x1, 0x9, 0xB, 0xF
  // (bit s: sample s); 1x: bit 0 = (a >= 128).
  function automatic logic [3:0] a2c_mask(logic [7:0] a, logic msaa);
    logic [2:0] n;
    n = 3'((11'({a, 2'b00}) + 11'd128) >> 8);  // 0..4
    if (!msaa) a2c_mask = {3'b000, a[7]};
    else begin
      unique case (n)
        3'd0:    a2c_mask = 4'h0;
        3'd1:    a2c_mask = 4'h1;
        3'd2:    a2c_mask = 4'h9;
        3'd3:    a2c_mask = 4'hB;
        default: a2c_mask = 4'hF;
      endcase
    end
  endfunction

  // ---- pipeline control: one enable; a stalled stage holds its payload
  logic [2:0] v_q, v_d;
  logic       en, keep;
  assign en          = !v_q[2] || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v_q[2];
  assign idle_o      = (v_q == '0);

  // ---- S0: stage 0 (texel0 is consumed here)
  pineda_pkg::interp_pkt_t  s0_ip_q, s0_ip_d;
  logic [3:0][31:0]         s0_tx1_q, s0_tx1_d;
  pineda_pkg::comb_state_t  s0_st_q, s0_st_d;
  logic                     s0_on1_q, s0_on1_d;     // stage 1 combines this quad
  logic                     s0_decal1_q, s0_decal1_d;  // stage 1's mode is COMB_DECAL
  logic                     on0, decal0;
  always_comb begin
    on0         = !in_i.ip.quad.eop && in_i.st.tex;
    decal0      = in_i.st.mode == pineda_pkg::COMB_DECAL;
    s0_ip_d     = s0_ip_q;
    s0_tx1_d    = s0_tx1_q;
    s0_st_d     = s0_st_q;
    s0_on1_d    = s0_on1_q;
    s0_decal1_d = s0_decal1_q;
    if (en) begin
      s0_ip_d     = in_i.ip;
      s0_tx1_d    = in_i.texel1;
      s0_st_d     = in_i.st;
      s0_on1_d    = !in_i.ip.quad.eop && in_i.st.tex1;
      s0_decal1_d = in_i.st.mode1 == pineda_pkg::COMB_DECAL;
      for (int p = 0; p < 4; p++) s0_ip_d.pcolor[p] = comb_px(in_i.st.mode, on0, decal0, in_i.ip.pcolor[p], in_i.texel0[p]);
    end
  end

  // ---- S1: stage 1 (texel1 is consumed here)
  pineda_pkg::interp_pkt_t  s1_ip_q, s1_ip_d;
  pineda_pkg::comb_state_t  s1_st_q, s1_st_d;
  always_comb begin
    s1_ip_d = s1_ip_q;
    s1_st_d = s1_st_q;
    if (en) begin
      s1_ip_d = s0_ip_q;
      s1_st_d = s0_st_q;
      for (int p = 0; p < 4; p++) begin
        s1_ip_d.pcolor[p] = comb_px(s0_st_q.mode1, s0_on1_q, s0_decal1_q, s0_ip_q.pcolor[p], s0_tx1_q[p]);
      end
    end
  end

  // ---- S2: the alpha test and alpha to coverage on the final alpha, kill, drop
  pineda_pkg::interp_pkt_t s2_q, s2_d;
  logic [3:0]              kill;
  logic [3:0][3:0]         a2c;   // alpha to coverage: the samples kept of each pixel (1x: bit 0)
  logic [15:0]             mask;
  always_comb begin
    kill = '0;
    a2c  = '1;
    mask = s1_ip_q.quad.mask;
    if (!s1_ip_q.quad.eop) begin
      for (int p = 0; p < 4; p++) begin
        kill[p] = s1_st_q.alpha_test && !pineda_pkg::cmp_pass(s1_st_q.alpha_func, 24'(s1_ip_q.pcolor[p][31:24]),
                                                          24'(s1_st_q.alpha_ref));
        if (s1_st_q.a2c) a2c[p] = a2c_mask(s1_ip_q.pcolor[p][31:24], s1_ip_q.quad.target.msaa);
      end
      for (int i = 0; i < 16; i++) begin
        // 1x: bit p is pixel p; 4x: bit 4p + s is sample s of pixel p
        if (s1_ip_q.quad.target.msaa ? (kill[i / 4] || !a2c[i / 4][i % 4])
                                     : (i < 4 && (kill[i % 4] || !a2c[i % 4][0]))) mask[i] = 1'b0;
      end
    end
    keep = s1_ip_q.quad.eop || (mask != '0);
    s2_d = s2_q;
    if (en) begin
      s2_d = s1_ip_q;
      s2_d.quad.mask = mask;
      for (int i = 0; i < 16; i++) begin
        if (!mask[i]) s2_d.quad.z[i] = '0;  // the packet rule: depth 0 where mask is 0
      end
    end
  end
  assign out_o = s2_q;

  always_comb begin
    v_d = v_q;
    if (en) v_d = {v_q[1] && keep, v_q[0], in_valid_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= '0;
    end else begin
      v_q <= v_d;
    end
  end

  // The payload needs no reset (it is read only where its valid bit is set); without one the
  // depth clear maps onto the flip-flops' synchronous reset.
  always_ff @(posedge clk_i) begin
    s0_ip_q  <= s0_ip_d;
    s0_tx1_q <= s0_tx1_d;
    s0_st_q  <= s0_st_d;
    s0_on1_q    <= s0_on1_d;
    s0_decal1_q <= s0_decal1_d;
    s1_ip_q  <= s1_ip_d;
    s1_st_q  <= s1_st_d;
    s2_q     <= s2_d;
  end

  logic unused_sig;
  assign unused_sig = ^{s1_st_q.mode1, s1_st_q.tex1, s1_st_q.mode, s1_st_q.tex, s0_st_q.tex1};  // used in S0

`ifndef SYNTHESIS
  stream_assert #(.Width($bits(in_i))) u_in_chk (
    .clk_i, .rst_ni, .valid_i(in_valid_i), .ready_i(in_ready_o), .data_i(in_i));
  stream_assert #(.Width($bits(out_o))) u_out_chk (
    .clk_i, .rst_ni, .valid_i(out_valid_o), .ready_i(out_ready_i), .data_i(out_o));
  // A quad leaves with coverage; a token is never dropped.
  always_ff @(posedge clk_i) begin
    if (rst_ni && out_valid_o) begin
      assert (out_o.quad.eop || out_o.quad.mask != '0) else $error("%m: an empty quad left the combiner");
    end
    if (rst_ni && en && v_q[1] && s1_ip_q.quad.eop) begin
      assert (keep) else $error("%m: an end-of-pipe token was dropped");
    end
  end
`endif
endmodule
