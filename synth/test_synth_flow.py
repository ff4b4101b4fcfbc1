#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fast self-test of the synthesis bookkeeping (no Yosys): RTLIL split, cache keys, tree sums,
table rows, logic depth, dump parsing and the baseline check.

    python3 synth/test_synth_flow.py        (make synth-selftest)
"""
import copy
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_baseline  # noqa: E402
import check_budget  # noqa: E402
import hier  # noqa: E402

RTLIL = r"""
autoidx 9
attribute \src "rtl/leaf.sv:1.1-9.10"
module $paramod\leaf\W=32'00000000000000000000000000000100
  parameter \W 4
  attribute \src "rtl/leaf.sv:2.3-2.9"
  wire width 4 input 1 \a_i
  wire width 4 output 2 \y_o
  wire width 4 $add$rtl/leaf.sv:5$3_Y
  cell $add $add$rtl/leaf.sv:5$3
    parameter \A_WIDTH 4
    connect \A \a_i
    connect \Y $add$rtl/leaf.sv:5$3_Y
  end
end
attribute \src "rtl/mid.sv:1.1-9.10"
module \mid
  wire width 4 input 1 \a_i
  wire width 4 output 2 \y_o
  cell $paramod\leaf\W=32'00000000000000000000000000000100 \u_leaf
    connect \a_i \a_i
    connect \y_o \y_o
  end
end
attribute \src "rtl/front_end.sv:1.1-9.10"
module \front_end
  wire width 4 input 1 \a_i
  wire width 4 output 2 \y_o
  cell \mid \u_mid
    connect \a_i \a_i
  end
  cell $paramod\leaf\W=32'00000000000000000000000000000100 \u_l2
    connect \a_i \a_i
  end
end
attribute \src "rtl/top.sv:1.1-9.10"
module \pineda_top
  wire width 4 input 1 \a_i
  cell \front_end \u_fe
    connect \a_i \a_i
  end
  cell \mid \u_m0
    connect \a_i \a_i
  end
  cell \mid \u_m1
    connect \a_i \a_i
  end
  cell $and $and$rtl/top.sv:7$8
    connect \A \a_i
  end
end
"""

LEAF = "$paramod\\leaf\\W=32'00000000000000000000000000000100"


def fake_result(lut4, ffs=0, bram=0, bits=0, secs=1.0, arrays=()):
    return {"ok": True, "seconds": secs, "cached": True,
            "stat": {"lut4": lut4, "carry": 0, "ffs": ffs, "bram": bram, "dsp": 0, "other": {}},
            "mem_bram": [{"name": "m", "width": 1, "depth": bits, "bits": bits, "src": ""}] if bits else [],
            "ff_arrays": list(arrays)}


PKG = """package p;
  localparam int unsigned A_W = 32'd8;  // a width
  localparam int unsigned B_W = A_W + 32'd1;
  localparam int unsigned C_W = 32'd3;
  typedef enum logic [1:0] {
    K_ZERO = 2'd0,
    K_ONE = 2'd1
  } k_e;
  typedef struct packed {
    logic [B_W-1:0] b;  // uses B_W, so A_W
    k_e k;
  } s_t;
  function automatic logic [7:0] f(input logic [7:0] x);
    return x + 8'd1;
  endfunction
