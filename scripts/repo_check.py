"""The command line the repository's checkers share (check-source-shape.py, check-include-layers.py,
check-doxygen-groups.py): an optional repository folder (default: the one holding scripts/), one line per
breach, then a summary; exit 0 when there is none, 1 otherwise."""

import argparse
import pathlib


def run(doc, breaches, name, failed, passed):
    """Parse the arguments, print what `breaches(root)` finds and return the exit status.

    doc: the checker's module docstring (its first line is the --help description); name: the prefix of the
    summary line; failed: what the breaches are ("breach(es) ..."), after their count; passed: the summary
    when there is none."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent,
                        type=pathlib.Path, help="the repository (default: this script's)")
    args = parser.parse_args()
    found = breaches(args.root)
    for line in found:
        print(line)
    if found:
        print(f"{name}: {len(found)} {failed}")
        return 1
    print(f"{name}: {passed}")
    return 0
