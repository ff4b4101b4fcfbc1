// SPDX-License-Identifier: Apache-2.0
// RTL vs model: the rasterizer array (rtl/rast/raster_array.sv) with 1, 2 and 4 rasterizers:
// setup packets in, merged quads out. Each rasterizer's quads must come out in the model's order
// for that rasterizer (the merge keeps no global order; numerics section 4.3), every end-of-pipe
// token once, after everything before it. Also the benchmark of several rasterizers: cycles,
// speed-up and load balance on small- and large-triangle streams (docs/architecture.md).
#define CATCH_CONFIG_MAIN
#include <verilated.h>

#include <algorithm>
#include <array>
#include <deque>
#include <memory>

#include "Vraster_array_r1.h"
#include "Vraster_array_r2.h"
#include "Vraster_array_r4.h"
#include "raster_cases.h"
#include "rast/coarse_raster.h"
#include "rast/fine_raster.h"
#include "scenes.h"
#include "setup/setup.h"
#include "top/pineda_top.h"
#include "unit_test_main.h"

using namespace pineda;

namespace {

struct ArrayRun {
  bool ok = false;
  std::string report;
  uint64_t cycles = 0;
  std::array<uint64_t, 4> busy{};
  size_t quads = 0;
};

// The model's quads of a setup stream, per rasterizer (tokens in every list).
std::vector<std::vector<QuadPkt>> model_quads(const std::vector<SetupPkt>& in, uint32_t n,
                                              std::array<uint64_t, 4>* decisions = nullptr) {
  std::vector<std::vector<QuadPkt>> out(n);
  model::CoarseRaster coarse;
  model::FineRaster fine;
  for (const SetupPkt& s : in) {
    if (s.eop) {
      for (auto& o : out) o.push_back(tb::PrimGen::token<QuadPkt>());
      if (decisions) for (uint32_t r = 0; r < n; ++r) ++(*decisions)[r];
      continue;
    }
    for (uint32_t r = 0; r < n; ++r) {
      const uint64_t v0 = coarse.tiles_visited();
      coarse.process(s, model::CoarseRaster::lattice(n, r), [&](const TilePkt& t) {
        for (const QuadPkt& q : fine.process(t)) out[r].push_back(q);
      });
      if (decisions) (*decisions)[r] += coarse.tiles_visited() - v0;
    }
  }
  return out;
}

template <class V, uint32_t N>
ArrayRun run_array(const std::vector<SetupPkt>& in, uint64_t seed, double in_gap, double out_stall, double throttle) {
  ArrayRun res;
  const auto exp = model_quads(in, N);
  tb::DriverConfig cfg;
  cfg.run = {"raster_array/" + std::to_string(N), seed, "build/tests/rtl_raster_array --rng-seed " + std::to_string(seed)};
  cfg.stall_timeout = 100000;
  tb::VlDriver<V> drv(cfg);
  V& dut = drv.dut();
  tb::StreamSource<SetupPkt> src(in, in_gap);
  dut.in_valid_i = 0;
  dut.out_ready_i = 0;
  dut.throttle_i = 0;
  dut.hiz_clear_valid_i = 0;  // no depth clear: HIZ has no buffer and passes every tile
  drv.reset();
  std::array<size_t, N> next{};  // per rasterizer: next expected quad
  size_t tokens_out = 0;
  const size_t tokens_in = static_cast<size_t>(std::count_if(in.begin(), in.end(), [](const SetupPkt& s) { return s.eop != 0; }));
  while (true) {
    src.drive(drv.rng(), dut.in_valid_i, dut.in_i);
    dut.out_ready_i = !tb::chance(drv.rng(), out_stall);
    dut.throttle_i = tb::chance(drv.rng(), throttle);
    drv.eval_low();
    if (src.fire(dut.in_ready_o)) drv.progress();
    if (dut.out_valid_o && dut.out_ready_i) {
      const QuadPkt q = tb::unpack_sig<QuadPkt>(dut.out_o);
      std::ostringstream err;
      if (q.eop) {
        for (uint32_t r = 0; r < N; ++r) {
          if (next[r] >= exp[r].size() || !exp[r][next[r]].eop) {
            err << "token #" << tokens_out << " while rasterizer " << r << " has quads before it left";
            break;
          }
          ++next[r];
        }
        ++tokens_out;
      } else {
        const int ts = q.target.msaa ? 1 : 2;
        const uint32_t r = model::CoarseRaster::owner(N, q.qx >> ts, q.qy >> ts);
        if (next[r] >= exp[r].size()) {
          err << "extra quad " << q.str() << " of rasterizer " << r;
        } else if (!(exp[r][next[r]] == q)) {
          err << "rasterizer " << r << " quad #" << next[r] << " expected " << exp[r][next[r]].str() << " actual " << q.str();
        } else {
          ++next[r];
        }
      }
      ++res.quads;
      drv.progress();
      if (!err.str().empty()) {
        res.report = drv.head("MISMATCH") + ": " + err.str() + "\n" + drv.waves(200, 20);
        break;
      }
    }
    for (uint32_t r = 0; r < N; ++r) res.busy[r] += (dut.busy_o >> r) & 1u;
    drv.edge();
    if (drv.failed()) {
      res.report = drv.assertion_report();
      break;
    }
    bool done = src.done() && tokens_out == tokens_in && dut.idle_o;
    for (uint32_t r = 0; r < N; ++r) done = done && next[r] == exp[r].size();
    if (done) {
      res.ok = true;
      break;
    }
    if (drv.stalled()) {
      res.report = drv.no_progress_report(src.progress("setup packets") + ", tokens out " + std::to_string(tokens_out) +
                                          "/" + std::to_string(tokens_in));
      break;
    }
  }
  res.cycles = drv.cycle();
  return res;
}

template <class V, uint32_t N>
void check_array(const char* what, const std::vector<SetupPkt>& in, uint64_t seed) {
  for (const auto& p : tb::kStallPatterns) {
    const ArrayRun r = run_array<V, N>(in, seed, p.in_gap, p.out_stall, p.out_stall > 0 ? 0.2 : 0.0);
    INFO(what << " with " << N << " rasterizers, " << p.name << ": " << r.report);
    REQUIRE(r.ok);
  }
}

// Setup packets of random triangles; `tiny`: mostly sub-tile triangles, else large ones.
std::vector<SetupPkt> setup_stream(uint64_t seed, size_t count, int kind, bool tokens) {
  tb::PrimGen g(seed);
  cases::Rng rng(seed);
  model::Setup setup;
  std::vector<SetupPkt> out;
  for (uint32_t i = 0; out.size() < count; ++i) {
    TriPkt t;
    if (kind == 0) {
      t = g.triangle(128, 128, i);
      t.target.msaa = g.chance(0.5) ? 1 : 0;
    } else {
      const int64_t size = kind == 1 ? rng.range(64, 4 * 256) : rng.range(60 * 256, 200 * 256);
      const int64_t cx = rng.range(0, 512 * 256), cy = rng.range(0, 512 * 256);
      t = cases::make_tri({cx + rng.range(-size, size), cy + rng.range(-size, size)},
                         {cx + rng.range(-size, size), cy + rng.range(-size, size)},
                         {cx + rng.range(-size, size), cy + rng.range(-size, size)}, cases::rect(0, 0, 512, 512), false, i);
    }
    if (auto s = setup.process(t)) out.push_back(*s);
    if (tokens && g.chance(0.02)) out.push_back(tb::PrimGen::token<SetupPkt>());
  }
  return out;
}

void random_triangles(size_t count) {
  const uint64_t seed = tb::announce_seed("rtl_raster_array");
  const auto in = setup_stream(seed, count, 0, true);
  check_array<Vraster_array_r1, 1>("random triangles", in, seed);
  check_array<Vraster_array_r2, 2>("random triangles", in, seed);
  check_array<Vraster_array_r4, 4>("random triangles", in, seed);
}

}  // namespace

