// SPDX-License-Identifier: Apache-2.0
// mem_dword_adapter: puts a dword client (mem_req_t / mem_rsp_t, docs/contract.md §2.2) on the
// line port (mem_line_req_t / mem_line_rsp_t, §2.1) until that client speaks lines itself.
//
// A read becomes a read of the line holding the dword and returns the addressed dword; a write
// becomes a line write with only the dword's 4 byte enables set (wdata is the dword in every
// lane). The dword's position in its line (addr[5:2]) travels in the line tag's upper half,
// the client's tag in the lower half: the adapter holds no state, so any number of requests may
// be outstanding and responses stay in request order. The client's tag[7:4] must be 0 (every
// dword client uses at most tag[3:0]: checked in simulation); its response comes back with
// tag[7:4] = 0. Valid, ready and payloads pass through combinationally (no added latency); the
// client must accept its responses (contract §2.1), which every dword client does by reserving
// room before it reads.
module mem_dword_adapter (
  input  logic                      clk_i,   // simulation checks only
  input  logic                      rst_ni,  // simulation checks only
  // Dword client
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  pineda_pkg::mem_req_t      req_i,
  output logic                      rsp_valid_o,
  input  logic                      rsp_ready_i,
  output pineda_pkg::mem_rsp_t      rsp_o,
  // Line port
  output logic                      line_req_valid_o,
  input  logic                      line_req_ready_i,
  output pineda_pkg::mem_line_req_t line_req_o,
  input  logic                      line_rsp_valid_i,
  output logic                      line_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t line_rsp_i
);

  logic [3:0] rsp_pos;

  always_comb begin
    line_req_valid_o = req_valid_i;
    req_ready_o      = line_req_ready_i;
    line_req_o       = '0;
    line_req_o.we    = req_i.we;
    line_req_o.addr  = {req_i.addr[31:6], 6'd0};
    for (int unsigned k = 0; k < pineda_pkg::LINE_DWORDS; k++) begin
      line_req_o.wdata[k] = req_i.wdata;
    end
    line_req_o.be    = req_i.we ? (64'(req_i.be) << {req_i.addr[5:2], 2'b00}) : 64'd0;
    line_req_o.tag   = {req_i.addr[5:2], req_i.tag[3:0]};
  end

  always_comb begin
    rsp_pos          = line_rsp_i.tag[7:4];
    rsp_valid_o      = line_rsp_valid_i;
    line_rsp_ready_o = rsp_ready_i;
    rsp_o            = '0;
    rsp_o.we         = line_rsp_i.we;
    rsp_o.rdata      = line_rsp_i.rdata[rsp_pos];
    rsp_o.tag        = {4'd0, line_rsp_i.tag[3:0]};
  end

  logic unused_sig;
  assign unused_sig = ^{clk_i, rst_ni, req_i.addr[1:0], req_i.tag[7:4], line_rsp_i.src};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(req_valid_i && req_i.tag[7:4] != 4'd0))
        else $error("%m: dword client tag 0x%0h uses tag[7:4] (the adapter's line position)", req_i.tag);
    end
  end
`endif

endmodule
