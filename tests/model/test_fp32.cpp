// SPDX-License-Identifier: Apache-2.0
// FP32 definition (cpp_model/common/fp32.*) against the host FPU: add, mul, rcp and the
// float -> 16.8 conversion on tens of millions of random and directed operands covering every
// class (zeros, denormals, normals at every exponent, the FTZ and overflow boundaries, Inf, NaN).
// Two references (tests/model/fp32_ref.h): the SSE instruction under MXCSR.FTZ|DAZ, and a
// portable double-precision emulation of FTZ/DAZ. `--rng-seed N` replays a run; the hidden
// "[.exhaustive]" case sweeps all 2^32 inputs of rcp and to_fix16_8.
#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "fp32.h"
#include "fp32_ref.h"
#include "fp32_vectors.h"
#include "test_util.h"

using namespace pineda;
using fp32::bits_of;
using test::kSpecials;
using test::OperandGen;

namespace {

enum class Op { ADD, MUL };

struct Tally {
  uint64_t ops = 0, bad = 0;
  std::string first;
  void fail(const char* what, uint32_t a, uint32_t b, uint32_t got, uint32_t want) {
    if (++bad <= 8) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "  %s a=0x%08x b=0x%08x model=0x%08x reference=0x%08x\n", what, a, b,
                    got, want);
      first += buf;
    }
  }
};

// Runs n operand pairs from `gen` through op, comparing with both references, in batches (the
// host reference runs with MXCSR.FTZ|DAZ set, everything else with the default MXCSR).
template <class Gen>
void compare_binary(Op op, uint64_t n, Gen gen, Tally& t) {
  constexpr size_t kBatch = 4096;
  std::array<uint32_t, kBatch> a{}, b{}, model{}, host{};
  for (uint64_t done = 0; done < n; done += kBatch) {
    for (size_t i = 0; i < kBatch; ++i) gen(a[i], b[i]);
    for (size_t i = 0; i < kBatch; ++i) {
      model[i] = op == Op::ADD ? fp32::add(a[i], b[i]) : fp32::mul(a[i], b[i]);
      const uint32_t emu = op == Op::ADD ? test::emu_add(a[i], b[i]) : test::emu_mul(a[i], b[i]);
      if (model[i] != emu) t.fail(op == Op::ADD ? "add vs emulation" : "mul vs emulation", a[i], b[i], model[i], emu);
    }
#ifdef PINEDA_HOST_SSE
    {
      test::HostFtzDaz mode;
      for (size_t i = 0; i < kBatch; ++i) host[i] = op == Op::ADD ? test::host_add(a[i], b[i]) : test::host_mul(a[i], b[i]);
    }
    for (size_t i = 0; i < kBatch; ++i) {
      if (model[i] != host[i]) t.fail(op == Op::ADD ? "add vs SSE" : "mul vs SSE", a[i], b[i], model[i], host[i]);
    }
#endif
    t.ops += kBatch;
  }
}

uint32_t seed_and_announce(const char* tag) {
  const uint32_t seed = test::base_seed();
  std::printf("[model_tests] %s: seed=%u (replay: build/tests/model_tests --rng-seed %u \"%s\")\n",
              Catch::getResultCapture().getCurrentTestName().c_str(), seed, seed, tag);
  return seed;
}

}  // namespace

