// SPDX-License-Identifier: Apache-2.0
// Capture files as hostile input (issue 28): any byte string given to `pineda replay` is either
// refused with a CaptureError or replayed on the golden model within a memory and a work budget,
// its render target read back as `--out` does. The inputs: random bytes; a real scene's capture
// with bytes flipped, truncated or inserted (half of them with the header CRC fixed, so the
// checks behind it are reached); its payload with one field replaced by a random or extreme value
// and wrapped again with valid zlib and CRCs (the checks of sizes, counts and the target); and
// two valid captures that never finish (a ring that jumps to itself, an instanced draw of 2^32 - 1
// instances), which must stop at the budget with a message.
//
// Replay: PINEDA_CAPTURE_SEED=N build/tests/model_tests "[capture][property]".
#include <zlib.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "capture_file.h"
#include "command_writer.h"
#include "image_diff.h"
#include "scene_capture.h"
#include "scenes.h"

using namespace pineda;

namespace {

constexpr uint64_t kWorkBudget = 2'000'000;  // about a second of model time

uint64_t property_seed() {
  const char* e = std::getenv("PINEDA_CAPTURE_SEED");
  return e ? std::strtoull(e, nullptr, 0) : 1;
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (static_cast<uint32_t>(b[at + 3]) << 24);
}
uint32_t crc(const uint8_t* p, size_t n) { return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), p, static_cast<uInt>(n))); }
void fix_header_crc(std::vector<uint8_t>& f) {
  if (f.size() >= rt::CAPTURE_HEADER_BYTES) put32(f, 36, crc(f.data(), 36));
}

// A valid capture of a hand-made command stream around the scene `base`'s target.
template <typename F>
std::vector<uint8_t> stream_capture(const SceneImage& base, const CommandWriter& cw, F&& more_memory) {
  SceneImage img = base;
  img.name = "endless";
  img.mem = Memory{};
  more_memory(img.mem);
  img.wait_releases.clear();
  const uint32_t ring = 0x00010000u;
  img.reg_writes.clear();
  for (const auto& w : place_in_ring(img.mem, ring, 4096, cw.dwords())) img.reg_writes.emplace_back(w.first, w.second);
  return rt::encode_capture(scene_to_capture(img));
}

// What happened to one input: refused, replayed to the end, or stopped by the budget.
enum class Outcome { REFUSED, REPLAYED, STOPPED };

Outcome try_replay(const std::vector<uint8_t>& file) {
  rt::Capture c;
  try {
    c = rt::decode_capture(file, true);
  } catch (const rt::CaptureError& e) {
    const std::string why = e.what();
    INFO(why);
    CHECK(why.size() > 20);  // a sentence, not a code
    return Outcome::REFUSED;
  }
  // Within memory: no more pages than the payload carried, the format's limit at most.
  const uint64_t raw_n = get32(file, 16) | (uint64_t{get32(file, 20)} << 32);
  CHECK(c.mem.page_count() <= std::min<uint64_t>(rt::CAPTURE_MAX_PAGES, raw_n / (4 + Memory::PAGE_SIZE)));
  const SceneImage img = capture_to_scene(std::move(c));
  Outcome o = Outcome::REPLAYED;
  Memory mem;
  try {
    ModelRun m = run_model(img, 1, false, ModelBudget{kWorkBudget, 0});
    CHECK(m.gpu->work() < kWorkBudget + model::PinedaTop::ABORT_POLL_WORK);
    mem = std::move(m.mem);
  } catch (const ModelBudgetExceeded& e) {
    CHECK_THAT(e.what(), Catch::Contains("units of work"));
    o = Outcome::STOPPED;
    mem = img.mem;
  }
  // `pineda replay --out`: the target read back and resolved, one RGBA8 pixel each.
  const Image shown = target_image(mem, scene_target(img));
  CHECK(shown.rgba.size() == uint64_t{img.width} * img.height * 4);
  return o;
}

}  // namespace

