// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the pixel writer's colour cache (rtl/om/pixel_writer.sv vs
// cpp_model/om/pixel_writer). Checked: every line write in order (the model predicts the stream
// exactly), the final memory against the per-pixel reference writes, and at every flush point
// (end-of-pipe completion, flush_i done) that every dword written before it is already in memory
// with its final value (watched when it happens, so a completion that comes before its lines are
// written fails). The line port is tb::LineDram (bandwidth, latency, jitter), the completion port
// gets random back-pressure. Blended and masked quads (docs/om.md) read the destination: their
// cases start from a random memory image (`init`, the same in the DRAM and the model), and the
// line reads of the fills are part of the predicted line stream.
#define CATCH_CONFIG_MAIN
#include <map>

#include "Vpixel_writer.h"
#include "line_dram.h"
#include "om/pixel_writer.h"
#include "pw_overlay.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

// A quad stream cut into segments; after each segment the bench raises flush_i (a COPY, a host
// read, the end of a frame) and waits for clean_o.
struct PwCase {
  std::vector<std::vector<QuadPkt>> segments;
  Memory init;  // memory before the first quad
};

// PW's input is INTERP's packet: each pixel of a quad gets its own colour, a hash of the quad's
// colour, position and pixel (random-looking and reproducible), so a halfword or blend lane that
// takes another pixel's colour fails.
model::PixColors pix_colors(const QuadPkt& q) {
  model::PixColors pc{};
  for (uint32_t p = 0; p < 4; ++p) {
    uint64_t z = (static_cast<uint64_t>(q.color) << 32) ^ (static_cast<uint64_t>(q.qx) << 18) ^
                 (static_cast<uint64_t>(q.qy) << 4) ^ p;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    pc[p] = static_cast<uint32_t>(z ^ (z >> 31));
  }
  return pc;
}

InterpPkt to_interp(const QuadPkt& q) {
  InterpPkt ip;
  ip.quad = q;
  if (q.eop) return ip;
  const model::PixColors pc = pix_colors(q);
  for (size_t p = 0; p < 4; ++p) ip.pcolor[p].data = pc[p];
  return ip;
}

std::vector<InterpPkt> to_interp(const std::vector<QuadPkt>& seg) {
  std::vector<InterpPkt> out;
  out.reserve(seg.size());
  for (const QuadPkt& q : seg) out.push_back(to_interp(q));
  return out;
}

struct Expect {
  std::vector<MemLineReq> lines;
  // Per completion (token, then each segment's flush): the dwords written since the previous one
  // and their values at that point.
  std::vector<std::map<uint32_t, uint32_t>> tokens, flushes;
  Memory mem;  // final memory, from the per-pixel reference writes
  uint64_t fills = 0, rmw_pixels = 0;
};

Expect expect(const PwCase& c, uint32_t entries) {
  Expect e;
  e.mem = c.init;
  model::PixelWriter pw(entries);
  std::map<uint32_t, uint32_t> since;
  const auto emit = [&e](const MemLineReq& r) { e.lines.push_back(r); };
  for (const auto& seg : c.segments) {
    for (const QuadPkt& q : seg) {
      const auto read = [&e](uint32_t a) { return e.mem.read32(a); };
      const model::PixColors pc = pix_colors(q);
      pw.process(q, emit, read, &pc);  // before the quad's writes: fills read memory as it was
      model::PixelWriter::pixel_writes(
          q,
          [&](const model::PixelWrite& w) {
            model::PixelWriter::apply(w, e.mem);
            since[w.addr & ~3u] = e.mem.read32(w.addr);
          },
          read, &pc);
      if (q.eop) {
        e.tokens.push_back(since);
        since.clear();
      }
    }
    pw.flush(emit);
    e.flushes.push_back(since);
    since.clear();
  }
  e.fills = pw.fills();
  e.rmw_pixels = pw.rmw_pixels();
  return e;
}

struct BenchCfg {
  uint64_t seed = 1;
  double in_gap = 0.0, out_stall = 0.0, eop_stall = 0.0;
  tb::LineDramConfig dram{};
  std::string test;
};

struct BenchResult {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;        // whole run
  uint64_t first_cycles = 0;  // to the end of the first segment's input
};

bool check_dwords(const std::map<uint32_t, uint32_t>& want, const Memory& mem, std::string& why) {
  for (const auto& [a, v] : want) {
    if (mem.read32(a) != v) {
      why = "dword " + bits::hex(a) + " is " + bits::hex(mem.read32(a)) + ", expected " + bits::hex(v);
      return false;
    }
  }
  return true;
}