TEST_CASE("fp32: directed results, signs of zeros, FTZ and overflow boundaries", "[fp32]") {
  const auto f = [](float x) { return bits_of(x); };
  CHECK(fp32::add(f(1.0f), f(2.0f)) == f(3.0f));
  CHECK(fp32::sub(f(1.0f), f(3.0f)) == f(-2.0f));
  CHECK(fp32::mul(f(1.5f), f(-2.0f)) == f(-3.0f));
  CHECK(fp32::add(f(1.0f), 0x33800000) == f(1.0f));        // 1 + 2^-24: tie, even -> 1
  CHECK(fp32::add(f(1.0f), 0x33800001) == 0x3F800001);     // just above the tie -> up
  CHECK(fp32::add(0x3F800001, 0x33800000) == 0x3F800002);  // tie, odd -> up
  // Zeros: x - x = +0; -0 + -0 = -0; +0 + -0 = +0; the sign of a product of zeros is the XOR.
  CHECK(fp32::sub(f(5.0f), f(5.0f)) == 0u);
  CHECK(fp32::add(0x80000000, 0x80000000) == 0x80000000);
  CHECK(fp32::add(0x00000000, 0x80000000) == 0u);
  CHECK(fp32::mul(0x80000000, f(3.0f)) == 0x80000000);
  // DAZ: a denormal is a zero of its sign; x + denormal = x.
  CHECK(fp32::add(0x80000001, 0x80000000) == 0x80000000);
  CHECK(fp32::add(f(1.0f), 0x007FFFFF) == f(1.0f));
  CHECK(fp32::mul(0x007FFFFF, f(1e30f)) == 0u);
  // FTZ after rounding, sign kept: 2^-64 * 2^-63 = 2^-127 -> 0; (1 - 2^-24) * 2^-126 is tiny
  // at 24 bits (a denormal-precision rounding would give 2^-126); (1 - 2^-23)(1 + 2^-23) 2^-126
  // rounds up to 2^-126 and is kept.
  CHECK(fp32::mul(0x1F800000, 0x20000000) == 0u);
  CHECK(fp32::mul(0x9F800000, 0x20000000) == 0x80000000);
  CHECK(fp32::mul(0x3F7FFFFF, 0x00800000) == 0u);
  CHECK(fp32::mul(0x3F7FFFFE, 0x00800001) == 0x00800000);
  CHECK(fp32::sub(0x00800001, 0x00800000) == 0u);  // 2^-149: flushed
  // Overflow to Inf; the largest finite value plus half an ulp rounds to Inf (even), less does not.
  CHECK(fp32::mul(0x7F7FFFFF, f(2.0f)) == fp32::INF);
  CHECK(fp32::mul(0xFF7FFFFF, f(2.0f)) == (fp32::INF | fp32::SIGN));
  CHECK(fp32::add(0x7F7FFFFF, 0x73000000) == fp32::INF);     // + 2^103 = half an ulp: tie -> even = Inf
  CHECK(fp32::add(0x7F7FFFFF, 0x72FFFFFF) == 0x7F7FFFFF);
  // NaN: every NaN result is 0x7FC00000, whatever the inputs.
  CHECK(fp32::QNAN == 0x7FC00000u);
  CHECK(fp32::add(0xFFC00001, f(1.0f)) == fp32::QNAN);
  CHECK(fp32::add(0x7F800001, 0xFFFFFFFF) == fp32::QNAN);
  CHECK(fp32::add(fp32::INF, fp32::INF | fp32::SIGN) == fp32::QNAN);
  CHECK(fp32::mul(fp32::INF, 0x00000001) == fp32::QNAN);  // Inf * denormal = Inf * 0
  CHECK(fp32::mul(fp32::INF | fp32::SIGN, f(-2.0f)) == fp32::INF);
  // Reciprocal: exact for powers of two, correctly rounded otherwise.
  CHECK(fp32::rcp(f(4.0f)) == f(0.25f));
  CHECK(fp32::rcp(f(-0.5f)) == f(-2.0f));
  CHECK(fp32::rcp(f(3.0f)) == 0x3EAAAAAB);
  CHECK(fp32::rcp(0x00000000) == fp32::INF);
  CHECK(fp32::rcp(0x80000001) == (fp32::INF | fp32::SIGN));
  CHECK(fp32::rcp(fp32::INF | fp32::SIGN) == fp32::SIGN);
  CHECK(fp32::rcp(0x7FA00000) == fp32::QNAN);
  CHECK(fp32::rcp(0x7E800000) == 0x00800000);  // 1/2^126 = 2^-126
  CHECK(fp32::rcp(0x7E800001) == 0u);          // just below 2^-126: flushed
  CHECK(fp32::rcp(0xFF000000) == fp32::SIGN);  // -2^-127: flushed, sign kept
  CHECK(fp32::rcp(0x00800000) == 0x7E800000);  // 1/2^-126 = 2^126
  // float -> 16.8: x*256 to nearest even, NaN -> 0, saturation at [-2^23, 2^23 - 1].
  CHECK(fp32::to_fix16_8(f(1.0f)) == 256);
  CHECK(fp32::to_fix16_8(f(-2.5f)) == -640);
  CHECK(fp32::to_fix16_8(f(0.5f / 256)) == 0);        // tie -> even 0
  CHECK(fp32::to_fix16_8(f(1.5f / 256)) == 2);        // tie -> even 2
  CHECK(fp32::to_fix16_8(f(-1.5f / 256)) == -2);
  CHECK(fp32::to_fix16_8(f(2.5f / 256)) == 2);
  CHECK(fp32::to_fix16_8(0x3B000001) == 1);           // just above 0.5/256
  CHECK(fp32::to_fix16_8(f(32767.99609375f)) == 0x7FFFFF);
  CHECK(fp32::to_fix16_8(f(32767.998046875f)) == 0x7FFFFF);  // rounds to 2^23: saturates
  CHECK(fp32::to_fix16_8(f(-32768.0f)) == -8388608);
  CHECK(fp32::to_fix16_8(f(-40000.0f)) == -8388608);
  CHECK(fp32::to_fix16_8(f(1e30f)) == 0x7FFFFF);
  CHECK(fp32::to_fix16_8(fp32::INF) == 0x7FFFFF);
  CHECK(fp32::to_fix16_8(fp32::INF | fp32::SIGN) == -8388608);
  CHECK(fp32::to_fix16_8(0xFFC00000) == 0);
  CHECK(fp32::to_fix16_8(0x807FFFFF) == 0);
}

