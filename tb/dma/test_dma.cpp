// SPDX-License-Identifier: Apache-2.0
// RTL vs model: DMA copy engine on the line port (rtl/dma/dma.sv vs cpp_model/dma/dma). Random copy
// jobs (every source/destination alignment, lengths 0..300, some up to 3,000 and 20,000, sources
// and destinations that share a line without overlapping) through the line-port DRAM model
// (harness/line_dram) with random latency, reduced bandwidth and random back-pressure; after
// the last job has finished (idle_o) the whole memory must equal the model's. Every write must
// enable only bytes of its job's destination range, each destination line is written once and in
// order, every read is of a line of the source range, and the unit may only report idle with
// every write acknowledged. "[.bench]" prints the copy rate of long copies.
#define CATCH_CONFIG_MAIN
#include "Vdma.h"
#include "dma/dma.h"
#include "job_bench.h"
#include "line_dram.h"
#include "mem_port.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct DmaRun {
  uint64_t cycles = 0;
  uint64_t reads = 0, writes = 0;
  std::string err;
};

struct RunConfig {
  tb::LineDramConfig dram;
  double stall = 0.0;  // chance per cycle that the memory withholds req_ready
};

// First and one-past-last line address of [a, a + len) (len > 0).
uint64_t line_lo(uint32_t a) { return a & ~uint64_t{LINE_BYTES - 1}; }
uint64_t line_count(uint32_t a, uint32_t len) {
  return len ? ((uint64_t{a} % LINE_BYTES + len - 1) / LINE_BYTES + 1) : 0;
}

DmaRun run_jobs(Memory& mem, const std::vector<model::CopyJob>& jobs, uint64_t seed, RunConfig rc) {
  DmaRun r;
  tb::VlDriver<Vdma> drv(tb::job_driver_config("dma", seed));
  Vdma& dut = drv.dut();
  rc.dram.seed = seed;
  tb::LineDram dram(mem, rc.dram);
  tb::PrimGen g(seed ^ 0x5bd1e995u);
  dut.job_valid_i = 0;
  dut.fill_valid_i = 0;  // copy jobs only (the fill port must not float)
  drv.reset();
  size_t next = 0;
  bool started = false;
  uint64_t wr_lines = 0, rd_lines = 0;  // of the current job
  while (!drv.stalled()) {
    dut.job_valid_i = 0;
    if (next < jobs.size() && dut.idle_o) {  // job_ready_o = idle_o
      dut.job_valid_i = 1;
      dut.job_src_i = jobs[next].src;
      dut.job_dst_i = jobs[next].dst;
      dut.job_len_i = jobs[next].len;
    }
    const tb::MemPortCycle m = tb::mem_port_settle(drv, dram, &g, rc.stall);
    const bool job_fire = dut.job_valid_i && dut.job_ready_o;
    if (m.rsp_refused()) r.err = "a response was not accepted (contract 2.1)";
    const MemLineReq& req = m.out.req;
    if (job_fire || m.req_fire || m.rsp_fire) drv.progress();
    if (m.req_fire) {
      const model::CopyJob& j = jobs[next - (job_fire ? 0 : 1)];
      if (job_fire) r.err = "request in the cycle a job was accepted";
      if (req.addr % LINE_BYTES) r.err = "request address not line aligned";
      if (req.we) {
        // Destination lines in order, each once; only destination bytes enabled.
        const uint64_t want = (line_lo(j.dst) + wr_lines * LINE_BYTES) & 0xffffffffu;
        if (req.addr != want) r.err = "write of line " + bits::hex(static_cast<uint32_t>(req.addr)) +
                                      ", expected " + bits::hex(static_cast<uint32_t>(want));
        if (wr_lines >= line_count(j.dst, j.len)) r.err = "more writes than destination lines";
        for (uint32_t b = 0; b < LINE_BYTES; ++b) {
          if (!((req.be >> b) & 1u)) continue;
          const uint32_t a = static_cast<uint32_t>(req.addr) + b;
          if (a - j.dst >= j.len) r.err = "write enables byte " + bits::hex(a) + " outside the destination";
        }
        // Every destination byte of the line enabled.
        for (uint32_t b = 0; b < LINE_BYTES; ++b) {
          const uint32_t a = static_cast<uint32_t>(req.addr) + b;
          if (a - j.dst < j.len && !((req.be >> b) & 1u)) r.err = "write misses destination byte " + bits::hex(a);
        }
        ++wr_lines;
        ++r.writes;
      } else {
        const uint64_t want = (line_lo(j.src) + rd_lines * LINE_BYTES) & 0xffffffffu;
        if (req.addr != want || rd_lines >= line_count(j.src, j.len)) {
          r.err = "read of line " + bits::hex(static_cast<uint32_t>(req.addr)) + " not the next source line";
        }
        ++rd_lines;
        ++r.reads;
      }
    }
    drv.edge();
    dram.clock(m.req_fire, req, m.rsp_fire);
    if (job_fire) {
      if (next > 0) {
        const model::CopyJob& p = jobs[next - 1];
        if (wr_lines != line_count(p.dst, p.len) || rd_lines != line_count(p.src, p.len)) {
          r.err = "job " + std::to_string(next - 1) + " ended after " + std::to_string(rd_lines) + " reads, " +
                  std::to_string(wr_lines) + " writes";
        }
      }
      wr_lines = rd_lines = 0;
      ++next;
      started = true;
    }
    if (started) ++r.cycles;
    const auto copy_left = [&] {
      const model::CopyJob& p = jobs.back();
      if (wr_lines == line_count(p.dst, p.len) && rd_lines == line_count(p.src, p.len)) return std::string();
      return "last job ended after " + std::to_string(rd_lines) + " reads, " + std::to_string(wr_lines) + " writes";
    };
    if (tb::job_cycle_end(drv, dram, r.err, [&] { return "job " + std::to_string(next - 1); },
                          next == jobs.size() && dut.idle_o && !job_fire, copy_left)) {
      return r;
    }
  }
  r.err = drv.no_progress_report("jobs " + std::to_string(next) + "/" + std::to_string(jobs.size()));
  return r;
}

