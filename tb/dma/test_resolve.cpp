// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the MSAA resolve engine (rtl/dma/resolve.sv vs cpp_model/dma/resolve,
// docs/om.md section 7). Jobs of every format (RGBA8, BGRA8, RGBA8 sRGB, B5G6R5), odd sizes (1
// pixel, 1 row, widths that end mid-line), every source and destination alignment the CP
// accepts, destination pitches narrower than a line and not line multiples, through the line-port
// DRAM model with random latency, reduced bandwidth and back-pressure. Every line write must be
// exactly the model's next one (model::resolve_lines: address, byte enables, data), every read a
// line of the current job's source rows, and the memory afterwards the model's. The CP's argument
// checks (empty, misaligned, outside the window, overlapping) are tested with the CP
// (tests/model/test_resolve.cpp, tb/cp). "[.bench]" prints the rate of a 256x256 resolve.
#define CATCH_CONFIG_MAIN
#include "Vresolve.h"
#include "dma/resolve.h"
#include "job_bench.h"
#include "line_dram.h"
#include "mem_port.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct Run {
  uint64_t cycles = 0, reads = 0, writes = 0;
  std::string err;
};

struct RunConfig {
  tb::LineDramConfig dram;
  double stall = 0.0;    // chance per cycle that the memory withholds req_ready
  double offer = 0.7;    // chance per idle cycle that the next job is offered
};

std::string desc(const ResolvePkt& p) {
  return "resolve fmt " + std::to_string(p.fmt) + " src " + bits::hex(static_cast<uint32_t>(p.src)) + "/" +
         std::to_string(p.src_pitch) + " dst " + bits::hex(static_cast<uint32_t>(p.dst)) + "/" +
         std::to_string(p.dst_pitch) + " rect [" + std::to_string(p.rect.x0) + "," + std::to_string(p.rect.x1) +
         ")x[" + std::to_string(p.rect.y0) + "," + std::to_string(p.rect.y1) + ")";
}

Run run_jobs(Memory& mem, const std::vector<ResolvePkt>& jobs, uint64_t seed, RunConfig rc) {
  Run r;
  tb::VlDriver<Vresolve> drv(tb::job_driver_config("resolve", seed));
  Vresolve& dut = drv.dut();
  rc.dram.seed = seed;
  tb::LineDram dram(mem, rc.dram);
  tb::PrimGen g(seed ^ 0x7f4a7c15u);
  dut.job_valid_i = 0;
  drv.reset();
  size_t next = 0;
  std::vector<MemLineReq> want;
  size_t got = 0;
  uint64_t src_lo = 0, src_hi = 0;  // the current job's source bytes (span)
  while (!drv.stalled()) {
    dut.job_valid_i = 0;
    if (next < jobs.size() && dut.idle_o && g.chance(rc.offer)) {
      dut.job_valid_i = 1;
      tb::pack_sig(jobs[next], dut.job_i);
    }
    const tb::MemPortCycle m = tb::mem_port_settle(drv, dram, &g, rc.stall);
    const bool job_fire = dut.job_valid_i && dut.job_ready_o;
    if (m.rsp_refused()) r.err = "a response was not accepted (contract 2.1)";
    const MemLineReq& req = m.out.req;
    if (job_fire || m.req_fire || m.rsp_fire) drv.progress();
    if (m.req_fire) {
      if (req.tag != 1) r.err = "request tag is not 1";
      if (req.addr % LINE_BYTES) r.err = "request address not line aligned";
      if (req.we) {
        ++r.writes;
        if (const MemLineReq* w = tb::expect_line_write(req, want, got, r.err)) {
          for (uint32_t d = 0; d < LINE_DWORDS; ++d) {
            if (req.wdata[d].data != w->wdata[d].data) {
              r.err = "write " + std::to_string(got) + " line " + bits::hex(static_cast<uint32_t>(w->addr)) + " dword " +
                      std::to_string(d) + ": " + bits::hex(static_cast<uint32_t>(req.wdata[d].data)) + ", model " +
                      bits::hex(static_cast<uint32_t>(w->wdata[d].data));
            }
          }
        }
        ++got;
      } else {
        ++r.reads;
        if (req.addr + LINE_BYTES <= src_lo || req.addr >= src_hi) r.err = "read of a line outside the source span";
      }
    }
    drv.edge();
    dram.clock(m.req_fire, req, m.rsp_fire);
    if (job_fire) {
      if (got != want.size()) {
        r.err = "previous job ended after " + std::to_string(got) + " of " + std::to_string(want.size()) + " writes";
      }
      const ResolvePkt& p = jobs[next];
      want.clear();
      model::resolve_lines(p, mem, [&](const MemLineReq& l) { want.push_back(l); });
      const uint64_t sbpp = model::resolve_src_bpp(static_cast<uint32_t>(p.fmt));
      src_lo = p.src + p.rect.y0 * p.src_pitch + p.rect.x0 * sbpp;
      src_hi = p.src + (p.rect.y1 - 1) * p.src_pitch + p.rect.x1 * sbpp;
      got = 0;
      ++next;
    }
    if (next > 0) ++r.cycles;
    if (tb::job_cycle_end(drv, dram, r.err, [&] { return desc(jobs[next - 1]); },
                          next == jobs.size() && dut.idle_o && !job_fire, [&] {
                            if (got == want.size()) return std::string();
                            return "last job ended after " + std::to_string(got) + " of " + std::to_string(want.size()) + " writes";
                          })) {
      return r;
    }
  }
  r.err = drv.no_progress_report("jobs " + std::to_string(next) + "/" + std::to_string(jobs.size()));
  return r;
}

