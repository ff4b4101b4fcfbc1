# SPDX-License-Identifier: Apache-2.0
# mk/rtl.mk — RTL file list and Verilator lint (see Makefile).
# rtl/files.f lists every RTL source, package first, then common, units and the top.
RTL_FILES := $(shell cat rtl/files.f)
# Simulation-only checkers bound into a top by rtl/<dir>/<top>_bind.sv: only Verilator reads
# them (the models of mk/tb.mk, this lint), never Yosys.
RTL_BIND_FILES := $(wildcard rtl/*/*_bind.sv)
RTL_CHK_FILES := $(wildcard rtl/*/*_chk.sv)
RTL_LINT_TOPS := pineda_top front_end cp cp_regs cp_fetch dma resolve resolve_pixel resolve_srgb resolve_unpack resolve_line ia setup coarse_raster fine_raster hiz pixel_writer sram_1r1w sram_sp sram_fifo sram_rom \
                 line_stream_reader
VERILATOR ?= verilator

# -Wall lint of the full top and of every unit as its own top; any warning fails.
lint-verilator: rtl/files.f rtl/lint.vlt $(RTL_FILES) $(RTL_BIND_FILES) $(RTL_CHK_FILES)
	@set -e; for t in $(RTL_LINT_TOPS); do \
	  echo "verilator lint: $$t"; \
	  $(VERILATOR) --lint-only -Wall --top-module $$t rtl/lint.vlt $(RTL_FILES) $(RTL_CHK_FILES) \
	    $$(ls rtl/*/$${t}_bind.sv 2>/dev/null); \
	done
	@# --lint-only stops before Verilator orders the logic, so circular combinational logic
	@# (UNOPTFLAT: e.g. a false loop through an always block that reads a ready and writes a
	@# valid) shows only when a model is generated: the whole top's C++ as the simulation builds
	@# it (assertions on, the lint and style warnings left to the -Wall runs above), no compile;
	@# any warning fails.
	@echo "verilator --cc: pineda_top (UNOPTFLAT and the other scheduling warnings)"
	@rm -rf $(BUILD)/lint_cc && $(VERILATOR) --cc --assert -Wno-lint -Wno-style --top-module pineda_top \
	  -Mdir $(BUILD)/lint_cc rtl/lint.vlt $(RTL_FILES) $(RTL_CHK_FILES) rtl/top/pineda_top_bind.sv > /dev/null

.PHONY: lint-verilator

# Vertex transform and the FP32 primitives.
RTL_LINT_TOPS += vtx fp32_add fp32_mul fp32_rcp fp32_to_fix16_8 fp32_to_fix fp32_from_int csa_dot2

# Input assembly front end.
RTL_LINT_TOPS += index_fetch vertex_tags vertex_fetch

# Primitive assembly, clip, viewport, snap, cull.
RTL_LINT_TOPS += pa pa_dist

# Several rasterizers: the array and its parts.
RTL_LINT_TOPS += raster_array rast_dist quad_merge

# The line-wide memory system.
RTL_LINT_TOPS += mem_line_arbiter

# Depth/stencil unit.
RTL_LINT_TOPS += zs zs_sample

# Output merger: the blend arithmetic, and the pixel writer's stages (stage 1's pieces, stage A's
# tag banks, stage B's plain lines, stage 3 per bank).
RTL_LINT_TOPS += om_blend om_blend_lane om_encode pw_pieces pw_tag_bank pw_plain_line pw_stage3

# Attribute interpolation (docs/interp.md).
RTL_LINT_TOPS += interp

# Texture: the BC1/BC3 block decoder.
RTL_LINT_TOPS += tex_bc_decode tex_fill_decode tex_desc_check tex_lod tex_amode tex_tap_addr tex_tags tex_line_buf tex_filter tex_filter_px

# Texture sampler.
RTL_LINT_TOPS += tex

# Texture combiner and alpha test (docs/comb.md).
RTL_LINT_TOPS += combiner
