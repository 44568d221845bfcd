#!/usr/bin/python3
"""Checks that the API documentation groups the headers by layer (doc/architecture.md, doc/doxygen-groups.dox).

- every .h under model/ and helper/ has exactly one Doxygen `\\ingroup <id>`, in its `\\file` comment, and <id> is
  its layer's group: "iwarp-" and the layer's folder, with "model/" left out and "/" read as "-" (model/ddp:
  iwarp-ddp; helper: iwarp-helper; helper/scenario, its subfolders included: iwarp-helper-scenario);
- every group id a header or doc/doxygen-groups.dox uses is defined once by `\\defgroup` in that file;
- every layer of LAYERS in scripts/check-include-layers.py (imported from it, so the two cannot drift) has its
  group there, `\\ingroup`'d into the parent group iwarp, and the file defines no group beyond those.

Exit 0 when every rule holds; otherwise exit 1 with one line per breach, file:line first.
"""

import importlib.util
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import repo_check  # noqa: E402

_LAYERS_SCRIPT = pathlib.Path(__file__).resolve().parent / "check-include-layers.py"
_spec = importlib.util.spec_from_file_location("check_include_layers", _LAYERS_SCRIPT)
layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layers)

LAYERS = layers.LAYERS
DOX = "doc/doxygen-groups.dox"
PARENT = "iwarp"

# Doxygen comments: /** ... */ and /*! ... */ blocks, /// and //! lines. A plain /* */ comment is not read.
_DOC_COMMENT = re.compile(r"/\*[*!](?!/)(?:.|\n)*?\*/|//[/!][^\n]*")
_INGROUP = re.compile(r"[\\@]ingroup((?:[ \t]+[\w-]+)+)")
_DEFGROUP = re.compile(r"[\\@]defgroup[ \t]+([\w-]+)")
_FILE = re.compile(r"[\\@]file\b")


def group_id(folder):
    """'model/ddp' -> 'iwarp-ddp'; 'helper' -> 'iwarp-helper'; 'helper/scenario' -> 'iwarp-helper-scenario'."""
    parts = folder.split("/")
    if parts[0] == "model":
        parts = parts[1:]
    return "-".join([PARENT] + parts)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def doc_comments(text):
    """(start offset, text) of every Doxygen comment in `text`."""
    return [(m.start(), m.group(0)) for m in _DOC_COMMENT.finditer(text)]


def ingroups(text):
    """(line, group id, whether its comment holds \\file) of every group an \\ingroup of a Doxygen comment names."""
    found = []
    for start, comment in doc_comments(text):
        has_file = bool(_FILE.search(comment))
        for match in _INGROUP.finditer(comment):
            line = line_of(text, start + match.start())
            found.extend((line, group, has_file) for group in match.group(1).split())
    return found


def defined_groups(text):
    """{group id: [(line, parent ids of its comment)]} of every \\defgroup of a Doxygen comment in `text`."""
    groups = {}
    for start, comment in doc_comments(text):
        parents = [group for match in _INGROUP.finditer(comment) for group in match.group(1).split()]
        for match in _DEFGROUP.finditer(comment):
            groups.setdefault(match.group(1), []).append((line_of(text, start + match.start()), parents))
    return groups


def dox_breaches(root):
    """The breaches of doc/doxygen-groups.dox itself, and its groups ({id: line}; None when it is missing)."""
    path = root / DOX
    if not path.is_file():
        return [f"{DOX}:1: missing: it defines the Doxygen group of every layer"], None
    text = path.read_text(encoding="utf-8", errors="replace")
    groups = defined_groups(text)
    out = []
    layer_ids = {}
    for folders in LAYERS:
        for folder in folders:
            layer_ids.setdefault(group_id(folder), []).append(folder)
    for group, folders in layer_ids.items():
        if len(folders) > 1:
            out.append(f"{DOX}:1: layers {', '.join(folders)} would share the group {group}")
    for group, definitions in sorted(groups.items(), key=lambda item: item[1][0][0]):
        line, parents = definitions[0]
        for again, _ in definitions[1:]:
            out.append(f"{DOX}:{again}: group {group} is defined again (first on line {line})")
        if group != PARENT and group not in layer_ids:
            out.append(f"{DOX}:{line}: group {group} is no layer's (scripts/check-include-layers.py LAYERS)")
        elif group != PARENT and PARENT not in parents:
            out.append(f"{DOX}:{line}: group {group} is not \\ingroup'd into {PARENT}")
        for parent in parents:
            if parent not in groups:
                out.append(f"{DOX}:{line}: group {group} is in group {parent}, which no \\defgroup defines")
    if PARENT not in groups:
        out.append(f"{DOX}:1: no \\defgroup {PARENT}, the parent of the layers' groups")
    for group, folders in layer_ids.items():
        if group not in groups:
            out.append(f"{DOX}:1: layer {folders[0]} has no group: no \\defgroup {group}")
    return out, {group: definitions[0][0] for group, definitions in groups.items()}


def header_breaches(root, rel, text, defined):
    """The breaches of one header `rel` (a path under root, POSIX form)."""
    folder = layers.folder_of(rel)
    if folder not in layers.RANK:
        return [f"{rel}:1: folder {folder} has no layer in scripts/check-include-layers.py"]
    want = group_id(folder)
    found = ingroups(text)
    if not found:
        return [f"{rel}:1: no Doxygen file comment with \\ingroup {want} (after the top comment)"]
    out = []
    first_line = found[0][0]
    for line, group, _ in found[1:]:
        out.append(f"{rel}:{line}: a second \\ingroup ({group}; the first is on line {first_line}): "
                   f"a header is in one group")
    for line, group, has_file in found:
        if group != want:
            out.append(f"{rel}:{line}: \\ingroup {group}, but its layer {folder} is group {want}")
        if defined is not None and group not in defined:
            out.append(f"{rel}:{line}: group {group} has no \\defgroup in {DOX}")
        if not has_file:
            out.append(f"{rel}:{line}: \\ingroup {group} is not in the \\file comment, so it groups no file")
    return out


def breaches(root):
    """Every breach of the rules under `root`, as printable lines."""
    out, defined = dox_breaches(root)
    for top in ("model", "helper"):
        for path in sorted((root / top).rglob("*.h")):
            if not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            out.extend(header_breaches(root, rel, path.read_text(encoding="utf-8", errors="replace"), defined))
    return out


def main():
    return repo_check.run(__doc__, breaches, "check-doxygen-groups", f"breach(es) of the layers' Doxygen groups ({DOX})", "every header is in its layer's group, and every layer has one")


if __name__ == "__main__":
    sys.exit(main())
