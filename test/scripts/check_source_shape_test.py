#!/usr/bin/python3
"""Tests of scripts/check-source-shape.py on small trees written for each rule (CTest iwarp-source-shape-checker)."""

import importlib.util
import pathlib
import sys
import tempfile
import unittest

_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-source-shape.py"
_spec = importlib.util.spec_from_file_location("check_source_shape", _SCRIPT)
shape = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape)


def function_of(name, body_lines):
    """A namespace-level definition of `name` whose braces span body_lines + 2 lines."""
    body = "".join(f"    x += {i};\n" for i in range(body_lines))
    return f"int\n{name}(int x)\n{{\n{body}    return x;\n}}\n"


class SourceShapeTest(unittest.TestCase):
    def breaches_of(self, files):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text, encoding="utf-8")
            return shape.breaches(root)

    def test_file_over_600_lines_is_reported_and_600_is_not(self):
        found = self.breaches_of({"test/a.cc": "//\n" * 601, "model/b.h": "//\n" * 600})
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("test/a.cc:1: 601 lines"), found)

    def test_helper_function_over_80_lines_is_reported_with_its_line(self):
        # body_lines 77 gives 80 lines from brace to brace (77 + return + two braces); 78 gives 81.
        text = "namespace ns3\n{\n" + function_of("Fits", 77) + function_of("TooLong", 78) + "}\n"
        found = self.breaches_of({"helper/x/y.cc": text})
        self.assertEqual(len(found), 1, found)
        self.assertIn("function of 81 lines", found[0])
        self.assertIn("TooLong(int x)", found[0])
        self.assertTrue(found[0].startswith("helper/x/y.cc:"), found)

    def test_model_limit_is_125_and_tests_have_none(self):
        text = function_of("Long", 110)  # 113 lines
        self.assertEqual(self.breaches_of({"model/m.cc": text, "test/t.cc": function_of("Long", 300)}), [])
        found = self.breaches_of({"model/m.cc": function_of("Longer", 123)})  # 126 lines
        self.assertEqual(len(found), 1, found)
        self.assertIn("125-line limit of model/", found[0])

    def test_get_type_id_is_exempt(self):
        self.assertEqual(self.breaches_of({"helper/t.cc": function_of("Foo::GetTypeId", 200)}), [])

    def test_braces_in_comments_strings_and_classes_do_not_count(self):
        text = (
            "namespace\n{\nstruct S\n{\n    int Get() const\n    {\n" + "        return 1;\n" * 90 + "    }\n};\n}\n"
            + 'const char* k = "{";\n/* { */\n// {\nconst char r = \'{\';\nconst char* raw = R"x({)x";\n'
            + function_of("Short", 10)
        )
        self.assertEqual(self.breaches_of({"helper/c.cc": text}), [])

    def test_files_outside_the_source_folders_are_ignored(self):
        self.assertEqual(self.breaches_of({"doc/big.cc": "//\n" * 700, "helper/notes.txt": "x\n" * 700}), [])


if __name__ == "__main__":
    sys.exit(unittest.main())
