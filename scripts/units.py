#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads units.toml, the one list of Pineda's RTL units, for every tool that needs it.

usage: scripts/units.py make [--out FILE]   the make variables of mk/tb.mk and mk/rtl.mk
       scripts/units.py files               the RTL file list (package first), one per line
       scripts/units.py check               every rtl/ and tb/ source in one entry, every named file there

As a module (tests/run_all.py, synth/*.py): load(root) -> Manifest.
"""
import argparse
import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "rtl/common/pineda_pkg.sv"
LINKS = ("scenes", "top_harness")


class ManifestError(Exception):
    pass


class Test:
    def __init__(self, unit, t):
        self.unit = unit
        self.name = t.get("name", f"rtl_{unit.name}")
        self.src = t.get("src", f"tb/{unit.dir}/test_{unit.name}.cpp")
        self.vl = list(t.get("vl", [unit.name]))
        self.include = list(t.get("include", []))
        self.links = list(t.get("links", []))
        self.bench = bool(t.get("bench", False))
        for k in t:
            if k not in ("name", "src", "vl", "include", "links", "bench"):
                raise ManifestError(f"unit {unit.name}: test {self.name}: unknown key {k!r}")
        for lib in self.links:
            if lib not in LINKS:
                raise ManifestError(f"unit {unit.name}: test {self.name}: unknown link {lib!r} (one of {LINKS})")

    @property
    def binary(self):
        """The executable, relative to the build folder."""
        return self.name if self.bench else os.path.join("tests", self.name)


class Unit:
    def __init__(self, u):
        for k in ("name", "dir"):
            if k not in u:
                raise ManifestError(f"a [[unit]] without {k!r}: {u}")
        self.name = u["name"]
        self.dir = u["dir"]
        self.rtl = [f"rtl/{self.dir}/{f}" for f in u.get("rtl", [])]
        self.lint = list(u.get("lint", [self.name] if self.rtl else []))
        self.model = u.get("model")
        self.no_model = u.get("no_model")  # why a unit with RTL has no model twin
        synth = u.get("synth", False)
        self.synth = [self.name] if synth is True else list(synth or [])
        self.tests = [Test(self, t) for t in u.get("tests", [])]
        for k in u:
            if k not in ("name", "dir", "rtl", "lint", "model", "no_model", "synth", "tests"):
                raise ManifestError(f"unit {self.name}: unknown key {k!r}")

    def modules(self):
        return [os.path.splitext(os.path.basename(f))[0] for f in self.rtl]


class VlModel:
    """A Verilated build: build/vl/<name>/<prefix>__ALL.a."""
    def __init__(self, name, top, params=None, prefix=None):
        self.name = name
        self.top = top
        self.params = dict(params or {})
        self.prefix = prefix or f"V{name}"


class Manifest:
    def __init__(self, root, data):
        self.root = root
        self.units = [Unit(u) for u in data.get("unit", [])]
        self.models = {}
        for m in data.get("model", []):
            self.models[m["name"]] = VlModel(m["name"], m["top"], m.get("params"), m.get("prefix"))
        for u in self.units:
            for mod in u.modules():
                self.models.setdefault(mod, VlModel(mod, mod))
        names = [u.name for u in self.units]
        if len(set(names)) != len(names):
            raise ManifestError("a unit name stands twice")

    def rtl_files(self):
        """Every RTL source, the package first, then each unit's files in manifest order."""
        return [PACKAGE] + [f for u in self.units for f in u.rtl]

    def tests(self, bench=False):
        return [t for u in self.units for t in u.tests if t.bench == bench]

    def lint_tops(self):
        return [m for u in self.units for m in u.lint]

    def synth_units(self):
        return [m for u in self.units for m in u.synth]

    def unit_of_path(self, path):
        """The units a changed path belongs to: its RTL file, its harness, or its model/tb folder."""
        parts = path.split("/")
        hit = []
        for u in self.units:
            srcs = {t.src for t in u.tests}
            if path in u.rtl or path in srcs:
                hit.append(u)
            elif len(parts) >= 3 and parts[0] in ("cpp_model", "tb") and parts[1] == u.dir:
                hit.append(u)
            elif u.model and path.startswith(f"cpp_model/{u.model}."):
                hit.append(u)
        return hit

    def used_models(self):
        """The Verilated builds the tests and the harness need, in first-use order."""
        out = []
        for t in self.tests() + self.tests(bench=True):
            for m in t.vl:
                if m not in out:
                    out.append(m)
        for m in ("pineda_top", "pineda_top_r2", "pineda_top_r4"):
            if m not in out:
                out.append(m)
        return out


def load(root=ROOT):
    path = os.path.join(root, "units.toml")
    with open(path, "rb") as f:
        return Manifest(root, tomllib.load(f))


def make_vars(man):
    """The make fragment build/units.mk: lists and per-model / per-test variables."""
    out = ["# Generated from units.toml by scripts/units.py make: do not edit.",
           "RTL_FILES := " + " ".join(man.rtl_files()),
           "RTL_LINT_TOPS := " + " ".join(man.lint_tops())]
    models = man.used_models()
    for m in models:
        if m not in man.models:
            raise ManifestError(f"Verilated model {m!r} is neither a module of a unit nor a [[model]]")
    out.append("VL_MODELS := " + " ".join(models))
    for m in models:
        vm = man.models[m]
        out.append(f"VL_TOP_{m} := {vm.top}")
        out.append(f"VL_PREFIX_{m} := {vm.prefix}")
        out.append(f"VL_PARAMS_{m} := " + " ".join(f"-G{k}={v}" for k, v in vm.params.items()))
    for t in man.tests() + man.tests(bench=True):
        out.append(f"UNIT_TEST_SRC_{t.name} := {t.src}")
        out.append(f"UNIT_TEST_BIN_{t.name} := {t.binary}")
        out.append(f"UNIT_TEST_VL_{t.name} := " + " ".join(t.vl))
        out.append(f"UNIT_TEST_INC_{t.name} := " + " ".join(f"-I{d}" for d in [os.path.dirname(t.src)] + t.include))
        out.append(f"UNIT_TEST_LINKS_{t.name} := " + " ".join(t.links))
    out.append("UNIT_TESTS := " + " ".join(t.name for t in man.tests()))
    out.append("UNIT_BENCHES := " + " ".join(t.name for t in man.tests(bench=True)))
    return "\n".join(out) + "\n"


def check(man):
    """Problems: files on disk in no entry, entries naming missing files. Returns a list of lines."""
    root = man.root
    errs = []
    listed = set(man.rtl_files())
    for d in sorted(os.listdir(os.path.join(root, "rtl"))):
        full = os.path.join(root, "rtl", d)
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            p = f"rtl/{d}/{f}"
            # Simulation-only checkers (Verilator reads them through the top's bind file).
            if f.endswith(".sv") and not f.endswith(("_bind.sv", "_chk.sv")) and p not in listed:
                errs.append(f"{p}: in no unit of units.toml (add it to its unit's rtl list)")
    for p in man.rtl_files():
        if not os.path.exists(os.path.join(root, p)):
            errs.append(f"units.toml names {p}, which does not exist")
    srcs = {t.src for t in man.tests() + man.tests(bench=True)}
    for d in sorted(os.listdir(os.path.join(root, "tb"))):
        full = os.path.join(root, "tb", d)
        for f in sorted(os.listdir(full)) if os.path.isdir(full) else []:
            p = f"tb/{d}/{f}"
            if f.startswith(("test_", "bench_")) and f.endswith(".cpp") and p not in srcs:
                errs.append(f"{p}: a harness of no unit in units.toml")
    for p in sorted(srcs):
        if not os.path.exists(os.path.join(root, p)):
            errs.append(f"units.toml names harness {p}, which does not exist")
    modules = {m for u in man.units for m in u.modules()}
    for u in man.units:
        if u.model and not os.path.exists(os.path.join(root, "cpp_model", u.model + ".h")):
            errs.append(f"unit {u.name}: its model cpp_model/{u.model}.h does not exist")
        # Twins in the same rooms: rtl/<dir>/<name>.sv's model is cpp_model/<dir>/<name>.h (a
        # folder of primitives, a unit named like its folder, names one model of that folder).
        if u.model:
            mdir, mname = os.path.split(u.model)
            if mdir != u.dir or (u.name != u.dir and mname != u.name):
                errs.append(f"unit {u.name}: its model twin should be cpp_model/{u.dir}/{u.name}.h, not "
                            f"cpp_model/{u.model}.h")
        elif u.rtl and not u.no_model:
            errs.append(f"unit {u.name}: no model twin (say why with no_model = \"...\")")
        for m in u.lint + u.synth:
            if m not in modules:
                errs.append(f"unit {u.name}: {m} is not a module of any unit's rtl list")
    for t in man.tests() + man.tests(bench=True):
        for m in t.vl:
            if m not in man.models:
                errs.append(f"test {t.name}: Verilated model {m} is neither a module nor a [[model]]")
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["make", "files", "check"])
    ap.add_argument("--out", help="write here instead of stdout")
    args = ap.parse_args()
    try:
        man = load()
        if args.what == "check":
            errs = check(man)
            for e in errs:
                print(f"units: {e}", file=sys.stderr)
            if not errs:
                print(f"units: {len(man.units)} units, {len(man.rtl_files())} RTL files, "
                      f"{len(man.tests())} harnesses: every rtl/ and tb/ source is in units.toml")
            return 1 if errs else 0
        text = make_vars(man) if args.what == "make" else "\n".join(man.rtl_files()) + "\n"
    except (ManifestError, tomllib.TOMLDecodeError, KeyError) as e:
        print(f"units.toml: {e}", file=sys.stderr)
        return 1
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
