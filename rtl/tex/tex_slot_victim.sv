// SPDX-License-Identifier: Apache-2.0
// tex_slot_victim: the descriptor slot a miss takes, for both of tex's slot tables (texture and
// sampler descriptors). Among the slots no quad in flight uses (cnt_i == 0), an unallocated one
// (valid_i clear) first, else the least recently used (the largest age_i); the lowest index among
// equals. ok_o: there is such a slot. Combinational (a tree of pairwise choices).
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
  localparam int unsigned N  = 1 << SW;  // leaves of the tree (the slots, padded)

  // A tree of N - 1 pairwise choices (log2 N deep, not a chain of Slots comparisons): node n
  // chooses between its children 2n and 2n + 1 (leaf k is node N + k); the right child wins only
  // with a larger {unallocated, age}, so among equals the lower index stays, as in the scan.
  logic [N-1:0]         l_ok;
  logic [N-1:0][SW:0]   l_key;  // {unallocated, age}
  for (genvar k = 0; k < N; k++) begin : g_leaf
    if (k < Slots) begin : g_slot
      assign l_ok[k]  = cnt_i[k] == '0;
      assign l_key[k] = {!valid_i[k], age_i[k]};
    end else begin : g_pad
      assign l_ok[k]  = 1'b0;
      assign l_key[k] = '0;
    end
  end

  logic [2*N-1:1]         t_ok;
  logic [2*N-1:1][SW-1:0] t_idx;
  logic [2*N-1:1][SW:0]   t_key;
  always_comb begin
    t_ok = '0;
    t_idx = '0;
    t_key = '0;
    for (int k = 0; k < int'(N); k++) begin
      t_ok[N + k] = l_ok[k];
      t_idx[N + k] = SW'(k);
      t_key[N + k] = l_key[k];
    end
    for (int n = int'(N) - 1; n >= 1; n--) begin
      if (t_ok[2*n+1] && (!t_ok[2*n] || t_key[2*n+1] > t_key[2*n])) begin
        t_ok[n] = 1'b1;
        t_idx[n] = t_idx[2*n+1];
        t_key[n] = t_key[2*n+1];
      end else begin
        t_ok[n] = t_ok[2*n];
        t_idx[n] = t_idx[2*n];
        t_key[n] = t_key[2*n];
      end
    end
  end

  assign ok_o  = t_ok[1];
  assign idx_o = t_idx[1];

endmodule
