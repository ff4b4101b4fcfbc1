#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hardware budget check: out/synth/area.json against synth/budget.json.

    python3 synth/check_budget.py [--area out/synth/area.json] [--budget synth/budget.json]

Prints, per budget group (the rows of one configuration, NumRast=1, summed), LUT4 today against
its budget, FF, BRAM, the deepest register-to-register path in LUT4 levels against the limit, and
the front, back and whole-GPU totals. Fails (exit 1) when a group marked "enforce" is over its
LUT4 budget or its level limit, or when an area row belongs to no group (a new unit must get a
budget). Groups not yet enforced are reported as over, not failed: set "enforce" once a unit
meets its budget so that it stays there (`make synth-check` runs this after the baseline check).
"""
import argparse
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def evaluate(area, budget):
    """-> (table rows, failures, notes)."""
    cfg = area["configs"][budget["config"]]
    top = area.get("top", "pineda_top")
    rows = {r["label"][len(top) + 1:] if r["label"].startswith(top + "/") else r["label"]: r for r in cfg["rows"]}
    limit = budget["levels"]
    table, fails, notes = [], [], []
    used = set()
    parts = {}
    for g in budget["groups"]:
        lut = ff = bram = 0
        levels, deepest, missing = 0, "", []
        for name in g["rows"]:
            r = rows.get(name)
            if r is None:
                missing.append(name)
                continue
            used.add(name)
            lut += int(r["lut4"])
            ff += int(r["ffs"])
            bram += int(r["bram"])
            d = r.get("depth") or {}
            if d.get("levels", 0) > levels:
                levels, deepest = d["levels"], name
        if missing:
            notes.append(f"{g['name']}: no area row {', '.join(missing)}")
        over_lut = g["lut4"] is not None and lut > g["lut4"]
        over_lv = levels > limit
        status = "ok" if not (over_lut or over_lv) else ("OVER" if g.get("enforce") else "over (not enforced)")
        if g.get("enforce") and (over_lut or over_lv):
            what = []
            if over_lut:
                what.append(f"{lut} LUT4 > budget {g['lut4']}")
            if over_lv:
                what.append(f"{levels} levels > {limit} ({deepest})")
            fails.append(f"{g['name']}: " + ", ".join(what))
        table.append((g["name"], lut, g["lut4"], ff, bram, levels, status))
        p = parts.setdefault(g["part"], [0, 0, 0])
        p[0] += lut
        p[1] += ff
        p[2] += bram
    for name in sorted(set(rows) - used):
        fails.append(f"area row {name} belongs to no budget group (synth/budget.json)")
    for part, (lut, ff, bram) in sorted(parts.items()):
        table.append((f"{part} total", lut, budget["parts"].get(part), ff, bram, None,
                      "ok" if lut <= budget["parts"].get(part, lut) else "over"))
    tot = cfg["total"]
    table.append(("whole GPU", int(tot["lut4"]), budget["total"]["lut4"], int(tot["ffs"]), int(tot["bram"]),
                  None, "ok" if int(tot["lut4"]) <= budget["total"]["lut4"] and int(tot["ffs"]) <= budget["total"]["ffs"]
                  else "over"))
    return table, fails, notes


def render(table, limit):
    out = [f"{'unit':52s} {'LUT4':>9s} {'budget':>9s} {'FF':>8s} {'BRAM':>5s} {'levels':>7s}  status (levels <= {limit})"]
    for name, lut, bud, ff, bram, lv, st in table:
        out.append(f"{name:52s} {lut:9d} {('-' if bud is None else str(bud)):>9s} {ff:8d} {bram:5d} "
                   f"{('' if lv is None else str(lv)):>7s}  {st}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--area", default=os.path.join(REPO, "out", "synth", "area.json"))
    ap.add_argument("--budget", default=os.path.join(REPO, "synth", "budget.json"))
    a = ap.parse_args()
    if not os.path.exists(a.area):
        print(f"check_budget: {a.area} does not exist: run `make synth` first")
        return 1
    with open(a.area) as f:
        area = json.load(f)
    with open(a.budget) as f:
        budget = json.load(f)
    table, fails, notes = evaluate(area, budget)
    print(render(table, budget["levels"]))
    for n in notes:
        print("note:", n)
    for x in fails:
        print("FAIL:", x)
    print("budget check: " + ("ok" if not fails else f"{len(fails)} failure(s)"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
