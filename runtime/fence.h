// SPDX-License-Identifier: Apache-2.0
// Fence numbers: 64-bit and monotonic on the host, 32-bit in the hardware's FENCE register.
#pragma once

#include <cstdint>

namespace pineda::rt {

constexpr uint32_t fence_lo32(uint64_t f) { return static_cast<uint32_t>(f); }

// Wrap-safe "32-bit fence value a has reached b" (serial-number arithmetic, as WAIT_REG's
// greater-or-equal mode): (int32)(a - b) >= 0.
constexpr bool fence32_reached(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) >= 0; }

// True when `hw` can be the completed value while `newest` is the newest fence handed to the
// hardware: hw lags newest by less than 2^31 (mod 2^32).
constexpr bool fence_plausible(uint32_t hw, uint64_t newest) {
  return static_cast<uint32_t>(fence_lo32(newest) - hw) < 0x80000000u;
}

// Extends the hardware's 32-bit value to 64 bits: the largest value <= newest whose low 32 bits
// are hw. Only meaningful when fence_plausible(hw, newest).
constexpr uint64_t fence_extend(uint32_t hw, uint64_t newest) {
  const uint32_t behind = fence_lo32(newest) - hw;
  return behind > newest ? 0 : newest - behind;
}

}  // namespace pineda::rt