endpackage
"""


class PackageUseTest(unittest.TestCase):
    """Module cache keys cover only the package items a module's source names (transitively)."""

    def h(self, src, pkg=PKG):
        return hier.package_use_hash(src, hier.package_items(pkg))

    def test_items(self):
        items = hier.package_items(PKG)
        self.assertEqual([n for n, _ in items],
                         [["A_W"], ["B_W"], ["C_W"], ["k_e", "K_ZERO", "K_ONE"], ["s_t"], ["f"]])
        self.assertIsNone(hier.package_items(PKG.replace("localparam int unsigned C_W", "wire C_W")))

    def test_use_hash(self):
        uses_s = "module m import p::*; (input s_t s_i); endmodule"
        uses_c = "module n (output logic [p::C_W-1:0] c_o); endmodule"
        k_s, k_c = self.h(uses_s), self.h(uses_c)
        # A_W is used through s_t -> B_W -> A_W: an edit moves m's key, not n's
        pkg2 = PKG.replace("A_W = 32'd8", "A_W = 32'd9")
        self.assertNotEqual(k_s, self.h(uses_s, pkg2))
        self.assertEqual(k_c, self.h(uses_c, pkg2))
        # an enumerator of the struct's enum
        pkg3 = PKG.replace("K_ONE = 2'd1", "K_ONE = 2'd3")
        self.assertNotEqual(k_s, self.h(uses_s, pkg3))
        # comments and items nobody names leave both keys alone
        pkg4 = PKG.replace("// a width", "// the width of a").replace("x + 8'd1", "x + 8'd2")
        self.assertEqual((k_s, k_c), (self.h(uses_s, pkg4), self.h(uses_c, pkg4)))
        self.assertNotEqual(self.h("module q; wire [7:0] y = f(8'd0); endmodule"),
                            self.h("module q; wire [7:0] y = f(8'd0); endmodule", pkg4))

    def test_generated_package_parses(self):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(root, "rtl", "common", "pineda_pkg.sv")) as f:
            items = hier.package_items(f.read())
        self.assertIsNotNone(items, "pineda_pkg.sv no longer parses: every module would depend on all of it")
        self.assertGreater(len(items), 100)


class RtlilTest(unittest.TestCase):
    def setUp(self):
        self.mods = hier.parse_rtlil(RTLIL)

    def test_parse(self):
        self.assertEqual(set(self.mods), {LEAF, "\\mid", "\\front_end", "\\pineda_top"})
        self.assertEqual(hier.tops_of(self.mods), ["\\pineda_top"])
        self.assertEqual(hier.children(self.mods, "\\pineda_top"), ["\\front_end", "\\mid"])
        self.assertEqual(len(self.mods[LEAF]["ports"]), 2)
        self.assertEqual(hier.base_name(LEAF), "leaf")
        self.assertEqual(hier.base_name("$paramod$0123abc\\sram_fifo"), "sram_fifo")
        self.assertEqual(hier.module_src(self.mods["\\mid"]), "rtl/mid.sv")

    def test_job_text_stubs_children(self):
        text, kids = hier.job_text(self.mods, "\\front_end")
        self.assertEqual(kids, ["\\mid", LEAF])
        self.assertIn("attribute \\blackbox 1\nmodule \\child0\n", text)
        self.assertIn("  cell \\child0 \\u_mid", text)
        self.assertIn("  cell \\child1 \\u_l2", text)
        self.assertIn("module \\top\n", text)
        # stubs hold ports only
        stub = text.split("module \\child1\n")[1].split("end\n")[0]
        self.assertNotIn("cell", stub)

    def key(self, mods, name, fh=None, common="c"):
        fh = fh or {"rtl/leaf.sv": "L", "rtl/mid.sv": "M", "rtl/front_end.sv": "F", "rtl/top.sv": "T"}
        return hier.job_key(name, hier.job_text(mods, name)[0], mods, fh, common, "tool")

    def test_cache_key(self):
        k = self.key(self.mods, "\\mid")
        self.assertEqual(k, self.key(self.mods, "\\mid"))
        # own source changes -> new key; a child's source does not (only its ports count)
        self.assertNotEqual(k, self.key(self.mods, "\\mid", {"rtl/mid.sv": "M2", "rtl/leaf.sv": "L"}))
        self.assertEqual(k, self.key(self.mods, "\\mid", {"rtl/mid.sv": "M", "rtl/leaf.sv": "L2"}))
        # packages/includes -> new key
        self.assertNotEqual(k, self.key(self.mods, "\\mid", common="c2"))
        # a child's port width -> new key
        mods = hier.parse_rtlil(RTLIL.replace("wire width 4 output 2 \\y_o\n  wire width 4 $add",
                                              "wire width 5 output 2 \\y_o\n  wire width 4 $add"))
        self.assertNotEqual(k, self.key(mods, "\\mid"))
        # the child's body (not its ports) -> same key for the parent
        mods = hier.parse_rtlil(RTLIL.replace("parameter \\A_WIDTH 4", "parameter \\A_WIDTH 3"))
        self.assertEqual(k, self.key(mods, "\\mid"))
        # parameters are in the name
        self.assertNotEqual(self.key(self.mods, LEAF), self.key(self.mods, "\\mid"))

    def results(self):
        return {LEAF: fake_result(10, 2, secs=2), "\\mid": fake_result(1, 1, bram=1, bits=100),
                "\\front_end": fake_result(5), "\\pineda_top": fake_result(7, 3)}

    def test_subtree_sums(self):
        res = self.results()
        self.assertEqual(hier.subtree(self.mods, res, "\\mid")["lut4"], 11)
        fe = hier.subtree(self.mods, res, "\\front_end")
        self.assertEqual((fe["lut4"], fe["ffs"], fe["bram"], fe["bram_bits"]), (5 + 11 + 10, 5, 1, 100))
        top = hier.subtree(self.mods, res, "\\pineda_top")
        self.assertEqual(top["lut4"], 7 + 26 + 2 * 11)
        self.assertEqual(top["ffs"], 3 + 5 + 2 * 3)
        self.assertEqual(top["bram"], 3)

    def test_rows(self):
        rows = hier.rows_for(self.mods, "\\pineda_top")
        labels = [r["label"] for r in rows]
        self.assertEqual(labels, ["pineda_top/front_end/mid", "pineda_top/front_end/leaf",
                                  "pineda_top/front_end/(own logic)", "pineda_top/mid",
                                  "pineda_top/(own logic)"])
        self.assertEqual(len(rows[3]["instances"]), 2)
        # rows add up to the top's total
        res = self.results()
        s = 0
        for r in rows:
            for name, _ in r["instances"]:
                s += (hier.glue_totals(res, name) if r.get("glue") else hier.subtree(self.mods, res, name))["lut4"]
        self.assertEqual(s, hier.subtree(self.mods, res, "\\pineda_top")["lut4"])


