// SPDX-License-Identifier: Apache-2.0
// tex_lod: stage C of the sampler (docs/tex.md section 4 steps 2..5), combinational: the LOD of
// a quad from the larger squared length of its two derivative vectors (tex_lod_sq, registered in
// stage S), the sampler's bias and clamps, and from it the filter (linear or point), the first level
// and the trilinear fraction.
// A token or a faulted quad (skip_i) samples nothing: level 0, no second pass, point.
// Split out of tex.sv so that synthesis reports it on its own (docs/synthesis.md).
module tex_lod (
  input  logic [49:0]             rr_i,      // max(dudx^2 + dvdx^2, dudy^2 + dvdy^2) (tex_lod_sq)
  input  pineda_pkg::samp_desc_t  sd_i,
  input  logic [3:0]              levels_i,  // the texture's levels (>= 1)
  input  logic                    skip_i,
  output logic                    linear_o,
  output logic                    two_o,     // trilinear with f != 0: two passes
  output logic [3:0]              l0_o,
  output logic [7:0]              f_o
);

  logic [49:0] rr, rnorm;
  logic [5:0]  e;
  logic signed [17:0] lod_raw, lod_b;
  logic [11:0] lod;
  logic [3:0]  last_l, il;

  always_comb begin
    rr = rr_i;
    e = 6'd0;
    for (int b = 0; b < 50; b++) begin
      if (rr[b]) e = 6'(b);
    end
    rnorm = rr << (6'd49 - e);
    lod_raw = (rr == 50'd0) ? -18'sd32768 : ((18'($signed({1'b0, e, rnorm[48:41]})) - 18'sd4096) >>> 1);
    lod_b = lod_raw + 18'($signed(sd_i.lod_bias));
    if (lod_b < $signed({6'd0, sd_i.min_lod})) lod_b = $signed({6'd0, sd_i.min_lod});
    if (lod_b > $signed({6'd0, sd_i.max_lod})) lod_b = $signed({6'd0, sd_i.max_lod});
    lod = lod_b[11:0];
    last_l = levels_i - 4'd1;
    il = lod[11:8];
    linear_o = (lod == 12'd0) ? (sd_i.mag == pineda_pkg::TEX_FILTER_LINEAR) : (sd_i.min == pineda_pkg::TEX_FILTER_LINEAR);
    l0_o = 4'd0;
    f_o = 8'd0;
    two_o = 1'b0;
    if (sd_i.mip == pineda_pkg::TEX_MIP_POINT) begin
      l0_o = (13'({1'b0, lod} + 13'd128) >> 8 > 13'(last_l)) ? last_l : 4'(13'({1'b0, lod} + 13'd128) >> 8);
    end else if (sd_i.mip == pineda_pkg::TEX_MIP_LINEAR) begin
      if (il >= last_l) begin
        l0_o = last_l;
      end else begin
        l0_o = il;
        f_o = lod[7:0];
        two_o = lod[7:0] != 8'd0;
      end
    end
    // a faulted quad or a token samples nothing (and must not index past the chain)
    if (skip_i) begin
      l0_o = 4'd0;
      two_o = 1'b0;
      linear_o = 1'b0;
    end
  end

  logic unused_sig;
  assign unused_sig = ^{rnorm[49], rnorm[40:0], sd_i.rsv7, sd_i.rsv6, sd_i.rsv5, sd_i.rsv4, sd_i.border,
                        sd_i.rsv2b, sd_i.rsv2a, sd_i.rsv1, sd_i.rsv0, sd_i.addr_u, sd_i.addr_v};

endmodule
