// SPDX-License-Identifier: Apache-2.0
// vertex_fetch: attribute fetch and format conversion on the line port (docs/frontend.md §5).
//
// Input: vfetch_pkt_t, either a vertex of a batch or a front-end state write (wr = 1).
// State: vertex buffers 0 (per vertex, element = index) and 1 (per instance, element = inst_id)
// with base, stride [15:0] and size; four attributes (position, colour, tex0, tex1), each
// [2:0] ATTR_FMT_*, [3] buffer, [31:16] byte offset; the position matrix (reset identity).
// Per attribute with n dwords (F32xN: N, UNORM8X4: 1) the element is at ofs = element * stride +
// offset (exact); it is in bounds when ofs + 4n <= size and is then read at A = base + ofs
// (mod 2^32, dword aligned); an element out of bounds reads 0 and costs no read.
//
// Fetch cache: two-way set associative, CacheLines lines of LINE_BYTES = 64 in CacheLines / 2
// sets (set = line address mod sets; a miss takes the first invalid way, else the least recently
// used), data in two sram_1r1w banks (even and odd sets, one 512-bit line per word {set, way}),
// tags in two sram_1r1w banks (even and odd sets, both ways' tags in one word), valid and LRU
// bits in flops. Every in-bounds element is read through it (a line read may cover
// bytes outside the buffer; only the element's dwords are used).
// GROUPS: the in-bounds attributes of a vertex, in order, are packed into groups of two consecutive
// lines (G, G + 1): an attribute whose lines lie in the current group's pair joins it, else it
// opens a new group at its first line. An interleaved vertex of up to 64 bytes is one group. ISSUE
// has four stages: P registers the input and its element * stride (two partial products per
// buffer), A the elements (address = (base + offset) + product, bounds as product <= size -
// offset - 4n with both per-attribute terms kept in registers, first line and whether the last
// dword is in the next line) into E, a stream_reg (so that A's ready is its skid register, not
// the decisions of V and L), V the vertex's groups (or a state write), L looks one group per
// clock up (lines G and G + 1, both registered as L is loaded: their tag words were read from the
// tag SRAMs then, the word written in that clock forwarded; tags allocated in order in L's first clock; a missing line
// is one line read request) and makes it one descriptor. At CONSUME, in the same order, a
// descriptor's missing lines are taken from the response FIFO and written into the SRAM, its other
// lines are read from the SRAM, and its attributes' dwords are picked from the two-line window: one
// group per clock (a group with two missing lines takes two clocks, which the memory's bandwidth
// allows anyway). Since data are written and read in the order the tags were allocated, a hit on a
// line still in flight reads the fill (consumed earlier) and an eviction never overwrites data an
// earlier hit still needs. Any state write, and the first vertex of every draw (a draw_id different
// from the previous vertex's), invalidates every line (in L, in order). A matrix write
// (FE_MATRIX0..+15) travels in the descriptor stream and sends its row (kind MATRIX_ROW) in order;
// other state writes take effect as they enter A from P (a vertex already issued keeps its formats
// in its descriptors).
// Output: one vtx_in_pkt_t per vertex (kind VERTEX, vtx_id = {first, slot}): F32xN: the N
// components, the rest (0, 0, 0, 1); UNORM8X4: c / 255 per byte (unorm8_to_f32); disabled (or
// reserved format): (0, 0, 0, 1). Colour: UNORM8X4 passes the dword; otherwise the four
// components through f32_to_unorm8. Texture coordinates: components x, y.
// Throughput: one vertex per clock while its attributes fit one group and its lines hit.
// Memory: RspDepth lines may be requested and not yet consumed (the response FIFO, in SRAM,
// reserves room for each); DescDepth descriptors (an SRAM FIFO) let issue run that far ahead.
// Issue puts its line requests into a queue of ReqDepth (flops) that offers them to the port,
// so issue does not wait for the port: a request waiting for the memory's bandwidth (two new
// lines a clock apart at 32 bytes per clock) would otherwise hold issue, and issue (one group
// per clock, like consume) never wins the clock back, so every such wait became a clock
// without output once issue led consume by just the memory latency.
module vertex_fetch #(
  parameter int unsigned CacheLines = 128,  // a power of two, >= 8
  parameter int unsigned RspDepth   = 128,  // lines requested and not yet consumed
  parameter int unsigned DescDepth  = 256,  // groups issued and not yet consumed
  parameter int unsigned ReqDepth   = 8     // line requests queued for the port (power of two)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         in_valid_i,
  output logic                         in_ready_o,
  input  pineda_pkg::vfetch_pkt_t      in_i,
  output logic                         out_valid_o,
  input  logic                         out_ready_i,
  output pineda_pkg::vtx_in_pkt_t      out_o,
  output pineda_pkg::mem_port_req_t    mem_o,
  input  pineda_pkg::mem_port_rsp_t    mem_i,
  output logic                         idle_o
);

  localparam logic [31:0] One = pineda_pkg::FP32_ONE;
  // mat[4r + c] = M[r][c]; resets to the identity.
  localparam logic [511:0] MatReset = pineda_pkg::FE_MATRIX0_RESET;

  localparam int unsigned Sets  = CacheLines / 2;  // two ways
  localparam int unsigned SetW  = $clog2(Sets);
  localparam int unsigned TagW  = 26 - SetW;   // line address [25:0] = {tag, set}
  localparam int unsigned IdxW  = SetW - 1;    // a set's index within its bank (set[0] = bank)
  localparam int unsigned BankW = SetW;        // a data word within a bank: {set index, way}
  localparam int unsigned CredW = $clog2(RspDepth + 1);

  typedef struct packed {
    logic                  mat;     // a matrix write: M[widx] = wval, then its row goes out
    logic [3:0]            widx;
    logic [31:0]           wval;
    logic                  eov;     // the vertex's last group
    logic                  use0;    // line G is used (0: a vertex without in-bounds attributes)
    logic                  use1;    // line G + 1 is used
    logic                  miss0;   // line G comes from the response FIFO
    logic                  miss1;   // line G + 1 comes from the response FIFO
    logic [SetW-1:0]       set0;    // set of line G (G + 1: set0 + 1)
    logic                  way0;    // way of line G
    logic                  way1;    // way of line G + 1
    logic [3:0]            amask;   // attributes whose dwords are in this group
    logic [3:0][4:0]       aw;      // their first dword in the window {G + 1, G}
    logic [4:0]            slot;
    logic                  first;
    logic [3:0][2:0]       fmt;
  } desc_t;

  // ---------------------------------------------------------------------------------------------
  // Conversions
  // ---------------------------------------------------------------------------------------------
  // c / 255 rounded to nearest: the bits of c repeat forever, so the 24 significant bits come
  // from the repetition and the rounding rounds up exactly when the next bit is 1.
  function automatic logic [31:0] unorm8_to_f32(input logic [7:0] c);
    logic [39:0] rep;
    logic [23:0] sh;   // the 23 bits after the leading one, then the rounding bit
    logic [2:0]  lz;
    unorm8_to_f32 = '0;
    rep = {c, c, c, c, c};
    lz  = 3'd0;
    for (int b = 0; b < 8; b++) begin
      if (c[b]) lz = 3'(7 - b);  // the highest set bit wins (last assignment)
    end
    sh = 24'((rep << lz) >> 15);  // with the leading one moved to bit 39: bits [38:15]
    if (c == 8'hFF) begin
      unorm8_to_f32 = One;
    end else if (c != 8'h00) begin
      unorm8_to_f32 = {1'b0, 8'(8'd126 - {5'd0, lz}), sh[23:1]} + {31'd0, sh[0]};
    end
  endfunction

  // NaN, negative, zero and denormal -> 0; >= 1.0 -> 255; else RNE of the exact f * 255.
  function automatic logic [7:0] f32_to_unorm8(input logic [31:0] f);
    logic [31:0] p;
    logic [31:0] q, r, half;
    logic [7:0]  s;
    f32_to_unorm8 = '0;
    p    = ({8'd1, f[22:0], 1'b0} << 7) - {8'd0, 1'b1, f[22:0]};  // m * 255 = m * 256 - m
    s    = 8'd150 - f[30:23];
    q    = '0;
    r    = '0;
    half = '0;
    if (s <= 8'd32) begin
      q    = 32'(64'(p) >> s);
      r    = p & ((32'd1 << s) - 32'd1);
      half = 32'd1 << (s - 8'd1);
    end
    if (f[30:23] == 8'hFF && f[22:0] != '0) begin
      f32_to_unorm8 = '0;
    end else if (f[31] || f[30:23] == 8'h00) begin
      f32_to_unorm8 = '0;
    end else if (f >= One) begin
      f32_to_unorm8 = 8'd255;
    end else if (s <= 8'd32) begin
      f32_to_unorm8 = 8'(q + {31'd0, (r > half) || ((r == half) && q[0])});
    end
  endfunction

  // The four components of an attribute from its dwords; component k (x, y, z, w) and dword k
  // sit at [32*k +: 32] (flat vectors: Yosys takes no 2-D packed function arguments).
  function automatic logic [127:0] comps(input logic [2:0] fmt, input logic [127:0] d);
    comps = {One, 32'd0, 32'd0, 32'd0};  // (x, y, z, w) = (0, 0, 0, 1)
    if (fmt >= 3'd1 && fmt <= 3'd4) begin
      for (int k = 0; k < 4; k++) begin
        if (3'(k) < fmt) comps[32*k +: 32] = d[32*k +: 32];
      end
    end else if (fmt == 3'd5) begin
      for (int k = 0; k < 4; k++) begin
        comps[32*k +: 32] = unorm8_to_f32(d[8*k +: 8]);
      end
    end
  endfunction

  // ---------------------------------------------------------------------------------------------
  // State (issue side)
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::vf_regs_t regs_q, regs_d;  // FE_VB*, FE_ATTR_* (generated: contracts/defs.py REG_FILES)
  // stage P (below): the input packet and its element * stride as two partial products
  logic                         p_valid_q, p_valid_d;
  pineda_pkg::vfetch_pkt_t      p_q, p_d;
  logic [1:0][39:0]             p_lo_q, p_lo_d;   // element * stride[7:0] per buffer
  logic [1:0][39:0]             p_hi_q, p_hi_d;   // element * stride[15:8]
  // the same registers by buffer and by attribute
  logic [1:0][15:0]  vb_stride_q;
  logic [3:0][2:0]   at_fmt_q;   // per attribute (FE_ATTR_POS, _COLOR, _TEX0, _TEX1): its fields
  logic [3:0]        at_buf1_q;
  always_comb begin
    vb_stride_q = {regs_q.vb1_stride[15:0], regs_q.vb0_stride[15:0]};
    at_fmt_q    = {regs_q.attr_tex1.fmt, regs_q.attr_tex0.fmt, regs_q.attr_color.fmt, regs_q.attr_pos.fmt};
    at_buf1_q   = {regs_q.attr_tex1.buf1, regs_q.attr_tex0.buf1, regs_q.attr_color.buf1, regs_q.attr_pos.buf1};
  end

  // Per attribute, from the registers as a write changes them (loaded with regs_q, so always in
  // step with it): lim = size - offset - 4n (signed; the element is in bounds when
  // element * stride <= lim, i.e. element * stride + offset + 4n <= size) and bo = base + offset
  // (mod 2^32). Stage A then has the product and one add or compare behind it instead of two
  // adds and a compare.
  pineda_pkg::vf_regs_t regs_w;  // regs_q with the input's write applied (if it is one)
  logic [3:0][33:0]  at_lim_q, at_lim_d, at_lim_w;
  logic [3:0][31:0]  at_bo_q,  at_bo_d,  at_bo_w;
  logic [1:0][31:0]  nx_base, nx_size;
  logic [3:0][2:0]   nx_fmt, nx_n;
  logic [3:0]        nx_buf1;
  logic [3:0][15:0]  nx_ofs;
  always_comb begin
    regs_w  = pineda_pkg::vf_regs_write(regs_q, p_q.wr_idx, p_q.wr_val);
    nx_base = {regs_w.vb1_base, regs_w.vb0_base};
    nx_size = {regs_w.vb1_size, regs_w.vb0_size};
    nx_fmt  = {regs_w.attr_tex1.fmt, regs_w.attr_tex0.fmt, regs_w.attr_color.fmt, regs_w.attr_pos.fmt};
    nx_buf1 = {regs_w.attr_tex1.buf1, regs_w.attr_tex0.buf1, regs_w.attr_color.buf1, regs_w.attr_pos.buf1};
    nx_ofs  = {regs_w.attr_tex1.offset, regs_w.attr_tex0.offset, regs_w.attr_color.offset,
               regs_w.attr_pos.offset};
    for (int a = 0; a < 4; a++) begin
      nx_n[a]     = (nx_fmt[a] == 3'd5) ? 3'd1 : nx_fmt[a];
      at_lim_w[a] = {2'b00, nx_size[nx_buf1[a]]} - {18'd0, nx_ofs[a]} - {29'd0, nx_n[a], 2'b00};
      at_bo_w[a]  = nx_base[nx_buf1[a]] + {16'd0, nx_ofs[a]};
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Stage P: the input packet and its element * stride in registers, as two partial products
  // per buffer (stride bits [7:0] and [15:8]; A adds them), so that the multiplier and A's
  // bounds compare and address add are in different clocks. The stride is the one the packet
  // will meet in A: regs_q, or the write in P if P holds one (it leaves for A as the packet
  // enters P; a packet enters P only when P is empty or its packet leaves).
  // ---------------------------------------------------------------------------------------------
  logic [1:0][15:0]             p_stride;         // the stride the input packet meets in A
  logic                         a_ready;          // A takes P's packet this clock

  always_comb begin
    p_stride = (p_valid_q && p_q.wr) ? {regs_w.vb1_stride[15:0], regs_w.vb0_stride[15:0]}
                                     : vb_stride_q;
    in_ready_o = !p_valid_q || a_ready;
    p_valid_d  = p_valid_q && !a_ready;
    p_d        = p_q;
    p_lo_d     = p_lo_q;
    p_hi_d     = p_hi_q;
    if (in_valid_i && in_ready_o) begin
      p_valid_d = 1'b1;
      p_d       = in_i;
      p_lo_d[0] = 40'(in_i.index)   * 40'(p_stride[0][7:0]);
      p_hi_d[0] = 40'(in_i.index)   * 40'(p_stride[0][15:8]);
      p_lo_d[1] = 40'(in_i.inst_id) * 40'(p_stride[1][7:0]);
      p_hi_d[1] = 40'(in_i.inst_id) * 40'(p_stride[1][15:8]);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Stage A: the input's elements (addresses, bounds, lines) in registers. State writes take
  // effect as they enter A (a vertex ahead of a write has its elements computed already).
  // ---------------------------------------------------------------------------------------------
  logic [1:0][47:0] prod;            // element * stride per buffer
  logic [3:0]       en, inb, abuf;
  logic [3:0][2:0]  n_dw;
  logic [3:0][31:0] a_addr;
  logic [3:0][2:0]  a_fmt;
  logic [3:0][25:0] a_l0;            // first line of each element
  logic [3:0]       a_two;           // ... its last line is the next one
  logic [3:0][47:0] a_prod;          // its element * stride
  logic [4:0]       a_dw;            // scratch: an element's last dword within its first line

  // Stage E: A's packet (the elements) in a stream_reg, so that A's ready is a register
  // (the skid) and not V's and L's decisions of this clock (l_done -> l_load -> e_take)
  typedef struct packed {
    logic              wr;
    logic              mat;
    logic [3:0]        widx;
    logic [31:0]       wval;
    logic [15:0]       draw;
    logic [4:0]        slot;
    logic              first;
    logic [3:0]        inb;
    logic [3:0][25:0]  l0;
    logic [3:0]        two;
    logic [3:0][3:0]   lo; // the element's first dword within its line
    logic [3:0][2:0]   fmt;
  } e_pkt_t;
  e_pkt_t           a_pkt;                 // A's result for P's packet
  e_pkt_t           e_head;                // the packet in E (stream_reg's main register)
  logic             e_valid;
  logic             e_take;                // V takes A's packet this clock
  logic             is_mat;

  // groups of the packet in A
  logic [2:0]       ng;              // groups (0: nothing in bounds)
  logic [3:0][25:0] g_l0;            // line G of group k
  logic [3:0]       g_use1;
  logic [3:0][3:0]  g_amask;
  logic [3:0][4:0]  a_w;             // per attribute: first dword in its group's window
  logic [1:0]       gk;              // scratch: group of the current attribute
  logic [1:0]       gp;              // scratch: the last group opened

  always_comb begin
    prod[0] = 48'(p_lo_q[0]) + {p_hi_q[0], 8'd0};
    prod[1] = 48'(p_lo_q[1]) + {p_hi_q[1], 8'd0};
    a_dw    = '0;
    for (int a = 0; a < 4; a++) begin
      a_fmt[a]  = at_fmt_q[a];
      abuf[a]   = at_buf1_q[a];
      en[a]     = (a_fmt[a] >= 3'd1) && (a_fmt[a] <= 3'd5);
      n_dw[a]   = (a_fmt[a] == 3'd5) ? 3'd1 : a_fmt[a];
      a_prod[a] = prod[abuf[a]];
      // element * stride + offset + 4n <= size (exact), as element * stride <= lim
      inb[a]    = en[a] && !at_lim_q[a][33] && (a_prod[a][47:32] == 16'd0) &&
                  (a_prod[a][31:0] <= at_lim_q[a][31:0]);
      a_addr[a] = at_bo_q[a] + a_prod[a][31:0];
      // its last dword is at most 3 dwords on: in the same line or the next (mod 2^26)
      a_dw      = {1'b0, a_addr[a][5:2]} + {2'd0, n_dw[a]} - 5'd1;
      a_l0[a]   = a_addr[a][31:6];
      a_two[a]  = inb[a] && a_dw[4];
    end
    is_mat = p_q.wr && (p_q.wr_idx >= pineda_pkg::FE_MATRIX0) &&
             (p_q.wr_idx < pineda_pkg::FE_MATRIX0 + 8'd16);

    a_pkt       = '0;
    a_pkt.wr    = p_q.wr;
    a_pkt.mat   = is_mat;
    a_pkt.widx  = p_q.wr_idx[3:0];
    a_pkt.wval  = p_q.wr_val;
    a_pkt.draw  = p_q.draw_id;
    a_pkt.slot  = p_q.slot;
    a_pkt.first = p_q.first;
    a_pkt.inb   = p_q.wr ? 4'd0 : inb;
    a_pkt.l0    = a_l0;
    a_pkt.two   = a_two;
    for (int a = 0; a < 4; a++) a_pkt.lo[a] = a_addr[a][5:2];
    a_pkt.fmt   = a_fmt;
  end

  stream_reg #(.Width($bits(a_pkt))) u_e (
    .clk_i,
    .rst_ni,
    .in_valid_i  (p_valid_q),
    .in_ready_o  (a_ready),
    .in_data_i   (a_pkt),
    .out_valid_o (e_valid),
    .out_ready_i (e_take),
    .out_data_o  (e_head)
  );

  // The groups of A's packet
  always_comb begin
    ng      = '0;
    g_l0    = '0;
    g_use1  = '0;
    g_amask = '0;
    a_w     = '0;
    gk      = '0;
    gp      = '0;
    for (int a = 0; a < 4; a++) begin
      if (e_head.inb[a]) begin
        gp = 2'(ng - 3'd1);  // the current (last opened) group
        if (ng != 3'd0 &&
            (e_head.two[a] ? (e_head.l0[a] == g_l0[gp])
                        : (e_head.l0[a] == g_l0[gp] || e_head.l0[a] == g_l0[gp] + 26'd1))) begin
          gk = gp;
        end else begin
          gk = ng[1:0];
          g_l0[gk] = e_head.l0[a];
          ng = ng + 3'd1;
        end
        g_amask[gk][a] = 1'b1;
        if (e_head.two[a] || e_head.l0[a] != g_l0[gk]) g_use1[gk] = 1'b1;
                a_w[a] = {e_head.l0[a] != g_l0[gk], e_head.lo[a]};
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Stage V: the input vertex's groups (or a state write) in registers, handed to stage L one
  // group per clock (gi_q: the next group). A new draw is detected here, in input order.
  // ---------------------------------------------------------------------------------------------
  logic                  v_valid_q, v_valid_d;
  logic                  v_wr_q,    v_wr_d;      // a state write (invalidates every line)
  logic                  v_mat_q,   v_mat_d;     // ... to a matrix register
  logic [3:0]            v_widx_q,  v_widx_d;
  logic [31:0]           v_wval_q,  v_wval_d;
  logic                  v_nd_q,    v_nd_d;      // the first vertex of a new draw
  logic [2:0]            v_ng_q,    v_ng_d;
  logic [3:0][25:0]      v_gl0_q,   v_gl0_d;
  logic [3:0]            v_use1_q,  v_use1_d;
  logic [3:0][3:0]       v_amask_q, v_amask_d;
  logic [3:0][4:0]       v_aw_q,    v_aw_d;
  logic [3:0][2:0]       v_fmt_q,   v_fmt_d;
  logic [4:0]            v_slot_q,  v_slot_d;
  logic                  v_first_q, v_first_d;
  logic [1:0]            gi_q,      gi_d;        // the group V hands to L next
  logic [15:0]           cdraw_q,   cdraw_d;     // draw of the last vertex taken
  logic                  cdv_q,     cdv_d;       // ... valid (since reset / the last write)
  logic                  v_last;                 // V's current group is its last
  logic                  l_load;                 // L takes V's current group this clock

  // ---------------------------------------------------------------------------------------------
  // Stage L: tag lookup (tags read from the tag SRAMs in the clock L was loaded), allocation,
  // line requests and the descriptor. Two ways per set: sets = line address mod Sets; the tags of
  // the even and odd sets in two sram_1r1w banks (one word = both ways' tags), so lines G and
  // G + 1 (consecutive sets) are looked up in one clock; valid bits and the LRU bit per set in
  // flops (cleared in one clock by an invalidation).
  // ---------------------------------------------------------------------------------------------
  logic                  l_valid_q, l_valid_d;
  logic                  l_new_q,   l_new_d;     // L's first clock: the tag SRAM output is its own
  logic                  l_wr_q,    l_wr_d;
  logic                  l_mat_q,   l_mat_d;
  logic [3:0]            l_widx_q,  l_widx_d;
  logic [31:0]           l_wval_q,  l_wval_d;
  logic                  l_nd_q,    l_nd_d;      // invalidate every line before the lookup
  logic [25:0]           l_l0_q,    l_l0_d;      // line G
  logic [25:0]           l_l1_q,    l_l1_d;      // line G + 1 (mod 2^26), added as L is loaded
  logic                  l_use0_q,  l_use0_d;
  logic                  l_use1_q,  l_use1_d;
  logic                  l_eov_q,   l_eov_d;
  logic [3:0]            l_amask_q, l_amask_d;
  logic [3:0][4:0]       l_aw_q,    l_aw_d;
  logic [3:0][2:0]       l_fmt_q,   l_fmt_d;
  logic [4:0]            l_slot_q,  l_slot_d;
  logic                  l_first_q, l_first_d;
  logic                  l_miss0_q, l_miss0_d;   // the lookup's outcome, kept after the first clock
  logic                  l_miss1_q, l_miss1_d;
  logic                  l_way0_q,  l_way0_d;
  logic                  l_way1_q,  l_way1_d;
  logic                  g0d_q,     g0d_d;       // line G has been queued already
  logic                  l_done;                 // L finishes its group (or write) this clock

  logic [Sets-1:0][1:0]  cval_q,  cval_d;        // valid per set and way
  logic [Sets-1:0]       clru_q,  clru_d;        // per set: the way to replace when both are valid
  logic [1:0]            fwd_v_q, fwd_v_d;       // per bank: the tag word written last clock ...
  logic [1:0][IdxW-1:0]  fwd_idx_q, fwd_idx_d;
  logic [1:0][2*TagW-1:0] fwd_w_q, fwd_w_d;
  logic [1:0]            t_we, t_re;
  logic [1:0][IdxW-1:0]  t_waddr, t_raddr;
  logic [1:0][2*TagW-1:0] t_wdata, t_rdata, t_word;

  logic [CredW-1:0]                cred_q,  cred_d;   // lines queued or requested and not yet
                                                      // consumed
  logic [$clog2(DescDepth+1)-1:0]  dcnt_q,  dcnt_d;   // descriptors pushed and not yet popped
  logic                            d_room;            // room for a descriptor (no combinational
                                                      // path from the FIFO's ready)

  logic [25:0]     c_l1, n_l0;
  logic [SetW-1:0] c_s0, c_s1, n_s0, n_s1;
  logic [TagW-1:0] c_t0, c_t1;
  logic [1:0]      c_v0, c_v1, c_h0, c_h1;
  logic [2*TagW-1:0] c_w0, c_w1;
  logic            c_hit0, c_hit1, c_vic0, c_vic1, c_nway0, c_nway1, c_nmiss0, c_nmiss1;
  logic            c_miss0, c_miss1, c_way0, c_way1;
  logic            rq_room;      // the request queue and the response FIFO have room
  logic            req0, req1;   // line G / G + 1 is queued this clock
  logic            rq_ready;     // the request queue is not full
  logic [25:0]     rq_line;      // the line queued
  logic            g_done;       // the group issues (its descriptor is pushed)
  logic            rsp_pop;      // a line leaves the response FIFO (consume)

  logic        desc_push, desc_in_ready, desc_valid, desc_pop;
  logic        desc_empty, desc_full;
  logic [$clog2(DescDepth+2):0] desc_count;
  desc_t       desc_in, desc_head;

  // Stage V
  always_comb begin
    v_last = v_wr_q || (v_ng_q <= 3'd1) || ({1'b0, gi_q} == 3'(v_ng_q - 3'd1));
    l_load = v_valid_q && (!l_valid_q || l_done);
    e_take = e_valid && (!v_valid_q || (l_load && v_last));

    v_valid_d = v_valid_q;
    v_wr_d    = v_wr_q;
    v_mat_d   = v_mat_q;
    v_widx_d  = v_widx_q;
    v_wval_d  = v_wval_q;
    v_nd_d    = v_nd_q;
    v_ng_d    = v_ng_q;
    v_gl0_d   = v_gl0_q;
    v_use1_d  = v_use1_q;
    v_amask_d = v_amask_q;
    v_aw_d    = v_aw_q;
    v_fmt_d   = v_fmt_q;
    v_slot_d  = v_slot_q;
    v_first_d = v_first_q;
    gi_d      = gi_q;
    cdraw_d   = cdraw_q;
    cdv_d     = cdv_q;
    if (l_load) begin
      if (v_last) begin
        v_valid_d = 1'b0;
        gi_d      = 2'd0;
      end else begin
        gi_d = gi_q + 2'd1;
      end
    end
    if (e_take) begin
      v_valid_d = 1'b1;
      v_wr_d    = e_head.wr;
      v_mat_d   = e_head.mat;
      v_widx_d  = e_head.widx;
      v_wval_d  = e_head.wval;
      v_nd_d    = !e_head.wr && (!cdv_q || (e_head.draw != cdraw_q));
      v_ng_d    = ng;
      v_gl0_d   = g_l0;
      v_use1_d  = g_use1;
      v_amask_d = g_amask;
      v_aw_d    = a_w;
      v_fmt_d   = e_head.fmt;
      v_slot_d  = e_head.slot;
      v_first_d = e_head.first;
      if (e_head.wr) begin
        cdv_d = 1'b0;
      end else begin
        cdraw_d = e_head.draw;
        cdv_d   = 1'b1;
      end
    end
  end

  // Stage L: the lookup (its first clock), then requests and the descriptor
  always_comb begin
    d_room  = (32'(dcnt_q) < DescDepth);
    // the tag words of L's sets: the SRAM output, or the word written in the clock it was read
    c_l1 = l_l1_q;
    c_s0 = l_l0_q[SetW-1:0];
    c_s1 = c_l1[SetW-1:0];
    c_t0 = l_l0_q[25:SetW];
    c_t1 = c_l1[25:SetW];
    for (int b = 0; b < 2; b++) begin
      t_word[b] = t_rdata[b];
      if (fwd_v_q[b] && fwd_idx_q[b] == ((c_s0[0] == 1'(b)) ? c_s0[SetW-1:1] : c_s1[SetW-1:1])) begin
        t_word[b] = fwd_w_q[b];
      end
    end
    c_w0 = t_word[c_s0[0]];
    c_w1 = t_word[c_s1[0]];
    c_v0 = l_nd_q ? 2'b00 : cval_q[c_s0];
    c_v1 = l_nd_q ? 2'b00 : cval_q[c_s1];
    for (int w = 0; w < 2; w++) begin
      c_h0[w] = c_v0[w] && (c_w0[w*TagW +: TagW] == c_t0);
      c_h1[w] = c_v1[w] && (c_w1[w*TagW +: TagW] == c_t1);
    end
    c_hit0   = |c_h0;
    c_hit1   = |c_h1;
    c_vic0   = !c_v0[0] ? 1'b0 : !c_v0[1] ? 1'b1 : clru_q[c_s0];
    c_vic1   = !c_v1[0] ? 1'b0 : !c_v1[1] ? 1'b1 : clru_q[c_s1];
    c_nway0  = c_hit0 ? c_h0[1] : c_vic0;
    c_nway1  = c_hit1 ? c_h1[1] : c_vic1;
    c_nmiss0 = l_use0_q && !c_hit0;
    c_nmiss1 = l_use1_q && !c_hit1;
    c_miss0  = l_new_q ? c_nmiss0 : l_miss0_q;
    c_miss1  = l_new_q ? c_nmiss1 : l_miss1_q;
    c_way0   = l_new_q ? c_nway0  : l_way0_q;
    c_way1   = l_new_q ? c_nway1  : l_way1_q;

    desc_in       = '0;
    desc_in.eov   = l_eov_q;
    desc_in.use0  = l_use0_q;
    desc_in.use1  = l_use1_q;
    desc_in.miss0 = c_miss0;
    desc_in.miss1 = c_miss1;
    desc_in.set0  = c_s0;
    desc_in.way0  = c_way0;
    desc_in.way1  = c_way1;
    desc_in.amask = l_amask_q;
    desc_in.aw    = l_aw_q;
    desc_in.slot  = l_slot_q;
    desc_in.first = l_first_q;
    desc_in.fmt   = l_fmt_q;
    if (l_wr_q) begin
      desc_in       = '0;
      desc_in.mat   = 1'b1;
      desc_in.widx  = l_widx_q;
      desc_in.wval  = l_wval_q;
    end

    // Line G first (unless queued in an earlier clock), then line G + 1, each with room
    // reserved in the response FIFO; the queue offers them to the port (registered outputs).
    rq_room = rq_ready && (cred_q != CredW'(RspDepth));
    rq_line = (c_miss0 && !g0d_q) ? l_l0_q : c_l1;
  end

  always_comb begin
    req0       = 1'b0;
    req1       = 1'b0;
    g_done     = 1'b0;
    desc_push  = 1'b0;
    l_done     = 1'b0;
    g0d_d      = g0d_q;

    if (l_valid_q) begin
      if (l_wr_q) begin
        // A matrix write goes down the descriptor stream; other writes only invalidate.
        l_done    = !l_mat_q || d_room;
        desc_push = l_mat_q && d_room;
      end else if (d_room) begin
        // Line G first (unless requested in an earlier clock), then line G + 1: one request per
        // clock, each with room reserved in the response FIFO.
        if (c_miss0 && !g0d_q) begin
          req0 = rq_room;
          if (req0) begin
            if (c_miss1) g0d_d = 1'b1;
            else         g_done = 1'b1;
          end
        end else if (c_miss1) begin
          req1   = rq_room;
          g_done = req1;
        end else begin
          g_done = 1'b1;
        end
        if (g_done) begin
          desc_push = 1'b1;
          g0d_d     = 1'b0;
          l_done    = 1'b1;
        end
      end
    end

    cred_d = cred_q + CredW'(req0 || req1) - CredW'(rsp_pop);
    dcnt_d = dcnt_q + $bits(dcnt_q)'(desc_push) - $bits(dcnt_q)'(desc_pop);
  end

  // L's registers: V's current group when L is free or finishing; the lookup kept.
  always_comb begin
    n_l0 = v_gl0_q[gi_q];
    n_s0 = n_l0[SetW-1:0];
    n_s1 = n_s0 + SetW'(1);
    // the tag words of the sets of the group L takes: read now, used in L's first clock
    t_re = {2{l_load}};
    for (int b = 0; b < 2; b++) begin
      t_raddr[b] = (n_s0[0] == 1'(b)) ? n_s0[SetW-1:1] : n_s1[SetW-1:1];
    end

    l_valid_d = l_valid_q && !l_done;
    l_new_d   = 1'b0;
    l_wr_d    = l_wr_q;
    l_mat_d   = l_mat_q;
    l_widx_d  = l_widx_q;
    l_wval_d  = l_wval_q;
    l_nd_d    = l_nd_q;
    l_l0_d    = l_l0_q;
    l_l1_d    = l_l1_q;
    l_use0_d  = l_use0_q;
    l_use1_d  = l_use1_q;
    l_eov_d   = l_eov_q;
    l_amask_d = l_amask_q;
    l_aw_d    = l_aw_q;
    l_fmt_d   = l_fmt_q;
    l_slot_d  = l_slot_q;
    l_first_d = l_first_q;
    l_miss0_d = c_miss0;
    l_miss1_d = c_miss1;
    l_way0_d  = c_way0;
    l_way1_d  = c_way1;
    if (l_load) begin
      l_valid_d = 1'b1;
      l_new_d   = 1'b1;
      l_wr_d    = v_wr_q;
      l_mat_d   = v_mat_q;
      l_widx_d  = v_widx_q;
      l_wval_d  = v_wval_q;
      l_nd_d    = v_nd_q && (gi_q == 2'd0);
      l_l0_d    = n_l0;
      l_l1_d    = n_l0 + 26'd1;
      l_use0_d  = (v_ng_q != 3'd0);
      l_use1_d  = v_use1_q[gi_q];
      l_eov_d   = v_last;
      l_amask_d = v_amask_q[gi_q];
      l_aw_d    = v_aw_q;
      l_fmt_d   = v_fmt_q;
      l_slot_d  = v_slot_q;
      l_first_d = v_first_q;
    end
  end

  // Tag allocation, in L's first clock; a new draw's first vertex and any state write invalidate
  // every line (before the allocation).
  always_comb begin
    cval_d  = cval_q;
    clru_d  = clru_q;
    t_we    = '0;
    t_waddr = '0;
    t_wdata = '0;
    if (l_valid_q && l_new_q) begin
      if (l_wr_q || l_nd_q) cval_d = '0;
      if (!l_wr_q && l_use0_q) begin
        clru_d[c_s0] = !c_nway0;
        if (c_nmiss0) begin
          cval_d[c_s0][c_nway0]  = 1'b1;
          t_we[c_s0[0]]          = 1'b1;
          t_waddr[c_s0[0]]       = c_s0[SetW-1:1];
          t_wdata[c_s0[0]]       = c_w0;
          t_wdata[c_s0[0]][c_nway0 * TagW +: TagW] = c_t0;
        end
      end
      if (!l_wr_q && l_use1_q) begin
        clru_d[c_s1] = !c_nway1;
        if (c_nmiss1) begin
          cval_d[c_s1][c_nway1]  = 1'b1;
          t_we[c_s1[0]]          = 1'b1;
          t_waddr[c_s1[0]]       = c_s1[SetW-1:1];
          t_wdata[c_s1[0]]       = c_w1;
          t_wdata[c_s1[0]][c_nway1 * TagW +: TagW] = c_t1;
        end
      end
    end
    fwd_v_d   = t_we;
    fwd_idx_d = t_waddr;
    fwd_w_d   = t_wdata;
  end

  for (genvar b = 0; b < 2; b++) begin : g_tag
    sram_1r1w #(
      .Width(2 * TagW),
      .Depth(Sets / 2),
      .MaskW(1)
    ) u_tag (
      .clk_i,
      .we_i    (t_we[b]),
      .waddr_i (t_waddr[b]),
      .wdata_i (t_wdata[b]),
      .wmask_i (1'b1),
      .re_i    (t_re[b]),
      .raddr_i (t_raddr[b]),
      .rdata_o (t_rdata[b])
    );
  end

  // State writes (they take effect as the write enters stage A from P, in order with the vertices)
  always_comb begin
    regs_d = regs_q;
    at_lim_d = at_lim_q;
    at_bo_d  = at_bo_q;
    if (p_valid_q && a_ready && p_q.wr) begin
      regs_d   = regs_w;
      at_lim_d = at_lim_w;
      at_bo_d  = at_bo_w;
    end
  end
  // Request queue: the lines to read, in issue order, offered to the port.
  logic [25:0]             rq_head;
  logic [$clog2(ReqDepth):0] rq_count;
  logic                    rq_empty, rq_full, rq_valid;

  stream_fifo #(
    .Depth(ReqDepth),
    .Width(26)
  ) u_req (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (req0 || req1),
    .in_ready_o  (rq_ready),
    .in_data_i   (rq_line),
    .out_valid_o (rq_valid),
    .out_ready_i (mem_i.req_ready),
    .out_data_o  (rq_head),
    .count_o     (rq_count),
    .empty_o     (rq_empty),
    .full_o      (rq_full)
  );

  // Requests from the request FIFO (registers); every read response is taken at once (room was
  // reserved by the request).
  always_comb begin
    mem_o           = '0;
    mem_o.valid     = rq_valid;
    mem_o.req.addr  = {rq_head, 6'd0};
    mem_o.rsp_ready = 1'b1;
  end

  stream_fifo #(
    .Sram (1'b1),
    .Depth(DescDepth),
    .Width($bits(desc_in))
  ) u_desc (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (desc_push),
    .in_ready_o  (desc_in_ready),
    .in_data_i   (desc_in),
    .out_valid_o (desc_valid),
    .out_ready_i (desc_pop),
    .out_data_o  (desc_head),
    .count_o     (desc_count),
    .empty_o     (desc_empty),
    .full_o      (desc_full)
  );

  // Response FIFO: every read response is taken at once (room was reserved by the request).
  logic         rsp_valid, rsp_in_ready, rsp_empty, rsp_full;
  logic [511:0] rsp_data;
  logic [$clog2(RspDepth+2):0] rsp_count;

  stream_fifo #(
    .Sram (1'b1),
    .Depth(RspDepth),
    .Width(512)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (mem_i.rsp_valid),
    .in_ready_o  (rsp_in_ready),
    .in_data_i   (mem_i.rsp.rdata),
    .out_valid_o (rsp_valid),
    .out_ready_i (rsp_pop),
    .out_data_o  (rsp_data),
    .count_o     (rsp_count),
    .empty_o     (rsp_empty),
    .full_o      (rsp_full)
  );

  // ---------------------------------------------------------------------------------------------
  // Consume stage C0: fills into the SRAM, reads of the lines that hit
  // ---------------------------------------------------------------------------------------------
  logic             f1_q, f1_d;       // the head's line G (of two missing lines) is written
  logic             c1_valid_q, c1_valid_d;
  desc_t            c1_q, c1_d;
  logic             c1_fv_q, c1_fv_d; // C1: a line taken from the response FIFO ...
  logic             c1_fs_q, c1_fs_d; // ... is line G + 1 (else G)
  logic [511:0]     c1_fill_q, c1_fill_d;
  logic             c1_done;          // C1 finishes its group this clock
  logic             c0_go;            // the head descriptor moves to C1
  logic [1:0]       h_nf;             // lines the head takes from the response FIFO
  logic [SetW-1:0]  h_s1;
  logic             h_rd0, h_rd1;     // the head reads line G / G + 1 from the SRAM
  logic [1:0]       sr_we, sr_re;     // per bank (set[0])
  logic [1:0][BankW-1:0] sr_waddr, sr_raddr;
  logic [1:0][511:0] sr_rdata;
  logic [511:0]     sr_wdata;
  logic [SetW-1:0]  w_set;
  logic             w_way;

  always_comb begin
    h_nf   = 2'(desc_head.miss0) + 2'(desc_head.miss1);
    h_s1   = desc_head.set0 + SetW'(1);
    f1_d   = f1_q;
    c0_go  = 1'b0;
    rsp_pop  = 1'b0;
    desc_pop = 1'b0;
    w_set    = desc_head.set0;
    w_way    = desc_head.way0;
    sr_we    = '0;
    sr_re    = '0;
    sr_waddr = '0;
    sr_raddr = '0;
    sr_wdata = rsp_data;
    // line G comes from the FIFO now only when it is the head's only missing line
    h_rd0  = desc_head.use0 && !(desc_head.miss0 && !desc_head.miss1);
    h_rd1  = desc_head.use1 && !desc_head.miss1;
    if (desc_valid) begin
      if (h_nf == 2'd2 && !f1_q) begin
        // first of two missing lines: into the SRAM (read back at the go, like a hit)
        if (rsp_valid) begin
          rsp_pop = 1'b1;
          f1_d    = 1'b1;
          w_set   = desc_head.set0;
          sr_we[w_set[0]] = 1'b1;
        end
      end else if ((!c1_valid_q || c1_done) && (h_nf == 2'd0 || rsp_valid)) begin
        c0_go    = 1'b1;
        desc_pop = 1'b1;
        f1_d     = 1'b0;
        if (h_nf != 2'd0) begin
          rsp_pop = 1'b1;
          w_set   = desc_head.miss1 ? h_s1 : desc_head.set0;
          w_way   = desc_head.miss1 ? desc_head.way1 : desc_head.way0;
          sr_we[w_set[0]] = 1'b1;
        end
        if (h_rd0) begin
          sr_re[desc_head.set0[0]]    = 1'b1;
          sr_raddr[desc_head.set0[0]] = {desc_head.set0[SetW-1:1], desc_head.way0};
        end
        if (h_rd1) begin
          sr_re[h_s1[0]]    = 1'b1;
          sr_raddr[h_s1[0]] = {h_s1[SetW-1:1], desc_head.way1};
        end
      end
    end
    sr_waddr[0] = {w_set[SetW-1:1], w_way};
    sr_waddr[1] = {w_set[SetW-1:1], w_way};

    c1_valid_d = c1_valid_q;
    c1_d       = c1_q;
    c1_fv_d    = c1_fv_q;
    c1_fs_d    = c1_fs_q;
    c1_fill_d  = c1_fill_q;
    if (c1_done) c1_valid_d = 1'b0;
    if (c0_go) begin
      c1_valid_d = 1'b1;
      c1_d       = desc_head;
      c1_fv_d    = (h_nf != 2'd0);
      c1_fs_d    = desc_head.miss1;
      c1_fill_d  = rsp_data;
    end
  end

  for (genvar b = 0; b < 2; b++) begin : g_bank
    sram_1r1w #(
      .Width(512),
      .Depth(CacheLines / 2),
      .MaskW(1)
    ) u_data (
      .clk_i,
      .we_i    (sr_we[b]),
      .waddr_i (sr_waddr[b]),
      .wdata_i (sr_wdata),
      .wmask_i (1'b1),
      .re_i    (sr_re[b]),
      .raddr_i (sr_raddr[b]),
      .rdata_o (sr_rdata[b])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Consume stage C1: the attributes' dwords from the window; the vertex to the pack register
  // ---------------------------------------------------------------------------------------------
  logic [1:0][511:0]     bank;             // per data bank: its line, or the fill if it is that bank's
  logic                  fill_bank;        // the bank of the line taken from the response FIFO
  logic [2047:0]         win;              // the two banks' lines twice: a rotation by dwords
  logic [3:0][3:0][31:0] raw_q, raw_d;     // the vertex being assembled [attribute][dword]
  logic [15:0][31:0]     mat_q, mat_d;     // the matrix, in descriptor order
  logic                  pk_valid_q, pk_valid_d;   // pack register: a finished vertex or a row
  desc_t                 pk_q,       pk_d;
  logic [3:0][3:0][31:0] pk_raw_q,   pk_raw_d;     // a matrix row: pk_raw_q[0]
  logic                  push, push_ready;
  pineda_pkg::vtx_in_pkt_t vpkt, rpkt, opkt;
  logic [3:0][31:0]      pos_c, col_c, t0_c, t1_c;
  logic [3:0][7:0]       col_u;
  logic                  pk_free;

  always_comb begin
    // The window is {bank 1, bank 0}: line G is bank set0[0], G + 1 the other one, so a window
    // position {line, dword} is {line ^ set0[0], dword} and an attribute crossing from G into
    // G + 1 wraps round from position 31 to 0 (a rotation; dwords past an attribute's are not
    // used). This selects banks on 5 address bits instead of 1,024 data bits.
    fill_bank = c1_fs_q ? !c1_q.set0[0] : c1_q.set0[0];
    for (int b = 0; b < 2; b++) begin
      bank[b] = (c1_fv_q && (fill_bank == 1'(b))) ? c1_fill_q : sr_rdata[b];
    end
    win = {bank, bank};

    pk_free    = !pk_valid_q || push_ready;
    push       = pk_valid_q && push_ready;
    pk_valid_d = pk_valid_q && !push;
    pk_d       = pk_q;
    pk_raw_d   = pk_raw_q;
    raw_d      = raw_q;
    mat_d      = mat_q;
    c1_done    = 1'b0;
    if (c1_valid_q) begin
      if (c1_q.mat) begin
        if (pk_free) begin
          c1_done = 1'b1;
          mat_d[c1_q.widx] = c1_q.wval;
          pk_valid_d = 1'b1;
          pk_d       = c1_q;
          pk_raw_d   = '0;
          pk_raw_d[0] = {mat_d[{c1_q.widx[3:2], 2'd3}], mat_d[{c1_q.widx[3:2], 2'd2}],
                         mat_d[{c1_q.widx[3:2], 2'd1}], mat_d[{c1_q.widx[3:2], 2'd0}]};
        end
      end else if (!c1_q.eov || pk_free) begin
        c1_done = 1'b1;
        for (int a = 0; a < 4; a++) begin
          if (c1_q.amask[a]) raw_d[a] = 128'(win >> {c1_q.aw[a] ^ {c1_q.set0[0], 4'd0}, 5'd0});
        end
        if (c1_q.eov) begin
          pk_valid_d = 1'b1;
          pk_d       = c1_q;
          pk_raw_d   = raw_d;
          raw_d      = '0;   // elements out of bounds read 0
        end
      end
    end
  end

  always_comb begin
    pos_c = comps(pk_q.fmt[0], pk_raw_q[0]);
    col_c = comps(pk_q.fmt[1], pk_raw_q[1]);
    t0_c  = comps(pk_q.fmt[2], pk_raw_q[2]);
    t1_c  = comps(pk_q.fmt[3], pk_raw_q[3]);
    for (int k = 0; k < 4; k++) col_u[k] = f32_to_unorm8(col_c[k]);

    vpkt        = '0;
    vpkt.kind   = pineda_pkg::VTX_KIND_VERTEX;
    vpkt.pos.x  = pos_c[0];
    vpkt.pos.y  = pos_c[1];
    vpkt.pos.z  = pos_c[2];
    vpkt.pos.w  = pos_c[3];
    vpkt.color  = (pk_q.fmt[1] == 3'd5) ? pk_raw_q[1][0] : col_u;
    vpkt.tex0.u = t0_c[0];
    vpkt.tex0.v = t0_c[1];
    vpkt.tex1.u = t1_c[0];
    vpkt.tex1.v = t1_c[1];
    vpkt.vtx_id = {26'd0, pk_q.first, pk_q.slot};

    rpkt       = '0;
    rpkt.kind  = pineda_pkg::VTX_KIND_MATRIX_ROW;
    rpkt.row   = pk_q.widx[3:2];
    rpkt.pos.x = pk_raw_q[0][0];
    rpkt.pos.y = pk_raw_q[0][1];
    rpkt.pos.z = pk_raw_q[0][2];
    rpkt.pos.w = pk_raw_q[0][3];

    opkt = pk_q.mat ? rpkt : vpkt;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      regs_q      <= pineda_pkg::VF_REGS_RESET;
      at_lim_q    <= '0;  // of VF_REGS_RESET (all zero): size 0 - offset 0 - 4 * 0
      at_bo_q     <= '0;
      mat_q       <= MatReset;
      p_valid_q   <= 1'b0;
      p_q         <= '0;
      p_lo_q      <= '0;
      p_hi_q      <= '0;
      v_valid_q   <= 1'b0;
      v_wr_q      <= 1'b0;
      v_mat_q     <= 1'b0;
      v_widx_q    <= '0;
      v_wval_q    <= '0;
      v_nd_q      <= 1'b0;
      v_ng_q      <= '0;
      v_gl0_q     <= '0;
      v_use1_q    <= '0;
      v_amask_q   <= '0;
      v_aw_q      <= '0;
      v_fmt_q     <= '0;
      v_slot_q    <= '0;
      v_first_q   <= 1'b0;
      gi_q        <= '0;
      cdraw_q     <= '0;
      cdv_q       <= 1'b0;
      l_valid_q   <= 1'b0;
      l_new_q     <= 1'b0;
      l_wr_q      <= 1'b0;
      l_mat_q     <= 1'b0;
      l_widx_q    <= '0;
      l_wval_q    <= '0;
      l_nd_q      <= 1'b0;
      l_l0_q      <= '0;
      l_l1_q      <= 26'd1;
      l_use0_q    <= 1'b0;
      l_use1_q    <= 1'b0;
      l_eov_q     <= 1'b0;
      l_amask_q   <= '0;
      l_aw_q      <= '0;
      l_fmt_q     <= '0;
      l_slot_q    <= '0;
      l_first_q   <= 1'b0;
      l_miss0_q   <= 1'b0;
      l_miss1_q   <= 1'b0;
      l_way0_q    <= 1'b0;
      l_way1_q    <= 1'b0;
      g0d_q       <= 1'b0;
      cval_q      <= '0;
      clru_q      <= '0;
      fwd_v_q     <= '0;
      fwd_idx_q   <= '0;
      fwd_w_q     <= '0;
      cred_q      <= '0;
      dcnt_q      <= '0;
      f1_q        <= 1'b0;
      c1_valid_q  <= 1'b0;
      c1_q        <= '0;
      c1_fv_q     <= 1'b0;
      c1_fs_q     <= 1'b0;
      raw_q       <= '0;
      pk_valid_q  <= 1'b0;
      pk_q        <= '0;
      pk_raw_q    <= '0;
    end else begin
      regs_q      <= regs_d;
      at_lim_q    <= at_lim_d;
      at_bo_q     <= at_bo_d;
      mat_q       <= mat_d;
      p_valid_q   <= p_valid_d;
      p_q         <= p_d;
      p_lo_q      <= p_lo_d;
      p_hi_q      <= p_hi_d;
      v_valid_q   <= v_valid_d;
      v_wr_q      <= v_wr_d;
      v_mat_q     <= v_mat_d;
      v_widx_q    <= v_widx_d;
      v_wval_q    <= v_wval_d;
      v_nd_q      <= v_nd_d;
      v_ng_q      <= v_ng_d;
      v_gl0_q     <= v_gl0_d;
      v_use1_q    <= v_use1_d;
      v_amask_q   <= v_amask_d;
      v_aw_q      <= v_aw_d;
      v_fmt_q     <= v_fmt_d;
      v_slot_q    <= v_slot_d;
      v_first_q   <= v_first_d;
      gi_q        <= gi_d;
      cdraw_q     <= cdraw_d;
      cdv_q       <= cdv_d;
      l_valid_q   <= l_valid_d;
      l_new_q     <= l_new_d;
      l_wr_q      <= l_wr_d;
      l_mat_q     <= l_mat_d;
      l_widx_q    <= l_widx_d;
      l_wval_q    <= l_wval_d;
      l_nd_q      <= l_nd_d;
      l_l0_q      <= l_l0_d;
      l_l1_q      <= l_l1_d;
      l_use0_q    <= l_use0_d;
      l_use1_q    <= l_use1_d;
      l_eov_q     <= l_eov_d;
      l_amask_q   <= l_amask_d;
      l_aw_q      <= l_aw_d;
      l_fmt_q     <= l_fmt_d;
      l_slot_q    <= l_slot_d;
      l_first_q   <= l_first_d;
      l_miss0_q   <= l_miss0_d;
      l_miss1_q   <= l_miss1_d;
      l_way0_q    <= l_way0_d;
      l_way1_q    <= l_way1_d;
      g0d_q       <= g0d_d;
      cval_q      <= cval_d;
      clru_q      <= clru_d;
      fwd_v_q     <= fwd_v_d;
      fwd_idx_q   <= fwd_idx_d;
      fwd_w_q     <= fwd_w_d;
      cred_q      <= cred_d;
      dcnt_q      <= dcnt_d;
      f1_q        <= f1_d;
      c1_valid_q  <= c1_valid_d;
      c1_q        <= c1_d;
      c1_fv_q     <= c1_fv_d;
      c1_fs_q     <= c1_fs_d;
      raw_q       <= raw_d;
      pk_valid_q  <= pk_valid_d;
      pk_q        <= pk_d;
      pk_raw_q    <= pk_raw_d;
    end
  end

  // The fill register needs no reset (it is used only with c1_fv_q).
  always_ff @(posedge clk_i) begin
    c1_fill_q <= c1_fill_d;
  end

  stream_reg #(
    .Width($bits(opkt))
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (push),
    .in_ready_o  (push_ready),
    .in_data_i   (opkt),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  (out_o)
  );

  always_comb begin
    idle_o = !p_valid_q && !e_valid && !v_valid_q && !l_valid_q && desc_empty && !c1_valid_q && !pk_valid_q &&
             !out_valid_o && (cred_q == '0);
  end

`ifndef SYNTHESIS
  logic                       req_held_q;
  pineda_pkg::mem_line_req_t  req_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_held_q <= 1'b0;
      req_prev_q <= '0;
    end else begin
      req_held_q <= mem_o.valid && !mem_i.req_ready;
      req_prev_q <= mem_o.req;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      DescRoom: assert (!desc_push || desc_in_ready)
        else $error("vertex_fetch: descriptor FIFO overflow");
      ReqStable: assert (!req_held_q || (mem_o.valid && mem_o.req == req_prev_q))
        else $error("vertex_fetch: line request changed while stalled");
      RspRoom: assert (!mem_i.rsp_valid || rsp_in_ready)
        else $error("vertex_fetch: response FIFO overflow (the credit rule is broken)");
      RspRead: assert (!mem_i.rsp_valid || !mem_i.rsp.we)
        else $error("vertex_fetch: a write response (it never writes)");
      FillWhenNeeded: assert (!rsp_pop || rsp_valid)
        else $error("vertex_fetch: popping an empty response FIFO");
    end
  end
`endif

  logic unused_sig;
  assign unused_sig = ^{p_q.index, p_q.inst_id, rq_count, rq_empty, rq_full, desc_full, desc_count, rsp_empty, rsp_full, rsp_count, t0_c[3:2], t1_c[3:2],
                        a_addr[0][1:0], a_addr[1][1:0], a_addr[2][1:0], a_addr[3][1:0],
                        mem_i.rsp.src, mem_i.rsp.tag, mem_i.rsp.we, n_s1[0], a_dw[3:0]};

endmodule
