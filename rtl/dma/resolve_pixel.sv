// SPDX-License-Identifier: Apache-2.0
// resolve_pixel: the resolve arithmetic of OP_RESOLVE (docs/om.md section 7), one pixel per
// clock, a five-stage valid/ready pipeline with a global stall (every stage moves when the
// output is free). The model is model::resolve_pixel (cpp_model/om/resolve), one pixel per call.
//   RGBA8, BGRA8: every byte (c0 + c1 + c2 + c3 + 2) >> 2;
//   RGBA8_SRGB:   R, G, B lin16_to_srgb((L0 + L1 + L2 + L3 + 2) >> 2), Lk = srgb_to_lin16(ck)
//                 (three resolve_srgb channels, tables in block RAM); A as above;
//   B5G6R5:       every field (f0 + f1 + f2 + f3 + 2) >> 2.
// The UNORM and B5G6R5 averages are computed in stage 1 and carried beside the sRGB channels;
// meta_i (the destination address and flags) travels with the pixel.
module resolve_pixel #(
  parameter int unsigned MetaW = 33
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [1:0]       fmt_i,    // RT_FMT_*, constant while a job runs
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [127:0]     src_i,    // sample s at bytes 4s (B5G6R5: at bytes 2s, bits [63:0])
  input  logic [MetaW-1:0] meta_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [31:0]      pix_o,    // B5G6R5: the pixel in [15:0], 0 above
  output logic [MetaW-1:0] meta_o,
  output logic             busy_o    // a pixel in the pipeline
);

  localparam int unsigned Stages = 5;

  function automatic logic [7:0] avg8(input logic [7:0] a, input logic [7:0] b,
                                      input logic [7:0] c, input logic [7:0] d);
    avg8 = 8'((10'(a) + 10'(b) + 10'(c) + 10'(d) + 10'd2) >> 2);
  endfunction

  // One B5G6R5 pixel from four samples: each field averaged.
  function automatic logic [15:0] avg565(input logic [15:0] a, input logic [15:0] b,
                                         input logic [15:0] c, input logic [15:0] d);
    avg565 = {5'((7'(a[15:11]) + 7'(b[15:11]) + 7'(c[15:11]) + 7'(d[15:11]) + 7'd2) >> 2),
              6'((8'(a[10:5]) + 8'(b[10:5]) + 8'(c[10:5]) + 8'(d[10:5]) + 8'd2) >> 2),
              5'((7'(a[4:0]) + 7'(b[4:0]) + 7'(c[4:0]) + 7'(d[4:0]) + 7'd2) >> 2)};
  endfunction

  logic                        adv;
  logic [Stages-1:0]           valid_q, valid_d;
  logic [Stages-1:0][31:0]     unorm_q, unorm_d;   // the UNORM / B5G6R5 result, per stage
  logic [Stages-1:0][MetaW-1:0] meta_q, meta_d;
  logic [31:0]                 unorm;
  logic [2:0][7:0]             srgb;

  always_comb begin
    adv        = !valid_q[Stages-1] || out_ready_i;
    in_ready_o = adv;
    unorm      = '0;
    if (fmt_i == pineda_pkg::RT_FMT_B5G6R5) begin
      unorm[15:0] = avg565(src_i[15:0], src_i[31:16], src_i[47:32], src_i[63:48]);
    end else begin
      for (int c = 0; c < 4; c++) begin
        unorm[8*c +: 8] = avg8(src_i[8*c +: 8], src_i[32 + 8*c +: 8], src_i[64 + 8*c +: 8], src_i[96 + 8*c +: 8]);
      end
    end
    valid_d = valid_q;
    unorm_d = unorm_q;
    meta_d  = meta_q;
    if (adv) begin
      valid_d = {valid_q[Stages-2:0], in_valid_i};
      unorm_d = {unorm_q[Stages-2:0], unorm};
      meta_d  = {meta_q[Stages-2:0], meta_i};
    end
  end

  for (genvar c = 0; c < 3; c++) begin : g_srgb
    resolve_srgb u_srgb (
      .clk_i,
      .rst_ni,
      .adv_i  (adv),
      .c_i    ({src_i[96 + 8*c +: 8], src_i[64 + 8*c +: 8], src_i[32 + 8*c +: 8], src_i[8*c +: 8]}),
      .srgb_o (srgb[c])
    );
  end

  always_comb begin
    out_valid_o = valid_q[Stages-1];
    busy_o      = (valid_q != '0);
    meta_o      = meta_q[Stages-1];
    pix_o       = unorm_q[Stages-1];
    if (fmt_i == pineda_pkg::RT_FMT_RGBA8_SRGB) pix_o[23:0] = srgb;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      unorm_q <= '0;
      meta_q  <= '0;
    end else begin
      valid_q <= valid_d;
      unorm_q <= unorm_d;
      meta_q  <= meta_d;
    end
  end

endmodule