// A random job in a fresh area: src span then dst span, disjoint.
ResolvePkt random_job(tb::PrimGen& g, uint32_t& area, uint32_t fmt) {
  ResolvePkt p;
  p.fmt = fmt;
  const uint32_t sbpp = model::resolve_src_bpp(fmt), dbpp = sbpp / 4;
  const uint32_t w = static_cast<uint32_t>(g.chance(0.25) ? g.range(1, 5) : g.range(1, 90));
  p.rect.x0 = static_cast<uint32_t>(g.chance(0.3) ? 0 : g.range(0, 37));
  p.rect.x1 = p.rect.x0 + w;
  p.rect.y0 = static_cast<uint32_t>(g.range(0, 3));
  p.rect.y1 = p.rect.y0 + static_cast<uint32_t>(g.chance(0.2) ? 1 : g.range(1, 9));
  const uint32_t smin = static_cast<uint32_t>(p.rect.x1) * sbpp;
  p.src_pitch = g.chance(0.3) ? ((smin + 63) & ~63u) + 64 * static_cast<uint32_t>(g.range(0, 1))
                              : smin + sbpp * static_cast<uint32_t>(g.range(0, 6));
  const uint32_t dmin = (static_cast<uint32_t>(p.rect.x1) * dbpp + 3) & ~3u;
  p.dst_pitch = g.chance(0.3) ? ((dmin + 63) & ~63u) : dmin + 4 * static_cast<uint32_t>(g.range(0, 20));
  p.src = area + sbpp * static_cast<uint32_t>(g.range(0, 64 / sbpp * 2));
  const uint32_t send = static_cast<uint32_t>(p.src + p.rect.y1 * p.src_pitch);
  p.dst = ((send + 3) & ~3u) + 4 * static_cast<uint32_t>(g.range(0, 40));
  area = (static_cast<uint32_t>(p.dst + p.rect.y1 * p.dst_pitch) + 256 + 63) & ~63u;
  return p;
}

void check_round(const std::vector<ResolvePkt>& jobs, uint64_t seed, RunConfig rc, const char* name, tb::PrimGen& g,
                 uint32_t area_end) {
  Memory base;
  for (uint32_t a = 0x10000; a < area_end + 512; a += 4) base.write32(a, static_cast<uint32_t>(g.bits64()));
  Memory want = base;
  for (const auto& p : jobs) model::resolve(p, want, want);
  Memory got = base;
  const Run r = run_jobs(got, jobs, seed, rc);
  INFO(name << ": " << r.err);
  REQUIRE(r.err.empty());
  tb::check_memory(want, got);
  std::printf("  resolve %s: %zu jobs, %llu line reads, %llu line writes, %llu cycles\n", name, jobs.size(),
              static_cast<unsigned long long>(r.reads), static_cast<unsigned long long>(r.writes),
              static_cast<unsigned long long>(r.cycles));
}

}  // namespace

TEST_CASE("resolve: random jobs of every format under latency, jitter and back-pressure") {
  const uint64_t seed = tb::announce_seed("rtl_resolve");
  tb::PrimGen g(seed);
  int idx = 0;
  for (const tb::MemRound& rd : tb::kMemRounds) {
    uint32_t area = 0x10000;
    std::vector<ResolvePkt> jobs;
    for (int k = 0; k < 24; ++k) jobs.push_back(random_job(g, area, static_cast<uint32_t>(k % 4)));
    check_round(jobs, seed + static_cast<uint64_t>(idx), RunConfig{tb::round_dram(rd), rd.stall}, rd.name, g, area);
    ++idx;
  }
}

