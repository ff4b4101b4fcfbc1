// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the combinational FP32 primitives (rtl/common/fp32_{add,mul,rcp,to_fix16_8}.sv
// vs cpp_model/common/fp32.cpp), each Verilated on its own and driven directly (no clock), and
// their two-stage pipelined forms (fp32_{add,mul,rcp}_p.sv: a new operand every clock, the
// result 2 clocks later, the same bits; also with random stalls, en_i low holding both stages);
// fp32_from_int and fp32_from_int_p at INTERP's 84 bits against fp32::from_int128 (directed
// edges, random widths, random stalls):
// every pair of special values, millions of random operands of every class (the generator of
// the model tests, tests/model/fp32_vectors.h), every significand of the reciprocal at one
// exponent, the rounding exponents of the 16.8 conversion. Each case prints its seed;
// `--rng-seed N` replays it. The model itself is checked against the host FPU in
// build/tests/model_tests "[fp32]".
#define CATCH_CONFIG_MAIN
#include <array>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "Vfp32_add.h"
#include "Vfp32_add_p.h"
#include "Vfp32_from_int84.h"
#include "Vfp32_from_int_p84.h"
#include "Vfp32_mul.h"
#include "Vfp32_mul_p.h"
#include "Vfp32_rcp.h"
#include "Vfp32_rcp_p.h"
#include "Vfp32_to_fix16_8.h"
#include "fp32.h"
#include "fp32_vectors.h"
#include "unit_test_main.h"

using namespace pineda;
using test::kSpecials;
using test::OperandGen;

namespace {

// The four primitives in one Verilator context.
struct Prims {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vfp32_add> add;
  std::unique_ptr<Vfp32_mul> mul;
  std::unique_ptr<Vfp32_rcp> rcp;
  std::unique_ptr<Vfp32_to_fix16_8> fix;
  explicit Prims(uint64_t seed) : ctx(tb::make_context(seed)) {
    add = std::make_unique<Vfp32_add>(ctx.get(), "add");
    mul = std::make_unique<Vfp32_mul>(ctx.get(), "mul");
    rcp = std::make_unique<Vfp32_rcp>(ctx.get(), "rcp");
    fix = std::make_unique<Vfp32_to_fix16_8>(ctx.get(), "fix");
  }
  uint32_t do_add(uint32_t a, uint32_t b) {
    add->a_i = a;
    add->b_i = b;
    add->eval();
    return add->y_o;
  }
  uint32_t do_mul(uint32_t a, uint32_t b) {
    mul->a_i = a;
    mul->b_i = b;
    mul->eval();
    return mul->y_o;
  }
  uint32_t do_rcp(uint32_t a) {
    rcp->a_i = a;
    rcp->eval();
    return rcp->y_o;
  }
  int32_t do_fix(uint32_t a) {
    fix->a_i = a;
    fix->eval();
    return static_cast<int32_t>(bits::sext(fix->y_o, 24));
  }
};

struct Count {
  Count(const char* o, uint64_t s) : op(o), seed(s) {}
  const char* op;
  uint64_t seed;
  uint64_t n = 0, bad = 0;
  std::string first;
  void check(uint32_t a, uint32_t b, uint64_t rtl, uint64_t model) {
    ++n;
    if (rtl != model && ++bad <= 8) {
      first += std::string("MISMATCH ") + op + " seed=" + std::to_string(seed) + " a=" + bits::hex(a) +
               " b=" + bits::hex(b) + " expected(model)=" + bits::hex(model) + " actual(rtl)=" + bits::hex(rtl) + "\n";
    }
  }
  void report() {
    std::printf("  %s: %llu vectors, %llu mismatches\n", op, static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(bad));
    INFO(first);
    CHECK(bad == 0);
  }
};

// Each count's figures and mismatches, then no Verilator error in the run.
void report(const Prims& p, std::initializer_list<Count*> counts) {
  for (Count* c : counts) c->report();
  CHECK_FALSE(p.ctx->gotError());
}

uint64_t fix_bits(int32_t v) { return static_cast<uint32_t>(v) & 0xFFFFFFu; }

}  // namespace

