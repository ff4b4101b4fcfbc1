// SPDX-License-Identifier: Apache-2.0
// pineda_sim: the regression. Every scene runs through the golden model and the Verilated RTL;
// every stream boundary is compared packet by packet, then the final memory and registers.
// Writes one PNG per scene, prints a pass/fail table and "N passed, N failed", and with --json
// writes the benchmark figures (cycles, per-unit busy/stalled/starved, achieved rates).
#include <getopt.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "image_diff.h"
#include "png_writer.h"
#include "report.h"
#include "scene_capture.h"
#include "scene_top.h"
#include "scenes.h"
#include "dma/resolve.h"
#include "tex/tex.h"
#include "top/pineda_top.h"
#include "top_harness.h"

namespace {

// CPU time of the calling thread (the RTL run is single-threaded): simulation speed under load.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

using namespace pineda;

// The RTL run's options (seed, dram, throttle, fst_path, wave_from, wave_to) are tb::TopRunOptions.
struct Options : tb::TopRunOptions {
  std::vector<std::string> scenes;  // empty: all
  uint32_t scene_seed = 1;  // scene content
  std::string out_dir = "out/sim";
  std::string json_path;
  bool list = false;
  std::string label;  // printed in the table header
  std::string capture_dir;  // --capture: each scene also written as <dir>/<scene>.pcap
  bool no_fast_clear = false;  // --no-fast-clear: CONTROL.NO_FAST_CLEAR (depth clears as DMA fills)
  std::vector<std::string> skip;  // --skip: default scenes left out of this run
};

void usage() {
  std::puts(
      "usage: pineda_sim [options] [scene...]\n"
      "  --list               list the scenes and exit\n"
      "  --seed N             throttle, memory-jitter and X-initialisation seed (default 1)\n"
      "  --scene-seed N       seed of the scene content (default 1)\n"
      "  --latency N          DRAM latency in cycles (default 200)\n"
      "  --jitter N           random-latency mode: add 0..N cycles per request\n"
      "  --bandwidth F        DRAM peak bandwidth in bytes per clock (default 32: a 64-byte line\n"
      "                       every 2 clocks)\n"
      "  --throttle P         chance per cycle of stalling each tapped boundary (default 0)\n"
      "  --out DIR            where PNGs go (default out/sim)\n"
      "  --json FILE          write benchmark figures as JSON\n"
      "  --fst FILE           dump an FST waveform (with --wave-from/--wave-to cycles)\n"
      "  --label TEXT         name for this configuration in the summary\n"
      "  --capture DIR        also write each scene as a capture file DIR/<scene>.pcap (build/pineda replay)\n"
      "  --no-fast-clear      set CONTROL.NO_FAST_CLEAR: depth/stencil clears are DMA fills, not ZS fast clears\n"
      "  --skip A,B,...       leave these scenes out of the default list (an unknown name is an error)\n"
      "On a mismatch the model, RTL and diff images are written next to the PNG; after the run, an\n"
      "HTML report in <out>/index.html.");
}

Options parse(int argc, char** argv) {
  Options o;
  static const option longopts[] = {
      {"list", no_argument, nullptr, 'l'},       {"seed", required_argument, nullptr, 's'},
      {"latency", required_argument, nullptr, 'L'}, {"jitter", required_argument, nullptr, 'j'},
      {"bandwidth", required_argument, nullptr, 'b'}, {"throttle", required_argument, nullptr, 't'},
      {"out", required_argument, nullptr, 'o'},  {"json", required_argument, nullptr, 'J'},
      {"fst", required_argument, nullptr, 'f'},  {"wave-from", required_argument, nullptr, 'F'},
      {"wave-to", required_argument, nullptr, 'T'}, {"label", required_argument, nullptr, 'n'},
      {"scene-seed", required_argument, nullptr, 'S'},  {"capture", required_argument, nullptr, 'C'},
      {"no-fast-clear", no_argument, nullptr, 'N'}, {"skip", required_argument, nullptr, 'K'},
      {"help", no_argument, nullptr, 'h'},       {nullptr, 0, nullptr, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "", longopts, nullptr)) != -1) {
    switch (c) {
      case 'l': o.list = true; break;
      case 's': o.seed = std::stoull(optarg); break;
      case 'L': o.dram.latency = static_cast<uint32_t>(std::stoul(optarg)); break;
      case 'j': o.dram.jitter = static_cast<uint32_t>(std::stoul(optarg)); break;
      case 'b': o.dram.bytes_per_clock = std::stod(optarg); break;
      case 't': o.throttle = std::stod(optarg); break;
      case 'o': o.out_dir = optarg; break;
      case 'J': o.json_path = optarg; break;
      case 'f': o.fst_path = optarg; break;
      case 'F': o.wave_from = std::stoull(optarg); break;
      case 'T': o.wave_to = std::stoull(optarg); break;
      case 'n': o.label = optarg; break;
      case 'S': o.scene_seed = static_cast<uint32_t>(std::stoul(optarg)); break;
      case 'C': o.capture_dir = optarg; break;
      case 'N': o.no_fast_clear = true; break;
      case 'K': {
        std::string list = optarg;
        for (size_t p = 0; p <= list.size();) {
          const size_t e = std::min(list.find(',', p), list.size());
          if (e > p) o.skip.push_back(list.substr(p, e - p));
          p = e + 1;
        }
        break;
      }
      case 'h': usage(); std::exit(0);
      default: usage(); std::exit(2);
    }
  }
  for (int i = optind; i < argc; ++i) o.scenes.push_back(argv[i]);
  return o;
}

