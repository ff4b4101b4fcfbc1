// SPDX-License-Identifier: Apache-2.0
// Mismatch pictures (sim/image_diff.h): which pixels differ (any sample of a 4x pixel), the first
// one, the diff image's marks, the triangle that last wrote a pixel; and the HTML report.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "image_diff.h"
#include "pineda_contract.h"
#include "report.h"

using namespace pineda;

TEST_CASE("image diff: differing pixels, the first one and the diff picture", "[sim][image_diff]") {
  const TargetView t{0x1000, 64 * 4, 40, 30, 1};
  Memory a;
  for (uint32_t y = 0; y < t.height; ++y) a.fill32(t.base + y * t.pitch, t.width, 0xFF808080u);
  Memory b = a;
  CHECK(diff_targets(a, b, t).pixels == 0);
  CHECK(!diff_targets(a, b, t).first);
  b.write32(t.base + 7 * t.pitch + 5 * 4, 0xFF808081u);   // (5, 7)
  b.write32(t.base + 7 * t.pitch + 30 * 4, 0xFF000000u);  // (30, 7)
  b.write32(t.base + 20 * t.pitch + 2 * 4, 0x00808080u);  // (2, 20): alpha only
  b.write32(t.base + 7 * t.pitch + 45 * 4, 0x12345678u);  // row padding: not a pixel
  const PixelDiff d = diff_targets(a, b, t);
  CHECK(d.pixels == 3);
  REQUIRE(d.first);
  CHECK(d.first->first == 5);
  CHECK(d.first->second == 7);
  auto px = [&](uint32_t x, uint32_t y) { return &d.picture.rgba[(static_cast<size_t>(y) * t.width + x) * 4]; };
  CHECK(px(5, 7)[0] == 255);
  CHECK(px(5, 7)[1] == 0);
  CHECK(px(2, 20)[0] == 255);
  CHECK(px(6, 7)[0] < 100);  // the rest greyed and dimmed
  CHECK(px(6, 7)[0] == px(6, 7)[1]);
}

TEST_CASE("image diff: a 4x MSAA pixel differs when one sample does", "[sim][image_diff]") {
  const TargetView t{0x2000, 8 * 16, 8, 4, 4};
  Memory a;
  for (uint32_t y = 0; y < t.height; ++y) a.fill32(t.base + y * t.pitch, t.width * 4, 0xFF000000u);
  Memory b = a;
  b.write32(t.base + 3 * t.pitch + 6 * 16 + 3 * 4, 0xFF000001u);  // pixel (6, 3), sample 3
  const PixelDiff d = diff_targets(a, b, t);
  CHECK(d.pixels == 1);
  REQUIRE(d.first);
  CHECK(*d.first == std::make_pair(6u, 3u));
  // The resolved images barely differ (1/4 of one step rounds away), the diff still marks it.
  CHECK(target_image(a, t).rgba == target_image(b, t).rgba);
}