TEST_CASE("fp32 rtl: every pair of special values") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  Prims p(seed);
  Count add{"add", seed}, mul{"mul", seed}, rcp{"rcp", seed}, fix{"to_fix16_8", seed};
  for (uint32_t a : kSpecials) {
    for (uint32_t b : kSpecials) {
      add.check(a, b, p.do_add(a, b), fp32::add(a, b));
      mul.check(a, b, p.do_mul(a, b), fp32::mul(a, b));
    }
    rcp.check(a, 0, p.do_rcp(a), fp32::rcp(a));
    fix.check(a, 0, fix_bits(p.do_fix(a)), fix_bits(fp32::to_fix16_8(a)));
  }
  report(p, {&add, &mul, &rcp, &fix});
}

TEST_CASE("fp32 rtl: random operands of every class") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  Prims p(seed);
  OperandGen g(seed);
  Count add{"add", seed}, mul{"mul", seed}, rcp{"rcp", seed}, fix{"to_fix16_8", seed};
  constexpr int kN = 1 << 21;  // per generator kind
  for (int kind = 0; kind < 4; ++kind) {
    for (int i = 0; i < kN; ++i) {
      uint32_t a, b, c;
      switch (kind) {
        case 0: a = g.u32(); b = g.u32(); c = b; break;
        case 1: a = g.structured(); b = g.structured(); c = b; break;
        case 2: a = g.structured(); b = g.near(a); c = g.product_edge(a); break;
        default:
          a = g.below(2) ? g.special() : g.structured();
          b = g.below(2) ? g.special() : g.near(a);
          c = g.below(2) ? g.special() : g.product_edge(a);
          break;
      }
      add.check(a, b, p.do_add(a, b), fp32::add(a, b));
      mul.check(a, c, p.do_mul(a, c), fp32::mul(a, c));
      rcp.check(a, 0, p.do_rcp(a), fp32::rcp(a));
      const uint32_t f = kind == 0 ? a : OperandGen::make(g.below(2), 100 + g.below(60), g.mantissa());
      fix.check(f, 0, fix_bits(p.do_fix(f)), fix_bits(fp32::to_fix16_8(f)));
    }
  }
  report(p, {&add, &mul, &rcp, &fix});
}

TEST_CASE("fp32 rtl: rcp of every significand, to_fix16_8 at every rounding exponent") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  Prims p(seed);
  Count rcp{"rcp", seed}, fix{"to_fix16_8", seed};
  // All 2^23 significands (alternating sign) at exponent 127, and at 253 (the flush boundary)
  // and 1 with a stride.
  for (uint32_t m = 0; m < (1u << 23); ++m) {
    const uint32_t a = OperandGen::make(m & 1, 127, m);
    rcp.check(a, 0, p.do_rcp(a), fp32::rcp(a));
  }
  for (uint32_t e : {1u, 253u, 254u}) {
    for (uint32_t m = 0; m < (1u << 23); m += 61) {
      const uint32_t a = OperandGen::make(m & 1, e, m);
      rcp.check(a, 0, p.do_rcp(a), fp32::rcp(a));
    }
  }
  for (uint32_t e = 114; e <= 143; ++e) {
    for (uint32_t m = 0; m < (1u << 23); m += 97) {
      const uint32_t a = OperandGen::make(m & 1, e, m ^ (m >> 7 & 1u));
      fix.check(a, 0, fix_bits(p.do_fix(a)), fix_bits(fp32::to_fix16_8(a)));
    }
    for (uint32_t m : {0u, 1u, 0x7FFFFFu, 0x7FFFFEu, 0x400000u, 0x3FFFFFu, 0x400001u}) {
      for (uint32_t s : {0u, 1u}) {
        const uint32_t a = OperandGen::make(s, e, m);
        fix.check(a, 0, fix_bits(p.do_fix(a)), fix_bits(fp32::to_fix16_8(a)));
      }
    }
  }
  report(p, {&rcp, &fix});
}

