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
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "capture_file.h"

using namespace pineda;
using namespace pineda::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  const std::vector<uint8_t> rest(data + 1, data + size);
  const std::vector<uint8_t> file = (data[0] & 1) ? wrap_capture_payload(rest) : rest;
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