struct Row {
  std::string scene;
  bool ok = false;
  std::string why;
  uint64_t cycles = 0;
  size_t tris = 0, setup = 0, tiles = 0, covs = 0, pixels = 0;
  double seconds = 0;      // the whole scene: build, model, RTL, images
  double rtl_seconds = 0;  // the RTL run alone (Verilated top, harness, stream comparison)
  double rtl_cpu_seconds = 0;  // the same run's CPU time (this thread): less sensitive to load
  nlohmann::json bench;
  std::vector<std::string> mismatch_images;  // model, RTL, diff (file names in the output directory)
};

std::string replay_cmd(const Options& o, const std::string& scene) {
  std::ostringstream os;
  os << "make waves TEST=" << scene << " SEED=" << o.seed;
  if (o.scene_seed != 1) os << " SCENE_SEED=" << o.scene_seed;
  if (o.dram.latency != 200) os << " LATENCY=" << o.dram.latency;
  if (o.dram.jitter) os << " JITTER=" << o.dram.jitter;
  if (o.dram.bytes_per_clock != tb::LineDramConfig{}.bytes_per_clock) os << " BANDWIDTH=" << o.dram.bytes_per_clock;
  if (o.throttle > 0) os << " THROTTLE=" << o.throttle;
  return os.str();
}

// The memory side (docs/contract.md section 2.1): per line client, the DRAM model's requests and
// bytes (every request moves LINE_BYTES; "enabled" counts the byte enables of writes, the bytes a
// write really changes) and the line arbiter's grants and waiting cycles; in total, bytes per
// pixel written by the pixel writer, and the achieved bandwidth against the configured peak.
nlohmann::json memory_json(const tb::TopResult& r, double pixels, double peak) {
  static const char* const kClientNames[MEM_LINE_CLIENTS_MAX] = {
      "CP", "IA", "PW", "DMA", "IF", "VF", "ZS", "TEX", "8", "9", "10", "11", "12", "13", "14", "15"};
  const double cyc = r.cycles ? static_cast<double>(r.cycles) : 1.0;
  nlohmann::json m;
  m["reads"] = r.mem_reads;
  m["writes"] = r.mem_writes;
  m["line_bytes"] = LINE_BYTES;
  uint64_t bytes = 0;
  for (uint32_t c = 0; c < MEM_LINE_CLIENTS_MAX; ++c) {
    const auto& d = r.dram.client[c];
    if (d.reads + d.writes + r.arb_grants[c] + r.arb_waits[c] == 0) continue;
    nlohmann::json cj;
    cj["reads"] = d.reads;
    cj["writes"] = d.writes;
    cj["bytes_read"] = d.bytes_read;
    cj["bytes_written"] = d.bytes_written;
    cj["bytes_enabled"] = d.bytes_enabled;
    cj["bytes_per_pixel"] = pixels > 0 ? static_cast<double>(d.bytes_read + d.bytes_written) / pixels : 0.0;
    cj["arb_grants"] = r.arb_grants[c];
    cj["arb_wait_cycles"] = r.arb_waits[c];
    // Average cycles a granted request waited at the arbiter (valid && !ready).
    cj["arb_wait_per_request"] =
        r.arb_grants[c] ? static_cast<double>(r.arb_waits[c]) / static_cast<double>(r.arb_grants[c]) : 0.0;
    m["clients"][kClientNames[c]] = cj;
    bytes += d.bytes_read + d.bytes_written;
  }
  m["bytes"] = bytes;
  m["bytes_per_pixel"] = pixels > 0 ? static_cast<double>(bytes) / pixels : 0.0;
  m["peak_bytes_per_clock"] = peak;
  m["bytes_per_clock"] = static_cast<double>(bytes) / cyc;
  m["fraction_of_peak"] = static_cast<double>(bytes) / cyc / peak;
  m["busy_cycles"] = r.dram.busy_cycles;  // clocks in which the memory accepted a request
  return m;
}

