// SPDX-License-Identifier: Apache-2.0
// pineda_top_chk: the simulation-only checkers of pineda_top's internal streams, bound into it by
// rtl/top/pineda_top_bind.sv (only Verilator reads either file; Yosys never sees them). Every
// port is named after the pineda_top signal it watches, so the bind connects them with .*; the
// tapped boundaries have their own generated checker (pineda_top_tap_chk).
//   - the producer side of each unit before its throttle, and the CP's front-end output;
//   - the memory clients' dword requests (before their adapters), the line requests into the
//     line arbiter, and both directions of the (line) memory port;
//   - the merge in front of SETUP: never an IA and a PA triangle in the same cycle (the CP
//     switches path only when the other one has drained).
module pineda_top_chk #(
  parameter int unsigned NumClients = 6
) (
  input logic                                clk_i,
  input logic                                rst_ni,
  input logic                                cp_valid,
  input logic                                cp_ready,
  input pineda_pkg::draw_pkt_t               cp_draw,
  input logic                                ia_valid,
  input logic                                ia_ready,
  input pineda_pkg::tri_pkt_t                ia_tri,
  input logic                                setup_valid,
  input logic                                setup_ready,
  input pineda_pkg::setup_pkt_t              setup_tri,
  input logic                                fine_valid,
  input logic                                fine_ready,
  input pineda_pkg::quad_pkt_t               fine_quad,
  input logic                                pw_valid,
  input logic                                pw_ready,
  input pineda_pkg::mem_line_req_t           pw_req,
  input logic                                fe_valid,
  input logic                                fe_ready,
  input pineda_pkg::idraw_pkt_t              fe_pkt,
  input logic [NumClients-1:0]               cl_req_valid,
  input logic [NumClients-1:0]               cl_req_ready,
  input logic [NumClients-1:0][pineda_pkg::MEM_LINE_REQ_BITS-1:0] cl_req,
  input logic                                mem_req_valid_o,
  input logic                                mem_req_ready,   // the units' view (SimInputRegs)
  input pineda_pkg::mem_line_req_t           mem_req_o,
  input logic                                mem_rsp_valid,
  input logic                                mem_rsp_ready_o,
  input pineda_pkg::mem_line_rsp_t           mem_rsp,
  input logic                                tap_ia_tri_valid_o,
  input logic                                tap_pa_tri_valid_o
);

  // Producer side of each unit (before the throttles) and the CP's front-end output.
  stream_assert #(.Width($bits(cp_draw))) u_cp_out (
    .clk_i, .rst_ni, .valid_i(cp_valid), .ready_i(cp_ready), .data_i(cp_draw));
  stream_assert #(.Width($bits(ia_tri))) u_ia_out (
    .clk_i, .rst_ni, .valid_i(ia_valid), .ready_i(ia_ready), .data_i(ia_tri));
  stream_assert #(.Width($bits(setup_tri))) u_setup_out (
    .clk_i, .rst_ni, .valid_i(setup_valid), .ready_i(setup_ready), .data_i(setup_tri));
  stream_assert #(.Width($bits(fine_quad))) u_fine_out (
    .clk_i, .rst_ni, .valid_i(fine_valid), .ready_i(fine_ready), .data_i(fine_quad));
  stream_assert #(.Width($bits(pw_req))) u_pw_out (
    .clk_i, .rst_ni, .valid_i(pw_valid), .ready_i(pw_ready), .data_i(pw_req));
  stream_assert #(.Width($bits(fe_pkt))) u_cp_fe_out (
    .clk_i, .rst_ni, .valid_i(fe_valid), .ready_i(fe_ready), .data_i(fe_pkt));

  // Memory clients: each line request into the arbiter (PW's is also the pw_mem tap), then the
  // memory port.
  for (genvar c = 0; c < NumClients; c++) begin : g_cl
    stream_assert #(.Width(pineda_pkg::MEM_LINE_REQ_BITS)) u_line (
      .clk_i, .rst_ni, .valid_i(cl_req_valid[c]), .ready_i(cl_req_ready[c]), .data_i(cl_req[c]));
  end
  stream_assert #(.Width($bits(mem_req_o))) u_mem_req (
    .clk_i, .rst_ni, .valid_i(mem_req_valid_o), .ready_i(mem_req_ready), .data_i(mem_req_o));
  stream_assert #(.Width($bits(mem_rsp))) u_mem_rsp (
    .clk_i, .rst_ni, .valid_i(mem_rsp_valid), .ready_i(mem_rsp_ready_o), .data_i(mem_rsp));

  // The CP switches path only when the other one has drained: never both at the merge.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(tap_ia_tri_valid_o && tap_pa_tri_valid_o))
        else $error("%m: IA and PA triangles at the merge in the same cycle (path switch)");
    end
  end

endmodule