TEST_CASE("fp32: add and mul against the host FPU with FTZ/DAZ", "[fp32]") {
  const uint32_t seed = seed_and_announce("[fp32]");
#ifndef PINEDA_HOST_SSE
  WARN("not x86-64: checking against the double-precision emulation only");
#endif
  constexpr uint64_t kN = uint64_t{1} << 22;  // per operand kind and operation
  for (const Op op : {Op::ADD, Op::MUL}) {
    const char* name = op == Op::ADD ? "add" : "mul";
    Tally t;
    OperandGen g(seed * 977u + (op == Op::ADD ? 1u : 2u));
    // Uniform bit patterns (every class, NaN/Inf 1/256 of the time).
    compare_binary(op, kN, [&](uint32_t& a, uint32_t& b) { a = g.u32(); b = g.u32(); }, t);
    // Structured: special exponents and mantissas, specials, near exponents / product edges.
    compare_binary(op, kN, [&](uint32_t& a, uint32_t& b) { a = g.structured(); b = g.structured(); }, t);
    compare_binary(op, kN, [&](uint32_t& a, uint32_t& b) {
      a = g.structured();
      b = op == Op::ADD ? g.near(a) : g.product_edge(a);
    }, t);
    compare_binary(op, kN, [&](uint32_t& a, uint32_t& b) {
      a = g.below(2) ? g.special() : g.structured();
      b = g.below(2) ? g.special() : (op == Op::ADD ? g.near(a) : g.product_edge(a));
    }, t);
    // Every pair of specials, both orders.
    size_t i = 0;
    const size_t ns = kSpecials.size();
    compare_binary(op, ((ns * ns + 4095) / 4096) * 4096, [&](uint32_t& a, uint32_t& b) {
      a = kSpecials[(i / ns) % ns];
      b = kSpecials[i % ns];
      ++i;
    }, t);
    std::printf("  fp32 %s: %llu operand pairs, %llu mismatches\n", name,
                static_cast<unsigned long long>(t.ops), static_cast<unsigned long long>(t.bad));
    INFO(name << " mismatches (first 8):\n" << t.first);
    CHECK(t.bad == 0);
  }
}

TEST_CASE("fp32: rcp is correctly rounded for every significand; its error in ulps", "[fp32]") {
  const uint32_t seed = seed_and_announce("[fp32]");
  OperandGen g(seed * 31u + 5u);
  Tally t;
  double max_err = 0.0;
  uint32_t worst = 0;
  constexpr size_t kBatch = 4096;
  std::array<uint32_t, kBatch> in{}, model{}, host{};
  // Every significand at four exponents (a normal one, the flush boundary, the smallest, the
  // largest), alternating signs, then random operands of every class.
  const uint32_t exps[] = {127, 253, 1, 254};
  const uint64_t total = (uint64_t{4} << 23) + (uint64_t{1} << 22);
  for (uint64_t k = 0; k < total; k += kBatch) {
    for (size_t i = 0; i < kBatch; ++i) {
      const uint64_t n = k + i;
      if (n < (uint64_t{4} << 23)) {
        in[i] = OperandGen::make(static_cast<uint32_t>(n & 1), exps[n >> 23], static_cast<uint32_t>(n & 0x7FFFFF));
      } else {
        in[i] = g.below(4) ? g.structured() : (g.below(2) ? g.special() : g.u32());
      }
    }
    for (size_t i = 0; i < kBatch; ++i) {
      model[i] = fp32::rcp(in[i]);
      const uint32_t emu = test::emu_rcp(in[i]);
      if (model[i] != emu) t.fail("rcp vs emulation", in[i], 0, model[i], emu);
      // Error in ulps of the result, exact: the result significand R (24 bits) approximates
      // 2^47 / m for significand m, so err = |R*m - 2^47| / m.
      const uint32_t e = fp32::exp_field(in[i]);
      if (e >= 1 && e <= 252 && fp32::frac_field(in[i]) != 0) {
        const uint64_t m = fp32::frac_field(in[i]) | 0x800000u;
        const uint64_t r = fp32::frac_field(model[i]) | 0x800000u;
        const int64_t num = static_cast<int64_t>(r * m) - (int64_t{1} << 47);
        const double err = static_cast<double>(num < 0 ? -num : num) / static_cast<double>(m);
        if (err > max_err) {
          max_err = err;
          worst = in[i];
        }
      }
    }
#ifdef PINEDA_HOST_SSE
    {
      test::HostFtzDaz mode;
      for (size_t i = 0; i < kBatch; ++i) host[i] = test::host_rcp(in[i]);
    }
    for (size_t i = 0; i < kBatch; ++i) {
      if (model[i] != host[i]) t.fail("rcp vs SSE divss", in[i], 0, model[i], host[i]);
    }
#endif
    t.ops += kBatch;
  }
  std::printf("  fp32 rcp: %llu operands, %llu mismatches; max error %.9f ulp (at 0x%08x)\n",
              static_cast<unsigned long long>(t.ops), static_cast<unsigned long long>(t.bad), max_err,
              worst);
  INFO("rcp mismatches (first 8):\n" << t.first);
  CHECK(t.bad == 0);
  CHECK(max_err < 0.5);
}