// Per-unit utilisation and achieved rate against the unit's peak.
// Line writes of the DMA fill for the depth/stencil CLEARs that did not go to ZS's fast clear:
// every 64-byte line the rectangle's rows touch (the fill writes whole lines with byte enables).
uint64_t depth_fill_bytes(const model::CommandProcessor& cp, bool no_fast_clear, uint64_t* fast_clears) {
  uint64_t bytes = 0;
  *fast_clears = 0;
  for (const ClearPkt& c : cp.clears()) {
    if (c.color) continue;
    const bool fast = !no_fast_clear && (c.target.base & 63u) == 0 && (c.target.pitch & 63u) == 0;
    if (fast) {
      ++*fast_clears;
      continue;
    }
    const uint64_t bpp = c.target.msaa ? 16u : 4u;
    for (uint64_t y = c.rect.y0; y < c.rect.y1; ++y) {
      const uint64_t row = c.target.base + y * c.target.pitch;
      bytes += 64u * (((row + c.rect.x1 * bpp - 1) >> 6) - ((row + c.rect.x0 * bpp) >> 6) + 1);
    }
  }
  return bytes;
}

// TEX (docs/tex.md): RTL counters (PERF_TEX_*) for quads (passes: a quad once per texture stage),
// samples, L1 texels and lines, line bytes; the model's sampler run again over the textured
// quads' passes (tex_in of INTERP's quads, stage 0 then stage 1) says which passes took two
// clocks (trilinear with f != 0), so bilinear samples = samples + the live pixels of those.
// Peak: one pass of a quad per clock = 4 bilinear samples per clock (docs/tex.md section 7);
// trilinear samples count twice, so a trilinear scene's peak is 2 samples per clock.
nlohmann::json tex_bench(const tb::TopResult& r, const model::Trace& t, const Memory& mem,
                         const model::CommandProcessor& cp) {
  model::tex::Tex tx;
  uint64_t tri_samples = 0, model_quads = 0, model_samples = 0;
  for (const InterpPkt& ip : t.interp_quad) {
    const uint32_t stages = model::tex_stages(ip.quad);
    for (uint32_t stage = 0; stage < 2; ++stage) {
      if (!((stages >> stage) & 1u)) continue;
      const TexInPkt ti = model::tex_in(ip, stage);
      const uint64_t before = tx.stats().trilinear_quads;
      tx.process(ti, mem, cp.valid_base(), cp.valid_limit());
      const uint64_t live = static_cast<uint64_t>(__builtin_popcount(ti.live));
      ++model_quads;
      model_samples += live;
      if (tx.stats().trilinear_quads != before) tri_samples += live;
    }
  }
  const double cyc = r.cycles ? static_cast<double>(r.cycles) : 1.0;
  const uint64_t quads = r.perf.at(PERF_TEX_QUADS), samples = r.perf.at(PERF_TEX_SAMPLES);
  const uint64_t texels = r.perf.at(PERF_TEX_TEXELS), lines = r.perf.at(PERF_TEX_LINES);
  const uint64_t bytes = r.perf.at(PERF_TEX_LINE_BYTES);
  const uint64_t bil = samples + tri_samples;
  // "Fed": the cycles a quad or token was offered to INTERP, the head of the pixel path (TEX
  // back-pressures INTERP, so this covers the time TEX had quads to take).
  const double fed = r.interp_fed ? static_cast<double>(r.interp_fed) : 1.0;
  nlohmann::json x;
  x["quads"] = quads;
  x["samples"] = samples;
  x["model_quads"] = model_quads;
  x["model_samples"] = model_samples;
  x["trilinear_samples"] = tri_samples;
  x["bilinear_samples"] = bil;
  x["peak"] = 4.0;
  x["bilinear_samples_per_clock"] = static_cast<double>(bil) / cyc;
  x["fraction_of_peak"] = static_cast<double>(bil) / cyc / 4.0;
  x["fed_cycles"] = r.interp_fed;
  x["bilinear_samples_per_clock_fed"] = static_cast<double>(bil) / fed;
  x["fraction_of_peak_fed"] = static_cast<double>(bil) / fed / 4.0;
  x["texels"] = texels;
  x["texels_per_clock"] = static_cast<double>(texels) / cyc;
  x["lines"] = lines;
  x["hit_rate"] = texels ? 1.0 - static_cast<double>(lines) / static_cast<double>(texels) : 0.0;
  x["line_bytes"] = bytes;
  x["bytes_per_sample"] = samples ? static_cast<double>(bytes) / static_cast<double>(samples) : 0.0;
  return x;
}