def lut(name, ins, out):
    return (name, {"type": "SB_LUT4", "connections": {"I0": ins[:1] or ["0"], "I1": ins[1:2] or ["0"],
                                                       "I2": ["0"], "I3": ["0"], "O": [out]},
                   "attributes": {"src": "x.sv:1"}})


class DepthTest(unittest.TestCase):
    def test_chain_through_child_and_carry(self):
        mods = hier.parse_rtlil(RTLIL)
        # leaf: a_i[0] -> LUT -> LUT -> y_o[0] ; mid: leaf; top-level analysed is \mid
        leaf = {"ports": {"a_i": {"direction": "input", "bits": [2, 3, 4, 5]},
                          "y_o": {"direction": "output", "bits": [6, 7, 8, 9]}},
                "cells": dict([lut("l1", [2], 10), lut("l2", [10], 11),
                               ("c1", {"type": "SB_CARRY", "connections": {"I0": [11], "I1": ["0"], "CI": ["0"], "CO": [6]}})])}
        mid = {"ports": {"a_i": {"direction": "input", "bits": [2, 3, 4, 5]},
                         "y_o": {"direction": "output", "bits": [6, 7, 8, 9]}},
               "cells": dict([("ff", {"type": "SB_DFF", "connections": {"C": ["0"], "D": [20], "Q": [30]},
                                      "attributes": {"src": "mid.sv:3"}}),
                              ("u_leaf", {"type": "child0", "connections": {"a_i": [30, 3, 4, 5], "y_o": [20, 21, 22, 23]}}),
                              lut("l3", [20], 6)])}
        nets = {"\\mid": mid, LEAF: leaf}
        flat = hier.flatten(mods, nets, "\\mid")
        d = hier.logic_depth(flat)
        self.assertEqual(d["levels"], 3)
        self.assertEqual(d["carries"], 1)
        self.assertIn("SB_DFF ff", d["start"])
        self.assertIn("l3", d["end"])
        self.assertIn("output port", d["end"])
        # the module alone: the child's output starts the path
        d2 = hier.logic_depth(hier.flatten(mods, nets, "\\mid", descend=False))
        self.assertEqual(d2["levels"], 1)
        self.assertEqual(d2["start"], "submodule output")

    def test_loop_detected(self):
        mods = hier.parse_rtlil(RTLIL)
        m = {"ports": {}, "cells": dict([lut("a", [5], 6), lut("b", [6], 5)])}
        with self.assertRaises(hier.HierError):
            hier.logic_depth(hier.flatten(mods, {LEAF: m}, LEAF))


