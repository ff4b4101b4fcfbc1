// SPDX-License-Identifier: Apache-2.0
#include "top/trace.h"

namespace pineda::model {

void Trace::clear() {
  for_each([](auto, auto& stream) { stream.clear(); });
}

size_t Trace::count(Boundary b) const {
  size_t n = 0;
  for_each([&](auto traits, const auto& stream) {
    if (decltype(traits)::id == b) n = stream.size();
  });
  return n;
}

}  // namespace pineda::model
