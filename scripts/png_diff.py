#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare the PNGs of two directories pixel by pixel (e.g. pineda_sim runs before and after a
numerics change): per image the pixels that moved, the largest channel difference and a
histogram of the per-pixel largest channel difference. Reads the 8-bit RGB / RGBA,
non-interlaced PNGs sim/png_writer.cpp writes; no third-party modules.

usage: scripts/png_diff.py DIR_A DIR_B [scene-prefix ...]
"""
import os
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                raise ValueError(f"{path}: only 8-bit RGB / RGBA, non-interlaced")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def compare(pa, pb):
    wa, ha, bpa, ra = read_png(pa)
    wb, hb, bpb, rb = read_png(pb)
    if (wa, ha, bpa) != (wb, hb, bpb):
        return None
    hist, moved, worst = {}, 0, 0
    for y in range(ha):
        la, lb = ra[y], rb[y]
        if la == lb:
            continue
        for x in range(wa):
            d = max(abs(la[x * bpa + c] - lb[x * bpa + c]) for c in range(bpa))
            if d:
                moved += 1
                worst = max(worst, d)
                hist[d] = hist.get(d, 0) + 1
    return wa * ha, moved, worst, hist


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    a, b, prefixes = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = sorted(n for n in os.listdir(a) if n.endswith(".png")
                   and not any(t in n for t in (".model.", ".rtl.", ".diff."))
                   and (not prefixes or any(n.startswith(p) for p in prefixes)))
    total_px = total_moved = 0
    print(f"{'image':36} {'pixels':>8} {'moved':>7} {'%':>6} {'max':>4}  histogram (largest channel difference: pixels)")
    for n in names:
        pb = os.path.join(b, n)
        if not os.path.exists(pb):
            print(f"{n:36} missing in {b}")
            continue
        r = compare(os.path.join(a, n), pb)
        if r is None:
            print(f"{n:36} size or format differs")
            continue
        px, moved, worst, hist = r
        total_px += px
        total_moved += moved
        hs = ", ".join(f"{d}: {hist[d]}" for d in sorted(hist))
        print(f"{n:36} {px:8} {moved:7} {100.0 * moved / px:6.2f} {worst:4}  {hs}")
    if total_px:
        print(f"{'total':36} {total_px:8} {total_moved:7} {100.0 * total_moved / total_px:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
