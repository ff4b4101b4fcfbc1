// SPDX-License-Identifier: Apache-2.0
// om_blend: the output merger's blend arithmetic for Lanes pixels (or samples) at once,
// combinational (docs/om.md sections 2c and 5; the model is cpp_model/om/om_blend). Every lane
// is an om_blend_lane8 (8 x 8 products: RGBA8, BGRA8, B5G6R5); lanes 0 .. SrgbLanes-1 also have
// an om_blend_lane (the U16 path, sRGB-decoded destination, sRGB encode) that gives their result
// for RGBA8_SRGB. For RGBA8_SRGB only lanes 0 .. SrgbLanes-1 are valid: a user with more units
// than that takes more passes (pw_stage3). Default 16 lanes, 4 of them sRGB (rtl_om_blend tests
// that); the pixel writer's stage 3 uses 8 per bank (BlendLanes), 2 of them sRGB (SrgbLanes).
// Pipe = 1: every lane has a register inside (om_blend_lane8 / om_blend_lane #(Pipe)): src_i,
// dst_i and state_i are the operands of this clock, pix_o the results of the operands of the
// clock before, whose om state is state_b_i (the pixel writer's stage 3X / 3W). Pipe = 0:
// combinational (clk_i, rst_ni, state_b_i unused).
module om_blend #(
  parameter int unsigned Lanes     = 16,
  parameter int unsigned SrgbLanes = 4,  // 1..Lanes
  parameter bit          Pipe      = 1'b0
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  pineda_pkg::om_state_t  state_i,
  input  pineda_pkg::om_state_t  state_b_i,
  input  logic [Lanes-1:0][31:0] src_i,
  input  logic [Lanes-1:0][31:0] dst_i,
  output logic [Lanes-1:0][31:0] pix_o
);

  logic                  srgb;
  logic [Lanes-1:0][31:0] pix8;
  logic [SrgbLanes-1:0][31:0] pix16;

  // the result's format: the second half's (Pipe) or this clock's
  assign srgb = ((Pipe ? state_b_i.fmt : state_i.fmt) == pineda_pkg::RT_FMT_RGBA8_SRGB);

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    om_blend_lane8 #(.Pipe(Pipe)) u_lane8 (
      .clk_i,
      .rst_ni,
      .state_i,
      .state_b_i,
      .src_i     (src_i[l]),
      .dst_i     (dst_i[l]),
      .pix_o     (pix8[l])
    );
    if (l < SrgbLanes) begin : g_srgb
      om_blend_lane #(.SrgbOnly(1'b1), .Pipe(Pipe)) u_lane (
        .clk_i,
        .rst_ni,
        .state_i,
        .state_b_i,
        .src_i     (src_i[l]),
        .dst_i     (dst_i[l]),
        .pix_o     (pix16[l])
      );
      assign pix_o[l] = srgb ? pix16[l] : pix8[l];
    end else begin : g_plain
      assign pix_o[l] = pix8[l];
    end
  end

endmodule