BenchResult run_pw(const PwCase& c, const Expect& e, const BenchCfg& cfg) {
  BenchResult res;
  tb::VlDriver<Vpixel_writer> drv(tb::unit_driver_config(cfg.test, cfg.seed, "build/tests/rtl_pixel_writer", 20'000));
  Vpixel_writer& dut = drv.dut();
  Memory mem = c.init;
  tb::LineDram dram(mem, tb::unit_dram_config(cfg.dram, cfg.seed));
  tb::StreamSink<MemLineReq> sink("pw_line", e.lines, drv.run(), cfg.out_stall);
  tb::idle_ports(dut);
  dut.flush_i = 0;
  drv.reset();

  size_t seg = 0, tok = 0;
  bool flushing = false;
  std::vector<std::vector<InterpPkt>> segs;
  for (const auto& sg : c.segments) segs.push_back(to_interp(sg));
  std::unique_ptr<tb::StreamSource<InterpPkt>> src;
  if (!segs.empty()) src = std::make_unique<tb::StreamSource<InterpPkt>>(segs[0], cfg.in_gap);
  while (true) {
    if (seg < c.segments.size()) {
      src->drive(drv.rng(), dut.in_valid_i, dut.in_i);
    } else {
      dut.in_valid_i = 0;
    }
    dut.flush_i = flushing;
    dut.mem_req_ready_i = dram.req_ready() && sink.ready(drv.rng());
    dut.mem_rsp_valid_i = dram.rsp_valid();
    tb::pack_sig(dram.rsp(), dut.mem_rsp_i);
    dut.eop_done_ready_i = !tb::chance(drv.rng(), cfg.eop_stall);
    drv.eval_low();

    std::string rep;
    bool bad = false;
    const bool in_fire = seg < c.segments.size() && src->fire(dut.in_ready_o);
    const bool req_fire = dut.mem_req_valid_o && dut.mem_req_ready_i;
    const bool rsp_fire = dut.mem_rsp_valid_i && dut.mem_rsp_ready_o;
    const MemLineReq req = tb::unpack_sig<MemLineReq>(dut.mem_req_o);
    bad = !sink.take(dut.mem_req_valid_o, dut.mem_req_ready_i, dut.mem_req_o, drv.cycle(), rep);
    const bool eop_fire = dut.eop_done_valid_o && dut.eop_done_ready_i;
    if (!bad && eop_fire) {
      std::string why;
      if (tok >= e.tokens.size()) {
        bad = true;
        rep = drv.head("EOP ORDER") + ": a completion with no token\n";
      } else if (dram.outstanding_writes() != 0 || !check_dwords(e.tokens[tok], mem, why)) {
        bad = true;
        rep = drv.head("EOP ORDER") + ": completion #" + std::to_string(tok) + " with " +
              std::to_string(dram.outstanding_writes()) + " line writes unacknowledged; " + why + "\n";
      }
      ++tok;
    }
    if (!bad && flushing && dut.clean_o) {
      std::string why;
      if (dram.outstanding_writes() != 0 || !check_dwords(e.flushes[seg], mem, why)) {
        bad = true;
        rep = drv.head("FLUSH ORDER") + ": clean_o after flush #" + std::to_string(seg) + " but " + why + "\n";
      }
    }
    if (in_fire || req_fire || rsp_fire || eop_fire) drv.progress();
    if (bad) {
      res.report = rep;
      return res;
    }
    // Segment bookkeeping (for the next cycle).
    if (flushing && dut.clean_o) {
      flushing = false;
      if (++seg < c.segments.size()) src = std::make_unique<tb::StreamSource<InterpPkt>>(segs[seg], cfg.in_gap);
    } else if (!flushing && seg < c.segments.size() && src->done() && dut.quiet_o && !in_fire) {
      if (seg == 0 && res.first_cycles == 0) res.first_cycles = drv.cycle();
      flushing = true;
    }
    if (!tb::edge_with_dram(drv, dram, req_fire, req, rsp_fire, res.report)) return res;
    if (seg >= c.segments.size() && dram.outstanding() == 0) break;
    if (drv.stalled()) {
      res.report = drv.no_progress_report("segment " + std::to_string(seg) + ", " + sink.progress("line writes") +
                                          ", completions " + std::to_string(tok) + "/" + std::to_string(e.tokens.size()));
      return res;
    }
  }
  res.cycles = drv.cycle();
  std::string rep;
  if (!sink.finish(rep)) {
    res.report = rep;
    return res;
  }
  if (tok != e.tokens.size()) {
    res.report = "completions " + std::to_string(tok) + " of " + std::to_string(e.tokens.size()) + "\n";
    return res;
  }
  if (mem != e.mem) {
    const uint32_t a = *mem.first_difference(e.mem);
    res.report = "MEMORY MISMATCH at " + bits::hex(a) + ": " + bits::hex(mem.read8(a)) + " expected " +
                 bits::hex(e.mem.read8(a)) + "\n";
    return res;
  }
  res.ok = true;
  return res;
}

// Every stall pattern, at three memory configurations: 200 cycles; 50 + 0..60 jitter; a quarter
// of the bandwidth (8 B/clock) with jitter.
void check_all(const std::string& name, const PwCase& c, uint64_t seed) {
  const Expect e = expect(c, model::PW_ENTRIES);
  const tb::BenchMem mems[] = {{"200", 32, 200, 0}, {"jitter", 32, 50, 60}, {"8B", 8, 100, 40}};
  tb::check_mems_and_stalls<BenchCfg>(name, seed, mems, [&](BenchCfg& cfg, const tb::StallPattern& p) {
    cfg.eop_stall = p.out_stall;
    return run_pw(c, e, cfg);
  });
}

Target target(uint32_t base, uint32_t pitch, bool msaa) {
  Target t;
  t.base = base;
  t.pitch = pitch;
  t.msaa = msaa ? 1 : 0;
  return t;
}

QuadPkt quad(const Target& t, uint32_t qx, uint32_t qy, uint32_t mask, uint32_t color, const OmState& om = {}) {
  QuadPkt q;
  q.qx = qx;
  q.qy = qy;
  q.mask = mask;
  q.color = color;
  q.target = t;
  q.om = om;
  return q.canonical();
}

// Random dwords in every line a case's quads touch (the destination blended quads read).
void random_background(PwCase& c, tb::PrimGen& g) {
  for (const auto& seg : c.segments) {
    for (const QuadPkt& q : seg) {
      if (q.eop) continue;
      for (const auto& p : model::PixelWriter::pieces(q)) {
        const uint32_t base = p.line << 6;
        if (c.init.read32(base) != 0 || c.init.read32(base + 60) != 0) continue;
        for (uint32_t k = 0; k < 16; ++k) c.init.write32(base + 4 * k, static_cast<uint32_t>(g.bits64()) | 1u, 0xFu);
      }
    }
  }
}

// A random output-merger state: plain (any byte format, no blend, no mask) or rmw (blending
// and/or a write mask), D3D11's factors and ops.
OmState random_om(tb::PrimGen& g, bool rmw) {
  static const uint32_t kFactors[] = {BF_ZERO, BF_ONE, BF_SRC_COLOR, BF_INV_SRC_COLOR, BF_SRC_ALPHA,
                                      BF_INV_SRC_ALPHA, BF_DEST_ALPHA, BF_INV_DEST_ALPHA, BF_DEST_COLOR,
                                      BF_INV_DEST_COLOR, BF_SRC_ALPHA_SAT, BF_BLEND_FACTOR, BF_INV_BLEND_FACTOR};
  OmState o;
  o.fmt = static_cast<uint32_t>(g.range(0, 3));  // RGBA8, BGRA8, RGBA8_SRGB, B5G6R5
  if (!rmw) return o;
  o.blend = g.chance(0.85) ? 1 : 0;
  o.mask_off = (o.blend == 0 || g.chance(0.3)) ? static_cast<uint32_t>(g.range(1, 15)) : 0;
  o.src = kFactors[g.range(0, 12)];
  o.dst = kFactors[g.range(0, 12)];
  o.op = static_cast<uint32_t>(g.range(0, 4));
  o.src_a = kFactors[g.range(0, 12)];
  o.dst_a = kFactors[g.range(0, 12)];
  o.op_a = static_cast<uint32_t>(g.range(0, 4));
  o.factor = static_cast<uint32_t>(g.bits64());
  return o;
}

// A w x h (pixels) rectangle fully covered, quads in the fine rasterizer's order: raster tiles
// (8x8 samples) along rows, quads row-major inside a tile.
void full_rect(std::vector<QuadPkt>& out, const Target& t, uint32_t w, uint32_t h, uint32_t color) {
  const uint32_t tp = t.msaa ? 4 : 8;  // tile size in pixels
  for (uint32_t ty = 0; ty < (h + tp - 1) / tp; ++ty) {
    for (uint32_t tx = 0; tx < (w + tp - 1) / tp; ++tx) {
      for (uint32_t qy = ty * tp / 2; qy < (ty + 1) * tp / 2 && 2 * qy < h; ++qy) {
        for (uint32_t qx = tx * tp / 2; qx < (tx + 1) * tp / 2 && 2 * qx < w; ++qx) {
          uint32_t m = 0;
          for (uint32_t p = 0; p < 4; ++p) {
            if (2 * qx + (p & 1) < w && 2 * qy + (p >> 1) < h) m |= t.msaa ? 0xFu << (4 * p) : 1u << p;
          }
          out.push_back(quad(t, qx, qy, m, color));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("pixel_writer: random quads, tokens and flushes at 1x and 4x, any base and pitch") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed);
  PwCase c;
  for (int s = 0; s < 6; ++s) {
    std::vector<QuadPkt> seg;
    // A few targets per segment; quads near a moving point so that lines are hit again.
    std::vector<Target> ts;
    for (int k = 0; k < 3; ++k) {
      const int kind = static_cast<int>(g.range(0, 4));
      const uint32_t pitch = kind == 0 ? 1024u
                             : kind == 1 ? static_cast<uint32_t>(g.range(0, 48)) * 4u     // small, aliasing, 0
                             : kind == 2 ? static_cast<uint32_t>(g.range(1, 400)) * 4u + 4u  // odd sizes
                                         : static_cast<uint32_t>(g.range(0, 65535));       // anything
      ts.push_back(target(static_cast<uint32_t>(g.bits64()) & (g.chance(0.5) ? ~63u : ~0u), pitch, g.chance(0.4)));
    }
    uint32_t cx = static_cast<uint32_t>(g.range(0, 8191)), cy = static_cast<uint32_t>(g.range(0, 8191));
    for (int i = 0; i < 700; ++i) {
      g.maybe_token(seg, 0.01);
      if (g.chance(0.02)) cx = static_cast<uint32_t>(g.range(0, 8191)), cy = static_cast<uint32_t>(g.range(0, 8191));
      const Target& t = ts[static_cast<size_t>(g.range(0, 2))];
      const uint32_t qx = (cx + static_cast<uint32_t>(g.range(0, 12))) & 8191u;
      const uint32_t qy = (cy + static_cast<uint32_t>(g.range(0, 12))) & 8191u;
      const int kind = static_cast<int>(g.range(0, 3));
      uint32_t m = kind == 0 ? 0xFFFFu : kind == 1 ? (1u << g.range(0, 15)) : static_cast<uint32_t>(g.bits64() & 0xFFFFu);
      if ((t.msaa ? m : (m & 0xFu)) == 0) m |= 1;
      QuadPkt q = quad(t, qx, qy, m, static_cast<uint32_t>(g.bits64()));
      q.tri_id = static_cast<uint32_t>(i);
      seg.push_back(q.canonical());
    }
    c.segments.push_back(seg);
  }
  check_all("random", c, seed);
}

TEST_CASE("pixel_writer: targets smaller than a line, odd pitches and sizes, 4x MSAA") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  PwCase c;
  std::vector<QuadPkt> seg;
  // 3 x 3 pixels at pitch 12 (36 bytes: less than a line), at a base 20 bytes into a line.
  full_rect(seg, target(0x1000u + 20u, 12, false), 3, 3, 0x11223344u);
  seg.push_back(tb::PrimGen::token<QuadPkt>());
  // The same bytes again in another colour, then 1 x 1 at 4x (16 bytes).
  full_rect(seg, target(0x1000u + 20u, 12, false), 3, 3, 0x55667788u);
  full_rect(seg, target(0x2000u + 4u, 16, true), 1, 1, 0xA0B0C0D0u);
  c.segments.push_back(seg);
  seg.clear();
  // Odd sizes and pitches: 37 x 11 at pitch 41*4 (1x), 13 x 7 at pitch 13*16 + 4 (4x), base not
  // line aligned.
  full_rect(seg, target(0x40000u + 44u, 41 * 4, false), 37, 11, 0x01020304u);
  full_rect(seg, target(0x80000u + 36u, 13 * 16 + 4, true), 13, 7, 0x05060708u);
  seg.push_back(tb::PrimGen::token<QuadPkt>());
  // Pitch 0 (every row on the same bytes) and pitch 4 (rows overlap): the last write wins.
  full_rect(seg, target(0x90000u + 8u, 0, false), 6, 4, 0xCAFEF00Du);
  full_rect(seg, target(0x90100u, 4, true), 3, 5, 0xDEADBEEFu);
  full_rect(seg, target(0x90100u, 4, false), 5, 3, 0x0BADF00Du);
  c.segments.push_back(seg);
  // The top of the address space: rows wrap past 2^32.
  seg.clear();
  full_rect(seg, target(0xFFFFFFC4u, 64, true), 6, 6, 0x12345678u);
  c.segments.push_back(seg);
  check_all("small_odd", c, seed);
}

namespace {

// Targets 1x or 4x (40%), of pitch 1024 bytes or a random number of dwords, line- or dword-aligned.
std::vector<Target> random_targets(tb::PrimGen& g, int n) {
  std::vector<Target> ts;
  for (int k = 0; k < n; ++k) {
    const bool msaa = g.chance(0.4);
    const uint32_t pitch = g.chance(0.5) ? 1024u : static_cast<uint32_t>(g.range(msaa ? 8 : 2, 300)) * 4u;
    ts.push_back(target(static_cast<uint32_t>(g.bits64()) & (g.chance(0.5) ? ~63u : ~3u), pitch, msaa));
  }
  return ts;
}

// A quad's coverage: all samples, one, or random.
uint32_t random_mask(tb::PrimGen& g) {
  const int kind = static_cast<int>(g.range(0, 3));
  return kind == 0 ? 0xFFFFu : kind == 1 ? (1u << g.range(0, 15)) : static_cast<uint32_t>(g.bits64() & 0xFFFFu);
}

// `n` quads within `spread` quads of a point that jumps now and then, each on a random target of
// `ts` with a random state of `oms`, a random colour and some coverage; tokens among them.
std::vector<QuadPkt> quads_near_point(tb::PrimGen& g, const std::vector<Target>& ts, const std::vector<OmState>& oms,
                                      int n, uint32_t spread) {
  std::vector<QuadPkt> seg;
  uint32_t cx = static_cast<uint32_t>(g.range(0, 4000)), cy = static_cast<uint32_t>(g.range(0, 4000));
  for (int i = 0; i < n; ++i) {
    g.maybe_token(seg, 0.01);
    if (g.chance(0.03)) cx = static_cast<uint32_t>(g.range(0, 4000)), cy = static_cast<uint32_t>(g.range(0, 4000));
    const Target& t = ts[static_cast<size_t>(g.range(0, static_cast<int64_t>(ts.size()) - 1))];
    const uint32_t qx = cx + static_cast<uint32_t>(g.range(0, spread));
    const uint32_t qy = cy + static_cast<uint32_t>(g.range(0, spread));
    uint32_t m = random_mask(g);
    if ((t.msaa ? m : (m & 0xFu)) == 0) m |= 1;
    QuadPkt q = quad(t, qx, qy, m, static_cast<uint32_t>(g.bits64()),
                     oms[static_cast<size_t>(g.range(0, static_cast<int64_t>(oms.size()) - 1))]);
    q.tri_id = static_cast<uint32_t>(i);
    seg.push_back(q.canonical());
  }
  return seg;
}

void print_rmw(const char* name, const char* pixels, const Expect& e) {
  std::printf("  %s: %llu %s pixels, %llu line fills, %zu line requests\n", name,
              static_cast<unsigned long long>(e.rmw_pixels), pixels, static_cast<unsigned long long>(e.fills),
              e.lines.size());
}

// A read-modify-write case on a random background: the model's stream must fill lines and
// read-modify-write over 1,000 pixels; then every stall pattern.
void check_rmw(const std::string& name, const char* pixels, PwCase& c, tb::PrimGen& g, uint64_t seed) {
  random_background(c, g);
  const Expect e = expect(c, model::PW_ENTRIES);
  print_rmw(name.c_str(), pixels, e);
  REQUIRE(e.fills > 0);
  REQUIRE(e.rmw_pixels > 1000);
  check_all(name, c, seed);
}

}  // namespace

TEST_CASE("pixel_writer: blended and masked quads among plain ones, fills, tokens and flushes") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed ^ 0xB1E4Dull);
  PwCase c;
  for (int s = 0; s < 5; ++s) {
    // Pitches that keep a quad's two rows apart (a blended sample is read once per quad).
    const std::vector<Target> ts = random_targets(g, 3);
    std::vector<OmState> oms;
    for (int k = 0; k < 4; ++k) oms.push_back(random_om(g, k != 0));
    c.segments.push_back(quads_near_point(g, ts, oms, 600, 10));
  }
  check_rmw("blend", "blended/masked", c, g, seed);
}

TEST_CASE("pixel_writer: logic ops, every op in every format, among plain quads") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed ^ 0x10C0ull);
  PwCase c;
  // One segment per format: the 16 LOP_* states (some with the blend fields set, which a logic
  // op ignores, some with a write mask) and a plain state, quads near a moving point.
  for (uint32_t fmt = 0; fmt < 4; ++fmt) {
    const std::vector<Target> ts = random_targets(g, 2);
    std::vector<OmState> oms;
    for (uint32_t op = 0; op < 16; ++op) {
      OmState o = g.chance(0.3) ? random_om(g, true) : OmState{};
      o.fmt = fmt;
      o.lop_en = 1;
      o.lop = op;
      if (g.chance(0.2)) o.mask_off = static_cast<uint32_t>(g.range(1, 14));
      oms.push_back(o);
    }
    OmState plain;
    plain.fmt = fmt;
    oms.push_back(plain);
    c.segments.push_back(quads_near_point(g, ts, oms, 500, 8));
  }
  check_rmw("logic", "logic-op/masked", c, g, seed);
}

