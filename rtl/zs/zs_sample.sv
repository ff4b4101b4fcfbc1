// SPDX-License-Identifier: Apache-2.0
// zs_sample: the stencil and depth test of one sample against its stored D24S8 dword, and the
// dword written back (cpp_model/zs/zs.cpp Zs::test). Combinational.
module zs_sample (
  input  logic                   cov_i,      // the sample is covered (otherwise: pass 0, dword kept)
  input  logic [31:0]            stored_i,   // depth [23:0], stencil [31:24]
  input  logic [23:0]            z_i,
  input  pineda_pkg::ds_state_t  ds_i,
  input  logic                   front_i,
  output logic                   pass_o,
  output logic [31:0]            word_o,
  output logic                   chg_o       // word_o != stored_i (computed beside word_o, shallower)
);

  function automatic logic [7:0] sop(input logic [2:0] op, input logic [7:0] s, input logic [7:0] ref_v);
    unique case (op)
      pineda_pkg::SOP_KEEP:     sop = s;
      pineda_pkg::SOP_ZERO:     sop = 8'd0;
      pineda_pkg::SOP_REPLACE:  sop = ref_v;
      pineda_pkg::SOP_INCR_SAT: sop = (s == 8'hFF) ? 8'hFF : s + 8'd1;
      pineda_pkg::SOP_DECR_SAT: sop = (s == 8'h00) ? 8'h00 : s - 8'd1;
      pineda_pkg::SOP_INVERT:   sop = ~s;
      pineda_pkg::SOP_INCR:     sop = s + 8'd1;
      default:                  sop = s - 8'd1;
    endcase
  endfunction

  logic [11:0] face;
  logic [7:0]  ss, ns, opv;
  logic [23:0] sd, nd;
  logic        s_ok, z_ok, wz;
  logic [2:0]  op;

  always_comb begin
    face = front_i ? ds_i.s_front : ds_i.s_back;
    sd   = stored_i[23:0];
    ss   = stored_i[31:24];
    s_ok = !ds_i.s_enable || pineda_pkg::cmp_pass(face[2:0], {16'd0, ds_i.s_ref & ds_i.s_read_mask}, {16'd0, ss & ds_i.s_read_mask});
    z_ok = !ds_i.z_enable || pineda_pkg::cmp_pass(ds_i.z_func, z_i, sd);
    wz   = s_ok && z_ok && ds_i.z_enable && ds_i.z_write;
    nd   = wz ? z_i : sd;
    op   = !s_ok ? face[5:3] : (!z_ok ? face[8:6] : face[11:9]);
    opv  = sop(op, ss, ds_i.s_ref);
    ns   = ds_i.s_enable ? ((ss & ~ds_i.s_write_mask) | (opv & ds_i.s_write_mask)) : ss;
    pass_o = cov_i && s_ok && z_ok;
    word_o = cov_i ? {ns, nd} : stored_i;
    // depth changes when written with a different value; stencil when a written bit differs
    chg_o  = cov_i && ((wz && z_i != sd) ||
                       (ds_i.s_enable && ((opv ^ ss) & ds_i.s_write_mask) != 8'd0));
  end

  logic unused_ds;
  assign unused_ds = ^{ds_i.base, ds_i.pitch, ds_i.late_z, ds_i.hiz};

endmodule
