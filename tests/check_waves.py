#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a `make waves FORMAT=vcd` result: the VCD parses (header and value changes), the clock
toggles through the window, some stream of contracts/defs.py BOUNDARIES transfers in it, and every
signal the GTKWave save file names exists in the VCD, inside a group per stream and per unit.

usage: tests/check_waves.py waves/<scene>.vcd waves/<scene>.gtkw
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gtkw  # noqa: E402


def parse_vcd(path):
    """(names -> id, id -> number of value changes, id -> set of values seen, last time)."""
    names, changes, values = {}, {}, {}
    scope = []
    t = 0
    with open(path) as f:
        in_defs = True
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if in_defs:
                if tok[0] == "$scope":
                    scope.append(tok[2])
                elif tok[0] == "$upscope":
                    scope.pop()
                elif tok[0] == "$var":
                    width, ident, name = int(tok[2]), tok[3], tok[4]
                    rng = tok[5] if len(tok) > 6 and tok[5].startswith("[") and width > 1 else ""
                    names[".".join(scope + [name]) + rng] = ident
                    changes.setdefault(ident, 0)
                    values.setdefault(ident, set())
                elif tok[0] == "$enddefinitions":
                    in_defs = False
                continue
            c = tok[0]
            if c[0] == "#":
                t = int(c[1:])
            elif c[0] in "01xzXZ" and len(tok) == 1:
                ident = c[1:]
                if ident in changes:
                    changes[ident] += 1
                    values[ident].add(c[0])
            elif c[0] in "bBrR" and len(tok) == 2:
                if tok[1] in changes:
                    changes[tok[1]] += 1
                    values[tok[1]].add(c[1:])
    return names, changes, values, t


def main():
    vcd, save = sys.argv[1], sys.argv[2]
    names, changes, values, last = parse_vcd(vcd)
    fails = []
    if not names:
        fails.append("no variables in the VCD header")
    clk = names.get("TOP.clk_i")
    if clk is None or changes[clk] < 100:
        fails.append(f"TOP.clk_i toggles {0 if clk is None else changes[clk]} times (expected a window of cycles)")
    moving = [b.name for b in gtkw.defs.BOUNDARIES
              if "1" in values.get(names.get(f"TOP.tap_{b.name}_valid_o", ""), set())]
    if not moving:
        fails.append("no stream's valid is ever 1 in the window")
    lines = open(save).read().splitlines()
    sigs = [x for x in lines if x.startswith("TOP.")]
    missing = [s for s in sigs if s not in names]
    if missing:
        fails.append(f"{len(missing)} signals of the save file are not in the VCD, e.g. {missing[:3]}")
    groups = [x[1:] for i, x in enumerate(lines) if x.startswith("-") and i > 0 and lines[i - 1].startswith("@")
              and int(lines[i - 1][1:], 16) & gtkw.F_GRP_BEGIN]
    streams = [g for g in groups if any(g.startswith(b.name + ": ") for b in gtkw.defs.BOUNDARIES)]
    if len(streams) != len(gtkw.defs.BOUNDARIES):
        fails.append(f"{len(streams)} stream groups, {len(gtkw.defs.BOUNDARIES)} boundaries")
    for u in ("u_cp", "u_setup"):
        if u not in groups:
            fails.append(f"no group for unit {u}")
    print(f"{vcd}: {len(names)} variables, {sum(changes.values())} value changes up to time {last}; "
          f"streams moving: {', '.join(moving)}")
    print(f"{save}: {len(sigs)} signals in {len(groups)} groups ({len(streams)} streams)")
    for f in fails:
        print("FAIL:", f)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
