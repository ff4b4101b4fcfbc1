#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the benchmark JSON written by `pineda_sim --json` as tables (one per scene).

busy / stalled / starved come from the RTL's perf counters (docs/contract.md section 6); rate is
the unit's work over all cycles of the scene, rate/fed its work over the cycles it was not
starved, %peak the rate against the unit's peak per clock. The memory lines come from the DRAM model
(bytes per line client: every request moves a 64-byte line; bytes per pixel over the pixels the
scene writes; achieved bytes/clock against the configured peak) and from the line arbiter's
counters (requests granted, cycles a client waited with a request valid and not accepted). The
summary at the end has one row per scene."""
import json
import os
import sys


def fast_clear_table(on_path, off_path):
    """Depth scenes with ZS's fast clear and with CONTROL.NO_FAST_CLEAR (pineda_sim --no-fast-clear):
    ZS samples/clock and depth-buffer bytes per pixel (ZS's line traffic plus the DMA fill of the
    depth clears), cycles."""
    on = {s["scene"]: s for s in json.load(open(on_path))["scenes"] if "zs" in s}
    off = {s["scene"]: s for s in json.load(open(off_path))["scenes"] if "zs" in s}
    print("\ndepth fast clear (ZS) vs NO_FAST_CLEAR (DMA fill): depth bytes = ZS line reads+writes + depth fill")
    print(f"{'scene':22s} {'ZS smp/clk':>10s} {'fast B/px':>9s} {'fill B/px':>9s} {'saved':>6s} "
          f"{'fast cycles':>11s} {'fill cycles':>11s} {'ZS B fast':>10s} {'ZS+fill B':>10s}")
    for name, a in on.items():
        b = off.get(name)
        if b is None or not a["zs"]["samples_tested"]:
            continue
        za, zb = a["zs"], b["zs"]
        ta, tb = za.get("depth_total_bytes_per_pixel", 0.0), zb.get("depth_total_bytes_per_pixel", 0.0)
        print(f"{name:22s} {a['units']['ZS']['rate']:10.3f} {ta:9.2f} {tb:9.2f} "
              f"{(100 * (1 - ta / tb) if tb else 0):5.1f}% {a['cycles']:11d} {b['cycles']:11d} "
              f"{za.get('depth_total_bytes', 0):10d} {zb.get('depth_total_bytes', 0):10d}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--fast-clear":
        fast_clear_table(sys.argv[2], sys.argv[3])
        return
    path = sys.argv[1] if len(sys.argv) > 1 else "out/bench/bench.json"
    doc = json.load(open(path))
    print(f"benchmark: latency={doc['latency']} jitter={doc['jitter']} "
          f"bandwidth={doc['bandwidth']} bytes/clock throttle={doc['throttle']} seed={doc['seed']}")
    summary = []
    for s in doc["scenes"]:
        if "units" not in s:
            print(f"\n{s['scene']}: no figures ({'ok' if s.get('ok') else 'failed'})")
            continue
        cyc = s["cycles"]
        m = s["memory"]
        print(f"\n{s['scene']}: {cyc} cycles, {s['pixels']} pixels ({s['pixels']/cyc:.3f}/clock), "
              f"{s['tiles_visited']} tile decisions, {s['tiles_emitted']} tiles to fine, "
              f"memory {m['reads']} line reads / {m['writes']} line writes")
        print(f"  {'unit':7s} {'busy':>7s} {'stalled':>8s} {'starved':>8s} {'rate':>9s} "
              f"{'peak':>6s} {'%peak':>6s} {'rate/fed':>9s}  unit of rate")
        for name in ["CP", "IA", "SETUP", "COARSE", "FINE", "ZS", "PW"]:
            if name not in s["units"]:
                continue
            u = s["units"][name]
            print(f"  {name:7s} {100*u['busy']/cyc:6.1f}% {100*u['stalled']/cyc:7.1f}% "
                  f"{100*u['starved']/cyc:7.1f}% {u['rate']:9.3f} {u['peak']:6.1f} "
                  f"{100*u['fraction_of_peak']:5.1f}% {u['rate_when_fed']:9.3f}  {u['rate_unit']}")
        if "zs" in s:
            z = s["zs"]
            print(f"  ZS: {z['samples']:.0f} samples in ({s['units']['ZS']['rate']:.3f} samples/clock), "
                  f"{z['samples_tested']} tested, {z['samples_passed']} passed, {z['quads_dropped']} quads dropped; "
                  f"depth {z['depth_bytes']} bytes = {z['depth_bytes_per_pixel']:.2f} bytes/pixel"
                  + (f", with the depth clears' DMA fill {z['depth_total_bytes_per_pixel']:.2f} bytes/pixel "
                     f"({z['fast_clears']} fast clears)" if "depth_total_bytes" in z else ""))
        if "om" in s and (s["om"]["blended_quads"] or s["scene"].startswith("om_")):
            o = s["om"]
            print(f"  OM: {o['format']} target ({o['bytes_per_pixel_format']} B/pixel), {o['blended_quads']} blended "
                  f"quads ({o['blended_quads_per_clock']:.3f}/clock), {o['fills']} line fills, colour "
                  f"{o['colour_bytes']} bytes = {o['colour_bytes_per_pixel']:.2f} bytes/pixel")
        if "interp" in s and s["interp"]["gouraud_quads"]:
            i = s["interp"]
            print(f"  INTERP: {i['quads']} quads ({i['gouraud_quads']} Gouraud), {i['quads_per_clock']:.3f} quads/clock, "
                  f"{i['quads_per_clock_fed']:.3f} quads/clock when fed ({i['fed_cycles']} cycles with a quad "
                  f"offered; peak {i['peak']:g})")
        if "tex" in s and s["tex"]["quads"]:
            x = s["tex"]
            print(f"  TEX: {x['quads']} quads, {x['samples']} samples ({x['trilinear_samples']} trilinear) = "
                  f"{x['bilinear_samples']} bilinear samples: {x['bilinear_samples_per_clock']:.3f}/clock "
                  f"({100*x['fraction_of_peak']:.1f}% of peak {x['peak']:g}), "
                  f"{x['bilinear_samples_per_clock_fed']:.3f}/clock over the {x['fed_cycles']} cycles a quad was offered to the pixel path "
                  f"({100*x['fraction_of_peak_fed']:.1f}%); {x['texels_per_clock']:.2f} texels/clock, "
                  f"L1 hit rate {100*x['hit_rate']:.1f}% ({x['texels']} texels, {x['lines']} lines), "
                  f"{x['bytes_per_sample']:.2f} texture bytes/pixel")
        if "hiz" in s and s["hiz"]["tested"]:
            h = s["hiz"]
            print(f"  Hi-Z: {h['tested']:.0f} tiles tested ({h['tested_per_clock']:.3f}/clock), {h['rejected']:.0f} "
                  f"rejected ({h['rejected_per_clock']:.3f}/clock); {h['occluded_tiles']:.0f} occluded tiles, "
                  f"{100*h['fraction_occluded_culled']:.1f}% culled by Hi-Z")
        if "clients" in m:
            print(f"  memory: {m['bytes_per_clock']:.2f} of {m['peak_bytes_per_clock']:g} bytes/clock "
                  f"({100*m['fraction_of_peak']:.1f}% of peak), {m['bytes_per_pixel']:.2f} bytes/pixel")
            print(f"  {'client':7s} {'reads':>8s} {'writes':>8s} {'B read':>10s} {'B written':>10s} "
                  f"{'B enabled':>10s} {'B/pixel':>8s} {'granted':>8s} {'waited':>9s} {'wait/req':>8s}")
            for name, c in m["clients"].items():
                print(f"  {name:7s} {c['reads']:8d} {c['writes']:8d} {c['bytes_read']:10d} "
                      f"{c['bytes_written']:10d} {c['bytes_enabled']:10d} {c['bytes_per_pixel']:8.2f} "
                      f"{c['arb_grants']:8d} {c['arb_wait_cycles']:9d} {c['arb_wait_per_request']:8.2f}")
            summary.append((s["scene"], cyc, s["pixels"], m))
        if "rasterizers" in s:
            print(f"  rasterizers {s['rasterizers']}: {s['decisions_per_covered_tile']:.3f} tile decisions per "
                  f"covered tile (box walk {s['bbox_per_covered_tile']:.2f}), fine utilisation "
                  f"{100*s['fine_utilisation']:.1f}%, busy {s['rast_busy']} (imbalance {s['load_imbalance']:.3f})")
        if "front_end" in s:
            f = s["front_end"]
            print(f"  front end: {f['draws']} draws, busy {f['busy_cycles']} cycles; {f['indices']} indices "
                  f"({f['indices_per_clock']:.3f}/clock busy), {f['vertices']} vertices for {f['triangles']} "
                  f"triangles (ACMR {f['acmr']:.3f}, hit rate {100*f['hit_rate']:.1f}%, {f['batches']} batches, "
                  f"{f['vertex_dwords_read']} vertex dwords read)")
            print(f"  PA: {f['pa_in']} in -> {f['pa_out']} out ({f['pa_out_per_clock']:.3f} triangles/clock busy), "
                  f"{f['clipped']} clipped, {f['rejected']} rejected, {f['culled_face']} face / "
                  f"{f['culled_area']} area / {f['culled_empty']} empty culled, {f['nan']} NaN; "
                  f"clipper occupancy {100*f['clipper_occupancy']:.1f}%")
    if summary:
        print(f"\n{'scene':18s} {'cycles':>9s} {'pixels':>8s} {'px/clock':>8s} {'B/pixel':>8s} "
              f"{'B/clock':>8s} {'%peak':>6s}  bytes read+written per client")
        for name, cyc, px, m in summary:
            per = ", ".join(f"{k} {c['bytes_read'] + c['bytes_written']}" for k, c in m["clients"].items()
                            if c["bytes_read"] + c["bytes_written"])
            print(f"{name:18s} {cyc:9d} {px:8d} {px/cyc:8.3f} {m['bytes_per_pixel']:8.2f} "
                  f"{m['bytes_per_clock']:8.2f} {100*m['fraction_of_peak']:5.1f}%  {per}")
    # Output merger (docs/om.md): per om_* scene, the target format, blended quads per clock and
    # PW's colour traffic (line writes + fill reads) per pixel written.
    om = [s for s in doc["scenes"] if "om" in s and s["scene"].startswith("om_")]
    if om:
        print(f"\n{'om scene':18s} {'format':>10s} {'B/px fmt':>8s} {'cycles':>9s} {'blended q':>9s} "
              f"{'bq/clock':>8s} {'fills':>7s} {'colour B/px':>11s}")
        for s in om:
            o = s["om"]
            print(f"{s['scene']:18s} {o['format']:>10s} {o['bytes_per_pixel_format']:8d} {s['cycles']:9d} "
                  f"{o['blended_quads']:9d} {o['blended_quads_per_clock']:8.3f} {o['fills']:7d} "
                  f"{o['colour_bytes_per_pixel']:11.2f}")
    # Texturing (docs/tex.md): per textured scene, TEX's bilinear samples per clock against its peak
    # (4: one quad pass per clock; a trilinear sample is two bilinear samples), texels read from
    # the L1 per clock, the L1 hit rate and the texture bytes (line responses) per sampled pixel.
    tex = [s for s in doc["scenes"] if "tex" in s and s["tex"]["quads"]]
    if tex:
        print(f"\n{'tex scene':20s} {'cycles':>8s} {'quads':>6s} {'bil smp':>8s} {'smp/clk':>7s} {'%peak':>6s} "
              f"{'fed clk':>8s} {'smp/fed':>7s} {'%peak':>6s} {'texel/clk':>9s} {'L1 hit':>7s} {'B/px':>6s}")
        for s in tex:
            x = s["tex"]
            print(f"{s['scene']:20s} {s['cycles']:8d} {x['quads']:6d} {x['bilinear_samples']:8d} "
                  f"{x['bilinear_samples_per_clock']:7.3f} {100*x['fraction_of_peak']:5.1f}% {x['fed_cycles']:8d} "
                  f"{x['bilinear_samples_per_clock_fed']:7.3f} {100*x['fraction_of_peak_fed']:5.1f}% "
                  f"{x['texels_per_clock']:9.2f} {100*x['hit_rate']:6.1f}% {x['bytes_per_sample']:6.2f}")
    # The occlusion scene with Hi-Z on and off (FE_DEPTH.DEPTH_HIZ; scenes_depth.cpp).
    cyc = {s["scene"]: s["cycles"] for s in doc["scenes"] if "cycles" in s}
    if "ds_occlusion" in cyc and "ds_occlusion_nohiz" in cyc:
        on, off = cyc["ds_occlusion"], cyc["ds_occlusion_nohiz"]
        print(f"\nHi-Z occlusion scene: {on} cycles with Hi-Z on, {off} with Hi-Z off ({off/on:.2f}x)")
    area_per_work(doc, "out/synth/area.json")
    sim_speed(doc)


def sim_speed(doc):
    """Simulation speed: per scene, the RTL run's wall time and CPU time (the Verilated top, the
    harness and its stream comparison with the model) and simulated cycles per second of each.
    Wall-clock figures depend on the machine and its load; CPU time much less so (compare those
    on a shared machine). The total is cycles over seconds of all scenes."""
    rows = [s for s in doc["scenes"] if s.get("rtl_seconds")]
    if not rows:
        return
    print("\nsimulation speed (Verilated pineda_top with the harness; machine-dependent):")
    print(f"{'scene':20s} {'cycles':>9s} {'RTL s':>7s} {'cycles/s':>9s} {'CPU s':>7s} {'cyc/CPU s':>9s}")

    def cpu(s):
        return s.get("rtl_cpu_seconds", 0.0)

    def rate(c, t):
        return f"{c / t:9.0f}" if t > 0 else f"{'-':>9s}"
    for s in rows:
        print(f"{s['scene']:20s} {s['cycles']:9d} {s['rtl_seconds']:7.2f} {rate(s['cycles'], s['rtl_seconds'])} "
              f"{cpu(s):7.2f} {rate(s['cycles'], cpu(s))}")
    cyc = sum(s["cycles"] for s in rows)
    sec = sum(s["rtl_seconds"] for s in rows)
    csec = sum(cpu(s) for s in rows)
    print(f"{'all scenes':20s} {cyc:9d} {sec:7.2f} {rate(cyc, sec)} {csec:7.2f} {rate(cyc, csec)}")


def area_per_work(doc, area_path):
    """Area per unit of work: pineda_top's LUT4 (make synth, docs/synthesis.md) over each scene's
    pixels/clock and (scenes through the front end) triangles into PA per clock."""
    if not os.path.exists(area_path):
        print("\narea per unit of work: run 'make synth' for out/synth/area.json")
        return
    try:
        with open(area_path) as f:
            cfgs = json.load(f).get("configs", {})
    except (OSError, ValueError):
        cfgs = {}
    if not cfgs:
        print(f"\narea per unit of work: {area_path} is not from the whole-GPU flow (make synth)")
        return
    print(f"\narea per unit of work (pineda_top LUT4 from {area_path}, with the scene's NumRast):")
    print(f"{'scene':18s} {'NumRast':>7s} {'LUT4':>7s} {'px/clock':>8s} {'LUT4/(px/clk)':>13s} "
          f"{'tri/clock':>9s} {'LUT4/(tri/clk)':>14s}")
    for s in doc["scenes"]:
        if "units" not in s or not s["cycles"]:
            continue
        n = s.get("rasterizers", 1)
        cfg = cfgs.get(f"NumRast={n}")
        if cfg is None:
            continue
        lut = cfg["total"]["lut4"]
        px = s["pixels"] / s["cycles"]
        tri = s["front_end"]["pa_in"] / s["cycles"] if "front_end" in s and s["front_end"].get("pa_in") else 0
        print(f"{s['scene']:18s} {n:7d} {lut:7d} {px:8.3f} "
              f"{(f'{lut / px:13.0f}') if px else '            -'} "
              f"{tri:9.3f} {(f'{lut / tri:14.0f}') if tri else '             -'}")


if __name__ == "__main__":
    main()
