// SPDX-License-Identifier: Apache-2.0
// Rasterizer properties on the model (docs/verification.md, "Rasterizer properties"): closed
// meshes are watertight (every sample inside covered exactly once, at 1x and 4x MSAA), the
// D3D11 top-left rule, the 16.8 guard-band extremes, zero-area and one-sample triangles, and
// scissor edges. The same cases run through the RTL in tb/setup, tb/rast (raster_cases.h).
#include <cstdio>
#include <set>

#include "raster_cases.h"
#include "test_util.h"

using namespace pineda;

namespace {

// The samples the model covers for a case's triangles, through SETUP -> COARSE -> FINE.
std::vector<cases::Hit> model_hits(const cases::Case& c) {
  std::vector<cases::Hit> hits;
  for (uint32_t k = 0; k < c.tris.size(); ++k) {
    for (const test::Sample& s : test::raster_samples(c.tris[k])) hits.push_back({s.x, s.y, s.s, k});
  }
  return hits;
}

void run_cases(const std::vector<cases::Case>& all, const char* what) {
  size_t tris = 0, hits = 0, failed = 0;
  for (const auto& c : all) {
    const auto h = model_hits(c);
    tris += c.tris.size();
    hits += h.size();
    const std::string err = cases::check_case(c, h);
    if (!err.empty()) {
      ++failed;
      if (failed <= 3) {
        INFO(err);
        CHECK(err.empty());
      }
    }
  }
  std::printf("  %s: %zu cases, %zu triangles, %zu samples covered, %zu failed\n", what, all.size(), tris, hits, failed);
  CHECK(failed == 0);
}

}  // namespace

TEST_CASE("raster properties: closed meshes are watertight at 1x and 4x", "[props][watertight]") {
  const uint32_t seed = test::base_seed();
  std::printf("[model_tests] raster properties: seed=%u (replay: build/tests/model_tests --rng-seed %u \"[props]\")\n", seed, seed);
  for (bool msaa : {false, true}) {
    auto all = cases::mesh_cases(seed * 2 + (msaa ? 1 : 0), 300, msaa);
    for (auto& c : cases::mesh_cases(seed * 2 + 7, 30, msaa, 16384 - 40, 16384 - 40)) all.push_back(c);
    run_cases(all, msaa ? "meshes 4x" : "meshes 1x");
  }
}

TEST_CASE("raster properties: top-left rule, guard band, tiny triangles, scissor", "[props]") {
  const uint32_t seed = test::base_seed() + 1;
  for (bool msaa : {false, true}) {
    const uint64_t s = seed * 2 + (msaa ? 1 : 0);
    run_cases(cases::topleft_cases(s, 400, msaa), msaa ? "top-left 4x" : "top-left 1x");
    run_cases(cases::extreme_cases(s, 200, msaa), msaa ? "guard band 4x" : "guard band 1x");
    run_cases(cases::tiny_cases(s, 400, msaa), msaa ? "zero-area / one-sample 4x" : "zero-area / one-sample 1x");
    run_cases(cases::scissor_cases(s, 200, msaa), msaa ? "scissor 4x" : "scissor 1x");
  }
  // One-sample triangles cover exactly their sample.
  for (const auto& c : cases::tiny_cases(seed, 100, true)) {
    if (c.expect == cases::Case::Expect::BRUTE_EACH) CHECK(test::raster_samples(c.tris[0]).size() == 1u);
  }
}

TEST_CASE("raster properties: D3D11 top-left examples at 4x", "[props][topleft]") {
  // A horizontal top edge through sample 0 of row 2's pixels and a vertical left edge through
  // sample 2 of column 3's pixels: samples on them are inside; the same lines as bottom / right
  // edges are outside.
  const Rect clip = test::rect(0, 0, 16, 16);
  const int64_t y = 2 * 256 + 128 - 96, x = 3 * 256 + 128 - 96;  // sample 0 row, sample 2 column
  TriPkt t = test::tri(x, y, x + 8 * 256, y, x, y + 8 * 256, clip);  // top + left edges on samples
  t.target.msaa = 1;
  std::set<test::Sample> got;
  for (const auto& s : test::raster_samples(t)) got.insert(s);
  CHECK(got.count({3, 2, 2}) == 1);  // on the left edge, below the top edge
  CHECK(got.count({4, 2, 0}) == 1);  // on the top edge: sample 0 of pixel (4, 2)
  CHECK(got.count({3, 3, 2}) == 1);  // on the left edge: sample 2 of pixel (3, 3)
  // The mirror image: the same lines as bottom and right edges.
  TriPkt m = test::tri(x, y, x - 8 * 256, y, x, y - 8 * 256, clip);
  m.target.msaa = 1;
  std::set<test::Sample> mg;
  for (const auto& s : test::raster_samples(m)) mg.insert(s);
  CHECK(mg.count({2, 2, 0}) == 0);  // on the bottom edge
  CHECK(mg.count({3, 1, 2}) == 0);  // on the right edge
  for (const auto& s : mg) CHECK(got.count(s) == 0);  // the two never share a sample
}
