// RTL vs model: vertex cache tags (rtl/ia/vertex_tags.sv vs cpp_model/ia/vertex_tags). The unit
// has two output streams (vertices to fetch, triangles by slot); both see random back-pressure
// and are compared packet by packet.
#define CATCH_CONFIG_MAIN
#include "Vvertex_tags.h"
#include "ia/vertex_tags.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct Result {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
};

Result run_bench(const std::vector<IndexPkt>& in, const std::vector<VFetchPkt>& exp_v,
                 const std::vector<PrimPkt>& exp_p, uint64_t seed, double in_gap, double out_stall,
                 const std::string& test) {
  Result res;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed & 0x7fffffff));
  auto dut = std::make_unique<Vvertex_tags>(ctx.get(), "TOP");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  tb::RunId run{test, seed, "build/tests/rtl_vertex_tags --rng-seed " + std::to_string(seed)};
  tb::StreamChecker<VFetchPkt> cv("vtx", &exp_v, run);
  tb::StreamChecker<PrimPkt> cp("prim", &exp_p, run);
  dut->rst_ni = 0;
  dut->clk_i = 0;
  dut->in_valid_i = 0;
  dut->vtx_ready_i = 0;
  dut->prim_ready_i = 0;
  dut->eval();
  for (int i = 0; i < 3; ++i) {
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
  }
  dut->rst_ni = 1;
  size_t next = 0;
  bool offering = false;
  uint64_t cycle = 0, last_progress = 0;
  while (true) {
    if (!offering && next < in.size() && uni(rng) >= in_gap) offering = true;
    dut->in_valid_i = offering;
    if (next < in.size()) tb::pack_sig(in[next], dut->in_i);
    dut->vtx_ready_i = uni(rng) >= out_stall;
    dut->prim_ready_i = uni(rng) >= out_stall;
    dut->clk_i = 0;
    dut->eval();
    const bool in_fire = dut->in_valid_i && dut->in_ready_o;
    const bool v_fire = dut->vtx_valid_o && dut->vtx_ready_i;
    const bool p_fire = dut->prim_valid_o && dut->prim_ready_i;
    std::string rep;
    if (v_fire && !cv.on_transfer(tb::unpack_sig<VFetchPkt>(dut->vtx_o), cycle, rep)) {
      res.report = rep;
      break;
    }
    if (p_fire && !cp.on_transfer(tb::unpack_sig<PrimPkt>(dut->prim_o), cycle, rep)) {
      res.report = rep;
      break;
    }
    if (in_fire || v_fire || p_fire) last_progress = cycle;
    dut->clk_i = 1;
    dut->eval();
    if (in_fire) {
      ++next;
      offering = false;
    }
    ++cycle;
    if (ctx->gotError()) {
      res.report = "ASSERTION FAILED test=" + test + " seed=" + std::to_string(seed) + " cycle=" + std::to_string(cycle);
      break;
    }
    if (next == in.size() && cv.count() == exp_v.size() && cp.count() == exp_p.size() && dut->idle_o) {
      res.ok = cv.finish(rep) && cp.finish(rep);
      res.report = rep;
      break;
    }
    if (cycle - last_progress > 10000) {
      res.report = "NO PROGRESS test=" + test + " seed=" + std::to_string(seed) + " cycle=" + std::to_string(cycle) +
                   ": inputs " + std::to_string(next) + "/" + std::to_string(in.size()) + ", vertices " +
                   std::to_string(cv.count()) + "/" + std::to_string(exp_v.size()) + ", triangles " +
                   std::to_string(cp.count()) + "/" + std::to_string(exp_p.size());
      break;
    }
  }
  res.cycles = cycle;
  dut->final();
  return res;
}

void check(const std::string& test, const std::vector<IndexPkt>& in, uint64_t seed) {
  model::VertexTags tags;
  std::vector<VFetchPkt> ev;
  std::vector<PrimPkt> ep;
  for (const auto& p : in) {
    tags.process(p, [&ev](const VFetchPkt& v) { ev.push_back(v); }, [&ep](const PrimPkt& t) { ep.push_back(t); });
  }
  for (const auto& pat : tb::kStallPatterns) {
    const Result r = run_bench(in, ev, ep, seed, pat.in_gap, pat.out_stall, test + "/" + pat.name);
    INFO(r.report);
    REQUIRE(r.ok);
    if (pat.in_gap == 0.0 && pat.out_stall == 0.0) {
      std::printf("  %s: %zu indices -> %zu vertices, %zu triangles (%llu batches) in %llu cycles: %.3f indices/clock\n",
                  test.c_str(), in.size(), ev.size(), ep.size(), static_cast<unsigned long long>(tags.batches()),
                  static_cast<unsigned long long>(r.cycles), static_cast<double>(in.size()) / static_cast<double>(r.cycles));
    }
  }
}

IndexPkt idx(uint32_t v, bool strip, bool last, uint32_t draw = 0) {
  IndexPkt p;
  p.index = v;
  p.strip = strip;
  p.last = last;
  p.draw_id = draw;
  return p;
}

}  // namespace

TEST_CASE("vertex_tags: random lists and strips with cuts, repeats, instances and tokens") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_tags");
  tb::PrimGen g(seed);
  std::vector<IndexPkt> in;
  for (int d = 0; d < 60; ++d) {
    g.maybe_token(in, 0.1);
    const bool strip = g.chance(0.5);
    const uint32_t range = static_cast<uint32_t>(g.range(1, 120));
    const uint32_t count = static_cast<uint32_t>(g.range(0, 200));
    const uint32_t inst = static_cast<uint32_t>(g.range(1, 2));
    for (uint32_t i = 0; i < inst; ++i) {
      for (uint32_t k = 0; k < count; ++k) {
        IndexPkt p = idx(static_cast<uint32_t>(g.range(0, range - 1)), strip, k + 1 == count, static_cast<uint32_t>(d));
        if (strip && g.chance(0.04)) {
          p.cut = 1;
          p.index = 0;
        }
        p.inst_id = i;
        in.push_back(p);
      }
    }
  }
  in.push_back(tb::PrimGen::token<IndexPkt>());
  check("vertex_tags.random", in, seed);
}

TEST_CASE("vertex_tags: a grid as a list and as strips; all-new triangles; degenerate triangles") {
  const uint64_t seed = tb::announce_seed("rtl_vertex_tags");
  const uint32_t n = 24;
  std::vector<IndexPkt> list, strips, fresh, degen;
  std::vector<uint32_t> l;
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x + 1 < n; ++x) {
      const uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      for (uint32_t v : {a, b, c, c, b, d}) l.push_back(v);
    }
  }
  for (size_t k = 0; k < l.size(); ++k) list.push_back(idx(l[k], false, k + 1 == l.size()));
  // One strip per row, separated by cuts.
  for (uint32_t y = 0; y + 1 < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      strips.push_back(idx(y * n + x, true, false));
      strips.push_back(idx((y + 1) * n + x, true, false));
    }
    IndexPkt cut = idx(0, true, y + 2 == n);
    cut.cut = 1;
    strips.push_back(cut);
  }
  for (uint32_t k = 0; k < 3 * 400; ++k) fresh.push_back(idx(k, false, k + 1 == 3 * 400));
  for (uint32_t k = 0; k < 300; ++k) degen.push_back(idx(k / 2 % 7, k % 5 != 0, k + 1 == 300));
  check("vertex_tags.grid_list", list, seed);
  check("vertex_tags.grid_strips", strips, seed);
  check("vertex_tags.all_misses", fresh, seed);
  check("vertex_tags.degenerate", degen, seed);
}
