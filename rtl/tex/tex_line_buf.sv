// SPDX-License-Identifier: Apache-2.0
// tex_line_buf: the sampler's raw-line buffer (docs/tex.md section 7 step 7): the last Lines
// memory lines of formats whose 4x4 blocks are smaller than a line (BC1: 8 blocks per 64-byte
// line, BC3: 4, B5G6R5: 2), so that a line fetched for one block serves the other blocks of the
// line without another memory request.
//
// Tags (future state, like the L1's): a fully associative array of Lines memory-line addresses
// in flip-flops, looked up when the tag stage pushes a fill record of such a format (look_i, at
// most one a clock). A hit (the line is held, or requested and still in flight) names the entry
// the record takes its line from (no request); a miss allocates the next entry in round-robin
// order (ent_o) and the record's response is written there when it is filled.
// Data: an sram_1r1w of Lines x 512 bits, written (we_i) with a response and read (re_i) for a
// record that takes its line from an entry, both by the fill stage, one record per clock in
// record order. So an entry may be reallocated while records that read its old line are still
// queued: they are filled before the record whose response overwrites it (the fill-record order
// is the guard; no reference counts). A read in the clock after the write of its entry sees the
// new line (a write and a read of one entry in the same clock cannot happen: one record a clock).
// clear_i (inval_i, with no record queued) forgets every line.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_line_buf #(
  parameter int unsigned Lines = 32  // raw lines held, a power of two >= 2
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,
  // tag lookup / allocation
  input  logic                     look_i,
  input  logic [25:0]              line_i,   // memory line (address [31:6])
  output logic                     hit_o,
  output logic [$clog2(Lines)-1:0] ent_o,
  // data
  input  logic                     we_i,
  input  logic [$clog2(Lines)-1:0] waddr_i,
  input  logic [511:0]             wdata_i,
  input  logic                     re_i,
  input  logic [$clog2(Lines)-1:0] raddr_i,
  output logic [511:0]             rdata_o   // the clock after re_i, held until the next
);

  localparam int unsigned EntW = $clog2(Lines);

  logic [Lines-1:0]        v_q, v_d;
  logic [Lines-1:0][25:0]  tag_q, tag_d;
  logic [EntW-1:0]         ptr_q, ptr_d;  // next entry to allocate

  always_comb begin
    hit_o = 1'b0;
    ent_o = ptr_q;
    for (int k = 0; k < Lines; k++) begin
      if (v_q[k] && tag_q[k] == line_i) begin
        hit_o = 1'b1;
        ent_o = EntW'(k);
      end
    end
    v_d = v_q;
    tag_d = tag_q;
    ptr_d = ptr_q;
    if (clear_i) begin
      v_d = '0;
    end else if (look_i && !hit_o) begin
      v_d[ptr_q] = 1'b1;
      tag_d[ptr_q] = line_i;
      ptr_d = ptr_q + EntW'(1);
    end
  end

  sram_1r1w #(.Width(512), .Depth(Lines), .MaskW(1)) u_data (
    .clk_i   (clk_i),
    .we_i    (we_i),
    .waddr_i (waddr_i),
    .wdata_i (wdata_i),
    .wmask_i (1'b1),
    .re_i    (re_i),
    .raddr_i (raddr_i),
    .rdata_o (rdata_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= '0;
      tag_q <= '0;
      ptr_q <= '0;
    end else begin
      v_q <= v_d;
      tag_q <= tag_d;
      ptr_q <= ptr_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (Lines >= 2 && (1 << EntW) == Lines) else $fatal(1, "tex_line_buf: Lines %0d not a power of two >= 2", Lines);
  end
  int n_match;
  always_comb begin
    n_match = 0;
    for (int k = 0; k < Lines; k++) n_match += (v_q[k] && tag_q[k] == line_i) ? 1 : 0;
  end
  always_ff @(posedge clk_i) begin
    if (look_i) assert (n_match <= 1) else $error("tex_line_buf: a line in two entries");
    if (we_i && re_i) assert (waddr_i != raddr_i) else $error("tex_line_buf: an entry written and read in one clock");
    if (clear_i) assert (!look_i) else $error("tex_line_buf: lookup while cleared");
  end
`endif

endmodule
