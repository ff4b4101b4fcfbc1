// SPDX-License-Identifier: Apache-2.0
#include "allocator.h"

#include <stdexcept>

namespace pineda::rt {

Allocator::Allocator(uint32_t base, uint32_t size) : base_(base), size_(size), free_bytes_(0) {
  const uint64_t start = (uint64_t{base} + kGranule - 1) / kGranule * kGranule;
  const uint64_t end = (uint64_t{base} + size) / kGranule * kGranule;
  if (end > start) {
    free_[start] = end - start;
    free_bytes_ = end - start;
  }
}

std::optional<Allocation> Allocator::allocate(uint32_t size, uint32_t align) {
  if (size == 0) return std::nullopt;
  if (align < kGranule) align = kGranule;
  if (align & (align - 1)) return std::nullopt;
  const uint64_t need = (uint64_t{size} + kGranule - 1) / kGranule * kGranule;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first, len = it->second;
    const uint64_t a = (start + align - 1) / align * align;
    if (a + need > start + len) continue;
    // Split: [start, a) stays free, [a, a + need) is used, [a + need, start + len) is free.
    free_.erase(it);
    if (a > start) free_[start] = a - start;
    if (a + need < start + len) free_[a + need] = start + len - (a + need);
    used_[a] = need;
    free_bytes_ -= need;
    return Allocation{static_cast<uint32_t>(a), static_cast<uint32_t>(need)};
  }
  return std::nullopt;
}

void Allocator::free(const Allocation& a) {
  auto u = used_.find(a.addr);
  if (u == used_.end() || u->second != a.size) throw std::invalid_argument("Allocator::free: not an allocated block");
  used_.erase(u);
  free_bytes_ += a.size;
  uint64_t start = a.addr, len = a.size;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + len) {  // merge with the block after
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // merge with the block before
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      len += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = len;
}

uint64_t Allocator::largest_free() const {
  uint64_t m = 0;
  for (const auto& [s, l] : free_) m = l > m ? l : m;
  return m;
}

}  // namespace pineda::rt
