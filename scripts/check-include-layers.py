#!/usr/bin/python3
"""Checks that the library's includes point down its layers (doc/architecture.md, doc/contributing.md).

Each folder of model/ and helper/ has a rank (LAYERS below, lowest first). A file may include a file of its
own folder, or of a folder of a lower rank; an include of the same rank or higher ("up a layer", or
sideways between two folders of one rank) is a breach, and so is a folder the table does not place. The
two libraries follow the table: libiwarp-ns3 is every folder up to helper/, libiwarp-ns3-scenario is
helper/scenario/ (CMakeLists.txt). Exit 0 when every include holds; otherwise exit 1 with one line per
breach, file:line first.
"""

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import repo_check  # noqa: E402

# Lowest first; folders on one line share a rank and may not include each other.
LAYERS = (
    ("model/common",),
    ("model/ddp", "model/sctp", "model/net", "model/tcp", "model/host", "model/traffic", "model/roce"),
    ("model/transport",),
    ("model/mpa", "model/rdmap", "model/sctp-ddp"),
    ("model/rnic",),
    ("model/apps",),
    ("helper/common",),
    ("helper/topology",),
    ("helper",),
    ("helper/scenario",),
)
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(rel):
    """'model/ddp/ddp-endpoint.h' -> 'model/ddp'; 'helper/iwarp-helper.h' -> 'helper';
    'helper/scenario/workloads/stream.cc' -> 'helper/scenario' (a layer's subfolders are the layer)."""
    parts = pathlib.PurePosixPath(rel).parts
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def target_of(include, root):
    """The layer folder an include names, or None for a file outside model/ and helper/ (ns-3, the standard
    library, a header beside the includer)."""
    if include.startswith("helper/"):
        return folder_of(include)
    if (root / "model" / include).is_file() and "/" in include:
        return folder_of("model/" + include)
    return None


def breaches(root):
    out = []
    for top in ("model", "helper"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".h", ".cc"):
                continue
            rel = path.relative_to(root).as_posix()
            here = folder_of(rel)
            if here not in RANK:
                out.append(f"{rel}:1: folder {here} has no layer in scripts/check-include-layers.py")
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in _INCLUDE.finditer(text):
                there = target_of(match.group(1), root)
                if there is None or there == here:
                    continue
                line = text.count("\n", 0, match.start()) + 1
                if there not in RANK:
                    out.append(f"{rel}:{line}: includes {match.group(1)}, in {there}, which has no layer")
                elif RANK[there] >= RANK[here]:
                    way = "sideways" if RANK[there] == RANK[here] else "up"
                    out.append(f"{rel}:{line}: includes {match.group(1)}: {here} may not reach {way} to {there}")
    return out


def main():
    return repo_check.run(__doc__, breaches, "check-include-layers", "include(s) against the layers", "every include points down a layer")


if __name__ == "__main__":
    sys.exit(main())
