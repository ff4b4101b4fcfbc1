// SPDX-License-Identifier: Apache-2.0
// tex: the texture sampler (docs/tex.md; C++ twin cpp_model/tex/tex.cpp, bit exact).
//
// tex_in_pkt_t (one 2x2 quad) in, tex_out_pkt_t out, one for one, in order; end-of-pipe tokens
// pass in order. Texel and descriptor reads go out on one line port (mem_line_req_t/rsp, reads
// only; up to 32 requests in flight during a prefetch pass).
//
// This first implementation is sequential (docs/tex.md section 7): one quad at a time through a
// state machine, one texel tap per two clocks on an L1 hit.
//   descriptors  one cached texture and one cached sampler descriptor (their addresses are the
//                tags; inval_i drops them), the texture's chain (level bases, range check)
//                computed once per descriptor fill, one level per clock;
//   LOD          the level-0 16.8 coordinates of the four pixels through one pair of fp32_mul /
//                fp32_to_fix16_8 (one pixel per clock), then one clock of LOD, bias, clamps and
//                level choice;
//   taps         per live pixel, per level (two for trilinear), per tap (1 point, 4 bilinear):
//                address modes, block address, L1 lookup; a hit accumulates weight x texel;
//   L1           sram_1r1w of 64 lines x 512 bits, direct mapped, each line one 4x4 block
//                decoded on fill to RGBA8 (BGRA8 swapped, B5G6R5 widened; sRGB stays encoded
//                and is linearised on read through SRGB_TO_LIN16); tags and valid bits in flops,
//                the tag being the block's 32-byte address and its decode class;
//   miss         a prefetch pass requests every missing line of the quad (32 in flight), then the
//                filter pass; a line still missing there is fetched blocking.
// inval_i (while idle_o) forgets the descriptors, their checks and the whole L1: the integration
// pulses it when descriptors, texels or REG_VALID_BASE/LIMIT may have changed.
module tex (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       in_valid_i,
  output logic                       in_ready_o,
  input  pineda_pkg::tex_in_pkt_t    in_i,
  output logic                       out_valid_o,
  input  logic                       out_ready_i,
  output pineda_pkg::tex_out_pkt_t   out_o,
  input  logic [31:0]                valid_base_i,   // REG_VALID_BASE
  input  logic [31:0]                valid_limit_i,  // REG_VALID_LIMIT
  input  logic                       inval_i,
  output logic                       mem_req_valid_o,
  input  logic                       mem_req_ready_i,
  output pineda_pkg::mem_line_req_t  mem_req_o,
  input  logic                       mem_rsp_valid_i,
  output logic                       mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t  mem_rsp_i,
  output logic                       fault_o,        // one clock per faulted quad
  output logic [2:0]                 fault_cause_o,  // TEX_FAULT_* of that quad
  output logic                       tap_o,          // an L1 lookup hit (a texel tap done)
  output logic                       miss_o,         // an L1 miss (a line requested: prefetch or blocking)
  output logic                       idle_o
);

  localparam int unsigned L1Lines = 64;
  localparam int unsigned NLev = 13;

  typedef enum logic [4:0] {
    S_IDLE, S_TD_REQ, S_TD_WAIT, S_SD_REQ, S_SD_WAIT, S_CHK, S_CHAIN, S_CHK2, S_LOD0, S_LOD1,
    S_COORD, S_TAP, S_READ, S_MISS_REQ, S_MISS_WAIT, S_LVL, S_OUT,
    S_PF_COORD, S_PF_TAP, S_PF_REQ, S_PF_DRAIN
  } state_e;
  localparam int unsigned PfDepth = 32;   // prefetch line requests in flight per quad

  // ---------------------------------------------------------------------------------- helpers
  // float(n) for 1 <= n <= 4096 (exact).
  function automatic logic [31:0] i2f(input logic [12:0] n);
    logic [31:0] f;
    f = 32'd0;
    for (int b = 0; b < 13; b++) begin
      if (n[b]) f = {1'b0, 8'(127 + b), 23'(({10'd0, n} << (23 - b)) & 23'h7FFFFF)};
    end
    i2f = f;
  endfunction

  // Number of bits of max(w, h): floor(log2) + 1.
  function automatic logic [4:0] bitlen(input logic [15:0] v);
    logic [4:0] n;
    n = 5'd0;
    for (int b = 0; b < 16; b++) begin
      if (v[b]) n = 5'(b + 1);
    end
    bitlen = n;
  endfunction

  function automatic logic [12:0] lvl_dim(input logic [15:0] d, input logic [3:0] l);
    logic [15:0] s;
    s = d >> l;
    lvl_dim = (s == 16'd0) ? 13'd1 : s[12:0];
  endfunction

  // Non-negative i mod n, i signed 17-bit, 1 <= n <= 8192.
  function automatic logic [13:0] pmod(input logic signed [16:0] i, input logic [13:0] n);
    logic [16:0] a, r;
    if (i < 0) begin
      a = 17'(-i);
      r = a % {3'd0, n};
      pmod = (r == 17'd0) ? 14'd0 : 14'({3'd0, n} - r);
    end else begin
      a = i;
      pmod = 14'(a % {3'd0, n});
    end
  endfunction

  // Address mode (docs/tex.md section 4 step 8); in_o = 0: the tap reads the border.
  // Returns {in, index}: in = 0 when the tap reads the border.
  function automatic logic [14:0] amode(input logic signed [16:0] i, input logic [12:0] n, input logic [2:0] mode);
    logic [13:0] m, r;
    logic signed [16:0] last, j;
    logic in;
    last = $signed({4'd0, n}) - 17'sd1;
    in = 1'b1;
    r = 14'd0;
    unique case (mode)
      pineda_pkg::TEX_ADDR_WRAP: r = pmod(i, {1'b0, n});
      pineda_pkg::TEX_ADDR_MIRROR: begin
        m = pmod(i, {n, 1'b0});
        r = (m < {1'b0, n}) ? m : 14'({n, 1'b0} - 14'd1 - m);
      end
      pineda_pkg::TEX_ADDR_CLAMP: r = (i < 0) ? 14'd0 : ((i > last) ? last[13:0] : i[13:0]);
      pineda_pkg::TEX_ADDR_BORDER: in = (i >= 0) && (i <= last);
      default: begin
        j = (i < 0) ? (-17'sd1 - i) : i;
        r = (j > last) ? last[13:0] : j[13:0];
      end
    endcase
    amode = {in, r};
  endfunction

  function automatic logic [15:0] srgb_lin(input logic [7:0] c);
    srgb_lin = pineda_pkg::SRGB_TO_LIN16[{c, 4'd0} +: 16];
  endfunction

  // ---------------------------------------------------------------------------------- state
  state_e st_q, st_d;
  pineda_pkg::tex_in_pkt_t pkt_q, pkt_d;
  logic        td_valid_q, td_valid_d, sd_valid_q, sd_valid_d, chain_ok_q, chain_ok_d;
  logic [31:0] td_addr_q, td_addr_d, sd_addr_q, sd_addr_d;
  pineda_pkg::tex_desc_t  td_q, td_d;
  pineda_pkg::samp_desc_t sd_q, sd_d;
  logic [2:0]  tex_fault_q, tex_fault_d, fault_q, fault_d;
  logic [3:0]  cl_q, cl_d;             // chain: level being laid out
  logic [33:0] cur_q, cur_d;           // chain: start of that level
  logic [NLev-1:0][32:0] lbase_q, lbase_d;
  logic [1:0]  pix_q, pix_d;
  logic        lv_q, lv_d;
  logic [1:0]  tap_q, tap_d;
  logic [3:0][23:0] x0_q, x0_d, y0_q, y0_d;
  logic signed [23:0] x_q, x_d, y_q, y_d;
  logic        linear_q, linear_d, two_q, two_d;
  logic [3:0]  l0_q, l0_d;
  logic [7:0]  f_q, f_d;
  logic [3:0][32:0] acc_q, acc_d;
  logic [3:0][15:0] b0_q, b0_d;
  logic [3:0][31:0] col_q, col_d;
  logic        req_valid_q, req_valid_d;
  logic [31:0] req_addr_q, req_addr_d;
  // the tap being looked up
  logic [31:0] blk_q, blk_d;           // block byte address
  logic [3:0]  tidx_q, tidx_d;         // texel in the block
  logic [16:0] tw_q, tw_d;             // weight (65536 for a point tap)
  logic [5:0]  lidx_q, lidx_d;
  logic        hit_q, hit_d;
  // L1 tags
  logic [L1Lines-1:0]       lv_valid_q, lv_valid_d;
  logic [L1Lines-1:0][31:0] ltag_q, ltag_d;   // {block addr [31:3], decode class}
  logic [L1Lines-1:0]       pend_q, pend_d;   // line requested by the prefetch pass, not filled yet
  // prefetch FIFO: {L1 line, block address [5:3]} of each request in flight, in request order
  logic [PfDepth-1:0][8:0]  pf_q, pf_d;
  logic [4:0]  pf_head_q, pf_head_d, pf_tail_q, pf_tail_d;
  logic [5:0]  pf_cnt_q, pf_cnt_d;
  logic        pf_state, pf_fill;
  logic        pf_on_q, pf_on_d, qmiss_q, qmiss_d;  // prefetch pass on; this quad requested a line
  logic [2:0]  fill_b53;
  logic [5:0]  fill_idx;

  // SRAM
  logic         l1_we, l1_re;
  logic [5:0]   l1_waddr, l1_raddr;
  logic [511:0] l1_wdata, l1_rdata;

  sram_1r1w #(.Width(512), .Depth(L1Lines), .MaskW(1)) u_l1 (
    .clk_i   (clk_i),
    .we_i    (l1_we),
    .waddr_i (l1_waddr),
    .wdata_i (l1_wdata),
    .wmask_i (1'b1),
    .re_i    (l1_re),
    .raddr_i (l1_raddr),
    .rdata_o (l1_rdata)
  );

  // one FP32 multiply pair: (u, v) of a pixel times the level's (w, h)
  logic [31:0] mul_u, mul_v, mul_w, mul_h, prod_u, prod_v;
  logic [23:0] fix_u, fix_v;
  fp32_mul u_mul_u (.a_i(mul_u), .b_i(mul_w), .y_o(prod_u));
  fp32_mul u_mul_v (.a_i(mul_v), .b_i(mul_h), .y_o(prod_v));
  fp32_to_fix16_8 u_fix_u (.a_i(prod_u), .y_o(fix_u));
  fp32_to_fix16_8 u_fix_v (.a_i(prod_v), .y_o(fix_v));

  // ---------------------------------------------------------------------------------- comb
  logic        fa_tex, fa_samp;
  logic [2:0]  dclass;
  logic [6:0]  bpb;
  logic [127:0] bc_block;
  logic [15:0][31:0] bc_texels;
  logic [3:0]  cur_l;
  logic [12:0] lw, lh, cw, ch;
  logic [10:0] lbw, cbw, cbh;
  logic [33:0] lbytes, lend;
  logic        tex_static_bad, samp_bad;
  logic [4:0]  full;
  // LOD
  logic signed [24:0] dux, dvx, duy, dvy;
  logic [49:0] sq_lx, sq_ly, rr, rnorm;
  logic [5:0]  e;
  logic signed [17:0] lod_raw, lod_b;
  logic [11:0] lod;
  logic [3:0]  last_l, il;
  // taps
  logic signed [24:0] ax, ay;
  logic signed [16:0] ti, tj;
  logic [7:0]  fu, fv;
  logic [8:0]  wu, wv;
  logic [13:0] xi, yj;
  logic        in_u, in_v;
  logic [31:0] blk_addr;
  logic [5:0]  l1_idx;
  logic [31:0] texel;
  logic [3:0][15:0] tch;
  logic [3:0][15:0] bres;
  logic [3:0][15:0] cres;
  logic [31:0] pcol;
  logic [255:0] half;
  logic [511:0] dec;
  logic [31:0] dw;
  logic [511:0] rline;
  pineda_pkg::fvec2_t tcp;
  logic [15:0] hw;
  logic [25:0] tri_sum;
  logic [23:0] out_sum;
  logic [16:0] wprod;
  logic [24:0] adux, advx, aduy, advy;
  logic [14:0] am_u, am_v;

  // next live pixel after p (p = 3: none)
  function automatic logic [2:0] next_live(input logic [3:0] live, input logic [2:0] from);
    logic [2:0] r;
    r = 3'd4;
    for (int k = 3; k >= 0; k--) begin
      if (live[k] && 3'(k) >= from) r = 3'(k);
    end
    next_live = r;
  endfunction

  // texture format facts and the BC block of a filling line
  always_comb begin
    unique case (td_q.fmt)
      pineda_pkg::TEX_FMT_BGRA8:  begin dclass = 3'd1; bpb = 7'd64; end
      pineda_pkg::TEX_FMT_B5G6R5: begin dclass = 3'd2; bpb = 7'd32; end
      pineda_pkg::TEX_FMT_BC1:    begin dclass = 3'd3; bpb = 7'd8;  end
      pineda_pkg::TEX_FMT_BC3:    begin dclass = 3'd4; bpb = 7'd16; end
      default:                    begin dclass = 3'd0; bpb = 7'd64; end  // RGBA8, RGBA8_SRGB
    endcase
    rline = mem_rsp_i.rdata;
    pf_state = (st_q == S_PF_COORD) || (st_q == S_PF_TAP) || (st_q == S_PF_REQ) || (st_q == S_PF_DRAIN);
    pf_fill = pf_state && mem_rsp_valid_i && (pf_cnt_q != 6'd0);
    fill_b53 = pf_state ? pf_q[pf_head_q][2:0] : blk_q[5:3];
    fill_idx = pf_state ? pf_q[pf_head_q][8:3] : lidx_q;
    bc_block = (dclass == 3'd4) ? rline[{fill_b53[2:1], 7'd0} +: 128] : {64'd0, rline[{fill_b53, 6'd0} +: 64]};
  end

  // decode on fill: BC1 / BC3 blocks (texrt's decoder)
  tex_bc_decode u_bc (
    .block_i (bc_block),
    .bc3_i   (dclass == 3'd4),
    .texel_o (bc_texels)
  );

  always_comb begin
    st_d = st_q;
    pkt_d = pkt_q;
    td_valid_d = td_valid_q;
    sd_valid_d = sd_valid_q;
    chain_ok_d = chain_ok_q;
    td_addr_d = td_addr_q;
    sd_addr_d = sd_addr_q;
    td_d = td_q;
    sd_d = sd_q;
    tex_fault_d = tex_fault_q;
    fault_d = fault_q;
    cl_d = cl_q;
    cur_d = cur_q;
    lbase_d = lbase_q;
    pix_d = pix_q;
    lv_d = lv_q;
    tap_d = tap_q;
    x0_d = x0_q;
    y0_d = y0_q;
    x_d = x_q;
    y_d = y_q;
    linear_d = linear_q;
    two_d = two_q;
    l0_d = l0_q;
    f_d = f_q;
    acc_d = acc_q;
    b0_d = b0_q;
    col_d = col_q;
    req_valid_d = req_valid_q;
    req_addr_d = req_addr_q;
    blk_d = blk_q;
    tidx_d = tidx_q;
    tw_d = tw_q;
    lidx_d = lidx_q;
    hit_d = hit_q;
    lv_valid_d = lv_valid_q;
    ltag_d = ltag_q;
    pend_d = pend_q;
    pf_on_d = pf_on_q;
    qmiss_d = qmiss_q;
    pf_d = pf_q;
    pf_head_d = pf_head_q;
    pf_tail_d = pf_tail_q;
    pf_cnt_d = pf_cnt_q;
    l1_we = 1'b0;
    l1_re = 1'b0;
    l1_waddr = lidx_q;
    l1_raddr = 6'd0;
    l1_wdata = '0;
    fault_o = 1'b0;
    fault_cause_o = fault_q;
    tap_o = 1'b0;
    miss_o = 1'b0;
    mem_rsp_ready_o = 1'b0;

    // descriptor address checks (on the held packet)
    fa_tex  = (pkt_q.tex[4:0] != 5'd0) || (pkt_q.tex < valid_base_i) || ({2'd0, pkt_q.tex} + 34'd31 > {2'd0, valid_limit_i});
    fa_samp = (pkt_q.samp[4:0] != 5'd0) || (pkt_q.samp < valid_base_i) || ({2'd0, pkt_q.samp} + 34'd31 > {2'd0, valid_limit_i});

    // texture format facts
    full = bitlen((td_q.width > td_q.height) ? td_q.width : td_q.height);
    tex_static_bad = (td_q.width == 16'd0) || (td_q.width > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                     (td_q.height == 16'd0) || (td_q.height > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                     (td_q.fmt > pineda_pkg::TEX_FMT_BC3) || (td_q.levels == 4'd0) ||
                     ({1'b0, td_q.levels} > full) || (td_q.base[5:0] != 6'd0);
    samp_bad = (sd_q.mip > pineda_pkg::TEX_MIP_LINEAR) || (sd_q.addr_u > pineda_pkg::TEX_ADDR_MIRROR_ONCE) ||
               (sd_q.addr_v > pineda_pkg::TEX_ADDR_MIRROR_ONCE) || (sd_q.min_lod > sd_q.max_lod);

    // chain step: level cl_q
    cw = lvl_dim(td_q.width, cl_q);
    ch = lvl_dim(td_q.height, cl_q);
    cbw = 11'((cw + 13'd3) >> 2);
    cbh = 11'((ch + 13'd3) >> 2);
    lbytes = {23'd0, cbw} * {23'd0, cbh} * {27'd0, bpb};
    lend = cur_q + lbytes;

    // current level of the tap loop
    cur_l = l0_q + {3'd0, lv_q};
    lw = lvl_dim(td_q.width, cur_l);
    lh = lvl_dim(td_q.height, cur_l);
    lbw = 11'((lw + 13'd3) >> 2);

    // multiplier inputs: S_LOD0 runs pixel pix_q at level 0, S_COORD pixel pix_q at cur_l
    tcp = pkt_q.tc[pix_q];
    mul_u = tcp.u;
    mul_v = tcp.v;
    mul_w = (st_q == S_LOD0) ? i2f(td_q.width[12:0]) : i2f(lw);
    mul_h = (st_q == S_LOD0) ? i2f(td_q.height[12:0]) : i2f(lh);

    // LOD (docs/tex.md section 4 steps 2..5)
    dux = $signed({x0_q[1][23], x0_q[1]}) - $signed({x0_q[0][23], x0_q[0]});
    dvx = $signed({y0_q[1][23], y0_q[1]}) - $signed({y0_q[0][23], y0_q[0]});
    duy = $signed({x0_q[2][23], x0_q[2]}) - $signed({x0_q[0][23], x0_q[0]});
    dvy = $signed({y0_q[2][23], y0_q[2]}) - $signed({y0_q[0][23], y0_q[0]});
    adux = dux[24] ? 25'(-dux) : 25'(dux);
    advx = dvx[24] ? 25'(-dvx) : 25'(dvx);
    aduy = duy[24] ? 25'(-duy) : 25'(duy);
    advy = dvy[24] ? 25'(-dvy) : 25'(dvy);
    sq_lx = {25'd0, adux} * {25'd0, adux} + {25'd0, advx} * {25'd0, advx};
    sq_ly = {25'd0, aduy} * {25'd0, aduy} + {25'd0, advy} * {25'd0, advy};
    rr = (sq_lx > sq_ly) ? sq_lx : sq_ly;
    e = 6'd0;
    for (int b = 0; b < 50; b++) begin
      if (rr[b]) e = 6'(b);
    end
    rnorm = rr << (6'd49 - e);
    lod_raw = (rr == 50'd0) ? -18'sd32768 : ((18'($signed({1'b0, e, rnorm[48:41]})) - 18'sd4096) >>> 1);
    lod_b = lod_raw + 18'($signed(sd_q.lod_bias));
    if (lod_b < $signed({6'd0, sd_q.min_lod})) lod_b = $signed({6'd0, sd_q.min_lod});
    if (lod_b > $signed({6'd0, sd_q.max_lod})) lod_b = $signed({6'd0, sd_q.max_lod});
    lod = lod_b[11:0];
    last_l = td_q.levels - 4'd1;
    il = lod[11:8];

    // tap (S_TAP): indices, weights, address modes, block address
    ax = 25'(x_q) - (linear_q ? 25'sd128 : 25'sd0);
    ay = 25'(y_q) - (linear_q ? 25'sd128 : 25'sd0);
    ti = 17'(ax >>> 8) + (linear_q ? 17'(tap_q[0]) : 17'd0);
    tj = 17'(ay >>> 8) + (linear_q ? 17'(tap_q[1]) : 17'd0);
    fu = ax[7:0];
    fv = ay[7:0];
    wu = tap_q[0] ? {1'b0, fu} : 9'd256 - {1'b0, fu};
    wv = tap_q[1] ? {1'b0, fv} : 9'd256 - {1'b0, fv};
    wprod = {8'd0, wu} * {8'd0, wv};
    am_u = amode(ti, lw, sd_q.addr_u);
    am_v = amode(tj, lh, sd_q.addr_v);
    in_u = am_u[14];
    in_v = am_v[14];
    xi = am_u[13:0];
    yj = am_v[13:0];
    blk_addr = 32'(lbase_q[cur_l] + 33'((34'(yj[13:2]) * 34'(lbw) + 34'(xi[13:2])) * 34'(bpb)));
    l1_idx = {yj[3:2] ^ xi[7:6], xi[5:2]} ^ {cur_l[0], 1'b0, cur_l[1], 3'd0};

    // texel of the read line, linearised
    texel = l1_rdata[{tidx_q, 5'd0} +: 32];
    for (int c = 0; c < 4; c++) begin
      tch[c] = {texel[8*c +: 8], texel[8*c +: 8]};
      if (td_q.fmt == pineda_pkg::TEX_FMT_RGBA8_SRGB && c < 3) tch[c] = srgb_lin(texel[8*c +: 8]);
    end

    // level result and output
    for (int c = 0; c < 4; c++) begin
      bres[c] = 16'((acc_q[c] + 33'd32768) >> 16);
      tri_sum = {10'd0, b0_q[c]} * {17'd0, 9'd256 - {1'b0, f_q}} + {10'd0, bres[c]} * {18'd0, f_q} + 26'd128;
      cres[c] = two_q ? tri_sum[23:8] : bres[c];
      out_sum = {8'd0, cres[c]} * 24'd255 + 24'd32768;
      pcol[8*c +: 8] = out_sum[23:16];
    end

    // line decode on fill (docs/tex.md section 9)
    half = fill_b53[2] ? rline[511:256] : rline[255:0];
    for (int k = 0; k < 16; k++) begin
      dw = rline[32*k +: 32];
      hw = half[16*k +: 16];
      unique case (dclass)
        3'd1: dec[32*k +: 32] = {dw[31:24], dw[7:0], dw[15:8], dw[23:16]};
        3'd2: dec[32*k +: 32] = {8'hFF, hw[4:0], hw[4:2], hw[10:5], hw[10:9], hw[15:11], hw[15:13]};
        3'd3, 3'd4: dec[32*k +: 32] = bc_texels[k];
        default: dec[32*k +: 32] = dw;
      endcase
    end


    unique case (st_q)
      S_IDLE: begin
        if (inval_i) begin
          td_valid_d = 1'b0;
          sd_valid_d = 1'b0;
          chain_ok_d = 1'b0;
          lv_valid_d = '0;
        end else if (in_valid_i) begin
          pkt_d = in_i;
          qmiss_d = 1'b0;
          fault_d = pineda_pkg::TEX_FAULT_NONE;
          col_d = '0;
          st_d = in_i.eop ? S_OUT : S_CHK;
        end
      end
      S_CHK: begin
        if (fa_tex || fa_samp) begin
          fault_d = pineda_pkg::TEX_FAULT_DESC_ADDR;
          st_d = S_OUT;
        end else if (!td_valid_q || td_addr_q != pkt_q.tex) begin
          req_valid_d = 1'b1;
          req_addr_d = {pkt_q.tex[31:6], 6'd0};
          st_d = S_TD_REQ;
        end else if (!sd_valid_q || sd_addr_q != pkt_q.samp) begin
          req_valid_d = 1'b1;
          req_addr_d = {pkt_q.samp[31:6], 6'd0};
          st_d = S_SD_REQ;
        end else if (!chain_ok_q) begin
          cl_d = 4'd0;
          cur_d = {2'd0, td_q.base};
          if (tex_static_bad) begin
            tex_fault_d = pineda_pkg::TEX_FAULT_TEX_DESC;
            chain_ok_d = 1'b1;
          end else begin
            st_d = S_CHAIN;
          end
        end else begin
          st_d = S_CHK2;
        end
      end
      S_TD_REQ, S_SD_REQ: begin
        if (mem_req_ready_i) begin
          req_valid_d = 1'b0;
          st_d = (st_q == S_TD_REQ) ? S_TD_WAIT : S_SD_WAIT;
        end
      end
      S_TD_WAIT: begin
        mem_rsp_ready_o = 1'b1;
        if (mem_rsp_valid_i) begin
          td_d = pkt_q.tex[5] ? rline[511:256] : rline[255:0];
          td_valid_d = 1'b1;
          td_addr_d = pkt_q.tex;
          chain_ok_d = 1'b0;
          st_d = S_CHK;
        end
      end
      S_SD_WAIT: begin
        mem_rsp_ready_o = 1'b1;
        if (mem_rsp_valid_i) begin
          sd_d = pkt_q.samp[5] ? rline[511:256] : rline[255:0];
          sd_valid_d = 1'b1;
          sd_addr_d = pkt_q.samp;
          st_d = S_CHK;
        end
      end
      S_CHAIN: begin
        lbase_d[cl_q] = cur_q[32:0];
        cur_d = (lend + 34'd63) & ~34'd63;
        cl_d = cl_q + 4'd1;
        if (cl_q == td_q.levels - 4'd1) begin
          chain_ok_d = 1'b1;
          tex_fault_d = (td_q.base < valid_base_i || lend - 34'd1 > {2'd0, valid_limit_i}) ?
                        pineda_pkg::TEX_FAULT_TEX_RANGE : pineda_pkg::TEX_FAULT_NONE;
          st_d = S_CHK2;
        end
      end
      S_CHK2: begin
        if (tex_fault_q != pineda_pkg::TEX_FAULT_NONE) begin
          fault_d = tex_fault_q;
          st_d = S_OUT;
        end else if (samp_bad) begin
          fault_d = pineda_pkg::TEX_FAULT_SAMP_DESC;
          st_d = S_OUT;
        end else begin
          pix_d = 2'd0;
          st_d = S_LOD0;
        end
      end
      S_LOD0: begin
        x0_d[pix_q] = fix_u;
        y0_d[pix_q] = fix_v;
        pix_d = pix_q + 2'd1;
        if (pix_q == 2'd3) st_d = S_LOD1;
      end
      S_LOD1: begin
        linear_d = (lod == 12'd0) ? (sd_q.mag == pineda_pkg::TEX_FILTER_LINEAR) : (sd_q.min == pineda_pkg::TEX_FILTER_LINEAR);
        l0_d = 4'd0;
        f_d = 8'd0;
        two_d = 1'b0;
        if (sd_q.mip == pineda_pkg::TEX_MIP_POINT) begin
          l0_d = (13'({1'b0, lod} + 13'd128) >> 8 > 13'(last_l)) ? last_l : 4'(13'({1'b0, lod} + 13'd128) >> 8);
        end else if (sd_q.mip == pineda_pkg::TEX_MIP_LINEAR) begin
          if (il >= last_l) begin
            l0_d = last_l;
          end else begin
            l0_d = il;
            f_d = lod[7:0];
            two_d = lod[7:0] != 8'd0;
          end
        end
        lv_d = 1'b0;
        if (next_live(pkt_q.live, 3'd0) == 3'd4) begin
          st_d = S_OUT;
        end else begin
          pix_d = 2'(next_live(pkt_q.live, 3'd0));
          st_d = pf_on_q ? S_PF_COORD : S_COORD;
        end
      end
      // Prefetch pass: the same walk as the filter pass, requesting every missing line at once
      // (up to PfDepth in flight); fills land while it runs. The filter pass starts once all
      // have returned; a line it still misses (an index conflict) takes the blocking path.
      S_PF_COORD: begin
        x_d = fix_u;
        y_d = fix_v;
        tap_d = 2'd0;
        st_d = S_PF_TAP;
      end
      S_PF_TAP, S_PF_REQ: begin
        if (st_q == S_PF_REQ && !mem_req_ready_i) begin
          st_d = S_PF_REQ;
        end else begin
          if (st_q == S_PF_REQ) req_valid_d = 1'b0;
          if (st_q == S_PF_TAP && in_u && in_v && !pend_q[l1_idx] &&
              !(lv_valid_q[l1_idx] && ltag_q[l1_idx] == {blk_addr[31:3], dclass}) && pf_cnt_q != 6'(PfDepth)) begin
            miss_o = 1'b1;
            req_valid_d = 1'b1;
            req_addr_d = {blk_addr[31:6], 6'd0};
            ltag_d[l1_idx] = {blk_addr[31:3], dclass};
            lv_valid_d[l1_idx] = 1'b0;
            pend_d[l1_idx] = 1'b1;
            pf_d[pf_tail_q] = {l1_idx, blk_addr[5:3]};
            pf_tail_d = pf_tail_q + 5'd1;
            pf_cnt_d = pf_cnt_q + 6'd1;
            st_d = S_PF_REQ;
          end else begin
            // next tap, level, pixel
            tap_d = tap_q + 2'd1;
            st_d = S_PF_TAP;
            if (!linear_q || tap_q == 2'd3) begin
              if (two_q && !lv_q) begin
                lv_d = 1'b1;
                st_d = S_PF_COORD;
              end else begin
                lv_d = 1'b0;
                if (pix_q == 2'd3 || next_live(pkt_q.live, 3'(pix_q) + 3'd1) == 3'd4) begin
                  st_d = S_PF_DRAIN;
                end else begin
                  pix_d = 2'(next_live(pkt_q.live, 3'(pix_q) + 3'd1));
                  st_d = S_PF_COORD;
                end
              end
            end
          end
        end
      end
      S_PF_DRAIN: begin
        if (pf_cnt_q == 6'd0 || (pf_cnt_q == 6'd1 && pf_fill)) begin
          pix_d = 2'(next_live(pkt_q.live, 3'd0));
          lv_d = 1'b0;
          st_d = S_COORD;
        end
      end
      S_COORD: begin
        x_d = fix_u;
        y_d = fix_v;
        tap_d = 2'd0;
        acc_d = '0;
        st_d = S_TAP;
      end
      S_TAP: begin
        tw_d = linear_q ? wprod : 17'd65536;
        if (!(in_u && in_v)) begin
          // border tap: accumulate the border colour (UNORM8, never sRGB-decoded)
          for (int c = 0; c < 4; c++) begin
            acc_d[c] = acc_q[c] + {16'd0, (linear_q ? wprod : 17'd65536)} * {17'd0, sd_q.border[8*c +: 8], sd_q.border[8*c +: 8]};
          end
          tap_d = tap_q + 2'd1;
          if (!linear_q || tap_q == 2'd3) st_d = S_LVL;
        end else begin
          blk_d = blk_addr;
          tidx_d = {yj[1:0], xi[1:0]};
          lidx_d = l1_idx;
          l1_re = 1'b1;
          l1_raddr = l1_idx;
          hit_d = lv_valid_q[l1_idx] && ltag_q[l1_idx] == {blk_addr[31:3], dclass};
          st_d = S_READ;
        end
      end
      S_READ: begin
        if (hit_q) begin
          tap_o = 1'b1;
          for (int c = 0; c < 4; c++) begin
            acc_d[c] = acc_q[c] + 33'(tw_q) * 33'(tch[c]);
          end
          tap_d = tap_q + 2'd1;
          st_d = (!linear_q || tap_q == 2'd3) ? S_LVL : S_TAP;
        end else begin
          miss_o = 1'b1;
          req_valid_d = 1'b1;
          req_addr_d = {blk_q[31:6], 6'd0};
          st_d = S_MISS_REQ;
        end
      end
      S_MISS_REQ: begin
        if (mem_req_ready_i) begin
          req_valid_d = 1'b0;
          st_d = S_MISS_WAIT;
        end
      end
      S_MISS_WAIT: begin
        mem_rsp_ready_o = 1'b1;
        if (mem_rsp_valid_i) begin
          l1_we = 1'b1;
          l1_waddr = lidx_q;
          l1_wdata = dec;
          lv_valid_d[lidx_q] = 1'b1;
          ltag_d[lidx_q] = {blk_q[31:3], dclass};
          st_d = S_TAP;
        end
      end
      S_LVL: begin
        if (two_q && !lv_q) begin
          b0_d = bres;
          lv_d = 1'b1;
          st_d = S_COORD;
        end else begin
          col_d[pix_q] = pcol;
          lv_d = 1'b0;
          if (pix_q == 2'd3 || next_live(pkt_q.live, 3'(pix_q) + 3'd1) == 3'd4) begin
            st_d = S_OUT;
          end else begin
            pix_d = 2'(next_live(pkt_q.live, 3'(pix_q) + 3'd1));
            st_d = S_COORD;
          end
        end
      end
      S_OUT: begin
        if (out_ready_i) begin
          fault_o = fault_q != pineda_pkg::TEX_FAULT_NONE;
          // the next quad runs the prefetch pass only if this one needed a line (streams that
          // hit skip its cost; a miss turns it back on)
          if (!pkt_q.eop && fault_q == pineda_pkg::TEX_FAULT_NONE) pf_on_d = qmiss_q;
          st_d = S_IDLE;
        end
      end
      default: st_d = S_IDLE;
    endcase
    if (miss_o) qmiss_d = 1'b1;

    // prefetch fills (responses in request order), in any prefetch state
    if (pf_fill) begin
      mem_rsp_ready_o = 1'b1;
      l1_we = 1'b1;
      l1_waddr = fill_idx;
      l1_wdata = dec;
      lv_valid_d[fill_idx] = 1'b1;
      pend_d[fill_idx] = 1'b0;
      pf_head_d = pf_head_q + 5'd1;
      pf_cnt_d = pf_cnt_d - 6'd1;
    end
  end

  always_comb begin
    in_ready_o = (st_q == S_IDLE) && !inval_i;
    out_valid_o = (st_q == S_OUT);
    out_o = '0;
    out_o.eop = pkt_q.eop;
    if (!pkt_q.eop) begin
      out_o.live = pkt_q.live;
      out_o.tag = pkt_q.tag;
      out_o.fault = fault_q;
      out_o.color = (fault_q == pineda_pkg::TEX_FAULT_NONE) ? col_q : '0;
    end
    mem_req_valid_o = req_valid_q;
    mem_req_o = '0;
    mem_req_o.addr = req_addr_q;
    idle_o = (st_q == S_IDLE);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;
      pkt_q <= '0;
      td_valid_q <= 1'b0;
      sd_valid_q <= 1'b0;
      chain_ok_q <= 1'b0;
      td_addr_q <= '0;
      sd_addr_q <= '0;
      td_q <= '0;
      sd_q <= '0;
      tex_fault_q <= '0;
      fault_q <= '0;
      cl_q <= '0;
      cur_q <= '0;
      lbase_q <= '0;
      pix_q <= '0;
      lv_q <= 1'b0;
      tap_q <= '0;
      x0_q <= '0;
      y0_q <= '0;
      x_q <= '0;
      y_q <= '0;
      linear_q <= 1'b0;
      two_q <= 1'b0;
      l0_q <= '0;
      f_q <= '0;
      acc_q <= '0;
      b0_q <= '0;
      col_q <= '0;
      req_valid_q <= 1'b0;
      req_addr_q <= '0;
      blk_q <= '0;
      tidx_q <= '0;
      tw_q <= '0;
      lidx_q <= '0;
      hit_q <= 1'b0;
      lv_valid_q <= '0;
      ltag_q <= '0;
      pend_q <= '0;
      pf_on_q <= 1'b1;
      qmiss_q <= 1'b0;
      pf_q <= '0;
      pf_head_q <= '0;
      pf_tail_q <= '0;
      pf_cnt_q <= '0;
    end else begin
      st_q <= st_d;
      pkt_q <= pkt_d;
      td_valid_q <= td_valid_d;
      sd_valid_q <= sd_valid_d;
      chain_ok_q <= chain_ok_d;
      td_addr_q <= td_addr_d;
      sd_addr_q <= sd_addr_d;
      td_q <= td_d;
      sd_q <= sd_d;
      tex_fault_q <= tex_fault_d;
      fault_q <= fault_d;
      cl_q <= cl_d;
      cur_q <= cur_d;
      lbase_q <= lbase_d;
      pix_q <= pix_d;
      lv_q <= lv_d;
      tap_q <= tap_d;
      x0_q <= x0_d;
      y0_q <= y0_d;
      x_q <= x_d;
      y_q <= y_d;
      linear_q <= linear_d;
      two_q <= two_d;
      l0_q <= l0_d;
      f_q <= f_d;
      acc_q <= acc_d;
      b0_q <= b0_d;
      col_q <= col_d;
      req_valid_q <= req_valid_d;
      req_addr_q <= req_addr_d;
      blk_q <= blk_d;
      tidx_q <= tidx_d;
      tw_q <= tw_d;
      lidx_q <= lidx_d;
      hit_q <= hit_d;
      lv_valid_q <= lv_valid_d;
      ltag_q <= ltag_d;
      pend_q <= pend_d;
      pf_on_q <= pf_on_d;
      qmiss_q <= qmiss_d;
      pf_q <= pf_d;
      pf_head_q <= pf_head_d;
      pf_tail_q <= pf_tail_d;
      pf_cnt_q <= pf_cnt_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i.src, mem_rsp_i.tag, mem_rsp_i.we, rnorm[49], rnorm[40:0], tri_sum[25:24], tri_sum[7:0],
                        out_sum[15:0]};

`ifndef SYNTHESIS
  // stream rules: the output and the line request hold while stalled
  logic out_hold_q, req_hold_q;
  pineda_pkg::tex_out_pkt_t out_prev_q;
  pineda_pkg::mem_line_req_t req_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_hold_q <= 1'b0;
      req_hold_q <= 1'b0;
      out_prev_q <= '0;
      req_prev_q <= '0;
    end else begin
      if (out_hold_q) assert (out_valid_o && out_o == out_prev_q) else $error("tex: output changed while stalled");
      if (req_hold_q) assert (mem_req_valid_o && mem_req_o == req_prev_q) else $error("tex: line request changed while stalled");
      out_hold_q <= out_valid_o && !out_ready_i;
      req_hold_q <= mem_req_valid_o && !mem_req_ready_i;
      out_prev_q <= out_o;
      req_prev_q <= mem_req_o;
    end
  end
`endif

endmodule