// The default run is short (CI budget); "[.long]" runs the same check on 3.2x the triangles.
TEST_CASE("raster_array: 1, 2 and 4 rasterizers against the model, under stalls") { random_triangles(250); }

TEST_CASE("raster_array: 1, 2 and 4 rasterizers against the model, under stalls, long", "[.long]") {
  random_triangles(800);
}

TEST_CASE("raster_array: rasterizer property cases with 2 and 4 rasterizers") {
  const uint64_t seed = tb::announce_seed("rtl_raster_array");
  model::Setup setup;
  std::vector<SetupPkt> in;
  for (const auto& c : cases::all_cases(seed)) {
    for (const auto& t : c.tris) {
      if (auto s = setup.process(t)) in.push_back(*s);
    }
    in.push_back(tb::PrimGen::token<SetupPkt>());
  }
  check_array<Vraster_array_r2, 2>("property cases", in, seed);
  check_array<Vraster_array_r4, 4>("property cases", in, seed);
}

TEST_CASE("raster_array: speed-up and load balance of several rasterizers", "[.bench]") {
  // Without stalls and with a sink always ready: what the rasterizers alone sustain.
  const uint64_t seed = tb::announce_seed("rtl_raster_array");
  // cycles: measured, through the merge (one quad per clock into the one pixel writer);
  // bound: the rasterizers' own limit, max(triangles at 1 per clock, the busiest rasterizer's
  // tile decisions) from the model, i.e. the cycles with a quad sink per rasterizer.
  std::printf("%-20s %4s %8s %7s %8s %8s %7s %9s  %s\n", "stream", "rast", "cycles", "speedup", "tris/clk",
              "bound", "speedup", "decisions", "busy per rasterizer (imbalance = max/mean)");
  for (int kind : {1, 2}) {
    const auto in = setup_stream(seed + kind, kind == 1 ? 20000 : 300, kind, false);
    uint64_t base = 0, base_bound = 0;
    auto row = [&](uint32_t n, const ArrayRun& r) {
      REQUIRE(r.ok);
      std::array<uint64_t, 4> dec{};
      model_quads(in, n, &dec);
      uint64_t dsum = 0, dmax = 0, bmax = 0, bsum = 0;
      for (uint32_t k = 0; k < n; ++k) {
        dsum += dec[k], dmax = std::max(dmax, dec[k]), bmax = std::max(bmax, r.busy[k]), bsum += r.busy[k];
      }
      const uint64_t bound = std::max<uint64_t>(in.size(), dmax);
      if (n == 1) base = r.cycles, base_bound = bound;
      std::printf("%-20s %4u %8llu %7.2f %8.3f %8llu %7.2f %9llu  ", kind == 1 ? "small (<= 4 px)" : "large (60..200 px)", n,
                  static_cast<unsigned long long>(r.cycles), static_cast<double>(base) / static_cast<double>(r.cycles),
                  static_cast<double>(in.size()) / static_cast<double>(r.cycles), static_cast<unsigned long long>(bound),
                  static_cast<double>(base_bound) / static_cast<double>(bound), static_cast<unsigned long long>(dsum));
      for (uint32_t k = 0; k < n; ++k) std::printf("%llu ", static_cast<unsigned long long>(r.busy[k]));
      std::printf("(%.3f)\n", static_cast<double>(bmax) / (static_cast<double>(bsum) / n));
    };
    row(1, run_array<Vraster_array_r1, 1>(in, seed, 0, 0, 0));
    row(2, run_array<Vraster_array_r2, 2>(in, seed, 0, 0, 0));
    row(4, run_array<Vraster_array_r4, 4>(in, seed, 0, 0, 0));
  }
}

