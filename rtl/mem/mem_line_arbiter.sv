// SPDX-License-Identifier: Apache-2.0
// mem_line_arbiter: NumClients line clients onto the one line-wide memory port
// (docs/contract.md §2.1).
//
// Client c is line-port client id c (pineda_pkg::MEM_LC_*): the instantiating module puts client
// MEM_LC_X on element X, and the arbiter stamps src = c on every request it grants.
// Requests: round robin among the clients whose valid is high, at most one request per clock;
// after a grant the client after the granted one gets the highest priority, so every requesting
// client is granted within NumClients grants (no starvation). The grant is a function of
// registers and the client valids only; while the stage behind the arbiter stalls a request the
// grant is locked to that client, so the payload it sees does not change until it is taken.
// With OutReg = 1 (default) the granted request goes through a stream_reg (skid buffer): the
// memory port's valid and payload come from registers and its ready reaches no client ready
// combinationally; one request per clock, 1 cycle of latency. OutReg = 0: combinational.
// Responses (in request order from the memory) go to client rsp.src, combinationally; the
// memory-side ready is that client's ready (clients always accept their responses: contract
// §2.1). A response for a client id >= NumClients is dropped (simulation assertion).
// Counters (per client, 32 bits, wrapping, reset by rst_ni only): grants_o[c] requests of c
// accepted, waits_o[c] cycles in which c had a request valid and not accepted.
//
// Only the clients of WriteClients (bit c: client c writes; pineda_top passes
// pineda_pkg::MEM_LC_WRITERS) write memory: the request's we, wdata and be are multiplexed among
// them alone (3 of 8 clients in pineda_top: 577 of the 621 bits through a 3-way instead of an
// 8-way multiplexer), and a request of any other client leaves as a read (simulation assertion:
// such a client never offers we = 1).
//
// The client arrays are plain 2-D logic arrays holding one mem_line_req_t / mem_line_rsp_t per
// client (Yosys 0.55 sizes packed arrays of structs wrongly).
module mem_line_arbiter #(
  parameter int unsigned NumClients = 5,
  parameter bit          OutReg     = 1'b1,
  parameter logic [pineda_pkg::MEM_LINE_CLIENTS_MAX-1:0] WriteClients = '1
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // Client side: element c is client id c
  input  logic [NumClients-1:0]                                 req_valid_i,
  output logic [NumClients-1:0]                                 req_ready_o,
  input  logic [NumClients-1:0][pineda_pkg::MEM_LINE_REQ_BITS-1:0] req_i,
  output logic [NumClients-1:0]                                 rsp_valid_o,
  input  logic [NumClients-1:0]                                 rsp_ready_i,
  output logic [NumClients-1:0][pineda_pkg::MEM_LINE_RSP_BITS-1:0] rsp_o,
  // Memory side
  output logic                                                  mem_req_valid_o,
  input  logic                                                  mem_req_ready_i,
  output pineda_pkg::mem_line_req_t                             mem_req_o,
  input  logic                                                  mem_rsp_valid_i,
  output logic                                                  mem_rsp_ready_o,
  input  pineda_pkg::mem_line_rsp_t                             mem_rsp_i,
  // Counters
  output logic [NumClients-1:0][31:0]                           grants_o,
  output logic [NumClients-1:0][31:0]                           waits_o
);

  localparam int unsigned IdW = pineda_pkg::MEM_SRC_W;

  logic [IdW-1:0] prio_q,   prio_d;    // client with the highest priority
  logic           locked_q, locked_d;  // a request was offered and not accepted
  logic [IdW-1:0] lockid_q, lockid_d;  // ... by this client
  logic [IdW-1:0] grant;
  logic           found;
  logic [IdW-1:0] cand;
  // Client valids padded to the 2^IdW ids (indexed by an IdW-bit id for any NumClients).
  logic [(1 << IdW)-1:0] valid_all;
  assign valid_all = (1 << IdW)'(req_valid_i);

  // The arbitrated request, before the optional output register.
  logic                      arb_valid, arb_ready;
  pineda_pkg::mem_line_req_t arb_req;

  // The writing clients, in id order: client c is writer writer_rank(c).
  function automatic int unsigned writer_rank(int unsigned c);
    writer_rank = 0;
    for (int unsigned k = 0; k < c; k++) writer_rank += 32'(WriteClients[k]);
  endfunction
  localparam int unsigned NumW    = writer_rank(NumClients);
  localparam int unsigned NumWArr = (NumW > 0) ? NumW : 1;
  localparam int unsigned WSelW   = (NumW > 1) ? $clog2(NumW) : 1;
  logic [NumWArr-1:0][pineda_pkg::MEM_LINE_REQ_BITS-1:0] wr_req;  // the writers' requests
  logic [WSelW-1:0]          wsel;       // the granted client's writer rank ...
  logic                      gwrites;    // ... if it is a writer
  pineda_pkg::mem_line_req_t g_req, w_req;
  for (genvar c = 0; c < NumClients; c++) begin : g_wr
    if (WriteClients[c]) begin : g_w
      assign wr_req[writer_rank(c)] = req_i[c];
    end
  end
  if (NumW == 0) begin : g_no_wr
    assign wr_req = '0;
  end
  logic unused_req_bits;  // the writer mux's address fields, the grant mux's write fields
  assign unused_req_bits = ^{w_req.addr, w_req.src, w_req.tag, g_req.we, g_req.wdata, g_req.be, g_req.src};

  // Grant: the locked client, else the first requesting client from prio_q upwards (mod N).
  always_comb begin
    grant = lockid_q;
    found = 1'b0;
    cand  = '0;
    if (!locked_q) begin
      for (int unsigned k = 0; k < NumClients; k++) begin
        cand = ((32'(prio_q) + k) >= NumClients) ? IdW'(32'(prio_q) + k - NumClients)
                                                 : IdW'(32'(prio_q) + k);
        if (!found && valid_all[cand]) begin
          found = 1'b1;
          grant = cand;
        end
      end
    end
  end

  always_comb begin
    wsel    = '0;
    gwrites = 1'b0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      if (WriteClients[c] && 32'(grant) == c) begin
        wsel    = WSelW'(writer_rank(c));
        gwrites = 1'b1;
      end
    end
    g_req         = pineda_pkg::mem_line_req_t'(req_i[grant]);
    w_req         = pineda_pkg::mem_line_req_t'(wr_req[wsel]);
    arb_valid     = |req_valid_i;
    arb_req       = g_req;
    arb_req.we    = gwrites && w_req.we;
    arb_req.wdata = w_req.wdata;
    arb_req.be    = w_req.be;
    arb_req.src   = grant;
    req_ready_o   = '0;
    for (int unsigned c = 0; c < NumClients; c++) begin
      req_ready_o[c] = arb_ready && (32'(grant) == c);
    end
  end

  always_comb begin
    prio_d   = prio_q;
    locked_d = 1'b0;
    lockid_d = lockid_q;
    if (arb_valid) begin
      if (arb_ready) begin
        prio_d = (32'(grant) + 1 >= NumClients) ? '0 : grant + IdW'(1);
      end else begin
        locked_d = 1'b1;
        lockid_d = grant;
      end
    end
  end

  if (OutReg) begin : g_out_reg
    stream_reg #(
      .Width(pineda_pkg::MEM_LINE_REQ_BITS)
    ) u_out (
      .clk_i,
      .rst_ni,
      .in_valid_i  (arb_valid),
      .in_ready_o  (arb_ready),
      .in_data_i   (arb_req),
      .out_valid_o (mem_req_valid_o),
      .out_ready_i (mem_req_ready_i),
      .out_data_o  (mem_req_o)
    );
  end else begin : g_out_comb
    assign mem_req_valid_o = arb_valid;
    assign mem_req_o       = arb_req;
    assign arb_ready       = mem_req_ready_i;
  end

  // Responses: to client src.
  always_comb begin
    rsp_valid_o     = '0;
    mem_rsp_ready_o = 1'b1;  // unknown id: drop
    for (int unsigned c = 0; c < NumClients; c++) begin
      rsp_o[c]       = mem_rsp_i;
      rsp_valid_o[c] = mem_rsp_valid_i && (32'(mem_rsp_i.src) == c);
      if (32'(mem_rsp_i.src) == c) begin
        mem_rsp_ready_o = rsp_ready_i[c];
      end
    end
  end

  // Counters.
  logic [NumClients-1:0][31:0] grants_q, grants_d, waits_q, waits_d;
  always_comb begin
    for (int unsigned c = 0; c < NumClients; c++) begin
      grants_d[c] = grants_q[c] + 32'(req_valid_i[c] && req_ready_o[c]);
      waits_d[c]  = waits_q[c] + 32'(req_valid_i[c] && !req_ready_o[c]);
    end
  end
  assign grants_o = grants_q;
  assign waits_o  = waits_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q   <= '0;
      locked_q <= 1'b0;
      lockid_q <= '0;
      grants_q <= '0;
      waits_q  <= '0;
    end else begin
      prio_q   <= prio_d;
      locked_q <= locked_d;
      lockid_q <= lockid_d;
      grants_q <= grants_d;
      waits_q  <= waits_d;
    end
  end

`ifndef SYNTHESIS
  initial begin
    assert (NumClients >= 1 && NumClients <= pineda_pkg::MEM_LINE_CLIENTS_MAX)
      else $fatal(1, "mem_line_arbiter: NumClients must be 1..MEM_LINE_CLIENTS_MAX");
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(mem_rsp_valid_i && 32'(mem_rsp_i.src) >= NumClients))
        else $error("%m: response for unknown client id %0d", mem_rsp_i.src);
      assert (!(locked_q && !valid_all[lockid_q]))
        else $error("%m: client %0d dropped a stalled request", lockid_q);
    end
  end
  for (genvar c = 0; c < NumClients; c++) begin : g_we_chk
    if (!WriteClients[c]) begin : g_ro
      always_ff @(posedge clk_i) begin
        if (rst_ni) begin
          // (.we is mem_line_req_t's first, most significant field)
          assert (!(req_valid_i[c] && req_i[c][pineda_pkg::MEM_LINE_REQ_BITS-1]))
            else $error("%m: client %0d is not in WriteClients and offers a write", c);
        end
      end
    end
  end
  for (genvar c = 0; c < NumClients; c++) begin : g_rsp_chk
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        assert (!(rsp_valid_o[c] && !rsp_ready_i[c]))
          else $error("%m: client %0d did not accept its response (contract 2.1)", c);
      end
    end
  end
`endif

endmodule
