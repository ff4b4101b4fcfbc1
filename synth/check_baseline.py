#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Area baseline check: compare out/synth/area.json with the committed synth/baseline.json.

    python3 synth/check_baseline.py [--area out/synth/area.json] [--baseline synth/baseline.json]
                                    [--margin 5] [--update]

Every row of every configuration (unit rows and the pineda_top totals) is compared on LUT4,
FF and BRAM (`make synth-check` runs `make synth` first; with a warm cache that takes seconds).
A figure more than --margin percent (default 5) above the baseline, or a row that is new or
gone, fails the check, naming the row. Shrinking passes (the report lists it: update the
baseline to lock the gain in). The way to accept growth is to rewrite the baseline
(`make synth-baseline`, i.e. --update) and commit it in the same change, so the growth is
visible in review.
"""
import argparse
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRICS = ("lut4", "ffs", "bram")
# growth below this many cells is noise for tiny rows (e.g. 3 -> 4 LUT4 is +33%)
ABS_SLACK = 16


def figures(area, complete_only=False):
    """area.json -> {config: {row label: {metric: n}}} (the totals as row '<top> total').
    complete_only: leave out rows (and totals) that contain modules not synthesised yet."""
    out = {}
    for cfg, c in area["configs"].items():
        rows = {r["label"]: {m: int(r[m]) for m in METRICS} for r in c["rows"]
                if not (complete_only and r.get("missing"))}
        if not (complete_only and c.get("missing")):
            rows[f"{area.get('top', 'top')} total"] = {m: int(c["total"][m]) for m in METRICS}
        out[cfg] = rows
    return out


def baseline_of(area):
    """The baseline: every complete row. Rows of an incomplete area.json (--cached-only) that
    miss modules are listed as not baselined (the check notes them instead of failing)."""
    base = {"tool": area.get("tool"), "flow": area.get("flow"), "configs": figures(area, True)}
    every = figures(area)
    skipped = sorted(f"{cfg} {row}" for cfg, rows in every.items() for row in rows
                     if row not in base["configs"][cfg])
    if skipped:
        base["not_baselined"] = skipped
    return base


def compare(base, cur, margin, not_baselined=()):
    """-> (failures, notes): lists of strings."""
    fails, notes = [], []
    not_baselined = set(not_baselined)
    for cfg in sorted(set(base) | set(cur)):
        b, c = base.get(cfg), cur.get(cfg)
        if b is None:
            fails.append(f"{cfg}: not in the baseline")
            continue
        if c is None:
            fails.append(f"{cfg}: in the baseline but not in area.json")
            continue
        for row in sorted(set(b) | set(c)):
            if row not in b:
                if f"{cfg} {row}" in not_baselined:
                    notes.append(f"{cfg} {row}: not in the baseline (it was incomplete when written)")
                else:
                    fails.append(f"{cfg} {row}: new row, not in the baseline")
                continue
            if row not in c:
                fails.append(f"{cfg} {row}: in the baseline but gone")
                continue
            for m in METRICS:
                old, new = b[row].get(m, 0), c[row].get(m, 0)
                limit = old * (1 + margin / 100.0)
                if new > limit and new - old > ABS_SLACK:
                    pct = 100.0 * (new - old) / old if old else float("inf")
                    fails.append(f"{cfg} {row}: {m} {old} -> {new} (+{pct:.1f}%, margin {margin:g}%)")
                elif new < old and old - new > ABS_SLACK:
                    notes.append(f"{cfg} {row}: {m} {old} -> {new} (smaller)")
    return fails, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--area", default=os.path.join(REPO, "out", "synth", "area.json"))
    ap.add_argument("--baseline", default=os.path.join(REPO, "synth", "baseline.json"))
    ap.add_argument("--margin", type=float, default=5.0, help="allowed growth in percent (default 5)")
    ap.add_argument("--update", action="store_true",
                    help="write the baseline from area.json (or from an incomplete area.partial.json: "
                         "its complete rows)")
    args = ap.parse_args(argv)
    try:
        with open(args.area) as f:
            area = json.load(f)
    except (OSError, ValueError) as e:
        print(f"synth-check: cannot read {args.area} ({e}); run 'make synth'", file=sys.stderr)
        return 2
    if "configs" not in area:
        print(f"synth-check: {args.area} is not from the whole-GPU flow (make synth without UNITS=)",
              file=sys.stderr)
        return 2
    if area.get("incomplete") and not args.update:
        print(f"synth-check: {args.area} is incomplete (--cached-only); run 'make synth'", file=sys.stderr)
        return 2
    if args.update:
        with open(args.baseline, "w") as f:
            json.dump(baseline_of(area), f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"synth-check: wrote {os.path.relpath(args.baseline)}; commit it with the change")
        return 0
    try:
        with open(args.baseline) as f:
            base = json.load(f)
    except (OSError, ValueError) as e:
        print(f"synth-check: cannot read {args.baseline} ({e})", file=sys.stderr)
        return 2
    if base.get("flow") != area.get("flow") or base.get("tool") != area.get("tool"):
        print(f"synth-check: baseline is from {base.get('tool')} / {base.get('flow')}, area.json from "
              f"{area.get('tool')} / {area.get('flow')}: figures are not comparable; update the "
              "baseline (make synth-baseline)", file=sys.stderr)
        return 1
    fails, notes = compare(base["configs"], figures(area), args.margin, base.get("not_baselined", ()))
    for n in notes:
        print(f"synth-check: note: {n}")
    for x in fails:
        print(f"synth-check: GREW: {x}", file=sys.stderr)
    if fails:
        print(f"synth-check: FAILED: {len(fails)} figure(s) beyond the baseline; if intended, run "
              "'make synth-baseline' and commit synth/baseline.json with the change", file=sys.stderr)
        return 1
    n = sum(len(r) for r in base["configs"].values())
    print(f"synth-check: ok, {n} rows within {args.margin:g}% of synth/baseline.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
