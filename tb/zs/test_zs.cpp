// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the depth/stencil unit (rtl/zs/zs.sv vs cpp_model/zs). Checked: every output quad
// in order (mask after the tests, z zeroed where failed, dropped quads, tokens), the whole memory
// after every flush_i against the model's, and at every token leaving ZS that each dword the model
// wrote before it (and does not write again later) already holds its value in memory (watched
// when it happens, so a token that overtakes its depth writes fails). Fast clears (clear_i) are
// offered between quads once ZS is quiet, as the CP does; their dwords count as written before the
// next token too (a token leaves only once the cleared lines are in memory). The line port is
// tb::LineDram (bandwidth, latency, jitter); input gaps and output back-pressure are random.
//
// Two ports (zs.sv's default LatePort = 1, docs/comb.md section 5): the early output goes through
// a pixel path stand-in (in order, random latency and capacity, random back-pressure) to the
// late input, and the late output is the unit's result. The pixel path is INTERP + TEX + COMB
// as far as ZS sees them: quad.it = 0, colour and coordinates made up from the quad (a hash), the
// alpha kill (a hash of the quad, `kill_rate`) clearing whole pixels, an emptied quad dropped
// unless it is late-Z (that one reaches the late port, which drops it and counts it down; with
// the "light" stall pattern the stand-in drops it too, and ZS resynchronises its count of late
// quads in flight when the path is empty, path_idle_i).
// Both outputs are compared with the model's ports in sequential order (Zs::early, Zs::late).
#define CATCH_CONFIG_MAIN
#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "Vzs.h"
#include "line_dram.h"
#include "unit_test_main.h"
#include "zs/zs.h"

using namespace pineda;

namespace {

struct ZsCase {
  std::vector<std::vector<QuadPkt>> segments;  // flush_i after each
  Memory init;                                 // initial depth-stencil contents
  // Before segment s (after the previous flush): dword writes behind ZS (a DMA clear fill, a
  // COPY, the host), which ZS must not hide behind lines it cached before the flush.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> pokes;
  // Per segment: fast clears offered before quad #first (first == size: after the last quad).
  std::vector<std::vector<std::pair<size_t, ClearPkt>>> clears;
  double kill_rate = 0.0;  // share of quads the pixel path's alpha test kills pixels of
  uint64_t kill_seed = 0;
};

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb93e5ca9d24bULL;
  return x ^ (x >> 33);
}

// The pixel path as ZS sees it (see the header): the packet that reaches the late port, or
// nothing when COMB drops it.
std::optional<InterpPkt> pixel_path(const QuadPkt& q, const ZsCase& c) {
  InterpPkt p;
  p.quad = q;
  p.quad.it = InterpTri{};
  if (q.eop) return p;
  const uint64_t h = mix(c.kill_seed ^ mix((static_cast<uint64_t>(q.tri_id) << 32) ^ (q.qx << 16) ^ q.qy));
  for (int k = 0; k < 4; ++k) {
    p.pcolor[k].data = mix(h + 1 + k) & 0xFFFFFFFFu;
    p.uv0[k].u = mix(h + 11 + k) & 0xFFFFFFFFu;
    p.uv0[k].v = mix(h + 21 + k) & 0xFFFFFFFFu;
    p.uv1[k].u = mix(h + 31 + k) & 0xFFFFFFFFu;
    p.uv1[k].v = mix(h + 41 + k) & 0xFFFFFFFFu;
  }
  const bool kill = static_cast<double>(h % 1000) < c.kill_rate * 1000.0;
  if (kill) p.quad = model::Zs::pixel_stage(p.quad, static_cast<uint32_t>(h >> 20) & 0xFu);
  if (p.quad.mask == 0 && !model::Zs::late_quad(q)) return std::nullopt;
  return p;
}

// The dwords a depth/stencil clear writes and their new values (model::Zs::clear's addresses).
std::map<uint32_t, uint32_t> clear_dwords(const ClearPkt& c, const Memory& mem) {
  std::map<uint32_t, uint32_t> out;
  const uint32_t mask = (c.depth ? 0x00FFFFFFu : 0u) | (c.stencil ? 0xFF000000u : 0u);
  const uint32_t base = static_cast<uint32_t>(c.target.base) & ~63u;
  const uint32_t pitch = static_cast<uint32_t>(c.target.pitch) & ~63u;
  const uint32_t spp = c.target.msaa ? 4u : 1u;
  for (uint32_t y = static_cast<uint32_t>(c.rect.y0); y < c.rect.y1; ++y) {
    for (uint32_t x = static_cast<uint32_t>(c.rect.x0); x < c.rect.x1; ++x) {
      for (uint32_t k = 0; k < spp; ++k) {
        const uint32_t a = base + y * pitch + x * 4u * spp + k * 4u;
        out[a] = (mem.read32(a) & ~mask) | (static_cast<uint32_t>(c.value) & mask);
      }
    }
  }
  return out;
}

