// SPDX-License-Identifier: Apache-2.0
// Simulation-only checkers of pineda_top, bound into it. Only Verilator reads this file (the
// pineda_top models of mk/tb.mk and `make lint`); it is not in rtl/files.f, so Yosys never does.
bind pineda_top pineda_top_tap_chk #(.NumRast(NumRast)) u_tap_chk (.*);
bind pineda_top pineda_top_chk #(.NumClients(NumClients)) u_chk (.*);