// Random non-overlapping jobs: random lengths and alignments; some destinations start in the
// line where the source ends or end in the line where it starts (no byte shared).
std::vector<model::CopyJob> random_jobs(tb::PrimGen& g, int n) {
  std::vector<model::CopyJob> jobs;
  uint32_t area = 0x40000;
  for (int k = 0; k < n; ++k) {
    uint32_t len;
    if (g.chance(0.03)) len = static_cast<uint32_t>(g.range(5000, 20000));
    else if (g.chance(0.1)) len = static_cast<uint32_t>(g.range(1000, 3000));
    else if (g.chance(0.2)) len = static_cast<uint32_t>(g.range(0, 8));
    else len = static_cast<uint32_t>(g.range(0, 300));
    uint32_t src, dst;
    const int kind = static_cast<int>(g.range(0, 3));
    if (kind == 0) {  // from the random source area to a fresh destination
      src = 0x10000 + static_cast<uint32_t>(g.range(0, 0x20000 - 20000));
      dst = area + static_cast<uint32_t>(g.range(0, 127));
      area = (dst + len + 64 + 63) & ~63u;
    } else if (kind == 1) {  // destination right after the source, sharing its last line
      src = area + static_cast<uint32_t>(g.range(0, 127));
      dst = src + len + static_cast<uint32_t>(g.range(0, 5));
      area = (dst + len + 64 + 63) & ~63u;
    } else {  // destination right before the source, sharing its first line
      dst = area + static_cast<uint32_t>(g.range(0, 127));
      src = dst + len + static_cast<uint32_t>(g.range(0, 5));
      area = (src + len + 64 + 63) & ~63u;
    }
    jobs.push_back({src, dst, len, 0});
  }
  return jobs;
}

}  // namespace

