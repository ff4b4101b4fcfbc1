// SPDX-License-Identifier: Apache-2.0
// tex_lod_sq: the first half of the sampler's LOD (docs/tex.md section 4 step 2), combinational:
// the larger of the squared lengths of the quad's two screen-axis derivative vectors, from its
// four pixels' level-0 texel coordinates (signed 16.8). Stage S registers it; tex_lod (stage C)
// takes its log2, the bias, the clamps and the levels, so that each half of the LOD is about
// half as deep as the whole.
module tex_lod_sq (
  input  logic [3:0][23:0] x0_i,   // pixel p's u * W (fix16.8), p = {y, x}
  input  logic [3:0][23:0] y0_i,   // pixel p's v * H
  output logic [49:0]      rr_o     // max(dudx^2 + dvdx^2, dudy^2 + dvdy^2)
);

  logic signed [24:0] dux, dvx, duy, dvy;
  logic [24:0] adux, advx, aduy, advy;
  logic [49:0] sq_lx, sq_ly;

  always_comb begin
    dux = $signed({x0_i[1][23], x0_i[1]}) - $signed({x0_i[0][23], x0_i[0]});
    dvx = $signed({y0_i[1][23], y0_i[1]}) - $signed({y0_i[0][23], y0_i[0]});
    duy = $signed({x0_i[2][23], x0_i[2]}) - $signed({x0_i[0][23], x0_i[0]});
    dvy = $signed({y0_i[2][23], y0_i[2]}) - $signed({y0_i[0][23], y0_i[0]});
    adux = dux[24] ? 25'(-dux) : 25'(dux);
    advx = dvx[24] ? 25'(-dvx) : 25'(dvx);
    aduy = duy[24] ? 25'(-duy) : 25'(duy);
    advy = dvy[24] ? 25'(-dvy) : 25'(dvy);
    sq_lx = {25'd0, adux} * {25'd0, adux} + {25'd0, advx} * {25'd0, advx};
    sq_ly = {25'd0, aduy} * {25'd0, aduy} + {25'd0, advy} * {25'd0, advy};
    rr_o = (sq_lx > sq_ly) ? sq_lx : sq_ly;
  end

  logic unused_sig;
  assign unused_sig = ^{x0_i[3], y0_i[3]};

endmodule
