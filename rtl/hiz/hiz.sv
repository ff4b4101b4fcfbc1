// SPDX-License-Identifier: Apache-2.0
// hiz: hierarchical Z between a coarse and a fine rasterizer (docs/depth.md §6; model:
// cpp_model/hiz, the one definition of the rules). Per raster tile (tx, ty) < (TilesX, TilesY), a
// conservative bound of the depth buffer in an SRAM (sram_1r1w, 25-bit words {exact, bound});
// tiles outside that area are never rejected.
//
// Two directions: L (LESS / LESS_EQUAL: the bound is the tile's farthest depth) and G (GREATER /
// GREATER_EQUAL: its nearest). A word is a bound of the clear's direction (clr_g_q), or exact
// (a tile fully inside the last depth clear: valid either way until a depth write fixes the
// direction; a tightened bound: valid in the fixed direction). A depth clear guesses the
// direction (value 0: G, DEPTH_MAX: L, else the last depth write's), the first depth-writing
// tile after it fixes it, a write of the other direction (or NOT_EQUAL / ALWAYS) disables HIZ
// until the next depth clear.
//
// One tile decision per clock: the tile's word is read when the tile is taken (read latency 1)
// and decided the next cycle: rejected (LESS: zmin >= bound, LESS_EQUAL: zmin > bound, GREATER:
// zmax <= bound, GREATER_EQUAL: zmax < bound; depth on, hiz on, stencil off, same buffer and
// MSAA mode as the last depth clear, the word valid for the direction) or passed on, and the
// bound tightened (L: min(bound, zmax), G: max(bound, zmin)) after a tile fully covered by a
// depth-writing triangle (edge_in == 7, inside pix, stencil off, not late Z). A write to the
// word in the cycle the next tile's word is read is forwarded (a same-word read-during-write of
// sram_1r1w is undefined).
// A depth clear (clear_i.depth) is taken when no tile is held and sweeps the SRAM, one word per
// clock (read, then write the new word: {exact, value} inside the rectangle; elsewhere the old
// bound if valid in the clear's direction and not stale, else no information (DEPTH_MAX for L,
// 0 for G), widened to the value on tiles it touches); tiles wait meanwhile. End-of-pipe tokens
// pass. A forget (clear_i.hiz_forget, sent by the CP before a DMA write into the buffer) unnames
// the buffer in one clock: nothing is tested or updated until the next depth clear.
module hiz #(
  parameter int unsigned TilesX = 64,   // powers of two
  parameter int unsigned TilesY = 64
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  pineda_pkg::tile_pkt_t  in_i,
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output pineda_pkg::tile_pkt_t  out_o,
  input  logic                   clear_valid_i,
  output logic                   clear_ready_o,
  input  pineda_pkg::clear_pkt_t clear_i,
  // perf events, one per decision: the tile was tested against its bound / rejected
  output logic                   tested_o,
  output logic                   rejected_o,
  output logic                   idle_o    // holds no tile (a clear sweep is not work: tiles wait for it)
);

  localparam int unsigned XB    = $clog2(TilesX);
  localparam int unsigned YB    = $clog2(TilesY);
  localparam int unsigned Depth = TilesX * TilesY;
  localparam int unsigned AW    = XB + YB;

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                   s1_valid_q, s1_valid_d;   // a tile whose bound is being read
  pineda_pkg::tile_pkt_t  s1_q,       s1_d;
  logic                   fw_valid_q, fw_valid_d;   // bound written when s1's was read
  logic [AW-1:0]          fw_addr_q,  fw_addr_d;
  logic [24:0]            fw_data_q,  fw_data_d;
  logic                   out_valid_q, out_valid_d;
  pineda_pkg::tile_pkt_t  out_q,      out_d;
  logic                   set_q,      set_d;        // a depth clear named the buffer
  logic                   en_q,       en_d;
  logic [31:0]            base_q,     base_d;
  logic                   msaa_q,     msaa_d;
  logic                   clr_g_q,    clr_g_d;      // direction of the words that are not exact
  logic                   fixed_q,    fixed_d;      // a depth write fixed the direction ...
  logic                   dir_g_q,    dir_g_d;      // ... to G
  logic                   last_g_q,   last_g_d;     // direction of the last depth write
  logic                   cg_q,       cg_d;         // the sweeping clear's direction
  logic                   sw_q,       sw_d;         // sweeping for a clear
  pineda_pkg::clear_pkt_t clr_q,      clr_d;
  logic                   clr_stale_q, clr_stale_d; // bounds outside the rectangle are stale
  logic [AW:0]            sw_rd_q,    sw_rd_d;      // next word to read
  logic                   sw_wv_q,    sw_wv_d;      // a word read last cycle, to write now
  logic [AW-1:0]          sw_wa_q,    sw_wa_d;

  // SRAM
  logic           re, we;
  logic [AW-1:0]  raddr, waddr;
  logic [24:0]    wdata, rdata;

  sram_1r1w #(.Width(25), .Depth(Depth), .MaskW(1)) u_bound (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .wmask_i(1'b1),
    .re_i(re), .raddr_i(raddr), .rdata_o(rdata)
  );


  // ---------------------------------------------------------------------------------------------
  // Decision for the held tile
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::ds_state_t ds;
  logic        fl, fg, writes, dir_ok, valid, match, dis, en_now, inr, test, reject, upd, in_pix;
  logic        fix_now, fire, s1_free;
  logic [24:0] word;
  logic [23:0] bound, nbound, zmin, zmax;
  logic [14:0] px0, px1, py0, py1;
  logic [AW-1:0] s1_addr;

  always_comb begin
    ds      = s1_q.ds;
    s1_addr = {s1_q.ty[YB-1:0], s1_q.tx[XB-1:0]};
    word    = (fw_valid_q && (fw_addr_q == s1_addr)) ? fw_data_q : rdata;
    bound   = word[23:0];
    zmin    = s1_q.zmin;
    zmax    = s1_q.zmax;
    fl      = (ds.z_func == pineda_pkg::CMP_LESS) || (ds.z_func == pineda_pkg::CMP_LESS_EQUAL);
    fg      = (ds.z_func == pineda_pkg::CMP_GREATER) || (ds.z_func == pineda_pkg::CMP_GREATER_EQUAL);
    writes  = ds.z_write && (ds.z_func != pineda_pkg::CMP_NEVER) && (ds.z_func != pineda_pkg::CMP_EQUAL);
    match   = !s1_q.eop && set_q && ds.z_enable && (ds.base == base_q) && (s1_q.target.msaa == msaa_q);
    dir_ok  = (fl || fg) && (!fixed_q || (dir_g_q == fg));
    // A depth write of no direction, or of the other one than fixed, disables HIZ.
    dis     = match && writes && (!(fl || fg) || (fixed_q && (dir_g_q != fg)));
    fix_now = match && writes && (fl || fg) && !fixed_q;
    en_now  = en_q && !dis;
    inr     = ({3'd0, s1_q.tx} < 16'(TilesX)) && ({3'd0, s1_q.ty} < 16'(TilesY));
    valid   = match && en_now && inr && dir_ok && (word[24] || (clr_g_q == fg));
    test    = valid && ds.hiz && !ds.s_enable;
    unique case (ds.z_func)
      pineda_pkg::CMP_LESS:       reject = test && (zmin >= bound);
      pineda_pkg::CMP_LESS_EQUAL: reject = test && (zmin > bound);
      pineda_pkg::CMP_GREATER:    reject = test && (zmax <= bound);
      default:                    reject = test && (zmax < bound);   // GREATER_EQUAL (test implies fl || fg)
    endcase
    // The tile's pixels: 8x8 (1x) or 4x4 (4x MSAA).
    if (s1_q.target.msaa) begin
      px0 = {s1_q.tx, 2'd0};
      py0 = {s1_q.ty, 2'd0};
      px1 = {s1_q.tx, 2'd0} + 15'd4;
      py1 = {s1_q.ty, 2'd0} + 15'd4;
    end else begin
      px0 = {s1_q.tx[11:0], 3'd0};
      py0 = {s1_q.ty[11:0], 3'd0};
      px1 = {s1_q.tx[11:0], 3'd0} + 15'd8;
      py1 = {s1_q.ty[11:0], 3'd0} + 15'd8;
    end
    in_pix  = (s1_q.pix.x0 <= px0) && (px1 <= s1_q.pix.x1) && (s1_q.pix.y0 <= py0) && (py1 <= s1_q.pix.y1);
    upd     = valid && !reject && writes && !ds.s_enable && !ds.late_z && (s1_q.edge_in == 3'b111) && in_pix;
    if (fg) nbound = (zmin > bound) ? zmin : bound;
    else    nbound = (zmax < bound) ? zmax : bound;
  end

  // ---------------------------------------------------------------------------------------------
  // Clear sweep: the new bound of word sw_wa_q (read last cycle)
  // ---------------------------------------------------------------------------------------------
  logic [12:0] ctx, cty;
  logic [14:0] cx0, cx1, cy0, cy1;
  logic        cfull, ctouch, cok;
  logic [23:0] cval, cb;
  logic [24:0] cnew;

  always_comb begin
    ctx  = 13'(sw_wa_q[XB-1:0]);
    cty  = 13'(sw_wa_q[AW-1:XB]);
    if (clr_q.target.msaa) begin
      cx0 = {ctx, 2'd0};
      cy0 = {cty, 2'd0};
      cx1 = {ctx, 2'd0} + 15'd4;
      cy1 = {cty, 2'd0} + 15'd4;
    end else begin
      cx0 = {ctx[11:0], 3'd0};
      cy0 = {cty[11:0], 3'd0};
      cx1 = {ctx[11:0], 3'd0} + 15'd8;
      cy1 = {cty[11:0], 3'd0} + 15'd8;
    end
    cfull  = (clr_q.rect.x0 <= cx0) && (cx1 <= clr_q.rect.x1) && (clr_q.rect.y0 <= cy0) && (cy1 <= clr_q.rect.y1);
    ctouch = (clr_q.rect.x0 < cx1) && (cx0 < clr_q.rect.x1) && (clr_q.rect.y0 < cy1) && (cy0 < clr_q.rect.y1);
    cval   = clr_q.value[23:0];
    // The old word is a bound in the clear's direction cg_q (fixed_q, dir_g_q, clr_g_q are still
    // the old state during the sweep).
    cok    = !clr_stale_q && (!fixed_q || (dir_g_q == cg_q)) && (rdata[24] || (clr_g_q == cg_q));
    cb     = cok ? rdata[23:0] : (cg_q ? 24'd0 : pineda_pkg::DEPTH_MAX);
    if (ctouch) begin
      if (cg_q) cb = (cb < cval) ? cb : cval;
      else      cb = (cb > cval) ? cb : cval;
    end
    cnew   = cfull ? {1'b1, cval} : {1'b0, cb};
  end

  // ---------------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------------
  logic take, take_clear;

  always_comb begin
    out_valid_o   = out_valid_q;
    out_o         = out_q;
    fire          = s1_valid_q && (!out_valid_q || out_ready_i);
    s1_free       = !s1_valid_q || fire;
    in_ready_o    = !sw_q && s1_free && !(clear_valid_i && !s1_valid_q);
    take          = in_valid_i && in_ready_o;
    take_clear    = clear_valid_i && !sw_q && !s1_valid_q;
    clear_ready_o = take_clear;
    idle_o        = !s1_valid_q && !out_valid_q;
    tested_o      = fire && test;
    rejected_o    = fire && reject;

    s1_valid_d  = s1_valid_q;
    s1_d        = s1_q;
    fw_valid_d  = fw_valid_q;
    fw_addr_d   = fw_addr_q;
    fw_data_d   = fw_data_q;
    out_valid_d = out_valid_q;
    out_d       = out_q;
    set_d       = set_q;
    en_d        = en_q;
    base_d      = base_q;
    msaa_d      = msaa_q;
    sw_d        = sw_q;
    clr_d       = clr_q;
    clr_g_d     = clr_g_q;
    fixed_d     = fixed_q;
    dir_g_d     = dir_g_q;
    last_g_d    = last_g_q;
    cg_d        = cg_q;
    clr_stale_d = clr_stale_q;
    sw_rd_d     = sw_rd_q;
    sw_wv_d     = 1'b0;
    sw_wa_d     = sw_wa_q;
    re          = 1'b0;
    raddr       = {in_i.ty[YB-1:0], in_i.tx[XB-1:0]};
    we          = 1'b0;
    waddr       = s1_addr;
    wdata       = {1'b1, nbound};

    if (out_valid_q && out_ready_i) out_valid_d = 1'b0;
    if (fire) begin
      en_d = en_now;
      we   = upd;
      if (match && writes && (fl || fg)) last_g_d = fg;
      if (fix_now) begin
        fixed_d = 1'b1;
        dir_g_d = fg;
      end
      if (!reject) begin
        out_valid_d = 1'b1;
        out_d       = s1_q;
      end
      s1_valid_d = 1'b0;
    end
    if (take) begin
      re         = 1'b1;
      s1_valid_d = 1'b1;
      s1_d       = in_i;
      fw_valid_d = we;      // the write of this cycle is not in the word read now
      fw_addr_d  = waddr;
      fw_data_d  = wdata;
    end

    // Clear: take it, sweep every word (read k, write k the next cycle), then enable.
    if (take_clear) begin
      if (clear_i.hiz_forget) begin
        set_d = 1'b0;  // a DMA write met the buffer: no bound is trusted until the next depth clear
      end else if (clear_i.depth) begin
        sw_d        = 1'b1;
        clr_d       = clear_i;
        clr_stale_d = !en_q || !set_q || (clear_i.target.base != base_q) || (clear_i.target.msaa != msaa_q);
        if (clear_i.value[23:0] == 24'd0)                    cg_d = 1'b1;
        else if (clear_i.value[23:0] == pineda_pkg::DEPTH_MAX) cg_d = 1'b0;
        else                                                 cg_d = last_g_q;
        sw_rd_d     = '0;
      end
    end
    if (sw_q) begin
      if (sw_rd_q < (AW + 1)'(Depth)) begin
        re      = 1'b1;
        raddr   = sw_rd_q[AW-1:0];
        sw_rd_d = sw_rd_q + 1'b1;
        sw_wv_d = 1'b1;
        sw_wa_d = sw_rd_q[AW-1:0];
      end
      if (sw_wv_q) begin
        we    = 1'b1;
        waddr = sw_wa_q;
        wdata = cnew;
      end
      if (!sw_wv_q && (sw_rd_q == (AW + 1)'(Depth))) begin  // the last word is written
        sw_d       = 1'b0;
        set_d      = 1'b1;
        en_d       = 1'b1;
        base_d     = clr_q.target.base;
        msaa_d     = clr_q.target.msaa;
        clr_g_d    = cg_q;
        fixed_d    = 1'b0;
        fw_valid_d = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q  <= 1'b0;
      s1_q        <= '0;
      fw_valid_q  <= 1'b0;
      fw_addr_q   <= '0;
      fw_data_q   <= '0;
      out_valid_q <= 1'b0;
      out_q       <= '0;
      set_q       <= 1'b0;
      en_q        <= 1'b1;
      base_q      <= '0;
      msaa_q      <= 1'b0;
      sw_q        <= 1'b0;
      clr_q       <= '0;
      clr_g_q     <= 1'b0;
      fixed_q     <= 1'b0;
      dir_g_q     <= 1'b0;
      last_g_q    <= 1'b0;
      cg_q        <= 1'b0;
      clr_stale_q <= 1'b0;
      sw_rd_q     <= '0;
      sw_wv_q     <= 1'b0;
      sw_wa_q     <= '0;
    end else begin
      s1_valid_q  <= s1_valid_d;
      s1_q        <= s1_d;
      fw_valid_q  <= fw_valid_d;
      fw_addr_q   <= fw_addr_d;
      fw_data_q   <= fw_data_d;
      out_valid_q <= out_valid_d;
      out_q       <= out_d;
      set_q       <= set_d;
      en_q        <= en_d;
      base_q      <= base_d;
      msaa_q      <= msaa_d;
      sw_q        <= sw_d;
      clr_q       <= clr_d;
      clr_g_q     <= clr_g_d;
      fixed_q     <= fixed_d;
      dir_g_q     <= dir_g_d;
      last_g_q    <= last_g_d;
      cg_q        <= cg_d;
      clr_stale_q <= clr_stale_d;
      sw_rd_q     <= sw_rd_d;
      sw_wv_q     <= sw_wv_d;
      sw_wa_q     <= sw_wa_d;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{clr_q.color, clr_q.stencil, clr_q.depth, clr_q.value[31:24], clr_q.target.pitch,
                        ctx[12:XB], cty[12:YB], ds.pitch, ds.s_ref, ds.s_read_mask, ds.s_write_mask,
                        ds.s_front, ds.s_back, in_i.tx[12:XB], in_i.ty[12:YB]};

endmodule
