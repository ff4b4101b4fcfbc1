#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a GTKWave save file (.gtkw) for a waveform of pineda_top, grouping its signals so that the
pipeline is readable on opening:

  Streams  one group per boundary of contracts/defs.py BOUNDARIES (the tap ports of pineda_top:
           tap_<name>_valid_o, tap_<name>_ready_o, then the payload's fields), in pipeline order
  Units    one group per unit instance under pineda_top (and one level below, e.g. the front
           end's units): per stream port <p>_valid / <p>_ready / payload, then the unit's other ports

The signal names come from the waveform's own header (a VCD file, or VCD text on stdin: `fst2vcd
-f x.fst | sed '/enddefinitions/q'`), so the file names only signals that exist.

usage: scripts/gtkw.py HEADER.vcd|- --dump waves/<scene>.vcd -o waves/<scene>.gtkw
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "contracts"))
import defs  # noqa: E402

# GTKWave trace flags (savefile "@<hex>" lines).
F_HEX, F_BIN, F_BLANK, F_CLOSED, F_GRP_BEGIN, F_GRP_END = 0x22, 0x28, 0x200, 0x400000, 0x800000, 0x1000000


class Scope:
    def __init__(self, name, kind, parent=None):
        self.name, self.kind, self.parent = name, kind, parent
        self.children = []  # Scope, in file order
        self.vars = []      # (name, width, "[msb:lsb]" or "")

    def path(self):
        return self.name if self.parent is None else self.parent.path() + "." + self.name

    def child(self, name):
        for c in self.children:
            if c.name == name:
                return c
        return None


def parse_header(lines):
    """The scope tree of a VCD header (up to $enddefinitions)."""
    root = Scope("", "root")
    cur = root
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            s = Scope(t[2], t[1], cur if cur is not root else None)
            s._up = cur
            cur.children.append(s)
            cur = s
        elif t[0] == "$upscope":
            cur = cur._up
        elif t[0] == "$var":
            # $var <type> <width> <id> <name> [<range>] $end
            rng = t[5] if len(t) > 6 and t[5].startswith("[") else ""
            if int(t[2]) == 1:
                rng = ""  # GTKWave names a one-bit vector ([0:0]) like a scalar
            cur.vars.append((t[4], int(t[2]), rng))
        elif t[0] == "$enddefinitions":
            break
    return root


def leaves(scope):
    """Every variable under a scope (struct members included) as full gtkw names."""
    out = []
    for name, width, rng in scope.vars:
        out.append((scope.path() + "." + name + rng, width))
    for c in scope.children:
        if c.kind == "struct":
            out += leaves(c)
    return out


def signal(scope, name):
    """The gtkw name(s) of port `name` of `scope`: a variable, or a struct's members."""
    for v, width, rng in scope.vars:
        if v == name:
            return [(scope.path() + "." + v + rng, width)]
    c = scope.child(name)
    if c is not None and c.kind == "struct":
        return leaves(c)
    return []


class Save:
    def __init__(self):
        self.lines = []

    def begin(self, title, closed):
        self.lines += [f"@{F_GRP_BEGIN | F_BLANK | (F_CLOSED if closed else 0):x}", f"-{title}"]

    def end(self, title):
        self.lines += [f"@{F_GRP_END | F_BLANK:x}", f"-{title}"]

    def sigs(self, sigs):
        for name, width in sigs:
            self.lines += [f"@{F_BIN if width == 1 else F_HEX:x}", name]


def stream_ports(scope):
    """(prefix, valid, ready, payload names) of every valid/ready port pair of a unit scope."""
    names = [v[0] for v in scope.vars] + [c.name for c in scope.children if c.kind == "struct"]
    out = []
    for n in names:
        m = re.match(r"^(.*)_valid_([io])$", n)
        if not m:
            continue
        p, d = m.group(1), m.group(2)
        ready = f"{p}_ready_{'o' if d == 'i' else 'i'}"
        payload = [x for x in names if x.startswith(p + "_") and x not in (n, ready)
                   and re.search(r"_(i|o)$", x) and not re.search(r"_(valid|ready)_[io]$", x)]
        out.append((p, n, ready, payload))
    return out


def unit_scopes(top):
    """Unit instances under pineda_top and one level below (checkers and unnamed blocks left out)."""
    out = []

    def keep(s):
        return s.kind == "module" and "chk" not in s.name and not s.name.startswith(("unnamedblk", "g_")) and stream_ports(s)

    for c in top.children:
        if keep(c):
            out.append(c)
            out += [g for g in c.children if keep(g)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("header", help="VCD file (only its header is read), or - for stdin")
    ap.add_argument("--dump", required=True, help="the waveform file GTKWave opens")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    fh = sys.stdin if a.header == "-" else open(a.header)
    root = parse_header(fh)
    top = root.child("TOP")
    if top is None:
        sys.exit("gtkw.py: no TOP scope in the waveform header")
    pt = top.child("pineda_top")
    save = Save()
    save.lines += ["[*] Generated by scripts/gtkw.py from contracts/defs.py BOUNDARIES and the waveform's signals.",
                   f'[dumpfile] "{os.path.abspath(a.dump)}"', f'[savefile] "{os.path.abspath(a.out)}"',
                   "[timestart] 0", "[size] 1600 1000", "[pos] -1 -1", "[sst_width] 260", "[signals_width] 360",
                   "[sst_expanded] 1"]
    clocks = signal(top, "clk_i") + signal(top, "rst_ni")
    save.sigs(clocks)
    # Streams, in pipeline order: each boundary's valid, ready, payload fields.
    save.begin("Streams (contracts/defs.py BOUNDARIES)", False)
    nstreams = 0
    for b in defs.BOUNDARIES:
        v, r, p = (signal(top, f"tap_{b.name}_valid_o"), signal(top, f"tap_{b.name}_ready_o"),
                   signal(top, f"tap_{b.name}_o"))
        if not v:
            continue
        nstreams += 1
        title = f"{b.name}: {b.between}"
        save.begin(title, True)
        save.sigs(v + r)
        if p:
            save.begin(f"{b.name} payload ({b.pkt})", True)
            save.sigs(p)
            save.end(f"{b.name} payload ({b.pkt})")
        save.end(title)
    save.end("Streams (contracts/defs.py BOUNDARIES)")
    # Units: per stream port valid / ready / payload, then the other ports.
    nunits = 0
    if pt is not None:
        save.begin("Units (pineda_top instances)", True)
        for u in unit_scopes(pt):
            nunits += 1
            rel = u.path()[len(pt.path()) + 1:]
            save.begin(rel, True)
            used = set()
            for p, valid, ready, payload in stream_ports(u):
                title = f"{rel}: {p}"
                save.begin(title, True)
                save.sigs(signal(u, valid) + signal(u, ready))
                for x in payload:
                    save.sigs(signal(u, x))
                save.end(title)
                used.update([valid, ready] + payload)
            others = [v for v in u.vars if v[0] not in used and re.search(r"_(i|o|ni)$", v[0])]
            if others:
                save.begin(f"{rel}: other ports", True)
                save.sigs([(u.path() + "." + n + rng, w) for n, w, rng in others])
                save.end(f"{rel}: other ports")
            save.end(rel)
        save.end("Units (pineda_top instances)")
    with open(a.out, "w") as f:
        f.write("\n".join(save.lines) + "\n")
    print(f"gtkw.py: {a.out}: {nstreams} streams, {nunits} units")


if __name__ == "__main__":
    main()
