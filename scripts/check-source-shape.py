#!/usr/bin/python3
"""Checks the shape rules of doc/contributing.md on the repository's C++ sources.

- every source file (.cc, .h) in the source folders is at most 600 lines;
- every function defined in helper/ is at most 80 lines, and in model/ at most 125 (the protocol core's
  state machines, which read best whole), from its opening brace to its closing one.

GetTypeId is exempt from the function rule: its body is the attribute table, a declaration read one entry
at a time. Exit 0 when every rule holds; otherwise exit 1 with one line per breach, file:line first.

The function finder is a brace counter, not a C++ parser: it strips comments, string and character
literals (raw strings included), then takes a brace at namespace level whose line (or the line before a
lone brace) holds a '(' and no class/struct/enum/namespace keyword as a function body.
"""

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import repo_check  # noqa: E402

SOURCE_FOLDERS = ("model", "helper", "test", "tools", "bindings", "fuzz", "bench", "examples")
FILE_LIMIT = 600
FUNCTION_LIMITS = {"helper": 80, "model": 125}
EXEMPT_FUNCTIONS = ("GetTypeId",)

_LITERAL = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_BLOCK_COMMENT = re.compile(r"/\*(?:.|\n)*?\*/")
_LINE_COMMENT = re.compile(r"//[^\n]*")
_NAMESPACE = re.compile(r"\bnamespace\b|^\s*extern\b")
_TYPE_KEYWORD = re.compile(r"\b(class|struct|enum|union)\b")


def blank_out(text):
    """The text with comments and literals replaced by spaces, newlines kept (so line numbers hold)."""

    def spaces(match):
        return re.sub(r"[^\n]", " ", match.group(0))

    pattern = re.compile("|".join(p.pattern for p in (_BLOCK_COMMENT, _LINE_COMMENT, _LITERAL)))
    return pattern.sub(spaces, text)


def opening_line(lines, index):
    """The line that introduces the brace on line `index`: that line, or the one before a lone '{'."""
    if lines[index].strip() != "{":
        return lines[index]
    for previous in reversed(lines[:index]):
        if previous.strip():
            return previous
    return ""


def function_name(lines, index):
    """The line of the signature that holds the function's name (the last line with '(' before the body)."""
    for j in range(index, -1, -1):
        if "(" in lines[j]:
            return j, lines[j].strip()
    return index, lines[index].strip()


def functions(text):
    """(first line, line count, signature line) of every function body at namespace level in `text`."""
    lines = blank_out(text).split("\n")
    raw_lines = text.split("\n")
    found = []
    scopes = []  # one entry per open brace: "namespace", "type", "function" or "block"
    start = None
    for i, line in enumerate(lines):
        for ch in line:
            if ch == "{":
                in_namespace = all(s == "namespace" for s in scopes)
                head = opening_line(lines, i)
                if not in_namespace:
                    scopes.append("block")
                elif _NAMESPACE.search(head):
                    scopes.append("namespace")
                elif _TYPE_KEYWORD.search(head) or "(" not in head and ")" not in head:
                    scopes.append("type")
                else:
                    scopes.append("function")
                    start = i
            elif ch == "}" and scopes:
                if scopes.pop() == "function" and start is not None:
                    name_line, name = function_name(raw_lines, start)
                    found.append((name_line + 1, i - start + 1, name))
                    start = None
    return found


def breaches(root):
    """Every breach of the rules under `root`, as printable lines."""
    out = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cc", ".h") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            rel = path.relative_to(root)
            count = text.count("\n")
            if count > FILE_LIMIT:
                out.append(f"{rel}:1: {count} lines, over the {FILE_LIMIT}-line limit of a source file")
            limit = FUNCTION_LIMITS.get(folder)
            if limit is None or path.suffix != ".cc":
                continue
            for line, length, name in functions(text):
                if length > limit and not any(f"{e}(" in name for e in EXEMPT_FUNCTIONS):
                    out.append(f"{rel}:{line}: function of {length} lines, over the {limit}-line limit of "
                               f"{folder}/: {name}")
    return out


def main():
    return repo_check.run(__doc__, breaches, "check-source-shape", "breach(es); split along the jobs (doc/contributing.md)", "every file and function within its limit")


if __name__ == "__main__":
    sys.exit(main())
