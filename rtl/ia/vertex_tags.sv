// SPDX-License-Identifier: Apache-2.0
// vertex_tags: triangle assembly, vertex cache tags and batching (docs/frontend.md §3).
//
// Stage A (assembly) takes one index_pkt_t per clock and keeps the window of the current list
// triangle or the last two strip indices (a cut restarts the strip; odd strip triangles swap
// their first two vertices). A complete triangle, the last position of an instance (close the
// batch) or an end-of-pipe token becomes the work item of stage B.
// Stage B (tags) holds the batch: tag_q[s] is the vertex index in slot s < used_q. Each clock it
// looks the triangle's three indices up in parallel (3 x 32 comparators). With m distinct misses:
//   used + m > VTX_BATCH_SLOTS: close the batch first (the triangle stays);
//   m = 0: emit the triangle;
//   m >= 1: allocate slot used for the first missing vertex and send it on the vertex stream;
//           with m = 1 the triangle goes out in the same clock, else the lookup repeats next clock.
// So a triangle takes max(1, m) clocks: 1 index per clock for lists and strips while m <= 1
// (indices that complete no triangle are taken while stage B works).
// A vertex goes out on the vertex stream in the clock its slot is allocated (first = 1 on slot 0,
// the batch's start), so the vertex stream never waits for the batch to close. Closing a batch
// sets last on its final triangle: the triangle stream keeps its newest packet in a hold register
// until the next triangle of the batch (last = 0) or the close (last = 1) releases it. A token
// closes the batch, then goes out on the triangle stream.
// A front-end state write (wr = 1) closes the batch like a token, then goes out on BOTH streams
// (one vfetch_pkt_t and one prim_pkt_t with wr, wr_idx, wr_val, every other field 0), after the
// closed batch's vertices and triangles: a write never shares a batch with anything. A write in
// the middle of an instance (the CP sends them only between draws) keeps the assembly window
// (list triangle in progress, strip indices and parity), exactly like a token: the next
// triangle is assembled as if the write were not there and lands in a new batch.
module vertex_tags (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    in_valid_i,
  output logic                    in_ready_o,
  input  pineda_pkg::index_pkt_t  in_i,
  output logic                    vtx_valid_o,
  input  logic                    vtx_ready_i,
  output pineda_pkg::vfetch_pkt_t vtx_o,
  output logic                    prim_valid_o,
  input  logic                    prim_ready_i,
  output pineda_pkg::prim_pkt_t   prim_o,
  output logic                    idle_o
);

  localparam int unsigned Slots = pineda_pkg::VTX_BATCH_SLOTS;
  localparam int unsigned SlotW = $clog2(Slots);

  typedef enum logic [1:0] {
    WorkTri   = 2'd0,  // a triangle (close_q: close the batch after it)
    WorkClose = 2'd1,  // close the batch
    WorkToken = 2'd2,  // close the batch, then emit the token
    WorkWrite = 2'd3   // close the batch, then emit the state write on both streams
  } work_e;

  // ---------------------------------------------------------------------------------------------
  // Stage A: assembly
  // ---------------------------------------------------------------------------------------------
  logic [31:0] win0_q, win0_d;
  logic [31:0] win1_q, win1_d;
  logic [1:0]  have_q, have_d;
  logic        par_q,  par_d;

  // Work item
  logic            w_valid_q, w_valid_d;
  work_e           w_kind_q,  w_kind_d;
  logic [2:0][31:0] w_idx_q,  w_idx_d;   // WorkWrite: w_idx_q[0] is wr_val
  logic [7:0]      w_wr_idx_q, w_wr_idx_d;
  logic [31:0]     w_inst_q,  w_inst_d;
  logic [15:0]     w_draw_q,  w_draw_d;
  logic            w_close_q, w_close_d;

  logic w_done;   // stage B finishes the work item this clock
  logic w_free;

  // ---------------------------------------------------------------------------------------------
  // Stage B: tags
  // ---------------------------------------------------------------------------------------------
  logic [Slots-1:0][31:0] tag_q,  tag_d;
  logic [SlotW:0]         used_q, used_d;
  logic [6:0]             ntri_q, ntri_d;   // triangles in the batch (at most VTX_BATCH_TRIS)
  logic                   tri_cap;          // the batch has VTX_BATCH_TRIS triangles
  logic [31:0]            pid_q,  pid_d;

  // Hold register (triangles) and output registers
  logic                    hp_valid_q, hp_valid_d;
  pineda_pkg::prim_pkt_t   hp_q,       hp_d;
  logic                    ov_push, ov_ready;
  pineda_pkg::vfetch_pkt_t ov_pkt;
  logic                    op_push, op_ready;
  pineda_pkg::prim_pkt_t   op_pkt;

  // Lookup
  logic [2:0]             hit;
  logic [2:0][SlotW-1:0]  hslot;
  logic [2:0]             miss;     // distinct misses
  logic [1:0]             nmiss;
  logic [1:0]             first_miss;
  logic [SlotW-1:0]       new_slot;
  logic [2:0][SlotW-1:0]  slot;     // slots of the triangle when m <= 1
  logic                   fits;
  logic                   v_room, p_room;

  always_comb begin
    for (int k = 0; k < 3; k++) begin
      hit[k]   = 1'b0;
      hslot[k] = '0;
      for (int s = Slots - 1; s >= 0; s--) begin
        if ((SlotW + 1)'(s) < used_q && tag_q[s] == w_idx_q[k]) begin
          hit[k]   = 1'b1;
          hslot[k] = SlotW'(s);
        end
      end
    end
    miss[0] = !hit[0];
    miss[1] = !hit[1] && (w_idx_q[1] != w_idx_q[0]);
    miss[2] = !hit[2] && (w_idx_q[2] != w_idx_q[0]) && (w_idx_q[2] != w_idx_q[1]);
    nmiss   = 2'(miss[0]) + 2'(miss[1]) + 2'(miss[2]);
    first_miss = miss[0] ? 2'd0 : (miss[1] ? 2'd1 : 2'd2);
    fits    = ({1'b0, used_q} + (SlotW + 2)'(nmiss)) <= (SlotW + 2)'(Slots);
    tri_cap = (32'(ntri_q) >= pineda_pkg::VTX_BATCH_TRIS);
    new_slot = used_q[SlotW-1:0];
    // With at most one distinct miss, every missing reference is that vertex.
    for (int k = 0; k < 3; k++) begin
      slot[k] = hit[k] ? hslot[k] : new_slot;
    end
    v_room = ov_ready;
    p_room = !hp_valid_q || op_ready;
  end

  // ---------------------------------------------------------------------------------------------
  // Stage B control
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::vfetch_pkt_t vnew;
  pineda_pkg::prim_pkt_t   pnew;
  logic                    emit_v, emit_p, do_close, emit_tok, emit_wr;

  always_comb begin
    vnew          = '0;
    vnew.index    = w_idx_q[first_miss];
    vnew.inst_id  = w_inst_q;
    vnew.slot     = new_slot;
    vnew.first    = (used_q == '0);
    vnew.draw_id  = w_draw_q;
    pnew          = '0;
    pnew.s0       = slot[0];
    pnew.s1       = slot[1];
    pnew.s2       = slot[2];
    pnew.prim_id  = pid_q;
    pnew.draw_id  = w_draw_q;

    emit_v   = 1'b0;
    emit_p   = 1'b0;
    do_close = 1'b0;
    emit_tok = 1'b0;
    emit_wr  = 1'b0;
    w_done   = 1'b0;

    if (w_valid_q) begin
      unique case (w_kind_q)
        WorkTri: begin
          if (!fits || tri_cap) begin
            // The triangle is retried in the empty batch. tri_cap holds from the triangle's first
            // clock (ntri_q changes only when a triangle completes), so nothing is allocated first.
            do_close = p_room;
          end else if (nmiss == 2'd0) begin
            emit_p = p_room;
          end else if (nmiss == 2'd1) begin
            emit_v = v_room && p_room;
            emit_p = v_room && p_room;
          end else begin
            emit_v = v_room;
          end
          w_done = emit_p && !w_close_q;
        end
        WorkClose: begin
          if (used_q == '0) begin
            w_done = 1'b1;
          end else begin
            do_close = p_room;
            w_done   = do_close;
          end
        end
        WorkToken: begin
          if (used_q != '0) begin
            do_close = p_room;
          end else if (!hp_valid_q && op_ready) begin
            emit_tok = 1'b1;
            w_done   = 1'b1;
          end
        end
        WorkWrite: begin
          if (used_q != '0) begin
            do_close = p_room;
          end else if (!hp_valid_q && ov_ready && op_ready) begin
            emit_wr = 1'b1;
            w_done  = 1'b1;
          end
        end
        default: ;
      endcase
    end
  end

  always_comb begin
    tag_d      = tag_q;
    used_d     = used_q;
    ntri_d     = ntri_q;
    pid_d      = pid_q;
    hp_valid_d = hp_valid_q;
    hp_d       = hp_q;
    ov_push    = 1'b0;
    ov_pkt     = vnew;
    op_push    = 1'b0;
    op_pkt     = hp_q;

    if (emit_v) begin
      tag_d[new_slot] = w_idx_q[first_miss];
      used_d          = used_q + (SlotW + 1)'(1);
      ov_push         = 1'b1;
    end
    if (emit_p) begin
      ntri_d     = ntri_q + 7'd1;
      pid_d      = pid_q + 32'd1;
      op_push    = hp_valid_q;
      hp_valid_d = 1'b1;
      hp_d       = pnew;
    end
    if (do_close) begin
      op_push     = 1'b1;
      op_pkt.last = 1'b1;
      hp_valid_d  = 1'b0;
      used_d      = '0;
      ntri_d      = '0;
    end
    if (emit_tok) begin
      op_push     = 1'b1;
      op_pkt      = '0;
      op_pkt.eop  = 1'b1;
    end
    if (emit_wr) begin
      ov_push       = 1'b1;
      ov_pkt        = '0;
      ov_pkt.wr     = 1'b1;
      ov_pkt.wr_idx = w_wr_idx_q;
      ov_pkt.wr_val = w_idx_q[0];
      op_push       = 1'b1;
      op_pkt        = '0;
      op_pkt.wr     = 1'b1;
      op_pkt.wr_idx = w_wr_idx_q;
      op_pkt.wr_val = w_idx_q[0];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Stage A control
  // ---------------------------------------------------------------------------------------------
  logic  tri_ready;   // the input completes a triangle
  logic  [2:0][31:0] tri_idx;

  assign w_free = !w_valid_q || w_done;

  always_comb begin
    win0_d    = win0_q;
    win1_d    = win1_q;
    have_d    = have_q;
    par_d     = par_q;
    w_valid_d = w_valid_q;
    w_kind_d  = w_kind_q;
    w_idx_d   = w_idx_q;
    w_inst_d  = w_inst_q;
    w_draw_d  = w_draw_q;
    w_close_d = w_close_q;
    w_wr_idx_d = w_wr_idx_q;

    tri_ready = (have_q == 2'd2) && !in_i.cut && !in_i.eop && !in_i.wr;
    tri_idx[0] = (in_i.strip && par_q) ? win1_q : win0_q;
    tri_idx[1] = (in_i.strip && par_q) ? win0_q : win1_q;
    tri_idx[2] = in_i.index;

    // A triangle whose batch closes after it becomes a close item once it is emitted.
    if (w_valid_q && w_kind_q == WorkTri && w_close_q && emit_p) begin
      w_kind_d  = WorkClose;
      w_close_d = 1'b0;
    end else if (w_done) begin
      w_valid_d = 1'b0;
    end

    // An index that makes no work item is taken even while stage B is busy.
    in_ready_o = w_free || (!in_i.eop && !in_i.wr && !tri_ready && !in_i.last);
    if (in_valid_i && in_ready_o) begin
      if (in_i.eop) begin
        w_valid_d = 1'b1;
        w_kind_d  = WorkToken;
      end else if (in_i.wr) begin
        // The assembly window is kept (see the header).
        w_valid_d     = 1'b1;
        w_kind_d      = WorkWrite;
        w_idx_d[0]    = in_i.wr_val;
        w_wr_idx_d    = in_i.wr_idx;
      end else begin
        // Window
        if (in_i.cut) begin
          have_d = '0;
          par_d  = 1'b0;
        end else if (!in_i.strip) begin
          if (have_q == 2'd2) begin
            have_d = '0;
          end else begin
            if (have_q == 2'd0) win0_d = in_i.index;
            else                win1_d = in_i.index;
            have_d = have_q + 2'd1;
          end
        end else begin
          if (have_q == 2'd2) begin
            win0_d = win1_q;
            win1_d = in_i.index;
            par_d  = !par_q;
          end else begin
            if (have_q == 2'd0) win0_d = in_i.index;
            else                win1_d = in_i.index;
            have_d = have_q + 2'd1;
          end
        end
        if (in_i.last) begin
          have_d = '0;
          par_d  = 1'b0;
        end
        // Work
        if (tri_ready) begin
          w_valid_d = 1'b1;
          w_kind_d  = WorkTri;
          w_idx_d   = tri_idx;
          w_inst_d  = in_i.inst_id;
          w_draw_d  = in_i.draw_id;
          w_close_d = in_i.last;
        end else if (in_i.last) begin
          w_valid_d = 1'b1;
          w_kind_d  = WorkClose;
          w_close_d = 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      win0_q     <= '0;
      win1_q     <= '0;
      have_q     <= '0;
      par_q      <= 1'b0;
      w_valid_q  <= 1'b0;
      w_kind_q   <= WorkTri;
      w_idx_q    <= '0;
      w_inst_q   <= '0;
      w_draw_q   <= '0;
      w_close_q  <= 1'b0;
      w_wr_idx_q <= '0;
      tag_q      <= '0;
      used_q     <= '0;
      ntri_q     <= '0;
      pid_q      <= '0;
      hp_valid_q <= 1'b0;
      hp_q       <= '0;
    end else begin
      win0_q     <= win0_d;
      win1_q     <= win1_d;
      have_q     <= have_d;
      par_q      <= par_d;
      w_valid_q  <= w_valid_d;
      w_kind_q   <= w_kind_d;
      w_idx_q    <= w_idx_d;
      w_inst_q   <= w_inst_d;
      w_draw_q   <= w_draw_d;
      w_close_q  <= w_close_d;
      w_wr_idx_q <= w_wr_idx_d;
      tag_q      <= tag_d;
      used_q     <= used_d;
      ntri_q     <= ntri_d;
      pid_q      <= pid_d;
      hp_valid_q <= hp_valid_d;
      hp_q       <= hp_d;
    end
  end

  stream_reg #(
    .Width($bits(ov_pkt))
  ) u_vtx_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (ov_push),
    .in_ready_o  (ov_ready),
    .in_data_i   (ov_pkt),
    .out_valid_o (vtx_valid_o),
    .out_ready_i (vtx_ready_i),
    .out_data_o  (vtx_o)
  );

  stream_reg #(
    .Width($bits(op_pkt))
  ) u_prim_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (op_push),
    .in_ready_o  (op_ready),
    .in_data_i   (op_pkt),
    .out_valid_o (prim_valid_o),
    .out_ready_i (prim_ready_i),
    .out_data_o  (prim_o)
  );

  always_comb begin
    idle_o = !w_valid_q && !hp_valid_q && !vtx_valid_o && !prim_valid_o;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(do_close && !hp_valid_q))
        else $error("%m: closing a batch without a triangle");
      assert (used_q <= (SlotW + 1)'(Slots))
        else $error("%m: more than VTX_BATCH_SLOTS vertices in a batch");
    end
  end
`endif

endmodule
