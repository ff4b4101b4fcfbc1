// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the capture-file reader (runtime/capture_file.h, rt::decode_capture).
//
// The first input byte picks what the rest is:
//   even: a whole file, as read from disk (header checks, sizes, zlib, CRCs);
//   odd:  an uncompressed payload, wrapped here in a valid header (zlib, both CRC-32s), so that
//         the payload's parser itself is reached (counts, sections, memory pages, end marker).
// Asserted (abort = a finding): decode_capture returns or throws CaptureError, nothing else, never
// reads out of bounds (ASan) and never allocates more than the input can describe; a capture it
// accepts encodes again and decodes to the same memory and register writes.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "capture_file.h"

using namespace pineda;
using namespace pineda::rt;

namespace {

void put32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::vector<uint8_t> wrap(const uint8_t* p, size_t n) {
  uLongf zn = compressBound(static_cast<uLong>(n));
  std::vector<uint8_t> z(zn);
  if (compress2(z.data(), &zn, p, static_cast<uLong>(n), 1) != Z_OK) std::abort();
  z.resize(zn);
  std::vector<uint8_t> f = {'P', 'N', 'D', 'A', 'C', 'A', 'P', '\n'};
  put32(f, CAPTURE_FORMAT_VERSION);
  put32(f, ID_VALUE);
  put32(f, static_cast<uint32_t>(n));
  put32(f, 0);
  put32(f, static_cast<uint32_t>(z.size()));
  put32(f, 0);
  put32(f, static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), p, static_cast<uInt>(n))));
  put32(f, static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), f.data(), 36)));
  f.insert(f.end(), z.begin(), z.end());
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  const std::vector<uint8_t> file = (data[0] & 1) ? wrap(data + 1, size - 1) : std::vector<uint8_t>(data + 1, data + size);
  Capture c;
  try {
    c = decode_capture(file, (data[0] & 2) != 0);
  } catch (const CaptureError&) {
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "decode_capture threw something other than CaptureError: %s\n", e.what());
    std::abort();
  }
  const Capture d = decode_capture(encode_capture(c), true);
  if (d.mem != c.mem || d.reg_writes != c.reg_writes || d.wait_releases != c.wait_releases || d.name != c.name) {
    std::fprintf(stderr, "an accepted capture does not survive encode + decode\n");
    std::abort();
  }
  return 0;
}
