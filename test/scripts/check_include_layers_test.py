#!/usr/bin/python3
"""Tests of scripts/check-include-layers.py on small trees (CTest iwarp-include-layers-checker)."""

import importlib.util
import pathlib
import sys
import tempfile
import unittest

_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-include-layers.py"
_spec = importlib.util.spec_from_file_location("check_include_layers", _SCRIPT)
layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layers)


class IncludeLayersTest(unittest.TestCase):
    def breaches_of(self, files):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text, encoding="utf-8")
            return layers.breaches(root)

    def test_down_and_within_a_folder_pass(self):
        self.assertEqual(self.breaches_of({
            "model/common/a.h": "",
            "model/ddp/d.h": '#include "common/a.h"\n#include "ddp/e.h"\n',
            "model/ddp/e.h": "",
            "helper/scenario/workloads/w.cc": '#include "helper/scenario/s.h"\n#include "helper/topology/t.h"\n'
                                              '#include "ddp/d.h"\n#include "ns3/node.h"\n#include <vector>\n',
            "helper/scenario/s.h": "", "helper/topology/t.h": ""}), [])

    def test_an_include_up_a_layer_is_named_with_its_line(self):
        found = self.breaches_of({"helper/topology/t.cc": '// x\n#include "helper/scenario/units.h"\n',
                                  "helper/scenario/units.h": ""})
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("helper/topology/t.cc:2: includes helper/scenario/units.h"), found)
        self.assertIn("may not reach up to helper/scenario", found[0])

    def test_the_model_may_not_include_a_helper(self):
        found = self.breaches_of({"model/rnic/r.cc": '#include "helper/iwarp-helper.h"\n', "helper/iwarp-helper.h": ""})
        self.assertEqual(len(found), 1)
        self.assertIn("model/rnic may not reach up to helper", found[0])

    def test_sideways_between_folders_of_one_rank(self):
        found = self.breaches_of({"model/ddp/d.cc": '#include "sctp/s.h"\n', "model/sctp/s.h": ""})
        self.assertEqual(len(found), 1)
        self.assertIn("sideways", found[0])

    def test_a_folder_without_a_layer(self):
        found = self.breaches_of({"model/newlayer/n.h": ""})
        self.assertEqual(found, ["model/newlayer/n.h:1: folder model/newlayer has no layer in "
                                 "scripts/check-include-layers.py"])

    def test_the_repository_holds(self):
        self.assertEqual(layers.breaches(_SCRIPT.parents[1]), [])


if __name__ == "__main__":
    sys.exit(unittest.main())
