// SPDX-License-Identifier: Apache-2.0
// RTL vs model: rtl/om/om_blend.sv (16 lanes, combinational) against cpp_model/om/om_blend,
// driven directly (no clock). Every format x colour op x source factor x destination factor
// (the full 5-bit codes, unassigned ones included) with random alpha state, write masks,
// constants and pixels, then lanes of edge values, then fully random states. Each case prints
// its seed; `--rng-seed N` replays it.
#define CATCH_CONFIG_MAIN
#include <memory>
#include <random>
#include <string>

#include "Vom_blend.h"
#include "om/om_blend.h"
#include "unit_test_main.h"
#include "vl_bits.h"

using namespace pineda;
namespace om = pineda::model::om;

namespace {

constexpr int kLanes = 16;

struct Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vom_blend> m;
  uint64_t n = 0, bad = 0;
  std::string first;
  explicit Dut(uint64_t seed) : ctx(tb::make_context(seed)), m(std::make_unique<Vom_blend>(ctx.get(), "om_blend")) {}

  void check(const OmState& s, const std::array<uint32_t, kLanes>& src, const std::array<uint32_t, kLanes>& dst) {
    tb::pack_sig(s, m->state_i);
    for (int l = 0; l < kLanes; ++l) {
      m->src_i.at(l) = src[l];
      m->dst_i.at(l) = dst[l];
    }
    m->eval();
    for (int l = 0; l < kLanes; ++l) {
      ++n;
      const uint32_t want = om::blend_pixel(s, src[l], dst[l]), got = m->pix_o.at(l);
      if (want != got && ++bad <= 8) {
        first += "MISMATCH fmt=" + std::to_string(s.fmt) + " blend=" + std::to_string(s.blend) +
                 " src=" + std::to_string(s.src) + " dst=" + std::to_string(s.dst) + " op=" + std::to_string(s.op) +
                 " src_a=" + std::to_string(s.src_a) + " dst_a=" + std::to_string(s.dst_a) +
                 " op_a=" + std::to_string(s.op_a) + " mask_off=" + std::to_string(s.mask_off) +
                 " factor=" + bits::hex(static_cast<uint32_t>(s.factor)) + " src=" + bits::hex(src[l]) +
                 " dst=" + bits::hex(dst[l]) + " expected(model)=" + bits::hex(want) + " actual(rtl)=" + bits::hex(got) + "\n";
      }
    }
  }
  void require() {
    std::printf("  %llu lanes, %llu mismatches\n", static_cast<unsigned long long>(n), static_cast<unsigned long long>(bad));
    INFO(first);
    REQUIRE(bad == 0);
    REQUIRE(n > 0);
    REQUIRE(!ctx->gotError());
  }
};

uint32_t rand_dst(std::mt19937& rng, uint32_t fmt) { return fmt == RT_FMT_B5G6R5 ? (rng() & 0xFFFFu) : rng(); }

}  // namespace

TEST_CASE("om_blend: every format x op x factor pair, random pixels", "[om_blend]") {
  const uint64_t seed = tb::announce_seed("rtl_om_blend");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Dut d(seed);
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    for (uint32_t op = 0; op < 8; ++op) {
      for (uint32_t fs = 0; fs < 32; ++fs) {
        for (uint32_t fd = 0; fd < 32; ++fd) {
          OmState s;
          s.fmt = fmt;
          s.blend = 1;
          s.src = fs;
          s.dst = fd;
          s.op = op;
          s.src_a = rng() % 32;
          s.dst_a = rng() % 32;
          s.op_a = rng() % 8;
          s.mask_off = (rng() % 4 == 0) ? rng() % 16 : 0;
          s.factor = rng();
          std::array<uint32_t, kLanes> src{}, dst{};
          for (int l = 0; l < kLanes; ++l) {
            src[l] = rng();
            dst[l] = rand_dst(rng, fmt);
          }
          d.check(s, src, dst);
          // the same factors applied to alpha
          s.src_a = fs;
          s.dst_a = fd;
          s.op_a = op;
          d.check(s, src, dst);
        }
      }
    }
  }
  d.require();
}

TEST_CASE("om_blend: edge channel values and write masks", "[om_blend]") {
  const uint64_t seed = tb::announce_seed("rtl_om_blend");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Dut d(seed);
  const uint8_t edges[] = {0, 1, 2, 127, 128, 129, 254, 255};
  auto pick = [&]() { return static_cast<uint32_t>(edges[rng() % 8]); };
  for (int i = 0; i < 40000; ++i) {
    OmState s;
    s.fmt = rng() % 4;
    s.blend = (rng() % 8) != 0;
    s.src = rng() % 16;
    s.dst = rng() % 16;
    s.op = rng() % 5;
    s.src_a = rng() % 16;
    s.dst_a = rng() % 16;
    s.op_a = rng() % 5;
    s.mask_off = rng() % 16;
    s.factor = pick() | pick() << 8 | pick() << 16 | pick() << 24;
    std::array<uint32_t, kLanes> src{}, dst{};
    for (int l = 0; l < kLanes; ++l) {
      src[l] = pick() | pick() << 8 | pick() << 16 | pick() << 24;
      dst[l] = s.fmt == RT_FMT_B5G6R5 ? (rng() % 4 == 0 ? (rng() % 2 ? 0xFFFFu : 0u) : (rng() & 0xFFFFu))
                                      : (pick() | pick() << 8 | pick() << 16 | pick() << 24);
    }
    d.check(s, src, dst);
  }
  d.require();
}