namespace {

// The three two-stage operators side by side, driven with the same operand a (b for the add, c
// for the mul) and checked against the model.
struct PipeOps {
  PipeOps(VerilatedContext* ctx, uint64_t seed, bool stalls)
      : add(ctx, "add_p"), mul(ctx, "mul_p"), rcp(ctx, "rcp_p"),
        cadd{stalls ? "add_p stalls" : "add_p", seed}, cmul{stalls ? "mul_p stalls" : "mul_p", seed},
        crcp{stalls ? "rcp_p stalls" : "rcp_p", seed} {
    set_en(false);
    add.rst_ni = mul.rst_ni = rcp.rst_ni = 0;
    clock(0);
    add.rst_ni = mul.rst_ni = rcp.rst_ni = 1;
    clock(0);
  }
  void clock(int clk) {
    add.clk_i = mul.clk_i = rcp.clk_i = static_cast<uint8_t>(clk);
    add.eval();
    mul.eval();
    rcp.eval();
  }
  void set_en(bool en) { add.en_i = mul.en_i = rcp.en_i = en ? 1 : 0; }
  void drive(uint32_t a, uint32_t b, uint32_t c) {
    add.a_i = a;
    add.b_i = b;
    mul.a_i = a;
    mul.b_i = c;
    rcp.a_i = a;
  }
  void check(const std::array<uint32_t, 3>& o) {  // the outputs hold the operation on o
    cadd.check(o[0], o[1], add.y_o, fp32::add(o[0], o[1]));
    cmul.check(o[0], o[2], mul.y_o, fp32::mul(o[0], o[2]));
    crcp.check(o[0], 0, rcp.y_o, fp32::rcp(o[0]));
  }
  void report() {
    for (Count* c : {&cadd, &cmul, &crcp}) c->report();
  }
  Vfp32_add_p add;
  Vfp32_mul_p mul;
  Vfp32_rcp_p rcp;
  Count cadd, cmul, crcp;
};

}  // namespace

TEST_CASE("fp32 rtl: the pipelined add, mul and rcp, a new operand every clock") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  std::unique_ptr<VerilatedContext> ctx(tb::make_context(seed));
  PipeOps ops(ctx.get(), seed, false);
  OperandGen g(seed);
  ops.set_en(true);
  std::vector<std::array<uint32_t, 3>> in;  // a, b (add), c (mul) issued per clock
  constexpr int kN = 1 << 20;
  for (int i = 0; i < kN + 2; ++i) {
    uint32_t a = 0, b = 0, c = 0;
    if (i < 64) {
      a = kSpecials[static_cast<size_t>(i) % std::size(kSpecials)];
      b = kSpecials[static_cast<size_t>(i / 8) % std::size(kSpecials)];
      c = b;
    } else {
      switch (i & 3) {
        case 0: a = g.u32(); b = g.u32(); c = b; break;
        case 1: a = g.structured(); b = g.structured(); c = b; break;
        case 2: a = g.structured(); b = g.near(a); c = g.product_edge(a); break;
        default:
          a = g.below(2) ? g.special() : g.structured();
          b = g.below(2) ? g.special() : g.near(a);
          c = g.below(2) ? g.special() : g.product_edge(a);
          break;
      }
    }
    ops.drive(a, b, c);
    in.push_back({a, b, c});
    ops.clock(1);
    ops.clock(0);
    // after this edge the outputs hold the operation issued one clock earlier
    if (i >= 1) ops.check(in[static_cast<size_t>(i - 1)]);
  }
  ops.report();
  CHECK_FALSE(ctx->gotError());
}

