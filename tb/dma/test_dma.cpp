// SPDX-License-Identifier: Apache-2.0
// RTL vs model: DMA copy engine (rtl/dma/dma.sv vs cpp_model/dma/dma). Random copy jobs (every
// source/destination alignment, lengths 0..300 and a few long ones) through the DRAM model with
// random latency and back-pressure; after each job has finished (idle_o) the whole memory must
// equal the model's, the unit must have written only inside the destination, and no write may be
// unacknowledged. Also reports the copy rate.
#define CATCH_CONFIG_MAIN
#include "Vdma.h"
#include "dma/dma.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct DmaRun {
  uint64_t cycles = 0;
  std::string err;
};

DmaRun run_jobs(Memory& mem, const std::vector<model::CopyJob>& jobs, uint64_t seed, tb::DramConfig dc) {
  DmaRun r;
  tb::DriverConfig cfg;
  cfg.run = {"dma", seed, "build/tests/rtl_dma --rng-seed " + std::to_string(seed)};
  tb::VlDriver<Vdma> drv(cfg);
  Vdma& dut = drv.dut();
  dc.seed = seed;
  tb::DramModel dram(mem, dc);
  dut.job_valid_i = 0;
  drv.reset();
  size_t next = 0;
  bool started = false;
  while (!drv.stalled()) {
    dut.job_valid_i = 0;
    if (next < jobs.size() && dut.idle_o) {  // job_ready_o = idle_o
      dut.job_valid_i = 1;
      dut.job_src_i = jobs[next].src;
      dut.job_dst_i = jobs[next].dst;
      dut.job_len_i = jobs[next].len;
    }
    dut.mem_req_ready_i = dram.req_ready();
    dut.mem_rsp_valid_i = dram.rsp_valid();
    tb::pack_sig(dram.rsp(), dut.mem_rsp_i);
    drv.eval_low();
    const bool job_fire = dut.job_valid_i && dut.job_ready_o;
    const bool req_fire = dut.mem_req_valid_o && dut.mem_req_ready_i;
    const bool rsp_fire = dut.mem_rsp_valid_i && dut.mem_rsp_ready_o;
    const MemReq req = tb::unpack_sig<MemReq>(dut.mem_req_o);
    if (job_fire || req_fire || rsp_fire) drv.progress();
    if (req_fire && req.we) {
      const model::CopyJob& j = jobs[next - (job_fire ? 0 : 1)];
      const uint32_t off = static_cast<uint32_t>(req.addr) - (j.dst & ~3u);
      if (off >= ((j.dst & 3u) + j.len + 3) / 4 * 4) r.err = "write outside the destination at " + bits::hex(static_cast<uint32_t>(req.addr));
    }
    drv.edge();
    dram.clock(req_fire, req, rsp_fire);
    if (job_fire) {
      ++next;
      started = true;
    }
    if (started) ++r.cycles;
    if (drv.failed()) r.err = drv.assertion_report();
    if (!r.err.empty()) return r;
    if (next == jobs.size() && dut.idle_o && !job_fire) {
      if (dram.outstanding_writes() != 0) r.err = "idle with writes unacknowledged";
      return r;
    }
  }
  r.err = drv.no_progress_report("jobs " + std::to_string(next) + "/" + std::to_string(jobs.size()));
  return r;
}

}  // namespace

TEST_CASE("dma: random copies, every alignment, RTL memory == model memory") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  tb::PrimGen g(seed);
  for (int round = 0; round < 3; ++round) {
    Memory base;
    for (uint32_t i = 0; i < 8192; ++i) base.write8(0x10000 + i, static_cast<uint8_t>(g.bits64()));
    std::vector<model::CopyJob> jobs;
    uint32_t dst = 0x40000;
    for (int k = 0; k < 40; ++k) {
      const uint32_t len = g.chance(0.1) ? static_cast<uint32_t>(g.range(1000, 3000)) : static_cast<uint32_t>(g.range(0, 300));
      const uint32_t src = 0x10000 + static_cast<uint32_t>(g.range(0, 8192 - 3000));
      dst += static_cast<uint32_t>(g.range(0, 7));
      jobs.push_back({src, dst, len, 0});
      dst += len + 16;
    }
    Memory want = base;
    model::Dma dma;
    for (const auto& j : jobs) dma.copy(j, want);
    tb::DramConfig dc;
    dc.latency = round == 0 ? 200 : 50;
    dc.jitter = round == 2 ? 300 : 0;
    dc.bandwidth = round == 1 ? 0.5 : 1.0;
    Memory got = base;
    const DmaRun r = run_jobs(got, jobs, seed + round, dc);
    INFO("round " << round << ": " << r.err);
    REQUIRE(r.err.empty());
    const auto d = want.first_difference(got);
    INFO("first difference at " << (d ? bits::hex(*d) : std::string("-")));
    CHECK_FALSE(d.has_value());
    std::printf("  dma round %d (latency %u, jitter %u, bandwidth %.1f): %zu jobs, %.0f bytes, %llu cycles\n", round,
                dc.latency, dc.jitter, dc.bandwidth, jobs.size(), static_cast<double>(dma.bytes_copied()),
                static_cast<unsigned long long>(r.cycles));
  }
}

TEST_CASE("dma: copy rate on one long copy") {
  const uint64_t seed = tb::announce_seed("rtl_dma");
  for (const uint32_t lat : {200u, 800u}) {
    Memory mem;
    for (uint32_t i = 0; i < 65536; ++i) mem.write8(0x100001 + i, static_cast<uint8_t>(i * 13));
    tb::DramConfig dc;
    dc.latency = lat;
    const DmaRun r = run_jobs(mem, {{0x100001, 0x300002, 65536, 0}}, seed, dc);
    REQUIRE(r.err.empty());
    for (uint32_t i = 0; i < 65536; i += 997) CHECK(mem.read8(0x300002 + i) == static_cast<uint8_t>(i * 13));
    std::printf("  dma: 65536 bytes at latency %u: %llu cycles, %.3f bytes/clock\n", lat,
                static_cast<unsigned long long>(r.cycles), 65536.0 / static_cast<double>(r.cycles));
  }
}