class AssembleTest(unittest.TestCase):
    """synth.assemble and synth.render over a fake cache (the end of a real run)."""

    def test_assemble_render(self):
        import json
        import tempfile
        import types
        import synth
        mods = hier.parse_rtlil(RTLIL)
        res = RtlilTest.results(None)
        keys = {n: f"k{i}" for i, n in enumerate(mods)}
        port = {"a_i": {"direction": "input", "bits": [2, 3, 4, 5]},
                "y_o": {"direction": "output", "bits": [6, 7, 8, 9]}}
        with tempfile.TemporaryDirectory() as root:
            for n in mods:
                d = os.path.join(root, "cache", keys[n])
                os.makedirs(d)
                cells = dict([lut("l", [2], 6)])
                for i, k in enumerate(hier.children(mods, n)):
                    cells[f"u{i}"] = {"type": f"child{i}", "connections": {"a_i": [6, 3, 4, 5], "y_o": [10 + 4 * i, 11 + 4 * i, 12 + 4 * i, 13 + 4 * i]}}
                with open(os.path.join(d, "net.json"), "w") as f:
                    json.dump({"modules": {"top": {"ports": port, "cells": cells}}}, f)
            designs = {"NumRast=1": {"mods": mods, "top": "\\pineda_top", "keys": keys}}
            results = {keys[n]: res[n] for n in mods}
            args = types.SimpleNamespace(depth=True)
            rep = synth.assemble(root, "cache", designs, results, "tool", args)
            # another top (--top mid): its own rows and total, from the same cache
            sub = {"default": {"mods": mods, "top": "\\mid", "keys": keys}}
            rep_mid = synth.assemble(root, "cache", sub, results, "tool", args, "mid")
        cfg = rep["configs"]["NumRast=1"]
        self.assertEqual(cfg["total"]["lut4"], 55)
        self.assertEqual(sum(r["lut4"] for r in cfg["rows"]), 55)
        self.assertEqual(cfg["rows"][3]["instances"], 2)
        # time: each distinct module once (mid 1 s + leaf 2 s), not per instance
        self.assertEqual(cfg["rows"][3]["seconds"], 3.0)
        self.assertEqual(cfg["total"]["seconds"], 5.0)
        self.assertGreaterEqual(cfg["depth"]["levels"], 1)
        text = synth.render(rep)
        self.assertIn("pineda_top NumRast=1 total", text)
        self.assertIn("pineda_top/front_end/mid", text)
        self.assertIn("pineda_top/front_end (total)", text)
        self.assertEqual(cfg["subtotals"]["pineda_top/front_end"]["lut4"], 26)
        mid = rep_mid["configs"]["default"]
        self.assertEqual(rep_mid["top"], "mid")
        self.assertEqual([r["label"] for r in mid["rows"]], ["mid/leaf", "mid/(own logic)"])
        self.assertEqual(mid["total"]["lut4"], 11)
        self.assertEqual(sum(r["lut4"] for r in mid["rows"]), 11)
        text = synth.render(rep_mid)
        self.assertIn("unit (default rows)", text)
        self.assertIn("mid default total", text)

    def test_top_configs(self):
        import synth
        top, cfgs = synth.top_configs("pineda_top", (1, 4))
        self.assertEqual(top, "pineda_top")
        self.assertEqual([c[0] for c in cfgs], ["NumRast=1", "NumRast=4"])
        self.assertEqual(cfgs[1][1], ["chparam -set NumRast 4 pineda_top", "hierarchy -check -top pineda_top"])
        self.assertEqual(cfgs[1][2], "rast4.il")
        top, cfgs = synth.top_configs("tex", (1, 2, 4))
        self.assertEqual((top, cfgs), ("tex", [("default", ["hierarchy -check -top tex"], "tex.il")]))
        top, cfgs = synth.top_configs("om_blend@Lanes=4", (1,))
        self.assertEqual(cfgs, [("Lanes=4", ["hierarchy -check -top om_blend -chparam Lanes 4"],
                                 "om_blend_Lanes=4.il")])


