#!/usr/bin/python3
"""Tests of scripts/check-doxygen-groups.py on small trees (CTest iwarp-doxygen-groups-checker)."""

import importlib.util
import pathlib
import sys
import tempfile
import unittest

_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-doxygen-groups.py"
_spec = importlib.util.spec_from_file_location("check_doxygen_groups", _SCRIPT)
groups = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(groups)

_FOLDERS = [folder for folders in groups.LAYERS for folder in folders]


def header(*group_ids, file_comment=True):
    """A header shaped like the library's: top comment, the file comment with its \\ingroup lines, guard."""
    lines = ["/*", " * What the file holds.", " */"]
    if group_ids:
        lines += ["/**"] + ([" * \\file"] if file_comment else []) + [f" * \\ingroup {g}" for g in group_ids]
        lines += [" */"]
    return "\n".join(lines + ["#ifndef X_H", "#define X_H", "#endif", ""])


def dox(leave_out=(), extra=()):
    """A doc/doxygen-groups.dox defining iwarp and every layer's group, but those of `leave_out`."""
    blocks = ["/*\n * Plain comment: \\defgroup ignored.\n */", "/**\n * \\defgroup iwarp iWARP\n */"]
    for folder in _FOLDERS:
        if folder not in leave_out:
            blocks.append(f"/**\n * \\defgroup {groups.group_id(folder)} {folder}\n * \\ingroup iwarp\n *\n"
                          f" * What {folder} holds.\n */")
    return "\n\n".join(blocks + list(extra)) + "\n"


class DoxygenGroupsTest(unittest.TestCase):
    def breaches_of(self, files, dox_text=None):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            files = dict(files)
            files[groups.DOX] = dox() if dox_text is None else dox_text
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text, encoding="utf-8")
            return groups.breaches(root)

    def test_the_group_id_is_a_function_of_the_folder(self):
        self.assertEqual(groups.group_id("model/ddp"), "iwarp-ddp")
        self.assertEqual(groups.group_id("model/sctp-ddp"), "iwarp-sctp-ddp")
        self.assertEqual(groups.group_id("helper"), "iwarp-helper")
        self.assertEqual(groups.group_id("helper/scenario"), "iwarp-helper-scenario")

    def test_headers_in_their_groups_pass(self):
        self.assertEqual(self.breaches_of({
            "model/ddp/d.h": header("iwarp-ddp"),
            "model/common/c.h": header("iwarp-common"),
            "helper/h.h": header("iwarp-helper"),
            "helper/scenario/s.h": header("iwarp-helper-scenario"),
            "helper/scenario/workloads/w.h": header("iwarp-helper-scenario"),
            "helper/scenario/sections/k.h": header("iwarp-helper-scenario"),
            "model/ddp/d.cc": "// a source file needs no group\n"}), [])

    def test_a_missing_ingroup(self):
        found = self.breaches_of({"model/rdmap/r.h": header()})
        self.assertEqual(found, ["model/rdmap/r.h:1: no Doxygen file comment with \\ingroup iwarp-rdmap "
                                 "(after the top comment)"])

    def test_an_ingroup_in_a_plain_comment_is_missing(self):
        found = self.breaches_of({"model/rdmap/r.h": "/*\n * \\file\n * \\ingroup iwarp-rdmap\n */\n"})
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("model/rdmap/r.h:1: no Doxygen file comment"), found)

    def test_a_wrong_group_is_named_with_its_line(self):
        found = self.breaches_of({"helper/scenario/workloads/w.h": header("iwarp-helper")})
        self.assertEqual(found, ["helper/scenario/workloads/w.h:6: \\ingroup iwarp-helper, but its layer "
                                 "helper/scenario is group iwarp-helper-scenario"])

    def test_two_ingroup_lines(self):
        found = self.breaches_of({"model/mpa/m.h": header("iwarp-mpa", "iwarp-mpa")})
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("model/mpa/m.h:7: a second \\ingroup (iwarp-mpa; the first is on "
                                            "line 6)"), found)

    def test_two_groups_on_one_ingroup_line(self):
        found = self.breaches_of({"model/mpa/m.h": header("iwarp-mpa iwarp-ddp")})
        self.assertIn("model/mpa/m.h:6: \\ingroup iwarp-ddp, but its layer model/mpa is group iwarp-mpa", found)
        self.assertTrue(any(f.startswith("model/mpa/m.h:6: a second \\ingroup") for f in found), found)

    def test_an_ingroup_outside_the_file_comment(self):
        found = self.breaches_of({"model/mpa/m.h": header("iwarp-mpa", file_comment=False)})
        self.assertEqual(found, ["model/mpa/m.h:5: \\ingroup iwarp-mpa is not in the \\file comment, so it "
                                 "groups no file"])

    def test_an_undefined_group(self):
        found = self.breaches_of({"model/ddp/d.h": header("iwarp-dpp")})
        self.assertIn("model/ddp/d.h:6: group iwarp-dpp has no \\defgroup in doc/doxygen-groups.dox", found)
        self.assertIn("model/ddp/d.h:6: \\ingroup iwarp-dpp, but its layer model/ddp is group iwarp-ddp", found)

    def test_a_layer_with_no_group(self):
        found = self.breaches_of({"model/tcp/t.h": header("iwarp-tcp")}, dox(leave_out=("model/tcp",)))
        self.assertEqual(found, [
            "doc/doxygen-groups.dox:1: layer model/tcp has no group: no \\defgroup iwarp-tcp",
            "model/tcp/t.h:6: group iwarp-tcp has no \\defgroup in doc/doxygen-groups.dox"])

    def test_the_dox_file_itself(self):
        found = self.breaches_of({}, dox(extra=(
            "/**\n * \\defgroup iwarp-ddp DDP again\n * \\ingroup iwarp\n */",
            "/**\n * \\defgroup iwarp-old A layer that went\n * \\ingroup iwarp\n */")))
        self.assertEqual(len(found), 2, found)
        self.assertRegex(found[0], r"^doc/doxygen-groups\.dox:\d+: group iwarp-ddp is defined again")
        self.assertRegex(found[1], r"^doc/doxygen-groups\.dox:\d+: group iwarp-old is no layer's")
        orphan = dox().replace("{0}\n * \\ingroup iwarp\n".format("model/net"), "model/net\n")
        self.assertEqual(len(self.breaches_of({}, orphan)), 1)
        self.assertIn("group iwarp-net is not \\ingroup'd into iwarp", self.breaches_of({}, orphan)[0])
        no_parent = dox().replace("/**\n * \\defgroup iwarp iWARP\n */", "")
        self.assertIn("doc/doxygen-groups.dox:1: no \\defgroup iwarp, the parent of the layers' groups",
                      self.breaches_of({}, no_parent))

    def test_a_missing_dox_file_and_a_folder_without_a_layer(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            (root / "model/newlayer").mkdir(parents=True)
            (root / "model/newlayer/n.h").write_text(header("iwarp-newlayer"), encoding="utf-8")
            self.assertEqual(groups.breaches(root), [
                "doc/doxygen-groups.dox:1: missing: it defines the Doxygen group of every layer",
                "model/newlayer/n.h:1: folder model/newlayer has no layer in scripts/check-include-layers.py"])

    def test_the_repository_holds(self):
        self.assertEqual(groups.breaches(_SCRIPT.parents[1]), [])

if __name__ == "__main__":
    sys.exit(unittest.main())