TEST_CASE("dma: random copies, every alignment, RTL memory == model memory") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  tb::PrimGen g(seed);
  int idx = 0;
  for (const tb::MemRound& rd : tb::kMemRounds) {
    Memory base;
    for (uint32_t i = 0; i < 0x20000; ++i) base.write8(0x10000 + i, static_cast<uint8_t>(g.bits64()));
    const std::vector<model::CopyJob> jobs = random_jobs(g, 60);
    // The fresh areas too: random bytes, so a write that enables a byte it should not shows.
    for (const auto& j : jobs) {
      for (uint32_t i = 0; i < j.len + 256; ++i) {
        base.write8(j.dst - 128 + i, static_cast<uint8_t>(g.bits64()));
        base.write8(j.src - 128 + i, static_cast<uint8_t>(g.bits64()));
      }
    }
    Memory want = base;
    model::Dma dma;
    for (const auto& j : jobs) dma.copy(j, want);
    const RunConfig rc{tb::round_dram(rd), rd.stall};
    Memory got = base;
    const DmaRun r = run_jobs(got, jobs, seed + static_cast<uint64_t>(idx), rc);
    INFO("round " << idx << ": " << r.err);
    REQUIRE(r.err.empty());
    tb::check_memory(want, got);
    std::printf("  dma round %d (latency %u, jitter %u, %.0f bytes/clock, stall %.1f, %u outstanding): %zu jobs, "
                "%.0f bytes, %llu line reads, %llu line writes, %llu cycles\n",
                idx, rd.latency, rd.jitter, rd.bw, rd.stall, rd.max_out, jobs.size(),
                static_cast<double>(dma.bytes_copied()), static_cast<unsigned long long>(r.reads),
                static_cast<unsigned long long>(r.writes), static_cast<unsigned long long>(r.cycles));
    ++idx;
  }
}

TEST_CASE("dma: every source and destination alignment, short lengths") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  tb::PrimGen g(seed);
  Memory base;
  for (uint32_t i = 0; i < 0x80000; ++i) base.write8(0x10000 + i, static_cast<uint8_t>(g.bits64()));
  std::vector<model::CopyJob> jobs;
  for (uint32_t os = 0; os < 64; os += 3) {
    for (uint32_t od = 0; od < 64; od += 5) {
      const uint32_t len = static_cast<uint32_t>(g.range(0, 200));
      const uint32_t slot = static_cast<uint32_t>(jobs.size());
      jobs.push_back({0x10000 + slot * 512 + os, 0x10000 + 0x40000 + slot * 512 + od, len, 0});
    }
  }
  Memory want = base;
  model::Dma dma;
  for (const auto& j : jobs) dma.copy(j, want);
  RunConfig rc;
  rc.dram.latency = 20;
  rc.dram.jitter = 10;
  rc.stall = 0.2;
  Memory got = base;
  const DmaRun r = run_jobs(got, jobs, seed, rc);
  INFO(r.err);
  REQUIRE(r.err.empty());
  tb::check_memory(want, got);
}

namespace {
void copy_rate(uint32_t len, uint32_t latency, double bw, uint64_t seed) {
  Memory mem;
  const uint32_t src = 0x1000001, dst = 0x3000022;
  for (uint32_t i = 0; i < len; ++i) mem.write8(src + i, static_cast<uint8_t>(i * 13));
  RunConfig rc;
  rc.dram.latency = latency;
  rc.dram.bytes_per_clock = bw;
  const DmaRun r = run_jobs(mem, {{src, dst, len, 0}}, seed, rc);
  REQUIRE(r.err.empty());
  // As unsigned: Catch2 would print a uint8_t mismatch as raw characters.
  for (uint32_t i = 0; i < len; i += 997) REQUIRE(unsigned{mem.read8(dst + i)} == (i * 13u & 0xFFu));
  std::printf("  dma: %u bytes at latency %u, %.0f bytes/clock peak: %llu cycles, %.2f bytes/clock "
              "(bound: %.2f = half the peak, or 32 = one line request per clock)\n",
              len, latency, bw, static_cast<unsigned long long>(r.cycles),
              static_cast<double>(len) / static_cast<double>(r.cycles), std::min(bw / 2, 32.0));
}
}  // namespace

TEST_CASE("dma: copy rate on one long copy") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  copy_rate(65536, 200, 32.0, seed);
  copy_rate(65536, 800, 32.0, seed);
}

TEST_CASE("dma: copy rate bench", "[.bench]") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  for (const uint32_t len : {4096u, 65536u, 1u << 20}) copy_rate(len, 200, 32.0, seed);
  copy_rate(1u << 20, 800, 32.0, seed);
  copy_rate(1u << 20, 200, 64.0, seed);
  copy_rate(1u << 20, 200, 128.0, seed);
}