DUMP = r"""
attribute \src "rtl/common/sram_1r1w.sv:30.21-30.26"
cell $mem_v2 $auto$mem$1
  parameter \MEMID "\\mem_q"
  parameter \SIZE 32
  parameter \WIDTH 32'00000000000000000000001000000000
  connect \RD_DATA \x
end
attribute \src "rtl/a.sv:12.3-14.6"
cell $adff $procdff$7
  parameter \WIDTH 24
  connect \Q \count_q
end
cell $dff $auto$9
  parameter \WIDTH 3
  connect \Q { \a \b }
end
"""


class DumpTest(unittest.TestCase):
    def test_dump(self):
        mems = hier.memories(DUMP)
        self.assertEqual(mems, [{"name": "mem_q", "width": 512, "depth": 32, "bits": 16384,
                                 "src": "sram_1r1w.sv:30"}])
        ffa = hier.ff_arrays(DUMP)
        self.assertEqual([(a["kind"], a["name"], a["bits"]) for a in ffa],
                         [("memory->FF", "mem_q", 16384), ("dff", "count_q", 24), ("dff", "{ \\a \\b }", 3)])
        self.assertEqual(ffa[1]["src"], "a.sv:12")


class BaselineTest(unittest.TestCase):
    AREA = {"top": "pineda_top", "tool": "t", "flow": "f", "configs": {"NumRast=1": {
        "total": {"lut4": 1000, "ffs": 500, "bram": 10},
        "rows": [{"label": "pineda_top/cp", "lut4": 800, "ffs": 400, "bram": 10},
                 {"label": "pineda_top/x", "lut4": 3, "ffs": 1, "bram": 0}]}}}

    def test_compare(self):
        base = check_baseline.baseline_of(self.AREA)["configs"]
        cur = copy.deepcopy(self.AREA)
        self.assertEqual(check_baseline.compare(base, check_baseline.figures(cur), 5), ([], []))
        cur["configs"]["NumRast=1"]["rows"][0]["lut4"] = 841  # +5.1%
        fails, _ = check_baseline.compare(base, check_baseline.figures(cur), 5)
        self.assertEqual(len(fails), 1)
        self.assertIn("pineda_top/cp: lut4 800 -> 841", fails[0])
        cur["configs"]["NumRast=1"]["rows"][0]["lut4"] = 840  # +5.0%: allowed
        self.assertEqual(check_baseline.compare(base, check_baseline.figures(cur), 5)[0], [])
        cur["configs"]["NumRast=1"]["rows"][1]["lut4"] = 12  # tiny row: within the absolute slack
        self.assertEqual(check_baseline.compare(base, check_baseline.figures(cur), 5)[0], [])
        cur["configs"]["NumRast=1"]["rows"].append({"label": "pineda_top/new", "lut4": 1, "ffs": 0, "bram": 0})
        self.assertIn("new row", check_baseline.compare(base, check_baseline.figures(cur), 5)[0][0])
        cur["configs"]["NumRast=1"]["rows"][0]["lut4"] = 700
        _, notes = check_baseline.compare(base, check_baseline.figures(self.AREA | {}), 5)
        self.assertEqual(notes, [])


