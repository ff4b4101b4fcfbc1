#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of build/pineda (the command-line tool) and of pineda_sim's capture files and report.

Each check prints one line `ok <name>` or `FAIL <name>: why`; the last line is `N passed, N failed`.
Small models are written here in each format (OBJ, binary 3DS, glTF 2.0 with an embedded buffer),
rendered on the model backend and checked pixel by pixel; one renders on RTL and model (both).
Capture files: render/capture -> replay --compare on the model and on the RTL; every capture a
pineda_sim --capture run wrote (the `scenes` suite writes out/test/captures) replays on the model
bit-identically; truncated, corrupted and wrong-version files are refused.

usage: tests/cli/test_cli.py [--build DIR] [--captures DIR]
"""
import argparse
import base64
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BG = (0x18, 0x1A, 0x20)  # the render's default background (RenderOptions::background)

results = []


def check(name, ok, why=""):
    results.append(ok)
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + why), flush=True)


def run(cmd, expect=0):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def run_limited(cmd, address_space):
    """run(), the child's virtual address space limited to `address_space` bytes."""
    import resource
    lim = lambda: resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=lim)
    return r.returncode, r.stdout


def header(contract_id, raw_n, z, raw_crc=0):
    """A capture file's 40-byte header (docs/runtime.md "Capture files") for compressed bytes z."""
    h = b"PNDACAP\n" + struct.pack("<IIQQI", 2, contract_id, raw_n, len(z), raw_crc)
    return h + struct.pack("<I", zlib.crc32(h))


def capture_file(contract_id, target, reg_writes, pages):
    """A well-formed capture: `target` (base, pitch, width, height, samples, fmt), host register
    writes [(index, value)], memory [(address, bytes)] each inside one 4 KiB page."""
    p = struct.pack("<I", 4) + b"test" + struct.pack("<6I", *target) + struct.pack("<3I", 0, 0, 1)
    p += struct.pack("<I", len(reg_writes)) + b"".join(struct.pack("<II", i, v) for i, v in reg_writes)
    p += struct.pack("<I", 0)  # no wait releases
    p += struct.pack("<I", len(pages))
    for addr, data in sorted(pages):
        page = bytearray(4096)
        page[addr % 4096:addr % 4096 + len(data)] = data
        p += struct.pack("<I", addr - addr % 4096) + bytes(page)
    p += struct.pack("<I", 0) + b"END!"
    z = zlib.compress(p)
    return header(contract_id, len(p), z, zlib.crc32(p)) + z


def start_ring(ring, nbytes):
    """The host writes that start the CP on `nbytes` of commands at `ring`: RING_BASE, RING_SIZE,
    RING_WPTR, CONTROL.ENABLE."""
    return [(3, ring), (4, 4096), (5, nbytes), (1, 1)]


def read_png(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGBA PNG (what write_png writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 6, "expected RGBA8"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride, rows, prev = w * 4, [], bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 4]) for i in range(0, stride, 4)])
        prev = line
    return w, h, rows


def covered(rows):
    return sum(1 for r in rows for p in r if p[:3] != BG)


# ---- small models in three formats: a cube of side 2 around the origin, 12 triangles ----------
CUBE_V = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1), (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]
# counter-clockwise seen from outside (right-handed, as OBJ, 3DS and glTF are)
CUBE_F = [(4, 5, 6), (4, 6, 7), (1, 0, 3), (1, 3, 2), (5, 1, 2), (5, 2, 6), (0, 4, 7), (0, 7, 3),
          (7, 6, 2), (7, 2, 3), (0, 1, 5), (0, 5, 4)]


def write_obj(path, faces=CUBE_F):
    with open(path, "w") as f:
        f.write("# cube\n" + "".join(f"v {x} {y} {z}\n" for x, y, z in CUBE_V))
        f.write("".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces))


def chunk(cid, body):
    return struct.pack("<HI", cid, 6 + len(body)) + body


def write_3ds(path):
    verts = struct.pack("<H", len(CUBE_V)) + b"".join(struct.pack("<3f", *v) for v in CUBE_V)
    faces = struct.pack("<H", len(CUBE_F)) + b"".join(struct.pack("<4H", a, b, c, 0) for a, b, c in CUBE_F)
    mesh = chunk(0x4100, chunk(0x4110, verts) + chunk(0x4120, faces))
    obj = chunk(0x4000, b"cube\0" + mesh)
    data = chunk(0x4D4D, chunk(0x0002, struct.pack("<I", 3)) + chunk(0x3D3D, obj))
    open(path, "wb").write(data)


