# SPDX-License-Identifier: Apache-2.0
"""Hierarchical whole-GPU synthesis: every module once, cached, assembled over the instance tree.

Used by synth/synth.py (the default `make synth`); see synth/README.md and docs/synthesis.md.

Flow:
  1. elaborate: one Yosys run reads rtl/files.f and, for each NumRast, runs
     `chparam -set NumRast N pineda_top; hierarchy -check -top pineda_top; write_rtlil`.
     The RTLIL holds every module as the top parameterises it ($paramod...).
  2. split: for every distinct module, a job file holds that module (renamed \\top) and
     blackbox stubs of its direct children (ports only, renamed \\child<k>). Its cache key is
     the SHA-256 of the job text with source locations and Yosys's auto-numbering made
     canonical, plus the per-module Yosys script and FLOW_VERSION: a module is synthesised
     again only when its elaborated RTL (or its children's ports) changes.
  3. synthesise each job (`synth_ice40` with the children as blackboxes: no cross-module
     optimisation, no flattened ABC run), cache stat, memories, flip-flop arrays and the
     mapped netlist in out/synth/cache/<key>/.
  4. assemble: sums over the instance tree (instances x cells per module); logic depth over
     the flattened mapped netlist of each unit (Python, no Yosys).
"""
import hashlib
import json
import os
import re
import shutil
import time

FLOW_VERSION = "hier-2"

# The per-module script. {job}, {dir} are paths relative to the repo root. -run splits
# synth_ice40 (unchanged otherwise) to dump the memories before BRAM mapping and what is left
# for flip-flops after it.
FF_TYPES = ["$dff", "$dffe", "$adff", "$adffe", "$sdff", "$sdffe", "$sdffce", "$aldff",
            "$aldffe", "$dffsr", "$dffsre"]
MODULE_SCRIPT = "\n".join([
    "read_rtlil {job}",
    "hierarchy -top top",
    "synth_ice40 -top top -run begin:map_ram",
    "tee -q -o {dir}/mem_all.txt dump t:$mem_v2",
    "synth_ice40 -top top -run map_ram:map_ffram",
    "tee -q -o {dir}/ff_pre.txt dump t:$mem_v2 " + " ".join("t:" + t for t in FF_TYPES),
    # the rest of synth_ice40, except `autoname` in its `check` step: it only renames cells,
    # and in Yosys 0.55 it rescans the module once per renaming round (YosysHQ/yosys#2816,
    # #6003): more than 10 minutes on pa's netlist alone
    "synth_ice40 -top top -run map_ffram:check",
    "hierarchy -check",
    "check -noinit",
    "delete t:$scopeinfo",
    "tee -q -o {dir}/stat.json stat -json",
    "blackbox =A:whitebox",                 # (synth_ice40's check step: the cell models)
    "delete =A:blackbox",
    "write_json {dir}/net.json",
    "",
])

# Modules whose children are the rows of the table (a container's own logic is a "glue" row).
CONTAINERS = ("pineda_top", "front_end", "raster_array", "pixel_stage")


class HierError(Exception):
    pass


def base_name(modname):
    """'$paramod$abc\\sram_fifo' / '$paramod\\cp\\FetchLines=..' / '\\dma' -> 'sram_fifo' / 'cp' / 'dma'."""
    if modname.startswith("$paramod"):
        rest = modname[len("$paramod"):]
        if rest.startswith("$"):
            return rest.split("\\", 1)[1]
        return rest.split("\\")[1]
    return modname.lstrip("\\")


# ---------------------------------------------------------------------------------------------
# RTLIL text

def parse_rtlil(text):
    """Split `write_rtlil` output into modules: name -> {lines, ports, cells[(type, inst)]}."""
    mods = {}
    pending = []
    cur = None
    for line in text.splitlines():
        if cur is None:
            if line.startswith("attribute "):
                pending.append(line)
            elif line.startswith("module "):
                name = line.split(None, 1)[1].strip()
                cur = {"name": name, "attrs": pending, "lines": [], "ports": [], "cells": []}
                pending = []
            continue
        if line == "end":
            mods[cur["name"]] = cur
            cur = None
            continue
        cur["lines"].append(line)
        if line.startswith("  wire ") and re.search(r" (input|output|inout) \d+ ", line):
            cur["ports"].append(line)
        elif line.startswith("  cell "):
            parts = line.split()
            cur["cells"].append((parts[1], parts[2]))
    if cur is not None:
        raise HierError("truncated RTLIL (module without end)")
    return mods


