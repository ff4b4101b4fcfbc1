// SPDX-License-Identifier: Apache-2.0
// index_fetch: index positions of an instanced draw (docs/frontend.md §2).
//
// One idraw_pkt_t at a time. For each instance i < instance_count (instance id
// start_instance + i) and each position k < count it emits one index_pkt_t:
//   non-indexed: index = first + k;
//   indexed:     positions first + k below P = ib_size >> log2(index size) are read from the
//                index buffer (a 16-bit value is the half at bit 1 of its byte address), the
//                others read 0 without touching memory; index = value + base_vertex, except a
//                strip cut (strip && restart && value == INDEX_CUT_16/32): cut = 1, index = 0.
// last marks position count - 1. Reads: one line_stream_reader job per instance (whole 64-byte lines on the
// line port, buffered in SRAM) covering the
// in-bounds positions, nin = min(count, P - first) (0 when P <= first), issued ahead of the
// consumer (jobs queue back to back in the reader). An end-of-pipe token goes through as one
// index_pkt_t token, a front-end state write (wr = 1) as one index_pkt_t write (wr, wr_idx,
// wr_val, every other field 0); both are taken only between draws, so they stay in order with
// the index packets of the draws around them. Index fetch keeps no state of its own (the CP
// carries FE_IB_BASE/FE_IB_SIZE in the draw). count == 0 or instance_count == 0 emits nothing.
// Throughput: one index per clock once the data is there. Latency: memory latency + ~2 clocks.
// A new draw is taken once the previous one has emitted its last index.
module index_fetch #(
  parameter int unsigned FetchLines = 32  // line buffer of the reader (sram_1r1w): 32 lines = 512 dwords
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  pineda_pkg::idraw_pkt_t in_i,
  output logic                   out_valid_o,
  input  logic                   out_ready_i,
  output pineda_pkg::index_pkt_t out_o,
  output pineda_pkg::mem_port_req_t mem_o,
  input  pineda_pkg::mem_port_rsp_t mem_i,
  output logic                   idle_o
);

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic                   busy_q,  busy_d;
  pineda_pkg::idraw_pkt_t cur_q,   cur_d;
  logic [31:0]            nin_q,   nin_d;    // in-bounds positions per instance (indexed)
  logic [31:0]            k_q,     k_d;      // position within the instance
  logic [31:0]            inst_q,  inst_d;   // instances done
  logic [32:0]            jobs_q,  jobs_d;   // reader jobs issued for this draw
  logic                   h0_q,    h0_d;     // 16-bit: the first position is the upper half
  logic                   half_q,  half_d;   // 16-bit: the current position is the upper half

  // ---------------------------------------------------------------------------------------------
  // Per-draw values of the incoming packet
  // ---------------------------------------------------------------------------------------------
  logic [31:0] in_pos;      // whole indices inside the buffer
  logic [31:0] in_nin;
  logic [31:0] in_avail;
  logic [33:0] in_first_ofs;
  logic [31:0] in_start;    // byte address of position first

  always_comb begin
    in_pos   = in_i.index32 ? {2'b00, in_i.ib_size[31:2]} : {1'b0, in_i.ib_size[31:1]};
    in_avail = in_pos - in_i.first;
    in_nin   = '0;
    if (in_pos > in_i.first) begin
      in_nin = (in_avail < in_i.count) ? in_avail : in_i.count;
    end
    in_first_ofs = in_i.index32 ? {in_i.first, 2'b00} : {1'b0, in_i.first, 1'b0};
    in_start     = in_i.ib_base + in_first_ofs[31:0];
  end

  // ---------------------------------------------------------------------------------------------
  // Reader: one job per instance
  // ---------------------------------------------------------------------------------------------
  pineda_pkg::line_job_t job;
  logic        job_ready;
  logic [33:0] cur_first_ofs;
  logic [31:0] cur_start;
  logic        dat_valid, dat_ready;
  logic [31:0] dat;
  logic        reader_idle;

  always_comb begin
    cur_first_ofs = cur_q.index32 ? {cur_q.first, 2'b00} : {1'b0, cur_q.first, 1'b0};
    cur_start     = cur_q.ib_base + cur_first_ofs[31:0];
    job.addr      = {cur_start[31:2], 2'b00};
    job.count     = cur_q.index32 ? {1'b0, nin_q} : ((33'(h0_q) + 33'(nin_q) + 33'd1) >> 1);
    job.valid     = busy_q && cur_q.indexed && (nin_q != '0) &&
                    (jobs_q < {1'b0, cur_q.instance_count});
  end

  logic        dat_mask, dat_last;

  line_stream_reader #(
    .DepthLines(FetchLines),
    .OutDwords (1)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .flush_i         (1'b0),
    .job_i           (job),
    .job_ready_o     (job_ready),
    .out_valid_o     (dat_valid),
    .out_ready_i     (dat_ready),
    .out_data_o      (dat),
    .out_mask_o      (dat_mask),
    .out_last_o      (dat_last),
    .mem_o,
    .mem_i,
    .idle_o          (reader_idle)
  );

  // ---------------------------------------------------------------------------------------------
  // Emit
  // ---------------------------------------------------------------------------------------------
  logic                   push, push_ready;
  pineda_pkg::index_pkt_t pkt;
  logic                   need;       // this position is read from memory
  logic [31:0]            value;
  logic [31:0]            cut_value;
  logic                   last_pos, last_inst;
  logic                   take;       // accept the input packet

  always_comb begin
    need      = cur_q.indexed && (k_q < nin_q);
    value     = cur_q.index32 ? dat : (half_q ? {16'd0, dat[31:16]} : {16'd0, dat[15:0]});
    cut_value = cur_q.index32 ? pineda_pkg::INDEX_CUT_32 : pineda_pkg::INDEX_CUT_16;
    last_pos  = (k_q == cur_q.count - 32'd1);
    last_inst = (inst_q == cur_q.instance_count - 32'd1);

    pkt          = '0;
    pkt.inst_id = cur_q.start_instance + inst_q;
    pkt.strip    = cur_q.strip;
    pkt.last     = last_pos;
    pkt.draw_id  = cur_q.draw_id;
    if (!cur_q.indexed) begin
      pkt.index = cur_q.first + k_q;
    end else if (need && cur_q.strip && cur_q.restart && value == cut_value) begin
      pkt.cut = 1'b1;
    end else begin
      pkt.index = (need ? value : 32'd0) + cur_q.base_vertex;
    end
    if (!busy_q) begin
      pkt = '0;  // end-of-pipe token or state write (only pushed for one)
      if (in_i.eop) begin
        pkt.eop = 1'b1;
      end else begin
        pkt.wr     = 1'b1;
        pkt.wr_idx = in_i.wr_idx;
        pkt.wr_val = in_i.wr_val;
      end
    end
  end

  always_comb begin
    busy_d = busy_q;
    cur_d  = cur_q;
    nin_d  = nin_q;
    k_d    = k_q;
    inst_d = inst_q;
    jobs_d = jobs_q;
    h0_d   = h0_q;
    half_d = half_q;

    push      = 1'b0;
    dat_ready = 1'b0;
    take      = 1'b0;

    if (job.valid && job_ready) begin
      jobs_d = jobs_q + 33'd1;
    end

    if (busy_q) begin
      if (push_ready && (!need || dat_valid)) begin
        push = 1'b1;
        if (need) begin
          dat_ready = cur_q.index32 || half_q || (k_q == nin_q - 32'd1);
          half_d    = !half_q;
        end
        if (last_pos) begin
          k_d    = '0;
          half_d = h0_q;
          inst_d = inst_q + 32'd1;
          if (last_inst) begin
            busy_d = 1'b0;
          end
        end else begin
          k_d = k_q + 32'd1;
        end
      end
    end else if (in_valid_i) begin
      if (in_i.eop || in_i.wr) begin
        if (push_ready) begin
          push = 1'b1;  // token or state write
          take = 1'b1;
        end
      end else begin
        take   = 1'b1;
        busy_d = (in_i.count != '0) && (in_i.instance_count != '0);
        cur_d  = in_i;
        nin_d  = in_i.indexed ? in_nin : '0;
        k_d    = '0;
        inst_d = '0;
        jobs_d = '0;
        h0_d   = !in_i.index32 && in_start[1];
        half_d = !in_i.index32 && in_start[1];
      end
    end
  end

  assign in_ready_o = take;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cur_q  <= '0;
      nin_q  <= '0;
      k_q    <= '0;
      inst_q <= '0;
      jobs_q <= '0;
      h0_q   <= 1'b0;
      half_q <= 1'b0;
    end else begin
      busy_q <= busy_d;
      cur_q  <= cur_d;
      nin_q  <= nin_d;
      k_q    <= k_d;
      inst_q <= inst_d;
      jobs_q <= jobs_d;
      h0_q   <= h0_d;
      half_q <= half_d;
    end
  end

  stream_reg #(
    .Width($bits(pkt))
  ) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i  (push),
    .in_ready_o  (push_ready),
    .in_data_i   (pkt),
    .out_valid_o,
    .out_ready_i,
    .out_data_o  (out_o)
  );

  always_comb begin
    idle_o = !busy_q && reader_idle && !out_valid_o;
  end

  logic unused_sig;
  assign unused_sig = ^{in_first_ofs[33:32], cur_first_ofs[33:32], cur_start[1:0], in_start[31:2],
                       in_start[0], dat_mask, dat_last};

endmodule
