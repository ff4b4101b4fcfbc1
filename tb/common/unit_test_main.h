// SPDX-License-Identifier: Apache-2.0
// Shared bits of the RTL unit tests (Catch2 v2): seed reporting and the bench call.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "random_prims.h"
#include "unit_bench.h"

namespace pineda::tb {

// The seed of this run (Catch2 --rng-seed N replays it); printed once per test case.
inline uint64_t announce_seed(const char* binary) {
  const uint64_t seed = test_seed(Catch::rngSeed());
  std::printf("[%s] %s: seed=%llu (replay: build/tests/%s --rng-seed %llu \"%s\")\n", binary,
              Catch::getResultCapture().getCurrentTestName().c_str(),
              static_cast<unsigned long long>(seed), binary, static_cast<unsigned long long>(seed),
              Catch::getResultCapture().getCurrentTestName().c_str());
  return seed;
}

// Stall patterns every unit is run under: none, light, heavy, and bursty sink.
struct StallPattern {
  const char* name;
  double in_gap;
  double out_stall;
};
constexpr StallPattern kStallPatterns[] = {
    {"no-stalls", 0.0, 0.0}, {"light", 0.1, 0.1}, {"heavy", 0.5, 0.6}, {"starved", 0.8, 0.0}};

// A memory a hand-written bench runs under: its name (in the test name), bandwidth (bytes/clock),
// latency and random extra latency (cycles).
struct BenchMem {
  const char* name;
  double bw;
  uint32_t lat, jit;
};

// Every stall pattern under every memory of `mems`: a bench configuration `Cfg` with the seed,
// the pattern's input gaps and output stalls, the memory and the test name
// "<name>/<memory>/<pattern>"; run(cfg, pattern) sets the unit's own fields, runs the bench and
// returns its result, which must be ok (else its report is shown).
template <class Cfg, size_t N, class Run>
void check_mems_and_stalls(const std::string& name, uint64_t seed, const BenchMem (&mems)[N], Run run) {
  for (const BenchMem& m : mems) {
    for (const StallPattern& p : kStallPatterns) {
      Cfg cfg;
      cfg.seed = seed;
      cfg.in_gap = p.in_gap;
      cfg.out_stall = p.out_stall;
      cfg.dram.bytes_per_clock = m.bw;
      cfg.dram.latency = m.lat;
      cfg.dram.jitter = m.jit;
      cfg.test = name + "/" + m.name + "/" + p.name;
      const auto r = run(cfg, p);
      INFO(cfg.test << ": " << r.report);
      REQUIRE(r.ok);
    }
  }
}

template <class V, class In, class Out>
void check_unit(const std::string& test, const std::vector<In>& in, const std::vector<Out>& exp,
                uint64_t seed, Memory* mem = nullptr, LineDramConfig dram = {}) {
  for (const auto& p : kStallPatterns) {
    UnitBenchConfig cfg;
    cfg.seed = seed;
    cfg.in_gap = p.in_gap;
    cfg.out_stall = p.out_stall;
    cfg.line_dram = dram;
    cfg.test = test + "/" + p.name;
    const UnitBenchResult r = run_unit_bench<V>(in, exp, cfg, mem);
    INFO(r.report);
    REQUIRE(r.ok);
    if (p.in_gap == 0.0 && p.out_stall == 0.0) {
      std::printf("  %s: %zu in, %zu out, %llu cycles without stalls\n", test.c_str(), in.size(),
                  r.outputs, static_cast<unsigned long long>(r.cycles));
    }
  }
}

}  // namespace pineda::tb
