// SPDX-License-Identifier: Apache-2.0
#include "dram_model.h"

#include <algorithm>

namespace pineda::tb {

DramModel::DramModel(Memory& mem, const DramConfig& cfg) : mem_(mem), cfg_(cfg), rng_(cfg.seed) {}

bool DramModel::req_ready() const {
  return pending_.size() < cfg_.max_outstanding && tokens_ >= 1.0;
}

bool DramModel::rsp_valid() const {
  return !pending_.empty() && pending_.front().ready_at <= cycle_;
}

const MemRsp& DramModel::rsp() const {
  static const MemRsp kIdle{};
  return pending_.empty() ? kIdle : pending_.front().rsp;
}

void DramModel::clock(bool req_fire, const MemReq& req, bool rsp_fire) {
  if (rsp_fire && !pending_.empty()) {
    if (pending_.front().rsp.we) --outstanding_writes_;
    pending_.pop_front();
  }
  if (req_fire) {
    tokens_ -= 1.0;
    MemRsp r;
    r.we = req.we;
    r.tag = req.tag;
    const uint32_t addr = static_cast<uint32_t>(req.addr) & ~3u;
    if (req.we) {
      mem_.write32(addr, static_cast<uint32_t>(req.wdata), static_cast<uint32_t>(req.be));
      ++writes_;
      ++outstanding_writes_;
    } else {
      r.rdata = mem_.read32(addr);
      ++reads_;
    }
    uint64_t lat = cfg_.latency;
    if (cfg_.jitter) lat += rng_() % (static_cast<uint64_t>(cfg_.jitter) + 1);
    // In order: never earlier than the previous response.
    const uint64_t ready_at = std::max(cycle_ + std::max<uint64_t>(lat, 1), last_ready_at_);
    last_ready_at_ = ready_at;
    pending_.push_back({ready_at, r});
  }
  ++cycle_;
  tokens_ = std::min(tokens_ + cfg_.bandwidth, std::max(1.0, cfg_.bandwidth));
}

}  // namespace pineda::tb
