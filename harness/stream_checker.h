// SPDX-License-Identifier: Apache-2.0
// Compares the packets crossing one RTL stream boundary with the model's stream for it, in
// order, and formats a mismatch report a person can act on: test, seed, cycle, boundary,
// packet index, triangle / tile / pixel, `field expected=… actual=…`, the last transfers, and
// the command that dumps the waveform window around the failure.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "pineda_contract.h"

namespace pineda::tb {

// Identifies a run for reports and for the replay command.
struct RunId {
  std::string test;
  uint64_t seed = 0;
  std::string replay;  // e.g. "make waves TEST=grid_mesh SEED=7" (window appended)
};

// Where a packet belongs: triangle, tile, pixel. Overloads per packet type.
inline std::string locate(const DrawPkt& p) { return "draw_id=" + std::to_string(p.draw_id); }
inline std::string locate(const TriPkt& p) { return "tri_id=" + std::to_string(p.tri_id); }
inline std::string locate(const SetupPkt& p) {
  return "tri_id=" + std::to_string(p.tri_id) + " first_tile=(" + std::to_string(p.tiles.x0) + "," +
         std::to_string(p.tiles.y0) + ")";
}
inline std::string locate(const TilePkt& p) {
  const uint64_t n = p.target.msaa ? 4 : 8;  // pixels per raster-tile edge
  return "tri_id=" + std::to_string(p.tri_id) + " tile=(" + std::to_string(p.tx) + "," +
         std::to_string(p.ty) + ") pixels=(" + std::to_string(p.tx * n) + ".." +
         std::to_string(p.tx * n + n - 1) + "," + std::to_string(p.ty * n) + ".." +
         std::to_string(p.ty * n + n - 1) + ")";
}
inline std::string locate(const QuadPkt& p) {
  return "tri_id=" + std::to_string(p.tri_id) + " quad=(" + std::to_string(p.qx) + "," +
         std::to_string(p.qy) + ") pixels=(" + std::to_string(p.qx * 2) + ".." +
         std::to_string(p.qx * 2 + 1) + "," + std::to_string(p.qy * 2) + ".." +
         std::to_string(p.qy * 2 + 1) + ")";
}
inline std::string locate(const IndexPkt& p) {
  return "draw_id=" + std::to_string(p.draw_id) + " instance=" + std::to_string(p.inst_id);
}
inline std::string locate(const VFetchPkt& p) {
  return "draw_id=" + std::to_string(p.draw_id) + " index=" + std::to_string(p.index) + " slot=" +
         std::to_string(p.slot);
}
inline std::string locate(const PrimPkt& p) {
  return "prim_id=" + std::to_string(p.prim_id) + " draw_id=" + std::to_string(p.draw_id);
}
inline std::string locate(const VtxInPkt& p) {
  return "kind=" + std::to_string(p.kind) + " slot=" + std::to_string(p.vtx_id & 31u) +
         ((p.vtx_id >> 5) & 1u ? " (first of batch)" : "");
}
inline std::string locate(const IDrawPkt& p) {
  if (p.wr) return "state write FE[" + std::to_string(p.wr_idx) + "]";
  return "draw_id=" + std::to_string(p.draw_id);
}
inline std::string locate(const ClipVtxPkt& p) {
  return "slot=" + std::to_string(p.vtx_id & 31u) + ((p.vtx_id >> 5) & 1u ? " (first of batch)" : "");
}
inline std::string locate(const MemLineReq& p) {
  return std::string(p.we ? "line write" : "line read") + " addr=" + bits::hex(p.addr) + " be=" + bits::hex(p.be);
}
inline std::string locate(const InterpPkt& p) { return locate(p.quad); }
inline std::string locate(const TexOutPkt& p) {
  return "tag=" + std::to_string(p.tag) + " live=" + std::to_string(p.live) + (p.eop ? " (token)" : "");
}
inline std::string locate(const PaTriPkt& p) {
  return "tri_id=" + std::to_string(p.tri_id) + " prim_id=" + std::to_string(p.prim_id);
}

template <class Pkt>
class StreamChecker {
 public:
  using Locator = std::function<std::string(const Pkt&)>;

  StreamChecker(std::string boundary, const std::vector<Pkt>* expected, RunId run,
                Locator extra = nullptr)
      : boundary_(std::move(boundary)), expected_(expected), run_(std::move(run)),
        extra_(std::move(extra)) {}

  // Called on every transfer. Returns false (and fills `report`) on the first mismatch.
  bool on_transfer(const Pkt& actual, uint64_t cycle, std::string& report) {
    const size_t idx = count_++;
    bool ok = true;
    std::ostringstream os;
    if (expected_ && idx >= expected_->size()) {
      header(os, cycle, idx, actual);
      os << "  the RTL sent an extra packet: the model sent only " << expected_->size() << "\n"
         << "  actual " << actual.str() << "\n";
      ok = false;
    } else if (expected_) {
      const Pkt& exp = (*expected_)[idx];
      std::vector<FieldDiff> d;
      exp.diff(actual, "", d);
      if (!d.empty()) {
        header(os, cycle, idx, exp);
        for (const auto& f : d) {
          os << "  " << f.field << " expected=" << f.expected_hex << " (" << f.expected_dec
             << ") actual=" << f.actual_hex << " (" << f.actual_dec << ")\n";
        }
        ok = false;
      }
    }
    if (!ok) {
      os << "  last transfers on " << boundary_ << ":\n";
      size_t k = idx - history_.size();
      for (const auto& h : history_) os << "    #" << k++ << " " << h.str() << "\n";
      os << "    #" << idx << " " << actual.str() << "  <-- this one\n";
      const uint64_t from = cycle > 200 ? cycle - 200 : 0;
      os << "  waveform: " << run_.replay << " WAVE_FROM=" << from << " WAVE_TO=" << cycle + 20
         << "\n";
      report = os.str();
    }
    history_.push_back(actual);
    if (history_.size() > 4) history_.pop_front();
    return ok;
  }

  // At the end of a run: every expected packet must have been seen.
  bool finish(std::string& report) const {
    if (!expected_ || count_ == expected_->size()) return true;
    std::ostringstream os;
    os << "MISMATCH test=" << run_.test << " seed=" << run_.seed << " boundary=" << boundary_
       << ": the RTL sent " << count_ << " packets, the model " << expected_->size() << "\n";
    if (count_ < expected_->size()) {
      os << "  first missing #" << count_ << " (" << locate((*expected_)[count_]) << ") "
         << (*expected_)[count_].str() << "\n";
    }
    os << "  waveform: " << run_.replay << "\n";
    report = os.str();
    return false;
  }

  size_t count() const { return count_; }
  const std::string& boundary() const { return boundary_; }

 private:
  void header(std::ostringstream& os, uint64_t cycle, size_t idx, const Pkt& where) const {
    os << "MISMATCH test=" << run_.test << " seed=" << run_.seed << " cycle=" << cycle
       << " boundary=" << boundary_ << " packet=#" << idx << " (" << locate(where);
    if (extra_) os << " " << extra_(where);
    os << ")\n";
  }

  std::string boundary_;
  const std::vector<Pkt>* expected_;
  RunId run_;
  Locator extra_;
  size_t count_ = 0;
  std::deque<Pkt> history_;
};

}  // namespace pineda::tb