TEST_CASE("resolve: directed edges: one pixel, one row, every alignment, narrow pitches") {
  const uint64_t seed = tb::announce_seed("rtl_resolve");
  tb::PrimGen g(seed + 1);
  std::vector<ResolvePkt> jobs;
  uint32_t area = 0x10000;
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    const uint32_t sbpp = model::resolve_src_bpp(fmt), dbpp = sbpp / 4;
    // Every source offset in the line and every destination dword offset, 1..9 pixels, 1..2 rows.
    for (uint32_t os = 0; os < 64; os += sbpp) {
      for (uint32_t od = 0; od < 64; od += 4 * (fmt == 3 ? 3 : 5)) {
        ResolvePkt p;
        p.fmt = fmt;
        p.rect.x0 = static_cast<uint32_t>(g.range(0, 3));
        p.rect.x1 = p.rect.x0 + g.range(1, 9);
        p.rect.y0 = 0;
        p.rect.y1 = g.range(1, 2);
        p.src_pitch = sbpp * (static_cast<uint32_t>(p.rect.x1) + static_cast<uint32_t>(g.range(0, 3)));
        p.dst_pitch = (static_cast<uint32_t>(p.rect.x1) * dbpp + 3) & ~3u;  // narrower than a line
        p.src = ((area + 63) & ~63u) + os;
        p.dst = ((static_cast<uint32_t>(p.src + p.rect.y1 * p.src_pitch) + 63) & ~63u) + od;
        area = static_cast<uint32_t>(p.dst + p.rect.y1 * p.dst_pitch) + 64;
        jobs.push_back(p);
      }
    }
    // A wide one crossing many lines, whole-line aligned.
    ResolvePkt p;
    p.fmt = fmt;
    p.rect.x0 = 0;
    p.rect.x1 = 67;
    p.rect.y0 = 1;
    p.rect.y1 = 4;
    p.src_pitch = 67 * sbpp;
    p.dst_pitch = (67 * dbpp + 63) & ~63u;
    p.src = (area + 63) & ~63u;
    p.dst = static_cast<uint32_t>(p.src + 4 * p.src_pitch + 64) & ~63u;
    area = static_cast<uint32_t>(p.dst + 4 * p.dst_pitch) + 64;
    jobs.push_back(p);
  }
  RunConfig rc;
  rc.dram.latency = 20;
  rc.dram.jitter = 10;
  rc.stall = 0.2;
  check_round(jobs, seed, rc, "directed", g, area);
}

namespace {
void rate(uint32_t fmt, uint32_t w, uint32_t h, uint32_t latency, double bw, uint64_t seed) {
  const uint32_t sbpp = model::resolve_src_bpp(fmt), dbpp = sbpp / 4;
  ResolvePkt p;
  p.fmt = fmt;
  p.rect.x1 = w;
  p.rect.y1 = h;
  p.src = 0x100000;
  p.src_pitch = w * sbpp;
  p.dst = 0x800000;
  p.dst_pitch = w * dbpp;
  Memory mem;
  for (uint32_t a = 0; a < w * h * sbpp; a += 4) mem.write32(p.src + a, a * 0x9E3779B1u);
  Memory want = mem;
  model::resolve(p, want, want);
  RunConfig rc;
  rc.dram.latency = latency;
  rc.dram.bytes_per_clock = bw;
  rc.offer = 1.0;
  const Run r = run_jobs(mem, {p}, seed, rc);
  REQUIRE(r.err.empty());
  CHECK_FALSE(want.first_difference(mem).has_value());
  const double src_bytes = static_cast<double>(w) * h * sbpp;
  std::printf("  resolve fmt %u %ux%u, latency %u, %.0f B/clk: %llu cycles, %.2f source lines/clk, %.1f source "
              "bytes/clk, %.2f px/clk (%llu reads, %llu writes; bound: %.2f requests/clk)\n",
              fmt, w, h, latency, bw, static_cast<unsigned long long>(r.cycles), src_bytes / 64 / r.cycles,
              src_bytes / r.cycles, static_cast<double>(w) * h / r.cycles, static_cast<unsigned long long>(r.reads),
              static_cast<unsigned long long>(r.writes), std::min(bw / 64, 1.0));
}
}  // namespace

TEST_CASE("resolve: rate of a 128x64 RGBA8 resolve") {
  const uint64_t seed = tb::announce_seed("rtl_resolve");
  rate(RT_FMT_RGBA8, 128, 64, 200, 32.0, seed);
}

TEST_CASE("resolve: rate bench", "[.bench]") {
  const uint64_t seed = tb::announce_seed("rtl_resolve");
  for (uint32_t fmt = 0; fmt < 4; ++fmt) rate(fmt, 256, 256, 200, 32.0, seed);
  rate(RT_FMT_RGBA8, 256, 256, 200, 64.0, seed);
  rate(RT_FMT_RGBA8, 256, 256, 200, 128.0, seed);
}