struct Expect {
  std::vector<InterpPkt> out;      // the late output (towards PW)
  std::vector<QuadPkt> early_out;  // the early output (towards INTERP)
  std::vector<std::map<uint32_t, uint32_t>> tokens;  // per token: dwords to hold at its output
  std::vector<Memory> flushes;                       // memory after each segment
};

Expect expect(const ZsCase& c) {
  Expect e;
  Memory mem = c.init;
  model::Zs zs;
  // Dwords written before each token, then those written again after it are dropped.
  std::vector<std::map<uint32_t, uint32_t>> since(1);
  std::vector<std::set<uint32_t>> later;  // per token, dwords written after it
  for (size_t si = 0; si < c.segments.size(); ++si) {
    const auto& seg = c.segments[si];
    if (si < c.pokes.size()) {
      for (const auto& [a, v] : c.pokes[si]) {
        mem.write32(a, v);
        since.back().erase(a);  // not ZS's write
      }
    }
    const auto no_clears = std::vector<std::pair<size_t, ClearPkt>>{};
    const auto& clears = si < c.clears.size() ? c.clears[si] : no_clears;
    size_t ci = 0;
    const auto apply_clears = [&](size_t pos) {
      for (; ci < clears.size() && clears[ci].first == pos; ++ci) {
        const ClearPkt& cp = clears[ci].second;
        for (const auto& [a, v] : clear_dwords(cp, mem)) {
          since.back()[a] = v;
          for (auto& t : e.tokens) t.erase(a);
        }
        zs.clear(cp, mem);
      }
    };
    for (size_t qi = 0; qi <= seg.size(); ++qi) {
      apply_clears(qi);
      if (qi == seg.size()) break;
      const QuadPkt& q = seg[qi];
      if (q.eop) {
        e.tokens.push_back(since.back());
        since.emplace_back();
      }
      std::map<uint32_t, uint32_t> before;
      if (model::Zs::active(q)) {
        for (int b = 0; b < 16; ++b) {
          if ((q.mask >> b) & 1u) {
            const uint32_t a = model::Zs::sample_addr(q, b) & ~3u;
            before[a] = mem.read32(a);
          }
        }
      }
      if (auto eo = zs.early(q, mem)) {
        e.early_out.push_back(*eo);
        if (auto p = pixel_path(*eo, c)) {
          if (auto lo = zs.late(*p, mem)) e.out.push_back(*lo);
        }
      }
      for (const auto& [a, v] : before) {
        const uint32_t nv = mem.read32(a);
        if (nv != v) since.back()[a] = nv;
        if (nv != v) {
          for (auto& t : e.tokens) t.erase(a);  // written again after earlier tokens: not checked
        }
      }
    }
    e.flushes.push_back(mem);
  }
  return e;
}

struct BenchCfg {
  uint64_t seed = 1;
  double in_gap = 0.0, out_stall = 0.0;
  // the pixel path: latency base + [0, jitter] per quad (in order), capacity, back-pressure on
  // the early output, gaps on the late input
  uint32_t path_lat = 4, path_jit = 0;
  size_t path_cap = 64;
  double path_stall = 0.0, late_gap = 0.0;
  // COMB drops a late-Z quad its kill emptied (instead of passing it to the late port): ZS's
  // count of late quads in flight then stays high until path_idle_i resynchronises it.
  bool drop_empty_late = false;
  tb::LineDramConfig dram{};
  std::string test;
};

struct BenchResult {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
  uint64_t first_cycles = 0;  // to the last output of the first segment
  std::vector<uint64_t> out_cycles;  // cycle of each output packet
  tb::LineDramStats stats{};
};