nlohmann::json bench_json(const tb::TopResult& r, const model::Trace& t,
                          const model::Stats& s, uint32_t cmd_dwords, double peak_bytes_per_clock,
                          const model::CommandProcessor& cp, bool no_fast_clear, uint32_t rt_fmt) {
  nlohmann::json j;
  const double cyc = r.cycles ? static_cast<double>(r.cycles) : 1.0;
  j["cycles"] = r.cycles;
  // IA reads 2 dwords per vertex of each pre-transformed DRAW (the front end's reads are its own).
  double ia_dwords = 0;
  for (const DrawPkt& d : t.cp_draw) ia_dwords += d.eop ? 0.0 : 2.0 * static_cast<double>(d.vertex_count);
  // ZS takes every covered sample of the merged fine quads (tested or passed through).
  double zs_samples = 0;
  for (const QuadPkt& q : t.fine_quad) {
    for (uint64_t m = q.eop ? 0 : q.mask & (q.target.msaa ? 0xFFFFu : 0xFu); m; m &= m - 1) zs_samples += 1.0;
  }
  struct UnitRate {
    const char* name;
    int perf_base;
    double work;
    double peak;
    const char* unit;
  };
  const UnitRate units[] = {
      {"CP", PERF_CP_BUSY, static_cast<double>(cmd_dwords), 1.0, "command dwords/clock"},
      {"IA", PERF_IA_BUSY, ia_dwords, 4.0, "vertex dwords/clock"},  // ia.sv InDwords = 4
      {"SETUP", PERF_SETUP_BUSY, static_cast<double>(t.ia_tri.size() + t.pa_tri.size()), 0.5,
       "triangles/clock"},  // setup.sv: one triangle per 2 clocks
      {"COARSE", PERF_COARSE_BUSY, static_cast<double>(s.tiles_visited), 1.0,
       "tile decisions/clock"},
      {"FINE", PERF_FINE_BUSY, static_cast<double>(s.tiles_emitted) * 64.0, 64.0 * tb::kNumRast,
       "coverage evaluations/clock"},
      {"PW", PERF_PW_BUSY, static_cast<double>(s.quads), 1.0, "quads/clock"},  // colour cache: 1 quad/clock
      {"ZS", PERF_ZS_BUSY, zs_samples, 16.0, "samples/clock"},  // 1 quad/clock: 16 samples at 4x
  };
  for (const auto& u : units) {
    const double busy = r.perf.at(u.perf_base), stalled = r.perf.at(u.perf_base + 1),
                 starved = r.perf.at(u.perf_base + 2);
    nlohmann::json uj;
    uj["busy"] = busy;
    uj["stalled"] = stalled;
    uj["starved"] = starved;
    uj["work"] = u.work;
    uj["rate_unit"] = u.unit;
    uj["rate"] = u.work / cyc;
    // Over the cycles the unit was not starved (busy or stalled by downstream).
    uj["rate_when_fed"] = busy + stalled > 0 ? u.work / (busy + stalled) : 0.0;
    uj["peak"] = u.peak;
    uj["fraction_of_peak"] = u.work / cyc / u.peak;
    j["units"][u.name] = uj;
  }
  j["memory"] = memory_json(r, static_cast<double>(s.pixels_written), peak_bytes_per_clock);
  j["pixels"] = s.pixels_written;  // pixel (1x) or sample (4x) writes into PW's colour cache
  j["pw_lines"] = t.pw_mem.size();  // its line requests (writes and fill reads)
  {
    // ZS: samples tested (depth or stencil on) and passed; its depth-stencil traffic per pixel.
    // OM (docs/om.md): blended (or write-masked) quads per clock, the target format and PW's colour
    // traffic (line writes and fill reads) per pixel written.
    const auto& pc = r.dram.client[MEM_LC_PW];
    static const char* const kFmt[] = {"RGBA8", "BGRA8", "RGBA8_SRGB", "B5G6R5"};
    nlohmann::json oj;
    oj["format"] = kFmt[rt_fmt & 3u];
    oj["bytes_per_pixel_format"] = rt_fmt == RT_FMT_B5G6R5 ? 2 : 4;
    oj["blended_quads"] = s.pw_rmw_quads;
    oj["blended_quads_per_clock"] = static_cast<double>(s.pw_rmw_quads) / cyc;
    oj["fills"] = s.pw_fills;
    oj["colour_bytes"] = pc.bytes_read + pc.bytes_written;
    oj["colour_bytes_per_pixel"] =
        s.pixels_written ? static_cast<double>(pc.bytes_read + pc.bytes_written) / static_cast<double>(s.pixels_written) : 0.0;
    j["om"] = oj;
    const auto& zc = r.dram.client[MEM_LC_ZS];
    nlohmann::json zj;
    zj["samples"] = zs_samples;
    zj["samples_tested"] = s.zs_samples_tested;
    zj["samples_passed"] = s.zs_samples_passed;
    zj["quads_dropped"] = s.zs_quads_dropped;
    zj["depth_bytes"] = zc.bytes_read + zc.bytes_written;
    zj["depth_bytes_per_pixel"] =
        s.pixels_written ? static_cast<double>(zc.bytes_read + zc.bytes_written) / static_cast<double>(s.pixels_written)
                         : 0.0;
    // With the DMA fill of the depth clears (none with fast clear): all depth-buffer traffic.
    uint64_t fast_clears = 0;
    const uint64_t fill = depth_fill_bytes(cp, no_fast_clear, &fast_clears);
    zj["fast_clear"] = !no_fast_clear;
    zj["fast_clears"] = fast_clears;
    zj["depth_fill_bytes"] = fill;
    zj["depth_total_bytes"] = zc.bytes_read + zc.bytes_written + fill;
    zj["depth_total_bytes_per_pixel"] =
        s.pixels_written ? static_cast<double>(zc.bytes_read + zc.bytes_written + fill) / static_cast<double>(s.pixels_written)
                         : 0.0;
    j["zs"] = zj;
  }
  {
    // Hierarchical Z (RTL perf counters, equal to the model's: checked in run_scene): tiles tested
    // and rejected per clock; occluded tiles = rejected + those that reached FINE with depth on and
    // lost every covered sample at ZS (model); the fraction of them Hi-Z culled.
    nlohmann::json hj;
    const double tested = r.perf.at(PERF_HIZ_TESTED), rejected = r.perf.at(PERF_HIZ_REJECTED);
    const double occluded = static_cast<double>(s.hiz_rejected + s.tiles_occluded_passed);
    hj["tested"] = tested;
    hj["rejected"] = rejected;
    hj["tested_per_clock"] = tested / cyc;
    hj["rejected_per_clock"] = rejected / cyc;
    hj["occluded_tiles"] = occluded;
    hj["occluded_not_culled"] = s.tiles_occluded_passed;
    hj["fraction_occluded_culled"] = occluded > 0 ? static_cast<double>(s.hiz_rejected) / occluded : 0.0;
    j["hiz"] = hj;
  }
  j["tiles_visited"] = s.tiles_visited;
  j["tiles_emitted"] = t.coarse_tile.size();
  // Rasterizer figures (docs/architecture.md "Rasterizer benchmark"): the walk's decisions per
  // covered tile, what a walk of the whole box would have cost, fine utilisation (coverage
  // evaluations over 64 per clock per rasterizer), and per rasterizer its decisions (model) and
  // busy cycles (RTL rast_busy_o) with the load imbalance (busiest over mean).
  j["tiles_in_bbox"] = s.tiles_in_bbox;
  j["tiles_covered"] = s.tiles_covered;
  j["quads"] = s.quads;
  j["decisions_per_covered_tile"] =
      s.tiles_covered ? static_cast<double>(s.tiles_visited) / static_cast<double>(s.tiles_covered) : 0.0;
  j["bbox_per_covered_tile"] =
      s.tiles_covered ? static_cast<double>(s.tiles_in_bbox) / static_cast<double>(s.tiles_covered) : 0.0;
  const uint32_t n = tb::kNumRast;
  j["rasterizers"] = n;
  j["fine_utilisation"] = static_cast<double>(s.tiles_emitted) / (cyc * n);
  double busy_max = 0, busy_sum = 0;
  for (uint32_t k = 0; k < n; ++k) {
    j["rast_busy"].push_back(r.rast_busy[k]);
    j["rast_decisions"].push_back(s.rast_decisions[k]);
    j["rast_tiles"].push_back(s.rast_tiles[k]);
    busy_max = std::max(busy_max, static_cast<double>(r.rast_busy[k]));
    busy_sum += static_cast<double>(r.rast_busy[k]);
  }
  j["load_imbalance"] = busy_sum > 0 ? busy_max / (busy_sum / n) : 1.0;
  // MSAA resolve in hardware (RESOLVE, docs/om.md section 7): 4x bytes read, line writes, and
  // the rate over the cycles the resolve engine held a job (resolve_busy_o).
  if (s.resolves > 0) {
    const double rb = r.resolve_busy ? static_cast<double>(r.resolve_busy) : 1.0;
    nlohmann::json rs;
    rs["resolves"] = s.resolves;
    rs["src_bytes"] = s.resolve_src_bytes;
    rs["dst_line_writes"] = s.resolve_lines;
    rs["busy_cycles"] = r.resolve_busy;
    rs["src_bytes_per_clock"] = static_cast<double>(s.resolve_src_bytes) / rb;
    rs["src_lines_per_clock"] = static_cast<double>(s.resolve_src_bytes) / 64.0 / rb;
    j["resolve"] = rs;
  }
  // Geometry front end (DRAW_FE; docs/frontend.md): rates over the cycles a front-end unit held
  // work (fe_busy_o), the vertex cache (model statistics), PA's triangles in and out and its
  // clipper's occupancy (pa_clip_busy_o cycles over front-end busy cycles).
  if (s.fe_draws > 0) {
    const double fb = r.fe_busy ? static_cast<double>(r.fe_busy) : 1.0;
    nlohmann::json f;
    f["draws"] = s.fe_draws;
    f["busy_cycles"] = r.fe_busy;
    f["indices"] = s.indices;
    f["indices_per_clock"] = static_cast<double>(s.indices) / fb;
    f["vertices"] = s.vc_vertices;
    f["triangles"] = s.vc_triangles;
    f["batches"] = s.vc_batches;
    f["acmr"] = s.acmr();
    f["hit_rate"] = s.hit_rate();
    f["vertex_dwords_read"] = s.vf_dwords;
    f["vertices_per_clock"] = static_cast<double>(s.vc_vertices) / fb;
    f["pa_in"] = s.pa_prims;
    f["pa_out"] = s.pa_tris_out;
    f["pa_out_per_clock"] = static_cast<double>(s.pa_tris_out) / fb;
    f["clipped"] = s.pa_clipped;
    f["rejected"] = s.pa_rejected;
    f["culled_face"] = s.pa_culled_face;
    f["culled_area"] = s.pa_culled_area;
    f["culled_empty"] = s.pa_culled_empty;
    f["nan"] = s.pa_nan;
    f["clip_busy_cycles"] = r.pa_clip_busy;
    f["clipper_occupancy"] = static_cast<double>(r.pa_clip_busy) / fb;
    j["front_end"] = f;
  }
  {
    // INTERP (docs/interp.md): quads interpolated (tokens not counted) per clock over the scene
    // and over the cycles it was offered a quad or token (zs_quad valid; peak 1 quad/clock), and
    // how many were Gouraud-shaded.
    uint64_t quads = 0, gouraud = 0;
    for (const InterpPkt& p : t.interp_quad) {
      if (p.quad.eop) continue;
      ++quads;
      gouraud += p.quad.om.gouraud;
    }
    nlohmann::json ij;
    ij["quads"] = quads;
    ij["gouraud_quads"] = gouraud;
    ij["quads_per_clock"] = static_cast<double>(quads) / cyc;
    ij["fed_cycles"] = r.interp_fed;
    ij["quads_per_clock_fed"] = r.interp_fed ? static_cast<double>(quads) / static_cast<double>(r.interp_fed) : 0.0;
    ij["peak"] = 1.0;
    j["interp"] = ij;
  }
  return j;
}

