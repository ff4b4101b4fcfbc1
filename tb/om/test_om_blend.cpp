// SPDX-License-Identifier: Apache-2.0
// RTL vs model: rtl/om/om_blend.sv (16 lanes, combinational) against cpp_model/om/om_blend,
// driven directly (no clock). om_blend's default build has 16 om_blend_lane8 (RGBA8, BGRA8,
// B5G6R5) and the U16 om_blend_lane in lanes 0..3 only: RGBA8_SRGB is checked on those 4 lanes
// (the others' sRGB output is not defined), every other format on all 16. Every format x colour op x source factor x destination factor
// (the full 5-bit codes, unassigned ones included) with random alpha state, write masks,
// constants and pixels, then lanes of edge values, then fully random states. Each case prints
// its seed; `--rng-seed N` replays it.
#define CATCH_CONFIG_MAIN
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vom_blend.h"
#include "om/om_blend.h"
#include "unit_test_main.h"
#include "vl_bits.h"

using namespace pineda;
namespace om = pineda::model::om;

namespace {

constexpr int kLanes = 16;
constexpr int kSrgbLanes = 4;  // om_blend's SrgbLanes default

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
    const int nl = s.fmt == RT_FMT_RGBA8_SRGB ? kSrgbLanes : kLanes;
    for (int l = 0; l < nl; ++l) {
      ++n;
      n_srgb += nl == kSrgbLanes ? 1u : 0u;
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
  uint64_t n_srgb = 0;  // of n, RGBA8_SRGB lanes (the U16 path)
  void require() {
    std::printf("  %llu lanes (%llu RGBA8_SRGB), %llu mismatches\n", static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(n_srgb), static_cast<unsigned long long>(bad));
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

// om_blend_lane8 encodes a blended channel from P = clamp(x*f +/- y*g, 0, 65025) (8 x 8
// products) with its own rounding (docs/om.md section 2c). Here every P in 0..65025 goes through
// every encode of every non-sRGB format (RGBA8 and BGRA8: 8 bits, each channel; B5G6R5: the 5-bit
// R and B fields, the 6-bit G field), each against the model's U16 formula: colour channel c as
// P = a_c * sa + b_c * 255 (ADD, src SRC_ALPHA, dst ONE; b_c a value the format's destination
// can hold), or where that has no solution P = b_c * 255 - a_c * sa (REV_SUBTRACT); alpha as
// P = sa * 255 + da * 1 (ADD, src_a ONE, dst_a BLEND_FACTOR with constant 1).
TEST_CASE("om_blend: 8-bit lanes, every P through every encode", "[om_blend]") {
  const uint64_t seed = tb::announce_seed("rtl_om_blend");
  std::mt19937 rng(static_cast<uint32_t>(seed));
  Dut d(seed);
  constexpr uint32_t kMaxP = 255u * 255u;
  uint64_t covered = 0, missed = 0;
  for (uint32_t fmt : {uint32_t{RT_FMT_RGBA8}, uint32_t{RT_FMT_BGRA8}, uint32_t{RT_FMT_B5G6R5}}) {
    const int nch = fmt == RT_FMT_B5G6R5 ? 3 : 4;
    for (int ch = 0; ch < nch; ++ch) {
      // the values channel ch of the destination can hold: its field's bits, widened to 8
      const int fbits = fmt != RT_FMT_B5G6R5 ? 8 : (ch == 1 ? 6 : 5);
      std::vector<uint32_t> todo(kMaxP + 1u);
      for (uint32_t p = 0; p <= kMaxP; ++p) todo[p] = p;
      for (const uint32_t op : {uint32_t{BOP_ADD}, uint32_t{BOP_REV_SUBTRACT}}) {
        const bool rev = op == BOP_REV_SUBTRACT;
        OmState s;
        s.fmt = fmt;
        s.blend = 1;
        s.op = op;
        s.src = BF_SRC_ALPHA;
        s.dst = BF_ONE;
        s.op_a = BOP_ADD;
        s.src_a = BF_ONE;
        s.dst_a = BF_BLEND_FACTOR;
        s.factor = 0x01000000u | (rng() & 0xFFFFFFu);
        std::array<uint32_t, kLanes> src{}, dst{};
        std::vector<uint32_t> left;
        int l = 0;
        for (const uint32_t p : todo) {
          uint32_t a = 0, sa = 0, field = 0;  // field: the destination channel's raw bits
          bool found = false;
          if (ch == 3) {
            sa = p / 255u;
            field = p % 255u;
            found = true;
          }
          for (int v = (1 << fbits) - 1; v >= 0 && !found; --v) {
            const uint32_t b = fbits == 8 ? v : fbits == 6 ? (v << 2 | v >> 4) : (v << 3 | v >> 2);
            if (rev ? b * 255u < p : b * 255u > p) continue;
            const uint32_t r = rev ? b * 255u - p : p - b * 255u;  // a * sa
            for (uint32_t f = r == 0 ? 1u : (r + 254u) / 255u; f <= 255u; ++f) {
              if (r % f == 0) {
                sa = f;
                a = r / f;
                field = static_cast<uint32_t>(v);
                found = true;
                break;
              }
            }
          }
          if (!found) {
            left.push_back(p);
            continue;
          }
          ++covered;
          uint32_t sc = rng();
          sc = (sc & ~(0xFFu << 8 * ch)) | a << 8 * ch;
          sc = (sc & 0x00FFFFFFu) | sa << 24;  // (ch 3: sa is a)
          uint32_t dc = rng();
          if (fmt == RT_FMT_B5G6R5) {
            const int sh = ch == 0 ? 11 : ch == 1 ? 5 : 0;
            dc = (dc & ~(((1u << fbits) - 1u) << sh)) | field << sh;
          } else {
            const int byte = fmt == RT_FMT_BGRA8 && ch != 1 && ch != 3 ? 2 - ch : ch;
            dc = (dc & ~(0xFFu << 8 * byte)) | field << 8 * byte;
          }
          src[l] = sc;
          dst[l] = dc;
          if (++l == kLanes) {
            d.check(s, src, dst);
            l = 0;
          }
        }
        if (l > 0) {
          for (; l < kLanes; ++l) {
            src[l] = rng();
            dst[l] = rand_dst(rng, fmt);
          }
          d.check(s, src, dst);
        }
        todo.swap(left);
      }
      missed += todo.size();
    }
  }
  std::printf("  %llu (format, channel, P) covered, %llu without a decomposition\n",
              static_cast<unsigned long long>(covered), static_cast<unsigned long long>(missed));
  REQUIRE(missed == 0);
  REQUIRE(covered == 11u * (kMaxP + 1u));
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
