// SPDX-License-Identifier: Apache-2.0
// tex_slot_victim: the descriptor slot a miss takes, for both of tex's slot tables (texture and
// sampler descriptors). Among the slots no quad in flight uses (cnt_i == 0), an unallocated one
// (valid_i clear) first, else the least recently used (the largest age_i); the lowest index among
// equals. ok_o: there is such a slot. Combinational.
module tex_slot_victim #(
  parameter int unsigned Slots = 4,   // >= 2
  parameter int unsigned CntW  = 4
) (
  input  logic [Slots-1:0][CntW-1:0]          cnt_i,    // quads in flight using the slot
  input  logic [Slots-1:0]                    valid_i,  // the slot holds a descriptor
  input  logic [Slots-1:0][$clog2(Slots)-1:0] age_i,    // 0: most recently used
  output logic                                ok_o,
  output logic [$clog2(Slots)-1:0]            idx_o
);

  localparam int unsigned SW = $clog2(Slots);

  logic          ok;
  logic [SW-1:0] idx;
  logic [SW:0]   key;  // {unallocated, age} of the slot chosen so far

  always_comb begin
    ok  = 1'b0;
    idx = '0;
    key = '0;
    for (int k = 0; k < Slots; k++) begin
      if (cnt_i[k] == '0 && (!ok || {!valid_i[k], age_i[k]} > key)) begin
        ok  = 1'b1;
        idx = SW'(k);
        key = {!valid_i[k], age_i[k]};
      end
    end
  end

  assign ok_o  = ok;
  assign idx_o = idx;

endmodule