// ---------------------------------------------------------------------------------------------
// Fill (CLEAR): RTL vs model. Random rectangles (every x alignment, 1x and 4x MSAA, pitches that
// are and are not line multiples, colour / depth / stencil / depth+stencil), random values,
// random latency and back-pressure. Every line write must be exactly the model's next one
// (Dma::fill_lines: address, enabled bytes, their data), and the memory afterwards the model's;
// the model's memory is also checked against a per-sample reference written here.
namespace {

std::string fill_desc(const ClearPkt& c) {
  return "fill base " + bits::hex(static_cast<uint32_t>(c.target.base)) + " pitch " + std::to_string(c.target.pitch) +
         (c.target.msaa ? " 4x" : " 1x") + " rect [" + std::to_string(c.rect.x0) + "," + std::to_string(c.rect.x1) +
         ")x[" + std::to_string(c.rect.y0) + "," + std::to_string(c.rect.y1) + ") flags " +
         std::to_string(c.color | (c.depth << 1) | (c.stencil << 2));
}

DmaRun run_fills(Memory& mem, const std::vector<ClearPkt>& jobs, uint64_t seed, RunConfig rc) {
  DmaRun r;
  tb::VlDriver<Vdma> drv(tb::job_driver_config("dma", seed));
  Vdma& dut = drv.dut();
  rc.dram.seed = seed;
  tb::LineDram dram(mem, rc.dram);
  tb::PrimGen g(seed ^ 0x9e3779b9u);
  dut.job_valid_i = 0;
  dut.fill_valid_i = 0;
  drv.reset();
  size_t next = 0;
  std::vector<MemLineReq> want;  // the current job's expected writes
  size_t got_lines = 0;
  while (!drv.stalled()) {
    dut.fill_valid_i = 0;
    if (next < jobs.size() && dut.idle_o && g.chance(0.7)) {
      dut.fill_valid_i = 1;
      tb::pack_sig(jobs[next], dut.fill_i);
    }
    const tb::MemPortCycle m = tb::mem_port_settle(drv, dram, &g, rc.stall);
    const bool job_fire = dut.fill_valid_i && dut.fill_ready_o;
    const MemLineReq& req = m.out.req;
    if (job_fire || m.req_fire || m.rsp_fire) drv.progress();
    if (job_fire && !dut.idle_o) r.err = "fill accepted while not idle";
    if (m.req_fire) {
      ++r.writes;
      if (!req.we) r.err = "a read during a fill";
      if (const MemLineReq* w = tb::expect_line_write(req, want, got_lines, r.err)) {
        for (uint32_t d = 0; d < LINE_DWORDS; ++d) {
          if (((w->be >> (4 * d)) & 0xF) && req.wdata[d].data != w->wdata[d].data) r.err = "write data differs";
        }
      }
      ++got_lines;
    }
    drv.edge();
    dram.clock(m.req_fire, req, m.rsp_fire);
    if (job_fire) {
      if (got_lines != want.size()) {
        r.err = "previous fill ended after " + std::to_string(got_lines) + " of " + std::to_string(want.size()) +
                " line writes";
      }
      want.clear();
      model::Dma::fill_lines(jobs[next], [&](const MemLineReq& l) { want.push_back(l); });
      got_lines = 0;
      ++next;
    }
    if (next > 0) ++r.cycles;
    if (tb::job_cycle_end(drv, dram, r.err, [&] { return fill_desc(jobs[next - 1]); },
                          next == jobs.size() && dut.idle_o && !job_fire,
                          [&] { return std::string(got_lines == want.size() ? "" : "last fill ended early"); })) {
      return r;
    }
  }
  r.err = drv.no_progress_report("fills " + std::to_string(next) + "/" + std::to_string(jobs.size()));
  return r;
}

ClearPkt random_fill(tb::PrimGen& g, uint32_t& area) {
  ClearPkt c;
  const int f = static_cast<int>(g.range(0, 3));
  c.color = f == 0;
  c.depth = f == 1 || f == 3;
  c.stencil = f == 2 || f == 3;
  c.target.msaa = g.chance(0.3);
  const uint32_t bpp = c.target.msaa ? 16 : 4;
  const uint32_t w = static_cast<uint32_t>(g.chance(0.2) ? g.range(1, 4) : g.range(1, 80));
  c.rect.x0 = static_cast<uint32_t>(g.range(0, 40));
  c.rect.x1 = c.rect.x0 + w;
  c.rect.y0 = static_cast<uint32_t>(g.range(0, 5));
  c.rect.y1 = c.rect.y0 + static_cast<uint32_t>(g.range(1, 12));
  const uint32_t min_pitch = c.rect.x1 * bpp;
  c.target.pitch = g.chance(0.3) ? ((min_pitch + 63) & ~63u) + 64 * static_cast<uint32_t>(g.range(0, 2))
                                 : min_pitch + 4 * static_cast<uint32_t>(g.range(0, 20));
  c.target.base = area + 4 * static_cast<uint32_t>(g.range(0, 31));
  area = (static_cast<uint32_t>(c.target.base) + c.rect.y1 * c.target.pitch + 256 + 63) & ~63u;
  c.value = static_cast<uint32_t>(g.bits64());
  return c;
}

// Reference: every sample of the rectangle, byte by byte under the mask.
void reference_fill(const ClearPkt& c, Memory& mem) {
  const uint32_t spp = c.target.msaa ? 4 : 1;
  const uint32_t m = model::Dma::fill_dword_mask(c);
  for (uint64_t y = c.rect.y0; y < c.rect.y1; ++y) {
    for (uint64_t x = c.rect.x0; x < c.rect.x1; ++x) {
      for (uint32_t s = 0; s < spp; ++s) {
        const uint32_t a = static_cast<uint32_t>(c.target.base + y * c.target.pitch + x * 4 * spp + 4 * s);
        for (uint32_t b = 0; b < 4; ++b) {
          if ((m >> b) & 1u) mem.write8(a + b, static_cast<uint8_t>(c.value >> (8 * b)));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("dma: fills (CLEAR), random rectangles, RTL == model == per-sample reference") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  tb::PrimGen g(seed);
  int idx = 0;
  for (const tb::MemRound& rd : tb::kMemRounds) {
    uint32_t area = 0x100000;
    std::vector<ClearPkt> jobs;
    for (int k = 0; k < 50; ++k) jobs.push_back(random_fill(g, area));
    Memory base;
    for (uint32_t a = 0x100000 - 256; a < area + 256; ++a) base.write8(a, static_cast<uint8_t>(g.bits64()));
    Memory want = base, ref = base;
    model::Dma dma;
    for (const auto& j : jobs) {
      dma.fill(j, want);
      reference_fill(j, ref);
    }
    const auto dref = ref.first_difference(want);
    INFO("model vs reference: first difference at " << (dref ? bits::hex(*dref) : std::string("-")));
    REQUIRE_FALSE(dref.has_value());
    const RunConfig rc{tb::round_dram(rd), rd.stall};
    Memory got = base;
    const DmaRun r = run_fills(got, jobs, seed + static_cast<uint64_t>(idx), rc);
    INFO("round " << idx << ": " << r.err);
    REQUIRE(r.err.empty());
    tb::check_memory(want, got);
    std::printf("  dma fill round %d (latency %u, stall %.1f): %zu fills, %llu bytes, %llu line writes, %llu cycles\n",
                idx, rd.latency, rd.stall, jobs.size(), static_cast<unsigned long long>(dma.bytes_filled()),
                static_cast<unsigned long long>(r.writes), static_cast<unsigned long long>(r.cycles));
    ++idx;
  }
}

TEST_CASE("dma: fill rate, a 1024x64 colour target and a 4x MSAA depth clear") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  for (int msaa = 0; msaa < 2; ++msaa) {
    ClearPkt c;
    c.color = msaa == 0;
    c.depth = msaa == 1;
    c.target.base = 0x200000;
    c.target.msaa = static_cast<uint64_t>(msaa);
    c.target.pitch = msaa ? 1024 * 16 : 1024 * 4;
    c.rect.x0 = 0;
    c.rect.x1 = 1024;
    c.rect.y0 = 0;
    c.rect.y1 = msaa ? 16 : 64;
    c.value = 0x00ABCDEF;
    Memory mem, want;
    model::Dma dma;
    dma.fill(c, want);
    RunConfig rc;
    const DmaRun r = run_fills(mem, {c}, seed, rc);
    REQUIRE(r.err.empty());
    CHECK_FALSE(want.first_difference(mem).has_value());
    const double lines = static_cast<double>(dma.fill_lines_written());
    std::printf("  dma fill %s: %.0f lines in %llu cycles, %.2f lines/clock (bound: 1 line request per clock, "
                "memory 32 bytes/clock = 0.5)\n",
                msaa ? "4x depth" : "1x colour", lines, static_cast<unsigned long long>(r.cycles),
                lines / static_cast<double>(r.cycles));
    CHECK(lines / static_cast<double>(r.cycles) > 0.4);
  }
}
