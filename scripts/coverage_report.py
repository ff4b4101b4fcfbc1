#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-unit RTL coverage from a merged Verilator coverage file (make coverage).

usage: coverage_report.py MERGED.dat [--uncovered N] [--json OUT]
Line coverage counts Verilator's line and branch points (--coverage-line) per source file;
toggle coverage (--coverage-toggle) the signal bits that toggled. Prints one row per rtl/ file
and, per file, the uncovered source lines (first N).
"""
import argparse
import collections
import json
import os
import re
import sys


def parse(path):
    pts = []
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            m = re.match(r"^C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            kv = {}
            for part in m.group(1).split("\x01"):
                if "\x02" in part:
                    k, v = part.split("\x02", 1)
                    kv[k] = v
            pts.append((kv, int(m.group(2))))
    return pts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dat")
    ap.add_argument("--uncovered", type=int, default=30)
    ap.add_argument("--json")
    a = ap.parse_args()
    line = collections.defaultdict(dict)    # file -> {(line, col, comment): count}
    tog = collections.defaultdict(lambda: [0, 0])
    for kv, cnt in parse(a.dat):
        f = os.path.normpath(kv.get("f", "?"))  # -y dirs give rtl/x//y.sv
        if not f.startswith("rtl/"):
            continue
        page = kv.get("page", "")
        if page.startswith("v_toggle"):
            key = (kv.get("h", ""), kv.get("o", ""))
            tog[f][1] += 1
            tog[f][0] += 1 if cnt > 0 else 0
        elif page.startswith("v_line") or page.startswith("v_branch"):
            key = (int(kv.get("l", 0)), kv.get("n", ""), kv.get("o", ""), page)
            line[f][key] = max(line[f].get(key, 0), cnt)
    rows = []
    tc = tt = 0
    for f in sorted(line):
        pts = line[f]
        cov = sum(1 for c in pts.values() if c > 0)
        tc += cov
        tt += len(pts)
        unc = sorted({k[0] for k, c in pts.items() if c == 0})
        tg = tog.get(f, [0, 0])
        rows.append({"file": f, "line_points": len(pts), "line_covered": cov,
                     "line_pct": 100.0 * cov / len(pts) if pts else 100.0,
                     "toggle_bits": tg[1], "toggle_pct": 100.0 * tg[0] / tg[1] if tg[1] else None,
                     "uncovered_lines": unc})
    print(f"{'unit (file)':44s} {'line pts':>8s} {'line %':>7s} {'toggle %':>8s}")
    for r in rows:
        t = f"{r['toggle_pct']:7.1f}%" if r["toggle_pct"] is not None else "       -"
        print(f"{r['file']:44s} {r['line_points']:8d} {r['line_pct']:6.1f}% {t}")
    print(f"{'total rtl/':44s} {tt:8d} {100.0 * tc / tt if tt else 0:6.1f}%")
    print()
    for r in rows:
        if r["uncovered_lines"]:
            u = r["uncovered_lines"]
            more = f" ... (+{len(u) - a.uncovered})" if len(u) > a.uncovered else ""
            print(f"uncovered {r['file']}: lines {', '.join(map(str, u[:a.uncovered]))}{more}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "total_pct": 100.0 * tc / tt if tt else 0}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
