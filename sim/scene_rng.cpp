// SPDX-License-Identifier: Apache-2.0
// SceneRng: the scenes' and the model tests' small deterministic generator (splitmix64).

#include "scenes.h"

namespace pineda {

uint64_t SceneRng::next() {
  uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t SceneRng::range(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(next() % span);
}

}  // namespace pineda
