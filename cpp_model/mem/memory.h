// SPDX-License-Identifier: Apache-2.0
// Sparse 4 GiB byte-addressed memory shared by the golden model and the harness's DRAM model.
// Pages are allocated on the first write; reads of never-written memory return 0. Addresses wrap
// at 2^32. Two memories compare equal when every byte is equal (an allocated all-zero page equals
// an absent one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace pineda {

class Memory {
 public:
  static constexpr uint32_t PAGE_BITS = 12;
  static constexpr uint32_t PAGE_SIZE = 1u << PAGE_BITS;

  uint8_t read8(uint32_t addr) const;
  void write8(uint32_t addr, uint8_t value);

  // Dword access, little endian; addr[1:0] are ignored (as on the memory port).
  uint32_t read32(uint32_t addr) const;
  // Writes the bytes whose bit in be[3:0] is set (bit n = byte addr+n).
  void write32(uint32_t addr, uint32_t data, uint32_t be = 0xFu);

  // Byte ranges (no alignment requirement), wrapping at 2^32.
  void read(uint32_t addr, void* dst, size_t n) const;
  void write(uint32_t addr, const void* src, size_t n);
  void fill(uint32_t addr, size_t n, uint8_t value);
  // count dwords of value starting at addr (addr[1:0] ignored).
  void fill32(uint32_t addr, size_t count, uint32_t value);

  void clear();

  // Inspection: allocated pages in ascending address order and their PAGE_SIZE bytes.
  size_t page_count() const { return pages_.size(); }
  std::vector<uint32_t> page_bases() const;
  const uint8_t* page_data(uint32_t page_base) const;  // nullptr when never written

  bool operator==(const Memory& other) const { return !first_difference(other).has_value(); }
  bool operator!=(const Memory& other) const { return !(*this == other); }
  // Lowest byte address whose contents differ, if any.
  std::optional<uint32_t> first_difference(const Memory& other) const;
  // FNV-1a 64 over (page base, page bytes) of every page that is not all zero, ascending.
  // Equal memories have equal digests.
  uint64_t digest() const;

 private:
  const uint8_t* find_page(uint32_t addr) const;
  uint8_t* page_for_write(uint32_t addr);

  std::unordered_map<uint32_t, std::vector<uint8_t>> pages_;  // key: addr >> PAGE_BITS
};

}  // namespace pineda