TEST_CASE("capture files, property: any byte string is refused cleanly or replayed within memory and a work budget",
          "[capture][property]") {
  const uint64_t seed = property_seed();
  std::printf("capture property: seed %llu (replay: PINEDA_CAPTURE_SEED=%llu)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  SceneRng rng(seed);
  const SceneImage scene = build_scene("cp_commands", 1);
  const std::vector<uint8_t> good = rt::encode_capture(scene_to_capture(scene));
  const std::vector<uint8_t> raw = rt::capture_payload(good);
  REQUIRE(try_replay(good) == Outcome::REPLAYED);

  size_t counts[3] = {0, 0, 0};
  auto run = [&counts](const std::vector<uint8_t>& f) { ++counts[static_cast<int>(try_replay(f))]; };

  // Random byte strings, some behind a valid magic and version.
  for (int i = 0; i < 100; ++i) {
    std::vector<uint8_t> f(static_cast<size_t>(rng.range(0, 120)));
    for (auto& b : f) b = static_cast<uint8_t>(rng.next());
    if (i % 2 && f.size() >= 12) {
      std::copy(good.begin(), good.begin() + 12, f.begin());
      if (i % 4 == 1) fix_header_crc(f);
    }
    INFO("random input " << i << ", seed " << seed);
    run(f);
  }
  // The real file, damaged.
  for (int i = 0; i < 150; ++i) {
    std::vector<uint8_t> f = good;
    const int kind = static_cast<int>(rng.range(0, 3));
    if (kind == 0) {  // flips anywhere
      for (int k = 0; k < 1 + rng.range(0, 3); ++k) f[static_cast<size_t>(rng.range(0, static_cast<int64_t>(f.size()) - 1))] ^= static_cast<uint8_t>(1u << rng.range(0, 7));
    } else if (kind == 1) {  // truncated
      f.resize(static_cast<size_t>(rng.range(0, static_cast<int64_t>(f.size()) - 1)));
    } else if (kind == 2) {  // a header field replaced
      const size_t at = static_cast<size_t>(rng.range(0, 8)) * 4;
      put32(f, at, static_cast<uint32_t>(rng.next()));
    } else {  // bytes inserted into the compressed payload
      f.insert(f.begin() + rng.range(static_cast<int64_t>(rt::CAPTURE_HEADER_BYTES), static_cast<int64_t>(f.size())), static_cast<uint8_t>(rng.next()));
    }
    if (rng.chance(50)) fix_header_crc(f);
    INFO("damaged file " << i << " (kind " << kind << "), seed " << seed);
    run(f);
  }
  // The payload with one dword replaced (a size, count, address, target field, page base...) by
  // a random or extreme value, wrapped again with valid zlib and CRCs.
  const uint32_t extremes[] = {0u, 1u, 3u, 4u, 0xFFFFu, 0x10000u, 16384u, 16385u, 0x40000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFCu};
  for (int i = 0; i < 250; ++i) {
    std::vector<uint8_t> p = raw;
    // Mostly the first 256 bytes: the name, target, fences, register writes and the counts.
    const size_t span = std::min<size_t>(p.size() - 4, i % 3 ? 256 : p.size() - 4);
    const size_t at = static_cast<size_t>(rng.range(0, static_cast<int64_t>(span)));
    put32(p, at, rng.chance(50) ? extremes[rng.range(0, 11)] : static_cast<uint32_t>(rng.next()));
    if (rng.chance(10)) p.resize(static_cast<size_t>(rng.range(0, static_cast<int64_t>(p.size()))));
    INFO("payload dword at " << at << " replaced, input " << i << ", seed " << seed);
    run(rt::wrap_capture_payload(p));
  }
  // Valid files that never finish: stopped by the budget, with a message.
  constexpr uint32_t IB = 0x00020000u;
  CommandWriter self;
  self.jump(IB, 3);  // an indirect buffer that jumps to itself (JUMP is 3 dwords)
  REQUIRE(self.size_dwords() == 3);
  CommandWriter loop;
  loop.jump(IB, 3);
  std::vector<uint8_t> endless = stream_capture(scene, loop, [&](Memory& m) { place_ib(m, IB, self.dwords()); });
  CHECK(try_replay(endless) == Outcome::STOPPED);
  CommandWriter huge;
  huge.draw_fe(0, 0, 3, 0, 0xFFFFFFFFu).end();  // 2^32 - 1 instances of one triangle
  CHECK(try_replay(stream_capture(scene, huge, [](Memory&) {})) == Outcome::STOPPED);

  std::printf("capture property: %zu refused, %zu replayed, %zu stopped by the budget\n", counts[0], counts[1], counts[2]);
  CHECK(counts[0] > 0);
  CHECK(counts[1] > 0);  // some damaged inputs still decode (bits deflate ignores, fields nothing checks)
}
