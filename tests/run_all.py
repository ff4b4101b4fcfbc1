#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs every Pineda test suite and prints one summary line: `N passed, N failed`.

Each suite is a command. Catch2 binaries count their test cases; pineda_sim counts its scenes
(its own `N passed, N failed` line); other commands count as one test each. A suite that fails
to run at all counts as one failure. Logs go to out/test/<suite>.log.

usage: tests/run_all.py [--build DIR] [--only NAME[,NAME...]] [--long] [--quick [--base REV]] [--list]
                        [--targets]

--long adds the opt-in suites (LONG_SUITES: the 2-rasterizer scene run, whose pineda_top build and
run cost the default suite about 7 of its 30 minutes; `make test-long` builds and runs them).
--quick is the developers' tier (`make test-quick`, a few minutes with warm builds): the contract
check, lint when rtl/ changed (the whole top and the changed units' tops), the model and runtime tests, the RTL unit tests of the units whose
files changed since --base (default: the merge base with main; uncommitted and untracked files
count), and a handful of scenes (QUICK_SCENES) through RTL and model. CI runs the full suite.
--targets prints the build targets of the selected suites (for the Makefile) instead of running.
"""
import argparse
import filecmp
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import units  # noqa: E402  (units.toml, the one list of units)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = units.load(ROOT)


# The sanitized model tests skip the two CP fuzz cases ([fuzz]: 42 s of the ~65 s under ASan): they
# run unsanitized in "model", and the libFuzzer target fuzz_cp (sanitized) covers the same inputs.
# They also skip [nosan]: property checks that run whole scenes several times over (determinism,
# Hi-Z conservativeness on random scenes: ~60 s under ASan); the same code runs sanitized once per
# scene in "gpu: every scene runs to END", and the checks themselves run unsanitized in "model".
# "~[.]" keeps the hidden (exhaustive, bench, long) cases out, as a bare run does.
SAN_MODEL_FILTER = ["~[.] ~[fuzz] ~[nosan]"]

# Default scenes the random-latency and the 2- and 4-rasterizer suites leave out (see suites()).
# The textured scenes: tex_floor_point / _bilinear are tex_floor_trilinear's geometry and texture
# with other filters (point and bilinear sampling under random latency run in tex_address_modes,
# tex_bc, tex_srgb); the 2- and 4-rasterizer runs also leave out the scenes that differ from others
# only in sampler or combiner state (the pixel path after ZS is the same for every rasterizer count).
# tex_address_modes and tex_bc (many small draws, each with its own sampler or view, whose quads
# interleave after the merge) run there since TEX keeps 4 texture and 4 sampler descriptors
# (docs/tex.md section 7): about 17,000 and 22,000 cycles at 2 and 4 rasterizers, ~1 s each,
# instead of 250,000+ when a descriptor change drained TEX.
SKIP_TEX_RANDOM = "tex_floor_point,tex_floor_bilinear"
SKIP_TEX_RAST = SKIP_TEX_RANDOM + ",tex_lod,tex_combine,tex_srgb"
# CI time (the fresh-clone run of fb00bdc took 37 min 48 s): the random run also leaves out
# ds_bunny_4x (24 s; ds_bunny runs there, ds_bunny_4x in the fixed run and with 4x ZS in
# ds_interpenetrate_4x), the 4-rasterizer run ds_occlusion_4x and clear_rects_4x (their 1x twins
# and the 4x raster paths of dense_mesh_4x / ds_interpenetrate_4x run there).
SKIP_RANDOM = "ds_occlusion_nohiz,ds_occlusion_greater,ds_bunny_4x," + SKIP_TEX_RANDOM
SKIP_R2 = "ds_occlusion_nohiz,ds_occlusion_greater,ds_bunny_4x," + SKIP_TEX_RAST
SKIP_R4 = SKIP_R2 + ",ds_occlusion_4x,clear_rects_4x"


# Opt-in suites (--long, `make test-long`): the 4-rasterizer run covers the multi-rasterizer paths
# (interleave, quad merge, per-rasterizer Hi-Z) in the default suite; 2 rasterizers is the middle
# configuration of the same parameter.
LONG_SUITES = {"scenes_r2"}


def suites(build, long=False):
    sim = os.path.join(build, "pineda_sim")
    R2_DIR = f"('out/test/r2', '{SKIP_R2}'), " if long else ""
    s = [
        ("contract", ["make", "-s", "contract-check"], "single"),
        ("lint", ["make", "-s", "lint"], "single"),
        ("model", [os.path.join(build, "tests", "model_tests")], "catch2"),
    ]
    s += [
        # Host runtime (runtime/): manual and golden backends; golden vs Verilated RTL.
        ("runtime", [os.path.join(build, "tests", "runtime_tests")], "catch2"),
        ("runtime_rtl", [os.path.join(build, "tests", "runtime_rtl_tests")], "catch2"),
        ("runtime_example", [os.path.join(build, "runtime_example"), "out/test/runtime_example.png"], "single"),
        # Issue 12: the model and runtime tests built with ASan + UBSan (mk/san.mk; any report
        # aborts), and a short libFuzzer run of each fuzz target (mk/fuzz.mk).
        ("san_model", [os.path.join(build, "san", "tests", "model_tests")] + SAN_MODEL_FILTER, "catch2"),
        ("san_runtime", [os.path.join(build, "san", "tests", "runtime_tests")], "catch2"),
        ("fuzz_smoke", ["make", "-s", "fuzz-smoke", f"BUILD={build}"], "single"),
    ]
    # Every unit harness of units.toml, in pipeline order: RTL against its model twin.
    s += [(t.name, [os.path.join(build, t.binary)], "catch2") for t in MANIFEST.tests()]
    s += [
        # Every scene through RTL and model at the default 200-cycle latency.
        # Each scene is also written as a capture file (replayed by the `cli` suite).
        ("scenes", [sim, "--out", "out/test/fixed", "--label", "scenes", "--capture", "out/test/captures"], "sim"),
        # The same scenes with random memory latency, a reduced memory bandwidth (20 of the
        # default 32 bytes/clock) and random stalls on every boundary: results must stay
        # bit-identical (checked against the model and the fixed run's PNGs).
        # It skips ds_occlusion_nohiz / _greater (ds_occlusion's raster work with Hi-Z off /
        # reversed; ds_hiz_random runs both Hi-Z directions under these conditions).
        ("scenes_random", [sim, "--out", "out/test/random", "--jitter", "400", "--throttle",
                           "0.25", "--bandwidth", "20", "--seed", "7", "--label", "scenes_random",
                           "--skip", SKIP_RANDOM], "sim"),
        ("images_identical", [sys.executable, os.path.abspath(__file__), "--compare-dirs",
                              "out/test/fixed", "out/test/random", "--skip", SKIP_RANDOM], "single"),
        # Every scene through pineda_top with 2 and 4 rasterizers, with random memory
        # latency and stalls (streams compared per rasterizer); the images equal the 1x run's.
        # They skip a few slow scenes whose multi-rasterizer paths others cover (CI budget):
        # ds_occlusion_nohiz / _greater are ds_occlusion's raster work with Hi-Z off / reversed
        # (both Hi-Z directions run at 2 and 4 rasterizers in ds_hiz_random), and ds_bunny_4x
        # (ds_bunny and the ds_interpenetrate_4x pair run there).
        ("scenes_r2", [os.path.join(build, "pineda_sim_r2"), "--out", "out/test/r2", "--jitter", "400",
                       "--throttle", "0.25", "--seed", "11", "--label", "scenes_r2", "--skip", SKIP_R2], "sim"),
        ("scenes_r4", [os.path.join(build, "pineda_sim_r4"), "--out", "out/test/r4", "--jitter", "400",
                       "--throttle", "0.25", "--seed", "13", "--label", "scenes_r4", "--skip", SKIP_R4], "sim"),
        ("images_identical_rast", [sys.executable, "-c",
                                   "import subprocess,sys; sys.exit(max(subprocess.call([sys.executable, '"
                                   + os.path.abspath(__file__) + "', '--compare-dirs', 'out/test/fixed', d, '--skip', k]) "
                                   f"for d, k in ({R2_DIR}('out/test/r4', '{SKIP_R4}'),)))"], "single"),
        ("waves", ["make", "-s", "waves", "TEST=scissor", "WAVE_CHECK=1"], "single"),
        # A VCD window and its GTKWave save file: parsed, every saved signal present, streams moving.
        ("waves_vcd", ["bash", "-c", "make -s waves TEST=quad_full FORMAT=vcd WAVE_FROM=2000 WAVE_TO=2400 && "
                       f"{sys.executable} tests/check_waves.py waves/quad_full.vcd waves/quad_full.gtkw"], "single"),
        # build/pineda: every model format, render on model and RTL, capture -> replay round trips,
        # refused captures, pineda_sim --capture and its HTML report, every `scenes` capture replayed.
        ("cli", [sys.executable, "tests/cli/test_cli.py", "--build", build, "--captures", "out/test/captures"], "sim"),
    ]
    return s


# The quick tier's scenes: one each of the CP's commands, the front end, depth and stencil, a
# B5G6R5 blend, the MSAA resolve and both texture stages (about 1 minute together).
QUICK_SCENES = "cp_commands,scissor,fe_sphere,ds_funcs,om_b5g6r5,om_resolve_4x,tex_lightmap"


def changed_files(base):
    """Paths that differ from `base` (committed or not), and untracked files."""
    def git(*args):
        r = subprocess.run(["git", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return r.stdout.split() if r.returncode == 0 else []
    if not base:
        mb = git("merge-base", "HEAD", "main")
        base = mb[0] if mb else "HEAD"
    return sorted(set(git("diff", "--name-only", base) + git("ls-files", "--others", "--exclude-standard")))


def quick_suites(build, base):
    """The quick tier (see the module docstring) out of the full list."""
    full = {n: (n, c, k) for n, c, k in suites(build)}
    changed = changed_files(base)
    # The units a changed path belongs to (units.toml): its RTL files, its harness, its model
    # twin, or the cpp_model/ and tb/ folder it shares with its RTL.
    picked = set()
    for path in changed:
        picked.update(u.name for u in MANIFEST.unit_of_path(path))
    rtl_changed = any(p.startswith("rtl/") or p.startswith("contracts/") for p in changed)
    sim = os.path.join(build, "pineda_sim")
    s = [full["contract"]]
    if rtl_changed:
        # The whole design (pineda_top: -Wall, the --cc scheduling check, the Yosys read) and the
        # changed units' own lint tops, not every unit's.
        tops = ["pineda_top"] + sorted({m for u in MANIFEST.units if u.name in picked for m in u.lint})
        s.append(("lint", ["make", "-s", "lint", "RTL_LINT_TOPS=" + " ".join(dict.fromkeys(tops))], "single"))
    s += [full["model"], full["runtime"]]
    s += [full[t.name] for t in MANIFEST.tests() if t.unit.name in picked]
    s.append(("scenes_quick", [sim, "--out", "out/test/quick", "--label", "scenes_quick",
                               *QUICK_SCENES.split(",")], "sim"))
    return s


def parse_catch2(out, rc):
    m = re.search(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)", out)
    if m:
        return int(m.group(2)), 0
    m = re.search(r"test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed", out)
    if m:
        return int(m.group(2)), int(m.group(3))
    return (0, 1)


def parse_sim(out, rc):
    m = None
    for m in re.finditer(r"^(?:\w+: )?(\d+) passed, (\d+) failed$", out, re.M):
        pass
    if m:
        p, f = int(m.group(1)), int(m.group(2))
        if rc != 0 and f == 0:
            f = 1
        return p, f
    return (0, 1)


def compare_dirs(a, b, skip=()):
    """Every image of `a` must be in `b` and identical, except the scenes `b`'s run skipped."""
    names = sorted(n for n in os.listdir(a) if n.endswith(".png")
                   and not any(t in n for t in (".model.", ".rtl.", ".diff."))
                   and n.split(".")[0] not in skip)
    bad = [n for n in names if not os.path.exists(os.path.join(b, n))
           or not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False)]
    for n in names:
        print(f"{'DIFFERENT' if n in bad else 'identical'}  {n}")
    if not names:
        print("no images to compare")
        return 1
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--long", action="store_true", help="also the opt-in suites (LONG_SUITES)")
    ap.add_argument("--quick", action="store_true", help="the developers' quick tier (make test-quick)")
    ap.add_argument("--base", default="", help="with --quick: the revision changes are counted from")
    ap.add_argument("--targets", action="store_true", help="print the build targets of the selected suites")
    ap.add_argument("--compare-dirs", nargs=2)
    ap.add_argument("--skip", default="", help="with --compare-dirs: scenes the second run skipped")
    a = ap.parse_args()
    if a.compare_dirs:
        sys.exit(compare_dirs(*a.compare_dirs, skip=[x for x in a.skip.split(",") if x]))
    os.chdir(ROOT)
    if a.quick:
        all_suites = quick_suites(a.build, a.base)
    else:
        all_suites = [x for x in suites(a.build, a.long) if a.long or x[0] not in LONG_SUITES]
    only = set(filter(None, a.only.split(",")))
    if a.targets:
        # Every selected suite's binary under the build folder is a make target; commands (make,
        # python) are not.
        print(" ".join(sorted({c[0] for n, c, _ in all_suites
                               if (not only or n in only) and c[0].startswith(a.build + os.sep)})))
        return
    if a.list:
        for n, c, _ in all_suites:
            print(n, " ".join(c))
        return
    os.makedirs("out/test", exist_ok=True)
    total_p = total_f = 0
    rows = []
    for name, cmd, kind in all_suites:
        if only and name not in only:
            continue
        t0 = time.time()
        log = os.path.join("out/test", f"{name}.log")
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")  # a failing test may print raw bytes
            out, rc = r.stdout, r.returncode
        except OSError as e:
            out, rc = f"cannot run {cmd[0]}: {e}\n", 127
        with open(log, "w") as fh:
            fh.write(out)
        if kind == "catch2":
            p, f = parse_catch2(out, rc)
        elif kind == "sim":
            p, f = parse_sim(out, rc)
        else:
            p, f = (1, 0) if rc == 0 else (0, 1)
        if rc != 0 and f == 0:
            f = 1
        dt = time.time() - t0
        total_p += p
        total_f += f
        status = "ok" if f == 0 else "FAIL"
        rows.append((name, p, f, dt, status))
        print(f"{name:18s} {p:5d} passed {f:4d} failed {dt:8.1f}s  {status}", flush=True)
        if f:
            tail = out.strip().splitlines()[-40:]
            print("    " + "\n    ".join(tail))
            print(f"    (full log: {log})")
    print()
    print(f"{total_p} passed, {total_f} failed")
    sys.exit(1 if total_f else 0)


if __name__ == "__main__":
    main()
