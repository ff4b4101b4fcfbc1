// SPDX-License-Identifier: Apache-2.0
// om_blend_lane8: the output merger's blend arithmetic for one pixel (or sample) of a non-sRGB
// render target (RGBA8, BGRA8, B5G6R5), combinational, bit-identical to om_blend_lane (and to
// model::om::blend_pixel) for those formats; its output for RGBA8_SRGB is meaningless (om_blend
// takes sRGB pixels from om_blend_lane). docs/om.md section 2c.
//
// Why 8 bits suffice: for these formats every U16 operand is x * 257 with x an 8-bit value (the
// source, the destination with B5G6R5 fields widened by bit replication, B5G6R5's alpha 255) and
// so is every factor (BF_*: 0, 255, x, 255 - x, min(sa, 255 - da) for SRC_ALPHA_SAT, the blend
// constant's bytes). A blended channel div65535r(clamp(s*Fs +/- d*Fd, 0, 65535^2)) is then
// div65535r(66049 * P) with P = clamp(x*f +/- y*g, 0, 65025) from 8 x 8 products, and MIN/MAX
// (and the unblended source) give m * 257 for an 8-bit m. The encode of that U16 is a function
// of P alone, done here without a 16 x 16 product:
//   UNORM8:     div257r(div65535r(66049 * P)) == (P * 257 + 32895) >> 16
//   U16 value:  div65535r(66049 * P)          == P + ((P * 65793 + 2^22) >> 23)
//   B5G6R5:     div65535r(U16 * 31 | 63) of that U16, as om_encode
// (both identities hold for every P in 0..65025: test_om_lane8_round checks them exhaustively).
// Write masks and logic ops (state_i.lop_en) as om_blend_lane.
// Pipe = 1 puts a register inside the lane (the pixel writer's stage 3X / 3W, docs/om.md
// section 5): the products and their combination (P, the MIN/MAX value, dst) from src_i, dst_i
// and state_i are registered each clock, and the encode, logic op and write mask that follow
// read them with state_b_i (the om state of the pixel now in the second half): pix_o is the
// result for the operands of the clock before. Pipe = 0: combinational, state_b_i unused.
module om_blend_lane8 #(
  parameter bit Pipe = 1'b0
) (
  input  logic                  clk_i,      // Pipe only
  input  logic                  rst_ni,     // Pipe only
  input  pineda_pkg::om_state_t state_i,
  input  pineda_pkg::om_state_t state_b_i,  // Pipe: the second half's om state
  input  logic [31:0]           src_i,
  input  logic [31:0]           dst_i,
  output logic [31:0]           pix_o
);

  // factor / 257 (BF_*), 8 bits
  function automatic logic [7:0] factor8(input logic [4:0] code, input logic [1:0] ch,
                                         input logic [3:0][7:0] s, input logic [3:0][7:0] d,
                                         input logic [3:0][7:0] k);
    unique case (code)
      pineda_pkg::BF_ZERO:             factor8 = '0;
      pineda_pkg::BF_ONE:              factor8 = 8'hFF;
      pineda_pkg::BF_SRC_COLOR:        factor8 = s[ch];
      pineda_pkg::BF_INV_SRC_COLOR:    factor8 = ~s[ch];
      pineda_pkg::BF_SRC_ALPHA:        factor8 = s[3];
      pineda_pkg::BF_INV_SRC_ALPHA:    factor8 = ~s[3];
      pineda_pkg::BF_DEST_ALPHA:       factor8 = d[3];
      pineda_pkg::BF_INV_DEST_ALPHA:   factor8 = ~d[3];
      pineda_pkg::BF_DEST_COLOR:       factor8 = d[ch];
      pineda_pkg::BF_INV_DEST_COLOR:   factor8 = ~d[ch];
      pineda_pkg::BF_SRC_ALPHA_SAT:    factor8 = (ch == 2'd3) ? 8'hFF : ((s[3] < ~d[3]) ? s[3] : ~d[3]);
      pineda_pkg::BF_BLEND_FACTOR:     factor8 = k[ch];
      pineda_pkg::BF_INV_BLEND_FACTOR: factor8 = ~k[ch];
      default:                         factor8 = '0;
    endcase
  endfunction

  // P = clamp(a OP b, 0, 65025) for ADD / SUBTRACT / REV_SUBTRACT (a, b <= 65025)
  function automatic logic [15:0] combine8(input logic [2:0] op, input logic [15:0] ts, input logic [15:0] td);
    logic        rev, sub;
    logic [15:0] a, b;
    logic [16:0] r;
    rev = (op == pineda_pkg::BOP_REV_SUBTRACT);
    sub = (op == pineda_pkg::BOP_SUBTRACT) || rev;
    a   = rev ? td : ts;
    b   = rev ? ts : td;
    r   = 17'(a) + (17'(b) ^ {17{sub}}) + 17'(sub);  // a - b (bit 16: negative) or a + b
    if (sub) combine8 = r[16] ? 16'd0 : r[15:0];
    else     combine8 = (r > 17'd65025) ? 16'd65025 : r[15:0];
  endfunction

  // div257r(div65535r(66049 * p)) for p <= 65025
  function automatic logic [7:0] enc8(input logic [15:0] p);
    enc8 = 8'(({p, 8'd0} + 24'(p) + 24'd32895) >> 16);  // < 2^24
  endfunction

  // div65535r(66049 * p) for p <= 65025
  function automatic logic [15:0] u16_of(input logic [15:0] p);
    u16_of = p + 16'(({1'b0, p, 16'd0} + {9'd0, p, 8'd0} + 33'(p) + 33'd4194304) >> 23);  // < 2^33
  endfunction

  logic [3:0][7:0]  s8, d8, k8, m8, e8;
  logic [3:0][15:0] ts, td, p16, u16;
  logic [3:0]       lin;   // the channel's result is m8 (MIN/MAX, unblended), not a rounding of P
  logic [7:0]       fs, fd;
  logic [31:0]      wbits, full, enc, res;
  logic [15:0]      dr;
  logic [4:0]       r5, b5;
  logic [5:0]       g6;
  // the second half's operands: the first half's results (Pipe: registered)
  pineda_pkg::om_state_t sb;
  logic [3:0][15:0] p16_b;
  logic [3:0][7:0]  m8_b;
  logic [3:0]       lin_b;
  logic [31:0]      dst_b;

  logic [3:0][15:0] p16_q;   // the lane's register (Pipe)
  logic [3:0][7:0]  m8_q;
  logic [3:0]       lin_q;
  logic [31:0]      dst_q;

  if (Pipe) begin : g_pipe
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        p16_q <= '0;
        m8_q  <= '0;
        lin_q <= '0;
        dst_q <= '0;
      end else begin
        p16_q <= p16;
        m8_q  <= m8;
        lin_q <= lin;
        dst_q <= dst_i;
      end
    end
    assign sb    = state_b_i;
    assign p16_b = p16_q;
    assign m8_b  = m8_q;
    assign lin_b = lin_q;
    assign dst_b = dst_q;
  end else begin : g_comb
    assign sb    = state_i;
    assign p16_b = p16;
    assign m8_b  = m8;
    assign lin_b = lin;
    assign dst_b = dst_i;
    assign p16_q = '0;
    assign m8_q  = '0;
    assign lin_q = '0;
    assign dst_q = '0;
    logic unused_pipe;
    assign unused_pipe = ^{clk_i, rst_ni, state_b_i, p16_q, m8_q, lin_q, dst_q};
  end

  always_comb begin
    wbits = pineda_pkg::write_bits(sb.fmt, sb.mask_off);
    full  = (sb.fmt == pineda_pkg::RT_FMT_B5G6R5) ? 32'h0000_FFFF : 32'hFFFF_FFFF;
  end

  always_comb begin
    dr = dst_i[15:0];
    for (int c = 0; c < 4; c++) begin
      s8[c] = src_i[8*c +: 8];
      k8[c] = state_i.factor[8*c +: 8];
    end
    unique case (state_i.fmt)
      pineda_pkg::RT_FMT_BGRA8: d8 = {dst_i[31:24], dst_i[7:0], dst_i[15:8], dst_i[23:16]};
      pineda_pkg::RT_FMT_B5G6R5: d8 = {8'hFF, dr[4:0], dr[4:2], dr[10:5], dr[10:9], dr[15:11], dr[15:13]};
      default:                  d8 = dst_i;  // RGBA8 (RGBA8_SRGB: not this lane's)
    endcase

    for (int c = 0; c < 4; c++) begin
      fs     = factor8((c == 3) ? state_i.src_a : state_i.src, 2'(c), s8, d8, k8);
      fd     = factor8((c == 3) ? state_i.dst_a : state_i.dst, 2'(c), s8, d8, k8);
      ts[c]  = 16'(s8[c]) * 16'(fs);
      td[c]  = 16'(d8[c]) * 16'(fd);
      p16[c] = combine8((c == 3) ? state_i.op_a : state_i.op, ts[c], td[c]);
      lin[c] = 1'b1;
      m8[c]  = s8[c];
      if (state_i.blend && !state_i.lop_en) begin
        unique case ((c == 3) ? state_i.op_a : state_i.op)
          pineda_pkg::BOP_MIN: m8[c] = (s8[c] < d8[c]) ? s8[c] : d8[c];
          pineda_pkg::BOP_MAX: m8[c] = (s8[c] > d8[c]) ? s8[c] : d8[c];
          default:             lin[c] = 1'b0;
        endcase
      end
    end
  end

  // second half (Pipe: one clock later): the encode, the logic op, the write mask
  always_comb begin
    for (int c = 0; c < 4; c++) begin
      e8[c]  = lin_b[c] ? m8_b[c] : enc8(p16_b[c]);
      u16[c] = lin_b[c] ? {m8_b[c], m8_b[c]} : u16_of(p16_b[c]);
    end

    r5 = 5'(pineda_pkg::div65535r(32'(u16[0]) * 32'd31));
    g6 = 6'(pineda_pkg::div65535r(32'(u16[1]) * 32'd63));
    b5 = 5'(pineda_pkg::div65535r(32'(u16[2]) * 32'd31));
    unique case (sb.fmt)
      pineda_pkg::RT_FMT_BGRA8:  enc = {e8[3], e8[0], e8[1], e8[2]};
      pineda_pkg::RT_FMT_B5G6R5: enc = {16'd0, r5, g6, b5};
      default:                   enc = e8;
    endcase
  end

  always_comb begin
    res   = sb.lop_en ? pineda_pkg::logic_op(sb.lop, enc, dst_b) : enc;
    pix_o = ((res & wbits) | (dst_b & ~wbits)) & full;
  end

  logic unused_sig;
  // gouraud, tex, samp, tex1, samp1, comb: read by INTERP, TEX, COMB, not by the blend (and with
  // Pipe each half reads only its own fields of its state)
  assign unused_sig = ^{state_i, sb, u16[3]};

endmodule
