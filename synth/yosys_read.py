#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Quick Yosys read check of the RTL (the Yosys half of `make lint`); no synthesis.

    python3 synth/yosys_read.py [--files LIST.f] [--top pineda_top]

One Yosys run (npm @yowasp/yosys 0.55 through synth/yosys.mjs) with this script
(written to out/lint/yosys_read.ys, log in out/lint/yosys_read.log):

    read_verilog -sv -DSYNTHESIS <the RTL files of units.toml the top needs, in order>
    hierarchy -check -top <top> -chparam NumRast 2   # every unit elaborated as the GPU uses it
    proc
    check -assert                    # undriven/multiply-driven signals, comb loops
    tee -q -o out/lint/top_modules.txt ls
    (continued below)

and, in a second Yosys process at the same time (yosys_read_alone.ys), the modules the top does
not reach (e.g. a unit not yet wired into the top), from their roots, alone with default
parameters, reading only their files:
    read_verilog ...; design -save read
    design -load read; hierarchy -check -top <m>; proc; check -assert   # per root
Which files a check needs is a scan of the sources (the packages, the root's file, and the files
of every module its text instantiates, transitively); parsing every file cost each process ~30 s.
The first run goes on with:
    design -reset
    read_verilog -sv -DSYNTHESIS <packages> out/lint/width_probe.sv
    hierarchy -top pineda_width_probe
    write_json out/lint/width_probe.json