TEST_CASE("raster_array: the scenes' triangles through 1, 2 and 4 rasterizers", "[.bench]") {
  // Each scene's setup packets (from the model) fed at one per clock to the array with a sink
  // that is always ready: what the rasterizers sustain when IA and the pixel writer are not the
  // limit. Per clock: tile decisions (all rasterizers), coverage evaluations (64 per tile), quads.
  std::printf("%-14s %4s %8s %7s %8s %9s %9s %8s %7s %9s\n", "scene", "rast", "cycles", "speedup", "tris/clk",
              "dec/clk", "eval/clk", "quad/clk", "fine%", "imbalance");
  for (const char* name : {"quad_full", "quad_full_4x", "tiny_10k", "tiny_10k_4x", "slivers", "slivers_4x",
                           "dense_mesh", "dense_mesh_4x"}) {
    SceneImage img = build_scene(name, 1);
    model::PinedaTop gpu(img.mem);
    for (const auto& [idx, val] : img.reg_writes) gpu.reg_write(idx, val);
    gpu.run();
    const std::vector<SetupPkt> in = gpu.trace().setup_tri;
    const auto& st = gpu.stats();
    uint64_t base = 0;
    auto row = [&](uint32_t n, const ArrayRun& r) {
      REQUIRE(r.ok);
      if (n == 1) base = r.cycles;
      std::array<uint64_t, 4> dec{};
      model_quads(in, n, &dec);
      uint64_t dsum = 0, bmax = 0, bsum = 0;
      for (uint32_t k = 0; k < n; ++k) dsum += dec[k], bmax = std::max(bmax, r.busy[k]), bsum += r.busy[k];
      const double c = static_cast<double>(r.cycles);
      std::printf("%-14s %4u %8llu %7.2f %8.3f %9.3f %9.2f %8.3f %6.1f%% %9.3f\n", name, n,
                  static_cast<unsigned long long>(r.cycles), static_cast<double>(base) / c,
                  static_cast<double>(st.triangles_setup) / c, static_cast<double>(dsum) / c,
                  64.0 * static_cast<double>(st.tiles_emitted) / c, static_cast<double>(r.quads) / c,
                  100.0 * static_cast<double>(st.tiles_emitted) / (c * n),
                  static_cast<double>(bmax) / (static_cast<double>(bsum) / n));
    };
    row(1, run_array<Vraster_array_r1, 1>(in, 1, 0, 0, 0));
    row(2, run_array<Vraster_array_r2, 2>(in, 1, 0, 0, 0));
    row(4, run_array<Vraster_array_r4, 4>(in, 1, 0, 0, 0));
  }
}
