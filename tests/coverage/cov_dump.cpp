// SPDX-License-Identifier: Apache-2.0
// Linked into the RTL tests of `make coverage` only (mk/coverage.mk). Every harness creates a
// fresh VerilatedContext per test and destroys it, and a context's coverage dies with it; the
// link wraps VerilatedContext's destructor (-Wl,--wrap=_ZN16VerilatedContextD1Ev) so that each
// context writes its coverage to $PINEDA_COV_DIR/<pid>-<n>.dat first. No harness changes.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "verilated.h"
#include "verilated_cov.h"

extern "C" void __real__ZN16VerilatedContextD1Ev(VerilatedContext* c);

extern "C" void __wrap__ZN16VerilatedContextD1Ev(VerilatedContext* c) {
  static std::atomic<int> n{0};
  const char* dir = std::getenv("PINEDA_COV_DIR");
  const std::string path = std::string(dir ? dir : ".") + "/" + std::to_string(::getpid()) + "-" +
                           std::to_string(n.fetch_add(1)) + ".dat";
  c->coveragep()->write(path.c_str());
  __real__ZN16VerilatedContextD1Ev(c);
}
