// SPDX-License-Identifier: Apache-2.0
// fe_line_adapter: a line-port read client (vertex fetch) on the 32-bit dword port, until the
// line-wide memory system is wired into pineda_top (issue 13). Interim: it moves one dword per
// clock, so it is no faster than the dword port it sits on.
//
// Each line read request (mem_line_req_t, reads only; addr[5:0] ignored) becomes 16 dword read
// requests at addr + 4k, k = 0..15, in order; the next line request is taken after the 16th is
// accepted, so any number of lines may be in flight. Dword responses come back in request order
// and are gathered 16 at a time into one line response (mem_line_rsp_t), which the client must
// accept at once (line-port rule: it reserved room before asking); line_rsp_ready_i is checked
// by an assertion, never waited for.
module fe_line_adapter (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // Line client side
  input  logic                      line_req_valid_i,
  output logic                      line_req_ready_o,
  input  pineda_pkg::mem_line_req_t line_req_i,
  output logic                      line_rsp_valid_o,
  input  logic                      line_rsp_ready_i,
  output pineda_pkg::mem_line_rsp_t line_rsp_o,
  // Dword port
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output pineda_pkg::mem_req_t      mem_req_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t      mem_rsp_i,
  output logic                      idle_o
);

  logic              busy_q, busy_d;     // a line's dword requests are being issued
  logic [25:0]       line_q, line_d;
  logic [3:0]        rk_q,   rk_d;       // next dword to request
  logic [3:0]        ck_q,   ck_d;       // next dword to collect
  logic [15:0][31:0] acc_q,  acc_d;
  logic              ov_q,   ov_d;       // line response valid
  logic [15:0]       pend_q, pend_d;     // dword requests accepted, responses not yet in
  logic              req_fire, rsp_fire;

  // The request comes from registers only (its own block: no path from mem_req_ready_i).
  always_comb begin
    mem_req_valid_o = busy_q;
    mem_req_o       = '0;
    mem_req_o.addr  = {line_q, rk_q, 2'b00};
    mem_req_o.be    = 4'hF;
  end

  always_comb begin
    busy_d = busy_q;
    line_d = line_q;
    rk_d   = rk_q;
    ck_d   = ck_q;
    acc_d  = acc_q;
    ov_d   = 1'b0;

    line_req_ready_o = !busy_q;
    if (line_req_valid_i && !busy_q) begin
      busy_d = 1'b1;
      line_d = line_req_i.addr[31:6];
      rk_d   = '0;
    end

    req_fire        = mem_req_valid_o && mem_req_ready_i;
    if (req_fire) begin
      rk_d = rk_q + 4'd1;
      if (rk_q == 4'd15) busy_d = 1'b0;
    end

    mem_rsp_ready_o = 1'b1;
    rsp_fire        = mem_rsp_valid_i;
    if (rsp_fire) begin
      acc_d[ck_q] = mem_rsp_i.rdata;
      ck_d        = ck_q + 4'd1;
      ov_d        = (ck_q == 4'd15);
    end
    pend_d = pend_q + 16'(req_fire) - 16'(rsp_fire);

    line_rsp_valid_o  = ov_q;
    line_rsp_o        = '0;
    line_rsp_o.rdata  = acc_q;
    idle_o = !busy_q && !ov_q && (pend_q == '0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      line_q <= '0;
      rk_q   <= '0;
      ck_q   <= '0;
      acc_q  <= '0;
      ov_q   <= 1'b0;
      pend_q <= '0;
    end else begin
      busy_q <= busy_d;
      line_q <= line_d;
      rk_q   <= rk_d;
      ck_q   <= ck_d;
      acc_q  <= acc_d;
      ov_q   <= ov_d;
      pend_q <= pend_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      RspTaken: assert (!line_rsp_valid_o || line_rsp_ready_i)
        else $error("fe_line_adapter: a line response was not taken at once");
      ReadsOnly: assert (!(line_req_valid_i && line_req_ready_o && line_req_i.we))
        else $error("fe_line_adapter: a line write (reads only)");
    end
  end
`endif

  logic unused_sig;
  assign unused_sig = ^{line_req_i.wdata, line_req_i.be, line_req_i.src, line_req_i.tag,
                        line_req_i.addr[5:0], mem_rsp_i};

endmodule
