#!/usr/bin/python3
"""Where a run's CPU time goes: this project's code against ns-3's, from a perf profile.

    perf record -F 999 -o run.perf build/iwarp-sim run SCENARIO --no-progress --out DIR
    perf report -i run.perf --no-children --sort dso,symbol -g none --stdio > run.txt
    scripts/profile-breakdown.py run.txt            # or: scripts/profile.sh SCENARIO (does all three)

Each sample's function is put in one group by who wrote it:
  ours           a function of a class or namespace defined under model/ or helper/ (the class names
                 are read from this repository's headers), or an anonymous-namespace function of
                 libiwarp-ns3;
  ns-3 <module>  a function in one of ns-3's libraries;
  ns-3 templates ns-3's header templates (Callback thunks, TracedCallback, MakeEvent, Ptr, Queue<>)
                 that the compiler instantiated inside libiwarp-ns3: ns-3 code, compiled with ours;
  C/C++ runtime  libc (malloc and free above all) and libstdc++ (red-black trees, ...);
  other          the kernel, the dynamic loader, the executable's own copies of templates.
Self time only (--no-children): a function's callees count for their own group, so the groups add
up to 100 % of the samples.
"""
import argparse
import pathlib
import re
import signal
import sys
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\s*([0-9.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*?)\s*$")


def our_names(root):
    """Class, struct and namespace names declared in model/ and helper/."""
    names = set()
    decl = re.compile(r"^\s*(?:class|struct|namespace)\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)
    for folder in ("model", "helper"):
        for path in (root / folder).rglob("*.h"):
            names.update(decl.findall(path.read_text(errors="replace")))
    names.discard("ns3")
    return names


def owner(symbol):
    """The class or namespace a function belongs to: 'ns3::Foo::Bar(...)' -> 'Foo'."""
    if symbol.startswith("ns3::(anonymous namespace)::"):
        return "(anonymous)"
    head = symbol.split("(", 1)[0]
    m = re.match(r"(?:ns3::)?(?:[a-z0-9_]+::)*([A-Za-z_][A-Za-z0-9_]*)(?:<|::)", head)
    return m.group(1) if m else head


def classify(dso, symbol, ours):
    if dso.startswith("libiwarp-ns3"):
        name = owner(symbol)
        if name == "(anonymous)" or name in ours:
            return "ours"
        return "ns-3 templates"
    if dso.startswith("libns3-"):
        return "ns-3 " + dso[len("libns3-"):].split(".so")[0]
    if dso.startswith(("libc.so", "libstdc++", "libm.so", "libgcc")):
        return "C/C++ runtime"
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", help="perf report --no-children --sort dso,symbol -g none --stdio output")
    ap.add_argument("--top", type=int, default=8, help="functions listed per group (default 8)")
    args = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    ours = our_names(ROOT)
    groups = defaultdict(float)
    functions = defaultdict(list)
    total = 0.0
    for line in pathlib.Path(args.report).read_text(errors="replace").splitlines():
        m = LINE.match(line)
        if not m:
            continue
        share, dso, symbol = float(m.group(1)), m.group(2), m.group(3)
        group = classify(dso, symbol, ours)
        groups[group] += share
        functions[group].append((share, symbol))
        total += share
    if total == 0:
        sys.exit(f"{args.report}: no samples (was it written with --sort dso,symbol -g none --stdio?)")
    print(f"{'group':<28}{'self %':>8}")
    for group, share in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"{group:<28}{share * 100 / total:>8.1f}")
    for group, _ in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"\n-- {group}: top functions (self %) --")
        for share, symbol in sorted(functions[group], reverse=True)[: args.top]:
            print(f"{share * 100 / total:>7.2f}  {symbol[:110]}")


if __name__ == "__main__":
    main()
