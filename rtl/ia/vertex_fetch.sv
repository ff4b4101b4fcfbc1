// SPDX-License-Identifier: Apache-2.0
// vertex_fetch: attribute fetch and format conversion (docs/frontend.md §5).
//
// Input: vfetch_pkt_t, either a vertex of a batch or a front-end state write (wr = 1).
// State: vertex buffers 0 (per vertex, element = index) and 1 (per instance, element = inst_id)
// with base, stride [15:0] and size; four attributes (position, colour, tex0, tex1), each
// [2:0] ATTR_FMT_*, [3] buffer, [31:16] byte offset; the position matrix (reset identity).
// Issue stage: for attribute a in order, with n dwords (F32xN: N, UNORM8X4: 1), the element is at
// ofs = element * stride + offset (exact, 49 bits); it is in bounds when ofs + 4n <= size, and
// then one reader job of n dwords at base + ofs (mod 2^32, dword aligned) is issued; an element
// out of bounds reads 0 without a memory read. One attribute per clock; the vertex's formats and
// in-bounds bits go into a descriptor FIFO.
// Assembly stage: takes the descriptor, gets the attributes' dwords in order (from the reader
// or the fetch cache, below), then forms one vtx_in_pkt_t (kind VERTEX, vtx_id = {first, slot}):
//   F32xN: the N components, the rest (0, 0, 0, 1); UNORM8X4: c / 255 per byte (unorm8_to_f32);
//   disabled (or reserved format): (0, 0, 0, 1). Colour: UNORM8X4 passes the dword; otherwise the
//   four components through f32_to_unorm8. Texture coordinates: components x, y.
// State writes to FE_MATRIX0..+15 wait until every vertex ahead has gone out, then update the
// matrix and send that row (kind MATRIX_ROW). Other state writes take effect at once (a vertex
// already issued keeps its formats in its descriptor).
//
// Fetch cache (CacheEn = 1; docs/frontend.md §5): direct mapped, CacheLines lines of 16 bytes
// (line-aligned byte addresses; set = line address mod CacheLines). An in-bounds element at byte
// address A = base + ofs touches one line, or two when A[3:2] + n > 4. It is CACHED when those
// whole lines lie inside its buffer: ofs >= A[3:0] and ofs - A[3:0] + 16 * lines <= size
// (exact), so a line fill never reads a byte outside [base, base + size) (mod 2^32); otherwise
// it is read directly as without the cache (n dwords at A). Tags are looked up and allocated at
// ISSUE (in order, both lines of an element in one clock); a missing line is filled by a reader
// job of 4 dwords (8 when both lines miss: one job). Data is written and read at CONSUME, in the
// assembly stage, in the same order: a hit on a line whose fill is still in flight reads correct
// data (the fill is written when consumed, before the hit is consumed), and a later allocation
// of the same set never overwrites data an earlier hit still needs (its fill is consumed after
// that hit). Any state write, and the first vertex of every draw (a draw_id different from the
// previous vertex's), invalidates every line (at issue, in order): memory may change between
// draws (COPY, host writes between submissions), not during one, so data is never served stale
// and lines are shared only within a draw.
// Throughput: 1 attribute issue per clock. Assembly: a fill cursor takes one reader dword per
// clock (an uncached attribute's n dwords, 4 per missing line) and a read cursor reads one cached
// attribute per clock (both lines in parallel; in the clock of its last fill dword, forwarded),
// overlapped except that a line fill waits until every earlier cached attribute has been read.
// A finished vertex moves to a pack register (where it is converted) in the clock it finishes.
// E.g. about 9 clocks for a vertex with F32x4 + UNORM8x4 + 2 x F32x2 (9 dwords) uncached, 4
// when every line hits.
module vertex_fetch #(
  parameter int unsigned FetchDepth = 256,
  parameter int unsigned DescDepth  = 32,
  parameter bit          CacheEn    = 1'b1,
  parameter int unsigned CacheLines = 64   // a power of two, >= 2
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    in_valid_i,
  output logic                    in_ready_o,
  input  pineda_pkg::vfetch_pkt_t in_i,
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output pineda_pkg::vtx_in_pkt_t out_o,
  output logic                    mem_req_valid_o,
  input  logic                    mem_req_ready_i,
  output pineda_pkg::mem_req_t    mem_req_o,
  input  logic                    mem_rsp_valid_i,
  output logic                    mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t    mem_rsp_i,
  output logic                    idle_o
);

  localparam logic [31:0] One = pineda_pkg::FP32_ONE;
  // mat[4r + c] = M[r][c]; resets to the identity.
  localparam logic [511:0] MatReset = pineda_pkg::FE_MATRIX0_RESET;

  localparam int unsigned SetW = $clog2(CacheLines);
  localparam int unsigned TagW = 28 - SetW;   // line address [27:0] = {tag, set}

  typedef struct packed {
    logic [4:0]            slot;
    logic                  first;
    logic [3:0][2:0]       fmt;
    logic [3:0]            need;    // enabled and in bounds: its data follows (reader or cache)
    logic [3:0]            cached;  // read through the cache (else its n dwords from the reader)
    logic [3:0]            miss0;   // cached: the first line is filled from the reader (4 dwords)
    logic [3:0]            miss1;   // cached: the second line is filled from the reader
    logic [3:0][SetW-1:0]  set0;    // cached: set of the first line (the second is set0 + 1)
    logic [3:0][1:0]       w0;      // cached: first dword within the first line
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
  // State
  // ---------------------------------------------------------------------------------------------
  logic [1:0][31:0]  vb_base_q,   vb_base_d;
  logic [1:0][15:0]  vb_stride_q, vb_stride_d;
  logic [1:0][31:0]  vb_size_q,   vb_size_d;
  logic [3:0][31:0]  attr_q,      attr_d;
  logic [15:0][31:0] mat_q,       mat_d;

  // ---------------------------------------------------------------------------------------------
  // Issue stage
  // ---------------------------------------------------------------------------------------------
  logic [1:0]       ia_q, ia_d;      // attribute being issued
  logic [1:0][47:0] prod;            // element * stride per buffer
  logic [3:0]       en, inb, abuf;
  logic [3:0][2:0]  n_dw;
  logic [3:0][31:0] a_addr;
  logic [3:0][2:0]  a_fmt;
  logic [49:0]      a_end [4];
  logic [49:0]      a_ofs [4];

  always_comb begin
    prod[0] = 48'(in_i.index)   * 48'(vb_stride_q[0]);
    prod[1] = 48'(in_i.inst_id) * 48'(vb_stride_q[1]);
    for (int a = 0; a < 4; a++) begin
      a_fmt[a]  = attr_q[a][2:0];
      abuf[a]   = attr_q[a][3];
      en[a]     = (a_fmt[a] >= 3'd1) && (a_fmt[a] <= 3'd5);
      n_dw[a]   = (a_fmt[a] == 3'd5) ? 3'd1 : a_fmt[a];
      a_ofs[a]  = 50'(prod[abuf[a]]) + 50'(attr_q[a][31:16]);
      a_end[a]  = a_ofs[a] + 50'({n_dw[a], 2'b00});
      inb[a]    = en[a] && (a_end[a] <= 50'(vb_size_q[abuf[a]]));
      a_addr[a] = vb_base_q[abuf[a]] + prod[abuf[a]][31:0] + {16'd0, attr_q[a][31:16]};
    end
  end

  logic        job_valid, job_ready;
  logic [31:0] job_addr;
  logic [32:0] job_count;
  logic        dat_valid, dat_ready;
  logic [31:0] dat;
  logic        reader_idle;

  logic        desc_push, desc_in_ready, desc_valid, desc_pop, desc_empty, desc_full;
  logic [$clog2(DescDepth):0] desc_count;
  desc_t       desc_in, desc_head;

  logic        is_mat;      // the input is a matrix state write
  logic        mat_go;      // ... and it is carried out now
  logic        ia_step;     // the current attribute is done with
  logic        asm_idle;

  // Fetch cache tags (lookup and allocation at issue)
  logic [CacheLines-1:0]           cval_q, cval_d;
  logic [CacheLines-1:0][TagW-1:0] ctag_q, ctag_d;
  logic [15:0]                     cdraw_q, cdraw_d;  // draw of the last vertex taken
  logic                            cdv_q,   cdv_d;    // ... valid (since reset / the last write)
  logic                            c_newdraw;         // a new draw's first attribute issues
  logic [31:0]     c_a;          // byte address of the current attribute's element
  logic            c_two;        // it touches two lines
  logic [49:0]     c_lofs;       // offset of its first line from the buffer base (when >= 0)
  logic [49:0]     c_lend;       // end of its last line, from the buffer base
  logic            c_cached;
  logic [27:0]     c_l0, c_l1;   // line addresses
  logic [SetW-1:0] c_s0, c_s1;
  logic            c_hit0, c_hit1, c_miss0, c_miss1;
  logic [3:0]      d_cached, d_miss0, d_miss1;
  logic [3:0][SetW-1:0] d_set0;
  logic [3:0][1:0] d_w0;
  logic [3:0]      dq_cached, dq_miss0, dq_miss1;   // of the attributes issued so far
  logic [3:0][SetW-1:0] dq_set0;
  logic [3:0][1:0] dq_w0;

  always_comb begin
    c_a      = a_addr[ia_q];
    c_two    = (3'(c_a[3:2]) + n_dw[ia_q]) > 3'd4;
    c_lofs   = a_ofs[ia_q] - 50'(c_a[3:0]);
    c_lend   = c_lofs + (c_two ? 50'd32 : 50'd16);
    c_cached = CacheEn && inb[ia_q] && (a_ofs[ia_q] >= 50'(c_a[3:0])) &&
               (c_lend <= 50'(vb_size_q[abuf[ia_q]]));
    c_l0     = c_a[31:4];
    c_l1     = c_l0 + 28'd1;
    c_s0     = c_l0[SetW-1:0];
    c_s1     = c_l1[SetW-1:0];
    // The first attribute of a draw's first vertex sees the cache invalidated.
    c_newdraw = in_valid_i && !in_i.wr && (ia_q == 2'd0) && (!cdv_q || (in_i.draw_id != cdraw_q));
    c_hit0   = !c_newdraw && cval_q[c_s0] && (ctag_q[c_s0] == c_l0[27:SetW]);
    c_hit1   = !c_newdraw && cval_q[c_s1] && (ctag_q[c_s1] == c_l1[27:SetW]);
    c_miss0  = c_cached && !c_hit0;
    c_miss1  = c_cached && c_two && !c_hit1;

    // Per-attribute cache fields: those of earlier attributes were registered as they issued.
    d_cached = dq_cached;
    d_miss0  = dq_miss0;
    d_miss1  = dq_miss1;
    d_set0   = dq_set0;
    d_w0     = dq_w0;
    d_cached[ia_q] = c_cached;
    d_miss0[ia_q]  = c_miss0;
    d_miss1[ia_q]  = c_miss1;
    d_set0[ia_q]   = c_s0;
    d_w0[ia_q]     = c_a[3:2];

    if (!c_cached) begin
      job_addr  = {c_a[31:2], 2'b00};
      job_count = 33'(n_dw[ia_q]);
    end else begin
      job_addr  = {(c_miss0 ? c_l0 : c_l1), 4'd0};
      job_count = (c_miss0 && c_miss1) ? 33'd8 : 33'd4;
    end

    desc_in        = '0;
    desc_in.slot   = in_i.slot;
    desc_in.first  = in_i.first;
    desc_in.fmt    = a_fmt;
    desc_in.need   = inb;
    desc_in.cached = d_cached;
    desc_in.miss0  = d_miss0;
    desc_in.miss1  = d_miss1;
    desc_in.set0   = d_set0;
    desc_in.w0     = d_w0;

    is_mat = in_i.wr && (in_i.wr_idx >= pineda_pkg::FE_MATRIX0) &&
             (in_i.wr_idx < pineda_pkg::FE_MATRIX0 + 8'd16);

    job_valid  = 1'b0;
    desc_push  = 1'b0;
    ia_step    = 1'b0;
    mat_go     = 1'b0;
    in_ready_o = 1'b0;
    ia_d       = ia_q;

    if (in_valid_i) begin
      if (in_i.wr) begin
        if (!is_mat) begin
          in_ready_o = 1'b1;
        end else begin
          mat_go     = desc_empty && asm_idle && push_ready;
          in_ready_o = mat_go;
        end
      end else begin
        // The last attribute also needs room for the descriptor.
        if (ia_q != 2'd3 || desc_in_ready) begin
          if (inb[ia_q] && (!c_cached || c_miss0 || c_miss1)) begin
            job_valid = 1'b1;
            ia_step   = job_ready;
          end else begin
            ia_step = 1'b1;
          end
        end
        if (ia_step) begin
          ia_d = ia_q + 2'd1;
          if (ia_q == 2'd3) begin
            desc_push  = 1'b1;
            in_ready_o = 1'b1;
          end
        end
      end
    end
  end

  // State writes
  always_comb begin
    vb_base_d   = vb_base_q;
    vb_stride_d = vb_stride_q;
    vb_size_d   = vb_size_q;
    attr_d      = attr_q;
    mat_d       = mat_q;
    if (in_valid_i && in_ready_o && in_i.wr) begin
      unique case (in_i.wr_idx)
        pineda_pkg::FE_VB0_BASE:   vb_base_d[0]   = in_i.wr_val;
        pineda_pkg::FE_VB0_STRIDE: vb_stride_d[0] = in_i.wr_val[15:0];
        pineda_pkg::FE_VB0_SIZE:   vb_size_d[0]   = in_i.wr_val;
        pineda_pkg::FE_VB1_BASE:   vb_base_d[1]   = in_i.wr_val;
        pineda_pkg::FE_VB1_STRIDE: vb_stride_d[1] = in_i.wr_val[15:0];
        pineda_pkg::FE_VB1_SIZE:   vb_size_d[1]   = in_i.wr_val;
        pineda_pkg::FE_ATTR_POS:   attr_d[0]      = in_i.wr_val;
        pineda_pkg::FE_ATTR_COLOR: attr_d[1]      = in_i.wr_val;
        pineda_pkg::FE_ATTR_TEX0:  attr_d[2]      = in_i.wr_val;
        pineda_pkg::FE_ATTR_TEX1:  attr_d[3]      = in_i.wr_val;
        default: begin
          if (is_mat) mat_d[in_i.wr_idx[3:0]] = in_i.wr_val;
        end
      endcase
    end
  end

  // Tag allocation of the issuing attribute; any state write invalidates every line.
  always_comb begin
    cval_d  = cval_q;
    ctag_d  = ctag_q;
    cdraw_d = cdraw_q;
    cdv_d   = cdv_q;
    if (c_newdraw) begin
      cval_d = '0;  // before this clock's allocation
    end
    if (ia_step && (ia_q == 2'd0)) begin
      cdraw_d = in_i.draw_id;
      cdv_d   = 1'b1;
    end
    if (ia_step && c_cached) begin
      if (c_miss0) begin
        cval_d[c_s0] = 1'b1;
        ctag_d[c_s0] = c_l0[27:SetW];
      end
      if (c_miss1) begin
        cval_d[c_s1] = 1'b1;
        ctag_d[c_s1] = c_l1[27:SetW];
      end
    end
    if (in_valid_i && in_ready_o && in_i.wr) begin
      cval_d = '0;
      cdv_d  = 1'b0;
    end
  end

  mem_stream_reader #(
    .Depth(FetchDepth)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .flush_i         (1'b0),
    .job_valid_i     (job_valid),
    .job_ready_o     (job_ready),
    .job_addr_i      (job_addr),
    .job_count_i     (job_count),
    .out_valid_o     (dat_valid),
    .out_ready_i     (dat_ready),
    .out_data_o      (dat),
    .mem_req_valid_o,
    .mem_req_ready_i,
    .mem_req_o,
    .mem_rsp_valid_i,
    .mem_rsp_ready_o,
    .mem_rsp_i,
    .idle_o          (reader_idle)
  );

  stream_fifo #(
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

  // ---------------------------------------------------------------------------------------------
  // Assembly stage
  // ---------------------------------------------------------------------------------------------
  logic                  act_q,  act_d;    // a descriptor is loaded
  desc_t                 cur_q,  cur_d;
  logic [3:0]            left_q, left_d;   // attributes with dwords still to come from the reader
  logic [3:0]            rleft_q, rleft_d; // cached attributes still to be read from the cache
  logic [1:0]            k_q,    k_d;      // dword within the current attribute or line fill
  logic [3:0][3:0][31:0] raw_q,  raw_d;    // [attribute][dword]
  logic [1:0]            ca;               // fill cursor: lowest bit of left_q
  logic [1:0]            ra;               // read cursor: lowest bit of rleft_q
  logic                  rd;               // the read cursor reads this clock
  logic [3:0]            r_below;          // cached attributes before the fill cursor still to read
  logic                  f_ok;             // the fill cursor may consume a dword
  logic                  f_last;           // ... and it is the last dword of a cached attribute
  logic                  rd_fwd;           // the read cursor reads that attribute now (forwarded)
  logic                  fin;              // the vertex moves to the pack register
  logic                  pk_valid_q, pk_valid_d;   // pack register: a finished vertex
  desc_t                 pk_q,       pk_d;
  logic [3:0][3:0][31:0] pk_raw_q,   pk_raw_d;
  logic                  push, push_ready;
  pineda_pkg::vtx_in_pkt_t vpkt, rpkt, opkt;
  logic [3:0][31:0]      pos_c, col_c, t0_c, t1_c;
  logic [3:0][7:0]       col_u;
  // Fetch cache data (written and read at consume, in order)
  logic [CacheLines-1:0][127:0] cdat_q, cdat_d;
  logic [SetW-1:0]       r_s0, r_s1;       // the current attribute's lines
  logic [255:0]          r_pair;           // {second line, first line}
  logic [127:0]          r_dw;             // its four dwords from w0 on
  logic [SetW-1:0]       f_set;            // the line being filled

  always_comb begin
    ca = left_q[0] ? 2'd0 : (left_q[1] ? 2'd1 : (left_q[2] ? 2'd2 : 2'd3));
    ra = rleft_q[0] ? 2'd0 : (rleft_q[1] ? 2'd1 : (rleft_q[2] ? 2'd2 : 2'd3));

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

    // The matrix row a matrix write sends (with the written value in place).
    rpkt       = '0;
    rpkt.kind  = pineda_pkg::VTX_KIND_MATRIX_ROW;
    rpkt.row   = in_i.wr_idx[3:2];
    rpkt.pos.x = mat_d[{in_i.wr_idx[3:2], 2'd0}];
    rpkt.pos.y = mat_d[{in_i.wr_idx[3:2], 2'd1}];
    rpkt.pos.z = mat_d[{in_i.wr_idx[3:2], 2'd2}];
    rpkt.pos.w = mat_d[{in_i.wr_idx[3:2], 2'd3}];
  end

  always_comb begin
    act_d      = act_q;
    cur_d      = cur_q;
    left_d     = left_q;
    rleft_d    = rleft_q;
    k_d        = k_q;
    raw_d      = raw_q;
    pk_valid_d = pk_valid_q;
    pk_d       = pk_q;
    pk_raw_d   = pk_raw_q;
    dat_ready  = 1'b0;
    desc_pop   = 1'b0;
    push       = 1'b0;
    opkt       = vpkt;
    fin        = 1'b0;

    cdat_d    = cdat_q;
    r_s0      = cur_q.set0[ra];
    r_s1      = r_s0 + SetW'(1);
    f_set     = cur_q.miss0[ca] ? cur_q.set0[ca] : (cur_q.set0[ca] + SetW'(1));

    // Two cursors over the vertex's attributes, both in order. The read cursor reads a cached
    // attribute once the fill cursor has passed it (its lines and every earlier fill written),
    // or in the clock its last fill dword arrives (forwarded). The fill cursor writes a line
    // only when every earlier cached attribute has been read (or is read in this clock, from the
    // old contents): a fill never overwrites a line an earlier hit still needs. Uncached dwords
    // go to raw_q and need no such care.
    r_below = rleft_q & ~(4'b1111 << ca);
    rd      = act_q && (rleft_q != '0) && ((left_q == '0) || (ca > ra));
    f_ok    = act_q && (left_q != '0) &&
              (!cur_q.cached[ca] || (r_below == '0) || (rd && (r_below == (4'b0001 << ra))));
    f_last  = f_ok && cur_q.cached[ca] && dat_valid && (k_q == 2'd3) &&
              !(cur_q.miss0[ca] && cur_q.miss1[ca]);
    rd_fwd  = f_last && rleft_q[ca] && (ra == ca);
    r_pair  = {cdat_q[r_s1], cdat_q[r_s0]};
    if (rd_fwd) begin
      // The dword being written completes the attribute's last missing line.
      if (cur_q.miss0[ca]) r_pair[96 +: 32]  = dat;
      else                 r_pair[224 +: 32] = dat;
    end
    r_dw    = 128'(r_pair >> {cur_q.w0[ra], 5'd0});
    if (rd || rd_fwd) begin
      raw_d[ra]   = r_dw;
      rleft_d[ra] = 1'b0;
    end

    if (f_ok && dat_valid) begin
      dat_ready = 1'b1;
      if (!cur_q.cached[ca]) begin
        // Uncached: the attribute's n dwords from the reader, one per clock.
        raw_d[ca][k_q] = dat;
        if (3'(k_q) + 3'd1 == ((cur_q.fmt[ca] == 3'd5) ? 3'd1 : cur_q.fmt[ca])) begin
          left_d[ca] = 1'b0;
          k_d        = '0;
        end else begin
          k_d = k_q + 2'd1;
        end
      end else begin
        // Fill the first, then the second missing line, one dword per clock.
        cdat_d[f_set][32*k_q +: 32] = dat;
        k_d                         = k_q + 2'd1;
        if (k_q == 2'd3) begin
          if (cur_q.miss0[ca]) begin
            cur_d.miss0[ca] = 1'b0;
            left_d[ca]      = cur_q.miss1[ca];
          end else begin
            cur_d.miss1[ca] = 1'b0;
            left_d[ca]      = 1'b0;
          end
        end
      end
    end

    // Output: the pack register goes out; a finished vertex moves into it in the clock it
    // finishes, and the next descriptor is loaded in the same clock.
    if (pk_valid_q && push_ready) begin
      push       = 1'b1;
      pk_valid_d = 1'b0;
    end
    if (act_q && (left_d == '0) && (rleft_d == '0) && (!pk_valid_q || push_ready)) begin
      fin        = 1'b1;
      pk_valid_d = 1'b1;
      pk_d       = cur_q;
      pk_raw_d   = raw_d;
      act_d      = 1'b0;
    end
    if ((!act_q || fin) && desc_valid) begin
      desc_pop = 1'b1;
      act_d    = 1'b1;
      cur_d    = desc_head;
      left_d   = desc_head.need & (~desc_head.cached | desc_head.miss0 | desc_head.miss1);
      rleft_d  = desc_head.need & desc_head.cached;
      k_d      = '0;
      raw_d    = '0;
    end
    if (mat_go) begin
      push = 1'b1;
      opkt = rpkt;
    end
  end

  assign asm_idle = !act_q && !pk_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vb_base_q   <= '0;
      vb_stride_q <= '0;
      vb_size_q   <= '0;
      attr_q      <= '0;
      mat_q       <= MatReset;
      ia_q        <= '0;
      act_q       <= 1'b0;
      cur_q       <= '0;
      left_q      <= '0;
      rleft_q     <= '0;
      pk_valid_q  <= 1'b0;
      pk_q        <= '0;
      pk_raw_q    <= '0;
      k_q         <= '0;
      raw_q       <= '0;
      cval_q      <= '0;
      ctag_q      <= '0;
      cdraw_q     <= '0;
      cdv_q       <= 1'b0;
      dq_cached   <= '0;
      dq_miss0    <= '0;
      dq_miss1    <= '0;
      dq_set0     <= '0;
      dq_w0       <= '0;
    end else begin
      vb_base_q   <= vb_base_d;
      vb_stride_q <= vb_stride_d;
      vb_size_q   <= vb_size_d;
      attr_q      <= attr_d;
      mat_q       <= mat_d;
      ia_q        <= ia_d;
      act_q       <= act_d;
      cur_q       <= cur_d;
      left_q      <= left_d;
      rleft_q     <= rleft_d;
      pk_valid_q  <= pk_valid_d;
      pk_q        <= pk_d;
      pk_raw_q    <= pk_raw_d;
      k_q         <= k_d;
      raw_q       <= raw_d;
      cval_q      <= cval_d;
      ctag_q      <= ctag_d;
      cdraw_q     <= cdraw_d;
      cdv_q       <= cdv_d;
      dq_cached   <= d_cached;
      dq_miss0    <= d_miss0;
      dq_miss1    <= d_miss1;
      dq_set0     <= d_set0;
      dq_w0       <= d_w0;
    end
  end

  // The cache data needs no reset: a line is read only after its fill (valid bits gate hits).
  always_ff @(posedge clk_i) begin
    cdat_q <= cdat_d;
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
    idle_o = asm_idle && desc_empty && reader_idle && !out_valid_o && (ia_q == 2'd0);
  end

  logic unused_sig;
  assign unused_sig = ^{desc_full, desc_count, t0_c[3:2], t1_c[3:2], a_addr[0][1:0], a_addr[1][1:0],
                        a_addr[2][1:0], a_addr[3][1:0]};

endmodule
