// SPDX-License-Identifier: Apache-2.0
// tex: the texture sampler (docs/tex.md; C++ twin cpp_model/tex/tex.cpp, bit exact).
//
// tex_in_pkt_t (one 2x2 quad) in, tex_out_pkt_t out, one for one, in order; end-of-pipe tokens
// pass in order. Texel and descriptor reads go out on one line port (mem_line_req_t/rsp, reads
// only, responses in request order; up to FillDepth line requests in flight).
//
// Pipelined and banked (docs/tex.md section 7). A "pass" is one quad at one mip level: a
// bilinear quad is one pass, a trilinear quad two (half rate).
//   A  front: descriptor checks against a small descriptor cache: TexSlots texture slots (the
//      descriptor, its laid-out chain of level bases, its check result) and SampSlots sampler
//      slots, tagged by byte address. A quad whose descriptors are cached moves on in the same
//      clock and carries its two slot numbers down the pipeline; every later stage reads the
//      fields it needs through them. Each slot counts the quads in flight that use it (from A
//      until the quad's last pass leaves F). A miss takes a slot no quad uses (invalid first,
//      else the least recently used), requests the line through the texel request queue (the
//      response lands in order, in the fill stage, straight into the slot) while quads on the
//      other slots keep flowing, and lays out the chain one level per clock; it waits only
//      when every slot of its kind is in use. A miss's line request waits a clock in the
//      register dq (off the path from A's checks to the tag stage's allocation).
//   B  level-0 coordinates of the four pixels: the products (4 fp32_mul per axis, of A's quad);
//   Q  their fp32_to_fix16_8;
//   S  the LOD's first half: derivatives and the larger squared length (tex_lod_sq);
//   C  the LOD's log2, bias, clamps, filter and levels; holds a trilinear quad for two clocks;
//   D  level coordinates of the four pixels: the products (4 more multipliers per axis, of C's
//      pass); their fp32_to_fix16_8 feeds H;
//   H  address modes, first half (tex_amode_pre): per pixel and axis i0, the modulus and the
//      modulo's first division steps;
//   E  address modes, second half (tex_amode): the modulo's last steps, the mode, i0 + 1 derived
//      from i0's remainder;
//   T  tag stage, ahead of the data: the 16 taps' block addresses, L1 index, tag, bank. Each
//      clock every remaining tap that hits joins the current sub-pass and up to two missing
//      lines are allocated (tags written now: the tags are the cache's *future* state), their
//      requests queued. A sub-pass is emitted to the pass FIFO when all its taps are placed
//      (in the clock of its last allocation), or early when the next allocation would evict a
//      line the sub-pass reads (an index conflict inside a pass) or when two taps of a pixel need
//      one bank at two lines (address-mode edges): such a pass takes several sub-passes.
//   raw-line buffer (tex_line_buf): the last 32 memory lines of formats with several blocks per
//      line (BC1 8, BC3 4, B5G6R5 2), looked up as a fill record is queued: a line held or already
//      requested sends no request, the record names the entry to take it from.
//   fills: in record order, one per clock, as the responses arrive; a fill waits only until the
//      last emitted sub-pass that reads the line's old contents has read them (sequence numbers
//      per line), so no line is replaced under an older reader. A record from the raw-line
//      buffer reads its entry, stage G decodes it and writes the L1 the next clock.
//   pass FIFO (PassDepth sub-passes: covers the memory latency) -> data read: the head reads
//      the banks (one clock) once every fill allocated before it has been written.
//   L1 data: L1Lines (256) lines of one decoded 4x4 block, in 4 parity banks (texel (x, y) in
//      bank {y[0], x[0]}, 4 texels per 128-bit word), replicated per pixel: 16 sram_1r1w of
//      L1Lines x 128. A 2x2 bilinear footprint reads one word per bank, so a quad's 16 texels are
//      read in one clock (up to 16 different lines) unless an address mode folds two taps of a
//      pixel onto one parity (wrap/mirror of odd sizes, clamp) at different lines.
//   R  bank words -> the taps' texels (merged over sub-passes);
//   F  filter (per pixel 4 weights x 4 channels: the bilinear lerps, tex_filter);
//   P  trilinear blend with the level-0 pass's result and the colour (tex_filter_out), output
//      register.
// inval_i (while idle_o) forgets every descriptor slot, their checks and the whole L1: the
// integration pulses it when descriptors, texels or REG_VALID_BASE/LIMIT may have changed.
module tex #(
  parameter int unsigned TexSlots  = 4,  // cached texture descriptors (with chains), >= 2
  parameter int unsigned SampSlots = 4   // cached sampler descriptors, >= 2
) (
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
  localparam int unsigned RawLines  = 32;   // raw-line buffer entries (tex_line_buf)
  localparam int unsigned RawW      = $clog2(RawLines);
  localparam int unsigned FiW       = 1 + 1 + RawW + 1 + 16 + IdxW + 3 + 3;  // fill record (fi_t)
  localparam int unsigned PassDepth = 256;  // sub-passes between the tag stage and the data read
  localparam int unsigned FillDepth = 256;  // line requests in flight (not yet written)
  localparam int unsigned TSW       = $clog2(TexSlots);
  localparam int unsigned SSW       = $clog2(SampSlots);
  localparam int unsigned CntW      = 10;   // quads in flight per slot (< PassDepth + 16)
  localparam int unsigned InfoW     = 35 + TSW + SSW + 1;  // $bits(info_t)

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
    logic        hold;   // the quad holds its descriptor slots (not a token, addresses valid)
    logic [TSW-1:0] ts;  // its texture slot
    logic [SSW-1:0] ss;  // its sampler slot
  } info_t;

  // a fill record, in allocation order: a texel line for the L1, or a descriptor line
  // (desc: slot idx[SSW or TSW - 1:0] of the sampler (idx[IdxW-1] = 1) or texture slots, the
  // 32-byte half b53[2] = address bit 5). A record of a shared-line format (shared_cls: B5G6R5,
  // BC1, BC3) names its raw-line buffer entry: raw = 1, the line is already there (or on its way
  // under an earlier record) and no request was sent; raw = 0, a request was sent and its
  // response is kept in the entry. Every other record takes the next line response.
  typedef struct packed {
    logic            desc;
    logic            raw;     // take the line from raw-line buffer entry ent, not from memory
    logic [RawW-1:0] ent;
    logic            pend;    // the L1 line's last reader is still in flight
    logic [15:0]     lastrd;  // its sub-pass number
    logic [IdxW-1:0] idx;     // L1 line
    logic [2:0]      dclass;  // decode class of the line's texture
    logic [2:0]      b53;     // block address [5:3]
  } fi_t;

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
    logic [InfoW-1:0] info;    // info_t
  } sp_t;
  localparam int unsigned SpW = 177 + InfoW + 16 * IdxW;  // $bits(sp_t) (Yosys 0.55 has no $bits of a type; checked below)

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

  function automatic logic [12:0] lvl_dim(input logic [15:0] d, input logic [3:0] l);
    logic [15:0] s;
    s = d >> l;
    lvl_dim = (s == 16'd0) ? 13'd1 : s[12:0];
  endfunction

  // ---------------------------------------------------------------------------------- state
  // front (A)
  logic        a_valid_q, a_valid_d;
  pineda_pkg::tex_in_pkt_t a_pkt_q, a_pkt_d;
  logic        a_chain_q, a_chain_d;   // laying out the chain of the quad's texture slot
  logic [3:0]  cl_q, cl_d;             // chain: level being laid out
  logic [33:0] cur_q, cur_d;           // chain: start of that level
  // chain: its texture slot and that slot's fields, copied as the chain starts (the slot's
  // descriptor does not change while its chain is laid out), so the chain step reads registers
  // and not A's slot hit and descriptor multiplexer
  logic [TSW-1:0] ch_ts_q, ch_ts_d;
  logic [15:0] ch_w_q, ch_w_d, ch_h_q, ch_h_d;
  logic [31:0] ch_base_q, ch_base_d;
  logic [3:0]  ch_lvm1_q, ch_lvm1_d;   // levels - 1
  logic [6:0]  ch_bpb_q, ch_bpb_d;
  // texture slots: allocated (tag valid), descriptor arrived, checked (chain laid out), tag,
  // descriptor (tex_desc_t), fault of the checks, quads in flight, age (0: newest); their level
  // bases are in block RAM (u_lbase below)
  logic [TexSlots-1:0]        ts_tv_q, ts_tv_d, ts_arr_q, ts_arr_d, ts_ck_q, ts_ck_d;
  logic [TexSlots-1:0][31:0]  ts_addr_q, ts_addr_d;
  logic [TexSlots-1:0][255:0] ts_desc_q, ts_desc_d;
  logic [TexSlots-1:0][2:0]   ts_flt_q, ts_flt_d;
  logic [TexSlots-1:0][CntW-1:0] ts_cnt_q, ts_cnt_d;
  logic [TexSlots-1:0][TSW-1:0]  ts_age_q, ts_age_d;
  // sampler slots: allocated, arrived, tag, descriptor (samp_desc_t), quads in flight, age
  logic [SampSlots-1:0]        ss_tv_q, ss_tv_d, ss_arr_q, ss_arr_d;
  logic [SampSlots-1:0][31:0]  ss_addr_q, ss_addr_d;
  logic [SampSlots-1:0][255:0] ss_desc_q, ss_desc_d;
  logic [SampSlots-1:0][CntW-1:0] ss_cnt_q, ss_cnt_d;
  logic [SampSlots-1:0][SSW-1:0]  ss_age_q, ss_age_d;
  // B: level-0 coordinates
  logic        b_valid_q, b_valid_d;
  pineda_pkg::tex_in_pkt_t b_pkt_q, b_pkt_d;
  logic [2:0]  b_fault_q, b_fault_d;
  logic [3:0][31:0] b_pu_q, b_pu_d, b_pv_q, b_pv_d;  // u * W, v * H (FP32)
  logic        b_hold_q, b_hold_d;
  logic [TSW-1:0] b_ts_q, b_ts_d;
  logic [SSW-1:0] b_ss_q, b_ss_d;
  // Q: level-0 coordinates in fix16.8 (fp32_to_fix16_8 of B's products)
  logic        q_valid_q, q_valid_d;
  pineda_pkg::tex_in_pkt_t q_pkt_q, q_pkt_d;
  logic [2:0]  q_fault_q, q_fault_d;
  logic [3:0][23:0] q_x0_q, q_x0_d, q_y0_q, q_y0_d;
  logic        q_hold_q, q_hold_d;
  logic [TSW-1:0] q_ts_q, q_ts_d;
  logic [SSW-1:0] q_ss_q, q_ss_d;
  // S: the larger squared derivative length (the LOD's first half)
  logic        s_valid_q, s_valid_d;
  pineda_pkg::tex_in_pkt_t s_pkt_q, s_pkt_d;
  logic [2:0]  s_fault_q, s_fault_d;
  logic [49:0] s_rr_q, s_rr_d;
  logic        s_hold_q, s_hold_d;
  logic [TSW-1:0] s_ts_q, s_ts_d;
  logic [SSW-1:0] s_ss_q, s_ss_d;
  // C: LOD result
  logic        c_valid_q, c_valid_d, c_linear_q, c_linear_d, c_two_q, c_two_d, c_lv_q, c_lv_d;
  pineda_pkg::tex_in_pkt_t c_pkt_q, c_pkt_d;
  logic [2:0]  c_fault_q, c_fault_d;
  logic        c_hold_q, c_hold_d;
  logic [TSW-1:0] c_ts_q, c_ts_d;
  logic [SSW-1:0] c_ss_q, c_ss_d;
  logic [3:0]  c_l0_q, c_l0_d;
  logic [7:0]  c_f_q, c_f_d;
  // D: level coordinates
  logic        d_valid_q, d_valid_d;
  info_t       d_info_q, d_info_d;
  logic [3:0]  d_l_q, d_l_d;
  logic [12:0] d_lw_q, d_lw_d, d_lh_q, d_lh_d;  // the pass's level size
  // H: the address modes' first half (tex_amode_pre: i0, modulus, the first division steps)
  logic        h_valid_q, h_valid_d;
  info_t       h_info_q, h_info_d;
  logic [3:0]  h_l_q, h_l_d;
  logic [12:0] h_lw_q, h_lw_d, h_lh_q, h_lh_d;
  logic [2:0]  h_au_q, h_au_d, h_av_q, h_av_d;   // address modes
  logic [3:0][16:0] h_iu_q, h_iu_d, h_iv_q, h_iv_d;
  logic [13:0] h_du_q, h_du_d, h_dv_q, h_dv_d;
  logic [3:0][13:0] h_ru_q, h_ru_d, h_rv_q, h_rv_d;
  logic [3:0][7:0] h_fu_q, h_fu_d, h_fv_q, h_fv_d;
  logic [3:0][31:0] d_pu_q, d_pu_d, d_pv_q, d_pv_d;  // u * w_l, v * h_l (FP32)
  // E: address-moded indices
  logic        e_valid_q, e_valid_d;
  info_t       e_info_q, e_info_d;
  logic [3:0]  e_l_q, e_l_d;
  logic [3:0][1:0][12:0] e_xi_q, e_xi_d, e_yj_q, e_yj_d;
  logic [3:0][1:0] e_inu_q, e_inu_d, e_inv_q, e_inv_d;
  logic [3:0][7:0] e_fu_q, e_fu_d, e_fv_q, e_fv_d;
  // K: skid register between E and T. The front (A to E) advances when K is empty (a register,
  // not the tag stage's decision): E's pass then goes into T if T takes a pass this clock, else
  // into K (with its level base); while K holds a pass the front waits and T takes K's next.
  logic        k_valid_q, k_valid_d;
  info_t       k_info_q, k_info_d;
  logic [3:0]  k_l_q, k_l_d;
  logic [3:0][1:0][12:0] k_xi_q, k_xi_d, k_yj_q, k_yj_d;
  logic [3:0][1:0] k_inu_q, k_inu_d, k_inv_q, k_inv_d;
  logic [3:0][7:0] k_fu_q, k_fu_d, k_fv_q, k_fv_d;
  logic [32:0] k_lb_q, k_lb_d;
  // X: the pass next in line for T (K's, else E's)
  logic        x_valid;
  info_t       x_info;
  logic [3:0]  x_l;
  logic [3:0][1:0][12:0] x_xi, x_yj;
  logic [3:0][1:0] x_inu, x_inv;
  logic [3:0][7:0] x_fu, x_fv;
  logic [32:0] x_lb;
  // T: tag stage
  logic        t_valid_q, t_valid_d;
  info_t       t_info_q, t_info_d;
  logic [3:0][7:0] t_fu_q, t_fu_d, t_fv_q, t_fv_d;
  logic [15:0] t_fetch_q, t_fetch_d, t_border_q, t_border_d;
  logic [15:0][31:0] t_tag_q, t_tag_d;
  logic [15:0][IdxW-1:0] t_idx_q, t_idx_d;
  logic [15:0][1:0]  t_bank_q, t_bank_d, t_sel_q, t_sel_d, t_grp_q, t_grp_d;
  logic [15:0] t_rem_q, t_rem_d, t_sub_q, t_sub_d;
  logic [15:0]       t_lock_q, t_lock_d;  // taps whose lines the current sub-pass reads
  logic [15:0] alloc_cnt_q, alloc_cnt_d, emit_cnt_q, emit_cnt_d;     // lines allocated, sub-passes emitted
  logic        sp_valid_q, sp_valid_d;   // spill: the second line allocated in a clock
  logic [25:0] sp_rq_q, sp_rq_d;
  logic [FiW-1:0] sp_fi_q, sp_fi_d;
  logic        dq_valid_q, dq_valid_d;   // A's descriptor line request, pushed the clock after
  logic [25:0] dq_line_q, dq_line_d;
  logic [FiW-1:0] dq_fi_q, dq_fi_d;
  // L1 tags (future state): tex_tags (valid, {block addr [31:3], decode class}, last reader per line)
  // fill: stage G decodes and writes the L1 line of a record that read its raw-line buffer
  // entry in the clock before (its L1 line, decode class, block address [5:3])
  logic        g_valid_q, g_valid_d;
  logic [IdxW-1:0] g_idx_q, g_idx_d;
  logic [2:0]  g_cls_q, g_cls_d, g_b53_q, g_b53_d;
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
  logic        p_valid_q, p_valid_d;   // P: the pass's filtered channels (trilinear blend, colour)
  info_t       p_info_q, p_info_d;
  logic [3:0][3:0][15:0] p_bres_q, p_bres_d;
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
  stream_fifo #(.Sram(1'b1), .Depth(FillDepth), .Width(FiW)) u_fill_fifo (
    .clk_i, .rst_ni, .clear_i(1'b0),
    .in_valid_i(fi_in_valid), .in_ready_o(fi_in_ready), .in_data_i(fi_in_data),
    .out_valid_o(fi_out_valid), .out_ready_i(fi_out_ready), .out_data_o(fi_out_data),
    .count_o(fi_count), .empty_o(fi_empty), .full_o(fi_full)
  );

  // sub-passes from the tag stage to the data stage
  logic        pf_in_valid, pf_in_ready, pf_out_valid, pf_out_ready, pf_empty, pf_full;
  logic [SpW-1:0] pf_in_data, pf_out_data;
  logic [$clog2(PassDepth+2):0] pf_count;
  stream_fifo #(.Sram(1'b1), .Depth(PassDepth), .Width(SpW)) u_pass_fifo (
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
  // B: (u, v) of the four pixels times (W, H); D: times the level's (w_l, h_l). The sizes are
  // floats of 13-bit integers (i2f), so at most 13 significant bits: fp32_mul's narrow form.
  logic [3:0][31:0] m0_pu, m0_pv, m1_pu, m1_pv;
  logic [3:0][23:0] m0_fu, m0_fv, m1_fu, m1_fv;
  logic [31:0] m0_w, m0_h, m1_w, m1_h;
  logic [3:0]  c_l;
  logic [12:0] c_lw, c_lh;

  for (genvar p = 0; p < 4; p++) begin : g_mul
    fp32_mul #(.BSigW(13)) u_m0u (.a_i(a_pkt_q.tc[p][63:32]), .b_i(m0_w), .y_o(m0_pu[p]));
    fp32_mul #(.BSigW(13)) u_m0v (.a_i(a_pkt_q.tc[p][31:0]),  .b_i(m0_h), .y_o(m0_pv[p]));
    fp32_to_fix16_8 u_f0u (.a_i(b_pu_q[p]), .y_o(m0_fu[p]));
    fp32_to_fix16_8 u_f0v (.a_i(b_pv_q[p]), .y_o(m0_fv[p]));
    fp32_mul #(.BSigW(13)) u_m1u (.a_i(c_pkt_q.tc[p][63:32]), .b_i(m1_w), .y_o(m1_pu[p]));
    fp32_mul #(.BSigW(13)) u_m1v (.a_i(c_pkt_q.tc[p][31:0]),  .b_i(m1_h), .y_o(m1_pv[p]));
    fp32_to_fix16_8 u_f1u (.a_i(d_pu_q[p]), .y_o(m1_fu[p]));
    fp32_to_fix16_8 u_f1v (.a_i(d_pv_q[p]), .y_o(m1_fv[p]));
  end

  // ---------------------------------------------------------------------------------- slots
  // Each stage reads its quad's descriptors through the slot numbers it carries: A the hit slots
  // (a_th, a_sh), B b_ts / b_ss, C c_ts, D and E their info_t, F f_info_q.
  pineda_pkg::tex_desc_t  a_td, c_td, e_td, f_td;
  pineda_pkg::samp_desc_t a_sd, s_sd, d_sd, f_sd;
  pineda_pkg::tex_desc_t  s_td;
  logic           a_thit, a_shit;   // the quad in A: its descriptor addresses are allocated slots
  logic [TSW-1:0] a_th;
  logic [SSW-1:0] a_sh;
  always_comb begin
    a_thit = 1'b0;
    a_th = '0;
    for (int k = 0; k < TexSlots; k++) begin
      if (ts_tv_q[k] && ts_addr_q[k] == a_pkt_q.tex) begin
        a_thit = 1'b1;
        a_th = TSW'(k);
      end
    end
    a_shit = 1'b0;
    a_sh = '0;
    for (int k = 0; k < SampSlots; k++) begin
      if (ss_tv_q[k] && ss_addr_q[k] == a_pkt_q.samp) begin
        a_shit = 1'b1;
        a_sh = SSW'(k);
      end
    end
    a_td = pineda_pkg::tex_desc_t'(ts_desc_q[a_th]);
    a_sd = pineda_pkg::samp_desc_t'(ss_desc_q[a_sh]);
  end

  // the format's decode class, bytes per block and its log2
  function automatic logic [12:0] fmt_class(input logic [3:0] fmt);
    logic [12:0] r;
    unique case (fmt)
      pineda_pkg::TEX_FMT_BGRA8:  r = {3'd1, 7'd64, 3'd6};
      pineda_pkg::TEX_FMT_B5G6R5: r = {3'd2, 7'd32, 3'd5};
      pineda_pkg::TEX_FMT_BC1:    r = {3'd3, 7'd8,  3'd3};
      pineda_pkg::TEX_FMT_BC3:    r = {3'd4, 7'd16, 3'd4};
      default:                    r = {3'd0, 7'd64, 3'd6};  // RGBA8, RGBA8_SRGB
    endcase
    fmt_class = r;
  endfunction

  // decode classes whose 4x4 blocks are smaller than a 64-byte line (B5G6R5 2 blocks a line,
  // BC1 8, BC3 4): their lines go through the raw-line buffer
  function automatic logic shared_cls(input logic [2:0] dclass);
    shared_cls = dclass == 3'd2 || dclass == 3'd3 || dclass == 3'd4;
  endfunction

  always_comb begin
    s_td = pineda_pkg::tex_desc_t'(ts_desc_q[s_ts_q]);
    s_sd = pineda_pkg::samp_desc_t'(ss_desc_q[s_ss_q]);
    m0_w = i2f(a_td.width[12:0]);
    m0_h = i2f(a_td.height[12:0]);
    c_td = pineda_pkg::tex_desc_t'(ts_desc_q[c_ts_q]);
    c_l = c_l0_q + {3'd0, c_lv_q};
    c_lw = lvl_dim(c_td.width, c_l);
    c_lh = lvl_dim(c_td.height, c_l);
    m1_w = i2f(c_lw);
    m1_h = i2f(c_lh);
  end

  // ---------------------------------------------------------------------------------- comb
  logic [2:0]  e_dclass, e_bpb_lg, a_bpb_lg, a_dclass;  // a_bpb_lg, a_dclass, e_bpb: unused
  logic [6:0]  a_bpb, e_bpb;
  logic [511:0] rline, dline;
  logic [2:0]  d_cls, d_b53;
  fi_t         fhead;   // the fill record at the head
  logic [511:0] lb_rdata;

  always_comb begin
    {a_dclass, a_bpb, a_bpb_lg} = fmt_class(a_td.fmt);
    {e_dclass, e_bpb, e_bpb_lg} = fmt_class(e_td.fmt);
    rline = mem_rsp_i.rdata;
    fhead = fi_t'(fi_out_data);
    // the decoder serves stage G (a raw-line buffer entry read in the clock before) or else the
    // head record (the line response)
    dline = g_valid_q ? lb_rdata : rline;
    d_cls = g_valid_q ? g_cls_q : fhead.dclass;
    d_b53 = g_valid_q ? g_b53_q : fhead.b53;
  end

  // decode on fill: the line's block to the four parity banks' words (the record's class)
  tex_fill_decode u_fill_dec (
    .line_i   (dline),
    .b53_i    (d_b53),
    .dclass_i (d_cls),
    .wdata_o  (bk_wdata)
  );

  // A: descriptor checks and chain step; C: LOD of the quad in B
  logic        fa_tex, fa_samp, tex_static_bad, samp_bad, range_bad;
  logic [33:0] lend;
  logic        lod_linear, lod_two;
  logic [3:0]  lod_l0;
  logic [7:0]  lod_f;

  tex_desc_check u_desc (
    .tex_addr_i    (a_pkt_q.tex),
    .samp_addr_i   (a_pkt_q.samp),
    .valid_base_i  (valid_base_i),
    .valid_limit_i (valid_limit_i),
    .td_i          (a_td),
    .sd_i          (a_sd),
    .ch_w_i        (ch_w_q),
    .ch_h_i        (ch_h_q),
    .ch_base_i     (ch_base_q),
    .ch_bpb_i      (ch_bpb_q),
    .cl_i          (cl_q),
    .cur_i         (cur_q),
    .fa_tex_o      (fa_tex),
    .fa_samp_o     (fa_samp),
    .tex_bad_o     (tex_static_bad),
    .samp_bad_o    (samp_bad),
    .lend_o        (lend),
    .range_bad_o   (range_bad)
  );

  logic [49:0] lod_rr;
  tex_lod_sq u_lod_sq (
    .x0_i (q_x0_q),
    .y0_i (q_y0_q),
    .rr_o (lod_rr)
  );

  tex_lod u_lod (
    .rr_i     (s_rr_q),
    .sd_i     (s_sd),
    .levels_i (s_td.levels),
    .skip_i   (s_pkt_q.eop || s_fault_q != pineda_pkg::TEX_FAULT_NONE),
    .linear_o (lod_linear),
    .two_o    (lod_two),
    .l0_o     (lod_l0),
    .f_o      (lod_f)
  );

  // A: what the quad in A does this clock. A descriptor miss takes its slot now and leaves its
  // line request in the register dq (pushed the next clock, ahead of the tag stage's allocation,
  // which yields to dq_valid_q: a register, so the allocation no longer waits for A's checks).
  logic           pipe_empty, a_go, a_hold, a_push, a_push_ok, dq_push, a_talloc, a_salloc, a_cstart, a_tbad, a_inval;
  logic [2:0]     a_fault;
  logic [25:0]    a_push_line;
  logic [FiW-1:0] a_push_fi;
  logic           t_vok, s_vok;
  logic [TSW-1:0] t_vic;
  logic [SSW-1:0] s_vic;
  fi_t            a_fi;
  // The victim of a miss in each slot table (t_vok/s_vok: there is one).
  tex_slot_victim #(.Slots(TexSlots), .CntW(CntW)) u_t_victim (
    .cnt_i(ts_cnt_q), .valid_i(ts_tv_q), .age_i(ts_age_q), .ok_o(t_vok), .idx_o(t_vic));
  tex_slot_victim #(.Slots(SampSlots), .CntW(CntW)) u_s_victim (
    .cnt_i(ss_cnt_q), .valid_i(ss_tv_q), .age_i(ss_age_q), .ok_o(s_vok), .idx_o(s_vic));
  always_comb begin
    pipe_empty = !dq_valid_q && !b_valid_q && !q_valid_q && !s_valid_q && !c_valid_q && !d_valid_q && !h_valid_q && !e_valid_q && !k_valid_q && !t_valid_q && pf_empty &&
                 !r_valid_q && !f_valid_q && !p_valid_q && !o_valid_q && fi_empty && rq_empty &&
                 !sp_valid_q && !g_valid_q;
    // dq leaves this clock (the spill goes first), so A may fill it again: a texture and a
    // sampler miss of one quad still go out in consecutive clocks
    dq_push = dq_valid_q && !sp_valid_q && rq_in_ready && fi_in_ready;
    a_push_ok = !dq_valid_q || dq_push;
    a_go = 1'b0;
    a_hold = 1'b0;
    a_fault = pineda_pkg::TEX_FAULT_NONE;
    a_push = 1'b0;
    a_talloc = 1'b0;
    a_salloc = 1'b0;
    a_cstart = 1'b0;
    a_tbad = 1'b0;
    a_inval = 1'b0;
    a_push_line = '0;
    a_fi = '0;
    a_fi.desc = 1'b1;
    if (!a_valid_q) begin
      a_inval = inval_i && pipe_empty;
    end else if (a_chain_q) begin
      // laying out the chain (control below)
    end else if (a_pkt_q.eop) begin
      a_go = 1'b1;
    end else if (fa_tex || fa_samp) begin
      a_go = 1'b1;
      a_fault = pineda_pkg::TEX_FAULT_DESC_ADDR;
    end else if (!a_thit) begin
      // texture miss (and, the clock after, a sampler miss: both requests back to back)
      a_talloc = t_vok && a_push_ok;
      a_push = a_talloc;
      a_push_line = a_pkt_q.tex[31:6];
      a_fi.idx = IdxW'(t_vic);
      a_fi.b53 = a_pkt_q.tex[5:3];
    end else if (!a_shit) begin
      a_salloc = s_vok && a_push_ok;
      a_push = a_salloc;
      a_push_line = a_pkt_q.samp[31:6];
      a_fi.idx = IdxW'(s_vic);
      a_fi.idx[IdxW-1] = 1'b1;
      a_fi.b53 = a_pkt_q.samp[5:3];
    end else if (!ts_arr_q[a_th]) begin
      // the texture's line still on its way
    end else if (!ts_ck_q[a_th]) begin
      // the chain is laid out while the sampler's line may still be on its way (it comes the
      // clock after the texture's when both missed: one clock less per draw)
      a_cstart = 1'b1;
      a_tbad = tex_static_bad;
    end else if (!ss_arr_q[a_sh]) begin
      // the sampler's line still on its way
    end else begin
      a_go = 1'b1;
      a_hold = 1'b1;
      if (ts_flt_q[a_th] != pineda_pkg::TEX_FAULT_NONE) a_fault = ts_flt_q[a_th];
      else if (samp_bad) a_fault = pineda_pkg::TEX_FAULT_SAMP_DESC;
    end
    a_push_fi = a_fi;
  end

  // D, E, F: their quads' descriptors
  always_comb begin
    d_sd = pineda_pkg::samp_desc_t'(ss_desc_q[d_info_q.ss]);
    e_td = pineda_pkg::tex_desc_t'(ts_desc_q[x_info.ts]);  // (X's: K's, else E's)
    f_td = pineda_pkg::tex_desc_t'(ts_desc_q[f_info_q.ts]);
    f_sd = pineda_pkg::samp_desc_t'(ss_desc_q[f_info_q.ss]);
  end

  // H: the address modes' first half, of the pass in D (the index i0, the modulus and the
  // modulo's first division steps); E: the second half, of the pass in H
  localparam int unsigned AmSplit = 9;  // the dividend bits 16..AmSplit are divided in H
  logic [3:0][16:0] ap_iu, ap_iv;
  logic [13:0]      ap_du, ap_dv;
  logic [3:0][13:0] ap_ru, ap_rv;
  logic [3:0][7:0]  am_fu, am_fv;
  tex_amode_pre #(.Split(AmSplit)) u_amode_pre (
    .x_i      (m1_fu),
    .y_i      (m1_fv),
    .linear_i (d_info_q.linear),
    .lw_i     (d_lw_q),
    .lh_i     (d_lh_q),
    .addr_u_i (d_sd.addr_u),
    .addr_v_i (d_sd.addr_v),
    .iu_o     (ap_iu),
    .iv_o     (ap_iv),
    .du_o     (ap_du),
    .dv_o     (ap_dv),
    .ru_o     (ap_ru),
    .rv_o     (ap_rv),
    .fu_o     (am_fu),
    .fv_o     (am_fv)
  );
  logic [3:0][1:0][12:0] am_xi, am_yj;
  logic [3:0][1:0]       am_inu, am_inv;
  tex_amode #(.Split(AmSplit)) u_amode (
    .iu_i     (h_iu_q),
    .iv_i     (h_iv_q),
    .du_i     (h_du_q),
    .dv_i     (h_dv_q),
    .ru_i     (h_ru_q),
    .rv_i     (h_rv_q),
    .lw_i     (h_lw_q),
    .lh_i     (h_lh_q),
    .addr_u_i (h_au_q),
    .addr_v_i (h_av_q),
    .xi_o     (am_xi),
    .inu_o    (am_inu),
    .yj_o     (am_yj),
    .inv_o    (am_inv)
  );

  // the texture slots' level bases: one block RAM word per slot and level ({slot, level}),
  // written as stage A lays out a chain (one level a clock), read for the pass in H as it moves
  // to E (so lb_base is the base of E's slot and level for as long as E holds the pass). A slot
  // being laid out is used by no quad in flight (its count is 0), so a read of the word written
  // in the same clock only happens for a token or faulted quad, which reads no texels.
  logic [32:0] lb_base;
  always_comb begin
    x_valid = k_valid_q || e_valid_q;
    x_info = k_valid_q ? k_info_q : e_info_q;
    x_l = k_valid_q ? k_l_q : e_l_q;
    x_xi = k_valid_q ? k_xi_q : e_xi_q;
    x_yj = k_valid_q ? k_yj_q : e_yj_q;
    x_inu = k_valid_q ? k_inu_q : e_inu_q;
    x_inv = k_valid_q ? k_inv_q : e_inv_q;
    x_fu = k_valid_q ? k_fu_q : e_fu_q;
    x_fv = k_valid_q ? k_fv_q : e_fv_q;
    x_lb = k_valid_q ? k_lb_q : lb_base;
  end

  // T: block addresses, L1 index, tags, banks of the 16 taps of the pass in X (K, else E)
  logic [15:0] tp_fetch, tp_border;
  logic [15:0][31:0] tp_tag;
  logic [15:0][IdxW-1:0] tp_idx;
  logic [15:0][1:0]  tp_bank, tp_sel, tp_grp;
  tex_tap_addr #(.IdxW(IdxW)) u_tap_addr (
    .use_i    (!x_info.eop && x_info.fault == pineda_pkg::TEX_FAULT_NONE),
    .linear_i (x_info.linear),
    .live_i   (x_info.live),
    .width_i  (e_td.width),
    .lvl_i    (x_l),
    .lbase_i  (x_lb),
    .bpb_lg_i (e_bpb_lg),
    .dclass_i (e_dclass),
    .xi_i     (x_xi),
    .inu_i    (x_inu),
    .yj_i     (x_yj),
    .inv_i    (x_inv),
    .fetch_o  (tp_fetch),
    .border_o (tp_border),
    .tag_o    (tp_tag),
    .idx_o    (tp_idx),
    .bank_o   (tp_bank),
    .sel_o    (tp_sel),
    .grp_o    (tp_grp)
  );

  // T: the tag check of the pass in T
  logic [3:0][15:0] gmask;
  logic [1:0]  cur_g;
  logic [15:0] hv, cand, place, news, missv, rem_after, same, emask, cand2, same2, got;
  logic [3:0]  mtap2;
  logic        alloc2, has2, rd_pend2;
  logic [15:0] lockv, elock, lk;       // taps whose lines are locked (read by the sub-pass)
  logic [15:0][15:0] teq;              // teq[u][t]: taps u and t on one L1 line
  logic [15:0] efmark;
  logic [3:0]  mtap;
  logic        emit, alloc, t_last, t_done, t_take, front_adv, rd_pend;
  sp_t         sp_out;
  logic        tags_clear;
  logic [15:0] lastrd_m, lastrd_m2;
  tex_tags #(.IdxW(IdxW)) u_tags (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clear_i   (tags_clear),
    .load_i    (t_take),
    .ridx_i    (tp_idx),
    .idx_i     (t_idx_q),
    .tag_i     (t_tag_q),
    .hit_o     (hv),
    .we0_i     (alloc),
    .widx0_i   (t_idx_q[mtap]),
    .wtag0_i   (t_tag_q[mtap]),
    .we1_i     (alloc2),
    .widx1_i   (t_idx_q[mtap2]),
    .wtag1_i   (t_tag_q[mtap2]),
    .lr_idx0_i (t_idx_q[mtap]),
    .lr0_o     (lastrd_m),
    .lr_idx1_i (t_idx_q[mtap2]),
    .lr1_o     (lastrd_m2),
    .lr_we_i   (emit),
    .lr_mask_i (elock),
    .lr_val_i  (emit_cnt_q)
  );
  always_comb begin
    for (int g = 0; g < 4; g++) begin
      for (int t = 0; t < 16; t++) gmask[g][t] = (t_grp_q[t] == 2'(g));
    end
    cur_g = 2'd0;
    for (int g = 3; g >= 0; g--) begin
      if ((t_rem_q & gmask[g]) != 16'd0) cur_g = 2'(g);
    end
    cand = t_rem_q & gmask[cur_g];
    place = cand & ~t_sub_q & hv;
    news = t_sub_q | place;
    // the lines the sub-pass reads, as the taps on them: a line is locked when a tap on it is
    for (int u = 0; u < 16; u++) begin
      for (int t = 0; t < 16; t++) teq[u][t] = t_idx_q[u] == t_idx_q[t];
    end
    lockv = t_lock_q | place;
    for (int u = 0; u < 16; u++) lk[u] = (lockv & teq[u]) != 16'd0;
    missv = cand & ~news;
    mtap = 4'd0;
    for (int t = 15; t >= 0; t--) begin
      if (missv[t]) mtap = 4'(t);
    end
    // the missing taps on the allocated tap's line
    for (int t = 0; t < 16; t++) same[t] = missv[t] && teq[mtap][t] && t_tag_q[t] == t_tag_q[mtap];
    // a second missing line at another index (allocated in the same clock, its request and fill
    // record pushed the next clock from the spill register)
    for (int t = 0; t < 16; t++) cand2[t] = missv[t] && !teq[mtap][t];
    mtap2 = 4'd0;
    for (int t = 15; t >= 0; t--) begin
      if (cand2[t]) mtap2 = 4'(t);
    end
    has2 = cand2 != 16'd0;
    for (int t = 0; t < 16; t++) same2[t] = missv[t] && teq[mtap2][t] && t_tag_q[t] == t_tag_q[mtap2];
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
      end else if (lk[mtap]) begin
        emit = pf_in_ready;
      end else begin
        alloc = rq_in_ready && fi_in_ready && !sp_valid_q && !dq_valid_q;
        alloc2 = alloc && has2 && !lk[mtap2];
        got = same | (alloc2 ? same2 : 16'd0);
        // the sub-pass's last missing lines: allocate and emit in one clock
        if (alloc && (missv & ~got) == 16'd0) begin
          emit = pf_in_ready;
          emask = news | got;
          elock[mtap] = 1'b1;
          if (alloc2) elock[mtap2] = 1'b1;
          efmark = alloc_cnt_q + (alloc2 ? 16'd2 : 16'd1);
        end
      end
    end
    rem_after = t_rem_q & ~emask;
    t_last = (rem_after == 16'd0);
    t_done = emit && t_last;
    t_take = !t_valid_q || t_done;  // T takes X's pass at the next edge
    front_adv = !k_valid_q;         // the front (A to E) moves: E's pass goes to T or K

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
  end

  // (the level-base RAM u_lbase: its read moves with front_adv)
  sram_1r1w #(.Width(33), .Depth((1 << TSW) * 16), .MaskW(1)) u_lbase (
    .clk_i   (clk_i),
    .we_i    (a_valid_q && a_chain_q),
    .waddr_i ({ch_ts_q, cl_q}),
    .wdata_i (cur_q[32:0]),
    .wmask_i (1'b1),
    .re_i    (front_adv),
    .raddr_i ({h_info_q.ts, h_l_q}),
    .rdata_o (lb_base)
  );

  // the allocations' fill records (the last readers come from tex_tags at the allocated lines:
  // a block of its own, after the tag check that picks the lines), and the raw-line buffer
  // lookup of the record pushed this clock
  logic        push, push_shared, lb_hit;
  logic [25:0] push_line, lb_line;
  logic [RawW-1:0] lb_ent;
  fi_t         push_base, push_fi, m_fi, m_fi2;
  always_comb begin
    rd_pend = 16'(lastrd_m - rd_cnt_q) < 16'(emit_cnt_q - rd_cnt_q);
    rd_pend2 = 16'(lastrd_m2 - rd_cnt_q) < 16'(emit_cnt_q - rd_cnt_q);
    m_fi = '0;
    m_fi.pend = rd_pend;
    m_fi.lastrd = lastrd_m;
    m_fi.idx = t_idx_q[mtap];
    m_fi.dclass = t_tag_q[mtap][2:0];  // tag [31:3] = block address [31:3], tag [2:0] = class
    m_fi.b53 = t_tag_q[mtap][5:3];
    m_fi2 = '0;
    m_fi2.pend = rd_pend2;
    m_fi2.lastrd = lastrd_m2;
    m_fi2.idx = t_idx_q[mtap2];
    m_fi2.dclass = t_tag_q[mtap2][2:0];
    m_fi2.b53 = t_tag_q[mtap2][5:3];
    // one record a clock: the spill first, then a descriptor line of stage A, then the tag
    // stage's allocation (each waits for room in both FIFOs)
    push = (sp_valid_q && rq_in_ready && fi_in_ready) || alloc || dq_push;
    if (sp_valid_q) begin
      push_line = sp_rq_q;
      push_base = fi_t'(sp_fi_q);
    end else if (dq_valid_q) begin
      push_line = dq_line_q;
      push_base = fi_t'(dq_fi_q);
    end else begin
      push_line = t_tag_q[mtap][31:6];
      push_base = m_fi;
    end
    push_shared = !push_base.desc && shared_cls(push_base.dclass);
    // the raw-line buffer's lookup line: a descriptor line (dq) is never shared, so the
    // lookup reads the spill or the allocation only, off the path from A's descriptor checks
    lb_line = sp_valid_q ? sp_rq_q : t_tag_q[mtap][31:6];
    sp_valid_d = sp_valid_q && !(rq_in_ready && fi_in_ready);
    dq_valid_d = (dq_valid_q && !dq_push) || a_push;
    dq_line_d = a_push ? a_push_line : dq_line_q;
    dq_fi_d = a_push ? a_push_fi : dq_fi_q;
    sp_rq_d = sp_rq_q;
    sp_fi_d = sp_fi_q;
    if (alloc2) begin
      sp_valid_d = 1'b1;
      sp_rq_d = t_tag_q[mtap2][31:6];
      sp_fi_d = m_fi2;
    end
  end

  // a texel line of a shared-line format: a line the buffer holds (or has requested) sends no
  // request (a block of its own: the lookup reads the pushed line)
  always_comb begin
    push_fi = push_base;
    push_fi.raw = push_shared && lb_hit;
    push_fi.ent = push_shared ? lb_ent : '0;
    fi_in_valid = push;
    fi_in_data = push_fi;
    rq_in_valid = push && !push_fi.raw;
    rq_in_data = push_line;
  end

  // raw-line buffer: tags looked up at the push; data written and read by the fill (below)
  logic        lb_we, lb_re;
  logic [RawW-1:0] lb_waddr, lb_raddr;
  tex_line_buf #(.Lines(RawLines)) u_line_buf (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clear_i (tags_clear),
    .look_i  (push && push_shared),
    .line_i  (lb_line),
    .hit_o   (lb_hit),
    .ent_o   (lb_ent),
    .we_i    (lb_we),
    .waddr_i (lb_waddr),
    .wdata_i (rline),
    .re_i    (lb_re),
    .raddr_i (lb_raddr),
    .rdata_o (lb_rdata)
  );

  // F's sRGB linear values: one SRGB_TO_TEX12 ROM per tap and colour channel, read with the texels
  // that load stage F (R -> F), so f_lin is SRGB_TO_TEX12 of f_tex_q's codes while F holds them
  logic        f_load;
  logic [15:0][31:0] mt;
  logic [15:0][2:0][11:0] f_lin;
  for (genvar t = 0; t < 16; t++) begin : g_lin
    for (genvar c = 0; c < 3; c++) begin : g_ch
      sram_rom #(
        .Width(12),
        .Depth(256),
        .Init (pineda_pkg::SRGB_TO_TEX12)
      ) u_lin (
        .clk_i,
        .re_i   (f_load),
        .addr_i (mt[t][8*c +: 8]),
        .rdata_o(f_lin[t][c])
      );
    end
  end

  // data stage, filter, output
  sp_t         head;
  logic        adv, fill_rdy, fill_now, read_now;
  logic [3:0][3:0][15:0] bres;
  logic [3:0][31:0] pcol;
  info_t       r_info;
  tex_filter u_filter (
    .tex_i          (f_tex_q),
    .border_i       (f_border_q),
    .border_color_i (f_sd.border),
    .srgb_i         (f_td.fmt == pineda_pkg::TEX_FMT_RGBA8_SRGB),
    .lin_i          (f_lin),
    .fu_i           (f_fu_q),
    .fv_i           (f_fv_q),
    .linear_i       (f_info_q.linear),
    .bres_o         (bres)
  );
  tex_filter_out u_filter_out (
    .bres_i  (p_bres_q),
    .two_i   (p_info_q.two),
    .f_i     (p_info_q.f),
    .b0_i    (b0_q),
    .color_o (pcol)
  );
  always_comb begin
    head = sp_t'(pf_out_data);
    adv = !o_valid_q || out_ready_i;
    // a descriptor line has no reader to wait for; it is written into its slot (control below).
    // A texel record that takes the next response decodes it and writes its L1 line now (and,
    // of a shared-line format, keeps the line in its raw-line buffer entry); one that takes its
    // line from the buffer reads the entry now and stage G decodes and writes the L1 line the
    // next clock, when a record of the first kind waits (one decoder, one L1 write a clock;
    // L1 writes stay in record order).
    fill_rdy = fi_out_valid && (fhead.desc || !fhead.pend || $signed(16'(rd_cnt_q - fhead.lastrd)) > 0) &&
               (fhead.desc || fhead.raw || !g_valid_q);
    fill_now = fill_rdy && (fhead.raw || mem_rsp_valid_i);
    lb_we = fill_now && !fhead.desc && !fhead.raw && shared_cls(fhead.dclass);
    lb_re = fill_now && fhead.raw;
    lb_waddr = fhead.ent;
    lb_raddr = fhead.ent;
    read_now = pf_out_valid && $signed(16'(wr_cnt_q - head.fmark)) >= 0 && adv;
    bk_we = g_valid_q || (fill_now && !fhead.desc && !fhead.raw);
    bk_waddr = g_valid_q ? g_idx_q : fhead.idx;
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
    f_load = adv && r_valid_q && r_rec_q.last;  // (the condition under which R -> F loads f_tex_q)
    for (int t = 0; t < 16; t++) begin
      mt[t] = r_rec_q.mask[t] ? bk_rdata[4*(t/4) + 32'(r_rec_q.bank[t])][32*r_rec_q.sel[t] +: 32] : tb_q[t];
    end

  end

  // ---------------------------------------------------------------------------------- control
  logic b_mv, c_acc, in_fire, f_last, t_touch, s_touch;
  logic [TSW-1:0] t_tidx;
  logic [SSW-1:0] s_tidx;
  always_comb begin
    a_valid_d = a_valid_q;
    a_pkt_d = a_pkt_q;
    a_chain_d = a_chain_q;
    cl_d = cl_q;
    cur_d = cur_q;
    ch_ts_d = ch_ts_q;
    ch_w_d = ch_w_q;
    ch_h_d = ch_h_q;
    ch_base_d = ch_base_q;
    ch_lvm1_d = ch_lvm1_q;
    ch_bpb_d = ch_bpb_q;
    ts_tv_d = ts_tv_q;
    ts_arr_d = ts_arr_q;
    ts_ck_d = ts_ck_q;
    ts_addr_d = ts_addr_q;
    ts_desc_d = ts_desc_q;
    ts_flt_d = ts_flt_q;
    ts_cnt_d = ts_cnt_q;
    ts_age_d = ts_age_q;
    ss_tv_d = ss_tv_q;
    ss_arr_d = ss_arr_q;
    ss_addr_d = ss_addr_q;
    ss_desc_d = ss_desc_q;
    ss_cnt_d = ss_cnt_q;
    ss_age_d = ss_age_q;
    b_valid_d = b_valid_q;
    b_pkt_d = b_pkt_q;
    b_fault_d = b_fault_q;
    b_pu_d = b_pu_q;
    b_pv_d = b_pv_q;
    b_hold_d = b_hold_q;
    b_ts_d = b_ts_q;
    b_ss_d = b_ss_q;
    q_valid_d = q_valid_q;
    q_pkt_d = q_pkt_q;
    q_fault_d = q_fault_q;
    q_x0_d = q_x0_q;
    q_y0_d = q_y0_q;
    q_hold_d = q_hold_q;
    q_ts_d = q_ts_q;
    q_ss_d = q_ss_q;
    s_valid_d = s_valid_q;
    s_pkt_d = s_pkt_q;
    s_fault_d = s_fault_q;
    s_rr_d = s_rr_q;
    s_hold_d = s_hold_q;
    s_ts_d = s_ts_q;
    s_ss_d = s_ss_q;
    c_valid_d = c_valid_q;
    c_pkt_d = c_pkt_q;
    c_fault_d = c_fault_q;
    c_hold_d = c_hold_q;
    c_ts_d = c_ts_q;
    c_ss_d = c_ss_q;
    c_linear_d = c_linear_q;
    c_two_d = c_two_q;
    c_lv_d = c_lv_q;
    c_l0_d = c_l0_q;
    c_f_d = c_f_q;
    d_valid_d = d_valid_q;
    d_info_d = d_info_q;
    d_l_d = d_l_q;
    d_lw_d = d_lw_q;
    d_lh_d = d_lh_q;
    h_valid_d = h_valid_q;
    h_info_d = h_info_q;
    h_l_d = h_l_q;
    h_lw_d = h_lw_q;
    h_lh_d = h_lh_q;
    h_au_d = h_au_q;
    h_av_d = h_av_q;
    h_iu_d = h_iu_q;
    h_iv_d = h_iv_q;
    h_du_d = h_du_q;
    h_dv_d = h_dv_q;
    h_ru_d = h_ru_q;
    h_rv_d = h_rv_q;
    h_fu_d = h_fu_q;
    h_fv_d = h_fv_q;
    d_pu_d = d_pu_q;
    d_pv_d = d_pv_q;
    e_valid_d = e_valid_q;
    e_info_d = e_info_q;
    e_l_d = e_l_q;
    e_xi_d = e_xi_q;
    e_yj_d = e_yj_q;
    e_inu_d = e_inu_q;
    e_inv_d = e_inv_q;
    e_fu_d = e_fu_q;
    e_fv_d = e_fv_q;
    k_valid_d = k_valid_q;
    k_info_d = k_info_q;
    k_l_d = k_l_q;
    k_xi_d = k_xi_q;
    k_yj_d = k_yj_q;
    k_inu_d = k_inu_q;
    k_inv_d = k_inv_q;
    k_fu_d = k_fu_q;
    k_fv_d = k_fv_q;
    k_lb_d = k_lb_q;
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
    g_valid_d = 1'b0;
    g_idx_d = g_idx_q;
    g_cls_d = g_cls_q;
    g_b53_d = g_b53_q;
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
    p_valid_d = p_valid_q;
    p_info_d = p_info_q;
    p_bres_d = p_bres_q;
    o_valid_d = o_valid_q;
    o_d = o_q;
    mem_rsp_ready_o = 1'b0;
    tap_o = 5'd0;
    miss_o = {alloc2, alloc && !alloc2};
    tags_clear = 1'b0;

    // ---- A: the descriptor slots
    if (a_inval) begin
      ts_tv_d = '0;
      ts_arr_d = '0;
      ts_ck_d = '0;
      ss_tv_d = '0;
      ss_arr_d = '0;
      tags_clear = 1'b1;
    end
    if (a_talloc) begin
      ts_tv_d[t_vic] = 1'b1;
      ts_arr_d[t_vic] = 1'b0;
      ts_ck_d[t_vic] = 1'b0;
      ts_addr_d[t_vic] = a_pkt_q.tex;
    end
    if (a_salloc) begin
      ss_tv_d[s_vic] = 1'b1;
      ss_arr_d[s_vic] = 1'b0;
      ss_addr_d[s_vic] = a_pkt_q.samp;
    end
    if (a_cstart) begin
      cl_d = 4'd0;
      cur_d = {2'd0, a_td.base};
      ch_ts_d = a_th;
      ch_w_d = a_td.width;
      ch_h_d = a_td.height;
      ch_base_d = a_td.base;
      ch_lvm1_d = a_td.levels - 4'd1;
      ch_bpb_d = a_bpb;
      if (a_tbad) begin
        ts_flt_d[a_th] = pineda_pkg::TEX_FAULT_TEX_DESC;
        ts_ck_d[a_th] = 1'b1;
      end else begin
        a_chain_d = 1'b1;
      end
    end
    if (a_valid_q && a_chain_q) begin
      // one level per clock into the slot's level bases
      // (level base cur_q[32:0] written into u_lbase at {ch_ts_q, cl_q}; ch_ts_q = a_th)
      cur_d = (lend + 34'd63) & ~34'd63;
      cl_d = cl_q + 4'd1;
      if (cl_q == ch_lvm1_q) begin
        ts_ck_d[ch_ts_q] = 1'b1;
        ts_flt_d[ch_ts_q] = range_bad ? pineda_pkg::TEX_FAULT_TEX_RANGE : pineda_pkg::TEX_FAULT_NONE;
        a_chain_d = 1'b0;
      end
    end
    // descriptor lines land in their slots, in request order with the texel lines
    if (fill_now && fhead.desc) begin
      if (fhead.idx[IdxW-1]) begin
        ss_desc_d[SSW'(fhead.idx)] = fhead.b53[2] ? rline[511:256] : rline[255:0];
        ss_arr_d[SSW'(fhead.idx)] = 1'b1;
      end else begin
        ts_desc_d[TSW'(fhead.idx)] = fhead.b53[2] ? rline[511:256] : rline[255:0];
        ts_arr_d[TSW'(fhead.idx)] = 1'b1;
      end
    end

    // ---- the front pipeline A -> B -> C -> D -> E -> T moves when T takes the next pass
    c_acc = !c_valid_q || !(c_two_q && !c_lv_q);
    b_mv = front_adv && c_acc;
    in_ready_o = (!a_valid_q || (a_go && b_mv)) && !inval_i;
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
      b_pu_d = m0_pu;
      b_pv_d = m0_pv;
      b_hold_d = a_hold;
      b_ts_d = a_th;
      b_ss_d = a_sh;
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
      d_info_d.hold = c_hold_q;
      d_info_d.ts = c_ts_q;
      d_info_d.ss = c_ss_q;
      d_l_d = c_l;
      d_lw_d = c_lw;
      d_lh_d = c_lh;
      d_pu_d = m1_pu;
      d_pv_d = m1_pv;
      if (c_valid_q && !c_acc) c_lv_d = 1'b1;
      // D -> H
      h_valid_d = d_valid_q;
      h_info_d = d_info_q;
      h_l_d = d_l_q;
      h_lw_d = d_lw_q;
      h_lh_d = d_lh_q;
      h_au_d = d_sd.addr_u;
      h_av_d = d_sd.addr_v;
      h_iu_d = ap_iu;
      h_iv_d = ap_iv;
      h_du_d = ap_du;
      h_dv_d = ap_dv;
      h_ru_d = ap_ru;
      h_rv_d = ap_rv;
      h_fu_d = am_fu;
      h_fv_d = am_fv;
      // H -> E
      e_valid_d = h_valid_q;
      e_info_d = h_info_q;
      e_l_d = h_l_q;
      e_xi_d = am_xi;
      e_inu_d = am_inu;
      e_yj_d = am_yj;
      e_inv_d = am_inv;
      e_fu_d = h_fu_q;
      e_fv_d = h_fv_q;
      // E -> K when T does not take it now (E -> T below)
      if (!t_take) begin
        k_valid_d = e_valid_q;
        k_info_d = e_info_q;
        k_l_d = e_l_q;
        k_xi_d = e_xi_q;
        k_yj_d = e_yj_q;
        k_inu_d = e_inu_q;
        k_inv_d = e_inv_q;
        k_fu_d = e_fu_q;
        k_fv_d = e_fv_q;
        k_lb_d = lb_base;
      end
    end
    if (t_take) begin
      // X -> T: K's pass (the front waits this clock), else E's (the front moves)
      k_valid_d = 1'b0;
      t_valid_d = x_valid;
      t_info_d = x_info;
      t_fu_d = x_fu;
      t_fv_d = x_fv;
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
      // B -> Q
      q_valid_d = b_valid_q;
      q_pkt_d = b_pkt_q;
      q_fault_d = b_fault_q;
      q_x0_d = m0_fu;
      q_y0_d = m0_fv;
      q_hold_d = b_valid_q && b_hold_q;
      q_ts_d = b_ts_q;
      q_ss_d = b_ss_q;
      // Q -> S
      s_valid_d = q_valid_q;
      s_pkt_d = q_pkt_q;
      s_fault_d = q_fault_q;
      s_rr_d = lod_rr;
      s_hold_d = q_valid_q && q_hold_q;
      s_ts_d = q_ts_q;
      s_ss_d = q_ss_q;
      // S -> C
      c_valid_d = s_valid_q;
      c_pkt_d = s_pkt_q;
      c_fault_d = s_fault_q;
      c_linear_d = lod_linear;
      c_two_d = lod_two;
      c_l0_d = lod_l0;
      c_f_d = lod_f;
      c_lv_d = 1'b0;
      c_hold_d = s_valid_q && s_hold_q;
      c_ts_d = s_ts_q;
      c_ss_d = s_ss_q;
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
          t_lock_d[mtap] = 1'b1;
          if (alloc2) t_lock_d[mtap2] = 1'b1;
        end
      end
    end
    // (the tags, valid bits and last readers of the allocated lines: tex_tags)
    if (emit) emit_cnt_d = emit_cnt_q + 16'd1;
    if (alloc) alloc_cnt_d = alloc_cnt_q + (alloc2 ? 16'd2 : 16'd1);

    // ---- data stage: fills of the head sub-pass, then its read
    if (fill_rdy && !fhead.raw) mem_rsp_ready_o = 1'b1;
    if (fill_now && fhead.raw) begin
      g_valid_d = 1'b1;
      g_idx_d = fhead.idx;
      g_cls_d = fhead.dclass;
      g_b53_d = fhead.b53;
    end
    if (bk_we) wr_cnt_d = wr_cnt_q + 16'd1;
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
      // F -> P
      p_valid_d = f_valid_q;
      p_info_d = f_info_q;
      p_bres_d = bres;
      // P -> O
      o_valid_d = 1'b0;
      if (p_valid_q) begin
        if (p_info_q.two && !p_info_q.lv) begin
          b0_d = p_bres_q;
        end else begin
          o_valid_d = 1'b1;
          o_d = '0;
          o_d.eop = p_info_q.eop;
          if (!p_info_q.eop) begin
            o_d.live = p_info_q.live;
            o_d.tag = p_info_q.tag;
            o_d.fault = p_info_q.fault;
            for (int p = 0; p < 4; p++) begin
              if (p_info_q.live[p] && p_info_q.fault == pineda_pkg::TEX_FAULT_NONE) o_d.color[p] = pcol[p];
            end
          end
        end
      end
    end

    // ---- slot use: a quad holds its slots from A until its last pass leaves F; a slot used
    // (or allocated) becomes the newest
    f_last = adv && f_valid_q && f_info_q.hold && !(f_info_q.two && !f_info_q.lv);
    for (int k = 0; k < TexSlots; k++) begin
      ts_cnt_d[k] = ts_cnt_q[k] + CntW'(a_go && b_mv && a_hold && a_th == TSW'(k))
                                - CntW'(f_last && f_info_q.ts == TSW'(k));
    end
    for (int k = 0; k < SampSlots; k++) begin
      ss_cnt_d[k] = ss_cnt_q[k] + CntW'(a_go && b_mv && a_hold && a_sh == SSW'(k))
                                - CntW'(f_last && f_info_q.ss == SSW'(k));
    end
    t_touch = a_talloc || (a_go && b_mv && a_hold);
    t_tidx = a_talloc ? t_vic : a_th;
    s_touch = a_salloc || (a_go && b_mv && a_hold);
    s_tidx = a_salloc ? s_vic : a_sh;
    if (t_touch) begin
      for (int k = 0; k < TexSlots; k++) begin
        if (ts_age_q[k] < ts_age_q[t_tidx]) ts_age_d[k] = ts_age_q[k] + TSW'(1);
      end
      ts_age_d[t_tidx] = '0;
    end
    if (s_touch) begin
      for (int k = 0; k < SampSlots; k++) begin
        if (ss_age_q[k] < ss_age_q[s_tidx]) ss_age_d[k] = ss_age_q[k] + SSW'(1);
      end
      ss_age_d[s_tidx] = '0;
    end
  end

  always_comb begin
    out_valid_o = o_valid_q;
    out_o = o_q;
    fault_o = o_valid_q && out_ready_i && o_q.fault != pineda_pkg::TEX_FAULT_NONE;
    fault_cause_o = o_q.fault;
    mem_req_valid_o = rq_out_valid;
    mem_req_o = '0;
    mem_req_o.addr = {rq_out_data, 6'd0};
    rq_out_ready = mem_req_ready_i;
    idle_o = pipe_empty && !a_valid_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_pkt_q <= '0;
      a_chain_q <= 1'b0;
      cl_q <= '0;
      cur_q <= '0;
      ch_ts_q <= '0;
      ch_w_q <= '0;
      ch_h_q <= '0;
      ch_base_q <= '0;
      ch_lvm1_q <= '0;
      ch_bpb_q <= '0;
      ts_tv_q <= '0;
      ts_arr_q <= '0;
      ts_ck_q <= '0;
      ts_addr_q <= '0;
      ts_desc_q <= '0;
      ts_flt_q <= '0;
      ts_cnt_q <= '0;
      for (int k = 0; k < TexSlots; k++) ts_age_q[k] <= TSW'(k);
      ss_tv_q <= '0;
      ss_arr_q <= '0;
      ss_addr_q <= '0;
      ss_desc_q <= '0;
      ss_cnt_q <= '0;
      for (int k = 0; k < SampSlots; k++) ss_age_q[k] <= SSW'(k);
      b_valid_q <= 1'b0;
      b_pkt_q <= '0;
      b_fault_q <= '0;
      b_pu_q <= '0;
      b_pv_q <= '0;
      q_valid_q <= 1'b0;
      q_pkt_q <= '0;
      q_fault_q <= '0;
      q_x0_q <= '0;
      q_y0_q <= '0;
      q_hold_q <= 1'b0;
      q_ts_q <= '0;
      q_ss_q <= '0;
      b_hold_q <= 1'b0;
      b_ts_q <= '0;
      b_ss_q <= '0;
      s_valid_q <= 1'b0;
      s_pkt_q <= '0;
      s_fault_q <= '0;
      s_rr_q <= '0;
      s_hold_q <= 1'b0;
      s_ts_q <= '0;
      s_ss_q <= '0;
      c_valid_q <= 1'b0;
      c_pkt_q <= '0;
      c_fault_q <= '0;
      c_hold_q <= 1'b0;
      c_ts_q <= '0;
      c_ss_q <= '0;
      c_linear_q <= 1'b0;
      c_two_q <= 1'b0;
      c_lv_q <= 1'b0;
      c_l0_q <= '0;
      c_f_q <= '0;
      d_valid_q <= 1'b0;
      d_info_q <= '0;
      d_l_q <= '0;
      d_lw_q <= '0;
      d_lh_q <= '0;
      h_valid_q <= 1'b0;
      h_info_q <= '0;
      h_l_q <= '0;
      h_lw_q <= '0;
      h_lh_q <= '0;
      h_au_q <= '0;
      h_av_q <= '0;
      h_iu_q <= '0;
      h_iv_q <= '0;
      h_du_q <= '0;
      h_dv_q <= '0;
      h_ru_q <= '0;
      h_rv_q <= '0;
      h_fu_q <= '0;
      h_fv_q <= '0;
      d_pu_q <= '0;
      d_pv_q <= '0;
      e_valid_q <= 1'b0;
      e_info_q <= '0;
      e_l_q <= '0;
      e_xi_q <= '0;
      e_yj_q <= '0;
      e_inu_q <= '0;
      e_inv_q <= '0;
      e_fu_q <= '0;
      e_fv_q <= '0;
      k_valid_q <= 1'b0;
      k_info_q <= '0;
      k_l_q <= '0;
      k_xi_q <= '0;
      k_yj_q <= '0;
      k_inu_q <= '0;
      k_inv_q <= '0;
      k_fu_q <= '0;
      k_fv_q <= '0;
      k_lb_q <= '0;
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
      sp_valid_q <= 1'b0;
      dq_valid_q <= 1'b0;
      dq_line_q <= '0;
      dq_fi_q <= '0;
      sp_rq_q <= '0;
      sp_fi_q <= '0;
      g_valid_q <= 1'b0;
      g_idx_q <= '0;
      g_cls_q <= '0;
      g_b53_q <= '0;
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
      p_valid_q <= 1'b0;
      p_info_q <= '0;
      p_bres_q <= '0;
      o_valid_q <= 1'b0;
      o_q <= '0;
    end else begin
      a_valid_q <= a_valid_d;
      a_pkt_q <= a_pkt_d;
      a_chain_q <= a_chain_d;
      cl_q <= cl_d;
      cur_q <= cur_d;
      ch_ts_q <= ch_ts_d;
      ch_w_q <= ch_w_d;
      ch_h_q <= ch_h_d;
      ch_base_q <= ch_base_d;
      ch_lvm1_q <= ch_lvm1_d;
      ch_bpb_q <= ch_bpb_d;
      ts_tv_q <= ts_tv_d;
      ts_arr_q <= ts_arr_d;
      ts_ck_q <= ts_ck_d;
      ts_addr_q <= ts_addr_d;
      ts_desc_q <= ts_desc_d;
      ts_flt_q <= ts_flt_d;
      ts_cnt_q <= ts_cnt_d;
      ts_age_q <= ts_age_d;
      ss_tv_q <= ss_tv_d;
      ss_arr_q <= ss_arr_d;
      ss_addr_q <= ss_addr_d;
      ss_desc_q <= ss_desc_d;
      ss_cnt_q <= ss_cnt_d;
      ss_age_q <= ss_age_d;
      b_valid_q <= b_valid_d;
      b_pkt_q <= b_pkt_d;
      b_fault_q <= b_fault_d;
      b_pu_q <= b_pu_d;
      b_pv_q <= b_pv_d;
      q_valid_q <= q_valid_d;
      q_pkt_q <= q_pkt_d;
      q_fault_q <= q_fault_d;
      q_x0_q <= q_x0_d;
      q_y0_q <= q_y0_d;
      q_hold_q <= q_hold_d;
      q_ts_q <= q_ts_d;
      q_ss_q <= q_ss_d;
      b_hold_q <= b_hold_d;
      b_ts_q <= b_ts_d;
      b_ss_q <= b_ss_d;
      s_valid_q <= s_valid_d;
      s_pkt_q <= s_pkt_d;
      s_fault_q <= s_fault_d;
      s_rr_q <= s_rr_d;
      s_hold_q <= s_hold_d;
      s_ts_q <= s_ts_d;
      s_ss_q <= s_ss_d;
      c_valid_q <= c_valid_d;
      c_pkt_q <= c_pkt_d;
      c_fault_q <= c_fault_d;
      c_hold_q <= c_hold_d;
      c_ts_q <= c_ts_d;
      c_ss_q <= c_ss_d;
      c_linear_q <= c_linear_d;
      c_two_q <= c_two_d;
      c_lv_q <= c_lv_d;
      c_l0_q <= c_l0_d;
      c_f_q <= c_f_d;
      d_valid_q <= d_valid_d;
      d_info_q <= d_info_d;
      d_l_q <= d_l_d;
      d_lw_q <= d_lw_d;
      d_lh_q <= d_lh_d;
      h_valid_q <= h_valid_d;
      h_info_q <= h_info_d;
      h_l_q <= h_l_d;
      h_lw_q <= h_lw_d;
      h_lh_q <= h_lh_d;
      h_au_q <= h_au_d;
      h_av_q <= h_av_d;
      h_iu_q <= h_iu_d;
      h_iv_q <= h_iv_d;
      h_du_q <= h_du_d;
      h_dv_q <= h_dv_d;
      h_ru_q <= h_ru_d;
      h_rv_q <= h_rv_d;
      h_fu_q <= h_fu_d;
      h_fv_q <= h_fv_d;
      d_pu_q <= d_pu_d;
      d_pv_q <= d_pv_d;
      e_valid_q <= e_valid_d;
      e_info_q <= e_info_d;
      e_l_q <= e_l_d;
      e_xi_q <= e_xi_d;
      e_yj_q <= e_yj_d;
      e_inu_q <= e_inu_d;
      e_inv_q <= e_inv_d;
      e_fu_q <= e_fu_d;
      e_fv_q <= e_fv_d;
      k_valid_q <= k_valid_d;
      k_info_q <= k_info_d;
      k_l_q <= k_l_d;
      k_xi_q <= k_xi_d;
      k_yj_q <= k_yj_d;
      k_inu_q <= k_inu_d;
      k_inv_q <= k_inv_d;
      k_fu_q <= k_fu_d;
      k_fv_q <= k_fv_d;
      k_lb_q <= k_lb_d;
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
      sp_valid_q <= sp_valid_d;
      dq_valid_q <= dq_valid_d;
      dq_line_q <= dq_line_d;
      dq_fi_q <= dq_fi_d;
      sp_rq_q <= sp_rq_d;
      sp_fi_q <= sp_fi_d;
      g_valid_q <= g_valid_d;
      g_idx_q <= g_idx_d;
      g_cls_q <= g_cls_d;
      g_b53_q <= g_b53_d;
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
      p_valid_q <= p_valid_d;
      p_info_q <= p_info_d;
      p_bres_q <= p_bres_d;
      o_valid_q <= o_valid_d;
      o_q <= o_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{mem_rsp_i.src, mem_rsp_i.tag, mem_rsp_i.we,
                        rq_count, rq_full, fi_count, fi_full, pf_count, pf_full, t_fetch_q,
                        a_bpb_lg, a_dclass, e_bpb,
                        s_td, c_td, e_td, f_td, d_sd, f_sd};  // the fields a stage does not read

`ifndef SYNTHESIS
  initial begin
    assert ($bits(sp_t) == SpW) else $fatal(1, "tex: SpW %0d != $bits(sp_t) %0d", SpW, $bits(sp_t));
    assert ($bits(info_t) == InfoW) else $fatal(1, "tex: InfoW %0d != $bits(info_t) %0d", InfoW, $bits(info_t));
    assert ($bits(fi_t) == FiW) else $fatal(1, "tex: FiW %0d != $bits(fi_t) %0d", FiW, $bits(fi_t));
    assert (TexSlots >= 2 && SampSlots >= 2 && TSW < IdxW && SSW < IdxW) else $fatal(1, "tex: slot counts");
  end
  // descriptor slots: unique tags, a victim nobody uses, counts in range, inval only when drained
  int n_tmatch, n_smatch;
  always_comb begin
    n_tmatch = 0;
    n_smatch = 0;
    for (int k = 0; k < TexSlots; k++) n_tmatch += (ts_tv_q[k] && ts_addr_q[k] == a_pkt_q.tex) ? 1 : 0;
    for (int k = 0; k < SampSlots; k++) n_smatch += (ss_tv_q[k] && ss_addr_q[k] == a_pkt_q.samp) ? 1 : 0;
  end
  // raw-line buffer: a shadow of the memory line each entry holds (written as the fill writes the
  // entry) and of the line of each queued texel record; a record that reads an entry must find
  // its own line there
  logic [25:0] sh_line [RawLines];
  logic [25:0] sh_rec [$];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_rec.delete();
    end else begin
      if (fill_now && !fhead.desc) begin
        assert (sh_rec.size() > 0) else $error("tex: a texel fill record with no shadow");
        if (sh_rec.size() > 0) begin
          if (lb_re) assert (sh_line[lb_raddr] == sh_rec[0]) else
            $error("tex: fill of line %h reads raw-line buffer entry %0d, which holds line %h", sh_rec[0], lb_raddr, sh_line[lb_raddr]);
          if (lb_we) sh_line[lb_waddr] <= sh_rec[0];
          void'(sh_rec.pop_front());
        end
      end
      if (fi_in_valid && !push_fi.desc) sh_rec.push_back(push_line);
      if (tags_clear) assert (sh_rec.size() == 0) else $error("tex: inval with texel fill records queued");
    end
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
      if (rq_in_valid) assert (rq_in_ready && fi_in_valid && fi_in_ready) else $error("tex: a line request without its fill record");
      if (fi_in_valid) assert (fi_in_ready && (rq_in_valid || push_fi.raw)) else $error("tex: a fill record from memory without its request");
      if (mem_rsp_ready_o && mem_rsp_valid_i) assert (fi_out_valid && !fhead.raw) else $error("tex: a line response with no fill record");
      if (g_valid_q) assert (!(fill_now && !fhead.desc && !fhead.raw)) else $error("tex: two L1 fills in one clock");
      if (a_valid_q) assert (n_tmatch <= 1 && n_smatch <= 1) else $error("tex: a descriptor address in two slots");
      if (a_chain_q) assert (a_valid_q && a_thit && ts_arr_q[a_th] && !ts_ck_q[a_th] && ch_ts_q == a_th) else $error("tex: chain of a lost slot");
      if (a_go && a_hold) assert (a_thit && a_shit && ts_arr_q[a_th] && ss_arr_q[a_sh] && ts_ck_q[a_th]) else $error("tex: quad leaves A without its descriptors");
      if (a_talloc) assert (ts_cnt_q[t_vic] == '0 && !(ts_tv_q[t_vic] && !ts_arr_q[t_vic])) else $error("tex: texture slot evicted in use");
      if (a_salloc) assert (ss_cnt_q[s_vic] == '0 && !(ss_tv_q[s_vic] && !ss_arr_q[s_vic])) else $error("tex: sampler slot evicted in use");
      if (fill_now && fhead.desc && fhead.idx[IdxW-1])
        assert (ss_tv_q[SSW'(fhead.idx)] && !ss_arr_q[SSW'(fhead.idx)]) else $error("tex: sampler line for a slot not waiting");
      if (fill_now && fhead.desc && !fhead.idx[IdxW-1])
        assert (ts_tv_q[TSW'(fhead.idx)] && !ts_arr_q[TSW'(fhead.idx)]) else $error("tex: texture line for a slot not waiting");
      if (f_last) assert (ts_cnt_q[f_info_q.ts] != '0 && ss_cnt_q[f_info_q.ss] != '0) else $error("tex: slot count underflow");
      for (int k = 0; k < TexSlots; k++) assert (ts_cnt_q[k] < CntW'(PassDepth + 16)) else $error("tex: slot count overflow");
      for (int k = 0; k < SampSlots; k++) assert (ss_cnt_q[k] < CntW'(PassDepth + 16)) else $error("tex: slot count overflow");
      if (a_inval) assert (ts_cnt_q == '0 && ss_cnt_q == '0) else $error("tex: inval with quads holding slots");
      assert (m0_w[10:0] == '0 && m0_h[10:0] == '0 && m1_w[10:0] == '0 && m1_h[10:0] == '0) else
        $error("tex: a level size with more than 13 significant bits (fp32_mul BSigW)");
      out_hold_q <= out_valid_o && !out_ready_i;
      req_hold_q <= mem_req_valid_o && !mem_req_ready_i;
      out_prev_q <= out_o;
      req_prev_q <= mem_req_o;
    end
  end
`endif

endmodule
