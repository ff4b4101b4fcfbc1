// SPDX-License-Identifier: Apache-2.0
// The model's record of its boundaries: one packet stream per boundary of contracts/defs.py
// BOUNDARIES (pineda_boundaries.h), named after it: trace.cp_draw, trace.get<Boundary::CP_DRAW>(),
// trace.for_each(...). The harnesses compare it with the RTL's taps.
#pragma once

#include <cstddef>
#include <vector>

#include "pineda_boundaries.h"

namespace pineda::model {

template <class Pkt>
using Stream = std::vector<Pkt>;
struct Trace : PerBoundary<Stream> {
  void clear();
  size_t count(Boundary b) const;  // number of packets recorded on boundary b
};

}  // namespace pineda::model