TEST_CASE("om_blend: random states and pixels", "[om_blend]") {
  const uint64_t seed = tb::announce_seed("rtl_om_blend");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Dut d(seed);
  for (int i = 0; i < 100000; ++i) {
    OmState s;
    s.fmt = rng() % 4;
    s.blend = rng() % 2;
    s.src = rng() % 32;
    s.dst = rng() % 32;
    s.op = rng() % 8;
    s.src_a = rng() % 32;
    s.dst_a = rng() % 32;
    s.op_a = rng() % 8;
    s.mask_off = rng() % 16;
    s.factor = rng();
    s.lop_en = rng() % 4 == 0;
    s.lop = rng() % 16;
    std::array<uint32_t, kLanes> src{}, dst{};
    for (int l = 0; l < kLanes; ++l) {
      src[l] = rng();
      dst[l] = rand_dst(rng, static_cast<uint32_t>(s.fmt));
    }
    d.check(s, src, dst);
  }
  d.require();
}

// D3D11.1's logic ops as truth tables, written independently of the model: bit (s << 1 | d)
// of kTruth[op] is the result bit for source bit s and stored bit d.
constexpr uint8_t kTruth[16] = {0x0, 0xF, 0xC, 0x3, 0xA, 0x5, 0x8, 0x7, 0xE, 0x1, 0x6, 0x9, 0x4, 0x2, 0xD, 0xB};
uint32_t truth(uint32_t op, uint32_t s, uint32_t d) {
  uint32_t r = 0;
  for (int b = 0; b < 32; ++b) {
    const uint32_t i = ((s >> b) & 1u) << 1 | ((d >> b) & 1u);
    r |= static_cast<uint32_t>((kTruth[op] >> i) & 1u) << b;
  }
  return r;
}

TEST_CASE("om_blend: logic ops, every op in every format, against the truth tables", "[om_blend]") {
  const uint64_t seed = tb::announce_seed("rtl_om_blend");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Dut d(seed);
  uint64_t tabled = 0;
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    for (uint32_t op = 0; op < 16; ++op) {
      for (int i = 0; i < 400; ++i) {
        OmState s;
        s.fmt = fmt;
        s.lop_en = 1;
        s.lop = op;
        // the blend fields are ignored under a logic op: random ones must not matter
        s.blend = rng() % 2;
        s.src = rng() % 32;
        s.dst = rng() % 32;
        s.op = rng() % 8;
        s.src_a = rng() % 32;
        s.dst_a = rng() % 32;
        s.op_a = rng() % 8;
        s.factor = rng();
        s.mask_off = (i % 4 == 0) ? rng() % 16 : 0;
        std::array<uint32_t, kLanes> src{}, dst{};
        for (int l = 0; l < kLanes; ++l) {
          src[l] = rng();
          dst[l] = i % 3 == 0 ? rng() : rand_dst(rng, fmt);  // B5G6R5: sometimes junk above bit 15
        }
        d.check(s, src, dst);
        // The model against the truth table where the source's stored bits are plain: RGBA8 (the
        // colour itself) and BGRA8 (R and B swapped), every channel written.
        if (s.mask_off == 0 && fmt <= RT_FMT_BGRA8) {
          for (int l = 0; l < kLanes; ++l) {
            const uint32_t c = src[l];
            const uint32_t enc = fmt == RT_FMT_RGBA8 ? c : ((c & 0xFF00FF00u) | (c >> 16 & 0xFFu) | (c & 0xFFu) << 16);
            REQUIRE(om::blend_pixel(s, c, dst[l]) == truth(op, enc, dst[l]));
            ++tabled;
          }
        }
      }
    }
  }
  // B5G6R5: 16-bit results whatever the op (SET, INVERT... never leak above bit 15)
  for (uint32_t op = 0; op < 16; ++op) {
    OmState s;
    s.fmt = RT_FMT_B5G6R5;
    s.lop_en = 1;
    s.lop = op;
    REQUIRE((om::blend_pixel(s, 0x12345678u, 0xFFFF0F0Fu) >> 16) == 0u);
    REQUIRE(om::blend_pixel(s, 0xFFFFFFFFu, 0x0000FFFFu) == (truth(op, 0xFFFFu, 0xFFFFu) & 0xFFFFu));
  }
  std::printf("  %llu lanes checked against the truth tables\n", static_cast<unsigned long long>(tabled));
  REQUIRE(tabled > 10000);
  d.require();
}