Row run_scene(const Options& o, const std::string& name) {
  Row row;
  row.scene = name;
  const auto t0 = std::chrono::steady_clock::now();
  const SceneImage img = build_scene(name, o.scene_seed);

  // Golden model.
  Memory model_mem = img.mem;
  model::PinedaTop gpu(model_mem);
  gpu.set_num_rast(tb::kNumRast);  // the rasterizers of the Verilated top (per-rasterizer order)
  // --no-fast-clear: every CONTROL write also sets NO_FAST_CLEAR (model and RTL alike).
  auto reg_writes = img.reg_writes;
  for (auto& [idx, val] : reg_writes) {
    if (idx == REG_CONTROL && o.no_fast_clear) val |= 1u << CONTROL_NO_FAST_CLEAR;
  }
  for (const auto& [idx, val] : reg_writes) gpu.reg_write(idx, val);
  std::vector<model::HostAction> actions;
  for (const auto& w : img.wait_releases) actions.push_back({w, 0});
  gpu.run_with_host(actions);
  const model::Trace& tr = gpu.trace();
  if (!o.capture_dir.empty()) {  // the scene as a capture file, with the model's result to reproduce
    rt::Capture c = scene_to_capture(img);
    c.expected = replay_result(model_mem, [&gpu](uint32_t r) { return gpu.reg_read(r); });
    std::filesystem::create_directories(o.capture_dir);
    rt::save_capture(o.capture_dir + "/" + name + ".pcap", c);
  }

  // RTL.
  Memory rtl_mem = img.mem;
  const tb::TopConfig cfg = tb::scene_top_config(img, o);
  tb::TopHarness h(rtl_mem, cfg, tb::RunId{name, o.seed, replay_cmd(o, name)});
  uint32_t cmd_dwords = 0;
  for (const auto& [idx, val] : reg_writes) {
    h.reg_write(idx, val);
    if (idx == REG_RING_WPTR) cmd_dwords = val / 4;
  }
  tb::ExpectedStreams exp = tb::expect_all(tr);
  const auto rtl_t0 = std::chrono::steady_clock::now();
  const double rtl_cpu0 = thread_cpu_seconds();
  const tb::TopResult r = h.run(exp);
  row.rtl_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - rtl_t0).count();
  row.rtl_cpu_seconds = thread_cpu_seconds() - rtl_cpu0;
  row.cycles = r.cycles;
  row.tris = tr.ia_tri.size() + tr.pa_tri.size();  // into SETUP from both paths
  row.setup = tr.setup_tri.size();
  row.tiles = tr.coarse_tile.size();
  row.covs = tr.fine_quad.size();
  row.pixels = gpu.stats().pixels_written;

  std::ostringstream why;
  if (!r.ok) why << r.report;
  // Registers visible to the host must agree.
  const uint32_t regs[] = {REG_STATUS, REG_ERROR_CAUSE, REG_ERROR_ADDR, REG_RING_RPTR,
                           REG_IRQ_STATUS, REG_INT_PAYLOAD, REG_IB_DEPTH};
  if (r.ok) {
    for (uint32_t reg : regs) {
      const uint32_t m = gpu.reg_read(reg), a = h.reg_read(reg);
      if (m != a) {
        why << "REGISTER MISMATCH test=" << name << " seed=" << o.seed << " reg=" << reg
            << " expected=" << bits::hex(m) << " actual=" << bits::hex(a) << "\n";
      }
    }
    for (uint32_t i = 0; i < NUM_FENCES; ++i) {
      const uint32_t m = gpu.reg_read(REG_FENCE0 + i);
      if (m != r.fences[i]) {
        why << "FENCE MISMATCH test=" << name << " fence=" << i << " expected=" << bits::hex(m)
            << " actual=" << bits::hex(r.fences[i]) << "\n";
      }
    }
    // Hierarchical Z: the RTL's tiles tested and rejected (every rasterizer) are the model's.
    if (!r.perf.empty()) {
      const auto& st = gpu.stats();
      const uint32_t mt = static_cast<uint32_t>(st.hiz_tested), mr = static_cast<uint32_t>(st.hiz_rejected);
      if (r.perf.at(PERF_HIZ_TESTED) != mt || r.perf.at(PERF_HIZ_REJECTED) != mr) {
        why << "HIZ COUNTER MISMATCH test=" << name << " seed=" << o.seed << " tested expected=" << mt
            << " actual=" << r.perf.at(PERF_HIZ_TESTED) << " rejected expected=" << mr
            << " actual=" << r.perf.at(PERF_HIZ_REJECTED) << "\n";
      }
    }
    // Final memory, byte for byte (render target and everything else).
    if (auto d = model_mem.first_difference(rtl_mem)) {
      const uint32_t off = *d - img.rt_base;
      why << "MEMORY MISMATCH test=" << name << " seed=" << o.seed << " addr=" << bits::hex(*d);
      if (*d >= img.rt_base && off < img.rt_pitch * img.height) {
        why << " pixel=(" << (off % img.rt_pitch) / 4 << "," << off / img.rt_pitch << ")";
      }
      why << " expected=" << bits::hex(model_mem.read32(*d)) << " actual="
          << bits::hex(rtl_mem.read32(*d)) << "\n";
    }
  }
  row.why = why.str();
  row.ok = row.why.empty();

  std::filesystem::create_directories(o.out_dir);
  const std::string png = o.out_dir + "/" + name + ".png";
  // A 4x MSAA target is resolved for the image (docs/om.md section 7): by the GPU when the scene
  // resolved it into a 1x target (OP_RESOLVE; the harness checks that target against the model of
  // the resolve applied to the RTL's own samples), else by the model of the resolve here.
  const uint32_t dbpp = model::resolve_dst_bpp(img.fmt);
  if (img.samples == 4 && img.resolved_base != 0) {
    Memory sw;
    model::resolve_msaa4(rtl_mem, img.rt_base, img.rt_pitch, sw, 0, img.width * dbpp, img.width, img.height, img.fmt);
    for (uint32_t y = 0; y < img.height && row.ok; ++y) {
      for (uint32_t b = 0; b < img.width * dbpp; ++b) {
        if (rtl_mem.read8(img.resolved_base + y * img.resolved_pitch + b) != sw.read8(y * img.width * dbpp + b)) {
          row.ok = false;
          row.why += "HW RESOLVE MISMATCH test=" + name + " pixel=(" + std::to_string(b / dbpp) + "," + std::to_string(y) +
                     "): the 1x target differs from the resolve of the 4x samples\n";
          break;
        }
      }
    }
  }
  auto write_image = [&img, dbpp](const std::string& path, const Memory& mem) {
    if (img.samples != 4) {
      write_png(path, mem, img.rt_base, img.rt_pitch, img.width, img.height, img.fmt);
      return;
    }
    if (img.resolved_base != 0) {
      write_png(path, mem, img.resolved_base, img.resolved_pitch, img.width, img.height, img.fmt);
      return;
    }
    Memory resolved;
    model::resolve_msaa4(mem, img.rt_base, img.rt_pitch, resolved, 0, img.width * dbpp, img.width, img.height, img.fmt);
    write_png(path, resolved, 0, img.width * dbpp, img.width, img.height, img.fmt);
  };
  write_image(png, rtl_mem);
  if (!row.ok) {  // pictures of the mismatch, the first differing pixel and the triangle that wrote it
    row.why += write_mismatch_images(o.out_dir, name, model_mem, rtl_mem, scene_target(img), &tr);
    row.mismatch_images = {name + ".model.png", name + ".rtl.png", name + ".diff.png"};
  }
  if (!r.perf.empty()) {
    row.bench = bench_json(r, tr, gpu.stats(), cmd_dwords, o.dram.bytes_per_clock, gpu.cp(), o.no_fast_clear, img.fmt);
    if (gpu.stats().tex_quads > 0) row.bench["tex"] = tex_bench(r, tr, model_mem, gpu.cp());
  }
  row.bench["scene"] = name;
  row.bench["ok"] = row.ok;
  // Simulation speed: the RTL run's wall time and its simulated cycles per second (wall-clock,
  // so it depends on the machine and its load; the cycles themselves do not).
  row.bench["rtl_seconds"] = row.rtl_seconds;
  row.bench["sim_cycles_per_second"] = row.rtl_seconds > 0 ? static_cast<double>(r.cycles) / row.rtl_seconds : 0.0;
  row.bench["rtl_cpu_seconds"] = row.rtl_cpu_seconds;
  row.bench["sim_cycles_per_cpu_second"] =
      row.rtl_cpu_seconds > 0 ? static_cast<double>(r.cycles) / row.rtl_cpu_seconds : 0.0;
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.list) {
    for (const auto& s : scene_registry()) std::printf("%-16s %s\n", s.name.c_str(), s.description.c_str());
    for (const auto& s : optin_scene_registry())  // run only when named
      std::printf("%-16s (opt-in) %s\n", s.name.c_str(), s.description.c_str());
    return 0;
  }
  std::vector<std::string> names = o.scenes;
  if (names.empty()) {
    for (const auto& s : scene_registry()) {
      if (std::find(o.skip.begin(), o.skip.end(), s.name) == o.skip.end()) names.push_back(s.name);
    }
  }
  for (const auto& k : o.skip) {
    if (!find_scene(k)) {
      std::fprintf(stderr, "pineda_sim: --skip: unknown scene '%s' (see --list)\n", k.c_str());
      return 2;
    }
  }
  std::printf("pineda_sim: scene-seed=%u seed=%llu latency=%u jitter=%u bandwidth=%.2f B/clock throttle=%.2f rasterizers=%u%s%s\n",
              o.scene_seed, static_cast<unsigned long long>(o.seed), o.dram.latency, o.dram.jitter,
              o.dram.bytes_per_clock, o.throttle, tb::kNumRast, o.label.empty() ? "" : " config=", o.label.c_str());
  std::vector<Row> rows;
  for (const auto& n : names) {
    try {
      rows.push_back(run_scene(o, n));
    } catch (const std::exception& e) {
      Row r;
      r.scene = n;
      r.why = std::string("exception: ") + e.what() + "\n";
      rows.push_back(r);
    }
    const Row& r = rows.back();
    if (!r.ok) std::fputs(r.why.c_str(), stdout);
    std::fflush(stdout);
  }
  std::printf("\n%-16s %8s %8s %8s %8s %9s %10s %7s %9s  %s\n", "scene", "tris", "setup", "tiles",
              "quads", "pixels", "cycles", "sec", "rtl cyc/s", "result");
  int pass = 0, fail = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& r : rows) {
    std::printf("%-16s %8zu %8zu %8zu %8zu %9zu %10llu %7.1f %9.0f  %s\n", r.scene.c_str(), r.tris,
                r.setup, r.tiles, r.covs, r.pixels, static_cast<unsigned long long>(r.cycles),
                r.seconds, r.rtl_seconds > 0 ? static_cast<double>(r.cycles) / r.rtl_seconds : 0.0,
                r.ok ? "PASS" : "FAIL");
    (r.ok ? pass : fail)++;
    all.push_back(r.bench);
  }
  if (!o.json_path.empty()) {
    std::filesystem::path p(o.json_path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    nlohmann::json doc{{"seed", o.seed},
                       {"scene_seed", o.scene_seed},
                       {"latency", o.dram.latency},
                       {"jitter", o.dram.jitter},
                       {"bandwidth", o.dram.bytes_per_clock},  // bytes per clock
                       {"throttle", o.throttle},
                       {"no_fast_clear", o.no_fast_clear},
                       {"scenes", all}};
    std::ofstream(o.json_path) << doc.dump(2) << "\n";
  }
  {  // the HTML report next to the images
    std::vector<ReportRow> report;
    for (const auto& r : rows) {
      report.push_back({r.scene, r.ok, r.why, r.cycles, r.seconds, r.scene + ".png", r.mismatch_images,
                        report_units(r.bench)});
    }
    char cfg[256];
    std::snprintf(cfg, sizeof cfg, "scene-seed %u, seed %llu, latency %u, jitter %u, bandwidth %.1f bytes/clock, throttle %.2f, %u rasterizer(s)",
                  o.scene_seed, static_cast<unsigned long long>(o.seed), o.dram.latency, o.dram.jitter, o.dram.bytes_per_clock,
                  o.throttle, tb::kNumRast);
    std::filesystem::create_directories(o.out_dir);
    write_html_report(o.out_dir + "/index.html", "pineda_sim" + (o.label.empty() ? "" : ": " + o.label), cfg, report);
    std::printf("report: %s/index.html\n", o.out_dir.c_str());
  }
  std::printf("%s%s%d passed, %d failed\n", o.label.empty() ? "" : o.label.c_str(),
              o.label.empty() ? "" : ": ", pass, fail);
  return fail ? 1 : 0;
}
