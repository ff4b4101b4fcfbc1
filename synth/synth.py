#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pineda area flow: synthesise each unit with the pinned Yosys and tabulate its size.

    python3 synth/synth.py [--units cp,ia,...] [--jobs N] [--files LIST.f] [--out out/synth]

For every unit (a top module name) it runs one Yosys (npm @yowasp/yosys 0.55, through
synth/yosys.mjs) with this script (also written to out/synth/<unit>.ys):

    read_verilog -sv -DSYNTHESIS -defer <every RTL file of units.toml, in order>
    hierarchy -check -top <unit>        # elaborates only what <unit> uses (-defer)
    design -save rtl
    synth -flatten -top <unit>          # generic gates: $_AND_, $_MUX_, $_DFF_*, ...
    delete t:$scopeinfo                 # bookkeeping cells left by flatten, not logic
    tee -q -o <out>/<unit>.generic.json stat -json
    design -load rtl
    synth_ice40 -top <unit>             # LUT4 mapping (flattens; abc9; carry chains; BRAM)
    delete t:$scopeinfo
    tee -q -o <out>/<unit>.ice40.json stat -json

Why iCE40 for the LUT4 number: it is a real 4-input-LUT architecture that Yosys 0.55 maps
completely by itself (SB_LUT4 + SB_CARRY + SB_DFF* + SB_RAM40_4K), so the count is what a
small FPGA would actually use. Adders use the carry chain (SB_CARRY, counted separately);
multipliers go to LUTs (no -dsp); memories that fit the BRAM rules go to SB_RAM40_4K
(counted separately), the rest to flip-flops.

Output (--units): an aligned table on stdout, out/synth/units.json, per-unit logs
out/synth/<unit>.log. Without --units: the hierarchical whole-GPU flow (synth/hier.py,
docs/synthesis.md), out/synth/area.json.
Exits non-zero, naming the unit and its log, if any unit fails to synthesise, or if the
read raised a warning that means Yosys misread the source (see BAD_WARNINGS; the numbers
would be wrong): --allow-warnings reports such units anyway, marked in units.json.
"""
import argparse
import concurrent.futures
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hier  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WRAPPER = os.path.join(REPO, "synth", "yosys.mjs")
# front_end and pineda_top (which contains it) are not in the default set: `synth -flatten` of
# front_end stops in ABC with a Yosys 0.55 internal error ("Assert `is_wire()' failed",
# rtlil.cc, re-integrating ABC's netlist of ~300k gates); every unit synthesises on its own.
# `--units pineda_top` still runs it (docs/architecture.md, "Front-end area").
# The per-unit default set: the units marked `synth` in units.toml.
sys.path.insert(0, os.path.join(REPO, "scripts"))
import units as unit_manifest  # noqa: E402
DEFAULT_UNITS = unit_manifest.load(REPO).synth_units()


class FlowError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# shared with yosys_read.py

def parse_filelist(path, root):
    """Read a Verilator-style file list. Returns (files, incdirs, defines), paths relative to root.

    Accepted lines: a source path; '+incdir+DIR[+DIR...]'; '+define+NAME[=VAL][+...]';
    blank lines and comments ('#' or '//'). Relative paths are taken from root (the repo root,
    where make runs), falling back to the list's own directory.
    """
    files, incdirs, defines = [], [], []
    listdir = os.path.dirname(os.path.abspath(path))

    def resolve(p):
        for base in (root, listdir):
            cand = p if os.path.isabs(p) else os.path.join(base, p)
            if os.path.exists(cand):
                rel = os.path.relpath(os.path.abspath(cand), root)
                if rel.startswith(".."):
                    raise FlowError(f"{path}: {p} is outside {root}")
                return rel
        raise FlowError(f"{path}: {p} not found (relative to {root} or {listdir})")

    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("//", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            for tok in line.split():
                if tok.startswith("+incdir+"):
                    incdirs += [resolve(d) for d in tok[len("+incdir+"):].split("+") if d]
                elif tok.startswith("+define+"):
                    defines += [d for d in tok[len("+define+"):].split("+") if d]
                elif tok.startswith(("-", "+")):
                    print(f"synth: {path}:{lineno}: ignoring option {tok}", file=sys.stderr)
                else:
                    files.append(resolve(tok))
    if not files:
        raise FlowError(f"{path}: no source files listed")
    return files, incdirs, defines


def source_list(root, files_arg):
    """(files, incdirs, defines): the file list `files_arg` if given, else units.toml's RTL files."""
    if files_arg:
        return parse_filelist(os.path.join(root, files_arg), root)
    return unit_manifest.load(root).rtl_files(), [], []


def read_cmd(files, incdirs, defines, defer=False):
    args = ["read_verilog", "-sv", "-DSYNTHESIS"] + (["-defer"] if defer else [])
    args += [f"-I{d}" for d in incdirs] + [f"-D{d}" for d in defines] + files
    return " ".join(args)


