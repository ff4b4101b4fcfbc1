// SPDX-License-Identifier: Apache-2.0
// Bit-field helpers shared by the generated contract header and the model.
// Words are little-endian 32-bit chunks: word 0 holds bits [31:0], as Verilator's VlWide does.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace pineda {

// One field that differs between an expected (model) and an actual (RTL) packet.
struct FieldDiff {
  std::string field;
  std::string expected_hex;
  std::string actual_hex;
  std::string expected_dec;
  std::string actual_dec;
};

namespace bits {

inline uint64_t mask(int width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }

// Bits [msb:lsb] of a dword (a header or register field; positions in pineda_contract.h).
inline uint32_t field(uint32_t v, uint32_t msb, uint32_t lsb) {
  return static_cast<uint32_t>((v >> lsb) & mask(static_cast<int>(msb - lsb + 1)));
}

inline uint64_t get(const uint32_t* w, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    v |= static_cast<uint64_t>((w[b >> 5] >> (b & 31)) & 1u) << i;
  }
  return v;
}

inline void put(uint32_t* w, int lsb, int width, uint64_t v) {
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    const uint32_t bit = 1u << (b & 31);
    if ((v >> i) & 1u) {
      w[b >> 5] |= bit;
    } else {
      w[b >> 5] &= ~bit;
    }
  }
}

inline int64_t sext(uint64_t v, int width) {
  if (width >= 64) return static_cast<int64_t>(v);
  const uint64_t m = 1ull << (width - 1);
  v &= mask(width);
  return static_cast<int64_t>((v ^ m) - m);
}

// True when v is representable as a width-bit two's complement number.
inline bool fits_signed(int64_t v, int width) {
  const int64_t lo = -(int64_t{1} << (width - 1));
  const int64_t hi = (int64_t{1} << (width - 1)) - 1;
  return v >= lo && v <= hi;
}

inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Signed fields wider than 64 bits (the interpolation planes, docs/numerics.md section 10).
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

inline void put128(uint32_t* w, int lsb, int width, i128 v) {
  const u128 u = static_cast<u128>(v);
  put(w, lsb, 64, static_cast<uint64_t>(u));
  put(w, lsb + 64, width - 64, static_cast<uint64_t>(u >> 64));
}

inline i128 get128(const uint32_t* w, int lsb, int width) {
  const u128 u = (static_cast<u128>(get(w, lsb + 64, width - 64)) << 64) | get(w, lsb, 64);
  const u128 m = u128{1} << (width - 1);
  return static_cast<i128>((u ^ m) - m);
}

inline bool fits_signed128(i128 v, int width) {
  const i128 hi = (i128{1} << (width - 1)) - 1;
  return v >= -hi - 1 && v <= hi;
}

inline std::string hex128(i128 v, int width) {
  const u128 u = static_cast<u128>(v) & ((u128{1} << width) - 1);
  char buf[48];
  std::snprintf(buf, sizeof buf, "0x%llx%016llx", static_cast<unsigned long long>(u >> 64),
                static_cast<unsigned long long>(u));
  return buf;
}

inline std::string dec128(i128 v) {
  const bool neg = v < 0;
  u128 u = neg ? u128{0} - static_cast<u128>(v) : static_cast<u128>(v);
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  return neg ? "-" + s : s;
}

}  // namespace bits
}  // namespace pineda
