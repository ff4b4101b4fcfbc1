# SPDX-License-Identifier: Apache-2.0
# The contract: contracts/defs.py -> SV package, C++ header, docs tables (committed files).
CONTRACT_OUT := rtl/common/pineda_pkg.sv cpp_model/common/pineda_contract.h docs/generated/contract.md \
                cpp_model/common/pineda_boundaries.h rtl/top/pineda_top_tap_chk.sv

contract: $(CONTRACT_OUT)
$(CONTRACT_OUT) &: contracts/defs.py contracts/gen.py
	$(PYTHON) contracts/gen.py

# Fails when a committed generated file differs from what the definition produces.
contract-check:
	@tmp=$$(mktemp -d) && $(PYTHON) contracts/gen.py --out $$tmp && \
	  for f in $(CONTRACT_OUT); do diff -u $$f $$tmp/$$f || { echo "stale: $$f (run make contract)"; exit 1; }; done && \
	  rm -rf $$tmp && echo "contract-check: generated files are current"
	@$(PYTHON) scripts/units.py check
.PHONY: contract contract-check
