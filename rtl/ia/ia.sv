// SPDX-License-Identifier: Apache-2.0
// ia: input assembler v1 (docs/contract.md §5).
//
// For each draw_pkt_t one read job goes to a line_stream_reader (whole 64-byte lines on the line
// port, FetchLines lines buffered in SRAM): vertex_count * 2 dwords (33-bit count) from
// vb_base + first_vertex * 8 (32-bit wrap). The draw's colour, target and
// clip wait in a small descriptor FIFO (the reader queues jobs back to back, so several draws can
// be in flight). The assembler consumes one group of InDwords dwords per clock (aligned to
// InDwords * 4 bytes; the job's first and last groups may be partial): the draw's dwords
// x0, y0, x1, y1, x2, y2 make one tri_pkt_t (each int32 saturated to [-2^23, 2^23-1]); when fewer
// than 6 dwords of the draw are left at a triangle boundary they are consumed and dropped (1 or 2
// leftover vertices). A group completes at most one triangle (InDwords < 6); if the output is
// not ready then, the whole group waits.
// tri_id counts emitted triangles since reset. An end-of-pipe token (eop = 1) issues no read:
// its descriptor is queued behind the earlier draws' and turns into one tri_pkt_t token (every
// other field 0) after their triangles.
// Throughput: InDwords dwords per clock (default 4: two vertices, a triangle every 1.5 clocks);
// draws follow each other without a bubble (a zero-vertex draw costs one clock). The line buffer
// must cover the memory round trip at that rate: FetchLines = 16 * InDwords lines hide ~250
// cycles. Latency: memory latency + ~3 clocks.
module ia #(
  parameter int unsigned InDwords   = 4,    // dwords consumed per clock: 1, 2 or 4
  parameter int unsigned FetchLines = 64,   // 1024 dwords: 4 dwords/clock at 200 cycles
  parameter int unsigned DescDepth  = 4
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  pineda_pkg::draw_pkt_t in_i,
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output pineda_pkg::tri_pkt_t  out_o,
  output pineda_pkg::mem_port_req_t mem_o,
  input  pineda_pkg::mem_port_rsp_t mem_i,
  output logic                  idle_o
);

  // What the assembler needs of a draw.
  typedef struct packed {
    logic                eop;     // end-of-pipe token
    logic [32:0]         dwords;  // vertex_count * 2
    logic [31:0]         color;
    pineda_pkg::target_t target;
    pineda_pkg::rect_t   clip;
  } desc_t;

  // ---------------------------------------------------------------------------------------------
  // Draw intake: one reader job + one descriptor per draw
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::line_job_t job;
  logic                  job_ready;
  logic        desc_in_ready;
  desc_t       desc_in;
  logic        desc_valid, desc_pop;
  desc_t       desc;
  logic        desc_empty, desc_full;
  logic [$clog2(DescDepth):0] desc_count;
  logic        dat_valid, dat_ready;
  logic        reader_idle;

  always_comb begin
    // A token needs no read job (and no job_ready).
    in_ready_o = (job_ready | in_i.eop) & desc_in_ready;
    job.valid  = in_valid_i & desc_in_ready & !in_i.eop;
    job.addr   = in_i.vb_base + {in_i.first_vertex[28:0], 3'b000};
    job.count  = {in_i.vertex_count, 1'b0};

    desc_in        = '0;
    desc_in.eop    = in_i.eop;
    desc_in.dwords = {in_i.vertex_count, 1'b0};
    desc_in.color  = in_i.color;
    desc_in.target = in_i.target;
    desc_in.clip   = in_i.clip;
  end

  logic [InDwords-1:0][31:0] dat_group;
  logic [InDwords-1:0]       dat_mask;
  logic                      dat_last;

  line_stream_reader #(
    .DepthLines (FetchLines),
    .OutDwords  (InDwords)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .flush_i         (1'b0),
    .job_i           (job),
    .job_ready_o     (job_ready),
    .out_valid_o     (dat_valid),
    .out_ready_i     (dat_ready),
    .out_data_o      (dat_group),
    .out_mask_o      (dat_mask),
    .out_last_o      (dat_last),
    .mem_o,
    .mem_i,
    .idle_o          (reader_idle)
  );

  stream_fifo #(
    .Depth(DescDepth),
    .Width($bits(desc_in))
  ) u_desc (
    .clk_i,
    .rst_ni,
    .clear_i     (1'b0),
    .in_valid_i  (in_valid_i & (job_ready | in_i.eop)),
    .in_ready_o  (desc_in_ready),
    .in_data_i   (desc_in),
    .out_valid_o (desc_valid),
    .out_ready_i (desc_pop),
    .out_data_o  (desc),
    .count_o     (desc_count),
    .empty_o     (desc_empty),
    .full_o      (desc_full)
  );

  // ---------------------------------------------------------------------------------------------
  // Assembler
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned NW = $clog2(InDwords + 1);  // width of a dword count 0..InDwords

  logic [32:0]      cnt_q, cnt_d;    // dwords of the current draw consumed so far
  logic [2:0]       widx_q, widx_d;  // position inside the triangle (0..5)
  logic [4:0][31:0] buf_q, buf_d;    // x0 y0 x1 y1 x2
  logic [31:0]      tri_id_q, tri_id_d;
  logic [32:0]      left;
  logic             tri_push, tri_ready;
  pineda_pkg::tri_pkt_t tri_pkt;

  // The group, its valid dwords moved to the front: v[0 .. n-1] (the mask is contiguous).
  logic [InDwords-1:0][31:0] v;
  logic [NW-1:0]             n;       // valid dwords in the group
  logic [NW-1:0]             first;   // index of the first valid one
  logic [2:0]                bnd;     // v index of the next triangle boundary (6 - widx, or 0)
  logic [NW-1:0]             kept;    // v[0 .. kept-1] are assembled, the rest dropped
  logic                      dropping;
  logic                      completes;  // the kept dwords finish the triangle in progress
  logic [5:0][31:0]          t;       // that triangle's dwords x0 y0 x1 y1 x2 y2

  // int32 -> 24-bit signed, saturating.
  function automatic logic signed [23:0] sat24(input logic [31:0] val);
    logic signed [31:0] s;
    s = $signed(val);
    if (s > 32'sd8388607) begin
      sat24 = 24'sd8388607;
    end else if (s < -32'sd8388608) begin
      sat24 = -24'sd8388608;
    end else begin
      sat24 = s[23:0];
    end
  endfunction

  // Vertices are built in plain struct variables and then placed in the array field
  // (Yosys 0.55 mis-handles member selects on elements of packed arrays of structs).
  pineda_pkg::vtx_t vt0, vt1, vt2;
  pineda_pkg::vattr_t va;  // OP_DRAW's constant per-vertex attributes

  always_comb begin
    // Normalise the group.
    n     = '0;
    first = '0;
    for (int k = InDwords - 1; k >= 0; k--) begin
      if (dat_mask[k]) first = NW'(k);
    end
    for (int unsigned k = 0; k < InDwords; k++) begin
      n = n + NW'(dat_mask[k]);
    end
    v = '0;
    for (int unsigned j = 0; j < InDwords; j++) begin
      for (int unsigned k = j; k < InDwords; k++) begin
        if (32'(first) + j == k) v[j] = dat_group[k];
      end
    end

    // At a triangle boundary with fewer than 6 dwords of the draw left, the rest is dropped
    // (InDwords < 6: at most one boundary in a group).
    left     = desc.dwords - cnt_q;
    bnd      = (widx_q == 3'd0) ? 3'd0 : 3'd6 - widx_q;
    dropping = (32'(bnd) < 32'(n)) && ((left - 33'(bnd)) < 33'd6);
    kept     = dropping ? NW'(bnd) : n;
    completes = (32'(widx_q) + 32'(kept)) >= 32'd6;

    // The completed triangle: positions below widx from buf_q, the rest from the group.
    t = '0;
    for (int unsigned p = 0; p < 6; p++) begin
      for (int unsigned j = 0; j < InDwords; j++) begin
        if (32'(widx_q) + j == p) t[p] = v[j];
      end
    end
    for (int unsigned p = 0; p < 5; p++) begin
      if (p < 32'(widx_q)) t[p] = buf_q[p];
    end
  end

  always_comb begin
    vt0.x = sat24(t[0]);
    vt0.y = sat24(t[1]);
    vt1.x = sat24(t[2]);
    vt1.y = sat24(t[3]);
    vt2.x = sat24(t[4]);
    vt2.y = sat24(t[5]);

    tri_pkt        = '0;
    tri_pkt.v[0]   = vt0;
    tri_pkt.v[1]   = vt1;
    tri_pkt.v[2]   = vt2;
    tri_pkt.color  = desc.color;
    tri_pkt.target = desc.target;
    tri_pkt.clip   = desc.clip;
    tri_pkt.tri_id = tri_id_q;
    tri_pkt.front  = 1'b1;    // screen-space triangles have no facing: front (docs/depth.md)
    // per-vertex attributes: 1/w = 1.0, the draw colour, texture coordinates 0 (contract vattr_t)
    va.rhw   = pineda_pkg::FP32_ONE;
    va.color = desc.color;
    va.uv0   = '0;
    va.uv1   = '0;
    for (int k = 0; k < 3; k++) tri_pkt.a[k] = va;
    if (desc.eop) begin
      tri_pkt     = '0;  // end-of-pipe token
      tri_pkt.eop = 1'b1;
    end
  end

  always_comb begin
    cnt_d     = cnt_q;
    widx_d    = widx_q;
    buf_d     = buf_q;
    tri_id_d  = tri_id_q;
    desc_pop  = 1'b0;
    dat_ready = 1'b0;
    tri_push  = 1'b0;

    if (desc_valid) begin
      if (desc.eop) begin
        if (tri_ready) begin
          tri_push = 1'b1;
          desc_pop = 1'b1;
        end
      end else if (left == 33'd0) begin
        desc_pop = 1'b1;  // empty draw
      end else if (dat_valid && (!completes || tri_ready)) begin
        dat_ready = 1'b1;
        tri_push  = completes;
        // Kept dwords go to their triangle positions (after a completion, from position 0).
        for (int unsigned j = 0; j < InDwords; j++) begin
          if (j < 32'(kept)) begin
            for (int unsigned p = 0; p < 5; p++) begin
              if ((32'(widx_q) + j == p) || (32'(widx_q) + j == p + 6)) buf_d[p] = v[j];
            end
          end
        end
        if (dropping) begin
          widx_d = 3'd0;
        end else if (completes) begin
          widx_d = 3'(32'(widx_q) + 32'(kept) - 32'd6);
        end else begin
          widx_d = 3'(32'(widx_q) + 32'(kept));
        end
        if (left == 33'(n)) begin
          desc_pop = 1'b1;
          cnt_d    = '0;
        end else begin
          cnt_d = cnt_q + 33'(n);
        end
      end
    end
    if (tri_push && !desc.eop) begin
      tri_id_d = tri_id_q + 32'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q    <= '0;
      widx_q   <= '0;
      buf_q    <= '0;
      tri_id_q <= '0;
    end else begin
      cnt_q    <= cnt_d;
      widx_q   <= widx_d;
      buf_q    <= buf_d;
      tri_id_q <= tri_id_d;
    end
  end

  stream_reg #(
    .Width($bits(tri_pkt))
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (tri_push),
    .in_ready_o  (tri_ready),
    .in_data_i   (tri_pkt),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  (out_o)
  );

  always_comb begin
    idle_o = reader_idle && desc_empty && !out_valid_o;
  end

  logic unused_sig;
  assign unused_sig = ^{desc_full, desc_count, in_i.first_vertex[31:29], in_i.draw_id, dat_last};

`ifndef SYNTHESIS
  initial begin
    assert (InDwords == 1 || InDwords == 2 || InDwords == 4)
      else $fatal(1, "ia: InDwords must be 1, 2 or 4");
  end
  // A group never holds more dwords than the draw has left.
  always_ff @(posedge clk_i) begin
    if (rst_ni && desc_valid && !desc.eop && dat_valid && dat_ready) begin
      assert (33'(n) <= left && n != '0)
        else $error("%m: a vertex group crosses the end of its draw");
    end
  end
`endif

endmodule
