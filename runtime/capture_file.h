// SPDX-License-Identifier: Apache-2.0
// Capture files: what the CaptureBackend records (the GPU memory image and every host register
// write, in order) with what a replay needs around it (the render target to show, the register
// writes that release GPU waits, the fences written only at end of pipe) and, optionally, the
// result a replay must reproduce (the model's final memory digest and host registers).
//
// File layout (docs/runtime.md "Capture files"), little endian:
//   0  char[8] magic "PNDACAP\n"        24 u64 payload bytes, compressed
//   8  u32 format version (2)           32 u32 CRC-32 of the uncompressed payload
//   12 u32 contract id (REG_ID value)   36 u32 CRC-32 of bytes 0..35
//   16 u64 payload bytes, uncompressed  40 the payload, one zlib stream
// A truncated, corrupted, wrong-version or other-contract file is refused with a CaptureError
// saying which. Every size, count and address read from a file is checked (64-bit arithmetic)
// against the format's limits below before it is used, and the payload is inflated a piece at a
// time as it is parsed: nothing is allocated for what a header merely claims, and decoding stops
// at the first inconsistency.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mem/memory.h"
#include "pineda_contract.h"

namespace pineda::rt {

class CaptureBackend;

using RegWrites = std::vector<std::pair<uint32_t, uint32_t>>;

// 2: the render target's format (CaptureTarget::fmt) follows its sample count; version 1 files
// (no format: they decoded every target as RGBA8) are refused.
inline constexpr uint32_t CAPTURE_FORMAT_VERSION = 2;
inline constexpr size_t CAPTURE_HEADER_BYTES = 40;

// What the format allows (docs/runtime.md "Capture files"): a file beyond these is refused.
inline constexpr uint32_t CAPTURE_MAX_NAME = 4096;             // bytes of the scene name
inline constexpr uint32_t CAPTURE_MAX_PAGES = 1u << 18;        // memory image: 1 GiB of 4 KiB pages
inline constexpr uint32_t CAPTURE_MAX_REG_WRITES = 1u << 22;   // (register, value) pairs, all lists together
inline constexpr uint32_t CAPTURE_MAX_WAIT_RELEASES = 1u << 20;
// The largest payload those limits allow: 72 bytes of fixed fields (name length, target, fences,
// the four counts, result flag and digest, end marker), the name, one count per wait release,
// the register pairs and the pages (base and bytes).
inline constexpr uint64_t CAPTURE_MAX_PAYLOAD = 72 + uint64_t{CAPTURE_MAX_NAME} + 4 * uint64_t{CAPTURE_MAX_WAIT_RELEASES} +
                                                8 * uint64_t{CAPTURE_MAX_REG_WRITES} +
                                                uint64_t{CAPTURE_MAX_PAGES} * (4 + 4096);

class CaptureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The image a replay shows: a render target (samples 4: a 4x MSAA target, resolved for display)
// stored in format fmt (RT_FMT_*: RGBA8, BGRA8, RGBA8_SRGB, B5G6R5; docs/om.md section 1).
struct CaptureTarget {
  uint32_t base = 0, pitch = 0, width = 0, height = 0, samples = 1;
  uint32_t fmt = RT_FMT_RGBA8;
};

// What a replay must reproduce (recorded from the golden model when the capture was made).
struct CaptureResult {
  bool present = false;
  uint64_t memory_digest = 0;  // Memory::digest() after the run
  RegWrites regs;              // (host register, value) after the run: STATUS, ERROR_CAUSE, fences...
};

struct Capture {
  uint32_t contract_id = ID_VALUE;  // the REG_ID of the hardware the stream was encoded for
  std::string name;
  Memory mem;
  RegWrites reg_writes;                   // applied in order before the GPU runs
  std::vector<RegWrites> wait_releases;   // the k-th GPU wait on a host fence is released by [k]
  uint32_t eop_fence_mask = 1;            // fences written only by end-of-pipe WRITE_REGs
  uint32_t fence_index = 0, fence_value = 0;  // the Device's fence and its last flushed value
  CaptureTarget target;
  CaptureResult expected;
};

// The backend's memory and register writes (after CaptureBackend::append_end()).
Capture capture_from_backend(CaptureBackend& be);

std::vector<uint8_t> encode_capture(const Capture& c);
// The file around an uncompressed payload (header, zlib stream, both CRC-32s), as encode_capture
// writes it; and the payload of a file whose header and zlib stream are sound (CaptureError
// otherwise), its sections not parsed. Tests and fuzzers use the pair to reach the section
// parser behind valid checksums.
std::vector<uint8_t> wrap_capture_payload(const std::vector<uint8_t>& payload, uint32_t contract_id = ID_VALUE);
std::vector<uint8_t> capture_payload(const std::vector<uint8_t>& file);
// Throws CaptureError. `allow_other_contract`: accept a stream encoded for another contract
// version (replaying it may then fail in any way).
Capture decode_capture(const std::vector<uint8_t>& bytes, bool allow_other_contract = false);

// "contract vN" for a REG_ID of this device family, else "an unknown device (REG_ID 0x...)".
std::string describe_contract(uint32_t reg_id);

// Write / read a file; CaptureError on I/O errors too.
void save_capture(const std::string& path, const Capture& c);
Capture load_capture(const std::string& path, bool allow_other_contract = false);

}  // namespace pineda::rt