TEST_CASE("image diff: targets decoded by format (B5G6R5, BGRA8, at 1x and 4x)", "[sim][image_diff]") {
  // 3 x 2 B5G6R5 at pitch 8 (odd width: 2 bytes of row padding): pure red, green, blue, white.
  TargetView t{0x3000, 8, 3, 2, 1, RT_FMT_B5G6R5};
  Memory m;
  const uint16_t px[6] = {0xF800, 0x07E0, 0x001F, 0xFFFF, 0x0000, 0x8410};
  for (uint32_t i = 0; i < 6; ++i) m.write(t.base + (i / 3) * t.pitch + (i % 3) * 2, &px[i], 2);
  const Image img = target_image(m, t);
  const std::vector<uint8_t> want = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                     255, 255, 255, 255, 0, 0, 0, 255, 132, 130, 132, 255};
  CHECK(img.rgba == want);
  // Two bytes per pixel: a change in pixel (1, 1) is that pixel, the padding is not a pixel.
  Memory b = m;
  b.write8(t.base + t.pitch + 2, 1);
  b.write8(t.base + t.pitch + 6, 1);
  const PixelDiff d = diff_targets(m, b, t);
  CHECK(d.pixels == 1);
  REQUIRE(d.first);
  CHECK(*d.first == std::make_pair(1u, 1u));
  // 4x: each sample decoded, then averaged: B5G6R5 red and blue samples of one pixel.
  TargetView t4{0x4000, 16, 2, 1, 4, RT_FMT_B5G6R5};
  const uint16_t s4[8] = {0xF800, 0xF800, 0x001F, 0x001F, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
  m.write(t4.base, s4, sizeof s4);
  CHECK(target_image(m, t4).rgba == std::vector<uint8_t>({128, 0, 128, 255, 255, 255, 255, 255}));
  // BGRA8: B in byte 0.
  TargetView tb{0x5000, 4, 1, 1, 1, RT_FMT_BGRA8};
  m.write32(tb.base, 0x80112233u);
  CHECK(target_image(m, tb).rgba == std::vector<uint8_t>({0x11, 0x22, 0x33, 0x80}));
}

TEST_CASE("image diff: the triangle that last wrote a pixel", "[sim][image_diff]") {
  model::Trace tr;
  QuadPkt q;
  q.target.base = 0x1000;
  q.qx = 2, q.qy = 3, q.mask = 0x1, q.tri_id = 11;  // pixel (4, 6)
  tr.fine_quad.push_back(q);
  q.mask = 0x8, q.tri_id = 12;  // pixel (5, 7)
  tr.fine_quad.push_back(q);
  q.mask = 0x1, q.tri_id = 13;  // (4, 6) again, later
  tr.fine_quad.push_back(q);
  q.target.base = 0x9000, q.tri_id = 14;  // another target
  tr.fine_quad.push_back(q);
  CHECK(last_triangle_at(tr, 0x1000, 4, 6) == 13u);
  CHECK(last_triangle_at(tr, 0x1000, 5, 7) == 12u);
  CHECK(!last_triangle_at(tr, 0x1000, 5, 6));
  CHECK(last_triangle_at(tr, 0x9000, 4, 6) == 14u);
}

TEST_CASE("HTML report: a row per scene with its image, result, cycles and unit bars", "[sim][report]") {
  nlohmann::json bench;
  bench["units"]["CP"] = {{"busy", 50.0}, {"stalled", 25.0}, {"starved", 25.0}};
  bench["units"]["PW"] = {{"busy", 10.0}, {"stalled", 0.0}, {"starved", 90.0}};
  const std::vector<ReportUnit> units = report_units(bench);
  REQUIRE(units.size() == 2);
  std::vector<ReportRow> rows = {{"alpha", true, "", 100, 0.1, "alpha.png", {}, units},
                                 {"beta<1>", false, "MISMATCH x < y\n", 200, 0.2, "beta.png",
                                  {"beta.model.png", "beta.rtl.png", "beta.diff.png"}, {}}};
  std::system("mkdir -p out/test");
  write_html_report("out/test/unit_report.html", "t", "cfg", rows);
  std::ifstream f("out/test/unit_report.html");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string h = ss.str();
  CHECK_THAT(h, Catch::Contains("1 passed, 1 failed"));
  CHECK_THAT(h, Catch::Contains("<img src=\"alpha.png\""));
  CHECK_THAT(h, Catch::Contains("beta.diff.png"));
  CHECK_THAT(h, Catch::Contains("beta&lt;1&gt;"));
  CHECK_THAT(h, Catch::Contains("MISMATCH x &lt; y"));
  CHECK_THAT(h, Catch::Contains("width:50.0%"));  // CP busy half of 100 cycles
  CHECK_THAT(h, Catch::Contains("width:90.0%"));  // PW starved
  CHECK(report_units(nlohmann::json::object()).empty());
}