def tops_of(mods):
    used = {t for m in mods.values() for t, _ in m["cells"]}
    return [n for n in mods if n not in used]


def children(mods, name):
    """Direct child module types of `name`, in first-use order (only modules of the design)."""
    seen = []
    for t, _ in mods[name]["cells"]:
        if t in mods and t not in seen:
            seen.append(t)
    return seen


def job_text(mods, name):
    """The module renamed \\top, its child types renamed \\child<k>, plus child blackbox stubs."""
    kids = children(mods, name)
    ren = {k: f"\\child{i}" for i, k in enumerate(kids)}
    out = []
    for k in kids:
        out += ["attribute \\blackbox 1", f"module {ren[k]}"] + mods[k]["ports"] + ["end"]
    out += mods[name]["attrs"] + ["module \\top"]
    for line in mods[name]["lines"]:
        if line.startswith("  cell "):
            parts = line.split()
            if parts[1] in ren:
                line = f"  cell {ren[parts[1]]} {parts[2]}"
        out.append(line)
    out.append("end")
    return "\n".join(out) + "\n", kids


def module_src(mod):
    """The source file a module was read from (its `src` attribute), or None."""
    for a in mod["attrs"]:
        m = re.match(r'attribute \\src "([^:"]+):', a)
        if m:
            return m.group(1)
    return None


_ITEM_RE = re.compile(r"^\s*(localparam|typedef|function)\b")
_IDENT_RE = re.compile(r"\b[A-Za-z_]\w*\b")


def package_items(text):
    """The items of a package source: a list of (names, code) for every localparam, typedef (its
    name; an enum's enumerators too) and function, comments left out of `code`. None when a line
    is none of these (the caller then treats the whole package as used by every module)."""
    items = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        code = lines[i].split("//")[0]
        if not code.strip() or re.match(r"^\s*(package\s+\w+\s*;|endpackage\b)", code):
            i += 1
            continue
        m = _ITEM_RE.match(code)
        if not m:
            return None
        kind, chunk = m.group(1), [code]
        def done(c):
            joined = " ".join(c)
            if kind == "function":
                return "endfunction" in joined
            return joined.rstrip().endswith(";") and joined.count("{") == joined.count("}")
        while not done(chunk):
            i += 1
            if i == len(lines):
                return None
            chunk.append(lines[i].split("//")[0])
        i += 1
        body = " ".join(" ".join(chunk).split())
        if kind == "function":
            n = re.search(r"(\w+)\s*\(", body)
            names = [n.group(1)] if n else []
        elif kind == "typedef":
            n = re.search(r"(\w+)\s*;\s*$", body)
            names = [n.group(1)] if n else []
            if re.match(r"typedef\s+enum\b", body):
                inner = body[body.index("{") + 1:body.rindex("}")]
                names += [e.split("=")[0].strip() for e in inner.split(",") if e.strip()]
        else:
            n = re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*=", body)
            names = [n.group(1)] if n else []
        if not names:
            return None
        items.append((names, body))
    return items


def package_use_hash(source_text, items):
    """A hash of the package items a module's source uses: the items its identifiers name, and
    every item those name in turn. An edit to any other item of the package leaves it unchanged."""
    owner = {}
    for k, (names, _) in enumerate(items):
        for nm in names:
            owner[nm] = k
    todo = [owner[t] for t in set(_IDENT_RE.findall(source_text)) if t in owner]
    used = set()
    while todo:
        k = todo.pop()
        if k in used:
            continue
        used.add(k)
        todo += [owner[t] for t in set(_IDENT_RE.findall(items[k][1])) if t in owner and owner[t] not in used]
    h = hashlib.sha256()
    for k in sorted(used):
        h.update(items[k][1].encode() + b"\0")
    return h.hexdigest()