def check_node():
    if shutil.which("node") is None:
        raise FlowError("node not found: run 'make deps'")
    if not os.path.isdir(os.path.join(REPO, "node_modules", "@yowasp", "yosys")):
        raise FlowError("node_modules/@yowasp/yosys missing: run 'make deps' (or 'npm ci')")


def run_yosys(root, script_rel, mounts, outdir_rel, log_path, extra=(), timeout=None):
    """Run one Yosys script (a path relative to root) with cwd=root; log stdout+stderr.
    outdir_rel: one output directory or a list; extra: more Yosys options; timeout: seconds
    after which the process is killed (exit code 124, the line "TIMEOUT" at the end of the log).

    Returns (exit code, seconds)."""
    cmd = ["node", WRAPPER]
    for m in mounts + [script_rel]:
        cmd += ["--mount", m]
    for o in [outdir_rel] if isinstance(outdir_rel, str) else outdir_rel:
        cmd += ["--out", o]
    cmd += list(extra) + ["-s", script_rel]
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        log.write("# " + " ".join(cmd) + "\n")
        log.flush()
        proc = subprocess.Popen(cmd, cwd=root, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            rc = 124
            log.write(f"\nTIMEOUT: killed after {timeout} s (--module-timeout)\n")
    return rc, time.monotonic() - t0


# Frontend warnings that mean Yosys read something other than what the source says (and
# Verilator reads): e.g. a member of an array of structs, `p.edges[1].e`, which Yosys 0.55
# turns into an implicit 1-bit wire (YosysHQ/yosys#2677). Numbers from such a read are wrong.
BAD_WARNINGS = [
    re.compile(r"is implicitly declared"),
    re.compile(r"out of bounds", re.I),
]


def bad_warnings(log_path):
    out = []
    with open(log_path, errors="replace") as f:
        for line in f:
            if "Warning:" in line and any(p.search(line) for p in BAD_WARNINGS):
                out.append(line.strip())
    return list(dict.fromkeys(out))


def log_errors(log_path, limit=8):
    """The ERROR lines (or the last lines) of a Yosys log, for the failure message."""
    try:
        lines = open(log_path, errors="replace").read().splitlines()
    except OSError:
        return []
    errs = [l for l in lines if "ERROR" in l or "Error" in l]
    return (errs or lines[-limit:])[:limit]


# ---------------------------------------------------------------------------------------------
# area flow

FF_RE = re.compile(r"^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE|ALDFF|ALDFFE|DFFSR|DFFSRE|DLATCH|DLATCHSR|SR)_")
ICE_FF_RE = re.compile(r"^SB_DFF")


def load_stat(path, unit):
    with open(path) as f:
        data = json.load(f)
    mods = data.get("modules", {})
    mod = mods.get("\\" + unit) or mods.get(unit)
    if mod is None:
        if len(mods) != 1:
            raise FlowError(f"{path}: module {unit} not in stat output ({list(mods)})")
        mod = next(iter(mods.values()))
    cells = {k: int(v) for k, v in mod.get("num_cells_by_type", {}).items()}
    return int(mod.get("num_cells", sum(cells.values()))), cells


def split_unit(unit):
    """'fine_raster@CarrySave=0' -> ('fine_raster', [('CarrySave', '0')]): a top module with
    parameter overrides (given to `hierarchy -chparam`); the whole string names the results."""
    top, _, rest = unit.partition("@")
    params = [tuple(p.split("=", 1)) for p in rest.split("@") if p] if rest else []
    for p in params:
        if len(p) != 2 or not p[0]:
            raise FlowError(f"bad unit {unit!r}: expected top@Param=value[@Param=value...]")
    return top, params


def synth_unit(unit, root, files, incdirs, defines, outdir_rel, allow_warnings=False):
    top, params = split_unit(unit)
    chparam = "".join(f" -chparam {k} {v}" for k, v in params)
    outdir = os.path.join(root, outdir_rel)
    script_rel = os.path.join(outdir_rel, f"{unit}.ys")
    gen_json = os.path.join(outdir_rel, f"{unit}.generic.json")
    ice_json = os.path.join(outdir_rel, f"{unit}.ice40.json")
    for p in (gen_json, ice_json):
        if os.path.exists(os.path.join(root, p)):
            os.remove(os.path.join(root, p))
    script = "\n".join([
        read_cmd(files, incdirs, defines, defer=True),
        f"hierarchy -check -top {top}{chparam}",
        "design -save rtl",
        f"synth -flatten -top {top}",
        "delete t:$scopeinfo",
        f"tee -q -o {gen_json} stat -json",
        "design -load rtl",
        f"synth_ice40 -top {top}",
        "delete t:$scopeinfo",
        f"tee -q -o {ice_json} stat -json",
        "",
    ])
    with open(os.path.join(root, script_rel), "w") as f:
        f.write(script)
    log_path = os.path.join(outdir, f"{unit}.log")
    rc, secs = run_yosys(root, script_rel, files + incdirs, outdir_rel, log_path)
    if rc != 0 or not os.path.exists(os.path.join(root, ice_json)):
        return {"unit": unit, "ok": False, "seconds": secs, "log": log_path,
                "errors": log_errors(log_path)}
    suspect = bad_warnings(log_path)
    if suspect and not allow_warnings:
        return {"unit": unit, "ok": False, "seconds": secs, "log": log_path,
                "errors": ["Yosys misread the source (numbers would be wrong; --allow-warnings "
                           "reports them anyway):"] + suspect[:6] + (["..."] if len(suspect) > 6 else [])}
    g_total, g_cells = load_stat(os.path.join(root, gen_json), top)
    i_total, i_cells = load_stat(os.path.join(root, ice_json), top)

    def count(cells, pred):
        return sum(n for t, n in cells.items() if pred(t))

    return {
        "unit": unit, "ok": True, "seconds": round(secs, 1), "log": log_path,
        "suspect_warnings": suspect,
        "generic": {
            "cells": g_total,
            "ffs": count(g_cells, lambda t: FF_RE.match(t)),
            "logic_cells": g_total - count(g_cells, lambda t: FF_RE.match(t)),
            "mem_cells": count(g_cells, lambda t: t.startswith("$mem")),
            "cells_by_type": dict(sorted(g_cells.items())),
        },
        "ice40": {
            "cells": i_total,
            "lut4": i_cells.get("SB_LUT4", 0),
            "carry": i_cells.get("SB_CARRY", 0),
            "ffs": count(i_cells, lambda t: ICE_FF_RE.match(t)),
            "bram": i_cells.get("SB_RAM40_4K", 0),
            "dsp": i_cells.get("SB_MAC16", 0),
            "cells_by_type": dict(sorted(i_cells.items())),
        },
    }


def table(results):
    cols = [("unit", lambda r: r["unit"]),
            ("gen.cells", lambda r: r["generic"]["cells"]),
            ("gen.FF", lambda r: r["generic"]["ffs"]),
            ("LUT4", lambda r: r["ice40"]["lut4"]),
            ("carry", lambda r: r["ice40"]["carry"]),
            ("ice.FF", lambda r: r["ice40"]["ffs"]),
            ("BRAM", lambda r: r["ice40"]["bram"]),
            ("time s", lambda r: f'{r["seconds"]:.1f}')]
    rows = [[str(f(r)) for _, f in cols] for r in results]
    heads = [h for h, _ in cols]
    widths = [max(len(x) for x in [h] + [row[i] for row in rows]) for i, h in enumerate(heads)]

    def fmt(row):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))

    lines = [fmt(heads), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# hierarchical whole-GPU flow (the default; synth/hier.py)

TOOL = "yosys 0.55 (npm @yowasp/yosys, see package-lock.json)"
TOP = "pineda_top"
RASTS = (1, 2, 4)


def tool_version(root):
    try:
        with open(os.path.join(root, "package-lock.json")) as f:
            lock = json.load(f)
        return "yowasp-yosys " + lock["packages"]["node_modules/@yowasp/yosys"]["version"]
    except (OSError, ValueError, KeyError):
        return TOOL


def top_configs(top_arg, rasts):
    """The designs one hierarchical run elaborates: pineda_top once per NumRast (labels
    'NumRast=N'), or any other top module (`--top tex`, `--top om_blend@Lanes=4`) once with its
    default parameters or the given overrides (label 'default' or 'Lanes=4').
    -> (top module name, [(label, Yosys commands, RTLIL file name)])"""
    top, params = split_unit(top_arg)
    if top == TOP and not params:
        return top, [(f"NumRast={n}", [f"chparam -set NumRast {n} {TOP}", f"hierarchy -check -top {TOP}"],
                      f"rast{n}.il") for n in rasts]
    chparam = "".join(f" -chparam {k} {v}" for k, v in params)
    label = ",".join(f"{k}={v}" for k, v in params) or "default"
    fname = re.sub(r"[^A-Za-z0-9_.=-]", "_", top_arg) + ".il"
    return top, [(label, [f"hierarchy -check -top {top}{chparam}"], fname)]


def elaborate(root, files, incdirs, defines, outdir_rel, configs, tool):
    """Elaborated RTLIL of each configuration, cached on the source text.

    configs: [(label, [Yosys commands ending in hierarchy -check -top ...], file name)], from
    top_configs(). -> ({label: text}, suspect warnings, cached, seconds)"""
    script = [read_cmd(files, incdirs, defines), "design -save read"]
    for _, cmds, fname in configs:
        script += ["design -load read"] + cmds + [f"write_rtlil {{dir}}/{fname}"]
    script = "\n".join(script) + "\n"
    h = hashlib.sha256()
    for p in sorted(set(files + [os.path.join(d, x) for d in incdirs
                                 for x in sorted(os.listdir(os.path.join(root, d)))
                                 if os.path.isfile(os.path.join(root, d, x))])):
        h.update(p.encode() + b"\0")
        with open(os.path.join(root, p), "rb") as f:
            h.update(f.read())
    h.update((tool + hier.FLOW_VERSION + script).encode())
    key = h.hexdigest()[:24]
    cdir_rel = os.path.join(outdir_rel, "cache", "elab-" + key)
    cdir = os.path.join(root, cdir_rel)
    paths = {label: os.path.join(cdir, fname) for label, _, fname in configs}
    t0 = time.monotonic()
    cached = all(os.path.exists(p) for p in paths.values())
    if not cached:
        os.makedirs(cdir, exist_ok=True)
        script_rel = os.path.join(cdir_rel, "elab.ys")
        with open(os.path.join(root, script_rel), "w") as f:
            f.write(script.replace("{dir}", cdir_rel))
        log = os.path.join(cdir, "elab.log")
        rc, _ = run_yosys(root, script_rel, files + incdirs, cdir_rel, log)
        if rc != 0 or not all(os.path.exists(p) for p in paths.values()):
            for p in paths.values():
                if os.path.exists(p):
                    os.remove(p)
            raise FlowError(f"elaboration failed, see {log}: " + "; ".join(log_errors(log, 4)))
        suspect = bad_warnings(log)
        if suspect:
            with open(os.path.join(cdir, "suspect.txt"), "w") as f:
                f.write("\n".join(suspect) + "\n")
    suspect = []
    if os.path.exists(os.path.join(cdir, "suspect.txt")):
        suspect = open(os.path.join(cdir, "suspect.txt")).read().splitlines()
    out = {}
    for n, p in paths.items():
        with open(p) as f:
            out[n] = f.read()
    return out, suspect, cached, time.monotonic() - t0


def fmt_table(heads, rows, rule_before=()):
    widths = [max(len(str(x)) for x in [h] + [r[i] for r in rows]) for i, h in enumerate(heads)]

    def fmt(row):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths)))

    lines = [fmt(heads), fmt(["-" * w for w in widths])]
    for i, r in enumerate(rows):
        if i in rule_before:
            lines.append(fmt(["-" * w for w in widths]))
        lines.append(fmt(r))
    return "\n".join(lines)


