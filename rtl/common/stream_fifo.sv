// SPDX-License-Identifier: Apache-2.0
// stream_fifo: synchronous valid/ready FIFO, its storage registers (Sram = 0) or block RAM
// (Sram = 1, for the large FIFOs: prefetch buffers, line buffers).
//
// Depth entries (power of two, >= 2) of Width bits. The output always comes from a register FIFO
// read straight from its storage, so out_valid_o and out_data_o are functions of registers only
// (never of out_ready_i), and in_ready_o is registered state too. Throughput: one push and one
// pop per clock. Latency: a pushed entry is visible at the output on the next cycle (no
// fall-through). clear_i empties the FIFO at the clock edge (a push in the same cycle is dropped).
//
// Sram = 0: the register FIFO holds all Depth entries. Its storage has no reset and a write
// enable, the usual lowRISC prim_fifo pattern, so that synthesis can map it to a register file
// or RAM. in_ready_o = !full.
// Sram = 1: Depth words in an sram_1r1w plus the register FIFO as a 2-entry output stage that
// hides the SRAM's one-cycle read latency (capacity Depth + 2). A push into an otherwise empty
// FIFO goes straight to the output stage (visible the next cycle, as with Sram = 0); otherwise it
// is written to the SRAM and read out as the output stage drains (2 cycles from SRAM to output).
// in_ready_o = (SRAM not full). count_o counts every word held (SRAM, a read in flight, output
// stage); clear_i also discards a read in flight.
module stream_fifo #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 32,
  parameter bit          Sram  = 1'b0   // 1: the storage is an sram_1r1w (see above)
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    clear_i,
  input  logic                                    in_valid_i,
  output logic                                    in_ready_o,
  input  logic [Width-1:0]                        in_data_i,
  output logic                                    out_valid_o,
  input  logic                                    out_ready_i,
  output logic [Width-1:0]                        out_data_o,
  output logic [$clog2(Depth + (Sram ? 2 : 0)):0] count_o,
  output logic                                    empty_o,
  output logic                                    full_o
);

  localparam int unsigned RDepth = Sram ? 2 : Depth;  // the register FIFO's entries
  localparam int unsigned RAddrW = $clog2(RDepth);
  localparam int unsigned RCntW  = RAddrW + 1;        // one extra wrap bit

  // ---------------------------------------------------------------------------------------------
  // The register FIFO (all of the FIFO, or the SRAM's output stage), fed by r_in_*
  // ---------------------------------------------------------------------------------------------
  logic [RCntW-1:0] wptr_q, wptr_d;
  logic [RCntW-1:0] rptr_q, rptr_d;
  logic [Width-1:0] storage_q [0:RDepth-1];
  logic             r_in_valid, push, pop;
  logic [Width-1:0] r_in_data;
  logic [RCntW-1:0] r_count;
  logic             r_empty, r_full;

  // Outputs: functions of registers only.
  always_comb begin
    r_count     = wptr_q - rptr_q;
    r_empty     = (wptr_q == rptr_q);
    r_full      = (r_count == RCntW'(RDepth));
    out_valid_o = ~r_empty;
    out_data_o  = storage_q[rptr_q[RAddrW-1:0]];
  end

  // Pointer updates (pop in a block of its own: the SRAM side reads it and feeds r_in_valid).
  assign pop = out_valid_o & out_ready_i;
  always_comb begin
    push        = r_in_valid & ~r_full;
    wptr_d      = push ? wptr_q + RCntW'(1) : wptr_q;
    rptr_d      = pop  ? rptr_q + RCntW'(1) : rptr_q;
    if (clear_i) begin
      wptr_d = '0;
      rptr_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
    end
  end

  // Storage: no reset, written only on a push.
  always_ff @(posedge clk_i) begin
    if (push) begin
      storage_q[wptr_q[RAddrW-1:0]] <= r_in_data;
    end
  end

  if (!Sram) begin : g_regs
    always_comb begin
      r_in_valid = in_valid_i;
      r_in_data  = in_data_i;
      in_ready_o = ~r_full;
      full_o     = r_full;
      empty_o    = r_empty;
      count_o    = r_count;
    end
  end else begin : g_sram
    // -------------------------------------------------------------------------------------------
    // The SRAM in front of the output stage
    // -------------------------------------------------------------------------------------------
    localparam int unsigned AddrW  = $clog2(Depth);
    localparam int unsigned PtrW   = AddrW + 1;        // one extra wrap bit
    localparam int unsigned CountW = $clog2(Depth + 2) + 1;

    logic [PtrW-1:0]  swptr_q, swptr_d;  // SRAM write pointer
    logic [PtrW-1:0]  srptr_q, srptr_d;  // SRAM read pointer (reads issued)
    logic             rd_q,    rd_d;     // an SRAM read was issued last cycle: its data is on rdata
    logic [PtrW-1:0]  sram_count;
    logic             s_push, bypass, sram_we, sram_re;
    logic [Width-1:0] sram_rdata;

    // Status: functions of registers only (its own block, so that no tool sees a path from
    // out_ready_i or in_valid_i to them).
    always_comb begin
      sram_count = swptr_q - srptr_q;
      in_ready_o = (sram_count != PtrW'(Depth));
      full_o     = ~in_ready_o;
      count_o    = CountW'(sram_count) + CountW'(rd_q) + CountW'(r_count);
      empty_o    = (count_o == '0);
    end

    always_comb begin
      s_push     = in_valid_i & in_ready_o;
      // Straight to the output stage when nothing older is in the SRAM or in flight.
      bypass     = s_push & (sram_count == '0) & ~rd_q & ~r_full;
      sram_we    = s_push & ~bypass;
      // Read the SRAM while the output stage (with what is in flight) has room after this pop.
      // (r_count + rd_q <= 2 always, so the 3-bit sum cannot wrap.)
      sram_re    = (sram_count != '0) & ({1'b0, r_count} + {2'b0, rd_q} - {2'b0, pop} < 3'd2);
      r_in_valid = rd_q | bypass;
      r_in_data  = rd_q ? sram_rdata : in_data_i;
      swptr_d    = sram_we ? swptr_q + PtrW'(1) : swptr_q;
      srptr_d    = sram_re ? srptr_q + PtrW'(1) : srptr_q;
      rd_d       = sram_re;
      if (clear_i) begin
        swptr_d = '0;
        srptr_d = '0;
        rd_d    = 1'b0;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        swptr_q <= '0;
        srptr_q <= '0;
        rd_q    <= 1'b0;
      end else begin
        swptr_q <= swptr_d;
        srptr_q <= srptr_d;
        rd_q    <= rd_d;
      end
    end

    sram_1r1w #(.Width(Width), .Depth(Depth), .MaskW(1)) u_sram (
      .clk_i,
      .we_i    (sram_we),
      .waddr_i (swptr_q[AddrW-1:0]),
      .wdata_i (in_data_i),
      .wmask_i (1'b1),
      .re_i    (sram_re),
      .raddr_i (srptr_q[AddrW-1:0]),
      .rdata_o (sram_rdata)
    );

`ifndef SYNTHESIS
    // The credit rule guarantees the output stage has room for every SRAM read and bypass.
    always_ff @(posedge clk_i) begin
      if (rst_ni && !clear_i && r_in_valid)
        assert (!r_full) else $error("stream_fifo: SRAM output stage overflow");
      if (rst_ni && !clear_i) assert (!(rd_q && bypass)) else $error("stream_fifo: bypass while a read is in flight");
    end
`endif
  end

`ifndef SYNTHESIS
  initial begin
    assert (Depth >= 2 && (Depth & (Depth - 1)) == 0)
      else $fatal(1, "stream_fifo: Depth must be a power of two >= 2");
  end
`endif

endmodule
