// SPDX-License-Identifier: Apache-2.0
// tex: the texture sampler (docs/tex.md; C++ twin cpp_model/tex/tex.cpp, bit exact).
//
// tex_in_pkt_t (one 2x2 quad) in, tex_out_pkt_t out, one for one, in order; end-of-pipe tokens
// pass in order. Texel and descriptor reads go out on one line port (mem_line_req_t/rsp, reads
// only, responses in request order; up to FillDepth line requests in flight).
//
// Pipelined and banked (docs/tex.md section 7). A "pass" is one quad at one mip level: a
// bilinear quad is one pass, a trilinear quad two (half rate).
//   A  front: descriptor checks against one cached texture and one cached sampler descriptor
//      (their addresses are the tags). A quad whose descriptors are cached moves on in the same
//      clock; a descriptor miss waits until the pipeline is empty, then reads the line (the
//      descriptor registers feed every later stage, so they change only when nothing is in
//      flight) and lays out the chain one level per clock.
//   B  level-0 coordinates of the four pixels (4 fp32_mul + fp32_to_fix16_8 per axis);
//   C  LOD, bias, clamps, filter and levels; holds a trilinear quad for two clocks;
//   D  level coordinates of the four pixels (4 more multipliers per axis);
//   E  address modes: per pixel and axis one modulo for i0, i0 + 1 derived from it;
//   T  tag stage, ahead of the data: the 16 taps' block addresses, L1 index, tag, bank. Each
//      clock every remaining tap that hits joins the current sub-pass and up to two missing
//      lines are allocated (tags written now: the tags are the cache's *future* state), their
//      requests queued. A sub-pass is emitted to the pass FIFO when all its taps are placed
//      (in the clock of its last allocation), or early when the next allocation would evict a
//      line the sub-pass reads (an index conflict inside a pass) or when two taps of a pixel need
//      one bank at two lines (address-mode edges): such a pass takes several sub-passes.
//   fills: in request order, one per clock, as the responses arrive; a fill waits only until the
//      last emitted sub-pass that reads the line's old contents has read them (sequence numbers
//      per line), so no line is replaced under an older reader.
//   pass FIFO (PassDepth sub-passes: covers the memory latency) -> data read: the head reads
//      the banks (one clock) once every fill allocated before it has been written.
//   L1 data: L1Lines (256) lines of one decoded 4x4 block, in 4 parity banks (texel (x, y) in
//      bank {y[0], x[0]}, 4 texels per 128-bit word), replicated per pixel: 16 sram_1r1w of
//      L1Lines x 128. A 2x2 bilinear footprint reads one word per bank, so a quad's 16 texels are
//      read in one clock (up to 16 different lines) unless an address mode folds two taps of a
//      pixel onto one parity (wrap/mirror of odd sizes, clamp) at different lines.
//   R  bank words -> the taps' texels (merged over sub-passes);
//   F  filter (per pixel 4 weights x 4 channels), trilinear blend with the level-0 pass's
//      result, output register.
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
  output logic                       fault_o,        // one clock per faulted quad (as it leaves)
  output logic [2:0]                 fault_cause_o,  // TEX_FAULT_* of that quad
  output logic [4:0]                 tap_o,          // texels read from the L1 this clock (0..16)
  output logic [1:0]                 miss_o,         // L1 lines allocated (requested) this clock (0..2)
  output logic                       idle_o
);

  localparam int unsigned L1Lines   = 256;  // 64 or 256 (the index function below)
  localparam int unsigned IdxW      = $clog2(L1Lines);
  localparam int unsigned FiW       = 1 + 16 + IdxW + 3;  // fill record
  localparam int unsigned NLev      = 13;
  localparam int unsigned PassDepth = 256;  // sub-passes between the tag stage and the data read
  localparam int unsigned FillDepth = 256;  // line requests in flight (not yet written)

  typedef enum logic [2:0] {A_RUN, A_TD_REQ, A_TD_WAIT, A_SD_REQ, A_SD_WAIT, A_CHAIN} front_e;

  // per-pass facts that travel with it
  typedef struct packed {
    logic        eop;
    logic [2:0]  fault;
    logic [3:0]  live;
    logic [15:0] tag;
    logic        linear;
    logic        two;    // trilinear with f != 0: this quad has two passes
    logic        lv;     // 0: level l0, 1: level l0 + 1
    logic [7:0]  f;
  } info_t;

  // a sub-pass in the pass FIFO
  typedef struct packed {
    logic [15:0]      mask;    // taps read from the L1 by this sub-pass (tap 4p + k, k = {ky, kx})
    logic [15:0]      border;  // taps that read the border colour
    logic [15:0][IdxW-1:0] idx;  // L1 line of each tap
    logic [15:0][1:0] bank;    // parity bank {y[0], x[0]}
    logic [15:0][1:0] sel;     // texel in the bank word {y[1], x[1]}
    logic [15:0]      fmark;   // line fills (counted from reset) written before the read
    logic             last;    // the pass's last sub-pass: filter
    logic [3:0][7:0]  fu;
    logic [3:0][7:0]  fv;
    logic [34:0]      info;    // info_t
  } sp_t;
  localparam int unsigned SpW = 212 + 16 * IdxW;  // $bits(sp_t) (Yosys 0.55 has no $bits of a type; checked below)

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

  // Address mode (docs/tex.md section 4 step 8) of i and i + 1 with one modulo:
  // {in(i + 1), index(i + 1), in(i), index(i)}; in = 0: the tap reads the border.
  function automatic logic [29:0] amode2(input logic signed [16:0] i, input logic [12:0] n, input logic [2:0] mode);
    logic [13:0] m0, m1, r0, r1, n1, n2;
    logic signed [16:0] last, i1, j0, j1;
    logic in0, in1;
    last = $signed({4'd0, n}) - 17'sd1;
    i1 = i + 17'sd1;
    n1 = {1'b0, n};
    n2 = {n, 1'b0};
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
        r0 = pmod(i, n1);
        r1 = (r0 + 14'd1 == n1) ? 14'd0 : r0 + 14'd1;
      end
      pineda_pkg::TEX_ADDR_MIRROR: begin
        m0 = pmod(i, n2);
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

  function automatic logic [15:0] srgb_lin(input logic [7:0] c);
    srgb_lin = pineda_pkg::SRGB_TO_LIN16[{c, 4'd0} +: 16];
  endfunction

  // ---------------------------------------------------------------------------------- state
  // front (A) and descriptors
  front_e      a_st_q, a_st_d;
  logic        a_valid_q, a_valid_d;
  pineda_pkg::tex_in_pkt_t a_pkt_q, a_pkt_d;
  logic        td_valid_q, td_valid_d, sd_valid_q, sd_valid_d, chain_ok_q, chain_ok_d;
  logic [31:0] td_addr_q, td_addr_d, sd_addr_q, sd_addr_d;
  pineda_pkg::tex_desc_t  td_q, td_d;
  pineda_pkg::samp_desc_t sd_q, sd_d;
  logic [2:0]  tex_fault_q, tex_fault_d;
  logic [3:0]  cl_q, cl_d;             // chain: level being laid out
  logic [33:0] cur_q, cur_d;           // chain: start of that level
  logic [NLev-1:0][32:0] lbase_q, lbase_d;
  logic        a_req_q, a_req_d;       // descriptor line request
  logic        a_both_q, a_both_d;     // both descriptors requested back to back
  logic [31:0] a_req_addr_q, a_req_addr_d;
  // B: level-0 coordinates
  logic        b_valid_q, b_valid_d;
  pineda_pkg::tex_in_pkt_t b_pkt_q, b_pkt_d;
  logic [2:0]  b_fault_q, b_fault_d;
  logic [3:0][23:0] b_x0_q, b_x0_d, b_y0_q, b_y0_d;
  // C: LOD result
  logic        c_valid_q, c_valid_d, c_linear_q, c_linear_d, c_two_q, c_two_d, c_lv_q, c_lv_d;
  pineda_pkg::tex_in_pkt_t c_pkt_q, c_pkt_d;
  logic [2:0]  c_fault_q, c_fault_d;
  logic [3:0]  c_l0_q, c_l0_d;
  logic [7:0]  c_f_q, c_f_d;
  // D: level coordinates
  logic        d_valid_q, d_valid_d;
  info_t       d_info_q, d_info_d;
  logic [3:0]  d_l_q, d_l_d;
  logic [3:0][23:0] d_x_q, d_x_d, d_y_q, d_y_d;
  // E: address-moded indices
  logic        e_valid_q, e_valid_d;
  info_t       e_info_q, e_info_d;
  logic [3:0]  e_l_q, e_l_d;
  logic [3:0][1:0][12:0] e_xi_q, e_xi_d, e_yj_q, e_yj_d;
  logic [3:0][1:0] e_inu_q, e_inu_d, e_inv_q, e_inv_d;
  logic [3:0][7:0] e_fu_q, e_fu_d, e_fv_q, e_fv_d;
  // T: tag stage
  logic        t_valid_q, t_valid_d;
  info_t       t_info_q, t_info_d;
  logic [3:0][7:0] t_fu_q, t_fu_d, t_fv_q, t_fv_d;
  logic [15:0] t_fetch_q, t_fetch_d, t_border_q, t_border_d;
  logic [15:0][31:0] t_tag_q, t_tag_d;
  logic [15:0][IdxW-1:0] t_idx_q, t_idx_d;
  logic [15:0][1:0]  t_bank_q, t_bank_d, t_sel_q, t_sel_d, t_grp_q, t_grp_d;
  logic [15:0] t_rem_q, t_rem_d, t_sub_q, t_sub_d;
  logic [L1Lines-1:0] t_lock_q, t_lock_d;
  logic [15:0] alloc_cnt_q, alloc_cnt_d, emit_cnt_q, emit_cnt_d;     // lines allocated, sub-passes emitted
  logic [L1Lines-1:0][15:0] lastrd_q, lastrd_d;  // per line: the last emitted sub-pass that reads it
  logic        sp_valid_q, sp_valid_d;   // spill: the second line allocated in a clock
  logic [25:0] sp_rq_q, sp_rq_d;
  logic [FiW-1:0] sp_fi_q, sp_fi_d;
  // L1 tags (future state)
  logic [L1Lines-1:0]       ltv_q, ltv_d;
  logic [L1Lines-1:0][31:0] ltag_q, ltag_d;   // {block addr [31:3], decode class}
  // data stage, R, F, O
  logic [15:0] wr_cnt_q, wr_cnt_d, rd_cnt_q, rd_cnt_d;  // lines written, sub-passes read
  logic        r_valid_q, r_valid_d;
  sp_t         r_rec_q, r_rec_d;
  logic [15:0][31:0] tb_q, tb_d;       // texels of the pass so far (sub-passes merged)
  logic        f_valid_q, f_valid_d;
  info_t       f_info_q, f_info_d;
  logic [15:0][31:0] f_tex_q, f_tex_d;
  logic [15:0] f_border_q, f_border_d;
  logic [3:0][7:0] f_fu_q, f_fu_d, f_fv_q, f_fv_d;
  logic [3:0][3:0][15:0] b0_q, b0_d;   // level l0 result of the quad (trilinear)
  logic        o_valid_q, o_valid_d;
  pineda_pkg::tex_out_pkt_t o_q, o_d;

  // ---------------------------------------------------------------------------------- FIFOs
  // line requests (block address [31:6]) to memory
  logic        rq_in_valid, rq_in_ready, rq_out_valid, rq_out_ready, rq_empty;
  logic [25:0] rq_in_data, rq_out_data;
  logic [1:0]  rq_count;
  logic        rq_full;
  stream_fifo #(.Depth(2), .Width(26)) u_req_fifo (
    .clk_i, .rst_ni, .clear_i(1'b0),
    .in_valid_i(rq_in_valid), .in_ready_o(rq_in_ready), .in_data_i(rq_in_data),
    .out_valid_o(rq_out_valid), .out_ready_i(rq_out_ready), .out_data_o(rq_out_data),
    .count_o(rq_count), .empty_o(rq_empty), .full_o(rq_full)
  );

  // fill records {reader pending, its sub-pass, L1 line, block address [5:3]} in request order:
  // the line is written once the last sub-pass that reads its old contents has read them
  logic        fi_in_valid, fi_in_ready, fi_out_valid, fi_out_ready, fi_empty, fi_full;
  logic [FiW-1:0] fi_in_data, fi_out_data;
  logic [$clog2(FillDepth+2):0] fi_count;
  sram_fifo #(.Depth(FillDepth), .Width(FiW)) u_fill_fifo (
    .clk_i, .rst_ni, .clear_i(1'b0),
    .in_valid_i(fi_in_valid), .in_ready_o(fi_in_ready), .in_data_i(fi_in_data),
    .out_valid_o(fi_out_valid), .out_ready_i(fi_out_ready), .out_data_o(fi_out_data),
    .count_o(fi_count), .empty_o(fi_empty), .full_o(fi_full)
  );

  // sub-passes from the tag stage to the data stage
  logic        pf_in_valid, pf_in_ready, pf_out_valid, pf_out_ready, pf_empty, pf_full;
  logic [SpW-1:0] pf_in_data, pf_out_data;
  logic [$clog2(PassDepth+2):0] pf_count;
  sram_fifo #(.Depth(PassDepth), .Width(SpW)) u_pass_fifo (
    .clk_i, .rst_ni, .clear_i(1'b0),
    .in_valid_i(pf_in_valid), .in_ready_o(pf_in_ready), .in_data_i(pf_in_data),
    .out_valid_o(pf_out_valid), .out_ready_i(pf_out_ready), .out_data_o(pf_out_data),
    .count_o(pf_count), .empty_o(pf_empty), .full_o(pf_full)
  );

  // ---------------------------------------------------------------------------------- L1 banks
  logic         bk_we, bk_re;
  logic [IdxW-1:0] bk_waddr;
  logic [3:0][127:0] bk_wdata;            // per parity bank
  logic [15:0][IdxW-1:0] bk_raddr;            // per pixel copy x bank (4p + b)
  logic [15:0][127:0] bk_rdata;

  for (genvar g = 0; g < 16; g++) begin : g_bank
    sram_1r1w #(.Width(128), .Depth(L1Lines), .MaskW(1)) u_bank (
      .clk_i   (clk_i),
      .we_i    (bk_we),
      .waddr_i (bk_waddr),
      .wdata_i (bk_wdata[g % 4]),
      .wmask_i (1'b1),
      .re_i    (bk_re),
      .raddr_i (bk_raddr[g]),
      .rdata_o (bk_rdata[g])
    );
  end

  // ---------------------------------------------------------------------------------- multipliers
  // B: (u, v) of the four pixels times (W, H); D: times the level's (w_l, h_l)
  logic [3:0][31:0] m0_pu, m0_pv, m1_pu, m1_pv;
  logic [3:0][23:0] m0_fu, m0_fv, m1_fu, m1_fv;
  logic [31:0] m0_w, m0_h, m1_w, m1_h;
  logic [3:0]  c_l;
  logic [12:0] c_lw, c_lh;

  for (genvar p = 0; p < 4; p++) begin : g_mul
    fp32_mul u_m0u (.a_i(a_pkt_q.tc[p][63:32]), .b_i(m0_w), .y_o(m0_pu[p]));
    fp32_mul u_m0v (.a_i(a_pkt_q.tc[p][31:0]),  .b_i(m0_h), .y_o(m0_pv[p]));
    fp32_to_fix16_8 u_f0u (.a_i(m0_pu[p]), .y_o(m0_fu[p]));
    fp32_to_fix16_8 u_f0v (.a_i(m0_pv[p]), .y_o(m0_fv[p]));
    fp32_mul u_m1u (.a_i(c_pkt_q.tc[p][63:32]), .b_i(m1_w), .y_o(m1_pu[p]));
    fp32_mul u_m1v (.a_i(c_pkt_q.tc[p][31:0]),  .b_i(m1_h), .y_o(m1_pv[p]));
    fp32_to_fix16_8 u_f1u (.a_i(m1_pu[p]), .y_o(m1_fu[p]));
    fp32_to_fix16_8 u_f1v (.a_i(m1_pv[p]), .y_o(m1_fv[p]));
  end

  always_comb begin
    m0_w = i2f(td_q.width[12:0]);
    m0_h = i2f(td_q.height[12:0]);
    c_l = c_l0_q + {3'd0, c_lv_q};
    c_lw = lvl_dim(td_q.width, c_l);
    c_lh = lvl_dim(td_q.height, c_l);
    m1_w = i2f(c_lw);
    m1_h = i2f(c_lh);
  end

  // ---------------------------------------------------------------------------------- comb
  logic [2:0]  dclass;
  logic [2:0]  bpb_lg;
  logic [6:0]  bpb;
  logic [127:0] bc_block;
  logic [15:0][31:0] bc_texels;
  logic [511:0] rline, dec;
  logic [255:0] half;
  logic [31:0] dw;
  logic [15:0] hw;
  logic [2:0]  fill_b53;
  logic [IdxW-1:0] fill_idx;

  always_comb begin
    unique case (td_q.fmt)
      pineda_pkg::TEX_FMT_BGRA8:  begin dclass = 3'd1; bpb = 7'd64; bpb_lg = 3'd6; end
      pineda_pkg::TEX_FMT_B5G6R5: begin dclass = 3'd2; bpb = 7'd32; bpb_lg = 3'd5; end
      pineda_pkg::TEX_FMT_BC1:    begin dclass = 3'd3; bpb = 7'd8;  bpb_lg = 3'd3; end
      pineda_pkg::TEX_FMT_BC3:    begin dclass = 3'd4; bpb = 7'd16; bpb_lg = 3'd4; end
      default:                    begin dclass = 3'd0; bpb = 7'd64; bpb_lg = 3'd6; end  // RGBA8, RGBA8_SRGB
    endcase
    rline = mem_rsp_i.rdata;
    fill_b53 = fi_out_data[2:0];
    fill_idx = fi_out_data[IdxW+2:3];
    bc_block = (dclass == 3'd4) ? rline[{fill_b53[2:1], 7'd0} +: 128] : {64'd0, rline[{fill_b53, 6'd0} +: 64]};
  end

  // decode on fill: BC1 / BC3 blocks
  tex_bc_decode u_bc (
    .block_i (bc_block),
    .bc3_i   (dclass == 3'd4),
    .texel_o (bc_texels)
  );

  always_comb begin
    // line decode on fill (docs/tex.md section 7): 16 RGBA8 texels, texel 4y + x
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
    // parity banks: bank {y0, x0} word holds texel (2 x1 + x0, 2 y1 + y0) at lane {y1, x1}
    for (int b = 0; b < 4; b++) begin
      for (int s = 0; s < 4; s++) begin
        bk_wdata[b][32*s +: 32] = dec[32*(4*(2*(s/2) + b/2) + 2*(s%2) + b%2) +: 32];
      end
    end
  end

  // descriptor checks, chain step, LOD
  logic        fa_tex, fa_samp, tex_static_bad, samp_bad;
  logic [4:0]  full;
  logic [12:0] cw, ch;
  logic [10:0] cbw, cbh;
  logic [33:0] lbytes, lend;
  logic signed [24:0] dux, dvx, duy, dvy;
  logic [24:0] adux, advx, aduy, advy;
  logic [49:0] sq_lx, sq_ly, rr, rnorm;
  logic [5:0]  e;
  logic signed [17:0] lod_raw, lod_b;
  logic [11:0] lod;
  logic [3:0]  last_l, il;
  logic        lod_linear, lod_two;
  logic [3:0]  lod_l0;
  logic [7:0]  lod_f;

  always_comb begin
    fa_tex  = (a_pkt_q.tex[4:0] != 5'd0) || (a_pkt_q.tex < valid_base_i) || ({2'd0, a_pkt_q.tex} + 34'd31 > {2'd0, valid_limit_i});
    fa_samp = (a_pkt_q.samp[4:0] != 5'd0) || (a_pkt_q.samp < valid_base_i) || ({2'd0, a_pkt_q.samp} + 34'd31 > {2'd0, valid_limit_i});
    full = bitlen((td_q.width > td_q.height) ? td_q.width : td_q.height);
    tex_static_bad = (td_q.width == 16'd0) || (td_q.width > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                     (td_q.height == 16'd0) || (td_q.height > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                     (td_q.fmt > pineda_pkg::TEX_FMT_BC3) || (td_q.levels == 4'd0) ||
                     ({1'b0, td_q.levels} > full) || (td_q.base[5:0] != 6'd0);
    samp_bad = (sd_q.mip > pineda_pkg::TEX_MIP_LINEAR) || (sd_q.addr_u > pineda_pkg::TEX_ADDR_MIRROR_ONCE) ||
               (sd_q.addr_v > pineda_pkg::TEX_ADDR_MIRROR_ONCE) || (sd_q.min_lod > sd_q.max_lod);
    cw = lvl_dim(td_q.width, cl_q);
    ch = lvl_dim(td_q.height, cl_q);
    cbw = 11'((cw + 13'd3) >> 2);
    cbh = 11'((ch + 13'd3) >> 2);
    lbytes = {23'd0, cbw} * {23'd0, cbh} * {27'd0, bpb};
    lend = cur_q + lbytes;

    // LOD (docs/tex.md section 4 steps 2..5) of the quad in B
    dux = $signed({b_x0_q[1][23], b_x0_q[1]}) - $signed({b_x0_q[0][23], b_x0_q[0]});
    dvx = $signed({b_y0_q[1][23], b_y0_q[1]}) - $signed({b_y0_q[0][23], b_y0_q[0]});
    duy = $signed({b_x0_q[2][23], b_x0_q[2]}) - $signed({b_x0_q[0][23], b_x0_q[0]});
    dvy = $signed({b_y0_q[2][23], b_y0_q[2]}) - $signed({b_y0_q[0][23], b_y0_q[0]});
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
    lod_linear = (lod == 12'd0) ? (sd_q.mag == pineda_pkg::TEX_FILTER_LINEAR) : (sd_q.min == pineda_pkg::TEX_FILTER_LINEAR);
    lod_l0 = 4'd0;
    lod_f = 8'd0;
    lod_two = 1'b0;
    if (sd_q.mip == pineda_pkg::TEX_MIP_POINT) begin
      lod_l0 = (13'({1'b0, lod} + 13'd128) >> 8 > 13'(last_l)) ? last_l : 4'(13'({1'b0, lod} + 13'd128) >> 8);
    end else if (sd_q.mip == pineda_pkg::TEX_MIP_LINEAR) begin
      if (il >= last_l) begin
        lod_l0 = last_l;
      end else begin
        lod_l0 = il;
        lod_f = lod[7:0];
        lod_two = lod[7:0] != 8'd0;
      end
    end
    // a faulted quad or a token samples nothing (and must not index past the chain)
    if (b_pkt_q.eop || b_fault_q != pineda_pkg::TEX_FAULT_NONE) begin
      lod_l0 = 4'd0;
      lod_two = 1'b0;
      lod_linear = 1'b0;
    end
  end

  // E: address modes of the quad in D
  logic [3:0][29:0] am_u, am_v;
  logic [3:0][24:0] ax, ay;
  logic [12:0] d_lw, d_lh;
  always_comb begin
    d_lw = lvl_dim(td_q.width, d_l_q);
    d_lh = lvl_dim(td_q.height, d_l_q);
    for (int p = 0; p < 4; p++) begin
      ax[p] = 25'($signed(d_x_q[p])) - (d_info_q.linear ? 25'd128 : 25'd0);
      ay[p] = 25'($signed(d_y_q[p])) - (d_info_q.linear ? 25'd128 : 25'd0);
      am_u[p] = amode2(17'($signed(ax[p]) >>> 8), d_lw, sd_q.addr_u);
      am_v[p] = amode2(17'($signed(ay[p]) >>> 8), d_lh, sd_q.addr_v);
    end
  end

  // T: block addresses, L1 index, tags, banks of the 16 taps of the pass in E
  logic [12:0] e_lw;
  logic [10:0] e_lbw;
  logic [32:0] e_lbase;
  logic [3:0][1:0][22:0] rowoff;
  logic [15:0] tp_fetch, tp_border;
  logic [15:0][31:0] tp_tag;
  logic [15:0][IdxW-1:0] tp_idx;
  logic [7:0]  ix256;
  logic [5:0]  ix64;
  logic [15:0][1:0]  tp_bank, tp_sel, tp_grp;
  logic [15:0][12:0] tp_xi, tp_yj;
  logic [15:0][31:0] tp_blk;
  logic [15:0]       tp_use, tp_in;
  always_comb begin
    e_lw = lvl_dim(td_q.width, e_l_q);
    e_lbw = 11'((e_lw + 13'd3) >> 2);
    e_lbase = lbase_q[e_l_q];
    for (int p = 0; p < 4; p++) begin
      for (int ky = 0; ky < 2; ky++) begin
        rowoff[p][ky] = 23'({12'd0, e_yj_q[p][ky][12:2]} * {12'd0, e_lbw});
      end
    end
    for (int t = 0; t < 16; t++) begin
      tp_use[t] = !e_info_q.eop && e_info_q.fault == pineda_pkg::TEX_FAULT_NONE && e_info_q.live[t/4] &&
                  (e_info_q.linear || (t % 4) == 0);
      tp_in[t] = e_inu_q[t/4][t%2] && e_inv_q[t/4][(t/2)%2];
      tp_fetch[t] = tp_use[t] && tp_in[t];
      tp_border[t] = tp_use[t] && !tp_in[t];
      tp_xi[t] = e_xi_q[t/4][t%2];
      tp_yj[t] = e_yj_q[t/4][(t/2)%2];
      tp_blk[t] = 32'(e_lbase + ((33'(rowoff[t/4][(t/2)%2]) + 33'(tp_xi[t][12:2])) << bpb_lg));
      tp_tag[t] = {tp_blk[t][31:3], dclass};
      ix256 = {tp_yj[t][3:2] ^ tp_xi[t][9:8], tp_xi[t][7:2]} ^ {e_l_q[0], 1'b0, e_l_q[1], 5'd0};
      ix64 = {tp_yj[t][3:2] ^ tp_xi[t][7:6], tp_xi[t][5:2]} ^ {e_l_q[0], 1'b0, e_l_q[1], 3'd0};
      tp_idx[t] = (L1Lines == 256) ? IdxW'(ix256) : IdxW'(ix64);
      tp_bank[t] = {tp_yj[t][0], tp_xi[t][0]};
      tp_sel[t] = {tp_yj[t][1], tp_xi[t][1]};
    end
    // bank groups: a tap whose bank an earlier tap of its pixel reads at another line goes to a
    // group of its own (a later sub-pass)
    for (int t = 0; t < 16; t++) begin
      tp_grp[t] = 2'd0;
      for (int k = 0; k < 4; k++) begin
        if (k < t % 4 && tp_fetch[t] && tp_fetch[4*(t/4) + k] && tp_bank[4*(t/4) + k] == tp_bank[t] &&
            tp_idx[4*(t/4) + k] != tp_idx[t]) tp_grp[t] = 2'(t % 4);
      end
    end
  end

  // T: the tag check of the pass in T
  logic [3:0][15:0] gmask;
  logic [1:0]  cur_g;
  logic [15:0] hv, cand, place, news, missv, rem_after, same, emask, cand2, same2, got;
  logic [3:0]  mtap2;
  logic        alloc2, has2, rd_pend2;
  logic [L1Lines-1:0] lockv, elock;
  logic [15:0] efmark;
  logic [3:0]  mtap;
  logic        emit, alloc, t_last, t_done, front_adv, rd_pend;
  sp_t         sp_out;
  always_comb begin
    for (int g = 0; g < 4; g++) begin
      for (int t = 0; t < 16; t++) gmask[g][t] = (t_grp_q[t] == 2'(g));
    end
    cur_g = 2'd0;
    for (int g = 3; g >= 0; g--) begin
      if ((t_rem_q & gmask[g]) != 16'd0) cur_g = 2'(g);
    end
    cand = t_rem_q & gmask[cur_g];
    for (int t = 0; t < 16; t++) hv[t] = ltv_q[t_idx_q[t]] && ltag_q[t_idx_q[t]] == t_tag_q[t];
    place = cand & ~t_sub_q & hv;
    news = t_sub_q | place;
    lockv = t_lock_q;
    for (int t = 0; t < 16; t++) begin
      if (place[t]) lockv[t_idx_q[t]] = 1'b1;
    end
    missv = cand & ~news;
    mtap = 4'd0;
    for (int t = 15; t >= 0; t--) begin
      if (missv[t]) mtap = 4'(t);
    end
    // the missing taps on the allocated tap's line
    for (int t = 0; t < 16; t++) same[t] = missv[t] && t_idx_q[t] == t_idx_q[mtap] && t_tag_q[t] == t_tag_q[mtap];
    // a second missing line at another index (allocated in the same clock, its request and fill
    // record pushed the next clock from the spill register)
    for (int t = 0; t < 16; t++) cand2[t] = missv[t] && t_idx_q[t] != t_idx_q[mtap];
    mtap2 = 4'd0;
    for (int t = 15; t >= 0; t--) begin
      if (cand2[t]) mtap2 = 4'(t);
    end
    has2 = cand2 != 16'd0;
    for (int t = 0; t < 16; t++) same2[t] = missv[t] && t_idx_q[t] == t_idx_q[mtap2] && t_tag_q[t] == t_tag_q[mtap2];
    emit = 1'b0;
    alloc = 1'b0;
    alloc2 = 1'b0;
    got = same;
    emask = news;
    elock = lockv;
    efmark = alloc_cnt_q;
    if (t_valid_q) begin
      if (missv == 16'd0) begin
        emit = pf_in_ready;
      end else if (lockv[t_idx_q[mtap]]) begin
        emit = pf_in_ready;
      end else begin
        alloc = rq_in_ready && fi_in_ready && !sp_valid_q;
        alloc2 = alloc && has2 && !lockv[t_idx_q[mtap2]];
        got = same | (alloc2 ? same2 : 16'd0);
        // the sub-pass's last missing lines: allocate and emit in one clock
        if (alloc && (missv & ~got) == 16'd0) begin
          emit = pf_in_ready;
          emask = news | got;
          elock[t_idx_q[mtap]] = 1'b1;
          if (alloc2) elock[t_idx_q[mtap2]] = 1'b1;
          efmark = alloc_cnt_q + (alloc2 ? 16'd2 : 16'd1);
        end
      end
    end
    rem_after = t_rem_q & ~emask;
    t_last = (rem_after == 16'd0);
    t_done = emit && t_last;
    front_adv = !t_valid_q || t_done;

    sp_out.mask = emask;
    sp_out.border = t_border_q;
    sp_out.idx = t_idx_q;
    sp_out.bank = t_bank_q;
    sp_out.sel = t_sel_q;
    sp_out.fmark = efmark;
    sp_out.last = t_last;
    sp_out.fu = t_fu_q;
    sp_out.fv = t_fv_q;
    sp_out.info = t_info_q;
    pf_in_valid = emit;
    pf_in_data = sp_out;
    rd_pend = 16'(lastrd_q[t_idx_q[mtap]] - rd_cnt_q) < 16'(emit_cnt_q - rd_cnt_q);
    rd_pend2 = 16'(lastrd_q[t_idx_q[mtap2]] - rd_cnt_q) < 16'(emit_cnt_q - rd_cnt_q);
    // the spill goes first, into both FIFOs at once
    rq_in_valid = (sp_valid_q && fi_in_ready) || alloc;
    fi_in_valid = (sp_valid_q && rq_in_ready) || alloc;
    if (sp_valid_q) begin
      rq_in_data = sp_rq_q;
      fi_in_data = sp_fi_q;
    end else begin
      rq_in_data = t_tag_q[mtap][31:6];  // tag [31:3] = block address [31:3]
      fi_in_data = {rd_pend, lastrd_q[t_idx_q[mtap]], t_idx_q[mtap], t_tag_q[mtap][5:3]};
    end
    sp_valid_d = sp_valid_q && !(rq_in_ready && fi_in_ready);
    sp_rq_d = sp_rq_q;
    sp_fi_d = sp_fi_q;
    if (alloc2) begin
      sp_valid_d = 1'b1;
      sp_rq_d = t_tag_q[mtap2][31:6];
      sp_fi_d = {rd_pend2, lastrd_q[t_idx_q[mtap2]], t_idx_q[mtap2], t_tag_q[mtap2][5:3]};
    end
  end

  // data stage, filter, output
  sp_t         head;
  logic        adv, fill_rdy, fill_now, read_now;
  logic [15:0][31:0] mt;
  logic [15:0][3:0][15:0] tval;
  logic [15:0][16:0] tw;
  logic [3:0][3:0][33:0] fsum;
  logic [3:0][3:0][15:0] bres, cres;
  logic [3:0][3:0][25:0] tri_sum;
  logic [3:0][3:0][23:0] out_sum;
  logic [3:0][31:0] pcol;
  logic [8:0]  wu0, wu1, wv0, wv1;
  info_t       r_info;
  always_comb begin
    head = sp_t'(pf_out_data);
    adv = !o_valid_q || out_ready_i;
    fill_rdy = fi_out_valid && (!fi_out_data[FiW-1] || $signed(16'(rd_cnt_q - fi_out_data[FiW-2:IdxW+3])) > 0);
    fill_now = fill_rdy && mem_rsp_valid_i;
    read_now = pf_out_valid && $signed(16'(wr_cnt_q - head.fmark)) >= 0 && adv;
    bk_we = fill_now;
    bk_waddr = fill_idx;
    bk_re = read_now;
    for (int g = 0; g < 16; g++) begin
      bk_raddr[g] = '0;
      for (int k = 3; k >= 0; k--) begin
        if (head.mask[4*(g/4) + k] && head.bank[4*(g/4) + k] == 2'(g % 4)) bk_raddr[g] = head.idx[4*(g/4) + k];
      end
    end
    fi_out_ready = fill_now;
    pf_out_ready = read_now;

    // R: the taps' texels, merged with the earlier sub-passes of the pass
    r_info = info_t'(r_rec_q.info);
    for (int t = 0; t < 16; t++) begin
      mt[t] = r_rec_q.mask[t] ? bk_rdata[4*(t/4) + 32'(r_rec_q.bank[t])][32*r_rec_q.sel[t] +: 32] : tb_q[t];
    end

    // F: tap values, weights, filter
    for (int t = 0; t < 16; t++) begin
      for (int c = 0; c < 4; c++) begin
        if (f_border_q[t]) tval[t][c] = {sd_q.border[8*c +: 8], sd_q.border[8*c +: 8]};
        else if (td_q.fmt == pineda_pkg::TEX_FMT_RGBA8_SRGB && c < 3) tval[t][c] = srgb_lin(f_tex_q[t][8*c +: 8]);
        else tval[t][c] = {f_tex_q[t][8*c +: 8], f_tex_q[t][8*c +: 8]};
      end
    end
    for (int p = 0; p < 4; p++) begin
      wu1 = {1'b0, f_fu_q[p]};
      wu0 = 9'd256 - wu1;
      wv1 = {1'b0, f_fv_q[p]};
      wv0 = 9'd256 - wv1;
      if (f_info_q.linear) begin
        tw[4*p + 0] = 17'({8'd0, wu0} * {8'd0, wv0});
        tw[4*p + 1] = 17'({8'd0, wu1} * {8'd0, wv0});
        tw[4*p + 2] = 17'({8'd0, wu0} * {8'd0, wv1});
        tw[4*p + 3] = 17'({8'd0, wu1} * {8'd0, wv1});
      end else begin
        tw[4*p + 0] = 17'd65536;
        tw[4*p + 1] = 17'd0;
        tw[4*p + 2] = 17'd0;
        tw[4*p + 3] = 17'd0;
      end
      for (int c = 0; c < 4; c++) begin
        fsum[p][c] = 34'd32768;
        for (int k = 0; k < 4; k++) fsum[p][c] = fsum[p][c] + 34'(tw[4*p + k]) * 34'(tval[4*p + k][c]);
        bres[p][c] = fsum[p][c][31:16];
        tri_sum[p][c] = {10'd0, b0_q[p][c]} * {17'd0, 9'd256 - {1'b0, f_info_q.f}} + {10'd0, bres[p][c]} * {18'd0, f_info_q.f} + 26'd128;
        cres[p][c] = f_info_q.two ? tri_sum[p][c][23:8] : bres[p][c];
        out_sum[p][c] = {8'd0, cres[p][c]} * 24'd255 + 24'd32768;
        pcol[p][8*c +: 8] = out_sum[p][c][23:16];
      end
    end
  end

  // ---------------------------------------------------------------------------------- control
  logic pipe_empty, a_go, b_mv, c_acc, in_fire;
  logic [2:0] a_fault;
  always_comb begin
    a_st_d = a_st_q;
    a_valid_d = a_valid_q;
    a_pkt_d = a_pkt_q;
    td_valid_d = td_valid_q;
    sd_valid_d = sd_valid_q;
    chain_ok_d = chain_ok_q;
    td_addr_d = td_addr_q;
    sd_addr_d = sd_addr_q;
    td_d = td_q;
    sd_d = sd_q;
    tex_fault_d = tex_fault_q;
    cl_d = cl_q;
    cur_d = cur_q;
    lbase_d = lbase_q;
    a_req_d = a_req_q;
    a_both_d = a_both_q;
    a_req_addr_d = a_req_addr_q;
    b_valid_d = b_valid_q;
    b_pkt_d = b_pkt_q;
    b_fault_d = b_fault_q;
    b_x0_d = b_x0_q;
    b_y0_d = b_y0_q;
    c_valid_d = c_valid_q;
    c_pkt_d = c_pkt_q;
    c_fault_d = c_fault_q;
    c_linear_d = c_linear_q;
    c_two_d = c_two_q;
    c_lv_d = c_lv_q;
    c_l0_d = c_l0_q;
    c_f_d = c_f_q;
    d_valid_d = d_valid_q;
    d_info_d = d_info_q;
    d_l_d = d_l_q;
    d_x_d = d_x_q;
    d_y_d = d_y_q;
    e_valid_d = e_valid_q;
    e_info_d = e_info_q;
    e_l_d = e_l_q;
    e_xi_d = e_xi_q;
    e_yj_d = e_yj_q;
    e_inu_d = e_inu_q;
    e_inv_d = e_inv_q;
    e_fu_d = e_fu_q;
    e_fv_d = e_fv_q;
    t_valid_d = t_valid_q;
    t_info_d = t_info_q;
    t_fu_d = t_fu_q;
    t_fv_d = t_fv_q;
    t_fetch_d = t_fetch_q;
    t_border_d = t_border_q;
    t_tag_d = t_tag_q;
    t_idx_d = t_idx_q;
    t_bank_d = t_bank_q;
    t_sel_d = t_sel_q;
    t_grp_d = t_grp_q;
    t_rem_d = t_rem_q;
    t_sub_d = t_sub_q;
    t_lock_d = t_lock_q;
    alloc_cnt_d = alloc_cnt_q;
    emit_cnt_d = emit_cnt_q;
    lastrd_d = lastrd_q;
    ltv_d = ltv_q;
    ltag_d = ltag_q;
    wr_cnt_d = wr_cnt_q;
    rd_cnt_d = rd_cnt_q;
    r_valid_d = r_valid_q;
    r_rec_d = r_rec_q;
    tb_d = tb_q;
    f_valid_d = f_valid_q;
    f_info_d = f_info_q;
    f_tex_d = f_tex_q;
    f_border_d = f_border_q;
    f_fu_d = f_fu_q;
    f_fv_d = f_fv_q;
    b0_d = b0_q;
    o_valid_d = o_valid_q;
    o_d = o_q;
    mem_rsp_ready_o = 1'b0;
    a_go = 1'b0;
    a_fault = pineda_pkg::TEX_FAULT_NONE;
    tap_o = 5'd0;
    miss_o = {alloc2, alloc && !alloc2};

    pipe_empty = !b_valid_q && !c_valid_q && !d_valid_q && !e_valid_q && !t_valid_q && pf_empty &&
                 !r_valid_q && !f_valid_q && !o_valid_q && fi_empty && rq_empty &&
                 !sp_valid_q;

    // ---- A: descriptors
    unique case (a_st_q)
      A_RUN: begin
        if (!a_valid_q) begin
          if (inval_i && pipe_empty) begin
            td_valid_d = 1'b0;
            sd_valid_d = 1'b0;
            chain_ok_d = 1'b0;
            ltv_d = '0;
          end
        end else if (a_pkt_q.eop) begin
          a_go = 1'b1;
        end else if (fa_tex || fa_samp) begin
          a_go = 1'b1;
          a_fault = pineda_pkg::TEX_FAULT_DESC_ADDR;
        end else if (!td_valid_q || td_addr_q != a_pkt_q.tex) begin
          if (pipe_empty) begin
            a_req_d = 1'b1;
            a_req_addr_d = {a_pkt_q.tex[31:6], 6'd0};
            a_st_d = A_TD_REQ;
            // both descriptors missing: the sampler's request follows at once (one latency)
            a_both_d = !sd_valid_q || sd_addr_q != a_pkt_q.samp;
          end
        end else if (!sd_valid_q || sd_addr_q != a_pkt_q.samp) begin
          if (pipe_empty) begin
            a_req_d = 1'b1;
            a_req_addr_d = {a_pkt_q.samp[31:6], 6'd0};
            a_st_d = A_SD_REQ;
          end
        end else if (!chain_ok_q) begin
          cl_d = 4'd0;
          cur_d = {2'd0, td_q.base};
          if (tex_static_bad) begin
            tex_fault_d = pineda_pkg::TEX_FAULT_TEX_DESC;
            chain_ok_d = 1'b1;
          end else begin
            a_st_d = A_CHAIN;
          end
        end else begin
          a_go = 1'b1;
          if (tex_fault_q != pineda_pkg::TEX_FAULT_NONE) a_fault = tex_fault_q;
          else if (samp_bad) a_fault = pineda_pkg::TEX_FAULT_SAMP_DESC;
        end
      end
      A_TD_REQ: begin
        if (mem_req_ready_i) begin
          if (a_both_q) begin
            a_req_addr_d = {a_pkt_q.samp[31:6], 6'd0};
            a_st_d = A_SD_REQ;
          end else begin
            a_req_d = 1'b0;
            a_st_d = A_TD_WAIT;
          end
        end
      end
      A_SD_REQ: begin
        if (mem_req_ready_i) begin
          a_req_d = 1'b0;
          a_st_d = a_both_q ? A_TD_WAIT : A_SD_WAIT;
        end
      end
      A_TD_WAIT: begin
        mem_rsp_ready_o = 1'b1;
        if (mem_rsp_valid_i) begin
          td_d = a_pkt_q.tex[5] ? rline[511:256] : rline[255:0];
          td_valid_d = 1'b1;
          td_addr_d = a_pkt_q.tex;
          chain_ok_d = 1'b0;
          a_st_d = a_both_q ? A_SD_WAIT : A_RUN;
          a_both_d = 1'b0;
        end
      end
      A_SD_WAIT: begin
        mem_rsp_ready_o = 1'b1;
        if (mem_rsp_valid_i) begin
          sd_d = a_pkt_q.samp[5] ? rline[511:256] : rline[255:0];
          sd_valid_d = 1'b1;
          sd_addr_d = a_pkt_q.samp;
          a_st_d = A_RUN;
        end
      end
      A_CHAIN: begin
        lbase_d[cl_q] = cur_q[32:0];
        cur_d = (lend + 34'd63) & ~34'd63;
        cl_d = cl_q + 4'd1;
        if (cl_q == td_q.levels - 4'd1) begin
          chain_ok_d = 1'b1;
          tex_fault_d = (td_q.base < valid_base_i || lend - 34'd1 > {2'd0, valid_limit_i}) ?
                        pineda_pkg::TEX_FAULT_TEX_RANGE : pineda_pkg::TEX_FAULT_NONE;
          a_st_d = A_RUN;
        end
      end
      default: a_st_d = A_RUN;
    endcase

    // ---- the front pipeline A -> B -> C -> D -> E -> T moves when T takes the next pass
    c_acc = !c_valid_q || !(c_two_q && !c_lv_q);
    b_mv = front_adv && c_acc;
    in_ready_o = a_st_q == A_RUN && (!a_valid_q || (a_go && b_mv)) && !inval_i;
    in_fire = in_valid_i && in_ready_o;
    if (a_go && b_mv) a_valid_d = 1'b0;
    if (in_fire) begin
      a_valid_d = 1'b1;
      a_pkt_d = in_i;
    end
    if (b_mv) begin
      b_valid_d = a_valid_q && a_go;
      b_pkt_d = a_pkt_q;
      b_fault_d = a_fault;
      b_x0_d = m0_fu;
      b_y0_d = m0_fv;
    end
    if (front_adv) begin
      // C -> D: the pass at level l0 + c_lv_q
      d_valid_d = c_valid_q;
      d_info_d.eop = c_pkt_q.eop;
      d_info_d.fault = c_fault_q;
      d_info_d.live = c_pkt_q.live;
      d_info_d.tag = c_pkt_q.tag;
      d_info_d.linear = c_linear_q;
      d_info_d.two = c_two_q;
      d_info_d.lv = c_lv_q;
      d_info_d.f = c_f_q;
      d_l_d = c_l;
      d_x_d = m1_fu;
      d_y_d = m1_fv;
      if (c_valid_q && !c_acc) c_lv_d = 1'b1;
      // D -> E
      e_valid_d = d_valid_q;
      e_info_d = d_info_q;
      e_l_d = d_l_q;
      for (int p = 0; p < 4; p++) begin
        e_xi_d[p][0] = am_u[p][12:0];
        e_xi_d[p][1] = am_u[p][27:15];
        e_inu_d[p][0] = am_u[p][14];
        e_inu_d[p][1] = am_u[p][29];
        e_yj_d[p][0] = am_v[p][12:0];
        e_yj_d[p][1] = am_v[p][27:15];
        e_inv_d[p][0] = am_v[p][14];
        e_inv_d[p][1] = am_v[p][29];
        e_fu_d[p] = ax[p][7:0];
        e_fv_d[p] = ay[p][7:0];
      end
      // E -> T
      t_valid_d = e_valid_q;
      t_info_d = e_info_q;
      t_fu_d = e_fu_q;
      t_fv_d = e_fv_q;
      t_fetch_d = tp_fetch;
      t_border_d = tp_border;
      t_tag_d = tp_tag;
      t_idx_d = tp_idx;
      t_bank_d = tp_bank;
      t_sel_d = tp_sel;
      t_grp_d = tp_grp;
      t_rem_d = tp_fetch;
      t_sub_d = '0;
      t_lock_d = '0;
    end
    if (b_mv) begin
      c_valid_d = b_valid_q;
      c_pkt_d = b_pkt_q;
      c_fault_d = b_fault_q;
      c_linear_d = lod_linear;
      c_two_d = lod_two;
      c_l0_d = lod_l0;
      c_f_d = lod_f;
      c_lv_d = 1'b0;
    end

    // ---- T: tag check (when the pass stays)
    if (t_valid_q && !t_done) begin
      if (emit) begin
        t_rem_d = rem_after;
        t_sub_d = '0;
        t_lock_d = '0;
      end else begin
        t_sub_d = news;
        t_lock_d = lockv;
        if (alloc) begin
          t_sub_d = news | got;
          t_lock_d[t_idx_q[mtap]] = 1'b1;
          if (alloc2) t_lock_d[t_idx_q[mtap2]] = 1'b1;
        end
      end
    end
    if (emit) begin
      emit_cnt_d = emit_cnt_q + 16'd1;
      for (int i = 0; i < int'(L1Lines); i++) begin
        if (elock[i]) lastrd_d[i] = emit_cnt_q;
      end
    end
    if (alloc) begin
      alloc_cnt_d = alloc_cnt_q + (alloc2 ? 16'd2 : 16'd1);
      ltv_d[t_idx_q[mtap]] = 1'b1;
      ltag_d[t_idx_q[mtap]] = t_tag_q[mtap];
    end
    if (alloc2) begin
      ltv_d[t_idx_q[mtap2]] = 1'b1;
      ltag_d[t_idx_q[mtap2]] = t_tag_q[mtap2];
    end

    // ---- data stage: fills of the head sub-pass, then its read
    if (fill_rdy) mem_rsp_ready_o = 1'b1;
    if (fill_now) wr_cnt_d = wr_cnt_q + 16'd1;
    if (read_now) rd_cnt_d = rd_cnt_q + 16'd1;
    if (adv) begin
      r_valid_d = read_now;
      r_rec_d = head;
      // R -> F
      f_valid_d = 1'b0;
      if (r_valid_q) begin
        tap_o = 5'($countones(r_rec_q.mask));
        tb_d = mt;
        if (r_rec_q.last) begin
          f_valid_d = 1'b1;
          f_info_d = r_info;
          f_tex_d = mt;
          f_border_d = r_rec_q.border;
          f_fu_d = r_rec_q.fu;
          f_fv_d = r_rec_q.fv;
        end
      end
      // F -> O
      o_valid_d = 1'b0;
      if (f_valid_q) begin
        if (f_info_q.two && !f_info_q.lv) begin
          b0_d = bres;
        end else begin
          o_valid_d = 1'b1;
          o_d = '0;
          o_d.eop = f_info_q.eop;
          if (!f_info_q.eop) begin
            o_d.live = f_info_q.live;
            o_d.tag = f_info_q.tag;
            o_d.fault = f_info_q.fault;
            for (int p = 0; p < 4; p++) begin
              if (f_info_q.live[p] && f_info_q.fault == pineda_pkg::TEX_FAULT_NONE) o_d.color[p] = pcol[p];
            end
          end
        end
      end
    end
  end

  always_comb begin
    out_valid_o = o_valid_q;
    out_o = o_q;
    fault_o = o_valid_q && out_ready_i && o_q.fault != pineda_pkg::TEX_FAULT_NONE;
    fault_cause_o = o_q.fault;
    mem_req_valid_o = a_req_q || rq_out_valid;
    mem_req_o = '0;
    mem_req_o.addr = a_req_q ? a_req_addr_q : {rq_out_data, 6'd0};
    rq_out_ready = mem_req_ready_i && !a_req_q;
    idle_o = pipe_empty && !a_valid_q && a_st_q == A_RUN;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_st_q <= A_RUN;
      a_valid_q <= 1'b0;
      a_pkt_q <= '0;
      td_valid_q <= 1'b0;
      sd_valid_q <= 1'b0;
      chain_ok_q <= 1'b0;
      td_addr_q <= '0;
      sd_addr_q <= '0;
      td_q <= '0;
      sd_q <= '0;
      tex_fault_q <= '0;
      cl_q <= '0;
      cur_q <= '0;
      lbase_q <= '0;
      a_req_q <= 1'b0;
      a_both_q <= 1'b0;
      a_req_addr_q <= '0;
      b_valid_q <= 1'b0;
      b_pkt_q <= '0;
      b_fault_q <= '0;
      b_x0_q <= '0;
      b_y0_q <= '0;
      c_valid_q <= 1'b0;
      c_pkt_q <= '0;
      c_fault_q <= '0;
      c_linear_q <= 1'b0;
      c_two_q <= 1'b0;
      c_lv_q <= 1'b0;
      c_l0_q <= '0;
      c_f_q <= '0;
      d_valid_q <= 1'b0;
      d_info_q <= '0;
      d_l_q <= '0;
      d_x_q <= '0;
      d_y_q <= '0;
      e_valid_q <= 1'b0;
      e_info_q <= '0;
      e_l_q <= '0;
      e_xi_q <= '0;
      e_yj_q <= '0;
      e_inu_q <= '0;
      e_inv_q <= '0;
      e_fu_q <= '0;
      e_fv_q <= '0;
      t_valid_q <= 1'b0;
      t_info_q <= '0;
      t_fu_q <= '0;
      t_fv_q <= '0;
      t_fetch_q <= '0;
      t_border_q <= '0;
      t_tag_q <= '0;
      t_idx_q <= '0;
      t_bank_q <= '0;
      t_sel_q <= '0;
      t_grp_q <= '0;
      t_rem_q <= '0;
      t_sub_q <= '0;
      t_lock_q <= '0;
      alloc_cnt_q <= '0;
      emit_cnt_q <= '0;
      lastrd_q <= '0;
      sp_valid_q <= 1'b0;
      sp_rq_q <= '0;
      sp_fi_q <= '0;
      ltv_q <= '0;
      ltag_q <= '0;
      wr_cnt_q <= '0;
      rd_cnt_q <= '0;
      r_valid_q <= 1'b0;
      r_rec_q <= '0;
      tb_q <= '0;
      f_valid_q <= 1'b0;
      f_info_q <= '0;
      f_tex_q <= '0;
      f_border_q <= '0;
      f_fu_q <= '0;
      f_fv_q <= '0;
      b0_q <= '0;
      o_valid_q <= 1'b0;
      o_q <= '0;
    end else begin
      a_st_q <= a_st_d;
      a_valid_q <= a_valid_d;
      a_pkt_q <= a_pkt_d;
      td_valid_q <= td_valid_d;
      sd_valid_q <= sd_valid_d;
      chain_ok_q <= chain_ok_d;
      td_addr_q <= td_addr_d;
      sd_addr_q <= sd_addr_d;
      td_q <= td_d;
      sd_q <= sd_d;
      tex_fault_q <= tex_fault_d;
      cl_q <= cl_d;
      cur_q <= cur_d;
      lbase_q <= lbase_d;
      a_req_q <= a_req_d;
      a_both_q <= a_both_d;
      a_req_addr_q <= a_req_addr_d;
      b_valid_q <= b_valid_d;
      b_pkt_q <= b_pkt_d;
      b_fault_q <= b_fault_d;
      b_x0_q <= b_x0_d;
      b_y0_q <= b_y0_d;
      c_valid_q <= c_valid_d;
      c_pkt_q <= c_pkt_d;
      c_fault_q <= c_fault_d;
      c_linear_q <= c_linear_d;
      c_two_q <= c_two_d;
      c_lv_q <= c_lv_d;
      c_l0_q <= c_l0_d;
      c_f_q <= c_f_d;
      d_valid_q <= d_valid_d;
      d_info_q <= d_info_d;
      d_l_q <= d_l_d;
      d_x_q <= d_x_d;
      d_y_q <= d_y_d;
      e_valid_q <= e_valid_d;
      e_info_q <= e_info_d;
      e_l_q <= e_l_d;
      e_xi_q <= e_xi_d;
      e_yj_q <= e_yj_d;
      e_inu_q <= e_inu_d;
      e_inv_q <= e_inv_d;
      e_fu_q <= e_fu_d;
      e_fv_q <= e_fv_d;
      t_valid_q <= t_valid_d;
      t_info_q <= t_info_d;
      t_fu_q <= t_fu_d;
      t_fv_q <= t_fv_d;
      t_fetch_q <= t_fetch_d;
      t_border_q <= t_border_d;
      t_tag_q <= t_tag_d;
      t_idx_q <= t_idx_d;
      t_bank_q <= t_bank_d;
      t_sel_q <= t_sel_d;
      t_grp_q <= t_grp_d;
      t_rem_q <= t_rem_d;
      t_sub_q <= t_sub_d;
      t_lock_q <= t_lock_d;
      alloc_cnt_q <= alloc_cnt_d;
      emit_cnt_q <= emit_cnt_d;
      lastrd_q <= lastrd_d;
      sp_valid_q <= sp_valid_d;
      sp_rq_q <= sp_rq_d;
      sp_fi_q <= sp_fi_d;
      ltv_q <= ltv_d;
      ltag_q <= ltag_d;
      wr_cnt_q <= wr_cnt_d;
      rd_cnt_q <= rd_cnt_d;
      r_valid_q <= r_valid_d;
      r_rec_q <= r_rec_d;
      tb_q <= tb_d;
      f_valid_q <= f_valid_d;
      f_info_q <= f_info_d;
      f_tex_q <= f_tex_d;
      f_border_q <= f_border_d;
      f_fu_q <= f_fu_d;
      f_fv_q <= f_fv_d;
      b0_q <= b0_d;
      o_valid_q <= o_valid_d;
      o_q <= o_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i.src, mem_rsp_i.tag, mem_rsp_i.we, rnorm[49], rnorm[40:0], tri_sum, out_sum, fsum,
                        rq_count, rq_full, fi_count, fi_full, pf_count, pf_full, t_fetch_q,
                        am_u, am_v, ax, ay, tp_blk, tp_xi, tp_yj, e_lw};

`ifndef SYNTHESIS
  initial begin
    assert ($bits(sp_t) == SpW) else $fatal(1, "tex: SpW %0d != $bits(sp_t) %0d", SpW, $bits(sp_t));
  end
  // stream rules: the output and the line request hold while stalled; FIFO pushes only when ready
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
      if (pf_in_valid) assert (pf_in_ready) else $error("tex: pass FIFO overflow");
      assert ((fi_in_valid && fi_in_ready) == (rq_in_valid && rq_in_ready)) else $error("tex: fill and request FIFOs out of step");
      if (mem_rsp_ready_o && mem_rsp_valid_i && a_st_q != A_TD_WAIT && a_st_q != A_SD_WAIT)
        assert (fi_out_valid) else $error("tex: a line response with no fill record");
      out_hold_q <= out_valid_o && !out_ready_i;
      req_hold_q <= mem_req_valid_o && !mem_req_ready_i;
      out_prev_q <= out_o;
      req_prev_q <= mem_req_o;
    end
  end
`endif

endmodule