BenchResult run_zs(const ZsCase& c, const Expect& e, const BenchCfg& cfg) {
  BenchResult res;
  tb::VlDriver<Vzs> drv(tb::unit_driver_config(cfg.test, cfg.seed, "build/tests/rtl_zs", 20'000));
  Vzs& dut = drv.dut();
  Memory mem = c.init;
  tb::LineDram dram(mem, tb::unit_dram_config(cfg.dram, cfg.seed));
  tb::StreamSink<InterpPkt> sink("zs_late_out", e.out, drv.run(), cfg.out_stall);
  tb::StreamSink<QuadPkt> esink("zs_out", e.early_out, drv.run(), 0.0);
  std::deque<std::pair<InterpPkt, uint64_t>> path;  // the pixel path: packet, cycle it may leave
  uint64_t path_last = 0;
  bool late_offer = false;
  tb::idle_ports(dut);
  dut.late_in_valid_i = 0;
  dut.late_out_ready_i = 0;
  dut.path_idle_i = 1;
  dut.flush_i = 0;
  dut.clear_valid_i = 0;
  drv.reset();

  size_t seg = 0, tok = 0, ci = 0;
  bool flushing = false, clr_offer = false;
  const auto no_clears = std::vector<std::pair<size_t, ClearPkt>>{};
  const auto seg_clears = [&]() -> const std::vector<std::pair<size_t, ClearPkt>>& {
    return seg < c.clears.size() ? c.clears[seg] : no_clears;
  };
  std::unique_ptr<tb::StreamSource<QuadPkt>> src;
  if (!c.segments.empty()) src = std::make_unique<tb::StreamSource<QuadPkt>>(c.segments[0], cfg.in_gap);
  while (true) {
    // A clear waits for its place in the stream and for ZS to be quiet (the CP waits for the
    // pipe to be idle), then is offered until taken.
    const bool clr_due = seg < c.segments.size() && ci < seg_clears().size() && src->taken() == seg_clears()[ci].first;
    if (clr_due && dut.quiet_o && path.empty()) clr_offer = true;
    dut.clear_valid_i = clr_offer;
    if (clr_due) tb::pack_sig(seg_clears()[ci].second, dut.clear_i);
    if (seg < c.segments.size() && !clr_due) {
      src->drive(drv.rng(), dut.in_valid_i, dut.in_i);
    } else {
      dut.in_valid_i = 0;
    }
    dut.flush_i = flushing;
    dut.out_ready_i = path.size() < cfg.path_cap && !tb::chance(drv.rng(), cfg.path_stall);
    if (!late_offer && !path.empty() && path.front().second <= drv.cycle() && !tb::chance(drv.rng(), cfg.late_gap)) {
      late_offer = true;
    }
    dut.late_in_valid_i = late_offer;
    dut.path_idle_i = path.empty();
    if (late_offer) tb::pack_sig(path.front().first, dut.late_in_i);
    dut.late_out_ready_i = sink.ready(drv.rng());
    dut.mem_req_ready_i = dram.req_ready();
    dut.mem_rsp_valid_i = dram.rsp_valid();
    tb::pack_sig(dram.rsp(), dut.mem_rsp_i);
    drv.eval_low();

    std::string rep;
    const bool in_fire = seg < c.segments.size() && !clr_due && src->fire(dut.in_ready_o);
    const bool clr_fire = clr_offer && dut.clear_ready_o;
    const bool req_fire = dut.mem_req_valid_o && dut.mem_req_ready_i;
    const bool rsp_fire = dut.mem_rsp_valid_i && dut.mem_rsp_ready_o;
    const MemLineReq req = tb::unpack_sig<MemLineReq>(dut.mem_req_o);
    const bool late_in_fire = late_offer && dut.late_in_ready_o;
    bool out_fire = false, early_fire = false;
    bool bad = !esink.take(dut.out_valid_o, dut.out_ready_i, dut.out_o, drv.cycle(), rep, &early_fire);
    if (!bad) bad = !sink.take(dut.late_out_valid_o, dut.late_out_ready_i, dut.late_out_o, drv.cycle(), rep, &out_fire);
    if (!bad && early_fire) {
      auto p = pixel_path(tb::unpack_sig<QuadPkt>(dut.out_o), c);
      if (p && cfg.drop_empty_late && !p->quad.eop && p->quad.mask == 0) p.reset();
      if (p) {
        const uint64_t lat = cfg.path_lat + (cfg.path_jit ? drv.rng()() % (cfg.path_jit + 1) : 0);
        path_last = std::max(path_last, drv.cycle() + lat);
        path.emplace_back(*p, path_last);
      }
    }
    if (late_in_fire) {
      path.pop_front();
      late_offer = false;
    }
    if (out_fire) res.out_cycles.push_back(drv.cycle());
    if (!bad && out_fire && tb::unpack_sig<InterpPkt>(dut.late_out_o).quad.eop) {
      if (tok >= e.tokens.size()) {
        bad = true;
        rep = drv.head("EOP ORDER") + ": a token too many\n";
      } else {
        for (const auto& [a, v] : e.tokens[tok]) {
          if (mem.read32(a) != v) {
            bad = true;
            rep = drv.head("EOP ORDER") + ": token #" + std::to_string(tok) + " left ZS but dword " + bits::hex(a) +
                  " is " + bits::hex(mem.read32(a)) + ", expected " + bits::hex(v) + "\n";
            break;
          }
        }
        if (!bad && dram.outstanding_writes() != 0) {
          bad = true;
          rep = drv.head("EOP ORDER") + ": token #" + std::to_string(tok) + " with line writes unacknowledged\n";
        }
      }
      ++tok;
    }
    if (!bad && flushing && dut.clean_o && dut.quiet_o && dram.outstanding() == 0 && mem != e.flushes[seg]) {
      const uint32_t a = *mem.first_difference(e.flushes[seg]);
      bad = true;
      rep = drv.head("FLUSH") + ": clean after flush #" + std::to_string(seg) + " but dword " + bits::hex(a & ~3u) +
            " is " + bits::hex(mem.read32(a & ~3u)) + ", expected " + bits::hex(e.flushes[seg].read32(a & ~3u)) + "\n";
    }
    if (in_fire || req_fire || rsp_fire || out_fire || clr_fire || early_fire || late_in_fire) drv.progress();
    if (clr_fire) {
      clr_offer = false;
      ++ci;
    }
    if (bad) {
      res.report = rep;
      return res;
    }
    if (flushing && dut.clean_o && dut.quiet_o) {
      flushing = false;
      ci = 0;
      if (seg == 0) res.first_cycles = drv.cycle();
      if (++seg < c.segments.size()) {
        src = std::make_unique<tb::StreamSource<QuadPkt>>(c.segments[seg], cfg.in_gap);
        if (seg < c.pokes.size()) {
          for (const auto& [a, v] : c.pokes[seg]) mem.write32(a, v);
        }
      }
    } else if (!flushing && seg < c.segments.size() && src->done() && !in_fire && !clr_fire &&
               ci == seg_clears().size() && dut.quiet_o && path.empty() && !early_fire) {
      flushing = true;
    }
    if (!tb::edge_with_dram(drv, dram, req_fire, req, rsp_fire, res.report)) return res;
    if (seg >= c.segments.size() && dram.outstanding() == 0) break;
    if (drv.stalled()) {
      res.report = drv.no_progress_report("segment " + std::to_string(seg) + ", " + sink.progress("quads") + ", " +
                                          esink.progress("early quads") + ", pixel path " + std::to_string(path.size()) +
                                          ", tokens " + std::to_string(tok) + "/" + std::to_string(e.tokens.size()));
      return res;
    }
  }
  res.cycles = drv.cycle();
  res.stats = dram.stats();
  std::string rep;
  if (!sink.finish(rep) || !esink.finish(rep)) {
    res.report = rep;
    return res;
  }
  if (tok != e.tokens.size()) {
    res.report = "tokens " + std::to_string(tok) + " of " + std::to_string(e.tokens.size()) + "\n";
    return res;
  }
  if (mem != e.flushes.back()) {
    const uint32_t a = *mem.first_difference(e.flushes.back());
    res.report = "MEMORY MISMATCH at " + bits::hex(a) + "\n";
    return res;
  }
  res.ok = true;
  return res;
}

void check_all(const std::string& name, const ZsCase& c, uint64_t seed) {
  const Expect e = expect(c);
  const tb::BenchMem mems[] = {{"200", 32, 200, 0}, {"jitter", 32, 1, 80}, {"8B", 8, 100, 40}};
  tb::check_mems_and_stalls<BenchCfg>(name, seed, mems, [&](BenchCfg& cfg, const tb::StallPattern& p) {
    cfg.path_lat = p.in_gap == 0.0 ? 4 : 1;
    cfg.path_jit = p.in_gap == 0.0 ? 0 : 40;
    cfg.path_cap = p.out_stall > 0.3 ? 8 : 64;
    cfg.path_stall = p.out_stall;
    cfg.late_gap = p.in_gap;
    cfg.drop_empty_late = p.out_stall == 0.1;  // the "light" pattern
    return run_zs(c, e, cfg);
  });
}

Target target(bool msaa) {
  Target t;
  t.base = 0x10000000u;  // the colour target: not used by ZS
  t.pitch = 4096;
  t.msaa = msaa ? 1 : 0;
  return t;
}

uint32_t face(uint32_t func, uint32_t fail, uint32_t zfail, uint32_t pass) {
  return func | (fail << 3) | (zfail << 6) | (pass << 9);
}

// Fills the dwords a quad stream will touch with random values (both copies of memory start
// alike).
void init_memory(Memory& mem, const std::vector<std::vector<QuadPkt>>& segs, tb::PrimGen& g, uint32_t zrange) {
  for (const auto& seg : segs) {
    for (const QuadPkt& q : seg) {
      if (q.eop) continue;
      for (int b = 0; b < 16; ++b) {
        const uint32_t a = model::Zs::sample_addr(q, b) & ~3u;
        if (mem.read32(a) == 0) {
          mem.write32(a, (static_cast<uint32_t>(g.range(0, 255)) << 24) | static_cast<uint32_t>(g.range(0, zrange)));
        }
      }
    }
  }
}

DsState random_ds(tb::PrimGen& g, uint32_t base, uint32_t pitch) {
  DsState d;
  d.base = base;
  d.pitch = pitch;
  d.z_enable = g.chance(0.8);
  d.z_func = static_cast<uint64_t>(g.range(0, 7));
  d.z_write = g.chance(0.7);
  d.late_z = g.chance(0.5);
  d.hiz = g.chance(0.5);
  d.s_enable = g.chance(0.5);
  d.s_ref = static_cast<uint64_t>(g.range(0, 255));
  d.s_read_mask = g.chance(0.5) ? 0xFF : static_cast<uint64_t>(g.range(0, 255));
  d.s_write_mask = g.chance(0.5) ? 0xFF : static_cast<uint64_t>(g.range(0, 255));
  d.s_front = face(static_cast<uint32_t>(g.range(0, 7)), static_cast<uint32_t>(g.range(0, 7)),
                   static_cast<uint32_t>(g.range(0, 7)), static_cast<uint32_t>(g.range(0, 7)));
  d.s_back = face(static_cast<uint32_t>(g.range(0, 7)), static_cast<uint32_t>(g.range(0, 7)),
                  static_cast<uint32_t>(g.range(0, 7)), static_cast<uint32_t>(g.range(0, 7)));
  return d;
}

QuadPkt quad(const Target& t, const DsState& ds, uint32_t qx, uint32_t qy, uint32_t mask, tb::PrimGen& g,
             uint32_t zrange) {
  QuadPkt q;
  q.qx = qx;
  q.qy = qy;
  q.mask = t.msaa ? mask & 0xFFFFu : mask & 0xFu;
  if (q.mask == 0) q.mask = 1;
  q.color = static_cast<uint32_t>(g.bits64());
  q.target = t;
  q.front = g.chance(0.5);
  q.ds = ds;
  for (int b = 0; b < 16; ++b) {
    if ((q.mask >> b) & 1u) q.z[b].v = static_cast<uint64_t>(g.range(0, zrange));
  }
  return q.canonical();
}

// Random quads near moving points over a few depth targets and states, with tokens. With
// `clears`: line-aligned targets (as the CP sends to ZS's fast clear), quads near the origin (the
// fast-clear bitmap covers rows < 256 and lines < 64) and random fast clears between quads.
ZsCase random_case(uint64_t seed, int segments, int per_seg, bool clears = false) {
  tb::PrimGen g(seed);
  ZsCase c;
  for (int s = 0; s < segments; ++s) {
    std::vector<QuadPkt> seg;
    struct T {
      Target t;
      uint32_t base, pitch;
    };
    std::vector<T> ts;
    for (int k = 0; k < 3; ++k) {
      if (clears && k > 0 && g.chance(0.9)) {  // mostly one target: cleared lines get drawn on
        ts.push_back(ts[0]);
        continue;
      }
      const int kind = static_cast<int>(g.range(0, 3));
      const uint32_t pitch = kind == 0 ? 1024u
                             : kind == 1 ? static_cast<uint32_t>(g.range(0, 3)) * 64u + static_cast<uint32_t>(g.range(0, 63))
                             : kind == 2 ? static_cast<uint32_t>(g.range(1, 200)) * 64u
                                         : static_cast<uint32_t>(g.range(0, 65535));
      // Bases anywhere (low bits ignored), sometimes near the top of the address space.
      uint32_t base = g.chance(0.2) ? 0xFFFF0000u + static_cast<uint32_t>(g.range(0, 0xFFFF))
                                    : static_cast<uint32_t>(g.range(0, 0x3FFFFFF));
      uint32_t p = pitch;
      if (clears) {
        base &= ~63u;
        p = g.chance(0.7) ? static_cast<uint32_t>(g.range(16, 80)) * 64u : static_cast<uint32_t>(g.range(0, 1023)) * 64u;
      }
      ts.push_back({target(g.chance(0.4)), base, p});
    }
    std::vector<DsState> states;
    for (int k = 0; k < 6; ++k) {
      const T& t = ts[static_cast<size_t>(g.range(0, 2))];
      states.push_back(random_ds(g, t.base, t.pitch));
      states.back().base = t.base;
      states.back().pitch = t.pitch;
    }
    DsState off;  // depth and stencil off: passes untouched
    off.z_func = 1;
    states.push_back(off);
    const int64_t span = clears ? 80 : 2000;
    uint32_t cx = static_cast<uint32_t>(g.range(0, span)), cy = static_cast<uint32_t>(g.range(0, span));
    const uint32_t zr = g.chance(0.5) ? 7u : 0xFFFFFFu;  // small range: EQUAL and friends happen
    for (int i = 0; i < per_seg; ++i) {
      g.maybe_token(seg, 0.01);
      if (g.chance(0.02)) cx = static_cast<uint32_t>(g.range(0, span)), cy = static_cast<uint32_t>(g.range(0, span));
      const size_t si = static_cast<size_t>(g.range(0, static_cast<int64_t>(states.size()) - 1));
      const DsState& d = states[si];
      bool msaa = g.chance(0.4);
      for (const T& t : ts) {
        if (t.base == d.base && t.pitch == d.pitch) msaa = t.t.msaa != 0;
      }
      const uint32_t qx = (cx + static_cast<uint32_t>(g.range(0, 10))) & 8191u;
      const uint32_t qy = (cy + static_cast<uint32_t>(g.range(0, 10))) & 8191u;
      const int kind = static_cast<int>(g.range(0, 3));
      const uint32_t m = kind == 0 ? 0xFFFFu : kind == 1 ? (1u << g.range(0, 15)) : static_cast<uint32_t>(g.bits64());
      QuadPkt q = quad(target(msaa), d, qx, qy, m, g, zr);
      q.tri_id = static_cast<uint32_t>(i);
      seg.push_back(q.canonical());
    }
    c.segments.push_back(seg);
  }
  init_memory(c.init, c.segments, g, 0xFFFFFF);
  // Pokes: some dwords of the previous segment's quads, the next segment revisiting them.
  c.pokes.resize(c.segments.size());
  for (size_t s = 1; s < c.segments.size(); ++s) {
    std::vector<QuadPkt> revisit;
    for (const QuadPkt& q : c.segments[s - 1]) {
      if (q.eop || !model::Zs::active(q) || !g.chance(0.2)) continue;
      for (int b = 0; b < 16; ++b) {
        c.pokes[s].push_back({model::Zs::sample_addr(q, b) & ~3u, static_cast<uint32_t>(g.bits64())});
      }
      QuadPkt r = q;
      r.tri_id = 0xFFFF;
      revisit.push_back(r);
    }
    c.segments[s].insert(c.segments[s].begin(), revisit.begin(), revisit.end());
  }
  if (clears) {
    c.clears.resize(c.segments.size());
    for (size_t s = 0; s < c.segments.size(); ++s) {
      // Targets of the segment's clears: those of its quads' depth states.
      std::vector<Target> cts;
      for (const QuadPkt& q : c.segments[s]) {
        if (q.eop || !model::Zs::active(q)) continue;
        Target t;
        t.base = q.ds.base;
        t.pitch = q.ds.pitch;
        t.msaa = q.target.msaa;
        cts.push_back(t);
      }
      if (cts.empty()) continue;
      for (size_t pos = 0; pos <= c.segments[s].size(); ++pos) {
        while (g.chance(pos == 0 ? 0.5 : 0.02)) {
          ClearPkt k;
          const int f = static_cast<int>(g.range(0, 9));
          k.depth = f < 8 || f == 8;
          k.stencil = f < 8 || f == 9;
          if (f == 8) k.stencil = 0;
          if (f == 9) k.depth = 0;
          k.target = cts[static_cast<size_t>(g.range(0, static_cast<int64_t>(cts.size()) - 1))];
          const bool whole = g.chance(0.3);
          k.rect.x0 = whole ? 0 : static_cast<uint64_t>(g.range(0, 180));
          k.rect.x1 = whole ? 160 : k.rect.x0 + static_cast<uint64_t>(g.range(1, 120));
          k.rect.y0 = whole ? 0 : static_cast<uint64_t>(g.range(0, 250));
          k.rect.y1 = whole ? 180 : k.rect.y0 + static_cast<uint64_t>(g.range(1, 40));
          k.value = g.bits64() & 0xFFFFFFFFu;
          c.clears[s].push_back({pos, k});
        }
      }
    }
  }
  return c;
}

// Late Z against early Z on the same pixels: draws of 1..12 quads over a 4 x 4-quad region,
// each early or late (ds.late_z), depth functions and depths from small sets (order matters),
// random stencil state, alpha kills on half the quads (late ones write nothing for killed
// pixels; an early one already has), tokens now and then: every early -> late and late -> early
// switch on the same lines.
ZsCase late_case(uint64_t seed, bool msaa) {
  tb::PrimGen g(seed);
  ZsCase c;
  const uint32_t base = 0x300000u, pitch = 256;
  const uint32_t funcs[] = {CMP_LESS, CMP_LESS_EQUAL, CMP_GREATER, CMP_ALWAYS, CMP_NOT_EQUAL, CMP_EQUAL};
  for (int s = 0; s < 2; ++s) {
    std::vector<QuadPkt> seg;
    for (uint32_t d = 0; d < 70; ++d) {
      DsState ds = random_ds(g, base, pitch);
      ds.z_enable = g.chance(0.9);
      ds.z_write = g.chance(0.85);
      ds.z_func = funcs[g.range(0, 5)];
      ds.late_z = g.chance(0.5);
      const int n = static_cast<int>(g.range(1, 12));
      for (int k = 0; k < n; ++k) {
        const int kind = static_cast<int>(g.range(0, 2));
        const uint32_t m = kind == 0 ? 0xFFFFu : static_cast<uint32_t>(g.bits64());
        QuadPkt q = quad(target(msaa), ds, static_cast<uint32_t>(g.range(0, 3)), static_cast<uint32_t>(g.range(0, 3)),
                         m, g, 7);
        q.tri_id = d * 16 + static_cast<uint32_t>(k);
        seg.push_back(q.canonical());
      }
      g.maybe_token(seg, 0.05);
    }
    c.segments.push_back(seg);
  }
  init_memory(c.init, c.segments, g, 7);
  c.kill_rate = 0.5;
  c.kill_seed = seed;
  return c;
}

}  // namespace

TEST_CASE("zs: late and early Z on the same pixels with alpha kills, stencil ops, 1x and 4x") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  for (int msaa = 0; msaa < 2; ++msaa) {
    const ZsCase c = late_case(seed + 7 + static_cast<uint64_t>(msaa), msaa != 0);
    // The case must be able to fail: late quads with kills, and results that depend on the
    // order of late and early quads (the sequential model against a run with the late quads
    // tested after every early one of their segment).
    size_t late = 0, killed = 0;
    for (const auto& seg : c.segments) {
      for (const QuadPkt& q : seg) {
        if (q.eop || !model::Zs::late_quad(q)) continue;
        ++late;
        const auto p = pixel_path(q, c);
        if (!p || p->quad.mask != q.mask) ++killed;
      }
    }
    ZsCase reordered = c;
    for (auto& seg : reordered.segments) {
      std::stable_partition(seg.begin(), seg.end(), [](const QuadPkt& q) { return !model::Zs::late_quad(q); });
    }
    const Expect e = expect(c), er = expect(reordered);
    std::printf("  late_z %s: %zu late quads, %zu with killed pixels, %zu early and %zu late outputs\n",
                msaa ? "4x" : "1x", late, killed, e.early_out.size(), e.out.size());
    CHECK(late > 100);
    CHECK(killed > 30);
    CHECK(e.flushes.back() != er.flushes.back());
    check_all(msaa ? "late_z_4x" : "late_z_1x", c, seed);
  }
}

