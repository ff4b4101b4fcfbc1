// SPDX-License-Identifier: Apache-2.0
// om_blend: the output merger's blend arithmetic for Lanes pixels (or samples) at once,
// combinational (docs/om.md; the model is cpp_model/om/om_blend). Default 16 lanes: one quad at
// 4x MSAA, or 4 quads' worth of 1x pixels.
//
// Per lane: the source (the quad's RGBA8 colour, linear UNORM8) and the destination (the stored
// pixel, raw bits of state_i.fmt: low 16 bits for B5G6R5) become U16 channels (value / 65535:
// UNORM8 x -> x * 257, sRGB codes -> SRGB_TO_LIN16, B5G6R5 fields widened to 8 bits by bit
// replication, then * 257; B5G6R5 alpha is 1). With blending on, each channel is
//   ADD/SUB/REV_SUB: div65535r(clamp(s*Fs +/- d*Fd, 0, 65535^2)),  MIN/MAX: min/max(s, d)
// (factors per BF_*, the alpha channel with the _A fields); with blending off the source passes.
// The result is encoded (UNORM8: div257r; sRGB: LIN16_TO_SRGB_T binary search; B5G6R5:
// div65535r(v * 31 or 63)) and the channels in state_i.mask_off keep dst's bits.
module om_blend #(
  parameter int unsigned Lanes = 16
) (
  input  pineda_pkg::om_state_t  state_i,
  input  logic [Lanes-1:0][31:0] src_i,
  input  logic [Lanes-1:0][31:0] dst_i,
  output logic [Lanes-1:0][31:0] pix_o
);

  localparam logic [15:0] One = 16'hFFFF;

  // round(x / 65535), x <= 65535^2
  function automatic logic [15:0] div65535r(input logic [31:0] x);
    logic [32:0] t;
    t = {1'b0, x} + 33'd32767;
    t = t + 33'd1 + (t >> 16);
    div65535r = t[31:16];
  endfunction

  // round(v / 257): U16 -> UNORM8
  function automatic logic [7:0] div257r(input logic [15:0] v);
    logic [16:0] t;
    t = {1'b0, v} + 17'd128;
    t = t - (t >> 8);
    div257r = t[15:8];
  endfunction

  function automatic logic [15:0] srgb_dec(input logic [7:0] c);
    srgb_dec = pineda_pkg::SRGB_TO_LIN16[16*c +: 16];
  endfunction

  function automatic logic [7:0] srgb_enc(input logic [15:0] v);
    logic [7:0] c, cand;
    c = '0;
    for (int b = 7; b >= 0; b--) begin
      cand = c | (8'd1 << b);
      if (v >= pineda_pkg::LIN16_TO_SRGB_T[16*cand +: 16]) c = cand;
    end
    srgb_enc = c;
  endfunction

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

  function automatic logic [15:0] combine(input logic [2:0] op, input logic [15:0] s, input logic [15:0] fs,
                                          input logic [15:0] d, input logic [15:0] fd);
    logic [31:0] ts, td;
    logic [32:0] sum;
    ts  = 32'(s) * 32'(fs);
    td  = 32'(d) * 32'(fd);
    sum = 33'(ts) + 33'(td);
    unique case (op)
      pineda_pkg::BOP_SUBTRACT:     combine = div65535r((ts > td) ? ts - td : 32'd0);
      pineda_pkg::BOP_REV_SUBTRACT: combine = div65535r((td > ts) ? td - ts : 32'd0);
      pineda_pkg::BOP_MIN:          combine = (s < d) ? s : d;
      pineda_pkg::BOP_MAX:          combine = (s > d) ? s : d;
      default:                      combine = div65535r((sum > 33'(32'hFFFE_0001)) ? 32'hFFFE_0001 : sum[31:0]);
    endcase
  endfunction

  logic [3:0][15:0] k16;
  logic [31:0]      wbits, full;
  logic             r_on, g_on, b_on, a_on;

  always_comb begin
    for (int c = 0; c < 4; c++) k16[c] = unorm8(state_i.factor[8*c +: 8]);
    r_on = !state_i.mask_off[0];
    g_on = !state_i.mask_off[1];
    b_on = !state_i.mask_off[2];
    a_on = !state_i.mask_off[3];
    full = 32'hFFFF_FFFF;
    unique case (state_i.fmt)
      pineda_pkg::RT_FMT_BGRA8: wbits = {{8{a_on}}, {8{r_on}}, {8{g_on}}, {8{b_on}}};
      pineda_pkg::RT_FMT_B5G6R5: begin
        wbits = {16'd0, {5{r_on}}, {6{g_on}}, {5{b_on}}};
        full  = 32'h0000_FFFF;
      end
      default:                  wbits = {{8{a_on}}, {8{b_on}}, {8{g_on}}, {8{r_on}}};
    endcase
  end

  logic [Lanes-1:0][3:0][15:0] s16, d16, r16;
  logic [Lanes-1:0][31:0]      enc;
  logic [Lanes-1:0][15:0]      dr;

  always_comb begin
    for (int l = 0; l < Lanes; l++) begin
      dr[l] = dst_i[l][15:0];
      for (int c = 0; c < 4; c++) s16[l][c] = unorm8(src_i[l][8*c +: 8]);
      unique case (state_i.fmt)
        pineda_pkg::RT_FMT_BGRA8: begin
          d16[l][0] = unorm8(dst_i[l][23:16]);
          d16[l][1] = unorm8(dst_i[l][15:8]);
          d16[l][2] = unorm8(dst_i[l][7:0]);
          d16[l][3] = unorm8(dst_i[l][31:24]);
        end
        pineda_pkg::RT_FMT_RGBA8_SRGB: begin
          for (int c = 0; c < 3; c++) d16[l][c] = srgb_dec(dst_i[l][8*c +: 8]);
          d16[l][3] = unorm8(dst_i[l][31:24]);
        end
        pineda_pkg::RT_FMT_B5G6R5: begin
          d16[l][0] = unorm8({dr[l][15:11], dr[l][15:13]});
          d16[l][1] = unorm8({dr[l][10:5], dr[l][10:9]});
          d16[l][2] = unorm8({dr[l][4:0], dr[l][4:2]});
          d16[l][3] = One;
        end
        default: for (int c = 0; c < 4; c++) d16[l][c] = unorm8(dst_i[l][8*c +: 8]);
      endcase

      r16[l] = s16[l];
      if (state_i.blend) begin
        for (int c = 0; c < 3; c++) begin
          r16[l][c] = combine(state_i.op, s16[l][c], factor(state_i.src, 2'(c), s16[l], d16[l], k16),
                              d16[l][c], factor(state_i.dst, 2'(c), s16[l], d16[l], k16));
        end
        r16[l][3] = combine(state_i.op_a, s16[l][3], factor(state_i.src_a, 2'd3, s16[l], d16[l], k16),
                            d16[l][3], factor(state_i.dst_a, 2'd3, s16[l], d16[l], k16));
      end

      unique case (state_i.fmt)
        pineda_pkg::RT_FMT_BGRA8:
          enc[l] = {div257r(r16[l][3]), div257r(r16[l][0]), div257r(r16[l][1]), div257r(r16[l][2])};
        pineda_pkg::RT_FMT_RGBA8_SRGB:
          enc[l] = {div257r(r16[l][3]), srgb_enc(r16[l][2]), srgb_enc(r16[l][1]), srgb_enc(r16[l][0])};
        pineda_pkg::RT_FMT_B5G6R5: begin
          enc[l] = '0;
          enc[l][15:11] = 5'(div65535r(32'(r16[l][0]) * 32'd31));
          enc[l][10:5]  = 6'(div65535r(32'(r16[l][1]) * 32'd63));
          enc[l][4:0]   = 5'(div65535r(32'(r16[l][2]) * 32'd31));
        end
        default:
          enc[l] = {div257r(r16[l][3]), div257r(r16[l][2]), div257r(r16[l][1]), div257r(r16[l][0])};
      endcase
      pix_o[l] = ((enc[l] & wbits) | (dst_i[l] & ~wbits)) & full;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{state_i.gouraud, state_i.tex, state_i.samp, state_i.comb};  // read by INTERP, TEX, COMB, not by the blend

endmodule