def job_key(name, text, mods, file_hash, common_hash, tool):
    """Cache key of one module: its name (which holds the parameter values), the hash of its
    own source file, of the package items and include files it uses (common_hash: see
    package_use_hash), its children's
    ports (the stubs, without source locations), the per-module script, the tool and
    FLOW_VERSION. Yosys's elaborated text itself is not hashed: the order of its lines and
    its auto-numbering vary from run to run."""
    h = hashlib.sha256()
    src = module_src(mods[name])
    stubs = [line for line in text.split("module \\top\n")[0].splitlines()
             if not line.lstrip().startswith("attribute \\src")]
    for part in (FLOW_VERSION, tool, MODULE_SCRIPT, name, src or "?", file_hash.get(src, "?"),
                 common_hash, "\n".join(stubs)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


# ---------------------------------------------------------------------------------------------
# Yosys dumps

_CELL_RE = re.compile(r"^\s*cell (\S+) (\S+)\s*$")
_PARAM_RE = re.compile(r"^\s*parameter \\(\w+) (.+?)\s*$")
_CONN_RE = re.compile(r"^\s*connect \\(\w+) (.+?)\s*$")
_SRCATTR_RE = re.compile(r'^\s*attribute \\src "(.*)"\s*$')


def _param_val(v):
    v = v.strip()
    if v.startswith('"'):
        return v.strip('"').replace("\\\\", "\\")
    m = re.fullmatch(r"(\d+)'([01xz]+)", v)
    if m:
        bits = m.group(2).replace("x", "0").replace("z", "0")
        return int(bits, 2)
    try:
        return int(v)
    except ValueError:
        return v


def parse_dump(text):
    """`dump` output -> [{type, name, params, conns, src}] (cells only)."""
    cells = []
    cur = None
    src = None
    for line in text.splitlines():
        m = _SRCATTR_RE.match(line)
        if m and cur is None:
            src = m.group(1)
            continue
        m = _CELL_RE.match(line)
        if m:
            cur = {"type": m.group(1), "name": m.group(2), "params": {}, "conns": {}, "src": src}
            src = None
            continue
        if cur is None:
            if not line.strip().startswith("attribute"):
                src = None
            continue
        if line.strip() == "end":
            cells.append(cur)
            cur = None
            continue
        m = _PARAM_RE.match(line)
        if m:
            cur["params"][m.group(1)] = _param_val(m.group(2))
            continue
        m = _CONN_RE.match(line)
        if m:
            cur["conns"][m.group(1)] = m.group(2)
    return cells


def short_src(src):
    """'rtl/a/b.sv:12.3-40.6|...' -> 'b.sv:12'."""
    if not src:
        return ""
    parts = src.split("|")
    first = next((p for p in parts if re.search(r"\.s?v:", p) and "/techmap" not in p
                  and not re.match(r"(?:.*/)?(cells_map|cells_sim|techmap|arith_map|ff_map|brams_map)\.v:", p)),
                 None)
    if first is None:
        return ""
    m = re.match(r"(?:.*/)?([^/:]+):(\d+)", first)
    return f"{m.group(1)}:{m.group(2)}" if m else first


def memories(dump_text):
    out = []
    for c in parse_dump(dump_text):
        if c["type"] != "$mem_v2":
            continue
        w, n = int(c["params"].get("WIDTH", 0)), int(c["params"].get("SIZE", 0))
        out.append({"name": str(c["params"].get("MEMID", c["name"])).lstrip("\\"),
                    "width": w, "depth": n, "bits": w * n, "src": short_src(c["src"])})
    return out


def ff_arrays(dump_text):
    """Storage left for flip-flops before map_ffram: unmapped memories and $dff-type cells."""
    out = []
    for c in parse_dump(dump_text):
        if c["type"] == "$mem_v2":
            w, n = int(c["params"].get("WIDTH", 0)), int(c["params"].get("SIZE", 0))
            out.append({"kind": "memory->FF", "name": str(c["params"].get("MEMID", c["name"])).lstrip("\\"),
                        "bits": w * n, "shape": f"{n}x{w}", "src": short_src(c["src"])})
        elif c["type"] in FF_TYPES:
            w = int(c["params"].get("WIDTH", 1))
            q = c["conns"].get("Q", c["name"])
            # registers Yosys adds next to a block RAM to give it the RTL's read-first /
            # transparent behaviour (memory_libmap's emulate_read_first/emulate_transparency)
            kind = "bram-emul" if "emulate_" in q else "dff"
            out.append({"kind": kind, "name": q.lstrip("\\") if q.startswith("\\") else q,
                        "bits": w, "shape": str(w), "src": short_src(c["src"])})
    out.sort(key=lambda r: -r["bits"])
    return out


def summarise_stat(stat):
    mods = stat.get("modules", {})
    mod = mods.get("\\top") or mods.get("top")
    if mod is None:
        raise HierError(f"stat: no module top ({list(mods)})")
    cells = {k: int(v) for k, v in mod.get("num_cells_by_type", {}).items()
             if k.startswith(("SB_", "$"))}
    return {
        "lut4": cells.get("SB_LUT4", 0),
        "carry": cells.get("SB_CARRY", 0),
        "ffs": sum(n for t, n in cells.items() if t.startswith("SB_DFF")),
        "bram": cells.get("SB_RAM40_4K", 0),
        "dsp": cells.get("SB_MAC16", 0),
        "other": {t: n for t, n in cells.items()
                  if not t.startswith(("SB_LUT4", "SB_CARRY", "SB_DFF", "SB_RAM40_4K", "SB_MAC16"))},
    }


# ---------------------------------------------------------------------------------------------
# per-module synthesis with cache

def cached_result(job, root, cache_rel):
    cdir = os.path.join(root, cache_rel, job["key"])
    if os.path.exists(os.path.join(cdir, "result.json")) and os.path.exists(os.path.join(cdir, "net.json")):
        with open(os.path.join(cdir, "result.json")) as f:
            r = json.load(f)
        r["cached"] = True
        # the flip-flop list is re-read from the dump, so it follows this file's parser
        ffp = os.path.join(cdir, "ff_pre.txt")
        if os.path.exists(ffp):
            r["ff_arrays"] = ff_arrays(_read(ffp))[:12]
        return r
    return None


def _prepare(job, root, cache_rel):
    tmp_rel = os.path.join(cache_rel, job["key"] + ".tmp")
    tmp = os.path.join(root, tmp_rel)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with open(os.path.join(tmp, "job.il"), "w") as f:
        f.write(job["text"])
    return tmp_rel, MODULE_SCRIPT.format(job=os.path.join(tmp_rel, "job.il"), dir=tmp_rel)


_STAMP_RE = re.compile(r"^\[\d+\.\d+\] ", re.M)


def _read(path):
    """A file written through `tee`: with `yosys -t` (batches) each line has a time stamp."""
    with open(path, errors="replace") as f:
        return _STAMP_RE.sub("", f.read())


def _finish(job, root, cache_rel, secs, tool):
    """Collect a job's outputs into its cache directory; None if they are missing."""
    cdir = os.path.join(root, cache_rel, job["key"])
    tmp = cdir + ".tmp"
    stat_p = os.path.join(tmp, "stat.json")
    if not os.path.exists(stat_p) or not os.path.exists(os.path.join(tmp, "net.json")):
        return None
    try:  # a run that stopped inside write_json leaves a truncated file
        with open(os.path.join(tmp, "net.json")) as f:
            json.load(f)
    except ValueError:
        return None
    stat = summarise_stat(json.loads(_read(stat_p)))
    mems = memories(_read(os.path.join(tmp, "mem_all.txt")))
    ffa = ff_arrays(_read(os.path.join(tmp, "ff_pre.txt")))
    ff_mem_names = {r["name"] for r in ffa if r["kind"] == "memory->FF"}
    r = {
        "ok": True, "module": job["module"], "seconds": round(secs, 1), "tool": tool,
        "flow": FLOW_VERSION, "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "stat": stat,
        "mem_bram": [m for m in mems if m["name"] not in ff_mem_names],
        "ff_arrays": ffa[:12],
    }
    with open(os.path.join(tmp, "result.json"), "w") as f:
        json.dump(r, f, indent=1)
    shutil.rmtree(cdir, ignore_errors=True)
    os.replace(tmp, cdir)
    r["cached"] = False
    return r


def synth_job(job, root, cache_rel, run_yosys, tool):
    """Synthesise one job (dict with key, text, module) unless cached -> its result dict."""
    r = cached_result(job, root, cache_rel)
    if r is not None:
        return r
    tmp_rel, script = _prepare(job, root, cache_rel)
    script_rel = os.path.join(tmp_rel, "run.ys")
    with open(os.path.join(root, script_rel), "w") as f:
        f.write(script)
    log = os.path.join(root, tmp_rel, "yosys.log")
    rc, secs = run_yosys(root, script_rel, [os.path.join(tmp_rel, "job.il")], tmp_rel, log)
    r = _finish(job, root, cache_rel, secs, tool) if rc == 0 else None
    return r or {"ok": False, "seconds": round(secs, 1), "log": log, "cached": False}


_TS_RE = re.compile(r"^\[(\d+\.\d+)\] (?:\d+\. )?Executing RTLIL frontend")


def synth_batch(jobs, root, cache_rel, run_yosys, tool, batch_name):
    """Several small jobs in one Yosys process (`design -reset` between them: the same script
    per job, so the same results and cache keys; only Node/WebAssembly start-up is shared).
    A job the batch did not finish is re-run alone. -> [result]"""
    todo = [j for j in jobs if cached_result(j, root, cache_rel) is None]
    out = {j["key"]: cached_result(j, root, cache_rel) for j in jobs if j not in todo}
    if len(todo) == 1:
        out[todo[0]["key"]] = synth_job(todo[0], root, cache_rel, run_yosys, tool)
    elif todo:
        parts, mounts = [], []
        for j in todo:
            tmp_rel, script = _prepare(j, root, cache_rel)
            parts += ["design -reset", script]
            mounts.append(os.path.join(tmp_rel, "job.il"))
        bdir_rel = os.path.join(cache_rel, batch_name)
        os.makedirs(os.path.join(root, bdir_rel), exist_ok=True)
        script_rel = os.path.join(bdir_rel, "run.ys")
        with open(os.path.join(root, script_rel), "w") as f:
            f.write("\n".join(parts))
        log = os.path.join(root, bdir_rel, "yosys.log")
        outs = [os.path.dirname(m) for m in mounts]
        rc, secs = run_yosys(root, script_rel, mounts, outs, log, ["-t"])
        # per-job time from the time stamps of each read_rtlil
        stamps = []
        with open(log, errors="replace") as f:
            for line in f:
                m = _TS_RE.match(line)
                if m:
                    stamps.append(float(m.group(1)))
        stamps.append(secs)
        for i, j in enumerate(todo):
            t = stamps[i + 1] - stamps[i] if i + 1 < len(stamps) else 0.0
            try:
                r = _finish(j, root, cache_rel, t, tool)
            except (OSError, ValueError, KeyError, HierError):
                r = None
            out[j["key"]] = r or synth_job(j, root, cache_rel, run_yosys, tool)
        if rc == 0:
            shutil.rmtree(os.path.join(root, bdir_rel), ignore_errors=True)
    return [out[j["key"]] for j in jobs]


# ---------------------------------------------------------------------------------------------
# assembly over the instance tree

def subtree(mods, results, name, memo=None):
    """Totals of module `name` with all its descendants: lut4, carry, ffs, bram, bram_bits."""
    memo = {} if memo is None else memo
    if name in memo:
        return memo[name]
    r = results[name]
    s = r["stat"]
    tot = {"lut4": s["lut4"], "carry": s["carry"], "ffs": s["ffs"], "bram": s["bram"],
           "bram_bits": sum(m["bits"] for m in r["mem_bram"]), "seconds": r["seconds"]}
    for t, _ in mods[name]["cells"]:
        if t in mods:
            c = subtree(mods, results, t, memo)
            for k in tot:
                tot[k] += c[k]
    memo[name] = tot
    return tot


def modules_under(mods, name, out=None):
    """The distinct modules of `name`'s subtree (itself included)."""
    out = set() if out is None else out
    if name not in out:
        out.add(name)
        for t in children(mods, name):
            modules_under(mods, t, out)
    return out


def ff_arrays_under(mods, results, name, path="", out=None):
    out = [] if out is None else out
    for a in results[name]["ff_arrays"]:
        out.append(dict(a, where=(path + "/" if path else "") + a["name"]))
    for t, inst in mods[name]["cells"]:
        if t in mods:
            ff_arrays_under(mods, results, t, (path + "/" if path else "") + inst.lstrip("\\"), out)
    return out


def rows_for(mods, top):
    """Table rows: (label, [instance modules], container glue module or None), grouped by
    module base name inside each container."""
    rows = []

    def walk(name, prefix):
        groups = {}
        order = []
        for t, inst in mods[name]["cells"]:
            if t not in mods:
                continue
            b = base_name(t)
            if b in CONTAINERS:
                walk(t, prefix + b + "/")
                continue
            if b not in groups:
                groups[b] = []
                order.append(b)
            groups[b].append((t, inst.lstrip("\\")))
        for b in order:
            rows.append({"label": prefix + b, "module": b, "instances": groups[b]})
        rows.append({"label": prefix + "(own logic)", "module": base_name(name),
                     "instances": [(name, "")], "glue": True})

    walk(top, base_name(top) + "/")
    return rows


def glue_totals(results, name):
    r = results[name]
    s = r["stat"]
    return {"lut4": s["lut4"], "carry": s["carry"], "ffs": s["ffs"], "bram": s["bram"],
            "bram_bits": sum(m["bits"] for m in r["mem_bram"]), "seconds": r["seconds"]}


# ---------------------------------------------------------------------------------------------
# logic depth over the mapped netlists (flattened here, in Python)

SEQ_OUT = {"SB_DFF": "Q", "SB_RAM40_4K": "RDATA"}


class Flat:
    """A flattened mapped netlist: leaf cells with global net ids."""

    def __init__(self):
        self.next_id = 2
        self.cells = []  # (type, path, src, {port: [ids]})
        self.top_in = set()
        self.top_out = set()


def load_net(path):
    with open(path) as f:
        data = json.load(f)
    mods = data["modules"]
    m = mods.get("top")
    if m is None:
        raise HierError(f"{path}: no module top")
    return m


def flatten(mods, nets, name, flat=None, portmap=None, path="", descend=True):
    """Instantiate module `name` (nets[name] is its mapped JSON) into `flat`; with
    descend=False its child instances are left out (their outputs start paths)."""
    top = flat is None
    flat = Flat() if top else flat
    net = nets[name]
    local = {}

    def gid(b):
        if isinstance(b, str):
            return None  # constant
        if b not in local:
            local[b] = flat.next_id
            flat.next_id += 1
        return local[b]

    for pname, p in net["ports"].items():
        if portmap is not None and pname in portmap:
            for b, g in zip(p["bits"], portmap[pname]):
                if not isinstance(b, str) and g is not None and b not in local:
                    local[b] = g
        elif top:
            ids = [gid(b) for b in p["bits"]]
            (flat.top_in if p["direction"] == "input" else flat.top_out).update(i for i in ids if i)
    kids = children(mods, name)
    # readable names for cells Yosys left anonymous ($abc$..., $auto$...): their output net's
    # name when it has one (write_json marks generated names hide_name)
    netname = {}
    for nname, nn in net.get("netnames", {}).items():
        if nn.get("hide_name"):
            continue
        bits = nn.get("bits", [])
        for i, b in enumerate(bits):
            if not isinstance(b, str) and b not in netname:
                netname[b] = nname if len(bits) == 1 else f"{nname}[{i}]"
    for cname, c in net["cells"].items():
        typ = c["type"]
        conns = {pn: [gid(b) for b in bits] for pn, bits in c["connections"].items()}
        m = re.fullmatch(r"\\?child(\d+)", typ)
        if m:
            if not descend:
                continue
            sub = kids[int(m.group(1))]
            flatten(mods, nets, sub, flat, conns, (path + "/" if path else "") + cname.lstrip("\\"))
            continue
        src = c.get("attributes", {}).get("src", "")
        label = cname.lstrip("\\")
        if cname.startswith("$"):
            outs = c["connections"].get("O") or c["connections"].get("Q") or c["connections"].get("CO") or []
            if outs and outs[0] in netname:
                label = netname[outs[0]] + "(" + typ + ")"
        if len(label) > 60:
            label = label[:28] + "..." + label[-28:]
        flat.cells.append((typ, (path + "/" if path else "") + label, src, conns))
    return flat


LUT_IN = ("I0", "I1", "I2", "I3")
CARRY_IN = ("I0", "I1", "CI")


def logic_depth(flat):
    """Longest chain of SB_LUT4 between sequential cells/ports (SB_CARRY passes at 0 levels).

    Returns {levels, carries, start, end}."""
    driver = {}
    for idx, (typ, _, _, conns) in enumerate(flat.cells):
        if typ == "SB_LUT4":
            for g in conns.get("O", []):
                if g:
                    driver[g] = idx
        elif typ == "SB_CARRY":
            for g in conns.get("CO", []):
                if g:
                    driver[g] = idx
    level = {}  # cell idx -> (luts, carries, pred net or None)

    def cell_inputs(idx):
        typ, _, _, conns = flat.cells[idx]
        ports = LUT_IN if typ == "SB_LUT4" else CARRY_IN
        return [g for p in ports for g in conns.get(p, []) if g]

    for root in list(driver.values()):
        if root in level:
            continue
        stack = [(root, False)]
        onstack = set()
        while stack:
            idx, done = stack.pop()
            if idx in level:
                continue
            if not done:
                if idx in onstack:
                    continue
                onstack.add(idx)
                stack.append((idx, True))
                for g in cell_inputs(idx):
                    d = driver.get(g)
                    if d is not None and d not in level:
                        if d in onstack:
                            raise HierError("combinational loop in the mapped netlist at "
                                            + flat.cells[d][1])
                        stack.append((d, False))
                continue
            onstack.discard(idx)
            best = (0, 0, None)
            for g in cell_inputs(idx):
                d = driver.get(g)
                cand = (level[d][0], level[d][1], g) if d is not None else (0, 0, g)
                if cand[:2] > best[:2] or best[2] is None:
                    best = cand
            is_lut = flat.cells[idx][0] == "SB_LUT4"
            level[idx] = (best[0] + (1 if is_lut else 0), best[1] + (0 if is_lut else 1), best[2])
    if not level:
        return {"levels": 0, "carries": 0, "start": "", "end": ""}
    end = max(level, key=lambda i: level[i][:2])
    luts, carries, _ = level[end]
    # walk back to the start
    idx = end
    g = None
    while True:
        g = level[idx][2]
        d = driver.get(g) if g is not None else None
        if d is None:
            break
        idx = d
    start = "constant"
    if g is not None:
        start = "submodule output"
        if g in flat.top_in:
            start = "input port"
        else:
            for typ, path, src, conns in flat.cells:
                if typ.startswith("SB_DFF") and g in conns.get("Q", []) or \
                        typ == "SB_RAM40_4K" and g in conns.get("RDATA", []):
                    start = f"{typ} {path}" + (f" ({short_src(src)})" if short_src(src) else "")
                    break
    # where the end LUT's output goes: a flip-flop, a RAM, or a port
    out_g = [x for x in flat.cells[end][3].get("O", []) if x]
    sink = "submodule input"
    if out_g and out_g[0] in flat.top_out:
        sink = "output port"
    else:
        for typ, path, src, conns in flat.cells:
            if typ in ("SB_LUT4", "SB_CARRY"):
                continue
            if any(out_g and out_g[0] in ids for p, ids in conns.items()):
                sink = f"{typ} {path}" + (f" ({short_src(src)})" if short_src(src) else "")
                break
    typ, path, src, _ = flat.cells[end]
    return {"levels": luts, "carries": carries, "start": start,
            "end": f"{typ} {path}" + (f" ({short_src(src)})" if short_src(src) else "") + f" -> {sink}"}
