// SPDX-License-Identifier: Apache-2.0
// mem_arbiter: funnels NumClients memory client ports into the one external memory port.
//
// Requests: round-robin among the clients whose valid is high, at most one request per clock.
// The granted client's request goes out with tag[IdLsb+1:IdLsb] = client index (the other tag
// bits kept). IdLsb = 6 at the top level; a nested arbiter (several clients behind one client
// port of another arbiter) puts its id in lower bits (IdLsb = 4), which its clients leave 0. The
// memory-side valid is the OR of the client valids (never a function of mem_req_ready_i);
// while the memory stalls a request the grant is locked to that client, so the memory side
// sees the same payload until it accepts it. After a transfer the client after the granted
// one gets the highest priority.
// Responses: routed to client rsp.tag[7:6], with tag[7:6] cleared; the response ready is the
// addressed client's ready. Responses of an unknown client id are dropped (sim assertion).
// Throughput: one request and one response per clock. Latency: 0 (combinational).
//
// The client arrays are plain 2-D logic arrays holding one mem_req_t / mem_rsp_t per client
// (Yosys 0.55 sizes packed arrays of structs wrongly); ReqW and RspW must be their widths,
// which the instantiating module passes as $bits() of a mem_req_t / mem_rsp_t signal
// (checked in simulation).
module mem_arbiter #(
  parameter int unsigned NumClients = 3,
  parameter int unsigned IdLsb      = 6,   // client id at tag[IdLsb+1:IdLsb]
  parameter int unsigned ReqW       = 77,  // $bits(pineda_pkg::mem_req_t)
  parameter int unsigned RspW       = 41   // $bits(pineda_pkg::mem_rsp_t)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  // Client side: element c is client c
  input  logic [NumClients-1:0]                 req_valid_i,
  output logic [NumClients-1:0]                 req_ready_o,
  input  logic [NumClients-1:0][ReqW-1:0]       req_i,
  output logic [NumClients-1:0]                 rsp_valid_o,
  input  logic [NumClients-1:0]                 rsp_ready_i,
  output logic [NumClients-1:0][RspW-1:0]       rsp_o,
  // Memory side
  output logic                                  mem_req_valid_o,
  input  logic                                  mem_req_ready_i,
  output pineda_pkg::mem_req_t                  mem_req_o,
  input  logic                                  mem_rsp_valid_i,
  output logic                                  mem_rsp_ready_o,
  input  pineda_pkg::mem_rsp_t                  mem_rsp_i
);

  // The client id travels in tag[IdLsb+1:IdLsb]: at most 4 clients.
  localparam int unsigned IdW = 2;

  logic [IdW-1:0] prio_q,   prio_d;    // client with the highest priority
  logic           locked_q, locked_d;  // a request was offered and not accepted
  logic [IdW-1:0] lockid_q, lockid_d;  // ... by this client
  logic [IdW-1:0] grant;
  logic           found;
  logic [IdW-1:0] cand;
  logic [IdW-1:0] rsp_id;
  // Client valids and readies padded to the 4 ids (indexed by a 2-bit id for any NumClients).
  logic [3:0]     valid4, ready4;

  assign valid4      = 4'(req_valid_i);
  assign req_ready_o = ready4[NumClients-1:0];
  logic unused_ready;
  assign unused_ready = ^ready4;  // ids >= NumClients are never granted

  // Grant: the locked client, else the first requesting client from prio_q upwards (mod N).
  always_comb begin
    grant = lockid_q;
    found = 1'b0;
    cand  = '0;
    if (!locked_q) begin
      for (int unsigned k = 0; k < NumClients; k++) begin
        cand = ((32'(prio_q) + k) >= NumClients) ? IdW'(32'(prio_q) + k - NumClients)
                                                 : IdW'(32'(prio_q) + k);
        if (!found && valid4[cand]) begin
          found = 1'b1;
          grant = cand;
        end
      end
    end
  end

  assign mem_req_valid_o = |req_valid_i;

  always_comb begin
    mem_req_o          = req_i[grant];
    mem_req_o.tag[IdLsb +: IdW] = grant;  // the other tag bits stay the client's
  end

  always_comb begin
    ready4        = '0;
    ready4[grant] = mem_req_ready_i;
  end

  always_comb begin
    prio_d   = prio_q;
    locked_d = 1'b0;
    lockid_d = lockid_q;
    if (mem_req_valid_o) begin
      if (mem_req_ready_i) begin
        prio_d = (32'(grant) + 1 >= NumClients) ? '0 : grant + IdW'(1);
      end else begin
        locked_d = 1'b1;
        lockid_d = grant;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q   <= '0;
      locked_q <= 1'b0;
      lockid_q <= '0;
    end else begin
      prio_q   <= prio_d;
      locked_q <= locked_d;
      lockid_q <= lockid_d;
    end
  end

  // Responses.
  assign rsp_id = mem_rsp_i.tag[IdLsb +: IdW];

  pineda_pkg::mem_rsp_t rsp_client;  // the response with the client id cleared

  always_comb begin
    rsp_client          = mem_rsp_i;
    rsp_client.tag[IdLsb +: IdW] = '0;
    rsp_valid_o         = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      rsp_o[c]       = rsp_client;
      rsp_valid_o[c] = mem_rsp_valid_i && (32'(rsp_id) == c);
    end
  end

  always_comb begin
    mem_rsp_ready_o = 1'b1;  // unknown id: drop
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (32'(rsp_id) == c) begin
        mem_rsp_ready_o = rsp_ready_i[c];
      end
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (NumClients >= 1 && NumClients <= 4)
      else $fatal(1, "mem_arbiter: NumClients must be 1..4 (client id in two tag bits)");
    assert (IdLsb + IdW <= pineda_pkg::TAG_W)
      else $fatal(1, "mem_arbiter: IdLsb leaves no room for the client id");
    assert (ReqW == $bits(pineda_pkg::mem_req_t) && RspW == $bits(pineda_pkg::mem_rsp_t))
      else $fatal(1, "mem_arbiter: ReqW/RspW do not match mem_req_t/mem_rsp_t");
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(mem_rsp_valid_i && 32'(rsp_id) >= NumClients))
        else $error("%m: response for unknown client id %0d", rsp_id);
      assert (!(locked_q && !valid4[lockid_q]))
        else $error("%m: client %0d dropped a stalled request", lockid_q);
    end
  end
`endif

endmodule