TEST_CASE("zs: random quads, states, tokens and flushes at 1x and 4x") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  ZsCase c = random_case(seed, 4, 600);
  c.kill_rate = 0.3;
  c.kill_seed = seed;
  check_all("random", c, seed);
}

namespace {
void fast_clears(int per_seg) {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  ZsCase c = random_case(seed + 3, 3, per_seg, true);
  c.kill_rate = 0.3;
  c.kill_seed = seed;
  size_t n = 0;
  for (const auto& v : c.clears) n += v.size();
  REQUIRE(n > 0);
  check_all("fast_clear", c, seed);
}
}  // namespace

// The default run is short (CI budget); "[.long]" runs 3x the quads per segment.
TEST_CASE("zs: fast clears (whole and partial, depth and/or stencil) mixed with quads, tokens and flushes") {
  fast_clears(170);
}

TEST_CASE("zs: fast clears mixed with quads, tokens and flushes, long", "[.long]") { fast_clears(500); }

TEST_CASE("zs: every compare function and stencil op, front and back, 1x and 4x, early and late Z") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  tb::PrimGen g(seed);
  ZsCase c;
  for (int msaa = 0; msaa < 2; ++msaa) {
    std::vector<QuadPkt> seg;
    const uint32_t base = 0x200000u + static_cast<uint32_t>(msaa) * 0x100000u, pitch = 64 * 8;
    uint32_t n = 0;
    for (uint32_t zf = 0; zf < 8; ++zf) {
      for (uint32_t sf = 0; sf < 8; ++sf) {
        for (uint32_t op = 0; op < 8; ++op) {
          DsState d;
          d.base = base;
          d.pitch = pitch;
          d.z_enable = 1;
          d.z_func = zf;
          d.z_write = (op & 1u);
          d.late_z = (op >> 1) & 1u;
          d.s_enable = 1;
          d.s_ref = static_cast<uint64_t>(g.range(0, 3)) * 0x55;
          d.s_read_mask = op < 4 ? 0xFF : 0x0F;
          d.s_write_mask = op < 6 ? 0xFF : 0x3C;
          d.s_front = face(sf, op, (op + 3) & 7u, (op + 5) & 7u);
          d.s_back = face(7u - sf, (op + 1) & 7u, (op + 2) & 7u, op);
          // A small region visited again and again, depths from a small set: every outcome.
          const uint32_t k = n++;
          QuadPkt q = quad(target(msaa != 0), d, k % 5, (k / 5) % 3, 0xFFFF, g, 3);
          seg.push_back(q);
        }
      }
      seg.push_back(tb::PrimGen::token<QuadPkt>());
    }
    c.segments.push_back(seg);
  }
  init_memory(c.init, c.segments, g, 3);
  // Stencil values from a small set too.
  for (const auto& seg : c.segments) {
    for (const QuadPkt& q : seg) {
      if (q.eop) continue;
      for (int b = 0; b < 16; ++b) {
        const uint32_t a = model::Zs::sample_addr(q, b) & ~3u;
        const uint32_t v = c.init.read32(a);
        const uint32_t st = std::array<uint32_t, 4>{0, 0x55, 0xFF, 0xAA}[(v >> 24) & 3u];
        c.init.write32(a, (st << 24) | (v & 0xFFFFFFu));
      }
    }
  }
  check_all("funcs_ops", c, seed);
}

