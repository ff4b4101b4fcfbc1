// SPDX-License-Identifier: Apache-2.0
// GPU memory allocator: first fit over an address-ordered free list, with alignment and
// coalescing of neighbouring free blocks on free. Not thread-safe (the Device locks it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace pineda::rt {

struct Allocation {
  uint32_t addr = 0;
  uint32_t size = 0;  // bytes, as allocated (a multiple of the alignment granule)
  bool valid() const { return size != 0; }
};

class Allocator {
 public:
  static constexpr uint32_t kGranule = 16;  // every block is a multiple of this

  Allocator(uint32_t base, uint32_t size);

  // Lowest-addressed block that fits `size` bytes at `align` (a power of two >= kGranule is
  // used; smaller alignments are raised to kGranule). nullopt when nothing fits.
  std::optional<Allocation> allocate(uint32_t size, uint32_t align = 256);
  // Returns a block from allocate(); neighbours are merged. Throws std::invalid_argument for a
  // block that is not currently allocated.
  void free(const Allocation& a);

  uint32_t base() const { return base_; }
  uint32_t capacity() const { return size_; }
  uint64_t bytes_free() const { return free_bytes_; }
  uint64_t bytes_used() const { return uint64_t{size_} - free_bytes_; }
  size_t free_blocks() const { return free_.size(); }
  size_t live_blocks() const { return used_.size(); }
  uint64_t largest_free() const;

 private:
  uint32_t base_, size_;
  uint64_t free_bytes_;
  std::map<uint64_t, uint64_t> free_;  // start -> size, address order, never adjacent
  std::map<uint64_t, uint64_t> used_;  // start -> size
};

}  // namespace pineda::rt
