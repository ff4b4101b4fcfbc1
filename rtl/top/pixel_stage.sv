// SPDX-License-Identifier: Apache-2.0
// pixel_stage: INTERP's quads -> TEX (stages 0 and 1) -> COMB -> PW, in order (docs/comb.md
// section 5).
//
// Every quad (and end-of-pipe token) from INTERP is parked in an in-order FIFO (an SRAM stream_fifo of
// ParkDepth entries: TEX keeps up to 256 passes in flight, so a small queue would throttle it).
// A quad also goes to TEX once per combiner stage that samples (model::tex_stages): stage 0
// (om.comb.tex: uv0, om.tex / om.samp, tag 0), then stage 1 (om.comb.tex1: uv1, om.tex1 /
// om.samp1, tag 1), one pass per clock; live = pixels with a covered sample. The quad is parked
// in the clock its last pass enters TEX (sent0_q remembers a stage-0 pass already taken), so a
// quad that samples both stages takes two of TEX's input clocks. TEX returns its results in input
// order, so the head of the park FIFO owns TEX's next one or two results: with two, the first
// (stage 0) waits in texel0_q. The head goes to COMB with texel0 / texel1 = TEX's colours of
// its stages (texel 0 for a stage that does not sample, and for tokens) and st = om.comb. COMB's
// output (interp_pkt_t, alpha-killed pixels cleared, empty quads dropped) is this module's
// output. The parked entry leaves out quad.it (INTERP's planes, 0 after INTERP).
//
// Responses: TEX may hold a line response until the last reader of the L1 line it refills has
// read (docs/tex.md section 7, step 7), but a line client must accept its responses at once
// (contract section 2.1: the arbiter's one response path is shared, and PW's write
// acknowledgements behind a held TEX response would deadlock the pixel path). So TEX's responses
// land in an SRAM stream_fifo of RspDepth lines that always has room: TEX may have at most RspDepth - 1
// requests outstanding (sent and not yet taken from the FIFO); a request beyond that waits
// (valid held back until a response is taken, never withdrawn).
//
// Invalidation: inval_req_i (a DMA copy / fill / resolve job, or an FE_TEX0 / FE_SAMP0 /
// FE_TEX1 / FE_SAMP1 write) sets a pending flag; while it is set no new quad enters TEX (a quad
// whose stage-0 pass is already in still sends its stage-1 pass: TEX cannot drain while its
// result waits for the quad to be parked), and once TEX is idle it gets inval_i (a clock later,
// from a register; its descriptor and L1 caches forget everything) and the flag clears. The
// quads of earlier draws already in TEX drain first, so nothing sampled before the request sees
// it.
module pixel_stage #(
  parameter int unsigned ParkDepth = 512,  // power of two
  parameter int unsigned RspDepth  = 256   // power of two: TEX's response FIFO (lines)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      in_valid_i,
  output logic                      in_ready_o,
  input  pineda_pkg::interp_pkt_t   in_i,
  output logic                      out_valid_o,
  input  logic                      out_ready_i,
  output pineda_pkg::interp_pkt_t   out_o,
  input  logic [31:0]               valid_base_i,   // REG_VALID_BASE
  input  logic [31:0]               valid_limit_i,  // REG_VALID_LIMIT
  input  logic                      inval_req_i,
  // TEX's line client (MEM_LC_TEX)
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output pineda_pkg::mem_line_req_t mem_req_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t mem_rsp_i,
  output logic                      fault_o,        // a faulted quad left TEX (one clock each)
  output logic [2:0]                fault_cause_o,
  // Events of this clock (perf counters)
  output logic                      ev_quad_o,      // a pass entered TEX (a quad, once per stage)
  output logic [2:0]                ev_samples_o,   // its live pixels
  output logic [4:0]                ev_texels_o,    // texels read from TEX's L1 (tex.tap_o)
  output logic [1:0]                ev_lines_o,     // L1 lines allocated (tex.miss_o)
  output logic                      tex_idle_o,
  output logic                      comb_idle_o,
  output logic                      idle_o          // nothing held: park FIFO, TEX, COMB, no inval pending
);

  localparam int unsigned IpW   = pineda_pkg::INTERP_PKT_BITS;
  localparam int unsigned ItW   = pineda_pkg::INTERP_TRI_BITS;
  localparam int unsigned LoW   = 4 * 32 + 2 * 4 * pineda_pkg::FVEC2_BITS;  // pcolor, uv0, uv1 below quad
  localparam int unsigned ParkW = IpW - ItW;

  // ---- input fork: park every quad, send it to TEX once per stage that samples
  logic                     park_in_ready, park_valid, park_pop;
  logic [ParkW-1:0]         park_in, park_out;
  logic                     in_tex0, in_tex1, in_stage1, in_last, park_push;
  logic                     tex_in_valid, tex_in_ready;
  pineda_pkg::tex_in_pkt_t  tex_in;
  logic                     sent0_q, sent0_d;   // the input quad's stage-0 pass is in TEX
  logic                     inval_q, inval_d, fire_q, fire_d, tex_inval;
  logic                     tex_out_valid, tex_out_ready, tex_idle;
  pineda_pkg::tex_out_pkt_t tex_out;
  logic [$clog2(ParkDepth+2):0] park_count;
  logic                     park_empty, park_full;

  always_comb begin
    park_in   = {in_i[IpW-1:LoW+ItW], in_i[LoW-1:0]};
    in_tex0   = !in_i.quad.eop && in_i.quad.om.comb.tex;
    in_tex1   = !in_i.quad.eop && in_i.quad.om.comb.tex1;
    // The pass offered this clock: stage 1 once stage 0 is in (or when only stage 1 samples).
    in_stage1 = in_tex1 && (sent0_q || !in_tex0);
    // This pass is the quad's last (or the quad samples nothing): it parks when TEX takes it.
    in_last   = !in_tex1 || in_stage1;
    tex_in    = '0;
    for (int p = 0; p < 4; p++) begin
      tex_in.tc[p] = in_stage1 ? in_i.uv1[p] : in_i.uv0[p];
      if (in_i.quad.target.msaa) tex_in.live[p] = |in_i.quad.mask[4*p +: 4];
      else                       tex_in.live[p] = in_i.quad.mask[p];
    end
    tex_in.tex  = in_stage1 ? in_i.quad.om.tex1 : in_i.quad.om.tex;
    tex_in.samp = in_stage1 ? in_i.quad.om.samp1 : in_i.quad.om.samp;
    tex_in.tag  = 16'(in_stage1);
  end
  // TEX's valid does not look at TEX's ready; the park push waits for both. A pending inval
  // holds back a quad's first pass only (see the header).
  assign tex_in_valid = in_valid_i && (in_tex0 || in_tex1) && park_in_ready && (!inval_q || sent0_q);
  assign in_ready_o   = park_in_ready && in_last &&
                        (!(in_tex0 || in_tex1) || (tex_in_ready && (!inval_q || sent0_q)));
  assign park_push    = in_valid_i && in_ready_o;
  assign sent0_d      = (sent0_q || (tex_in_valid && tex_in_ready && !in_last)) && !park_push;
  // inval: pending from the request until TEX takes it. TEX seen idle (and no quad entering:
  // the pending flag holds them back) -> inval_i the next clock, from a register (TEX's idle_o
  // and inval_i share its logic), when TEX is still idle.
  assign tex_inval    = fire_q;
  assign fire_d       = inval_q && tex_idle && !fire_q;
  assign inval_d      = (inval_q && !fire_q) || inval_req_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inval_q <= 1'b0;
      fire_q  <= 1'b0;
      sent0_q <= 1'b0;
    end else begin
      inval_q <= inval_d;
      fire_q  <= fire_d;
      sent0_q <= sent0_d;
    end
  end

  stream_fifo #(
    .Sram (1'b1),
    .Depth(ParkDepth),
    .Width(ParkW)
  ) u_park (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (park_push),
    .in_ready_o (park_in_ready),
    .in_data_i  (park_in),
    .out_valid_o(park_valid),
    .out_ready_i(park_pop),
    .out_data_o (park_out),
    .count_o    (park_count),
    .empty_o    (park_empty),
    .full_o     (park_full)
  );

  logic [4:0] tap;
  logic [1:0] miss;

  // ---- TEX's line port: a request credit per free response FIFO entry
  localparam int unsigned CntW = $clog2(RspDepth) + 1;
  logic                      t_req_valid, t_req_ready, t_rsp_valid, t_rsp_ready, credit;
  pineda_pkg::mem_line_rsp_t t_rsp;
  logic [CntW-1:0]           out_q, out_d;  // requests sent whose response TEX has not taken
  logic                      rf_in_ready, rf_empty, rf_full;
  logic [$clog2(RspDepth+2):0] rf_count;

  assign credit          = out_q < CntW'(RspDepth - 1);
  assign mem_req_valid_o = t_req_valid && credit;
  assign t_req_ready     = mem_req_ready_i && credit;
  assign mem_rsp_ready_o = rf_in_ready;
  always_comb begin
    out_d = out_q;
    if (mem_req_valid_o && mem_req_ready_i) out_d = out_d + CntW'(1);
    if (t_rsp_valid && t_rsp_ready)         out_d = out_d - CntW'(1);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) out_q <= '0;
    else         out_q <= out_d;
  end

  stream_fifo #(
    .Sram (1'b1),
    .Depth(RspDepth),
    .Width(pineda_pkg::MEM_LINE_RSP_BITS)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .clear_i    (1'b0),
    .in_valid_i (mem_rsp_valid_i),
    .in_ready_o (rf_in_ready),
    .in_data_i  (mem_rsp_i),
    .out_valid_o(t_rsp_valid),
    .out_ready_i(t_rsp_ready),
    .out_data_o (t_rsp),
    .count_o    (rf_count),
    .empty_o    (rf_empty),
    .full_o     (rf_full)
  );

  // 8 texture descriptor slots (the unit's default is 4): with several rasterizers the merged
  // stream interleaves the quads of about four draws, and a two-texture draw holds two slots
  // (docs/comb.md section 5: tex_lightmap at 4 rasterizers, 50,296 cycles with 4).
  tex #(
    .TexSlots (8),
    .SampSlots(4)
  ) u_tex (
    .clk_i,
    .rst_ni,
    .in_valid_i     (tex_in_valid),
    .in_ready_o     (tex_in_ready),
    .in_i           (tex_in),
    .out_valid_o    (tex_out_valid),
    .out_ready_i    (tex_out_ready),
    .out_o          (tex_out),
    .valid_base_i,
    .valid_limit_i,
    .inval_i        (tex_inval),
    .mem_req_valid_o(t_req_valid),
    .mem_req_ready_i(t_req_ready),
    .mem_req_o,
    .mem_rsp_valid_i(t_rsp_valid),
    .mem_rsp_ready_o(t_rsp_ready),
    .mem_rsp_i      (t_rsp),
    .fault_o,
    .fault_cause_o,
    .tap_o          (tap),
    .miss_o         (miss),
    .idle_o         (tex_idle)
  );

  // ---- join: the park FIFO's head with TEX's next result(s) -> COMB
  pineda_pkg::interp_pkt_t  head;
  pineda_pkg::comb_in_pkt_t comb_in;
  logic                     head_tex0, head_tex1, head_wait0, comb_in_valid, comb_in_ready;
  logic [IpW-1:0]           head_bits;
  logic [3:0][31:0]         texel0_q, texel0_d;  // the head's stage-0 colours while stage 1 comes
  logic                     have0_q, have0_d;

  always_comb begin
    head_bits = {park_out[ParkW-1:LoW], {ItW{1'b0}}, park_out[LoW-1:0]};
    head      = pineda_pkg::interp_pkt_t'(head_bits);
    head_tex0 = !head.quad.eop && head.quad.om.comb.tex;
    head_tex1 = !head.quad.eop && head.quad.om.comb.tex1;
    // TEX's next result is the head's stage-0 colours, to be kept until its stage 1 arrives
    head_wait0 = park_valid && head_tex0 && head_tex1 && !have0_q;
    texel0_d   = texel0_q;
    have0_d    = have0_q;
    comb_in    = '0;
    comb_in.ip = head;
    comb_in.st = head.quad.om.comb;
    if (head_tex1) begin
      comb_in.texel0 = texel0_q;
      comb_in.texel1 = tex_out.color;
    end else if (head_tex0) begin
      comb_in.texel0 = tex_out.color;
    end
    comb_in_valid = park_valid && !head_wait0 && (!(head_tex0 || head_tex1) || tex_out_valid);
    park_pop      = comb_in_valid && comb_in_ready;
    tex_out_ready = head_wait0 || (park_valid && (head_tex0 || head_tex1) && !head_wait0 &&
                                   comb_in_ready);
    if (head_wait0 && tex_out_valid) begin
      texel0_d = tex_out.color;
      have0_d  = 1'b1;
    end
    if (park_pop) have0_d = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      texel0_q <= '0;
      have0_q  <= 1'b0;
    end else begin
      texel0_q <= texel0_d;
      have0_q  <= have0_d;
    end
  end

  logic comb_idle;

  combiner u_comb (
    .clk_i,
    .rst_ni,
    .in_valid_i (comb_in_valid),
    .in_ready_o (comb_in_ready),
    .in_i       (comb_in),
    .out_valid_o,
    .out_ready_i,
    .out_o,
    .idle_o     (comb_idle)
  );

  always_comb begin
    ev_quad_o    = tex_in_valid && tex_in_ready;  // a pass (a quad per stage)
    ev_samples_o = ev_quad_o ? 3'(tex_in.live[0]) + 3'(tex_in.live[1]) + 3'(tex_in.live[2]) +
                               3'(tex_in.live[3]) : 3'd0;
    ev_texels_o  = tap;
    ev_lines_o   = miss;
    tex_idle_o   = tex_idle;
    comb_idle_o  = comb_idle;
    idle_o       = park_empty && tex_idle && comb_idle && !inval_q && !fire_q && !out_valid_o &&
                   out_q == '0;
  end

  logic unused_sig;
  assign unused_sig = ^{park_count, park_full, rf_count, rf_empty, rf_full, tex_out.eop, tex_out.live, tex_out.fault};

`ifndef SYNTHESIS
  stream_assert #(.Width(IpW)) u_in_chk (
    .clk_i, .rst_ni, .valid_i(in_valid_i), .ready_i(in_ready_o), .data_i(in_i));
  // TEX gets no tokens, so none comes back; a result never arrives with nothing parked.
  always_ff @(posedge clk_i) begin
    if (rst_ni && fire_q) begin
      assert (tex_idle) else $error("%m: inval while TEX is busy");
    end
    if (rst_ni && mem_rsp_valid_i) begin
      assert (rf_in_ready) else $error("%m: TEX's response FIFO is full (credit count broken)");
    end
    if (rst_ni && tex_out_valid) begin
      assert (!tex_out.eop) else $error("%m: TEX returned a token");
      // (a stage-0 result may come before its quad is parked, while stage 1 waits at TEX's input)
      assert (park_valid || !park_empty || sent0_q) else $error("%m: a TEX result with no parked quad");
      // a result while the head samples is the head's, of the stage it expects next (behind an
      // untextured head it is a later quad's)
      assert (!(park_valid && (head_tex0 || head_tex1)) ||
              tex_out.tag == 16'(head_tex1 && (!head_tex0 || have0_q)))
        else $error("%m: TEX result of stage %0d, the head quad expects the other", tex_out.tag);
    end
  end
`endif
endmodule
