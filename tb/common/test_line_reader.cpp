// SPDX-License-Identifier: Apache-2.0
// RTL vs reference: rtl/common/line_stream_reader.sv on the line-port DRAM model (LineDram).
// Three builds: OutDwords = 1 (DepthLines 16, the CP/IA configuration), 4 (DepthLines 4: the
// credit limit is hit all the time) and 16 (DepthLines 2). Random jobs (any dword alignment,
// lengths 0..~300, some across the 2^32 wrap), random job gaps, output back-pressure, memory
// latency, jitter and bandwidth, and flushes at random moments. The reference: each accepted job
// becomes its OutDwords-aligned groups (data from memory, mask, last flag); a flush drops every
// group of the jobs accepted before it. Every output group must be the next expected one; the
// reader must end idle with nothing outstanding, and every request must be a line read.
#define CATCH_CONFIG_MAIN
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vlsr_w1.h"
#include "Vlsr_w16.h"
#include "Vlsr_w4.h"
#include "line_dram.h"
#include "mem_port.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct Group {
  std::vector<uint32_t> data;
  uint32_t mask = 0;
  bool last = false;
};

struct Job {
  uint32_t addr;
  uint32_t count;
};

// The groups of a job, in order.
void expect_job(const Memory& mem, const Job& j, uint32_t w, std::deque<Group>& out) {
  if (j.count == 0) return;
  const uint32_t first = j.addr & ~3u;
  const uint64_t end = uint64_t{first} + 4ull * j.count;  // exclusive, before wrapping
  uint64_t g = first & ~uint64_t{4 * w - 1};
  for (; g < end; g += 4 * w) {
    Group grp;
    for (uint32_t k = 0; k < w; ++k) {
      const uint64_t a = g + 4 * k;
      grp.data.push_back(mem.read32(static_cast<uint32_t>(a)));
      if (a >= first && a < end) grp.mask |= 1u << k;
    }
    grp.last = g + 4 * w >= end;
    out.push_back(grp);
  }
}

struct Cfg {
  const char* name;
  double bytes_per_clock;
  uint32_t latency, jitter;
  double job_gap, out_stall, flush_rate;
};

template <class V>
uint32_t sig_word(const V& dut, uint32_t k) {
  if constexpr (sizeof(dut.out_data_o) == 4) {
    (void)k;
    return static_cast<uint32_t>(dut.out_data_o);
  } else if constexpr (sizeof(dut.out_data_o) == 8) {
    return static_cast<uint32_t>(dut.out_data_o >> (32 * k));
  } else {
    return dut.out_data_o.at(k);
  }
}