TEST_CASE("zs: early and late Z give identical outputs and memory") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  ZsCase c = random_case(seed + 1, 2, 500);
  ZsCase early = c, late = c;
  for (auto* v : {&early, &late}) {
    for (auto& seg : v->segments) {
      for (auto& q : seg) {
        if (!q.eop) q.ds.late_z = v == &late ? 1 : 0;
      }
    }
  }
  const Expect ee = expect(early), el = expect(late);
  REQUIRE(ee.out.size() == el.out.size());
  for (size_t i = 0; i < ee.out.size(); ++i) {
    InterpPkt a = ee.out[i], b = el.out[i];
    a.quad.ds.late_z = b.quad.ds.late_z = 0;
    REQUIRE(a == b);
  }
  REQUIRE(ee.flushes.back() == el.flushes.back());
  // The RTL too, in both modes.
  BenchCfg cfg;
  cfg.seed = seed;
  cfg.in_gap = 0.1;
  cfg.out_stall = 0.1;
  cfg.test = "late_z";
  BenchResult r = run_zs(late, el, cfg);
  INFO(r.report);
  REQUIRE(r.ok);
  cfg.test = "early_z";
  r = run_zs(early, ee, cfg);
  INFO(r.report);
  REQUIRE(r.ok);
}

TEST_CASE("zs: depth and stencil off pass untouched with no memory traffic") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  ZsCase c = random_case(seed + 2, 1, 400);
  for (auto& seg : c.segments) {
    for (auto& q : seg) {
      q.ds.z_enable = 0;
      q.ds.s_enable = 0;
    }
  }
  const Expect e = expect(c);
  size_t quads = 0;
  for (const auto& q : c.segments[0]) quads += q.eop ? 0 : 1;
  size_t outq = 0;
  for (const auto& q : e.out) outq += q.quad.eop ? 0 : 1;
  REQUIRE(outq == quads);
  BenchCfg cfg;
  cfg.seed = seed;
  cfg.test = "off";
  const BenchResult r = run_zs(c, e, cfg);
  INFO(r.report);
  REQUIRE(r.ok);
  REQUIRE(r.stats.client[0].reads + r.stats.client[0].writes == 0);
}