// The line stream of a model cache fed the quads with the fills reading memory the way
// pineda_sim's harness predicts it with several rasterizers (harness/pw_overlay.h): memory as
// of the last flush, overlaid with the line writes emitted since. It must equal the reference
// stream (`expect`), whose fills read memory with every earlier pixel write applied.
std::vector<MemLineReq> overlay_lines(const PwCase& c, uint32_t entries) {
  std::vector<MemLineReq> out;
  Memory mem = c.init;  // what has reached memory: nothing since the last flush
  model::PixelWriter pw(entries);
  tb::PwOverlay ov;
  std::vector<MemLineReq> pending;
  const auto emit = [&](const MemLineReq& r) {
    out.push_back(r);
    ov.write(r);
    pending.push_back(r);
  };
  const auto flushed = [&] {  // the flush is done: every line write is in memory
    for (const MemLineReq& r : pending) model::PixelWriter::apply(r, mem);
    pending.clear();
    ov.clear();
  };
  for (const auto& seg : c.segments) {
    for (const QuadPkt& q : seg) {
      const model::PixColors pc = pix_colors(q);
      pw.process(q, emit, [&](uint32_t a) { return ov.read(mem, a); }, &pc);
      if (q.eop) flushed();
    }
    pw.flush(emit);
    flushed();
  }
  return out;
}

