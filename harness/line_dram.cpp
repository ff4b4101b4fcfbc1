// SPDX-License-Identifier: Apache-2.0
#include "line_dram.h"

#include <algorithm>
#include <stdexcept>

namespace pineda::tb {

uint64_t LineDramStats::total_bytes() const {
  uint64_t n = 0;
  for (const auto& c : client) n += c.bytes_read + c.bytes_written;
  return n;
}

LineDram::LineDram(Memory& mem, const LineDramConfig& cfg)
    : mem_(mem), cfg_(cfg), rng_(cfg.seed), tokens_(static_cast<double>(LINE_BYTES)) {
  if (!(cfg_.bytes_per_clock > 0.0)) throw std::invalid_argument("LineDram: bytes_per_clock must be > 0");
  if (cfg_.max_outstanding == 0) throw std::invalid_argument("LineDram: max_outstanding must be > 0");
}

bool LineDram::req_ready() const {
  return pending_.size() < cfg_.max_outstanding && tokens_ >= static_cast<double>(LINE_BYTES);
}

bool LineDram::rsp_valid() const {
  return !pending_.empty() && pending_.front().ready_at <= stats_.cycles;
}

const MemLineRsp& LineDram::rsp() const {
  static const MemLineRsp kIdle{};
  return pending_.empty() ? kIdle : pending_.front().rsp;
}

void LineDram::clock(bool req_fire, const MemLineReq& req, bool rsp_fire) {
  if (rsp_fire && !pending_.empty()) {
    if (pending_.front().rsp.we) --outstanding_writes_;
    pending_.pop_front();
  }
  if (req_fire) {
    tokens_ -= static_cast<double>(LINE_BYTES);
    ++stats_.busy_cycles;
    MemLineRsp r;
    r.we = req.we;
    r.src = req.src;
    r.tag = req.tag;
    const uint32_t base = static_cast<uint32_t>(req.addr) & ~(LINE_BYTES - 1u);
    LineDramClientStats& cs = stats_.client[req.src % MEM_LINE_CLIENTS_MAX];
    if (req.we) {
      for (uint32_t k = 0; k < LINE_DWORDS; ++k) {
        const uint32_t be = static_cast<uint32_t>(req.be >> (4 * k)) & 0xFu;
        if (be) mem_.write32(base + 4 * k, static_cast<uint32_t>(req.wdata[k].data), be);
      }
      for (uint64_t b = req.be; b; b &= b - 1) ++cs.bytes_enabled;
      ++cs.writes;
      cs.bytes_written += LINE_BYTES;
      ++outstanding_writes_;
    } else {
      for (uint32_t k = 0; k < LINE_DWORDS; ++k) r.rdata[k].data = mem_.read32(base + 4 * k);
      ++cs.reads;
      cs.bytes_read += LINE_BYTES;
    }
    uint64_t lat = cfg_.latency;
    if (cfg_.jitter) lat += rng_() % (static_cast<uint64_t>(cfg_.jitter) + 1);
    // In order: never earlier than the previous response.
    const uint64_t ready_at = std::max(stats_.cycles + std::max<uint64_t>(lat, 1), last_ready_at_);
    last_ready_at_ = ready_at;
    pending_.push_back({ready_at, r});
  }
  ++stats_.cycles;
  // The bucket holds at most one line beyond a clock's refill, so idle clocks do not bank bursts.
  tokens_ = std::min(tokens_ + cfg_.bytes_per_clock,
                     std::max(static_cast<double>(LINE_BYTES), cfg_.bytes_per_clock));
}

}  // namespace pineda::tb