def write_gltf(path):
    pos = b"".join(struct.pack("<3f", *v) for v in CUBE_V)
    idx = b"".join(struct.pack("<3H", *f) for f in CUBE_F)
    buf = pos + idx
    g = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos)},
                        {"buffer": 0, "byteOffset": len(pos), "byteLength": len(idx)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-1, -1, -1], "max": [1, 1, 1]},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
    }
    json.dump(g, open(path, "w"))


def write_png_rgb(path, rows):
    """An 8-bit RGB PNG of rows of (r, g, b) tuples."""
    w, h = len(rows[0]), len(rows)
    raw = b"".join(b"\0" + bytes(c for p in r for c in p) for r in rows)

    def chunk_(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    data = chunk_(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk_(b"IDAT", zlib.compress(raw))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + data + chunk_(b"IEND", b""))


def write_two_cubes(path, near_first):
    """Two cubes of side 1, one behind the other along z (partly overlapping on screen from the
    front): file order near then far, or far then near."""
    near = [(x * 0.6 - 0.3, y * 0.6, z * 0.6 + 1.0) for x, y, z in CUBE_V]
    far = [(x * 0.6 + 0.3, y * 0.6, z * 0.6 - 1.0) for x, y, z in CUBE_V]
    parts = [near, far] if near_first else [far, near]
    with open(path, "w") as f:
        for i, vs in enumerate(parts):
            f.write("".join(f"v {x} {y} {z}\n" for x, y, z in vs))
        for i in range(2):
            f.write("".join(f"f {a + 1 + 8 * i} {b + 1 + 8 * i} {c + 1 + 8 * i}\n" for a, b, c in CUBE_F))


def write_quad_uv(path):
    """A square facing +z (counter-clockwise from there), uv (0, 0) at its bottom left: the
    model files' convention (OpenGL's: v = 0 at the bottom of the image)."""
    with open(path, "w") as f:
        f.write("v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n")
        f.write("f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--captures", default="out/test/captures")
    a = ap.parse_args()
    os.chdir(ROOT)
    tool, sim = os.path.join(a.build, "pineda"), os.path.join(a.build, "pineda_sim")
    tmp = tempfile.mkdtemp(prefix="pineda_cli_", dir="out/test" if os.path.isdir("out/test") else None)

    rc, out = run([tool, "--help"])
    check("help", rc == 0 and all(c in out for c in ("render", "capture", "replay", "info", "scenes")), out[-300:])
    for sub in ("render", "capture", "replay", "info", "scenes"):
        rc, out = run([tool, sub, "--help"])
        check(f"help {sub}", rc == 0 and "Usage" in out, out[-200:])
    rc, out = run([tool, "render", "--help"])
    check("help describes depth, sorting and shading", "depth buffer" in out and "--sort" in out and "--no-sort" in out
          and "Gouraud" in out, out[-300:])

    # Every format: 64x64, the cube in the middle covering a good part of the view but not all.
    models = {"obj": write_obj, "3ds": write_3ds, "gltf": write_gltf}
    shots = {}
    for ext, writer in models.items():
        m = os.path.join(tmp, "cube." + ext)
        writer(m)
        png = os.path.join(tmp, f"cube_{ext}.png")
        rc, out = run([tool, "render", m, "--size", "64x64", "--out", png])
        ok = rc == 0 and os.path.exists(png)
        if ok:
            w, h, rows = read_png(png)
            n = covered(rows)
            shots[ext] = rows
            ok = (w, h) == (64, 64) and 800 < n < 3600 and "12 triangles" in out
            why = f"{w}x{h}, {n} pixels covered; {out.strip()[-200:]}"
        else:
            why = out[-300:]
        check(f"render {ext}", ok, why)
    # The three formats describe the same cube: the same pixels covered (the default materials, so
    # the colours, differ between formats).
    if len(shots) == 3:
        masks = {e: [[p[:3] != BG for p in r] for r in rows] for e, rows in shots.items()}
        check("formats agree", masks["obj"] == masks["3ds"] == masks["gltf"], "the OBJ, 3DS and glTF cubes cover different pixels")
    # Culling is live: with the faces wound inside out, back-face culling leaves the far inside faces.
    inv = os.path.join(tmp, "inside_out.obj")
    write_obj(inv, [(a_, c, b) for a_, b, c in CUBE_F])
    png = os.path.join(tmp, "inside_out.png")
    rc, out = run([tool, "render", inv, "--size", "64x64", "--out", png])
    check("cull back hides the front", rc == 0 and read_png(png)[2] != shots.get("obj"), out[-200:])
    rc, out = run([tool, "render", inv, "--size", "64x64", "--cull", "none", "--out", png])
    check("cull none", rc == 0 and covered(read_png(png)[2]) > 800, out[-200:])
    # The depth buffer: two overlapping cubes give the same picture in either file order, and
    # painter's order (--sort) gives it too; --no-sort (the default) is accepted.
    pics = []
    for near_first in (True, False):
        m = os.path.join(tmp, f"two_{int(near_first)}.obj")
        write_two_cubes(m, near_first)
        for opt in ([], ["--sort"], ["--no-sort"]):
            png = os.path.join(tmp, "two.png")
            rc, out = run([tool, "render", m, "--size", "64x64", "--camera", "10,10", *opt, "--out", png])
            pics.append(read_png(png)[2] if rc == 0 else None)
    check("depth test: file order and --sort do not change the picture", pics[0] is not None
          and all(p == pics[0] for p in pics) and covered(pics[0]) > 600, out[-200:])
    # Shading: face normals are flat (a few colours on the cube), --smooth is Gouraud (gradients).
    m = os.path.join(tmp, "cube.obj")
    ncol = {}
    for opt in ([], ["--smooth"]):
        png = os.path.join(tmp, "shade.png")
        rc, out = run([tool, "render", m, "--size", "64x64", *opt, "--out", png])
        ncol[bool(opt)] = len({p for r in read_png(png)[2] for p in r if p[:3] != BG}) if rc == 0 else -1
    check("flat by default, Gouraud with --smooth", 0 < ncol[False] <= 6 and ncol[True] > 30, str(ncol))
    # The texture is sampled in hardware and not mirrored: a square with uv (0, 0) at its bottom
    # left shows the image upright (red top left, green top right, blue bottom left, white bottom
    # right), seen from the front.
    tex = os.path.join(tmp, "quadrants.png")
    quad = [[(220, 30, 30) if y < 8 and x < 8 else (30, 220, 30) if y < 8 else (30, 30, 220) if x < 8
             else (220, 220, 220) for x in range(16)] for y in range(16)]
    write_png_rgb(tex, quad)
    m = os.path.join(tmp, "quad.obj")
    write_quad_uv(m)
    png = os.path.join(tmp, "quad.png")
    rc, out = run([tool, "render", m, "--size", "64x64", "--camera", "0,0", "--texture", tex, "--out", png])
    ok = rc == 0
    if ok:
        rows = read_png(png)[2]

        def dominant(x, y):
            r, g, b_ = rows[y][x][:3]
            return "white" if min(r, g, b_) > 0.7 * max(r, g, b_) else "red" if r > max(g, b_) else \
                "green" if g > max(r, b_) else "blue"
        got = [dominant(20, 20), dominant(43, 20), dominant(20, 43), dominant(43, 43)]
        ok = got == ["red", "green", "blue", "white"]
        out = f"quadrants {got}; " + out
    check("texture upright, not mirrored", ok, out[-300:])
    # Options: 4x MSAA, size, camera, texture on glmark2's cube (texture coordinates).
    png = os.path.join(tmp, "crate.png")
    rc, out = run([tool, "render", "/usr/share/glmark2/models/cube.3ds", "--msaa", "4", "--size", "48x32", "--camera",
                   "200,-30,3,50", "--texture", "/usr/share/glmark2/textures/crate-base.png", "--out", png])
    check("render msaa/size/camera/texture", rc == 0 and read_png(png)[:2] == (48, 32) and "texture" in out
          and "4x MSAA" in out, out[-300:])
    rc, out = run([tool, "render", os.path.join(tmp, "cube.obj"), "--size", "12"])
    check("bad --size refused", rc != 0 and "WxH" in out, out[-200:])
    rc, out = run([tool, "render", os.path.join(tmp, "nothing.obj")])
    check("missing model refused", rc != 0, out[-200:])
    bad = os.path.join(tmp, "bad.obj")
    open(bad, "w").write("this is not a model\n")
    rc, out = run([tool, "render", bad])
    check("unreadable model refused", rc == 2 and "pineda:" in out, out[-200:])

    # RTL and model together (a small one), saved as a capture, replayed on the RTL bit-identically.
    cap = os.path.join(tmp, "cube.pcap")
    png = os.path.join(tmp, "cube_both.png")
    rc, out = run([tool, "render", os.path.join(tmp, "cube.obj"), "--size", "64x64", "--backend", "both",
                   "--out", png, "--capture", cap])
    check("render both", rc == 0 and "RTL and model agree" in out and "rtl:" in out, out[-400:])
    check("render both: same image as the model", os.path.exists(png) and read_png(png)[2] == shots.get("obj"))
    rc, out = run([tool, "replay", cap, "--backend", "rtl", "--compare", "--no-progress"])
    check("replay rtl --compare", rc == 0 and "rtl: bit-identical to the capture" in out, out[-400:])
    rc, out = run([tool, "replay", cap, "--backend", "model", "--compare", "--out", png])
    check("replay model --compare", rc == 0 and "model: bit-identical" in out and read_png(png)[2] == shots.get("obj"),
          out[-400:])
    rc, out = run([tool, "info", cap])
    check("info", rc == 0 and "contract v" in out and "recorded result" in out and "64x64" in out, out[-300:])

    # A regression scene through `capture`, replayed on the model.
    cap2 = os.path.join(tmp, "gl_cube.pcap")
    rc, out = run([tool, "capture", "gl_cube", "--out", cap2])
    rc2, out2 = run([tool, "replay", cap2, "--compare"])
    check("capture scene -> replay", rc == 0 and rc2 == 0 and "bit-identical" in out2, (out + out2)[-400:])
    rc, out = run([tool, "capture", "no_such_scene", "--out", cap2])
    check("capture of an unknown source refused", rc == 2, out[-200:])

    # Refused files, each with its own message (exit status 2).
    good = open(cap, "rb").read()
    cases = {
        "truncated": (good[:len(good) // 2], "truncated capture"),
        "corrupted payload": (good[:200] + bytes([good[200] ^ 0x20]) + good[201:], "corrupted capture"),
        "corrupted header": (good[:20] + bytes([good[20] ^ 1]) + good[21:], "header checksum"),
        "wrong version": (good[:8] + struct.pack("<I", 7) + good[12:], "format version 7"),
        "not a capture": (b"hello world, this is not a capture file at all.........", "not a Pineda capture"),
        "empty": (b"", "not a Pineda capture"),
    }
    for name, (data, msg) in cases.items():
        p = os.path.join(tmp, "bad.pcap")
        open(p, "wb").write(data)
        rc, out = run([tool, "replay", p])
        check(f"refused: {name}", rc == 2 and msg in out, out[-300:])

    # Hostile files (issue 28): every size read from a file is checked before it is used, nothing is
    # allocated for what a header merely claims, and a replay that never ends stops at its budget.
    cid = struct.unpack_from("<I", good, 12)[0]
    target = (0x00100000, 256, 64, 64, 1, 0)  # base, pitch, width, height, samples, RT_FMT_RGBA8
    huge = os.path.join(tmp, "huge_target.pcap")
    open(huge, "wb").write(capture_file(cid, (0x00100000, 256, 1073758208, 4294901761, 1, 0), [], []))
    rc, out = run([tool, "replay", huge, "--out", os.path.join(tmp, "huge.png")])
    check("refused: a render target of 1073758208 x 4294901761 (read_rgba overflow)",
          rc == 2 and "render target of 1073758208x4294901761 pixels" in out, out[-300:])
    claim = os.path.join(tmp, "claim.pcap")
    garbage = bytes((i * 2654435761 >> 13) & 0xFF for i in range(1 << 20))
    open(claim, "wb").write(header(cid, 1 << 30, garbage) + garbage)
    rc, out = run_limited([tool, "replay", claim], 768 << 20)
    check("refused without allocating what the header claims (1 MiB claiming 1 GiB, 768 MiB address space)",
          rc == 2 and "corrupted capture" in out, out[-300:])
    ring, ib = 0x00010000, 0x00020000
    jump = struct.pack("<3I", (5 << 24) | 2, ib, 3)  # JUMP to an IB that is that same JUMP
    endless = os.path.join(tmp, "endless.pcap")
    open(endless, "wb").write(capture_file(cid, target, start_ring(ring, len(jump)), [(ring, jump), (ib, jump)]))
    rc, out = run([tool, "replay", endless, "--max-work", "3000000", "--out", ""])
    check("a ring that jumps to itself stops at the model's budget", rc == 2 and "units of work" in out
          and "loops" in out, out[-300:])
    draw = struct.pack("<6I", (10 << 24) | 5, 0, 3, 0, 0xFFFFFFFF, 0) + struct.pack("<I", 15 << 24)
    open(endless, "wb").write(capture_file(cid, target, start_ring(ring, len(draw)), [(ring, draw)]))
    rc, out = run([tool, "replay", endless, "--max-work", "3000000", "--out", ""])
    check("a draw of 2^32 - 1 instances stops at the model's budget", rc == 2 and "units of work" in out, out[-300:])
    rc, out = run([tool, "replay", endless, "--max-work", "0", "--timeout", "2", "--out", ""])
    check("... and at the model's --timeout", rc == 2 and "units of work" in out, out[-300:])
    other = os.path.join(tmp, "other_device.pcap")
    open(other, "wb").write(capture_file(0x12345678, target, [], []))
    rc, out = run([tool, "info", other])
    check("info names an unknown device", rc == 0 and "unknown device (REG_ID 0x12345678)" in out
          and "contract v" not in out, out[-300:])
    for opt, val in (("--camera", "nan,nan"), ("--camera", "0,0,inf"), ("--rotate", "nan,0,0"), ("--camera", "0,0,-1")):
        rc, out = run([tool, "render", os.path.join(tmp, "cube.obj"), opt, val, "--size", "8x8", "--out", ""])
        check(f"render {opt} {val} refused", rc != 0 and opt in out, out[-300:])

    # pineda_sim: --capture, the HTML report.
    simout, capdir = os.path.join(tmp, "sim"), os.path.join(tmp, "caps")
    # om_b5g6r5 / om_bgra8: the capture records the target's format (version 2) and the replay
    # decodes it as pineda_sim's PNG does (version 1 showed them as RGBA8).
    shown = ("scissor", "gl_cube", "om_b5g6r5", "om_bgra8")
    rc, out = run([sim, "--out", simout, "--capture", capdir, *shown])
    check("pineda_sim --capture", rc == 0 and sorted(os.listdir(capdir)) == sorted(n + ".pcap" for n in shown), out[-300:])
    html = os.path.join(simout, "index.html")
    ok = os.path.exists(html)
    h = open(html).read() if ok else ""
    check("HTML report", ok and h.count("class=pass>PASS") == 4 and 'src="scissor.png"' in h and "class=unit" in h
          and "4 passed, 0 failed" in h, h[-300:])
    for name in shown:
        rc, out = run([tool, "replay", os.path.join(capdir, name + ".pcap"), "--compare", "--out", os.path.join(tmp, "r.png")])
        same_img = read_png(os.path.join(tmp, "r.png")) == read_png(os.path.join(simout, name + ".png"))
        check(f"pineda_sim capture {name} replays bit-identically, same image", rc == 0 and "bit-identical" in out
              and same_img, out[-300:])
    rc, out = run([tool, "info", os.path.join(capdir, "om_b5g6r5.pcap")])
    check("info shows the target format", rc == 0 and "95x64 B5G6R5_UNORM" in out, out[-300:])

    # Every scene the `scenes` suite captured (when it ran first) replays bit-identically on the model.
    if os.path.isdir(a.captures):
        caps = sorted(f for f in os.listdir(a.captures) if f.endswith(".pcap"))
        bad = []
        for f in caps:
            rc, out = run([tool, "replay", os.path.join(a.captures, f), "--compare", "--out", ""])
            if rc != 0 or "bit-identical" not in out:
                bad.append(f)
        check(f"all {len(caps)} scene captures replay bit-identically (model)", caps and not bad, f"failed: {bad}")

    p, f = sum(results), len(results) - sum(results)
    print(f"{p} passed, {f} failed")
    sys.exit(1 if f else 0)


if __name__ == "__main__":
    main()