template <class V>
void run(const char* model, uint32_t w, const Cfg& c, uint64_t seed, uint64_t* cycles_out = nullptr,
         std::vector<Job> jobs_in = {}) {
  std::mt19937_64 rng(seed);
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  Memory mem;
  std::vector<Job> jobs = std::move(jobs_in);
  if (jobs.empty()) {
    for (int i = 0; i < 300; ++i) {
      Job j;
      const int kind = static_cast<int>(rng() % 10);
      j.addr = 0x00400000u + static_cast<uint32_t>(rng() % 0x4000) * 4;
      if (kind == 0) j.addr = 0xFFFFFFC0u + static_cast<uint32_t>(rng() % 16) * 4;  // wraps
      j.count = kind == 1 ? 0 : kind == 2 ? static_cast<uint32_t>(rng() % 300)
                                          : static_cast<uint32_t>(rng() % 40) + 1;
      jobs.push_back(j);
    }
  }
  // Memory contents: every dword a job may read holds a distinct value.
  for (const Job& j : jobs) {
    for (uint32_t k = 0; k < j.count + 32; ++k) {
      const uint32_t a = ((j.addr & ~63u) + 4 * k);
      mem.write32(a, a * 2654435761u ^ 0x5bd1e995u);
    }
  }
  tb::LineDramConfig dc;
  dc.bytes_per_clock = c.bytes_per_clock;
  dc.latency = c.latency;
  dc.jitter = c.jitter;
  dc.seed = seed * 7 + 1;
  tb::LineDram dram(mem, dc);
  tb::VlDriver<V> drv(tb::RunId{std::string("line_reader.") + model + "." + c.name, seed,
                                "build/tests/rtl_line_reader --rng-seed " + std::to_string(seed)});
  V& dut = drv.dut();
  dut.flush_i = 0;
  tb::pack_sig(LineJob{}, dut.job_i);
  dut.out_ready_i = 0;
  tb::pack_sig(MemPortRsp{}, dut.mem_i);
  drv.reset();

  std::deque<Group> exp;
  size_t next = 0;
  uint64_t groups = 0, flushes = 0, cyc = 0;
  bool offering = false;
  const uint64_t limit = 2'000'000;
  for (; cyc < limit; ++cyc) {
    if (!offering && next < jobs.size() && u() >= c.job_gap) offering = true;
    LineJob job;
    job.valid = offering;
    if (offering) {
      job.addr = jobs[next].addr;
      job.count = jobs[next].count;
    }
    tb::pack_sig(job, dut.job_i);
    dut.out_ready_i = u() >= c.out_stall;
    const bool flush = c.flush_rate > 0 && u() < c.flush_rate;
    dut.flush_i = flush;
    const tb::MemPortCycle m = tb::mem_port_settle(drv, dram);  // drives mem_i, eval_low
    const bool job_fire = job.valid && dut.job_ready_o && !flush;
    const bool out_fire = dut.out_valid_o && dut.out_ready_i;
    const bool req_fire = m.req_fire;
    const bool rsp_fire = m.rsp_fire;
    const MemLineReq req = m.out.req;
    INFO(drv.run().test << " seed=" << seed << " cycle=" << cyc << " group #" << groups);
    REQUIRE_FALSE(m.rsp_refused());
    if (req_fire) REQUIRE(req.we == 0);
    if (out_fire) {
      REQUIRE(!exp.empty());
      const Group& g = exp.front();
      const uint32_t mask = static_cast<uint32_t>(dut.out_mask_o);
      CHECK(mask == g.mask);
      CHECK(static_cast<bool>(dut.out_last_o) == g.last);
      for (uint32_t k = 0; k < w; ++k) {
        if (g.mask >> k & 1) {
          INFO("dword " << k);
          REQUIRE(sig_word(dut, k) == g.data[k]);
        }
      }
      exp.pop_front();
      ++groups;
    }
    if (flush) {
      exp.clear();  // everything accepted so far is abandoned
      ++flushes;
    }
    if (job_fire) {
      expect_job(mem, jobs[next], w, exp);
      ++next;
      offering = false;
    }
    drv.edge();
    dram.clock(req_fire, req, rsp_fire);
    REQUIRE_FALSE(drv.failed());
    if (next == jobs.size() && exp.empty() && dut.idle_o && dram.outstanding() == 0) break;
  }
  INFO(drv.run().test << " seed=" << seed);
  REQUIRE(cyc < limit);
  // Nothing more comes out.
  for (int k = 0; k < 20; ++k) {
    dut.out_ready_i = 1;
    tb::pack_sig(LineJob{}, dut.job_i);
    dut.flush_i = 0;
    tb::pack_sig(MemPortRsp{}, dut.mem_i);
    drv.eval_low();
    REQUIRE_FALSE(dut.out_valid_o);
    REQUIRE_FALSE(tb::unpack_sig<MemPortReq>(dut.mem_o).valid);
    drv.edge();
  }
  std::printf("  %s %s: %zu jobs, %llu groups, %llu flushes, %llu cycles, %llu line reads\n", model, c.name,
              jobs.size(), static_cast<unsigned long long>(groups), static_cast<unsigned long long>(flushes),
              static_cast<unsigned long long>(cyc),
              static_cast<unsigned long long>(dram.stats().client[0].reads));
  if (cycles_out) *cycles_out = cyc;
}

const std::vector<Cfg> kCfgs = {
    {"fast", 32.0, 200, 0, 0.0, 0.0, 0.0},
    {"stalls", 32.0, 200, 60, 0.3, 0.3, 0.0},
    {"slow-mem", 4.0, 50, 20, 0.1, 0.2, 0.0},
    {"flushes", 32.0, 100, 40, 0.2, 0.3, 0.004},
    {"flushes-heavy", 8.0, 20, 10, 0.5, 0.5, 0.03},
    {"short-latency", 64.0, 1, 0, 0.0, 0.0, 0.0},
};

}  // namespace

TEST_CASE("line_stream_reader: OutDwords 1, DepthLines 16") {
  const uint64_t seed = tb::announce_seed("rtl_line_reader");
  for (const auto& c : kCfgs) run<Vlsr_w1>("w1", 1, c, seed);
}

TEST_CASE("line_stream_reader: OutDwords 4, DepthLines 4") {
  const uint64_t seed = tb::announce_seed("rtl_line_reader");
  for (const auto& c : kCfgs) run<Vlsr_w4>("w4", 4, c, seed);
}

TEST_CASE("line_stream_reader: OutDwords 16, DepthLines 2") {
  const uint64_t seed = tb::announce_seed("rtl_line_reader");
  for (const auto& c : kCfgs) run<Vlsr_w16>("w16", 16, c, seed);
}

TEST_CASE("line_stream_reader: 1 dword per clock at 200 cycles and 32 B/clock") {
  const uint64_t seed = tb::announce_seed("rtl_line_reader");
  // Back-to-back jobs at odd alignments: 8,000 dwords in all.
  std::vector<Job> jobs;
  uint32_t total = 0;
  for (uint32_t i = 0; i < 40; ++i) {
    jobs.push_back({0x00100000u + i * 0x1000 + (i % 16) * 4, 200});
    total += 200;
  }
  uint64_t cyc = 0;
  run<Vlsr_w1>("w1", 1, {"rate", 32.0, 200, 0, 0.0, 0.0, 0.0}, seed, &cyc, jobs);
  const double rate = static_cast<double>(total) / static_cast<double>(cyc - 200);
  std::printf("  w1 rate: %u dwords in %llu cycles: %.3f dwords/clock after the first round trip\n", total,
              static_cast<unsigned long long>(cyc), rate);
  CHECK(rate >= 0.97);
}