TEST_CASE("pixel_writer: B5G6R5 same-pixel ordering, quads in flight, evictions and refills") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed ^ 0x565ull);
  // 95 x 64 B5G6R5 targets (odd width; pitch 192 at 1x, 760 at 4x): quads in a small window
  // (the same pixels blended again and again, many quads in flight) that jumps now and then
  // across more lines than the cache holds, so that lines with one halfword of a dword dirty are
  // written back and filled again before the next flush. Plain quads (single pixels: half-dirty
  // dwords), "over" blending, other factors and a green-only write mask.
  const Target ts[2] = {target(0x200000u, 192, false), target(0x300000u + 8u, 760, true)};
  OmState plain;
  plain.fmt = RT_FMT_B5G6R5;
  std::vector<OmState> oms = {plain};
  OmState over = plain;
  over.blend = 1;
  over.src = BF_SRC_ALPHA;
  over.dst = BF_INV_SRC_ALPHA;
  over.src_a = BF_ONE;
  over.dst_a = BF_ZERO;
  oms.push_back(over);
  OmState green = plain;
  green.mask_off = 0xDu;  // R, B, A kept: the mask cuts through the halfword
  oms.push_back(green);
  for (int k = 0; k < 2; ++k) {
    OmState o = random_om(g, true);
    o.fmt = RT_FMT_B5G6R5;
    oms.push_back(o);
  }
  PwCase c;
  for (int s = 0; s < 3; ++s) {
    std::vector<QuadPkt> seg;
    uint32_t cx = 0, cy = 0;
    for (int i = 0; i < 700; ++i) {
      g.maybe_token(seg, 0.004);
      const bool msaa = g.chance(0.2);
      const Target& t = ts[msaa ? 1 : 0];
      if (i % 40 == 0 || g.chance(0.02)) cx = static_cast<uint32_t>(g.range(0, 44)), cy = static_cast<uint32_t>(g.range(0, 29));
      const uint32_t qx = cx + static_cast<uint32_t>(g.range(0, 3));
      const uint32_t qy = cy + static_cast<uint32_t>(g.range(0, 2));
      uint32_t m = random_mask(g);
      if (qx == 47) m &= msaa ? 0x0F0Fu : 0x5u;  // x = 95 is past the width
      if ((msaa ? m : (m & 0xFu)) == 0) m |= 1;
      QuadPkt q = quad(t, qx, qy, m, static_cast<uint32_t>(g.bits64()), oms[static_cast<size_t>(g.range(0, 4))]);
      q.tri_id = static_cast<uint32_t>(i);
      seg.push_back(q.canonical());
    }
    c.segments.push_back(seg);
  }
  random_background(c, g);
  const Expect e = expect(c, model::PW_ENTRIES);
  print_rmw("b5g6r5", "blended/masked", e);
  REQUIRE(e.fills > 200);
  // The several-rasterizer harness's prediction of the fills (a dword-granular overlay read 0 in
  // the halfword a write-back did not enable: om_b5g6r5's mismatch at 2 and 4 rasterizers).
  const std::vector<MemLineReq> ol = overlay_lines(c, model::PW_ENTRIES);
  REQUIRE(ol.size() == e.lines.size());
  for (size_t i = 0; i < ol.size(); ++i) {
    INFO("line request #" << i << ": overlay-predicted " << ol[i].str() << "\n  reference " << e.lines[i].str());
    REQUIRE(ol[i] == e.lines[i]);
  }
  check_all("b5g6r5", c, seed);
}

