#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the benchmark JSON written by `pineda_sim --json` as tables (one per scene).

busy / stalled / starved come from the RTL's perf counters (docs/contract.md section 6); rate is
the unit's work over all cycles of the scene, rate/fed its work over the cycles it was not
starved, %peak the rate against the unit's peak per clock."""
import json
import os
import sys


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "out/bench/bench.json"
    doc = json.load(open(path))
    print(f"benchmark: latency={doc['latency']} jitter={doc['jitter']} "
          f"bandwidth={doc['bandwidth']} throttle={doc['throttle']} seed={doc['seed']}")
    for s in doc["scenes"]:
        if "units" not in s:
            print(f"\n{s['scene']}: no figures ({'ok' if s.get('ok') else 'failed'})")
            continue
        cyc = s["cycles"]
        print(f"\n{s['scene']}: {cyc} cycles, {s['pixels']} pixels, "
              f"{s['tiles_visited']} tile decisions, {s['tiles_emitted']} tiles to fine, "
              f"memory {s['memory']['reads']} reads / {s['memory']['writes']} writes")
        print(f"  {'unit':7s} {'busy':>7s} {'stalled':>8s} {'starved':>8s} {'rate':>9s} "
              f"{'peak':>6s} {'%peak':>6s} {'rate/fed':>9s}  unit of rate")
        for name in ["CP", "IA", "SETUP", "COARSE", "FINE", "PW"]:
            u = s["units"][name]
            print(f"  {name:7s} {100*u['busy']/cyc:6.1f}% {100*u['stalled']/cyc:7.1f}% "
                  f"{100*u['starved']/cyc:7.1f}% {u['rate']:9.3f} {u['peak']:6.1f} "
                  f"{100*u['fraction_of_peak']:5.1f}% {u['rate_when_fed']:9.3f}  {u['rate_unit']}")
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
    area = "out/synth/area.json"
    if os.path.exists(area):
        print(f"\narea: see {area} (make synth)")


if __name__ == "__main__":
    main()