// The pipelined add, mul and rcp with en_i random (a stall holds both stages): after an edge
// with en_i set the outputs hold the operation issued two enabled edges earlier.
TEST_CASE("fp32 rtl: the pipelined add mul and rcp under random stalls") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  std::unique_ptr<VerilatedContext> ctx(tb::make_context(seed));
  PipeOps ops(ctx.get(), seed, true);
  OperandGen g(seed);
  std::vector<std::array<uint32_t, 3>> in;  // a, b (add), c (mul) of each enabled edge
  constexpr int kN = 1 << 18;
  for (int i = 0; i < kN; ++i) {
    const uint32_t a = g.below(4) == 0 ? g.special() : g.structured();
    const uint32_t b = g.below(2) ? g.near(a) : g.structured();
    const uint32_t c = g.below(2) ? g.product_edge(a) : g.structured();
    const bool en = g.below(10) < 6;
    ops.drive(a, b, c);
    ops.set_en(en);
    if (en) in.push_back({a, b, c});
    ops.clock(1);
    // the operands change after the edge: a stalled stage must not follow them
    const uint32_t na = g.u32();
    const uint32_t nb = g.u32();
    ops.drive(na, nb, nb);
    ops.clock(0);
    if (in.size() >= 2) ops.check(in[in.size() - 2]);
  }
  ops.report();
  CHECK_FALSE(ctx->gotError());
}

namespace {

constexpr int kFromIntW = 84;  // pineda_pkg::IPLANE_W, INTERP's planes

// Directed and random W-bit integers for from_int: zero, +-1, +-2^k and their neighbours, the
// extremes, rounding ties and their neighbours at every shift; random values of every width.
struct FromIntGen {
  explicit FromIntGen(uint64_t seed) : g(seed) {}
  OperandGen g;
  static bits::i128 wrap(bits::i128 v) {  // to the W-bit two's-complement range
    const bits::u128 m = (bits::u128{1} << kFromIntW) - 1;
    const bits::u128 u = static_cast<bits::u128>(v) & m;
    const bits::u128 sb = bits::u128{1} << (kFromIntW - 1);
    return static_cast<bits::i128>((u ^ sb) - sb);
  }
  std::vector<bits::i128> directed() const {
    std::vector<bits::i128> v;
    const bits::i128 one = 1;
    for (int k = 0; k < kFromIntW; ++k) {
      const bits::i128 p = one << k;
      for (bits::i128 d : {p, p - 1, p + 1}) {
        v.push_back(wrap(d));
        v.push_back(wrap(-d));
      }
      // ties and their neighbours: 24 significant bits plus a half (1.x...x1 followed by 1 0..0)
      if (k >= 25) {
        for (bits::i128 sig : {bits::i128{0xFFFFFF}, bits::i128{0x800001}, bits::i128{0x800000},
                               bits::i128{0xABCDEF}}) {
          const bits::i128 base = sig << (k - 23);
          const bits::i128 half = one << (k - 24);
          for (bits::i128 d : {base + half, base + half - 1, base + half + 1, base + 2 * half - 1}) {
            v.push_back(wrap(d));
            v.push_back(wrap(-d));
          }
        }
      }
    }
    v.push_back(0);
    v.push_back(wrap((one << (kFromIntW - 1)) - 1));  // the largest
    v.push_back(-(one << (kFromIntW - 1)));          // the smallest
    return v;
  }
  bits::i128 random() {
    const bits::u128 u = (static_cast<bits::u128>(g.u32()) << 96) | (static_cast<bits::u128>(g.u32()) << 64) |
                         (static_cast<bits::u128>(g.u32()) << 32) | g.u32();
    const int width = 1 + static_cast<int>(g.below(kFromIntW));  // significant bits
    bits::i128 v = static_cast<bits::i128>(u >> (128 - width));
    if (g.below(4) == 0) v |= bits::i128{1} << (width - 1);     // a full-width magnitude
    return wrap(g.below(2) ? -v : v);
  }
};

void put_w(uint32_t* w, bits::i128 v) { bits::put128(w, 0, kFromIntW, v); }

std::string hex128(bits::i128 v) {
  const bits::u128 u = static_cast<bits::u128>(v);
  char buf[40];
  std::snprintf(buf, sizeof buf, "0x%llx%016llx", static_cast<unsigned long long>(u >> 64),
                static_cast<unsigned long long>(u));
  return buf;
}

}  // namespace