// Pieces with more than 8 blend units: stage 1 merges a quad's row-1 piece into its row-0 piece
// when both rows are on one line (pitch below 64 bytes), up to 16 dwords (4x RGBA8) or 16
// halfwords (4x B5G6R5); stage 3's 4 blend lanes per bank take such a piece in four clocks (each
// pass sees the line as the one before left it). Tiny targets (2 to 5 pixels wide at 4x, a 1x
// B5G6R5 target whose rows are 32 bytes apart: halfwords k and k + 16 in one piece), blended,
// masked, logic ops and plain, quads again and again on the same pixels, among ordinary quads on
// large targets (whose pieces use the other bank's stage 3 at the same time), tokens and flushes.
TEST_CASE("pixel_writer: rmw pieces of more than 8 units (both rows on one line), several clocks in stage 3") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  tb::PrimGen g(seed ^ 0x1616ull);
  struct Tiny {
    Target t;
    bool b565;
    uint32_t w, h;  // pixels
  };
  const Tiny ts[] = {
      {target(0x400000u, 32, true), false, 2, 8},         // 4x RGBA8, 2 px: 16-dword pieces
      {target(0x400400u + 16u, 48, true), false, 3, 8},   // 3 px, base 16 bytes into a line
      {target(0x400800u, 16, true), true, 2, 8},          // 4x B5G6R5, 2 px: 16 halfwords
      {target(0x400C00u + 8u, 24, true), true, 3, 8},
      {target(0x401000u, 32, true), true, 4, 8},          // 4 px: both rows fill the line
      {target(0x401400u, 40, true), true, 5, 8},          // rows 20 halfwords apart
      {target(0x401800u, 32, false), true, 16, 8},        // 1x B5G6R5: halfwords k and k + 16
      {target(0x401C00u, 8, false), false, 2, 8},         // 1x RGBA8, 2 px: 4-dword pieces
      {target(0x500000u, 1024, true), false, 64, 8},      // ordinary targets
      {target(0x600000u + 4u, 1024, false), true, 64, 8},
  };
  constexpr size_t kTiny = 8;
  // Per target: plain, "over", a write mask, two random rmw states (some logic ops).
  std::vector<std::vector<OmState>> oms;
  for (const Tiny& t : ts) {
    uint32_t fmt = t.b565 ? static_cast<uint32_t>(RT_FMT_B5G6R5) : static_cast<uint32_t>(g.range(0, 2));
    // RGBA8_SRGB on the 3-pixel 4x target and the 2-pixel 1x one: only SrgbLanes (2) lanes per
    // bank have the sRGB path, so their pieces (up to 12 and 4 units) take several clocks
    if (&t == &ts[1] || &t == &ts[7]) fmt = RT_FMT_RGBA8_SRGB;
    OmState plain;
    plain.fmt = fmt;
    OmState over = plain;
    over.blend = 1;
    over.src = BF_SRC_ALPHA;
    over.dst = BF_INV_SRC_ALPHA;
    over.src_a = BF_ONE;
    over.dst_a = BF_INV_SRC_ALPHA;
    OmState masked = plain;
    masked.mask_off = t.b565 ? 0xDu : 0x6u;
    std::vector<OmState> v = {plain, over, masked};
    for (int k = 0; k < 2; ++k) {
      OmState o = random_om(g, true);
      o.fmt = fmt;
      if (g.chance(0.3)) {
        o.lop_en = 1;
        o.lop = static_cast<uint32_t>(g.range(0, 15));
      }
      v.push_back(o);
    }
    oms.push_back(v);
  }
  PwCase c;
  for (int s = 0; s < 4; ++s) {
    std::vector<QuadPkt> seg;
    for (int i = 0; i < 700; ++i) {
      g.maybe_token(seg, 0.01);
      const size_t ti = g.chance(0.8) ? static_cast<size_t>(g.range(0, kTiny - 1))
                                      : kTiny + static_cast<size_t>(g.range(0, 1));
      const Tiny& t = ts[ti];
      const uint32_t qx = static_cast<uint32_t>(g.range(0, (t.w + 1) / 2 - 1));
      const uint32_t qy = static_cast<uint32_t>(g.range(0, t.h / 2 - 1));
      const int kind = static_cast<int>(g.range(0, 5));
      uint32_t m = kind <= 2 ? 0xFFFFu : kind == 2 ? (1u << g.range(0, 15)) : static_cast<uint32_t>(g.bits64() & 0xFFFFu);
      if (2 * qx + 1 >= t.w) m &= t.t.msaa ? 0x0F0Fu : 0x5u;  // the right column is past the width
      if ((t.t.msaa ? m : (m & 0xFu)) == 0) m |= 1;
      const size_t st = g.chance(0.2) ? 0 : static_cast<size_t>(g.range(1, 4));
      QuadPkt q = quad(t.t, qx, qy, m, static_cast<uint32_t>(g.bits64()), oms[ti][st]);
      q.tri_id = static_cast<uint32_t>(i);
      seg.push_back(q.canonical());
    }
    c.segments.push_back(seg);
  }
  random_background(c, g);
  // rmw pieces by units (dwords, or halfwords for B5G6R5)
  uint64_t big = 0, big16 = 0, rmw_pieces = 0;
  for (const auto& seg : c.segments) {
    for (const QuadPkt& q : seg) {
      if (q.eop || !model::PixelWriter::rmw(q)) continue;
      for (const auto& p : model::PixelWriter::pieces(q)) {
        const uint32_t units = static_cast<uint32_t>(__builtin_popcount(p.mask)) / (q.om.fmt == RT_FMT_B5G6R5 ? 1u : 2u);
        ++rmw_pieces;
        big += units > 8;
        big16 += units == 16;
      }
    }
  }
  const Expect e = expect(c, model::PW_ENTRIES);
  std::printf("  big pieces: %llu rmw pieces, %llu of more than 8 units (%llu of 16), %llu fills, %zu line requests\n",
              static_cast<unsigned long long>(rmw_pieces), static_cast<unsigned long long>(big),
              static_cast<unsigned long long>(big16), static_cast<unsigned long long>(e.fills), e.lines.size());
  REQUIRE(big > 400);
  REQUIRE(big16 > 250);
  check_all("big_pieces", c, seed);
}

