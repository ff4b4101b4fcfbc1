// SPDX-License-Identifier: Apache-2.0
// Capture files (runtime/capture_file.h): a round trip keeps every byte and register write; a
// truncated, corrupted, wrong-version or other-contract file is refused with its own message.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "backend.h"
#include "capture_file.h"
#include "rt_test_util.h"
#include "runtime.h"

using namespace pineda;
using namespace pineda::rt;

namespace {

// A capture of a real runtime stream: a target, a vertex buffer and a draw over the capture backend.
Capture make_capture() {
  CaptureBackend be;
  {
    DeviceDesc d;
    d.timeout = std::chrono::milliseconds(20);
    Device dev(be, d);
    Resource* rt = nullptr;
    REQUIRE(dev.create_texture2d({64, 32, 0, BIND_RENDER_TARGET}, nullptr, &rt) == Result::OK);
    Resource* vb = nullptr;
    const int32_t v[6] = {0, 0, 40 * 256, 0, 0, 20 * 256};
    REQUIRE(dev.create_buffer({sizeof v, BIND_VERTEX_BUFFER}, v, &vb) == Result::OK);
    ImmediateContext& ctx = dev.immediate();
    REQUIRE(ctx.set_render_target(rt) == Result::OK);
    REQUIRE(ctx.set_pretransformed_vertex_buffer(vb) == Result::OK);
    ctx.set_color(0xFF00FF00u);
    REQUIRE(ctx.draw_pretransformed(3, 0) == Result::OK);
    REQUIRE(ctx.flush() == Result::OK);
    be.append_end();
    ctx.clear_state();
    rt->release();
    vb->release();
    be.release();
  }
  Capture c = capture_from_backend(be);
  c.name = "unit";
  c.target = {0x00110000u, 256, 64, 32, 1, RT_FMT_B5G6R5};
  c.wait_releases = {{{REG_FENCE0 + 3, 7}}, {}};
  c.eop_fence_mask = 5;
  c.fence_index = 15;
  c.fence_value = 1;
  c.expected.present = true;
  c.expected.memory_digest = 0x0123456789ABCDEFull;
  c.expected.regs = {{REG_STATUS, 2}, {REG_FENCE0, 9}};
  return c;
}

std::string refusal(const std::vector<uint8_t>& b, bool any_contract = false) {
  try {
    decode_capture(b, any_contract);
  } catch (const CaptureError& e) {
    return e.what();
  }
  return "";
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

// Recomputes the header's own CRC-32 (bytes 0..35) after a header field was changed on purpose.
void fix_header_crc(std::vector<uint8_t>& b) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < 36; ++i) {
    c ^= b[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  put32(b, 36, ~c);
}

}  // namespace

TEST_CASE("capture file: a round trip keeps memory, register writes and the recorded result", "[runtime][capture]") {
  const Capture c = make_capture();
  REQUIRE(c.reg_writes.size() >= 6);
  const std::vector<uint8_t> b = encode_capture(c);
  REQUIRE(b.size() > CAPTURE_HEADER_BYTES);
  const Capture d = decode_capture(b);
  CHECK(d.name == "unit");
  CHECK(d.contract_id == ID_VALUE);
  CHECK(d.mem == c.mem);
  CHECK(d.mem.digest() == c.mem.digest());
  CHECK(d.reg_writes == c.reg_writes);
  CHECK(d.wait_releases == c.wait_releases);
  CHECK(d.eop_fence_mask == 5);
  CHECK(d.fence_index == 15);
  CHECK(d.target.base == 0x00110000u);
  CHECK(d.target.width == 64);
  CHECK(d.target.samples == 1);
  CHECK(d.target.fmt == RT_FMT_B5G6R5);  // format version 2: a B5G6R5 target replays as one
  CHECK(d.expected.present);
  CHECK(d.expected.memory_digest == 0x0123456789ABCDEFull);
  CHECK(d.expected.regs == c.expected.regs);
  // Encoding is deterministic: the same capture gives the same bytes.
  CHECK(encode_capture(d) == b);

  // Through a file as well.
  const std::string path = "out/test/unit_capture.pcap";
  std::remove(path.c_str());
  std::system("mkdir -p out/test");
  save_capture(path, c);
  CHECK(load_capture(path).mem == c.mem);
  CHECK_THROWS_WITH(load_capture("out/test/no_such.pcap"), Catch::Contains("cannot open"));
}

TEST_CASE("capture file: truncated, corrupted and wrong-version files are refused", "[runtime][capture]") {
  const std::vector<uint8_t> good = encode_capture(make_capture());
  REQUIRE(refusal(good).empty());

  std::vector<uint8_t> b(good.begin(), good.begin() + 20);
  CHECK_THAT(refusal(b), Catch::Contains("truncated capture: the header"));
  b.assign(good.begin(), good.end() - 1);
  CHECK_THAT(refusal(b), Catch::Contains("truncated capture") && Catch::Contains("compressed bytes"));
  b.assign(good.begin(), good.begin() + static_cast<long>(CAPTURE_HEADER_BYTES));
  CHECK_THAT(refusal(b), Catch::Contains("truncated capture"));

  b = good;
  b.push_back(0);
  CHECK_THAT(refusal(b), Catch::Contains("after the compressed payload"));

  b = good;
  b[0] = 'X';
  CHECK_THAT(refusal(b), Catch::Contains("not a Pineda capture file"));

  b = good;
  b[17] ^= 1;  // the uncompressed size, without fixing the header's CRC
  CHECK_THAT(refusal(b), Catch::Contains("header checksum"));

  b = good;
  put32(b, 8, 1);  // the previous format version (no target format), its header CRC not even fixed
  CHECK_THAT(refusal(b), Catch::Contains("format version 1") && Catch::Contains("reads version 2"));

  Capture bad_fmt = make_capture();
  bad_fmt.target.fmt = 4;  // no such RT_FMT_*
  CHECK_THAT(refusal(encode_capture(bad_fmt)), Catch::Contains("render target format 4"));

  b = good;
  put32(b, 12, (ID_VALUE & 0xFFFF0000u) | ((ID_VALUE + 1) & 0xFFFFu));
  fix_header_crc(b);
  CHECK_THAT(refusal(b), Catch::Contains("encoded for contract v") && Catch::Contains("--any-contract"));
  CHECK(refusal(b, true).empty());

  // Flips in the compressed payload: zlib's own check or the payload CRC catches every one that
  // changes the content. A flip of a bit deflate never reads (the padding after the last block's
  // end code) inflates to the same payload: accepted, and the capture decodes unchanged.
  const Capture good_c = decode_capture(good);
  size_t caught = 0, flips = 0;
  for (size_t at = CAPTURE_HEADER_BYTES; at < good.size(); at += std::max<size_t>(1, good.size() / 97)) {
    b = good;
    b[at] ^= 0x04;
    const std::string why = refusal(b);
    INFO("flip at byte " << at << " of " << good.size());
    ++flips;
    if (why.empty()) {
      const Capture d = decode_capture(b);
      CHECK(encode_capture(d) == good);
    } else {
      CHECK_THAT(why, Catch::Contains("corrupted capture"));
      ++caught;
    }
  }
  CHECK(caught + 4 >= flips);  // only the bits deflate ignores go unnoticed
  CHECK(good_c.target.fmt == RT_FMT_B5G6R5);

  // A capture without a recorded result stays without one.
  Capture small = make_capture();
  small.expected.present = false;
  CHECK(!decode_capture(encode_capture(small)).expected.present);
}

namespace {

size_t find32(const std::vector<uint8_t>& b, uint32_t v) {
  for (size_t i = 0; i + 4 <= b.size(); ++i) {
    if (b[i] == (v & 0xFF) && b[i + 1] == ((v >> 8) & 0xFF) && b[i + 2] == ((v >> 16) & 0xFF) && b[i + 3] == (v >> 24)) return i;
  }
  FAIL("pattern not in the payload");
  return 0;
}

}  // namespace

TEST_CASE("capture file: every size, count and address read from a file is checked before it is used",
          "[runtime][capture][errors]") {
  const auto refused = [](const Capture& c) { return refusal(encode_capture(c)); };
  // The render target `pineda replay --out` reads back: 1073758208 x 4294901761 pixels once wrapped
  // to a 64 KiB buffer in read_rgba and overflowed it.
  Capture c = make_capture();
  c.target = {0x00100000u, 256, 1073758208u, 4294901761u, 1, RT_FMT_RGBA8};
  CHECK_THAT(refused(c), Catch::Contains("render target of 1073758208x4294901761 pixels (1..16384 each)"));
  c.target = {0x00100000u, 256, 0, 32, 1, RT_FMT_RGBA8};
  CHECK_THAT(refused(c), Catch::Contains("render target of 0x32"));
  c.target = {0x00100000u, 100, 64, 32, 1, RT_FMT_RGBA8};
  CHECK_THAT(refused(c), Catch::Contains("pitch 100 is less than a row of 256 bytes"));
  c.target = {0x00100000u, 256, 64, 32, 4, RT_FMT_B5G6R5};  // 4x B5G6R5: 8 bytes a pixel
  CHECK_THAT(refused(c), Catch::Contains("less than a row of 512 bytes"));
  c.target = {0xFFFF0000u, 256, 64, 257, 1, RT_FMT_RGBA8};  // the last row at 0xFFFF0000 + 256 * 256
  CHECK_THAT(refused(c), Catch::Contains("runs past the 4 GiB address space"));
  c.target = {0xFFFF0000u, 256, 64, 256, 1, RT_FMT_RGBA8};  // ends exactly at 2^32: fine
  CHECK(refused(c).empty());
  c = make_capture();
  c.fence_index = NUM_FENCES;
  CHECK_THAT(refused(c), Catch::Contains("fence index 16"));
  c = make_capture();
  c.name.assign(CAPTURE_MAX_NAME + 1, 'x');
  CHECK_THAT(refused(c), Catch::Contains("the name count 4097 is above the format's limit of 4096"));

  // Counts and pages, behind valid CRCs.
  c = make_capture();
  c.mem.write32(0x00500000u, 0xAAAAAAAAu);
  c.mem.write32(0x00600000u, 0xBBBBBBBBu);
  const std::vector<uint8_t> good = encode_capture(c);
  const std::vector<uint8_t> raw = capture_payload(good);
  REQUIRE(refusal(wrap_capture_payload(raw)).empty());
  std::vector<uint8_t> p = raw;
  put32(p, find32(p, 0x00600000u), 0x00500000u);  // the same page twice
  CHECK_THAT(refusal(wrap_capture_payload(p)), Catch::Contains("memory page 0x00500000 out of ascending order"));
  p = raw;
  put32(p, 4 + c.name.size() + 24 + 12, 0xFFFFFFFFu);  // the register-write count
  CHECK_THAT(refusal(wrap_capture_payload(p)), Catch::Contains("the register writes count 4294967295 is above the format's limit"));
  p = raw;
  put32(p, 4 + c.name.size() + 24 + 12, CAPTURE_MAX_REG_WRITES);  // within the limit, not within the payload
  CHECK_THAT(refusal(wrap_capture_payload(p)), Catch::Contains("does not fit in the payload"));

  // Sizes in the header: above what the format allows; more or less than the stream inflates to.
  std::vector<uint8_t> b = good;
  put32(b, 16, static_cast<uint32_t>(CAPTURE_MAX_PAYLOAD + 1));
  put32(b, 20, static_cast<uint32_t>((CAPTURE_MAX_PAYLOAD + 1) >> 32));
  fix_header_crc(b);
  CHECK_THAT(refusal(b), Catch::Contains("above the format's limit"));
  b = good;
  put32(b, 16, static_cast<uint32_t>(raw.size() + 64));
  fix_header_crc(b);
  CHECK_THAT(refusal(b), Catch::Contains("the payload inflates to " + std::to_string(raw.size()) + " bytes, the header announces"));
  b = good;
  put32(b, 16, static_cast<uint32_t>(raw.size() - 4));
  fix_header_crc(b);
  CHECK_THAT(refusal(b), Catch::Contains("corrupted capture: the payload ends inside the end marker"));
  // Garbage behind a header that claims a gigabyte: refused at the first bytes, nothing allocated
  // for the claim (the CLI test checks this under a 768 MiB address-space limit).
  b.assign(good.begin(), good.begin() + static_cast<long>(CAPTURE_HEADER_BYTES));
  b.resize(CAPTURE_HEADER_BYTES + (1u << 20), 0x5A);
  put32(b, 16, 1u << 30);
  put32(b, 24, 1u << 20);
  fix_header_crc(b);
  CHECK_THAT(refusal(b), Catch::Contains("does not inflate"));
}