# rough Yosys seconds of the largest modules on this 2-core machine, to order the queue only
SECONDS_HINT = {"pixel_writer": 600, "fine_raster": 900, "pa": 1350, "vertex_fetch": 1800}


def expected_seconds(batch):
    """A guess of a batch's Yosys time, to order one job's queue (no effect on results)."""
    return sum(SECONDS_HINT.get(j["module"], len(j["text"]) / 1000.0) for j in batch)


def run_hier(args, root, outdir_rel, jobs):
    tool = tool_version(root)
    files, incdirs, defines = source_list(root, args.files)
    rasts = tuple(int(x) for x in args.rast.split(","))
    top, configs = top_configs(args.top, rasts)
    os.makedirs(os.path.join(root, outdir_rel, "cache"), exist_ok=True)
    t0 = time.monotonic()
    texts, suspect, el_cached, el_secs = elaborate(root, files, incdirs, defines, outdir_rel, configs, tool)
    print(f"synth: elaborated {top} ({', '.join(label for label, _, _ in configs)}) in {el_secs:.1f} s"
          f"{' (cached)' if el_cached else ''}", flush=True)
    if suspect and not args.allow_warnings:
        raise FlowError("Yosys misread the source (numbers would be wrong; --allow-warnings reports "
                        "them anyway):\n    " + "\n    ".join(suspect[:6]))
    # The cache key of a module covers its own source, its children's ports and, of the packages,
    # only the items its source names (and what those name in turn): a contract edit
    # re-synthesises the modules that use what changed, not every module (hier.package_use_hash).
    # Include files, if any, count whole for every module.
    file_hash, file_text = {}, {}
    common = hashlib.sha256()
    pkg_re = re.compile(r"^\s*package\s+\w+", re.M)
    inc_files = sorted(os.path.join(d, x) for d in incdirs for x in os.listdir(os.path.join(root, d))
                       if os.path.isfile(os.path.join(root, d, x)))
    pkg_items = []
    for p in files + inc_files:
        with open(os.path.join(root, p), "rb") as f:
            data = f.read()
        file_hash[p] = hashlib.sha256(data).hexdigest()
        file_text[p] = data.decode(errors="replace")
        if p in inc_files:
            common.update(p.encode() + b"\0" + data)
        elif pkg_re.search(file_text[p]):
            items = hier.package_items(file_text[p])
            if items is None:  # not the generated layout: every module uses all of it
                common.update(p.encode() + b"\0" + data)
            else:
                pkg_items += items
    common.update(" ".join(defines).encode())
    common_base = common.hexdigest()
    use_hash = {}

    def common_for(src):
        if src not in use_hash:
            h = hashlib.sha256(common_base.encode())
            h.update(hier.package_use_hash(file_text.get(src, ""), pkg_items).encode())
            use_hash[src] = h.hexdigest()
        return use_hash[src]
    designs = {}
    jobs_by_key = {}
    for n, _, _ in configs:
        mods = hier.parse_rtlil(texts[n])
        tops = hier.tops_of(mods)
        if len(tops) != 1:
            raise FlowError(f"{n}: expected one top module, found {tops}")
        keys = {}
        for name in mods:
            text, _ = hier.job_text(mods, name)
            key = hier.job_key(name, text, mods, file_hash, common_for(hier.module_src(mods[name])), tool)
            keys[name] = key
            jobs_by_key.setdefault(key, {"key": key, "text": text, "module": hier.base_name(name)})
        designs[n] = {"mods": mods, "top": tops[0], "keys": keys}
    cache_rel = os.path.join(outdir_rel, "cache")
    results = {}
    todo = []
    skip = {m for m in re.split(r"[,\s]+", args.skip) if m}
    skipped = set()
    for j in sorted(jobs_by_key.values(), key=lambda j: len(j["text"])):
        r = hier.cached_result(j, root, cache_rel)
        if r is None and j["module"] in skip:
            skipped.add(j["module"])
        elif r is None:
            todo.append(j)
        else:
            results[j["key"]] = r
    print(f"synth: {len(jobs_by_key)} distinct modules, {len(results)} cached, {len(todo)} "
          + ("not synthesised (--cached-only)" if args.cached_only else f"to synthesise with {jobs} job(s)")
          + (f"; skipped (--skip, not cached): {', '.join(sorted(skipped))}" if skipped else ""),
          flush=True)
    # small modules share one Yosys process (start-up costs seconds); large ones run alone,
    # largest first so that parallel jobs end together
    batches, cur, size = [], [], 0
    for j in todo:
        if len(j["text"]) > args.batch_chars:
            batches.append([j])
            continue
        if cur and size + len(j["text"]) > args.batch_chars:
            batches.append(cur)
            cur, size = [], 0
        cur.append(j)
        size += len(j["text"])
    if cur:
        batches.append(cur)
    # in parallel the largest first, so that the jobs end together; one job: smallest first,
    # so that most rows are cached early if the run is stopped
    # in parallel the largest first, so that the jobs end together; one job: the batches of
    # small modules first, then the large modules by their expected time (SECONDS_HINT), so
    # that a stopped run leaves the most rows cached
    if jobs == 1:
        batches.sort(key=lambda b: (len(b) == 1, expected_seconds(b) if len(b) == 1 else
                                    sum(len(j["text"]) for j in b)))
    else:
        batches.sort(key=lambda b: -sum(len(j["text"]) for j in b))
    failed = []
    if args.cached_only:
        batches = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        run = functools.partial(run_yosys, timeout=args.module_timeout or None)
        futs = {ex.submit(hier.synth_batch, b, root, cache_rel, run, tool, f"batch{i}"): b
                for i, b in enumerate(batches)}
        for fut in concurrent.futures.as_completed(futs):
            b = futs[fut]
            try:
                rs = fut.result()
            except (hier.HierError, OSError, ValueError, KeyError) as e:
                rs = [{"ok": False, "seconds": 0, "log": str(e), "cached": False}] * len(b)
            for j, r in zip(b, rs):
                results[j["key"]] = r
                if not r["ok"]:
                    failed.append(j["module"])
                    print(f"synth: {j['module']} [{j['key']}]: FAILED after {r['seconds']} s, see {r['log']}",
                          flush=True)
                    for line in log_errors(r["log"]) if os.path.exists(r["log"]) else []:
                        print(f"    {line}", flush=True)
                elif not r["cached"]:
                    print(f"synth: {j['module']} [{j['key']}]: {r['seconds']:.1f} s, LUT4 {r['stat']['lut4']}, "
                          f"FF {r['stat']['ffs']}, BRAM {r['stat']['bram']}", flush=True)
    if failed:
        raise FlowError(f"{len(failed)} module(s) failed: {', '.join(sorted(set(failed)))}")
    report = assemble(root, cache_rel, designs, results, tool, args, top)
    wall = time.monotonic() - t0
    report["wall_seconds"] = round(wall, 1)
    report["jobs"] = jobs
    report["synthesised"] = sum(1 for r in results.values() if not r["cached"])
    report["cached"] = sum(1 for r in results.values() if r["cached"])
    report["elaboration_cached"] = el_cached
    report["suspect"] = bool(suspect)
    # an incomplete report (--cached-only) does not replace a complete area.json
    # another top (--top tex) writes area-<top>.json: area.json stays the whole GPU's (synth-check)
    stem = "area" if args.top == TOP else "area-" + os.path.splitext(configs[0][2])[0]
    area_json = os.path.join(root, outdir_rel, stem + (".partial.json" if report.get("incomplete") else ".json"))
    with open(area_json, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print()
    print(render(report))
    print()
    print(f"synth: wall time {wall:.1f} s with {jobs} job(s) ({report['synthesised']} modules "
          f"synthesised, {report['cached']} from out/synth/cache); wrote "
          f"{os.path.relpath(area_json, os.getcwd())}")
    return 0


MISSING = {"ok": False, "seconds": 0.0, "stat": {"lut4": 0, "carry": 0, "ffs": 0, "bram": 0, "dsp": 0,
                                                  "other": {}},
           "mem_bram": [], "ff_arrays": []}


def assemble(root, cache_rel, designs, results, tool, args, top_name=TOP):
    """designs: {config label: {mods, top, keys}} (one per NumRast for pineda_top)."""
    report = {"tool": tool, "flow": hier.FLOW_VERSION, "top": top_name, "script": hier.MODULE_SCRIPT,
              "configs": {}, "modules": {}}
    depth_memo = {}
    for n in designs:
        d = designs[n]
        mods, top, keys = d["mods"], d["top"], d["keys"]
        # --cached-only: a module not synthesised yet counts as empty, and every row and
        # total containing it is marked incomplete
        res = {name: results.get(keys[name]) or MISSING for name in mods}
        nets = {}

        def net(name):
            if name not in nets:
                nets[name] = ({"ports": {}, "cells": {}} if res[name] is MISSING else
                              hier.load_net(os.path.join(root, cache_rel, keys[name], "net.json")))
            return nets[name]

        def missing(names):
            return sorted({hier.base_name(m) for m in names if res[m] is MISSING})

        for name in mods:
            net(name)
        memo = {}
        rows = []
        incomplete = {}
        for row in hier.rows_for(mods, top):
            tot = {"lut4": 0, "carry": 0, "ffs": 0, "bram": 0, "bram_bits": 0, "seconds": 0.0}
            ffa = []
            depth = None
            for name, inst in row["instances"]:
                part = hier.glue_totals(res, name) if row.get("glue") else hier.subtree(mods, res, name, memo)
                for k in tot:
                    tot[k] += part[k]
                if row.get("glue"):
                    ffa += [dict(a, where=a["name"]) for a in res[name]["ff_arrays"]]
                else:
                    ffa += hier.ff_arrays_under(mods, res, name, inst)
                dk = (keys[name], bool(row.get("glue")))
                if args.depth:
                    if dk not in depth_memo:
                        flat = hier.flatten(mods, nets, name, descend=not row.get("glue"))
                        depth_memo[dk] = hier.logic_depth(flat)
                    dd = depth_memo[dk]
                    if depth is None or dd["levels"] > depth["levels"]:
                        depth = dict(dd, instance=inst)
            ffa.sort(key=lambda a: -a["bits"])
            # Yosys time: each distinct module once (that is what a cold run costs)
            distinct = set()
            for name, _ in row["instances"]:
                if row.get("glue"):
                    distinct.add(name)
                else:
                    hier.modules_under(mods, name, distinct)
            secs = sum(res[m]["seconds"] for m in distinct)
            if missing(distinct):
                incomplete[row["label"]] = missing(distinct)
            rows.append({"label": row["label"], "module": row["module"], "missing": missing(distinct),
                         "instances": len(row["instances"]), **tot,
                         "seconds": round(secs, 1),
                         "ff_arrays": ffa[:5], "depth": depth})
        total = hier.subtree(mods, res, top, memo)
        secs = sum(res[m]["seconds"] for m in hier.modules_under(mods, top))
        # the containers below the top (front_end, raster_array, pixel_stage) as subtotals
        subtotals = {}
        for t, inst in mods[top]["cells"]:
            if t in mods and hier.base_name(t) in hier.CONTAINERS:
                st = hier.subtree(mods, res, t, memo)
                subtotals[f"{hier.base_name(top)}/{hier.base_name(t)}"] = dict(
                    st, seconds=round(sum(res[m]["seconds"] for m in hier.modules_under(mods, t)), 1))
        cfg = {"total": dict(total, seconds=round(secs, 1)), "subtotals": subtotals, "rows": rows}
        if incomplete:
            cfg["missing"] = missing(hier.modules_under(mods, top))
            report["incomplete"] = True
        if args.depth:
            cfg["depth"] = hier.logic_depth(hier.flatten(mods, nets, top))
        report["configs"][n] = cfg
        for name in mods:
            r = res[name]
            report["modules"].setdefault(keys[name], {"module": hier.base_name(name),
                                                      "seconds": r["seconds"], **r["stat"]})
    return report


def render(report):
    cfgs = report["configs"]
    first = next(iter(cfgs.values()))
    heads = [f"unit ({next(iter(cfgs))} rows)", "inst", "LUT4", "carry", "FF", "BRAM", "BRAM kbit",
             "top FF array", "depth", "time s"]
    rows = []

    def line(label, inst, t, ffa, depth, secs):
        big = ffa[0] if ffa else None
        return [label, inst, t["lut4"], t["carry"], t["ffs"], t["bram"],
                f'{t["bram_bits"] / 1024:.1f}', f'{big["bits"]} {big["kind"]}' if big else "-",
                depth["levels"] if depth else "-", f"{secs:.0f}"]

    for r in first["rows"]:
        rows.append(line(r["label"] + (" *" if r.get("missing") else ""), r["instances"], r,
                         r["ff_arrays"], r["depth"], r["seconds"]))
    rule = [len(rows)]
    # subtotals: the front end and the pixel stage once (they do not change), the raster array per NumRast
    for label, t in first.get("subtotals", {}).items():
        if not label.endswith("raster_array"):
            rows.append(line(f"{label} (total)", "", t, [], None, t["seconds"]))
    for name, cfg in cfgs.items():
        for label, t in cfg.get("subtotals", {}).items():
            if label.endswith("raster_array"):
                rows.append(line(f"{label} {name} (total)", "", t, [], None, t["seconds"]))
    rule.append(len(rows))
    for name, cfg in cfgs.items():
        t = cfg["total"]
        rows.append(line(f"{report['top']} {name} total" + (" *" if cfg.get("missing") else ""), "", t, [],
                         cfg.get("depth"), t["seconds"]))
    out = fmt_table(heads, rows, rule)
    notes = []
    gone = sorted({m for cfg in cfgs.values() for m in cfg.get("missing", [])})
    if gone:
        notes.append("* INCOMPLETE (--cached-only): not synthesised yet, counted as 0: " + ", ".join(gone))
    for name, cfg in cfgs.items():
        dep = cfg.get("depth")
        if dep:
            notes.append(f"{name}: deepest path {dep['levels']} LUT4 levels (+{dep['carries']} carry cells): "
                         f"{dep['start']} -> {dep['end']}")
        break
    deepest = max((r for r in first["rows"] if r["depth"]), key=lambda r: r["depth"]["levels"], default=None)
    if deepest:
        dep = deepest["depth"]
        notes.append(f"deepest unit: {deepest['label']} {dep['levels']} levels (+{dep['carries']} carry): "
                     f"{dep['start']} -> {dep['end']}")
    return out + ("\n\n" + "\n".join(notes) if notes else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", default=os.environ.get("UNITS", ""),
                    help="comma-separated top modules, each optionally with parameter overrides "
                         "top@Param=value (default: all of: " + ",".join(DEFAULT_UNITS) + ")")
    ap.add_argument("--jobs", "-j", type=int, default=int(os.environ.get("SYNTH_JOBS", "0") or 0),
                    help="units synthesised in parallel (default: number of cores)")
    ap.add_argument("--root", default=REPO, help="directory the file list's paths are relative to (default: the repo)")
    ap.add_argument("--files", default="", help="a Verilator-style file list, relative to --root, to read "
                    "instead of units.toml's RTL files")
    ap.add_argument("--out", default="out/synth", help="output directory, relative to --root (default: out/synth)")
    ap.add_argument("--allow-warnings", action="store_true",
                    help="report units whose read raised misread warnings instead of failing them")
    ap.add_argument("--top", default=TOP,
                    help="hierarchical flow: the top module, optionally with parameter overrides "
                         "top@Param=value (default: pineda_top, with NumRast from --rast); another "
                         "top (e.g. tex, interp) is synthesised the same way (children black-boxed, "
                         "each module once, same cache) and written to out/synth/area-<top>.json")
    ap.add_argument("--rast", default="1,2,4",
                    help="hierarchical flow: NumRast values of pineda_top to report (default: 1,2,4)")
    ap.add_argument("--batch-chars", type=int, default=400000,
                    help="hierarchical flow: modules whose elaborated text is smaller share Yosys "
                         "processes of about this much text (default: 400000)")
    ap.add_argument("--cached-only", action="store_true",
                    help="hierarchical flow: synthesise nothing; modules not in the cache count as "
                         "empty and their rows are marked incomplete")
    ap.add_argument("--skip", default=os.environ.get("SYNTH_SKIP", ""),
                    help="hierarchical flow: comma-separated module names (e.g. zs) not to synthesise "
                         "unless cached; they count as empty and their rows are marked incomplete")
    ap.add_argument("--module-timeout", type=float, default=float(os.environ.get("SYNTH_TIMEOUT", "0") or 0),
                    help="hierarchical flow: kill a Yosys process after this many seconds; its modules "
                         "fail (default: 0, no limit)")
    ap.add_argument("--no-depth", dest="depth", action="store_false",
                    help="hierarchical flow: skip the logic-depth analysis")
    args = ap.parse_args(argv)

    root = os.path.abspath(args.root)
    units = [u for u in re.split(r"[,\s]+", args.units) if u]
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 2)
    outdir_rel = os.path.relpath(os.path.abspath(os.path.join(root, args.out)), root)
    if outdir_rel.startswith(".."):
        print(f"synth: --out must be inside {root}", file=sys.stderr)
        return 2
    try:
        check_node()
        files, incdirs, defines = source_list(root, args.files)
    except FlowError as e:
        print(f"synth: {e}", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(root, outdir_rel), exist_ok=True)

    import yosys_read  # here: it imports this module
    array_decls = yosys_read.scan_sources(root, files)[3]
    if array_decls:
        print("synth: the RTL declares arrays of struct types, which Yosys 0.55 sizes wrong "
              "(no warning; every unit using them gets wrong numbers):", file=sys.stderr)
        for m in array_decls:
            print("    " + m.split(": Yosys")[0], file=sys.stderr)
        if not args.allow_warnings:
            print("synth: FAILED: fix those (see 'make lint-yosys'), or pass --allow-warnings "
                  "(make synth SYNTH_FLAGS=--allow-warnings) for numbers marked suspect", file=sys.stderr)
            return 1
    if not units:
        try:
            return run_hier(args, root, outdir_rel, jobs)
        except FlowError as e:
            print(f"synth: FAILED: {e}", file=sys.stderr)
            return 1
    jobs = max(1, min(jobs, len(units)))

    print(f"synth: {len(units)} unit(s), {jobs} in parallel, {len(files)} files from {args.files or 'units.toml'}; "
          f"logs in {outdir_rel}/<unit>.log", flush=True)
    # longest first (times of the last run in units.json; unknown units count as long, and
    # pineda_top, which contains everything, as longest), so the parallel run ends sooner
    last = {}
    try:
        with open(os.path.join(root, outdir_rel, "units.json")) as f:
            last = {u: r.get("seconds", 0) for u, r in json.load(f).get("units", {}).items()}
    except (OSError, ValueError, AttributeError):
        pass
    order = sorted(units, key=lambda u: -(1e9 if u == "pineda_top" else last.get(u, 1e6)))

    t0 = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(synth_unit, u, root, files, incdirs, defines, outdir_rel,
                          args.allow_warnings): u for u in order}
        for fut in concurrent.futures.as_completed(futs):
            u = futs[fut]
            try:
                r = fut.result()
            except (FlowError, OSError, ValueError) as e:
                r = {"unit": u, "ok": False, "seconds": 0.0, "log": "", "errors": [str(e)]}
            results[u] = r
            if r["ok"]:
                print(f"synth: {u}: ok in {r['seconds']:.1f} s (LUT4 {r['ice40']['lut4']}, "
                      f"generic cells {r['generic']['cells']})", flush=True)
            else:
                print(f"synth: {u}: FAILED after {r['seconds']:.1f} s, see {os.path.relpath(r['log'], os.getcwd()) if r['log'] else '-'}",
                      flush=True)
                for line in r["errors"]:
                    print(f"    {line}", flush=True)
    wall = time.monotonic() - t0
    ordered = [results[u] for u in units]
    good = [r for r in ordered if r["ok"]]
    failed = [r["unit"] for r in ordered if not r["ok"]]

    report = {
        "tool": "yosys 0.55 (npm @yowasp/yosys, see package-lock.json)",
        "flows": {
            "generic": "synth -flatten -top <unit>; delete t:$scopeinfo; stat -json",
            "ice40": "synth_ice40 -top <unit>; delete t:$scopeinfo; stat -json",
        },
        "files": files,
        "wall_seconds": round(wall, 1),
        "jobs": jobs,
        "units": {r["unit"]: dict({k: v for k, v in r.items() if k not in ("unit", "log")},
                                  date=time.strftime("%Y-%m-%dT%H:%M:%S")) for r in ordered},
        "failed": failed,
        "suspect": bool(array_decls) or any(r.get("suspect_warnings") for r in good),
        "struct_arrays": array_decls,
    }
    area_json = os.path.join(root, outdir_rel, "units.json")
    # a run of some units keeps the other units' last numbers (each unit entry has its date)
    prev = {}
    try:
        with open(area_json) as f:
            prev = json.load(f).get("units", {})
    except (OSError, ValueError, AttributeError):
        pass
    kept = {u: r for u, r in prev.items() if u not in report["units"] and isinstance(r, dict)}
    if kept and not failed:
        report["units"].update(kept)
        report["kept_from_earlier_runs"] = sorted(kept)
    # a failed run leaves area.json alone and writes its results aside
    partial = os.path.join(root, outdir_rel, "units.partial.json")
    if failed:
        area_json = partial
    elif os.path.exists(partial):
        os.remove(partial)
    with open(area_json, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")

    if good:
        print()
        print(table(good))
        print()
    print(f"synth: wall time {wall:.1f} s with {jobs} job(s); wrote {os.path.relpath(area_json, os.getcwd())}")
    if failed:
        print(f"synth: FAILED: {', '.join(failed)} did not synthesise (logs in {outdir_rel}/)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
