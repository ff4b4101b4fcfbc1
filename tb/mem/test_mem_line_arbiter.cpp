// SPDX-License-Identifier: Apache-2.0
// rtl/mem/mem_line_arbiter.sv (5 clients, output register) against its definition
// (docs/contract.md §2.1): random line requests from every client (random gaps, held while
// stalled), a memory with random back-pressure answering in order after a random latency.
// Checked every cycle: each request reaches the memory once, in its client's order, unchanged
// but for src = the client's id; each response reaches exactly the client named by its src,
// unchanged; the memory port keeps the stream rule; no client waits while more than
// NumClients - 1 requests of others are granted (round robin, no starvation); and the grant and
// wait counters equal the handshakes counted here.
#define CATCH_CONFIG_MAIN
#include <deque>

#include "Vmem_line_arbiter.h"
#include "unit_test_main.h"
#include "vl_driver.h"

using namespace pineda;

namespace {

constexpr uint32_t kClients = 5;  // the module's default NumClients

struct Pattern {
  const char* name;
  double idle;      // chance a client without a request does not start one this cycle
  double mem_stall; // chance the memory withholds req_ready
  uint32_t max_lat;
};

MemLineReq random_req(tb::PrimGen& g) {
  MemLineReq r;
  r.we = g.chance(0.5);
  r.addr = g.bits64() & 0xffffffc0u;
  for (auto& d : r.wdata) d.data = g.bits64() & 0xffffffffu;
  r.be = r.we ? g.bits64() : 0;
  r.src = 0;
  r.tag = g.bits64() & 0xff;
  return r;
}

std::string run(const Pattern& p, uint64_t seed, uint64_t cycles) {
  tb::DriverConfig cfg;
  cfg.run = {std::string("mem_line_arbiter/") + p.name, seed, "build/tests/rtl_mem_line_arbiter --rng-seed " + std::to_string(seed)};
  tb::VlDriver<Vmem_line_arbiter> drv(cfg);
  auto& dut = drv.dut();
  tb::PrimGen g(seed);
  dut.req_valid_i = 0;
  dut.mem_req_ready_i = 0;
  dut.mem_rsp_valid_i = 0;
  dut.rsp_ready_i = (1u << kClients) - 1;
  drv.reset();

  std::array<bool, kClients> offering{};
  std::array<MemLineReq, kClients> cur{};
  std::array<std::deque<MemLineReq>, kClients> sent;  // granted, not yet seen at the memory
  std::array<uint64_t, kClients> grants{}, waits{}, others_while_waiting{};
  std::array<uint32_t, kClients> seen_rsp{};
  std::array<uint32_t, kClients> want_rsp{};
  struct Pend {
    uint64_t at;
    MemLineRsp rsp;
  };
  std::deque<Pend> pend;
  bool mem_stalled = false;
  MemLineReq mem_held;
  uint64_t last_at = 0;

  for (uint64_t cyc = 0; cyc < cycles; ++cyc) {
    // Clients: a new request with some chance; a pending one stays (stream rule).
    uint32_t valid = 0;
    std::array<uint32_t, (kClients * MemLineReq::WIDTH + 31) / 32> reqw{};
    for (uint32_t c = 0; c < kClients; ++c) {
      if (!offering[c] && !g.chance(p.idle)) {
        offering[c] = true;
        cur[c] = random_req(g);
      }
      if (offering[c]) valid |= 1u << c;
      cur[c].pack_at(reqw.data(), static_cast<int>(c) * MemLineReq::WIDTH);
    }
    dut.req_valid_i = valid;
    tb::words_to_sig(reqw.data(), dut.req_i);
    dut.mem_req_ready_i = !g.chance(p.mem_stall);
    const bool rsp_valid = !pend.empty() && pend.front().at <= cyc;
    dut.mem_rsp_valid_i = rsp_valid;
    tb::pack_sig(rsp_valid ? pend.front().rsp : MemLineRsp{}, dut.mem_rsp_i);
    drv.eval_low();

    // Memory port.
    const MemLineReq mreq = tb::unpack_sig<MemLineReq>(dut.mem_req_o);
    if (mem_stalled) {
      if (!dut.mem_req_valid_o) return "memory valid dropped while stalled";
      if (!(mreq.canonical().pack() == mem_held.canonical().pack())) return "memory payload changed while stalled";
    }
    const bool mem_fire = dut.mem_req_valid_o && dut.mem_req_ready_i;
    mem_stalled = dut.mem_req_valid_o && !dut.mem_req_ready_i;
    mem_held = mreq;
    if (mem_fire) {
      const uint32_t s = static_cast<uint32_t>(mreq.src);
      if (s >= kClients || sent[s].empty()) return "memory request with src " + std::to_string(s) + " nobody sent";
      MemLineReq want = sent[s].front();
      sent[s].pop_front();
      want.src = s;
      if (!(want.canonical().pack() == mreq.canonical().pack())) return "request of client " + std::to_string(s) + " changed";
      MemLineRsp r;
      r.we = mreq.we;
      for (uint32_t k = 0; k < LINE_DWORDS; ++k) r.rdata[k].data = mreq.we ? 0 : (static_cast<uint32_t>(mreq.addr) ^ (k * 0x9e3779b9u));
      r.src = mreq.src;
      r.tag = mreq.tag;
      last_at = std::max<uint64_t>(last_at, cyc + 1 + g.range(0, p.max_lat));
      pend.push_back({last_at, r});
      ++want_rsp[s];
    }
    // Responses: exactly the addressed client, unchanged.
    std::array<uint32_t, (kClients * MemLineRsp::WIDTH + 31) / 32> rspw{};
    tb::sig_to_words(dut.rsp_o, rspw.data());
    for (uint32_t c = 0; c < kClients; ++c) {
      const bool v = (dut.rsp_valid_o >> c) & 1u;
      const bool mine = rsp_valid && pend.front().rsp.src == c;
      if (v != mine) return "response valid of client " + std::to_string(c) + " wrong";
      if (v) {
        MemLineRsp got;
        got.unpack_at(rspw.data(), static_cast<int>(c) * MemLineRsp::WIDTH);
        if (!(got.canonical().pack() == pend.front().rsp.canonical().pack())) return "response payload changed";
        ++seen_rsp[c];
      }
    }
    if (rsp_valid && !dut.mem_rsp_ready_o) return "memory response not taken";
    // Client handshakes, fairness.
    uint32_t granted = 0;
    for (uint32_t c = 0; c < kClients; ++c) {
      if (!offering[c]) continue;
      if ((dut.req_ready_o >> c) & 1u) {
        ++granted;
        ++grants[c];
        sent[c].push_back(cur[c]);
        offering[c] = false;
        others_while_waiting[c] = 0;
      } else {
        ++waits[c];
      }
    }
    if (granted > 1) return "two clients granted in one cycle";
    for (uint32_t c = 0; c < kClients; ++c) {
      if (!offering[c] || (valid >> c & 1u) == 0) continue;
      if (granted && !((dut.req_ready_o >> c) & 1u)) {
        if (++others_while_waiting[c] > kClients - 1) {
          return "client " + std::to_string(c) + " starved: " + std::to_string(others_while_waiting[c]) +
                 " grants to others while it waited";
        }
      }
    }
    drv.edge();
    if (rsp_valid) pend.pop_front();
    if (drv.failed()) return drv.assertion_report();
  }
  // Counters.
  for (uint32_t c = 0; c < kClients; ++c) {
    if (dut.grants_o[c] != static_cast<uint32_t>(grants[c])) return "grant counter of client " + std::to_string(c);
    if (dut.waits_o[c] != static_cast<uint32_t>(waits[c])) return "wait counter of client " + std::to_string(c);
    if (grants[c] == 0) return "client " + std::to_string(c) + " never granted";
  }
  std::printf("  %s: grants", p.name);
  for (uint32_t c = 0; c < kClients; ++c) std::printf(" %llu", static_cast<unsigned long long>(grants[c]));
  std::printf(", waits");
  for (uint32_t c = 0; c < kClients; ++c) std::printf(" %llu", static_cast<unsigned long long>(waits[c]));
  std::printf(", responses");
  for (uint32_t c = 0; c < kClients; ++c) std::printf(" %u", seen_rsp[c]);
  std::printf("\n");
  return "";
}

}  // namespace

TEST_CASE("mem_line_arbiter: order, routing, stream rule, round robin, counters") {
  const uint64_t seed = tb::announce_seed("rtl_mem_line_arbiter");
  const Pattern patterns[] = {
      {"all-busy", 0.0, 0.0, 3},      // every client always requesting, memory always ready
      {"all-busy-stalled", 0.0, 0.5, 40},
      {"sparse", 0.7, 0.2, 200},
      {"bursty", 0.3, 0.8, 10},
  };
  uint64_t k = 0;
  for (const auto& p : patterns) {
    const std::string err = run(p, seed + k++, 20000);
    INFO(p.name << ": " << err);
    CHECK(err.empty());
  }
}
