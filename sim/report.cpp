// SPDX-License-Identifier: Apache-2.0
#include "report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pineda {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string pct(double part, double whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", whole > 0 ? std::min(100.0, 100.0 * part / whole) : 0.0);
  return b;
}

// One stacked bar: busy (green), stalled (orange), starved (grey); the rest idle.
std::string bar(const ReportUnit& u, uint64_t cycles) {
  const double c = static_cast<double>(cycles);
  std::ostringstream os;
  os << "<div class=unit><span class=un>" << esc(u.name) << "</span><span class=bar title=\"" << esc(u.name)
     << ": busy " << pct(u.busy, c) << "%, stalled " << pct(u.stalled, c) << "%, starved " << pct(u.starved, c)
     << "%\">"
     << "<i class=b style=\"width:" << pct(u.busy, c) << "%\"></i>"
     << "<i class=s style=\"width:" << pct(u.stalled, c) << "%\"></i>"
     << "<i class=v style=\"width:" << pct(u.starved, c) << "%\"></i></span>"
     << "<span class=num>" << pct(u.busy, c) << " / " << pct(u.stalled, c) << " / " << pct(u.starved, c)
     << "</span></div>";
  return os.str();
}

}  // namespace

std::vector<ReportUnit> report_units(const nlohmann::json& bench) {
  std::vector<ReportUnit> r;
  if (!bench.is_object() || !bench.contains("units") || !bench["units"].is_object()) return r;
  for (const auto& [name, u] : bench["units"].items()) {
    ReportUnit x;
    x.name = name;
    x.busy = u.value("busy", 0.0);
    x.stalled = u.value("stalled", 0.0);
    x.starved = u.value("starved", 0.0);
    r.push_back(x);
  }
  // Pipeline order (the JSON object is sorted by name); units not listed here go last.
  const std::vector<std::string> order = {"CP", "IA", "SETUP", "COARSE", "FINE", "ZS", "PW"};
  auto rank = [&order](const ReportUnit& u) {
    return static_cast<size_t>(std::find(order.begin(), order.end(), u.name) - order.begin());
  };
  std::stable_sort(r.begin(), r.end(), [&rank](const ReportUnit& a, const ReportUnit& b) { return rank(a) < rank(b); });
  return r;
}

void write_html_report(const std::string& path, const std::string& title, const std::string& config,
                       const std::vector<ReportRow>& rows) {
  int pass = 0, fail = 0;
  for (const ReportRow& r : rows) (r.ok ? pass : fail)++;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<!-- SPDX-License-Identifier: Apache-2.0 -->\n<html><head><meta charset=utf-8><title>"
    << esc(title) << "</title>\n<style>\n"
       "body{font:14px sans-serif;margin:1em 2em;background:#fafafa}\n"
       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}\n"
       "th{background:#eee}.pass{color:#080;font-weight:bold}.fail{color:#c00;font-weight:bold}\n"
       "img{image-rendering:pixelated;max-width:256px;border:1px solid #888}\n"
       ".unit{white-space:nowrap;font-size:12px}.un{display:inline-block;width:4.5em}\n"
       ".bar{display:inline-block;width:160px;height:10px;background:#f4f4f4;border:1px solid #bbb;vertical-align:middle}\n"
       ".bar i{display:inline-block;height:10px}.b{background:#3a3}.s{background:#e90}.v{background:#999}\n"
       ".num{color:#555;margin-left:6px}pre{white-space:pre-wrap;max-width:60em;font-size:12px}\n"
       "</style></head><body>\n<h1>"
    << esc(title) << "</h1>\n<p>" << esc(config) << "</p>\n<p><b>" << pass << " passed, " << fail
    << " failed</b>. Bars: per unit, the share of the scene's cycles it was "
       "<span style=\"color:#3a3\">busy</span> / <span style=\"color:#e90\">stalled</span> (output not taken) / "
       "<span style=\"color:#999\">starved</span> (no input), from the RTL's performance counters.</p>\n"
       "<table><tr><th>scene</th><th>image (RTL)</th><th>result</th><th>cycles</th><th>units: busy / stalled / starved %</th></tr>\n";
  for (const ReportRow& r : rows) {
    h << "<tr id=\"" << esc(r.scene) << "\"><td>" << esc(r.scene) << "</td><td>";
    if (!r.image.empty()) h << "<a href=\"" << esc(r.image) << "\"><img src=\"" << esc(r.image) << "\" alt=\"" << esc(r.scene) << "\"></a>";
    h << "</td><td class=" << (r.ok ? "pass>PASS" : "fail>FAIL") << "</td><td>" << r.cycles << "</td><td>";
    for (const ReportUnit& u : r.units) h << bar(u, r.cycles);
    h << "</td></tr>\n";
    if (!r.ok) {
      h << "<tr><td colspan=5>";
      for (const std::string& m : r.mismatch_images) {
        h << "<figure style=\"display:inline-block\"><a href=\"" << esc(m) << "\"><img src=\"" << esc(m) << "\"></a><figcaption>"
          << esc(m) << "</figcaption></figure>";
      }
      h << "<pre>" << esc(r.why) << "</pre></td></tr>\n";
    }
  }
  h << "</table>\n</body></html>\n";
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << h.str();
  if (!f) throw std::runtime_error("writing " + path + " failed");
}

}  // namespace pineda
