// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the texture sampler (rtl/tex/tex.sv vs cpp_model/tex). Every output quad is
// compared field by field, in order, with the model's, under random input gaps, output
// back-pressure and memory latency (tb::LineDram with jitter). Cases: random textures (every
// format, non-square and non-power-of-two chains), random samplers (every filter, mip mode,
// address mode, bias and clamps), random coordinates including huge, negative, infinite and NaN
// ones; bad descriptors (every TEX_FAULT_*, with fault_o counted); a thrash case (many textures,
// L1 conflicts, descriptor refetches); descriptors and texels rewritten at the same addresses
// behind an inval_i pulse; quads of consecutive draws interleaved quad by quad as the merge of
// several rasterizers delivers them (descriptor slots: each descriptor read once when they fit,
// no drain per change; and more descriptors than slots). `[.bench]` reports samples per clock, L1
// hit rate and bytes per sample at a 200-cycle latency on a magnified and a minified quad stream.
#define CATCH_CONFIG_MAIN
#include <algorithm>
#include <functional>
#include <memory>
#include <set>

#include "Vtex.h"
#include "line_dram.h"
#include "tex/tex.h"
#include "tex/tex_gen.h"
#include "unit_test_main.h"

using namespace pineda;
namespace tx = pineda::model::tex;

