// SPDX-License-Identifier: Apache-2.0
// om_blend_lane: the output merger's blend arithmetic for one pixel (or sample), combinational
// (docs/om.md sections 2 and 2b; the model is model::om::blend_pixel in cpp_model/om/om_blend).
//
// The source (the quad's RGBA8 colour, linear UNORM8) and the destination (the stored pixel, raw
// bits of state_i.fmt: low 16 bits for B5G6R5) become U16 channels (value / 65535: UNORM8 x ->
// x * 257, sRGB codes -> SRGB_TO_LIN16, B5G6R5 fields widened to 8 bits by bit replication, then
// * 257; B5G6R5 alpha is 1). With blending on, each channel is
//   ADD/SUB/REV_SUB: div65535r(clamp(s*Fs +/- d*Fd, 0, 65535^2)),  MIN/MAX: min/max(s, d)
// (factors per BF_*, the alpha channel with the _A fields); with blending off the source passes.
// The result is encoded (om_encode) and the channels in state_i.mask_off keep dst's bits.
// With state_i.lop_en (D3D11.1 logic ops) blending is ignored: the encoded source s and the stored
// pixel d combine bitwise by state_i.lop (LOP_*), then the write mask applies as above.
// A module of its own so that synthesis measures one lane. SrgbOnly = 1 builds the lane for
// RGBA8_SRGB alone (state_i.fmt is not read; the other formats' decode and encode are pruned):
// om_blend's sRGB lanes, next to the om_blend_lane8 that serve the other formats.
// Pipe = 1 puts a register inside the lane (the pixel writer's stage 3X / 3W, docs/om.md
// section 5): the blended U16 channels and dst are registered each clock, and the encode, logic
// op and write mask read them with state_b_i (the om state of the pixel now in the second half):
// pix_o is the result for the operands of the clock before. Pipe = 0: combinational.
module om_blend_lane #(
  parameter bit SrgbOnly = 1'b0,
  parameter bit Pipe     = 1'b0
) (
  input  logic                  clk_i,      // Pipe only
  input  logic                  rst_ni,     // Pipe only
  input  pineda_pkg::om_state_t state_i,
  input  pineda_pkg::om_state_t state_b_i,  // Pipe: the second half's om state
  input  logic [31:0]           src_i,
  input  logic [31:0]           dst_i,
  output logic [31:0]           pix_o
);

  localparam logic [15:0] One = 16'hFFFF;

  function automatic logic [15:0] unorm8(input logic [7:0] x);
    unorm8 = {x, x};  // x * 257
  endfunction

  function automatic logic [15:0] factor(input logic [4:0] code, input logic [1:0] ch,
                                         input logic [3:0][15:0] s, input logic [3:0][15:0] d,
                                         input logic [3:0][15:0] k);
    unique case (code)
      pineda_pkg::BF_ZERO:             factor = '0;
      pineda_pkg::BF_ONE:              factor = One;
      pineda_pkg::BF_SRC_COLOR:        factor = s[ch];
      pineda_pkg::BF_INV_SRC_COLOR:    factor = One - s[ch];
      pineda_pkg::BF_SRC_ALPHA:        factor = s[3];
      pineda_pkg::BF_INV_SRC_ALPHA:    factor = One - s[3];
      pineda_pkg::BF_DEST_ALPHA:       factor = d[3];
      pineda_pkg::BF_INV_DEST_ALPHA:   factor = One - d[3];
      pineda_pkg::BF_DEST_COLOR:       factor = d[ch];
      pineda_pkg::BF_INV_DEST_COLOR:   factor = One - d[ch];
      pineda_pkg::BF_SRC_ALPHA_SAT:    factor = (ch == 2'd3) ? One : ((s[3] < One - d[3]) ? s[3] : One - d[3]);
      pineda_pkg::BF_BLEND_FACTOR:     factor = k[ch];
      pineda_pkg::BF_INV_BLEND_FACTOR: factor = One - k[ch];
      default:                         factor = '0;
    endcase
  endfunction

  // The alpha channel's factors are all UNORM8 values times 257 (alpha is UNORM8 in every format,
  // B5G6R5's is 1): factor(code, 3, ...) / 257, exactly.
  function automatic logic [7:0] factor_a8(input logic [4:0] code, input logic [7:0] sa, input logic [7:0] da,
                                           input logic [7:0] ka);
    unique case (code)
      pineda_pkg::BF_ZERO:             factor_a8 = '0;
      pineda_pkg::BF_ONE:              factor_a8 = 8'hFF;
      pineda_pkg::BF_SRC_COLOR:        factor_a8 = sa;
      pineda_pkg::BF_INV_SRC_COLOR:    factor_a8 = ~sa;
      pineda_pkg::BF_SRC_ALPHA:        factor_a8 = sa;
      pineda_pkg::BF_INV_SRC_ALPHA:    factor_a8 = ~sa;
      pineda_pkg::BF_DEST_ALPHA:       factor_a8 = da;
      pineda_pkg::BF_INV_DEST_ALPHA:   factor_a8 = ~da;
      pineda_pkg::BF_DEST_COLOR:       factor_a8 = da;
      pineda_pkg::BF_INV_DEST_COLOR:   factor_a8 = ~da;
      pineda_pkg::BF_SRC_ALPHA_SAT:    factor_a8 = 8'hFF;
      pineda_pkg::BF_BLEND_FACTOR:     factor_a8 = ka;
      pineda_pkg::BF_INV_BLEND_FACTOR: factor_a8 = ~ka;
      default:                         factor_a8 = '0;
    endcase
  endfunction

  // p * 257 (p <= 255 * 65535: fits 32 bits)
  function automatic logic [31:0] mul257(input logic [23:0] p);
    mul257 = {p, 8'd0} + 32'(p);
  endfunction

  // p * 66049 = p * 257 * 257 (p <= 255 * 255: fits 32 bits)
  function automatic logic [31:0] mul66049(input logic [15:0] p);
    mul66049 = {p, 16'd0} + {7'd0, p, 9'd0} + 32'(p);
  endfunction

  // ts = s * Fs and td = d * Fd (each at most 65535^2), combined per op with one adder and one
  // div65535r: ADD min(ts + td, 65535^2), SUBTRACT max(ts - td, 0), REV_SUBTRACT max(td - ts, 0)
  function automatic logic [15:0] combine(input logic [2:0] op, input logic [15:0] s, input logic [31:0] ts,
                                          input logic [15:0] d, input logic [31:0] td);
    logic        rev, sub;
    logic [31:0] a, b, n;
    logic [32:0] r;
    rev = (op == pineda_pkg::BOP_REV_SUBTRACT);
    sub = (op == pineda_pkg::BOP_SUBTRACT) || rev;
    a   = rev ? td : ts;
    b   = rev ? ts : td;
    r   = 33'(a) + (33'(b) ^ {33{sub}}) + 33'(sub);  // a - b (bit 32: negative) or a + b
    if (sub) n = r[32] ? 32'd0 : r[31:0];
    else     n = (r > 33'(32'hFFFE_0001)) ? 32'hFFFE_0001 : r[31:0];
    unique case (op)
      pineda_pkg::BOP_MIN: combine = (s < d) ? s : d;
      pineda_pkg::BOP_MAX: combine = (s > d) ? s : d;
      default:             combine = pineda_pkg::div65535r(n);
    endcase
  endfunction

  logic [1:0]       fmt;       // state_i.fmt, or RGBA8_SRGB (SrgbOnly)
  logic [1:0]       fmt_b;     // the second half's
  logic [3:0][15:0] k16, s16, d16, r16;
  logic [3:0][31:0] ts, td;    // s * Fs, d * Fd per channel
  logic [7:0]       da8;       // the destination's alpha, UNORM8
  logic [31:0]      wbits, full, enc, res;
  logic [15:0]      dr;
  // the second half's operands: the first half's results (Pipe: registered)
  pineda_pkg::om_state_t sb;
  logic [3:0][15:0] r16_b;
  logic [31:0]      dst_b;

  logic [3:0][15:0] r16_q;   // the lane's register (Pipe)
  logic [31:0]      dst_q;

  if (Pipe) begin : g_pipe
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        r16_q <= '0;
        dst_q <= '0;
      end else begin
        r16_q <= r16;
        dst_q <= dst_i;
      end
    end
    assign sb    = state_b_i;
    assign r16_b = r16_q;
    assign dst_b = dst_q;
  end else begin : g_comb
    assign sb    = state_i;
    assign r16_b = r16;
    assign dst_b = dst_i;
    assign r16_q = '0;
    assign dst_q = '0;
    logic unused_pipe;
    assign unused_pipe = ^{clk_i, rst_ni, state_b_i, r16_q, dst_q};
  end

  always_comb begin
    fmt   = SrgbOnly ? pineda_pkg::RT_FMT_RGBA8_SRGB : state_i.fmt;
    fmt_b = SrgbOnly ? pineda_pkg::RT_FMT_RGBA8_SRGB : sb.fmt;
    for (int c = 0; c < 4; c++) k16[c] = unorm8(state_i.factor[8*c +: 8]);
    wbits = pineda_pkg::write_bits(fmt_b, sb.mask_off);
    full  = (fmt_b == pineda_pkg::RT_FMT_B5G6R5) ? 32'h0000_FFFF : 32'hFFFF_FFFF;
  end

  always_comb begin
    dr = dst_i[15:0];
    for (int c = 0; c < 4; c++) s16[c] = unorm8(src_i[8*c +: 8]);
    unique case (fmt)
      pineda_pkg::RT_FMT_BGRA8: begin
        d16[0] = unorm8(dst_i[23:16]);
        d16[1] = unorm8(dst_i[15:8]);
        d16[2] = unorm8(dst_i[7:0]);
        d16[3] = unorm8(dst_i[31:24]);
      end
      pineda_pkg::RT_FMT_RGBA8_SRGB: begin
        for (int c = 0; c < 3; c++) d16[c] = pineda_pkg::srgb_to_lin16(dst_i[8*c +: 8]);
        d16[3] = unorm8(dst_i[31:24]);
      end
      pineda_pkg::RT_FMT_B5G6R5: begin
        d16[0] = unorm8({dr[15:11], dr[15:13]});
        d16[1] = unorm8({dr[10:5], dr[10:9]});
        d16[2] = unorm8({dr[4:0], dr[4:2]});
        d16[3] = One;
      end
      default: for (int c = 0; c < 4; c++) d16[c] = unorm8(dst_i[8*c +: 8]);
    endcase

    // Products: the source is UNORM8 x 257, so s * Fs = 257 * (x * Fs), an 8 x 16 product; the
    // destination (sRGB-decoded for RGBA8_SRGB) times its factor stays 16 x 16. The alpha channel
    // is UNORM8 x 257 on both sides with factors UNORM8 x 257 (factor_a8): 66049 * (8 x 8).
    for (int c = 0; c < 3; c++) begin
      ts[c] = mul257(24'(src_i[8*c +: 8]) * 24'(factor(state_i.src, 2'(c), s16, d16, k16)));
      td[c] = 32'(d16[c]) * 32'(factor(state_i.dst, 2'(c), s16, d16, k16));
    end
    da8   = (fmt == pineda_pkg::RT_FMT_B5G6R5) ? 8'hFF : dst_i[31:24];
    ts[3] = mul66049(16'(src_i[31:24]) * 16'(factor_a8(state_i.src_a, src_i[31:24], da8, state_i.factor[31:24])));
    td[3] = mul66049(16'(da8) * 16'(factor_a8(state_i.dst_a, src_i[31:24], da8, state_i.factor[31:24])));
    r16 = s16;
    if (state_i.blend && !state_i.lop_en) begin
      for (int c = 0; c < 3; c++) begin
        r16[c] = combine(state_i.op, s16[c], ts[c], d16[c], td[c]);
      end
      r16[3] = combine(state_i.op_a, s16[3], ts[3], d16[3], td[3]);
    end
  end

  // second half (Pipe: one clock later): the encode, the logic op, the write mask
  om_encode #(.SrgbOnly(SrgbOnly)) u_enc (
    .fmt_i (fmt_b),
    .v_i   (r16_b),
    .pix_o (enc)
  );

  always_comb begin
    res   = sb.lop_en ? pineda_pkg::logic_op(sb.lop, enc, dst_b) : enc;
    pix_o = ((res & wbits) | (dst_b & ~wbits)) & full;
  end

  logic unused_sig;
  // gouraud, tex, samp, tex1, samp1, comb: read by INTERP, TEX, COMB, not by the blend (and with
  // Pipe each half reads only its own fields of its state)
  assign unused_sig = ^{state_i, sb};

endmodule
