// SPDX-License-Identifier: Apache-2.0
#include "mem/memory.h"

#include <algorithm>
#include <cstring>

namespace pineda {

namespace {
bool all_zero(const uint8_t* p) {
  for (uint32_t i = 0; i < Memory::PAGE_SIZE; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}
}  // namespace

const uint8_t* Memory::find_page(uint32_t addr) const {
  const auto it = pages_.find(addr >> PAGE_BITS);
  return it == pages_.end() ? nullptr : it->second.data();
}

uint8_t* Memory::page_for_write(uint32_t addr) {
  std::vector<uint8_t>& p = pages_[addr >> PAGE_BITS];
  if (p.empty()) p.assign(PAGE_SIZE, 0);
  return p.data();
}

uint8_t Memory::read8(uint32_t addr) const {
  const uint8_t* p = find_page(addr);
  return p ? p[addr & (PAGE_SIZE - 1)] : 0;
}

void Memory::write8(uint32_t addr, uint8_t value) { page_for_write(addr)[addr & (PAGE_SIZE - 1)] = value; }

uint32_t Memory::read32(uint32_t addr) const {
  addr &= ~3u;
  const uint8_t* p = find_page(addr);
  if (!p) return 0;
  const uint8_t* b = p + (addr & (PAGE_SIZE - 1));
  return uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
}

void Memory::write32(uint32_t addr, uint32_t data, uint32_t be) {
  if ((be & 0xFu) == 0) return;
  addr &= ~3u;
  uint8_t* b = page_for_write(addr) + (addr & (PAGE_SIZE - 1));
  for (int i = 0; i < 4; ++i) {
    if ((be >> i) & 1u) b[i] = static_cast<uint8_t>(data >> (8 * i));
  }
}

void Memory::read(uint32_t addr, void* dst, size_t n) const {
  auto* d = static_cast<uint8_t*>(dst);
  while (n > 0) {
    const uint32_t off = addr & (PAGE_SIZE - 1);
    const size_t chunk = std::min<size_t>(n, PAGE_SIZE - off);
    const uint8_t* p = find_page(addr);
    if (p) {
      std::memcpy(d, p + off, chunk);
    } else {
      std::memset(d, 0, chunk);
    }
    d += chunk;
    n -= chunk;
    addr += static_cast<uint32_t>(chunk);
  }
}

void Memory::write(uint32_t addr, const void* src, size_t n) {
  const auto* s = static_cast<const uint8_t*>(src);
  while (n > 0) {
    const uint32_t off = addr & (PAGE_SIZE - 1);
    const size_t chunk = std::min<size_t>(n, PAGE_SIZE - off);
    std::memcpy(page_for_write(addr) + off, s, chunk);
    s += chunk;
    n -= chunk;
    addr += static_cast<uint32_t>(chunk);
  }
}

void Memory::fill(uint32_t addr, size_t n, uint8_t value) {
  while (n > 0) {
    const uint32_t off = addr & (PAGE_SIZE - 1);
    const size_t chunk = std::min<size_t>(n, PAGE_SIZE - off);
    std::memset(page_for_write(addr) + off, value, chunk);
    n -= chunk;
    addr += static_cast<uint32_t>(chunk);
  }
}

void Memory::fill32(uint32_t addr, size_t count, uint32_t value) {
  addr &= ~3u;
  for (size_t i = 0; i < count; ++i, addr += 4) write32(addr, value);
}

void Memory::clear() { pages_.clear(); }

std::vector<uint32_t> Memory::page_bases() const {
  std::vector<uint32_t> out;
  out.reserve(pages_.size());
  for (const auto& kv : pages_) out.push_back(kv.first << PAGE_BITS);
  std::sort(out.begin(), out.end());
  return out;
}

const uint8_t* Memory::page_data(uint32_t page_base) const { return find_page(page_base); }

std::optional<uint32_t> Memory::first_difference(const Memory& other) const {
  std::vector<uint32_t> bases = page_bases();
  const std::vector<uint32_t> ob = other.page_bases();
  bases.insert(bases.end(), ob.begin(), ob.end());
  std::sort(bases.begin(), bases.end());
  bases.erase(std::unique(bases.begin(), bases.end()), bases.end());
  const std::vector<uint8_t> zero(PAGE_SIZE, 0);
  for (uint32_t base : bases) {
    const uint8_t* a = find_page(base);
    const uint8_t* b = other.find_page(base);
    if (!a) a = zero.data();
    if (!b) b = zero.data();
    if (std::memcmp(a, b, PAGE_SIZE) == 0) continue;
    for (uint32_t i = 0; i < PAGE_SIZE; ++i) {
      if (a[i] != b[i]) return base + i;
    }
  }
  return std::nullopt;
}

uint64_t Memory::digest() const {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](uint8_t byte) {
    h ^= byte;
    h *= 0x100000001b3ull;
  };
  for (uint32_t base : page_bases()) {
    const uint8_t* p = find_page(base);
    if (all_zero(p)) continue;
    for (int i = 0; i < 4; ++i) mix(static_cast<uint8_t>(base >> (8 * i)));
    for (uint32_t i = 0; i < PAGE_SIZE; ++i) mix(p[i]);
  }
  return h;
}

}  // namespace pineda