TEST_CASE("pixel_writer: blended quads on cached lines, one quad per clock") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  // A 32x16 (1x) or 16x8 (4x) rectangle (32 lines: the cache holds it), first drawn plain (the
  // lines are allocated, all valid), then `passes` times alpha-blended (or, mode 2, with the
  // logic op XOR: the same read-modify-write path): every blended quad hits. Stage 3 has
  // BlendLanes (4) blend lanes per bank: a 1x quad row (2 dwords) blends in one clock, a 4x quad
  // row (8 samples) in two, so blended 4x quads go at half a quad per clock (mode 1; with 8
  // lanes it was one). Mode 3: a 2x64 4x target (pitch 32: both rows of a quad on one line, one
  // 16-dword piece per quad, all in bank 0's 32 entries): 4 clocks per piece, a quarter quad per
  // clock. Modes 4 and 5: the 1x and 4x rectangles blended on RGBA8_SRGB targets, whose pieces go
  // through the SrgbLanes (2) sRGB lanes per bank: a 1x quad row (2 units) in one clock, a 4x
  // one (8 samples) in four.
  for (const int mode : {0, 1, 2, 3, 4, 5}) {
    const bool msaa = mode == 1 || mode == 3 || mode == 5;
    const bool srgb = mode >= 4;
    const uint32_t w = mode == 3 ? 2 : msaa ? 16 : 32, h = mode == 3 ? 64 : msaa ? 8 : 16, passes = 8;
    OmState over;
    if (mode == 2) {
      over.lop_en = 1;
      over.lop = LOP_XOR;
    } else {
      over.blend = 1;
      over.src = BF_SRC_ALPHA;
      over.dst = BF_INV_SRC_ALPHA;
      over.op = BOP_ADD;
      over.src_a = BF_ONE;
      over.dst_a = BF_INV_SRC_ALPHA;
      over.op_a = BOP_ADD;
    }
    if (srgb) over.fmt = RT_FMT_RGBA8_SRGB;
    const Target t = target(0x200000u, w * (msaa ? 16 : 4), msaa);
    uint64_t cyc[2] = {0, 0};
    size_t quads = 0;
    for (int run = 0; run < 2; ++run) {
      PwCase c;
      std::vector<QuadPkt> seg;
      full_rect(seg, t, w, h, 0x80402010u);
      for (auto& q : seg) q.om.fmt = over.fmt;
      const size_t plain = seg.size();
      for (uint32_t p = 0; run == 1 && p < passes; ++p) {
        std::vector<QuadPkt> b;
        full_rect(b, t, w, h, 0x40C08020u + p);
        for (auto& q : b) q.om = over;
        seg.insert(seg.end(), b.begin(), b.end());
      }
      quads = seg.size() - plain;
      seg.push_back(tb::PrimGen::token<QuadPkt>());
      c.segments.push_back(seg);
      const Expect e = expect(c, model::PW_ENTRIES);
      if (run == 1) REQUIRE(e.fills == 0);
      BenchCfg cfg;
      cfg.seed = seed;
      cfg.test = std::string(mode == 2 ? "logic_hits/" : srgb ? "blend_hits_srgb/" : "blend_hits/") +
                 (mode == 3 ? "4x_2px" : msaa ? "4x" : "1x");
      const BenchResult res = run_pw(c, e, cfg);
      INFO(res.report);
      REQUIRE(res.ok);
      cyc[run] = res.first_cycles;
    }
    const double rate = static_cast<double>(quads) / static_cast<double>(cyc[1] - cyc[0]);
    std::printf("  %s quads on cached lines (%s): %zu quads in %llu extra cycles: %.3f quads/clock\n",
                mode == 2 ? "logic-op (XOR)" : srgb ? "sRGB-blended" : "blended", mode == 3 ? "4x, 2 pixels wide: 16-dword pieces" : msaa ? "4x" : "1x",
                quads, static_cast<unsigned long long>(cyc[1] - cyc[0]), rate);
    CHECK(rate >= (mode == 3 ? 0.24 : mode == 5 ? 0.24 : mode == 1 ? 0.48 : 0.95));
  }
}