TEST_CASE("fp32: float -> 16.8 against the host's nearbyint", "[fp32]") {
  const uint32_t seed = seed_and_announce("[fp32]");
  OperandGen g(seed * 131u + 9u);
  uint64_t n = 0, bad = 0;
  std::string first;
  auto check = [&](uint32_t a) {
    ++n;
    const int32_t got = fp32::to_fix16_8(a), want = test::emu_to_fix16_8(a);
    if (got != want && ++bad <= 8) {
      first += "  a=" + bits::hex(a) + " model=" + std::to_string(got) + " reference=" + std::to_string(want) + "\n";
    }
  };
  // Every significand at the exponents where rounding and saturation happen (2^-3 .. 2^15).
  for (uint32_t e = 114; e <= 143; ++e) {
    for (uint32_t m = 0; m < (1u << 23); m += 1 + (m & 7)) check(OperandGen::make(m & 1, e, m));
    for (uint32_t m = 0x7FFF00; m < (1u << 23); ++m) check(OperandGen::make(1, e, m));
  }
  for (uint32_t s : kSpecials) check(s);
  for (int i = 0; i < (1 << 22); ++i) {
    check(g.below(2) ? g.u32() : OperandGen::make(g.below(2), 100 + g.below(60), g.mantissa()));
  }
  std::printf("  fp32 to_fix16_8: %llu operands, %llu mismatches\n", static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(bad));
  INFO("to_fix16_8 mismatches (first 8):\n" << first);
  CHECK(bad == 0);
}

// All 2^32 inputs of the single-operand functions (about a minute; not part of `make test`).
TEST_CASE("fp32: rcp and to_fix16_8 over all 2^32 inputs", "[.exhaustive]") {
  uint64_t bad_rcp = 0, bad_fix = 0;
  constexpr uint32_t kBatch = 1u << 16;
  std::vector<uint32_t> model(kBatch), host(kBatch);
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kBatch) {
    for (uint32_t i = 0; i < kBatch; ++i) {
      const uint32_t a = static_cast<uint32_t>(base + i);
      model[i] = fp32::rcp(a);
      if (fp32::to_fix16_8(a) != test::emu_to_fix16_8(a)) ++bad_fix;
#ifndef PINEDA_HOST_SSE
      host[i] = test::emu_rcp(a);
#endif
    }
#ifdef PINEDA_HOST_SSE
    {
      test::HostFtzDaz mode;
      for (uint32_t i = 0; i < kBatch; ++i) host[i] = test::host_rcp(static_cast<uint32_t>(base + i));
    }
#endif
    for (uint32_t i = 0; i < kBatch; ++i) bad_rcp += model[i] != host[i];
  }
  std::printf("  all 2^32 inputs: rcp %llu mismatches, to_fix16_8 %llu mismatches\n",
              static_cast<unsigned long long>(bad_rcp), static_cast<unsigned long long>(bad_fix));
  CHECK(bad_rcp == 0);
  CHECK(bad_fix == 0);
}