TEST_CASE("fp32 rtl: from_int and from_int_p at 84 bits under random stalls") {
  const uint64_t seed = tb::announce_seed("rtl_fp32");
  std::unique_ptr<VerilatedContext> ctx(tb::make_context(seed));
  Vfp32_from_int84 comb(ctx.get(), "from_int");
  Vfp32_from_int_p84 pipe(ctx.get(), "from_int_p");
  FromIntGen fg(seed);
  uint64_t n_comb = 0, n_pipe = 0, bad = 0;
  std::string first;
  // from_int_p also with an exponent offset (scale_i: INTERP's uv, -176..78; the directed
  // values with 0): the model is fp32::from_int128_scaled.
  auto check = [&](const char* what, bits::i128 a, uint32_t rtl, int scale = 0) {
    const uint32_t model = fp32::from_int128_scaled(a, scale);
    if (rtl != model && ++bad <= 8) {
      first += std::string("MISMATCH ") + what + " seed=" + std::to_string(seed) + " a=" + hex128(a) +
               " expected(model)=" + bits::hex(model) + " actual(rtl)=" + bits::hex(rtl) + "\n";
    }
  };
  auto clock = [&](int clk) {
    pipe.clk_i = static_cast<uint8_t>(clk);
    pipe.eval();
  };
  pipe.en_i = 0;
  pipe.rst_ni = 0;
  clock(0);
  pipe.rst_ni = 1;
  clock(0);
  std::vector<bits::i128> ops = fg.directed();
  const size_t n_directed = ops.size();
  constexpr size_t kRandom = 1 << 19;
  for (size_t i = 0; i < kRandom; ++i) ops.push_back(fg.random());
  std::vector<bits::i128> in;  // the operand of each enabled edge
  std::vector<int> sc;         // and its scale
  size_t next = 0;
  while (next < ops.size() || in.size() < ops.size() + 2) {
    const bits::i128 a = next < ops.size() ? ops[next] : 0;
    // the directed values every clock, then random stalls
    const bool en = next < n_directed || fg.g.below(10) < 7;
    put_w(comb.a_i.data(), a);
    comb.eval();
    ++n_comb;
    check("from_int", a, comb.y_o);
    const int scale = next < n_directed ? 0 : static_cast<int>(fg.g.below(301)) - 200;
    put_w(pipe.a_i.data(), a);
    pipe.scale_i = static_cast<uint16_t>(scale & 0x3FF);
    pipe.en_i = en ? 1 : 0;
    if (en) {
      in.push_back(a);
      sc.push_back(scale);
      ++next;
    }
    clock(1);
    put_w(pipe.a_i.data(), fg.random());  // a stalled stage must not follow its input
    pipe.scale_i = static_cast<uint16_t>(fg.g.below(1024));
    clock(0);
    if (in.size() >= 2) {
      ++n_pipe;
      check("from_int_p", in[in.size() - 2], pipe.y_o, sc[sc.size() - 2]);
    }
  }
  std::printf("  from_int (84 bits): %llu vectors, from_int_p: %llu checks (%zu directed), %llu mismatches\n",
              static_cast<unsigned long long>(n_comb), static_cast<unsigned long long>(n_pipe), n_directed,
              static_cast<unsigned long long>(bad));
  INFO(first);
  CHECK(bad == 0);
  CHECK_FALSE(ctx->gotError());
}
