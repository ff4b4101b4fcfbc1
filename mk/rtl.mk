# mk/rtl.mk — RTL file list and Verilator lint (see Makefile).
# rtl/files.f lists every RTL source, package first, then common, units and the top.
RTL_FILES := $(shell cat rtl/files.f)
RTL_LINT_TOPS := pineda_top cp dma ia setup coarse_raster fine_raster pixel_writer mem_arbiter \
                 mem_stream_reader
VERILATOR ?= verilator

# -Wall lint of the full top and of every unit as its own top; any warning fails.
lint-verilator: rtl/files.f rtl/lint.vlt $(RTL_FILES)
	@set -e; for t in $(RTL_LINT_TOPS); do \
	  echo "verilator lint: $$t"; \
	  $(VERILATOR) --lint-only -Wall --top-module $$t rtl/lint.vlt $(RTL_FILES); \
	done

.PHONY: lint-verilator
