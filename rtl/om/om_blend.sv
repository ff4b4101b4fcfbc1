// SPDX-License-Identifier: Apache-2.0
// om_blend: the output merger's blend arithmetic for Lanes pixels (or samples) at once,
// combinational: Lanes om_blend_lane (docs/om.md; the model is cpp_model/om/om_blend). Default
// 16 lanes (rtl_om_blend tests that); the pixel writer's stage 3 uses 8 per bank (BlendLanes).
module om_blend #(
  parameter int unsigned Lanes = 16
) (
  input  pineda_pkg::om_state_t  state_i,
  input  logic [Lanes-1:0][31:0] src_i,
  input  logic [Lanes-1:0][31:0] dst_i,
  output logic [Lanes-1:0][31:0] pix_o
);

  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    om_blend_lane u_lane (
      .state_i,
      .src_i (src_i[l]),
      .dst_i (dst_i[l]),
      .pix_o (pix_o[l])
    );
  end

endmodule