TEST_CASE("pixel_writer: quad_full rate at 32 B/clock, 200 cycles") {
  const uint64_t seed = tb::announce_seed("rtl_pixel_writer");
  struct R {
    const char* name;
    bool msaa;
    double min_rate;  // pixels (1x) or samples (4x) per clock
  };
  for (const R& r : {R{"quad_full 256x256 1x", false, 3.6}, R{"quad_full 128x128 4x", true, 7.5}}) {
    PwCase c;
    std::vector<QuadPkt> seg;
    const uint32_t w = r.msaa ? 128 : 256;
    full_rect(seg, target(0x100000u, w * (r.msaa ? 16 : 4), r.msaa), w, w, 0x80808080u);
    seg.push_back(tb::PrimGen::token<QuadPkt>());
    c.segments.push_back(seg);
    const Expect e = expect(c, model::PW_ENTRIES);
    BenchCfg cfg;
    cfg.seed = seed;
    cfg.test = r.name;
    const BenchResult res = run_pw(c, e, cfg);
    INFO(res.report);
    REQUIRE(res.ok);
    const double px = static_cast<double>(w) * w * (r.msaa ? 4 : 1);
    const double rate = px / static_cast<double>(res.first_cycles);
    std::printf("  %s: %zu quads, %zu line writes, %llu cycles to the completion: %.3f %s/clock\n", r.name,
                seg.size() - 1, e.lines.size(), static_cast<unsigned long long>(res.first_cycles), rate,
                r.msaa ? "samples" : "pixels");
    CHECK(rate >= r.min_rate);
  }
}