TEST_CASE("zs: rate, full rectangles drawn twice (LESS), 32 B/clock, 200 cycles") {
  const uint64_t seed = tb::announce_seed("rtl_zs");
  tb::PrimGen g(seed);
  for (int msaa = 0; msaa < 2; ++msaa) {
    ZsCase c;
    std::vector<QuadPkt> seg;
    // 64 x 32 pixels (1x) / 32 x 16 (4x): the depth footprint fits the cache, so the second pass
    // hits every line; quads in raster-tile order.
    const uint32_t w = msaa ? 32 : 64, h = msaa ? 16 : 32, tp = msaa ? 4 : 8;
    DsState d;
    d.base = 0x400000u;
    d.pitch = w * (msaa ? 16 : 4);
    d.z_enable = 1;
    d.z_func = CMP_LESS;
    d.z_write = 1;
    for (int pass = 0; pass < 2; ++pass) {
      for (uint32_t ty = 0; ty < h / tp; ++ty) {
        for (uint32_t tx = 0; tx < w / tp; ++tx) {
          for (uint32_t qy = ty * tp / 2; qy < (ty + 1) * tp / 2; ++qy) {
            for (uint32_t qx = tx * tp / 2; qx < (tx + 1) * tp / 2; ++qx) {
              QuadPkt q = quad(target(msaa != 0), d, qx, qy, 0xFFFF, g, 0xFFFFFF);
              for (int b = 0; b < 16; ++b) {
                if ((q.mask >> b) & 1u) q.z[b].v = pass == 0 ? 0x800000u : 0x400000u;
              }
              seg.push_back(q.canonical());
            }
          }
        }
      }
    }
    c.segments.push_back(seg);
    for (const QuadPkt& q : seg) {
      for (int b = 0; b < 16; ++b) c.init.write32(model::Zs::sample_addr(q, b), 0x00FFFFFFu);
    }
    const Expect e = expect(c);
    REQUIRE(e.out.size() == seg.size());
    BenchCfg cfg;
    cfg.seed = seed;
    cfg.test = msaa ? "rate 4x" : "rate 1x";
    const BenchResult r = run_zs(c, e, cfg);
    INFO(r.report);
    REQUIRE(r.ok);
    const auto& cs = r.stats.client[0];
    const double quads = static_cast<double>(seg.size());
    // The second pass hits every line: its rate from its first output to its last.
    const size_t half = seg.size() / 2;
    const double hit_rate = static_cast<double>(half - 1) /
                            static_cast<double>(r.out_cycles[seg.size() - 1] - r.out_cycles[half]);
    std::printf("  %s: %zu quads (two passes), %llu cycles to clean; second pass (hits) %.3f quads/clock = %.2f "
                "samples/clock; %llu line reads, %llu line writes, %.2f depth bytes/sample\n",
                cfg.test.c_str(), seg.size(), static_cast<unsigned long long>(r.first_cycles), hit_rate,
                hit_rate * (msaa ? 16 : 4), static_cast<unsigned long long>(cs.reads),
                static_cast<unsigned long long>(cs.writes),
                static_cast<double>(cs.bytes_read + cs.bytes_written) / (quads * (msaa ? 16 : 4)));
    CHECK(hit_rate > 0.95);
  }
}