namespace {

struct Segment {
  std::vector<TexInPkt> quads;
  std::vector<std::pair<uint32_t, uint32_t>> pokes;  // dword writes before the segment (then inval_i)
};

struct TexCase {
  Memory mem;
  std::vector<Segment> segs;
  uint32_t vb = 0, vl = 0xFFFFFFFFu;
};

struct Expect {
  std::vector<TexOutPkt> out;
  uint64_t faults = 0, samples = 0, trilinear = 0;
};

Expect expect(const TexCase& c) {
  Expect e;
  Memory mem = c.mem;
  tx::Tex unit;
  for (const auto& s : c.segs) {
    for (const auto& [a, v] : s.pokes) mem.write32(a, v);
    for (const auto& q : s.quads) {
      const TexOutPkt o = unit.process(q, mem, c.vb, c.vl);
      e.faults += o.fault ? 1 : 0;
      e.out.push_back(o);
    }
  }
  e.samples = unit.stats().samples;
  e.trilinear = unit.stats().trilinear_quads;
  return e;
}

struct Cfg {
  uint64_t seed = 1;
  double in_gap = 0, out_stall = 0;
  tb::LineDramConfig dram{};
  std::string test;
};

constexpr uint32_t kDescBase = 0x00100000u;  // descriptors: texture k at + 64k, sampler k at + 32 + 64k
constexpr uint32_t kTexBase = 0x00200000u;

struct Result {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0, taps = 0, misses = 0, faults = 0, bytes = 0;
  uint64_t max_outstanding = 0;  // line requests in flight at the memory, at most
  uint64_t out_stalled = 0;      // clocks with a result held by back-pressure
  uint64_t stalled_fills = 0;    // clocks with back-pressure on the output while lines came back
  uint64_t first_out = 0, last_out = 0;  // cycles of the first and the last result
  uint64_t desc_reqs = 0;                // line requests for descriptors (in [kDescBase, kTexBase))
  uint64_t texel_reqs = 0;               // line requests for texels (the rest)
  uint64_t texel_rereqs = 0;             // texel line requests for a line requested before (in the segment)
};

Result run(const TexCase& c, const Expect& e, const Cfg& cfg) {
  Result res;
  tb::VlDriver<Vtex> drv(tb::unit_driver_config(cfg.test, cfg.seed, "build/tests/rtl_tex", 20'000));
  Vtex& dut = drv.dut();
  Memory mem = c.mem;
  tb::LineDram dram(mem, tb::unit_dram_config(cfg.dram, cfg.seed));
  tb::StreamSink<TexOutPkt> sink("tex_out", e.out, drv.run(), cfg.out_stall);
  tb::idle_ports(dut);
  dut.inval_i = 0;
  dut.valid_base_i = c.vb;
  dut.valid_limit_i = c.vl;
  drv.reset();
  size_t seg = 0;
  bool need_inval = false;
  std::set<uint32_t> requested;  // texel lines requested in this segment
  auto src = std::make_unique<tb::StreamSource<TexInPkt>>(c.segs[0].quads, cfg.in_gap);
  while (true) {
    // A new segment: its memory writes, then one inval_i clock once the unit is idle.
    if (src->done() && seg + 1 < c.segs.size() && dut.idle_o && dram.outstanding() == 0 && !need_inval &&
        sink.count() == [&] {
          size_t n = 0;
          for (size_t k = 0; k <= seg; ++k) n += c.segs[k].quads.size();
          return n;
        }()) {
      ++seg;
      for (const auto& [a, v] : c.segs[seg].pokes) mem.write32(a, v);
      src = std::make_unique<tb::StreamSource<TexInPkt>>(c.segs[seg].quads, cfg.in_gap);
      need_inval = true;
      requested.clear();
    }
    dut.inval_i = need_inval;
    if (need_inval) {
      dut.in_valid_i = 0;
    } else {
      src->drive(drv.rng(), dut.in_valid_i, dut.in_i);
    }
    dut.out_ready_i = sink.ready(drv.rng());
    dut.mem_req_ready_i = dram.req_ready();
    dut.mem_rsp_valid_i = dram.rsp_valid();
    tb::pack_sig(dram.rsp(), dut.mem_rsp_i);
    drv.eval_low();
    const bool in_fire = !need_inval && src->fire(dut.in_ready_o);
    const bool req_fire = dut.mem_req_valid_o && dut.mem_req_ready_i;
    const bool rsp_fire = dut.mem_rsp_valid_i && dut.mem_rsp_ready_o;
    const MemLineReq req = tb::unpack_sig<MemLineReq>(dut.mem_req_o);
    std::string rep;
    bool out_fire = false;
    bool bad = !sink.take(dut.out_valid_o, dut.out_ready_i, dut.out_o, drv.cycle(), rep, &out_fire);
    if (!bad && req_fire && req.we) {
      bad = true;
      rep = drv.head("WRITE") + ": the sampler wrote memory\n";
    }
    res.taps += dut.tap_o;
    if (req_fire && req.addr >= kDescBase && req.addr < kTexBase) res.desc_reqs++;
    else if (req_fire) {
      res.texel_reqs++;
      if (!requested.insert(req.addr).second) res.texel_rereqs++;
    }
    res.max_outstanding = std::max<uint64_t>(res.max_outstanding, dram.outstanding());
    const bool held = dut.out_valid_o && !dut.out_ready_i;
    res.out_stalled += held;
    if (out_fire) {
      if (res.first_out == 0) res.first_out = drv.cycle();
      res.last_out = drv.cycle();
    }
    res.stalled_fills += held && rsp_fire;
    res.misses += dut.miss_o;
    res.faults += dut.fault_o;
    if (in_fire || req_fire || rsp_fire || out_fire || need_inval) drv.progress();
    if (bad) {
      res.report = rep;
      return res;
    }
    if (need_inval && dut.idle_o) need_inval = false;  // this clock's inval_i is taken
    if (!tb::edge_with_dram(drv, dram, req_fire, req, rsp_fire, res.report)) return res;
    if (seg + 1 == c.segs.size() && src->done() && sink.done() && dut.idle_o && dram.outstanding() == 0) break;
    if (drv.stalled()) {
      res.report = drv.no_progress_report("segment " + std::to_string(seg) + ", " + sink.progress("quads"));
      return res;
    }
  }
  res.cycles = drv.cycle();
  res.bytes = dram.stats().total_bytes();
  std::string rep;
  if (!sink.finish(rep)) {
    res.report = rep;
    return res;
  }
  if (res.faults != e.faults) {
    res.report = "fault_o pulses " + std::to_string(res.faults) + ", expected " + std::to_string(e.faults) + "\n";
    return res;
  }
  res.ok = true;
  return res;
}

// ------------------------------------------------------------------------------ case builders
uint32_t tex_addr(uint32_t k) { return kDescBase + 64 * k; }
uint32_t samp_addr(uint32_t k) { return kDescBase + 32 + 64 * k; }

// `ntex` random textures (every format, sizes from 1 to 300, power-of-two or not, random level
// counts), `nsamp` random samplers.
void random_textures(TexCase& c, std::mt19937& r, uint32_t ntex, uint32_t nsamp, uint32_t max_dim) {
  uint64_t at = kTexBase;
  for (uint32_t k = 0; k < ntex; ++k) {
    const uint32_t fmt = k % 6;
    const uint32_t w = tx::gen::rnd(r, 0, 1) ? (1u << tx::gen::rnd(r, 0, 8)) % (max_dim + 1) : tx::gen::rnd(r, 1, max_dim);
    const uint32_t h = tx::gen::rnd(r, 0, 1) ? (1u << tx::gen::rnd(r, 0, 8)) % (max_dim + 1) : tx::gen::rnd(r, 1, max_dim);
    uint32_t ww = w ? w : 1, hh = h ? h : 1;
    if (k + 1 == ntex && ntex >= 8) ww = 4096, hh = 3;  // long chains: 13 levels, a 4096-wide level
    if (k + 2 == ntex && ntex >= 8) ww = 5, hh = 4096;
    const uint32_t levels = tx::gen::rnd(r, 1, tx::full_levels(ww, hh));
    const uint64_t end = tx::gen::make_texture(c.mem, r, tex_addr(k), static_cast<uint32_t>(at), fmt, ww, hh, levels);
    at = (end + 4095) & ~uint64_t(4095);
  }
  // samplers: random, but sampler k covers address modes (k % 5, (k + 2) % 5), mip k % 3 and
  // the four MIN/MAG filter pairs, so ten samplers see every mode on both axes
  for (uint32_t k = 0; k < nsamp; ++k) {
    SampDesc sd = tx::gen::random_sampler(r);
    sd.addr_u = k % 5;
    sd.addr_v = (k + 2) % 5;
    sd.mip = k % 3;
    sd.min = k & 1;
    sd.mag = (k >> 1) & 1;
    tx::gen::put_desc(c.mem, samp_addr(k), sd.pack().data());
  }
}

std::vector<TexInPkt> random_quads(std::mt19937& r, uint32_t n, uint32_t ntex, uint32_t nsamp) {
  std::vector<TexInPkt> v;
  for (uint32_t i = 0; i < n; ++i) {
    if (tx::gen::rnd(r, 0, 30) == 0) {
      TexInPkt t;
      t.eop = 1;
      v.push_back(t);
    }
    v.push_back(tx::gen::random_quad(r, tex_addr(tx::gen::rnd(r, 0, ntex - 1)), samp_addr(tx::gen::rnd(r, 0, nsamp - 1)), true));
  }
  return v;
}

// Every stall pattern; `latency` and `jitter` of the memory (default 20 + 0..60). Returns the
// results in kStallPatterns order.
std::vector<Result> check(const TexCase& c, const std::string& name, uint64_t seed, double latency_mix = 1.0,
                          uint32_t latency = 20, uint32_t jitter = 60) {
  const Expect e = expect(c);
  std::vector<Result> all;
  for (const auto& p : tb::kStallPatterns) {
    Cfg cfg;
    cfg.seed = seed;
    cfg.in_gap = p.in_gap;
    cfg.out_stall = p.out_stall;
    cfg.test = name + "/" + p.name;
    cfg.dram.latency = static_cast<uint32_t>(latency * latency_mix);
    cfg.dram.jitter = static_cast<uint32_t>(jitter * latency_mix);
    const Result res = run(c, e, cfg);
    INFO(res.report);
    REQUIRE(res.ok);
    std::printf("  %-28s %-10s %6zu quads %8llu cycles, %llu taps, %llu misses, %llu texel line requests (%llu again), "
                "%llu faults, %llu lines in flight max, %llu descriptor reads\n",
                name.c_str(), p.name, e.out.size(), static_cast<unsigned long long>(res.cycles),
                static_cast<unsigned long long>(res.taps), static_cast<unsigned long long>(res.misses),
                static_cast<unsigned long long>(res.texel_reqs), static_cast<unsigned long long>(res.texel_rereqs),
                static_cast<unsigned long long>(res.faults),
                static_cast<unsigned long long>(res.max_outstanding),
                static_cast<unsigned long long>(res.desc_reqs));
    all.push_back(res);
  }
  return all;
}

}  // namespace

TEST_CASE("tex: random formats, filters, address modes, wild coordinates", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  random_textures(c, r, 12, 10, 300);
  c.segs.push_back({random_quads(r, 600, 12, 10), {}});
  const Expect e = expect(c);
  CHECK(e.trilinear > 10);
  check(c, "random", seed);
}

TEST_CASE("tex: long random run (more textures, quads and latency)", "[.long]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  random_textures(c, r, 24, 20, 300);
  c.segs.push_back({random_quads(r, 4000, 24, 20), {}});
  check(c, "long", seed, 4.0);
}

TEST_CASE("tex: bad descriptors sample zero and raise fault_o", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  c.vb = 0x00080000u;
  c.vl = 0x003FFFEFu;
  random_textures(c, r, 4, 2, 64);
  // bad textures 4..9 and a bad sampler 2
  auto bad_tex = [&](uint32_t k, uint32_t base, uint32_t fmt, uint32_t w, uint32_t h, uint32_t levels) {
    TexDesc t;
    t.base = base;
    t.fmt = fmt;
    t.width = w;
    t.height = h;
    t.levels = levels;
    tx::gen::put_desc(c.mem, tex_addr(k), t.pack().data());
  };
  bad_tex(4, kTexBase, TEX_FMT_RGBA8, 0, 8, 1);                // zero width
  bad_tex(5, kTexBase, 6, 8, 8, 1);                            // unknown format
  bad_tex(6, kTexBase, TEX_FMT_RGBA8, 8, 8, 5);                // too many levels
  bad_tex(7, kTexBase + 32, TEX_FMT_RGBA8, 8, 8, 1);           // misaligned base
  bad_tex(8, 0x003FF000u, TEX_FMT_RGBA8, 64, 64, 1);           // past VALID_LIMIT
  bad_tex(9, 0x00040000u, TEX_FMT_RGBA8, 8, 8, 1);             // below VALID_BASE
  SampDesc s;
  s.mip = 3;
  tx::gen::put_desc(c.mem, samp_addr(2), s.pack().data());
  std::vector<TexInPkt> q;
  for (int i = 0; i < 120; ++i) {
    const uint32_t kind = tx::gen::rnd(r, 0, 9);
    uint32_t ta = tex_addr(tx::gen::rnd(r, 0, 9)), sa = samp_addr(tx::gen::rnd(r, 0, 2));
    if (kind == 0) ta += 4;                      // misaligned descriptor
    if (kind == 1) sa = 0x00010000u;             // below the window
    if (kind == 2) ta = 0x003FFFE0u;             // straddles VALID_LIMIT
    q.push_back(tx::gen::random_quad(r, ta, sa, true));
  }
  c.segs.push_back({q, {}});
  const Expect e = expect(c);
  uint64_t kinds[5] = {};
  for (const auto& o : e.out) kinds[o.fault]++;
  for (int k = 0; k < 5; ++k) CHECK(kinds[k] > 0);  // every fault kind (and good quads) occurs
  check(c, "bad_desc", seed);
}

TEST_CASE("tex: thrash (many textures, L1 conflicts, descriptor refetch)", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  random_textures(c, r, 40, 4, 64);
  std::vector<TexInPkt> q;
  for (int i = 0; i < 160; ++i) q.push_back(tx::gen::random_quad(r, tex_addr(static_cast<uint32_t>(i * 7) % 40), samp_addr(static_cast<uint32_t>(i) % 4), false));
  c.segs.push_back({q, {}});
  check(c, "thrash", seed, 0.5);
}

TEST_CASE("tex: descriptors and texels rewritten behind inval_i", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  random_textures(c, r, 2, 2, 32);
  c.segs.push_back({random_quads(r, 30, 2, 2), {}});
  // segment 2: sampler 0 and texture 1's descriptor change, texture 0's first texels change
  Segment s2;
  const SampDesc ns = tx::gen::random_sampler(r);
  const auto w = ns.pack();
  for (int k = 0; k < 8; ++k) s2.pokes.push_back({samp_addr(0) + 4 * k, w[k]});
  TexDesc t1 = TexDesc::unpack([&] {
    std::array<uint32_t, 8> d{};
    for (int k = 0; k < 8; ++k) d[k] = c.mem.read32(tex_addr(1) + 4 * k);
    return d;
  }().data());
  t1.fmt = (t1.fmt + 1) % 6;  // same bytes, another decoding (a view)
  t1.levels = 1;
  const auto tw = t1.pack();
  for (int k = 0; k < 8; ++k) s2.pokes.push_back({tex_addr(1) + 4 * k, tw[k]});
  for (uint32_t k = 0; k < 64; ++k) s2.pokes.push_back({kTexBase + 4 * k, r()});
  s2.quads = random_quads(r, 30, 2, 2);
  c.segs.push_back(s2);
  check(c, "inval", seed);
}


// ------------------------------------------------------------------------------ bench
namespace {

// A screen-space walk of quads over a w x h texture, row by row, `scale` texels per pixel.
std::vector<TexInPkt> walk(uint32_t quads_x, uint32_t quads_y, float scale, uint32_t tex, uint32_t samp, float tw, float th) {
  std::vector<TexInPkt> v;
  for (uint32_t qy = 0; qy < quads_y; ++qy) {
    for (uint32_t qx = 0; qx < quads_x; ++qx) {
      TexInPkt q;
      q.tex = tex;
      q.samp = samp;
      q.live = 15;
      q.tag = static_cast<uint16_t>(qy * quads_x + qx);
      for (int p = 0; p < 4; ++p) {
        const float px = static_cast<float>(2 * qx + (p & 1)) + 0.5f, py = static_cast<float>(2 * qy + (p >> 1)) + 0.5f;
        q.tc[p].u = tx::gen::fbits(px * scale / tw);
        q.tc[p].v = tx::gen::fbits(py * scale / th);
      }
      v.push_back(q);
    }
  }
  return v;
}

}  // namespace

TEST_CASE("tex: bank and L1 index conflicts inside a quad (odd sizes at address-mode edges, spread pixels)", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  // odd sizes: wrap / mirror fold two taps of a pixel onto one parity bank at different blocks;
  // 257 and 1024 wide: blocks 64 apart share an L1 index
  const uint32_t shapes[][4] = {{TEX_FMT_RGBA8, 5, 7, 1},   {TEX_FMT_BGRA8, 13, 3, 2},  {TEX_FMT_RGBA8, 257, 9, 1},
                                {TEX_FMT_BC1, 1024, 64, 1}, {TEX_FMT_B5G6R5, 31, 17, 3}, {TEX_FMT_RGBA8_SRGB, 259, 260, 2}};
  uint64_t at = kTexBase;
  for (uint32_t k = 0; k < 6; ++k) {
    const uint64_t end = tx::gen::make_texture(c.mem, r, tex_addr(k), static_cast<uint32_t>(at), shapes[k][0], shapes[k][1],
                                               shapes[k][2], shapes[k][3]);
    at = (end + 4095) & ~uint64_t(4095);
  }
  const uint32_t modes[][2] = {{TEX_ADDR_WRAP, TEX_ADDR_WRAP},       {TEX_ADDR_MIRROR, TEX_ADDR_MIRROR},
                               {TEX_ADDR_CLAMP, TEX_ADDR_MIRROR_ONCE}, {TEX_ADDR_BORDER, TEX_ADDR_WRAP},
                               {TEX_ADDR_MIRROR, TEX_ADDR_CLAMP},    {TEX_ADDR_WRAP, TEX_ADDR_MIRROR}};
  for (uint32_t k = 0; k < 6; ++k) {
    SampDesc sd;
    sd.min = sd.mag = TEX_FILTER_LINEAR;
    sd.mip = k % 3;
    sd.addr_u = modes[k][0];
    sd.addr_v = modes[k][1];
    sd.max_lod = (k & 1) ? 0 : 4095;  // max LOD 0: widely spread pixels still sample level 0
    sd.border = r();
    tx::gen::put_desc(c.mem, samp_addr(k), sd.pack().data());
  }
  std::vector<TexInPkt> q;
  for (int i = 0; i < 300; ++i) {
    TexInPkt p;
    p.tex = tex_addr(tx::gen::rnd(r, 0, 5));
    p.samp = samp_addr(tx::gen::rnd(r, 0, 5));
    p.live = tx::gen::rnd(r, 0, 5) ? 15u : tx::gen::rnd(r, 0, 15);
    p.tag = static_cast<uint16_t>(i);
    const bool spread = tx::gen::rnd(r, 0, 2) == 0;
    // edge quads: the centre within a texel or two of an integer u / v (a wrap seam); spread
    // quads: pixels a quarter to a half texture apart
    const float cu = static_cast<float>(tx::gen::rnd(r, 0, 4)) - 2.0f + (static_cast<float>(tx::gen::rnd(r, 0, 2000)) - 1000.0f) / 40000.0f;
    const float cv = static_cast<float>(tx::gen::rnd(r, 0, 4)) - 2.0f + (static_cast<float>(tx::gen::rnd(r, 0, 2000)) - 1000.0f) / 40000.0f;
    const float d = spread ? 0.25f + static_cast<float>(tx::gen::rnd(r, 0, 1000)) / 4000.0f : 1.0f / 300.0f;
    for (int k = 0; k < 4; ++k) {
      p.tc[k].u = tx::gen::fbits(cu + d * static_cast<float>(k & 1) + (spread ? 0.37f * static_cast<float>(k >> 1) : 0.0f));
      p.tc[k].v = tx::gen::fbits(cv + d * static_cast<float>(k >> 1));
    }
    q.push_back(p);
  }
  // the same quads grouped by descriptor pair (no refetch drain between them), then interleaved
  std::vector<TexInPkt> sorted = q;
  std::stable_sort(sorted.begin(), sorted.end(), [](const TexInPkt& a, const TexInPkt& b) {
    return std::pair<uint32_t, uint32_t>(static_cast<uint32_t>(a.tex), static_cast<uint32_t>(a.samp)) <
           std::pair<uint32_t, uint32_t>(static_cast<uint32_t>(b.tex), static_cast<uint32_t>(b.samp));
  });
  sorted.insert(sorted.end(), q.begin(), q.begin() + 60);
  c.segs.push_back({sorted, {}});
  check(c, "conflicts", seed);
}

TEST_CASE("tex: many line requests in flight, back-pressure while they return", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  tx::gen::make_texture(c.mem, r, tex_addr(0), kTexBase, TEX_FMT_RGBA8, 512, 512, 10);
  tx::gen::make_texture(c.mem, r, tex_addr(1), kTexBase + 0x200000u, TEX_FMT_BC3, 300, 200, 9);
  SampDesc s;
  s.min = s.mag = TEX_FILTER_LINEAR;
  s.mip = TEX_MIP_LINEAR;
  s.max_lod = 4095;
  tx::gen::put_desc(c.mem, samp_addr(0), s.pack().data());
  std::vector<TexInPkt> q = walk(24, 12, 2.7f, tex_addr(0), samp_addr(0), 512.0f, 512.0f);
  const std::vector<TexInPkt> q2 = walk(16, 8, 3.3f, tex_addr(1), samp_addr(0), 300.0f, 200.0f);
  q.insert(q.end(), q2.begin(), q2.end());
  c.segs.push_back({q, {}});
  const std::vector<Result> res = check(c, "inflight", seed, 1.0, 200, 40);
  CHECK(res[0].max_outstanding >= 64);  // no stalls: the misses of many quads overlap
  CHECK(res[2].stalled_fills > 0);      // heavy back-pressure: lines keep coming back while the output waits
}

TEST_CASE("tex: raw-line buffer (blocks of BC1, BC3 and B5G6R5 lines share a fetch)", "[tex]") {
  // Several blocks per memory line (8 BC1, 4 BC3, 2 B5G6R5 blocks): a line fetched for one block
  // serves the others from the raw-line buffer. Minified trilinear walks at latency 200 (many
  // records wait on lines in flight), then quads alternating between the three textures at
  // scattered places, so that the buffer's 32 entries are reused while records that read them
  // are still queued (lines are requested again: counted); then texels rewritten behind inval_i
  // in lines the buffer held (it must forget them). Every stall pattern, results vs the model.
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  TexCase c;
  const uint32_t base1 = kTexBase + 0x100000u, base2 = kTexBase + 0x200000u;
  tx::gen::make_texture(c.mem, r, tex_addr(0), kTexBase, TEX_FMT_BC1, 512, 512, 10);
  tx::gen::make_texture(c.mem, r, tex_addr(1), base1, TEX_FMT_BC3, 300, 200, 9);
  tx::gen::make_texture(c.mem, r, tex_addr(2), base2, TEX_FMT_B5G6R5, 256, 96, 7);
  SampDesc s;
  s.min = s.mag = TEX_FILTER_LINEAR;
  s.mip = TEX_MIP_LINEAR;
  s.max_lod = 4095;
  tx::gen::put_desc(c.mem, samp_addr(0), s.pack().data());
  s.addr_u = TEX_ADDR_MIRROR;
  s.addr_v = TEX_ADDR_WRAP;
  s.mip = TEX_MIP_POINT;
  tx::gen::put_desc(c.mem, samp_addr(1), s.pack().data());
  std::vector<TexInPkt> q = walk(24, 12, 2.7f, tex_addr(0), samp_addr(0), 512.0f, 512.0f);
  for (const auto& w : {walk(16, 8, 3.3f, tex_addr(1), samp_addr(0), 300.0f, 200.0f),
                        walk(16, 8, 1.5f, tex_addr(2), samp_addr(1), 256.0f, 96.0f)}) {
    q.insert(q.end(), w.begin(), w.end());
  }
  for (uint32_t i = 0; i < 240; ++i) {
    TexInPkt p = tx::gen::random_quad(r, tex_addr(i % 3), samp_addr(i % 2), false);
    const float u = static_cast<float>(tx::gen::rnd(r, 0, 1000)) / 1000.0f, v = static_cast<float>(tx::gen::rnd(r, 0, 1000)) / 1000.0f;
    const float d = static_cast<float>(tx::gen::rnd(r, 1, 8)) / 512.0f;
    for (int k = 0; k < 4; ++k) {
      p.tc[k].u = tx::gen::fbits(u + d * static_cast<float>(k & 1));
      p.tc[k].v = tx::gen::fbits(v + d * static_cast<float>(k >> 1));
    }
    q.push_back(p);
  }
  // last: the top left corner of the BC1 and BC3 textures' level 0 (in the buffer at the end)
  const std::vector<TexInPkt> corner0 = walk(6, 2, 1.0f, tex_addr(0), samp_addr(0), 512.0f, 512.0f);
  const std::vector<TexInPkt> corner1 = walk(6, 2, 1.0f, tex_addr(1), samp_addr(0), 300.0f, 200.0f);
  q.insert(q.end(), corner0.begin(), corner0.end());
  q.insert(q.end(), corner1.begin(), corner1.end());
  c.segs.push_back({q, {}});
  Segment s2;
  for (uint32_t k = 0; k < 64; ++k) s2.pokes.push_back({kTexBase + 4 * k, r()});
  for (uint32_t k = 0; k < 64; ++k) s2.pokes.push_back({base1 + 4 * k, r()});
  s2.quads = corner0;
  s2.quads.insert(s2.quads.end(), corner1.begin(), corner1.end());
  c.segs.push_back(s2);
  const std::vector<Result> res = check(c, "rawbuf", seed, 1.0, 200, 40);
  for (const Result& x : res) {
    CHECK(x.texel_reqs * 3 < x.misses * 2);  // blocks come from a line fetched for another block
    CHECK(x.texel_rereqs > 0);           // and entries are reused
  }
}

namespace {

// Quads of consecutive draws interleaved quad by quad, as the merge of several rasterizers
// delivers them (order kept per screen tile only): draw d samples texture tex_of(d) with
// sampler samp_of(d) over a patch of 8 x 4 quads at its own scale; each quad goes to the queue
// of rasterizer (tile) (qx / 2 + qy / 2) % nrast, each queue keeps draw order, and the merge
// takes a random non-empty queue for every quad.
std::vector<TexInPkt> interleaved_draws(std::mt19937& r, uint32_t ndraws, uint32_t nrast,
                                        const std::function<uint32_t(uint32_t)>& tex_of,
                                        const std::function<uint32_t(uint32_t)>& samp_of) {
  std::vector<std::vector<TexInPkt>> queue(nrast);
  const float scales[] = {0.4f, 1.0f, 2.7f, 6.0f};
  uint16_t tag = 0;
  for (uint32_t d = 0; d < ndraws; ++d) {
    const float s = scales[tx::gen::rnd(r, 0, 3)] / 64.0f;  // texels per pixel of a 64-texel texture, in uv
    const float u0 = static_cast<float>(tx::gen::rnd(r, 0, 100)) / 50.0f - 1.0f;
    const float v0 = static_cast<float>(tx::gen::rnd(r, 0, 100)) / 50.0f - 1.0f;
    for (uint32_t qy = 0; qy < 4; ++qy) {
      for (uint32_t qx = 0; qx < 8; ++qx) {
        TexInPkt q;
        q.tex = tex_addr(tex_of(d));
        q.samp = samp_addr(samp_of(d));
        q.live = tx::gen::rnd(r, 0, 7) ? 15u : tx::gen::rnd(r, 1, 15);
        q.tag = tag++;
        for (int p = 0; p < 4; ++p) {
          const float px = static_cast<float>(2 * qx + (p & 1)) + 0.5f, py = static_cast<float>(2 * qy + (p >> 1)) + 0.5f;
          q.tc[p].u = tx::gen::fbits(u0 + px * s);
          q.tc[p].v = tx::gen::fbits(v0 + py * s * 0.8f);
        }
        queue[(qx / 2 + qy / 2) % nrast].push_back(q);
      }
    }
  }
  std::vector<TexInPkt> out;
  std::vector<size_t> at(nrast, 0);
  while (true) {
    std::vector<uint32_t> live;
    for (uint32_t k = 0; k < nrast; ++k) {
      if (at[k] < queue[k].size()) live.push_back(k);
    }
    if (live.empty()) break;
    const uint32_t k = live[tx::gen::rnd(r, 0, static_cast<uint32_t>(live.size()) - 1)];
    out.push_back(queue[k][at[k]++]);
  }
  return out;
}

// Textures of different formats, sizes and chains, and samplers of different filters and
// address modes, so that a quad sampled through another quad's slot gives other results.
void interleave_textures(TexCase& c, std::mt19937& r, uint32_t ntex, uint32_t nsamp) {
  const uint32_t shapes[][4] = {{TEX_FMT_RGBA8, 64, 64, 7},  {TEX_FMT_BC1, 48, 40, 6},      {TEX_FMT_B5G6R5, 33, 64, 4},
                                {TEX_FMT_BGRA8, 64, 17, 5},  {TEX_FMT_RGBA8_SRGB, 20, 30, 3}, {TEX_FMT_BC3, 64, 64, 7},
                                {TEX_FMT_RGBA8, 7, 64, 7},   {TEX_FMT_BC1, 128, 32, 8}};
  uint64_t at = kTexBase;
  for (uint32_t k = 0; k < ntex; ++k) {
    const auto& sh = shapes[k % 8];
    const uint64_t end = tx::gen::make_texture(c.mem, r, tex_addr(k), static_cast<uint32_t>(at), sh[0], sh[1], sh[2], sh[3]);
    at = (end + 4095) & ~uint64_t(4095);
  }
  for (uint32_t k = 0; k < nsamp; ++k) {
    SampDesc sd;
    sd.min = (k % 3) != 1;
    sd.mag = (k % 4) != 2;
    sd.mip = k % 3;
    sd.addr_u = k % 5;
    sd.addr_v = (k + 3) % 5;
    sd.lod_bias = static_cast<int32_t>(k % 2) * 128 - 64;
    sd.max_lod = 4095;
    sd.border = r();
    tx::gen::put_desc(c.mem, samp_addr(k), sd.pack().data());
  }
}

}  // namespace

TEST_CASE("tex: quads of several draws interleaved quad by quad (the merge of several rasterizers)", "[tex]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  {
    // 3 textures and 3 samplers in 9 pairs over 36 draws, 4 rasterizers: every descriptor fits
    // a slot, so each is read once, and nothing waits for the pipeline to drain
    TexCase c;
    interleave_textures(c, r, 3, 3);
    c.segs.push_back({interleaved_draws(r, 36, 4, [](uint32_t d) { return d % 3; }, [](uint32_t d) { return (d / 3) % 3; }), {}});
    const Expect e = expect(c);
    const std::vector<Result> res = check(c, "interleave", seed, 1.0, 200, 40);
    for (const Result& x : res) CHECK(x.desc_reqs == 6);
    // one quad per clock, a trilinear one per two, plus misses: the drained design took about
    // 200 cycles per descriptor change (memory latency), 3 or more changes per draw here
    CHECK(res[0].cycles < 6 * e.out.size());
  }
  {
    // 7 textures and 6 samplers (more than the slots) over 42 draws: misses replace slots no
    // quad in flight uses and wait for one when all are busy
    TexCase c;
    interleave_textures(c, r, 7, 6);
    c.segs.push_back({interleaved_draws(r, 42, 4, [](uint32_t d) { return d % 7; }, [](uint32_t d) { return (d * 5) % 6; }), {}});
    check(c, "interleave_evict", seed, 1.0, 200, 40);
  }
}

TEST_CASE("tex: bench at 200-cycle latency (magnified and minified streams)", "[.bench]") {
  const uint64_t seed = tb::announce_seed("rtl_tex");
  std::mt19937 r(static_cast<uint32_t>(seed));
  struct Stream {
    const char* name;
    uint32_t fmt, mip, filter;
    float scale;  // texels per pixel
  };
  const Stream streams[] = {
      {"magnified_bilinear", TEX_FMT_RGBA8, TEX_MIP_NONE, TEX_FILTER_LINEAR, 0.5f},
      {"minified_trilinear", TEX_FMT_RGBA8, TEX_MIP_LINEAR, TEX_FILTER_LINEAR, 2.7f},
      {"magnified_point", TEX_FMT_RGBA8, TEX_MIP_NONE, TEX_FILTER_POINT, 0.5f},
      {"unit_bilinear", TEX_FMT_RGBA8, TEX_MIP_NONE, TEX_FILTER_LINEAR, 1.0f},
      {"minified_tri_bc1", TEX_FMT_BC1, TEX_MIP_LINEAR, TEX_FILTER_LINEAR, 2.7f},
      {"minified_tri_bc3", TEX_FMT_BC3, TEX_MIP_LINEAR, TEX_FILTER_LINEAR, 2.7f},
  };
  for (const Stream& st : streams) {
    TexCase c;
    tx::gen::make_texture(c.mem, r, tex_addr(0), kTexBase, st.fmt, 1024, 1024, 11);
    SampDesc s;
    s.min = s.mag = st.filter;
    s.mip = st.mip;
    s.max_lod = 4095;
    tx::gen::put_desc(c.mem, samp_addr(0), s.pack().data());
    c.segs.push_back({walk(64, 64, st.scale, tex_addr(0), samp_addr(0), 1024.0f, 1024.0f), {}});
    const Expect e = expect(c);
    Cfg cfg;
    cfg.seed = seed;
    cfg.test = std::string("bench_") + st.name;
    cfg.dram.latency = 200;
    const Result res = run(c, e, cfg);
    INFO(res.report);
    REQUIRE(res.ok);
    const double samples = static_cast<double>(e.samples), cyc = static_cast<double>(res.cycles);
    const double peak = e.trilinear * 2 > e.out.size() ? 2.0 : 4.0;
    // steady state: from the first result to the last (leaves out the descriptor reads and the
    // first line's latency)
    const double steady = (samples - 4.0) / static_cast<double>(res.last_out - res.first_out);
    std::printf("TEX bench %-20s %6.0f samples %7llu cycles: %.3f samples/clock (%.0f%% of peak %.0f; steady %.3f, %.0f%%, "
                "first result at cycle %llu), %.2f texels/clock, "
                "L1 hit rate %.1f%% (%llu taps, %llu misses, %llu texel line requests), %.2f bytes/sample, "
                "%llu lines in flight max\n",
                st.name, samples, static_cast<unsigned long long>(res.cycles), samples / cyc, 100.0 * samples / cyc / peak, peak,
                steady, 100.0 * steady / peak, static_cast<unsigned long long>(res.first_out),
                static_cast<double>(res.taps) / cyc, 100.0 * (1.0 - static_cast<double>(res.misses) / static_cast<double>(res.taps)),
                static_cast<unsigned long long>(res.taps), static_cast<unsigned long long>(res.misses),
                static_cast<unsigned long long>(res.texel_reqs), static_cast<double>(res.bytes) / samples,
                static_cast<unsigned long long>(res.max_outstanding));
  }
}