A module instantiated somewhere but still not elaborated under the top (a branch of a generate
the top's parameters do not take) is checked alone in a second run, yosys_read_rest.ys. Until
2026-11 every module was first checked with default parameters as well: `proc` of every big unit
twice, a quarter of the run. With no module <top>, every module is checked with default
parameters.

It fails on an error, on a `check` problem, and on frontend warnings that mean Yosys read
something other than what Verilator reads ("is implicitly declared", "out of bounds").

The width probe: Yosys 0.55 silently mis-sizes packed arrays of struct types
(`edge_t [2:0] edges;`, YosysHQ/yosys#2677): such a member counts as a few bits, so every
struct containing one has the wrong width and layout in Yosys while Verilator is right. The
probe declares one port of every struct typedef of every package, and the script compares
Yosys's port widths against widths computed here from the package text.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402  (shared helpers: file list, wrapper, logs)

# ---------------------------------------------------------------------------------------------
# expected struct widths, from the package source

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def sv_int(tok, params):
    """Evaluate a simple constant: sized/unsized literals, localparams, + - * ( )."""
    def lit(m):
        s = m.group(0).replace("_", "")
        if "'" in s:
            _, rest = s.split("'", 1)
            rest = rest.lstrip("sS")
            base = {"d": 10, "h": 16, "b": 2, "o": 8}[rest[0].lower()]
            return str(int(rest[1:], base))
        return s
    expr = re.sub(r"\d*'[sS]?[dDhHbBoO][0-9a-fA-F_]+|\b\d+\b", lit, tok)
    expr = re.sub(r"\b(\w+::)?([A-Za-z_]\w*)\b",
                  lambda m: str(params[m.group(2)]) if m.group(2) in params else m.group(0), expr)
    if not re.fullmatch(r"[\d\s+\-*()/]+", expr):
        raise ValueError(tok)
    return int(eval(expr.replace("/", "//"), {"__builtins__": {}}))  # digits and operators only


def dims_width(dims, params):
    w = 1
    for a, b in re.findall(r"\[([^:\]]+):([^\]]+)\]", dims):
        w *= abs(sv_int(a, params) - sv_int(b, params)) + 1
    return w


BASE_WIDTH = {"logic": 1, "bit": 1, "reg": 1, "wire": 1, "byte": 8, "shortint": 16,
              "int": 32, "integer": 32, "longint": 64}


def package_types(text):
    """{package: {typedef name: width or None}} for struct/enum/plain typedefs."""
    text = strip_comments(text)
    out = {}
    for pm in re.finditer(r"\bpackage\s+(\w+)\s*;(.*?)\bendpackage\b", text, re.S):
        pkg, body = pm.group(1), pm.group(2)
        params = {}
        for m in re.finditer(r"\b(?:localparam|parameter)\b[^;=]*?\b(\w+)\s*=\s*([^;]+);", body):
            try:
                params[m.group(1)] = sv_int(m.group(2), params)
            except (ValueError, SyntaxError, KeyError):
                pass
        types = {}

        def member_width(decl):
            m = re.fullmatch(r"\s*(\w+(?:::\w+)?)\s*(?:signed|unsigned)?\s*((?:\[[^\]]+\]\s*)*)\s*(\w+)\s*((?:\[[^\]]+\]\s*)*)",
                             decl)
            if not m or m.group(4).strip():
                return None
            t, dims = m.group(1).split("::")[-1], m.group(2)
            base = BASE_WIDTH.get(t, types.get(t))
            if base is None:
                return None
            return base * dims_width(dims, params)

        for tm in re.finditer(r"\btypedef\s+(struct\s+packed|union\s+packed|enum[^{]*)?\s*"
                              r"(?:\{(.*?)\}|([^;{]*?))\s*(\w+)\s*;", body, re.S):
            kind, inner, plain, name = tm.group(1) or "", tm.group(2), tm.group(3), tm.group(4)
            width = None
            try:
                if kind.startswith(("struct", "union")):
                    ws = []
                    for decl in inner.split(";"):
                        if not decl.strip():
                            continue
                        # "logic [3:0] a, b" declares two members of the same type
                        head, *names = [p.strip() for p in decl.split(",")]
                        w = member_width(head)
                        ws += [w] * (1 + len(names))
                    if ws and None not in ws:
                        width = sum(ws) if kind.startswith("struct") else max(ws)
                elif kind.startswith("enum"):
                    em = re.search(r"enum\s+(\w+)?\s*(?:signed|unsigned)?\s*((?:\[[^\]]+\]\s*)*)", kind)
                    base = BASE_WIDTH.get(em.group(1) or "int", types.get(em.group(1) or "int"))
                    width = base * dims_width(em.group(2), params) if base else None
                else:
                    width = member_width(plain + " _x")
            except (ValueError, SyntaxError, KeyError, ZeroDivisionError):
                width = None
            types[name] = width
        out[pkg] = types
    return out


def scan_sources(root, files):
    """(modules, package files, {pkg::type: width or None}, [array-of-struct messages])."""
    modules, pkg_files, expected = set(), [], {}
    texts = {}
    for f in files:
        text = texts[f] = open(os.path.join(root, f), errors="replace").read()
        modules |= set(re.findall(r"^\s*module\s+(?:automatic\s+|static\s+)?(\w+)", strip_comments(text), re.M))
        types = package_types(text)
        if types:
            pkg_files.append(f)
            for pkg, tys in types.items():
                for name, w in tys.items():
                    expected[f"{pkg}::{name}"] = w

    # arrays of struct types, packed or unpacked: Yosys 0.55 reads them wrong (see above)
    pkg_text = strip_comments("".join(texts[f] for f in pkg_files))
    struct_types = {t.split("::")[1] for t in expected}
    struct_types = {t for t in struct_types if re.search(
        r"\btypedef\s+(struct|union)\s+packed\b[^;]*?\{[^}]*\}\s*" + t + r"\s*;", pkg_text, re.S)}
    array_decls = []
    if struct_types:
        alt = "|".join(sorted(struct_types))
        packed = re.compile(r"\b(?:\w+::)?(" + alt + r")\s*(?:\[[^\]]*\]\s*)+(\w+)")
        unpacked = re.compile(r"\b(?:\w+::)?(" + alt + r")\s+(\w+)\s*\[")
        for f in files:
            for lineno, line in enumerate(texts[f].splitlines(), 1):
                code = line.split("//", 1)[0]
                for m in list(packed.finditer(code)) + list(unpacked.finditer(code)):
                    array_decls.append(
                        f"{f}:{lineno}: array of struct type {m.group(1)} ('{m.group(2)}'): Yosys 0.55 "
                        f"mis-sizes arrays of structs (YosysHQ/yosys#2677); use separate members/signals, "
                        f"or logic [N-1:0][W-1:0] with W a number or localparam (not $bits(pkg::T): a Yosys "
                        f"syntax error) and assign elements to a T variable")
    return modules, pkg_files, expected, array_decls


def instantiated_modules(root, files, modules):
    """Modules some other module's text instantiates (`name #(` or `name u_x (`; not `name_x (`)."""
    text = "\n".join(strip_comments(open(os.path.join(root, f), errors="replace").read()) for f in files)
    found = set()
    for m in modules:
        for hit in re.finditer(r"\b" + m + r"(?:\s*#\s*\(|\s+\w+\s*\()", text):
            before = text[max(0, hit.start() - 40):hit.start()]
            if not re.search(r"\bmodule\s+(?:automatic\s+|static\s+)?$", before):
                found.add(m)
                break
    return found


def files_needed(root, files, pkg_files, roots):
    """The files a check of `roots` must read, in file-list order: the packages, the files defining
    the roots, and (transitively) the files defining every module their text instantiates. Each
    Yosys process reads only these (parsing every file took ~30 s per process); a module the scan
    misses fails loudly (`hierarchy -check`: module not found)."""
    defines, texts = {}, {}
    for f in files:
        texts[f] = strip_comments(open(os.path.join(root, f), errors="replace").read())
        for m in re.findall(r"^\s*module\s+(?:automatic\s+|static\s+)?(\w+)", texts[f], re.M):
            defines[m] = f
    need, todo = set(pkg_files), [defines[m] for m in roots if m in defines]
    while todo:
        f = todo.pop()
        if f in need and f not in pkg_files:
            continue
        need.add(f)
        for m, g in defines.items():
            if g not in need and re.search(r"\b" + m + r"(?:\s*#\s*\(|\s+\w+\s*\()", texts[f]):
                todo.append(g)
    return [f for f in files if f in need]


def cached_run(root, script_rel, mounts, out_rel, log, outputs=()):
    """synth.run_yosys, skipped when the same script already ran clean on the same inputs: the key
    is a hash of the script, every mounted file's text and the Yosys package version, kept beside
    the log (<log>.key, written only after a clean run: exit 0, no bad warning). A re-run of
    `make lint` on an unchanged tree then costs nothing; any edit to a file a process reads runs it
    again, and a fresh clone always runs everything. LINT_CACHE=0 in the environment disables it."""
    h = hashlib.sha256()
    ver = os.path.join(root, "node_modules", "@yowasp", "yosys", "package.json")
    for f in [script_rel] + sorted(set(mounts)) + ([ver] if os.path.exists(ver) else []):
        path = os.path.join(root, f)
        h.update(f.encode() + b"\0")
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                h.update(fh.read())
    key = h.hexdigest()
    key_path = log + ".key"
    use = os.environ.get("LINT_CACHE", "1") != "0"
    if (use and os.path.exists(key_path) and os.path.exists(log)
            and all(os.path.exists(os.path.join(root, o)) for o in outputs)):
        with open(key_path) as fh:
            if fh.read().strip() == key:
                return 0, 0.0
    if os.path.exists(key_path):
        os.remove(key_path)
    rc, secs = synth.run_yosys(root, script_rel, mounts, out_rel, log)
    if rc == 0 and not synth.bad_warnings(log):
        with open(key_path, "w") as fh:
            fh.write(key + "\n")
    return rc, secs


def elaborated_base(name):
    """The source module of a name Yosys's `ls` prints: `m`, `$paramod\\m\\P=1`, `$paramod$<hash>\\m`."""
    if name.startswith("$paramod"):
        return name.split("\\")[1] if "\\" in name else name
    return name.lstrip("\\")


# ---------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=synth.REPO, help="directory the file list's paths are relative to")
    ap.add_argument("--files", default="", help="a file list relative to --root (default: units.toml's RTL files)")
    ap.add_argument("--top", default="pineda_top", help="top module for the elaborated check")
    ap.add_argument("--out", default="out/lint", help="output directory, relative to --root")
    ap.add_argument("--chparam", default="NumRast=2",
                    help="comma-separated NAME=VALUE parameters of the top for the elaborated check "
                         "(default NumRast=2: quad_merge and the setup distributor exist only then)")
    ap.add_argument("--blackbox", default="",
                    help="comma-separated modules read and parsed but kept as black boxes (no proc): "
                         "for a module whose processes Yosys's proc_dlatch takes too long on")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    out_rel = os.path.relpath(os.path.abspath(os.path.join(root, args.out)), root)
    try:
        synth.check_node()
        files, incdirs, defines = synth.source_list(root, args.files)
    except synth.FlowError as e:
        print(f"lint-yosys: {e}", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(root, out_rel), exist_ok=True)

    modules, pkg_files, expected, array_decls = scan_sources(root, files)

    probe_rel = os.path.join(out_rel, "width_probe.sv")
    probe_json = os.path.join(out_rel, "width_probe.json")
    probed = [t for t, w in expected.items() if w is not None]
    with open(os.path.join(root, probe_rel), "w") as f:
        f.write("// generated by synth/yosys_read.py: one port per package typedef\n")
        ports = [f"  output {t} p{i}" for i, t in enumerate(probed)] or ["  output logic p_none"]
        f.write("module pineda_width_probe (\n" + ",\n".join(ports) + "\n);\n")
        for i in range(len(probed)):
            f.write(f"  assign p{i} = '0;\n")
        if not probed:
            f.write("  assign p_none = 1'b0;\n")
        f.write("endmodule\n")
    if os.path.exists(os.path.join(root, probe_json)) and os.environ.get("LINT_CACHE", "1") == "0":
        os.remove(os.path.join(root, probe_json))

    read = synth.read_cmd(files, incdirs, defines)
    bbox = [m for m in args.blackbox.split(",") if m]
    top_files = files_needed(root, files, pkg_files, [args.top]) if args.top in modules else files
    # Modules the top does not reach (files it does not read), checked alone from their roots (the
    # ones no other unreached module instantiates), in a second process beside the top run.
    alone, unreached = [], set()
    if args.top in modules:
        other = [f for f in files if f not in top_files]
        for f in other:
            unreached |= set(re.findall(r"^\s*module\s+(?:automatic\s+|static\s+)?(\w+)",
                                        strip_comments(open(os.path.join(root, f), errors="replace").read()), re.M))
        alone = sorted(unreached - instantiated_modules(root, other, unreached) - set(bbox))
    alone_files = files_needed(root, files, pkg_files, alone)
    read_top = synth.read_cmd(top_files, incdirs, defines)
    if bbox:
        read += "\nblackbox " + " ".join(bbox)
        print(f"lint-yosys: note: {', '.join(bbox)} read as black boxes (ports only, no proc)")
    top_ls_rel = os.path.join(out_rel, "top_modules.txt")
    if args.top in modules:
        chparam = " ".join(f"-chparam {k} {v}" for k, v in (kv.split("=", 1) for kv in args.chparam.split(",") if kv))
        if bbox:
            read_top += "\nblackbox " + " ".join(b for b in bbox if b in modules)
        lines = [read_top, f"hierarchy -check -top {args.top} {chparam}".rstrip(), "proc",
                 "check -assert", f"tee -q -o {top_ls_rel} ls"]
    else:
        lines = [read, "hierarchy -check", "proc", "check -assert"]
        print(f"lint-yosys: note: no module {args.top} yet; checked every module with default parameters")
    lines += ["design -reset", synth.read_cmd(pkg_files + [probe_rel], incdirs, defines),
              "hierarchy -top pineda_width_probe", f"write_json {probe_json}", ""]
    script_rel = os.path.join(out_rel, "yosys_read.ys")
    with open(os.path.join(root, script_rel), "w") as f:
        f.write("\n".join(lines))
    log = os.path.join(root, out_rel, "yosys_read.log")

    def failures(rc, log):
        found_problems = []
        if rc != 0:
            found_problems += synth.log_errors(log) or [f"yosys exited with {rc}"]
            # the first problems that `check` found, if that is what failed
            text = open(log, errors="replace").read()
            at = text.rfind("Executing CHECK pass")
            if at >= 0:
                found = [l.strip() for l in text[at:].splitlines() if l.startswith("Warning:")]
                found_problems += found[:6] + ([f"... ({len(found) - 6} more in the log)"] if len(found) > 6 else [])
        return found_problems + synth.bad_warnings(log)

    def alone_run(mods, name, read_files):
        """Check modules alone with default parameters in their own Yosys process."""
        script = os.path.join(out_rel, f"{name}.ys")
        body = [synth.read_cmd(read_files, incdirs, defines)]
        if bbox:
            body[0] += "\nblackbox " + " ".join(bbox)
        body += ["design -save read"]
        for m in mods:
            body += ["design -load read", f"hierarchy -check -top {m}", "proc", "check -assert"]
        with open(os.path.join(root, script), "w") as f:
            f.write("\n".join(body + [""]))
        alog = os.path.join(root, out_rel, f"{name}.log")
        arc, asecs = cached_run(root, script, read_files + incdirs, out_rel, alog)
        return failures(arc, alog), asecs

    # The top run and the modules nothing instantiates run side by side (two processes).
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        top_job = pool.submit(cached_run, root, script_rel, top_files + incdirs + [probe_rel], out_rel, log,
                              [top_ls_rel, probe_json])
        alone_job = pool.submit(alone_run, alone, "yosys_read_alone", alone_files) if alone else None
        rc, secs = top_job.result()
        problems = list(array_decls) + failures(rc, log)
        if alone_job:
            found, asecs = alone_job.result()
            problems += found
            secs = max(secs, asecs)
    # Modules instantiated somewhere yet not elaborated under the top: checked alone, default parameters.
    rest = []
    if rc == 0 and args.top in modules:
        with open(os.path.join(root, top_ls_rel)) as f:
            elaborated = {elaborated_base(n) for n in re.findall(r"^\s+(\S+)\s*$", f.read(), re.M)}
        rest = sorted(m for m in modules - elaborated if m not in bbox and m not in unreached)
    if rest:
        found, secs2 = alone_run(rest, "yosys_read_rest", files)
        secs += secs2
        problems += found
    if alone or rest:
        print(f"lint-yosys: note: checked alone with default parameters (not under {args.top}): "
              f"{', '.join(alone + rest)}" + (f" (with what they instantiate: {', '.join(sorted(unreached - set(alone)))})"
                                               if unreached - set(alone) else ""))
    if rc == 0:
        with open(os.path.join(root, probe_json)) as f:
            mods = json.load(f)["modules"]
        got = {p: len(d["bits"]) for p, d in mods["pineda_width_probe"]["ports"].items()}
        for i, t in enumerate(probed):
            if got.get(f"p{i}") != expected[t]:
                problems.append(f"{t}: Yosys makes it {got.get(f'p{i}')} bits, the source says {expected[t]} "
                                f"(packed array of a struct type inside it? Yosys 0.55 mis-sizes those)")
    unparsed = [t for t, w in expected.items() if w is None]
    if unparsed:
        print(f"lint-yosys: note: width not checked (declaration not understood): {', '.join(unparsed)}")
    # dedupe, keep order
    problems = list(dict.fromkeys(problems))
    if problems:
        for p in problems:
            print(f"lint-yosys: {p}", file=sys.stderr)
        print(f"lint-yosys: FAILED ({len(problems)} problem(s)); log: {os.path.relpath(log, os.getcwd())}",
              file=sys.stderr)
        return 1
    print(f"lint-yosys: {len(files)} files, {len(modules)} modules, {len(probed)} package types: "
          f"clean ({secs:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
