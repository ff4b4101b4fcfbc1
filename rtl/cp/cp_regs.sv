// SPDX-License-Identifier: Apache-2.0
// cp_regs: the command processor's host register file (docs/contract.md §3; addresses, access
// and reset values in contracts/defs.py HOST_REGS).
//
// ID, CONTROL, STATUS, RING_BASE/SIZE/WPTR/RPTR, ERROR_CAUSE/ADDR, IRQ_STATUS (W1C),
// IRQ_ENABLE, INT_PAYLOAD, (STATUS.TEX_FAULT mirrors IRQ_STATUS.TEX_FAULT, set by set_tex_fault_i) VALID_BASE/LIMIT, WATCHDOG, IB_DEPTH, FENCE0..15. reg_o.rdata is
// combinational from reg_i.addr; addresses it does not own read 0. Writes take effect at the
// clock edge. STATUS, RING_RPTR and IB_DEPTH belong to the decoder and come in as inputs.
//
// The decoder's updates of a cycle take priority over a host write of the same cycle, in this
// order: top-of-pipe fence write, end-of-pipe fence write, END, INTERRUPT, error; a
// CONTROL.CP_RESET write (cp_reset_o, to the decoder) then clears ERROR and HALTED.
module cp_regs (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // Host register port
  input  pineda_pkg::reg_req_t         reg_i,
  output pineda_pkg::reg_rsp_t         reg_o,
  // Read-only values owned by the decoder
  input  logic [31:0]                  status_i,
  input  logic [31:0]                  ring_rptr_i,
  input  logic [31:0]                  ib_depth_i,
  // Decoder events
  input  logic                         fence_we_i,     // top-of-pipe WRITE_REG
  input  logic [3:0]                   fence_widx_i,
  input  logic [31:0]                  fence_wdata_i,
  input  logic                         eop_we_i,       // an end-of-pipe WRITE_REG completes
  input  logic [3:0]                   eop_widx_i,
  input  logic [31:0]                  eop_wdata_i,
  input  logic                         set_end_i,      // END: HALTED, IRQ END
  input  logic                         set_int_i,      // INTERRUPT: INT_PAYLOAD, IRQ INTERRUPT
  input  logic [31:0]                  int_payload_i,
  input  logic                         set_error_i,    // ERROR, ERROR_CAUSE/ADDR, IRQ ERROR
  input  pineda_pkg::err_cause_e       cause_i,
  input  logic [31:0]                  cause_addr_i,
  input  logic                         set_tex_fault_i, // a TEX fault: IRQ TEX_FAULT (STATUS.TEX_FAULT reads it)
  // Register values for the decoder
  output logic                         enable_o,
  output logic                         halted_o,
  output logic                         error_o,
  output logic [31:0]                  ring_base_o,
  output logic [31:0]                  ring_size_o,
  output logic [31:0]                  ring_wptr_o,
  output logic [31:0]                  valid_base_o,
  output logic [31:0]                  valid_limit_o,
  output logic [31:0]                  watchdog_o,
  output logic [15:0][31:0]            fence_o,
  output logic                         cp_reset_o,     // CONTROL.CP_RESET written this cycle
  output logic                         no_fast_clear_o // CONTROL.NO_FAST_CLEAR
);

  localparam int unsigned IrqW = 4;

  typedef struct packed {
    logic                   enable;       // CONTROL.ENABLE
    logic                   no_fast_clear; // CONTROL.NO_FAST_CLEAR
    logic                   halted;
    logic                   error;
    logic [31:0]            ring_base;
    logic [31:0]            ring_size;
    logic [31:0]            ring_wptr;
    pineda_pkg::err_cause_e err_cause;
    logic [31:0]            err_addr;
    logic [IrqW-1:0]        irq_status;
    logic [IrqW-1:0]        irq_enable;   // IRQ_* bits only
    logic [31:0]            int_payload;
    logic [31:0]            valid_base;
    logic [31:0]            valid_limit;
    logic [31:0]            watchdog;
    logic [15:0][31:0]      fence;
  } regs_t;

  regs_t regs_q, regs_d;
  logic  host_we;
  logic  is_fence;

  // The strobe on its own: the decoder's events below depend on it.
  assign host_we    = reg_i.valid && reg_i.we;
  assign is_fence   = ({reg_i.addr[7:4], 4'd0} == pineda_pkg::REG_FENCE0);
  assign cp_reset_o = host_we && (reg_i.addr == pineda_pkg::REG_CONTROL) &&
                      reg_i.wdata[pineda_pkg::CONTROL_CP_RESET];

  always_comb begin
    regs_d = regs_q;
    if (host_we) begin
      unique case (reg_i.addr)
        pineda_pkg::REG_CONTROL: begin
          regs_d.enable        = reg_i.wdata[pineda_pkg::CONTROL_ENABLE];
          regs_d.no_fast_clear = reg_i.wdata[pineda_pkg::CONTROL_NO_FAST_CLEAR];
          regs_d.halted = 1'b0;
        end
        pineda_pkg::REG_RING_BASE:   regs_d.ring_base   = reg_i.wdata;
        pineda_pkg::REG_RING_SIZE:   regs_d.ring_size   = reg_i.wdata;
        pineda_pkg::REG_RING_WPTR:   regs_d.ring_wptr   = reg_i.wdata;
        pineda_pkg::REG_IRQ_STATUS:  regs_d.irq_status  = regs_q.irq_status & ~reg_i.wdata[IrqW-1:0];
        pineda_pkg::REG_IRQ_ENABLE:  regs_d.irq_enable  = reg_i.wdata[IrqW-1:0];
        pineda_pkg::REG_VALID_BASE:  regs_d.valid_base  = reg_i.wdata;
        pineda_pkg::REG_VALID_LIMIT: regs_d.valid_limit = reg_i.wdata;
        pineda_pkg::REG_WATCHDOG:    regs_d.watchdog    = reg_i.wdata;
        default: begin
          if (is_fence) regs_d.fence[reg_i.addr[3:0]] = reg_i.wdata;
        end
      endcase
    end
    if (fence_we_i) begin
      regs_d.fence[fence_widx_i] = fence_wdata_i;
    end
    if (eop_we_i) begin
      regs_d.fence[eop_widx_i] = eop_wdata_i;
    end
    if (set_end_i) begin
      regs_d.halted                         = 1'b1;
      regs_d.irq_status[pineda_pkg::IRQ_END] = 1'b1;
    end
    if (set_int_i) begin
      regs_d.int_payload                          = int_payload_i;
      regs_d.irq_status[pineda_pkg::IRQ_INTERRUPT] = 1'b1;
    end
    if (set_error_i) begin
      regs_d.error                             = 1'b1;
      regs_d.err_cause                         = cause_i;
      regs_d.err_addr                          = cause_addr_i;
      regs_d.irq_status[pineda_pkg::IRQ_ERROR] = 1'b1;
    end
    if (set_tex_fault_i) begin
      regs_d.irq_status[pineda_pkg::IRQ_TEX_FAULT] = 1'b1;
    end
    if (cp_reset_o) begin
      regs_d.error  = 1'b0;
      regs_d.halted = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      regs_q             <= '0;
      regs_q.valid_limit <= pineda_pkg::VALID_LIMIT_RESET;
    end else begin
      regs_q <= regs_d;
    end
  end

  always_comb begin
    reg_o.rdata = '0;
    unique case (reg_i.addr)
      pineda_pkg::REG_ID:          reg_o.rdata = pineda_pkg::ID_VALUE;
      pineda_pkg::REG_CONTROL: begin
        reg_o.rdata[pineda_pkg::CONTROL_ENABLE]        = regs_q.enable;
        reg_o.rdata[pineda_pkg::CONTROL_NO_FAST_CLEAR] = regs_q.no_fast_clear;
      end
      pineda_pkg::REG_STATUS: begin
        reg_o.rdata = status_i;
        // sticky and non-fatal: set by a TEX fault, cleared with IRQ_STATUS.TEX_FAULT (W1C)
        reg_o.rdata[pineda_pkg::STATUS_TEX_FAULT] = regs_q.irq_status[pineda_pkg::IRQ_TEX_FAULT];
      end
      pineda_pkg::REG_RING_BASE:   reg_o.rdata = regs_q.ring_base;
      pineda_pkg::REG_RING_SIZE:   reg_o.rdata = regs_q.ring_size;
      pineda_pkg::REG_RING_WPTR:   reg_o.rdata = regs_q.ring_wptr;
      pineda_pkg::REG_RING_RPTR:   reg_o.rdata = ring_rptr_i;
      pineda_pkg::REG_ERROR_CAUSE: reg_o.rdata = regs_q.err_cause;
      pineda_pkg::REG_ERROR_ADDR:  reg_o.rdata = regs_q.err_addr;
      pineda_pkg::REG_IRQ_STATUS:  reg_o.rdata[IrqW-1:0] = regs_q.irq_status;
      pineda_pkg::REG_IRQ_ENABLE:  reg_o.rdata[IrqW-1:0] = regs_q.irq_enable;
      pineda_pkg::REG_INT_PAYLOAD: reg_o.rdata = regs_q.int_payload;
      pineda_pkg::REG_VALID_BASE:  reg_o.rdata = regs_q.valid_base;
      pineda_pkg::REG_VALID_LIMIT: reg_o.rdata = regs_q.valid_limit;
      pineda_pkg::REG_WATCHDOG:    reg_o.rdata = regs_q.watchdog;
      pineda_pkg::REG_IB_DEPTH:    reg_o.rdata = ib_depth_i;
      default: begin
        if (is_fence) reg_o.rdata = regs_q.fence[reg_i.addr[3:0]];
      end
    endcase
    reg_o.irq = |(regs_q.irq_status & regs_q.irq_enable);
  end

  assign enable_o        = regs_q.enable;
  assign no_fast_clear_o = regs_q.no_fast_clear;
  assign halted_o      = regs_q.halted;
  assign error_o       = regs_q.error;
  assign ring_base_o   = regs_q.ring_base;
  assign ring_size_o   = regs_q.ring_size;
  assign ring_wptr_o   = regs_q.ring_wptr;
  assign valid_base_o  = regs_q.valid_base;
  assign valid_limit_o = regs_q.valid_limit;
  assign watchdog_o    = regs_q.watchdog;
  assign fence_o       = regs_q.fence;

endmodule
