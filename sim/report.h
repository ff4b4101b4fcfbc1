// SPDX-License-Identifier: Apache-2.0
// The regression's HTML report (out/sim/index.html): every scene's image with pass/fail, cycles,
// and per unit the busy / stalled / starved fractions of the run from the RTL's counters, as bars;
// a failing scene also shows the model, RTL and diff images and the report text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pineda {

struct ReportUnit {
  std::string name;
  double busy = 0, stalled = 0, starved = 0;  // cycles
};

struct ReportRow {
  std::string scene;
  bool ok = false;
  std::string why;        // empty when it passed
  uint64_t cycles = 0;
  double seconds = 0;
  std::string image;      // file names relative to the report
  std::vector<std::string> mismatch_images;  // model, RTL, diff (when they exist)
  std::vector<ReportUnit> units;
};

// The per-unit counters of a pineda_sim bench record ({"units": {"CP": {"busy": ..}, ..}}).
std::vector<ReportUnit> report_units(const nlohmann::json& bench);

// Writes the report; `config` is one line (seeds, latency...). Throws std::runtime_error on I/O errors.
void write_html_report(const std::string& path, const std::string& title, const std::string& config,
                       const std::vector<ReportRow>& rows);

}  // namespace pineda