class BaselinePartialTest(unittest.TestCase):
    def test_incomplete_rows_left_out(self):
        area = copy.deepcopy(BaselineTest.AREA)
        area["incomplete"] = True
        area["configs"]["NumRast=1"]["missing"] = ["x"]
        area["configs"]["NumRast=1"]["rows"][1]["missing"] = ["x"]
        base = check_baseline.baseline_of(area)
        self.assertEqual(list(base["configs"]["NumRast=1"]), ["pineda_top/cp"])
        self.assertEqual(base["not_baselined"], ["NumRast=1 pineda_top total", "NumRast=1 pineda_top/x"])
        full = copy.deepcopy(BaselineTest.AREA)
        fails, notes = check_baseline.compare(base["configs"], check_baseline.figures(full), 5,
                                              base["not_baselined"])
        self.assertEqual(fails, [])
        self.assertEqual(len(notes), 2)
        fails, _ = check_baseline.compare(base["configs"], check_baseline.figures(full), 5)
        self.assertEqual(len(fails), 2)



class BudgetTest(unittest.TestCase):
    BUDGET = {"config": "NumRast=1", "levels": 16,
              "groups": [{"name": "A", "part": "front", "lut4": 100, "rows": ["a", "b"], "enforce": True},
                         {"name": "C", "part": "back", "lut4": 50, "rows": ["c"], "enforce": False}],
              "parts": {"front": 100, "back": 50}, "total": {"lut4": 150, "ffs": 100}}

    def area(self, a=40, b=50, c=60, depth_a=10):
        row = lambda label, lut, lv: {"label": "pineda_top/" + label, "lut4": lut, "ffs": 1, "bram": 0,
                                      "depth": {"levels": lv, "carries": 0}}
        return {"top": "pineda_top", "configs": {"NumRast=1": {
            "rows": [row("a", a, depth_a), row("b", b, 3), row("c", c, 20)],
            "total": {"lut4": a + b + c, "ffs": 3, "bram": 0}}}}

    def test_within_and_over(self):
        table, fails, _ = check_budget.evaluate(self.area(), self.BUDGET)
        self.assertEqual(fails, [])  # C is over (60 > 50, 20 levels) but not enforced
        self.assertEqual(table[0][:3], ("A", 90, 100))
        self.assertEqual(table[0][5], 10)
        self.assertIn("not enforced", table[1][6])
        _, fails, _ = check_budget.evaluate(self.area(a=60), self.BUDGET)
        self.assertEqual(len(fails), 1)
        self.assertIn("110 LUT4 > budget 100", fails[0])
        _, fails, _ = check_budget.evaluate(self.area(depth_a=17), self.BUDGET)
        self.assertIn("17 levels > 16 (a)", fails[0])

    def test_unassigned_row_fails(self):
        area = self.area()
        area["configs"]["NumRast=1"]["rows"].append({"label": "pineda_top/new_unit", "lut4": 1, "ffs": 0, "bram": 0})
        _, fails, _ = check_budget.evaluate(area, self.BUDGET)
        self.assertTrue(any("new_unit belongs to no budget group" in f for f in fails))

    def test_committed_budget_covers_the_baseline_rows(self):
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline.json")) as f:
            base = json.load(f)
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "budget.json")) as f:
            budget = json.load(f)
        rows = base["configs"]["NumRast=1"]
        area = {"top": "pineda_top", "configs": {"NumRast=1": {
            "rows": [dict(label=k, **v) for k, v in rows.items() if k != "pineda_top total"],
            "total": rows["pineda_top total"]}}}
        _, fails, notes = check_budget.evaluate(area, budget)
        self.assertEqual(fails, [])
        self.assertEqual(notes, [])

if __name__ == "__main__":
    unittest.main(verbosity=1)
