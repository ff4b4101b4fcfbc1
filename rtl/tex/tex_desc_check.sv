// SPDX-License-Identifier: Apache-2.0
// tex_desc_check: stage A's arithmetic (docs/tex.md section 7 step 1), combinational: the
// descriptor address checks of a quad, the static checks of the cached texture and sampler
// descriptors, and the chain step (the end of level cl_i starting at cur_i, and whether the
// chain ends inside REG_VALID_BASE/LIMIT). The state machine stays in tex.sv. The chain step
// reads the chain's own copy of its texture's fields (ch_*_i: registers loaded as the chain
// starts), not td_i, so it does not hang off stage A's slot hit and descriptor multiplexer.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_desc_check (
  input  logic [31:0]             tex_addr_i,   // the quad's descriptor addresses
  input  logic [31:0]             samp_addr_i,
  input  logic [31:0]             valid_base_i,
  input  logic [31:0]             valid_limit_i,
  input  pineda_pkg::tex_desc_t   td_i,
  input  pineda_pkg::samp_desc_t  sd_i,
  input  logic [15:0]             ch_w_i,       // chain: its texture's width, height, base
  input  logic [15:0]             ch_h_i,
  input  logic [31:0]             ch_base_i,
  input  logic [6:0]              ch_bpb_i,     // chain: bytes per 4x4 block (8, 16, 32 or 64; 0 idle)
  input  logic [3:0]              cl_i,         // chain: level being laid out
  input  logic [33:0]             cur_i,        // chain: its start
  output logic                    fa_tex_o,     // TEX_FAULT_DESC_ADDR
  output logic                    fa_samp_o,
  output logic                    tex_bad_o,    // TEX_FAULT_TEX_DESC
  output logic                    samp_bad_o,   // TEX_FAULT_SAMP_DESC
  output logic [33:0]             lend_o,       // end of level cl_i
  output logic                    range_bad_o   // TEX_FAULT_TEX_RANGE (with lend_o the last level's)
);

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

  logic [4:0]  full;
  logic [12:0] cw, ch;
  logic [10:0] cbw, cbh;
  logic [21:0] blocks;
  logic [33:0] lbytes;
  always_comb begin
    fa_tex_o  = (tex_addr_i[4:0] != 5'd0) || (tex_addr_i < valid_base_i) || ({2'd0, tex_addr_i} + 34'd31 > {2'd0, valid_limit_i});
    fa_samp_o = (samp_addr_i[4:0] != 5'd0) || (samp_addr_i < valid_base_i) || ({2'd0, samp_addr_i} + 34'd31 > {2'd0, valid_limit_i});
    full = bitlen((td_i.width > td_i.height) ? td_i.width : td_i.height);
    tex_bad_o = (td_i.width == 16'd0) || (td_i.width > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                (td_i.height == 16'd0) || (td_i.height > 16'(pineda_pkg::TEX_MAX_DIM)) ||
                (td_i.fmt > pineda_pkg::TEX_FMT_BC3) || (td_i.levels == 4'd0) ||
                ({1'b0, td_i.levels} > full) || (td_i.base[5:0] != 6'd0);
    samp_bad_o = (sd_i.mip > pineda_pkg::TEX_MIP_LINEAR) || (sd_i.addr_u > pineda_pkg::TEX_ADDR_MIRROR_ONCE) ||
                 (sd_i.addr_v > pineda_pkg::TEX_ADDR_MIRROR_ONCE) || (sd_i.min_lod > sd_i.max_lod);
    cw = lvl_dim(ch_w_i, cl_i);
    ch = lvl_dim(ch_h_i, cl_i);
    cbw = 11'((cw + 13'd3) >> 2);
    cbh = 11'((ch + 13'd3) >> 2);
    // blocks times bytes per block: a power of two, so a shift (one of four) and not a multiplier
    blocks = {11'd0, cbw} * {11'd0, cbh};
    lbytes = '0;
    if (ch_bpb_i[3]) lbytes = lbytes | ({12'd0, blocks} << 3);
    if (ch_bpb_i[4]) lbytes = lbytes | ({12'd0, blocks} << 4);
    if (ch_bpb_i[5]) lbytes = lbytes | ({12'd0, blocks} << 5);
    if (ch_bpb_i[6]) lbytes = lbytes | ({12'd0, blocks} << 6);
    lend_o = cur_i + lbytes;
    range_bad_o = ch_base_i < valid_base_i || lend_o - 34'd1 > {2'd0, valid_limit_i};
  end

  logic unused_sig;
  assign unused_sig = ^{ch_bpb_i[2:0], td_i.base[31:6], td_i.rsv7, td_i.rsv6, td_i.rsv5, td_i.rsv4, td_i.rsv3, td_i.rsv2,
                        sd_i.rsv7, sd_i.rsv6, sd_i.rsv5, sd_i.rsv4, sd_i.border, sd_i.rsv2b, sd_i.rsv2a,
                        sd_i.rsv1, sd_i.lod_bias, sd_i.rsv0, sd_i.mag, sd_i.min};

endmodule