// A full-screen alpha-blended quad over a random image at 200 cycles of latency: every line is
// filled once (a miss of a blended piece), so the rate shows whether fills overlap (non-blocking,
// docs/om.md section 5). ARCHITECTURE section 6 (OM row): >= 3.6 pixels/clock, checked on 256x256
// ("[.bench]": `build/tests/rtl_pixel_writer "[.bench]"`); the default run is 128x64, where the
// first fill's latency and the final flush weigh more (>= 3.0; blocking fills gave 0.076).
namespace {
void blended_screen(uint32_t w, uint32_t h, uint64_t seed, double min_rate) {
  OmState over;
  over.blend = 1;
  over.src = BF_SRC_ALPHA;
  over.dst = BF_INV_SRC_ALPHA;
  over.op = BOP_ADD;
  over.src_a = BF_ONE;
  over.dst_a = BF_INV_SRC_ALPHA;
  over.op_a = BOP_ADD;
  PwCase c;
  std::vector<QuadPkt> seg;
  const Target t = target(0x100000u, w * 4, false);
  full_rect(seg, t, w, h, 0x80C04020u);
  for (auto& q : seg) q.om = over;
  seg.push_back(tb::PrimGen::token<QuadPkt>());
  c.segments.push_back(seg);
  tb::PrimGen g(seed);
  random_background(c, g);
  const Expect e = expect(c, model::PW_ENTRIES);
  BenchCfg cfg;
  cfg.seed = seed;
  cfg.dram.latency = 200;
  cfg.test = "blended_screen";
  const BenchResult res = run_pw(c, e, cfg);
  INFO(res.report);
  REQUIRE(res.ok);
  const double rate = static_cast<double>(w) * h / static_cast<double>(res.first_cycles);
  std::printf("  blended full-screen quad %ux%u at 200 cycles: %zu quads, %llu fills, %llu cycles: %.3f pixels/clock\n",
              w, h, seg.size() - 1, static_cast<unsigned long long>(e.fills),
              static_cast<unsigned long long>(res.first_cycles), rate);
  CHECK(rate >= min_rate);
}
}  // namespace

TEST_CASE("pixel_writer: blended full-screen quad at 200 cycles, 128x64") {
  blended_screen(128, 64, tb::announce_seed("rtl_pixel_writer"), 3.0);
}

TEST_CASE("pixel_writer: blended full-screen quad at 200 cycles, 256x256", "[.bench]") {
  blended_screen(256, 256, tb::announce_seed("rtl_pixel_writer"), 3.6);
}
