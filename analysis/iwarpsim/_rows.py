"""The rows of one results folder (summary.json), as sweep() puts them in its DataFrame: one tidy table.

A row per workload, or for a kind that declares a per-key metric (a ping-pong's latency_by_size) a row per entry
of it; and every row has the same columns whatever its kind.  The metric columns are named nowhere here: they are
the metrics the workload kinds declare (iwarpsim.workload_kinds(), each kind's "metrics"; the union over every
kind, in the registry's order) and COMMON_METRICS, which every workload reports, each flattened by one rule:

  - a scalar is a column of its own name: goodput_bps;
  - a distribution (a dict of statistics, fct_ns = {count, p50, p99, mean, max}) is a column per statistic, the
    statistic put before the name's unit suffix: fct_p50_ns, sender_completion_p50_ns; a count has no unit:
    fct_count;
  - a list <quantity>_by_<key> (latency_by_size) is a row per entry, the entry's <key> in the column <key> (size)
    and its statistics in columns named as those of a distribution of <quantity>: latency_p50_ns, latency_count.
    A quantity named without a unit is in ns, the unit of every distribution summary.json writes.

A metric the row's kind does not declare is NaN in that row.  One it declares and the summary left null is None
(a statistic with no sample); a per-key list that came back empty still gives its row, with a count of 0.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

Row: TypeAlias = dict[str, Any]  # one row of the sweep's DataFrame: column -> value

NAN = math.nan  # a metric that does not apply to the row's kind
# Metrics every workload reports whatever its kind, flattened by the same rule as the declared ones.
COMMON_METRICS = ("sender_completion_ns",)
# The statistics of a distribution in summary.json (Stats() in results-summary.cc, doc/metrics.md), in column
# order; a distribution's columns are these and any other key it has.
STATISTICS = ("p50", "p99", "mean", "max", "count")
COUNT = "count"  # the statistic that has no unit
# Name suffixes that are units: the statistic goes before them.  A name without one is in DISTRIBUTION_UNIT.
UNITS = ("ns", "us", "ms", "s", "bps", "bytes", "octets", "packets")
DISTRIBUTION_UNIT = "ns"
BY = "_by_"  # <quantity>_by_<key>: a list of entries, one per value of <key>
SCALAR, DISTRIBUTION, PER_KEY = "scalar", "distribution", "per-key"


def stat_column(quantity: str, stat: str) -> str:
    """The column of statistic `stat` of `quantity`: fct_ns, p50 -> fct_p50_ns; fct_ns, count -> fct_count;
    latency, p99 -> latency_p99_ns (no unit in the name: DISTRIBUTION_UNIT)."""
    stem, _, unit = quantity.rpartition("_")
    if not stem or unit not in UNITS:
        stem, unit = quantity, DISTRIBUTION_UNIT
    return "%s_%s" % (stem, COUNT) if stat == COUNT else "%s_%s_%s" % (stem, stat, unit)


@dataclass(frozen=True)
class Metric:
    """One metric of summary.json's workloads, by the shape its values have there."""

    name: str
    shape: str  # SCALAR, DISTRIBUTION or PER_KEY
    stats: tuple[str, ...] = ()  # DISTRIBUTION, PER_KEY: the statistics, in column order

    @property
    def key(self) -> str | None:
        """PER_KEY: the entries' key (size for latency_by_size); None when the name has no _by_<key>."""
        quantity, by, key = self.name.rpartition(BY)
        return key if by and quantity else None

    def _column(self, stat: str) -> str:
        return stat_column(self.name.rpartition(BY)[0] if self.key else self.name, stat)

    def flatten(self, value: Any) -> Row:
        """A scalar's or a distribution's columns; PER_KEY: those of one entry (its key apart)."""
        if self.shape == SCALAR:
            return {self.name: value}
        stats = value if isinstance(value, dict) else {}
        return {self._column(s): stats.get(s) for s in self.stats}

    def absent(self) -> Row:
        """Its columns in the row of a kind that does not declare it."""
        return {c: NAN for c in self.flatten(None)}

    def empty(self) -> Row:
        """Its columns where it applies and has no value: None, a count of 0 (PER_KEY: no entry came back)."""
        return {self._column(s): (0 if s == COUNT and self.shape == PER_KEY else None) for s in self.stats}


def _statistics(seen: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*STATISTICS, *seen]))


def plan_metrics(names: Iterable[str], workloads: Sequence[Mapping[str, Any]]) -> list[Metric]:
    """The metrics `names` with the shapes their values have in `workloads` (the runner writes every field for
    every workload; one no workload has is a scalar)."""
    plans = []
    for name in names:
        values = [w[name] for w in workloads if w.get(name) is not None]
        if any(isinstance(v, list) for v in values):
            key = Metric(name, PER_KEY).key
            entries = [e for v in values if isinstance(v, list) for e in v if isinstance(e, dict)]
            plans.append(Metric(name, PER_KEY, _statistics(k for e in entries for k in e if k != key)))
        elif any(isinstance(v, dict) for v in values):
            plans.append(Metric(name, DISTRIBUTION, _statistics(k for v in values if isinstance(v, dict) for k in v)))
        else:
            plans.append(Metric(name, SCALAR))
    return plans


def metric_names(kinds: Iterable[Mapping[str, Any]]) -> list[str]:
    """The metrics the kinds declare, each once, in the registry's order, then COMMON_METRICS."""
    return list(dict.fromkeys([*(m for k in kinds for m in k.get("metrics") or []), *COMMON_METRICS]))


def _entries(metrics: Sequence[Metric], w: Mapping[str, Any]) -> list[Row]:
    """The rows' own columns of a workload's per-key metrics: one per key value (several metrics by the same
    key share the rows), or per entry of a list with no key."""
    merged: dict[str, Row] = {}
    for m in metrics:
        for i, e in enumerate(v for v in w.get(m.name) or [] if isinstance(v, dict)):
            k = m.key
            at = json.dumps([k, e[k]], sort_keys=True) if k is not None and k in e else json.dumps([m.name, i])
            row = merged.setdefault(at, {k: e[k]} if k is not None and k in e else {})
            row.update(m.flatten(e))
    return list(merged.values())


def metric_rows(w: Mapping[str, Any], declared: Iterable[str], metrics: Sequence[Metric]) -> tuple[Row, list[Row]]:
    """(the metric columns of workload `w`'s row, the columns of each of its per-key rows): NaN for a metric not
    `declared` by its kind."""
    applies = set(declared)
    row: Row = {}
    for m in metrics:
        if m.name not in applies:
            row.update(m.absent())
        else:
            row.update(m.empty() if m.shape == PER_KEY else m.flatten(w.get(m.name)))
    return row, _entries([m for m in metrics if m.shape == PER_KEY and m.name in applies], w)


# ------------------------------------------------------------------------------- the columns of every kind
def _host_index(summary: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["node"]: h for h in summary.get("hosts", [])}


def _sum(hosts: Mapping[str, dict[str, Any]], nodes: Iterable[Any], f: Callable[[dict[str, Any]], Any]) -> float:
    vals = [f(hosts[n]) for n in nodes if n in hosts]
    return float(sum(vals)) if vals else float("nan")


def _counter(key: str) -> Callable[[dict[str, Any]], Any]:
    """A host's counter `key` (0 when it has none)."""
    return lambda h: (h.get("counters") or {}).get(key, 0)


def size_octets(text: Any) -> int | None:
    """A scenario size ("64", "4KiB", "1MB", 4096) in octets, read by the scenario loader's own parser
    (_iwarpsim.parse_size); None when it is not one size the loader takes."""
    if isinstance(text, bool) or text is None or isinstance(text, (list, dict, tuple)):
        return None
    if isinstance(text, int):
        return text
    from . import _iwarpsim

    try:
        return _iwarpsim.parse_size(str(text))
    except (ValueError, TypeError):
        return None


def _kinds() -> list[dict[str, Any]]:
    """The runner's workload kinds (its registry, through the bindings): no kind is named here."""
    from ._core import workload_kinds

    return workload_kinds()


def _identity(w: Mapping[str, Any], spec: Mapping[str, Any], kind: Any) -> Row:
    msgs, octets = w.get("messages") or {}, w.get("octets") or {}
    return {"workload": w["name"], "kind": kind, "op": w.get("op"), "llp": w.get("llp"),
            "size": size_octets(spec.get("size")), "messages_posted": msgs.get("posted"),
            "messages_delivered": msgs.get("delivered"), "octets_delivered": octets.get("delivered"),
            "completed": w.get("completed")}


def _run_columns(w: Mapping[str, Any], summary: Mapping[str, Any], hosts: Mapping[str, dict[str, Any]]) -> Row:
    """Retransmissions, terminates, the run's checks and costs, and the hosts the data goes between as the
    runner states them (which way a Read's data flows is its rule, not repeated here): each host once, in the
    order of the flows."""
    flows = w.get("data_flows") or []
    src = list(dict.fromkeys(f["source"] for f in flows))
    dst = list(dict.fromkeys(f["sink"] for f in flows))
    rtx = w.get("retransmissions") or {}
    delivered = float((w.get("octets") or {}).get("delivered") or 0)
    per = (lambda x: x / delivered) if delivered > 0 else (lambda x: float("nan"))
    row: Row = {"retransmissions": rtx.get("total"), "retransmissions_fast": rtx.get("fast"),
                "retransmissions_timeout": rtx.get("timeout"), "rto_expirations": rtx.get("rto_expirations"),
                "terminates": len(w.get("terminates") or []), "checks_failed": summary.get("checks_failed"),
                "src_hosts": ",".join(str(x) for x in src), "dst_hosts": ",".join(str(x) for x in dst)}
    for role, nodes in (("src", src), ("dst", dst)):
        row[role + "_cpu_busy_ns_per_byte"] = per(_sum(hosts, nodes, lambda h: sum(h.get("cpu_busy_ns") or [0])))
        row[role + "_cpu_cycles_per_byte"] = per(
            _sum(hosts, nodes, lambda h: (h.get("counters") or {}).get("cpu_cycles", 0)))
        row[role + "_bus_bytes_per_byte"] = per(_sum(hosts, nodes, lambda h: h.get("bus_bytes", 0)))
        # received octets read from the last-level cache (DDIO), each two bus crossings fewer
        row[role + "_ddio_bytes_per_byte"] = per(_sum(hosts, nodes, _counter("ddio_bytes")))
        # the cycles by use (cpu_cycles_stack, _copy, ...: doc/host-model.md), as the hosts' counters name them
        uses = sorted({k for n in nodes for k in (hosts.get(n, {}).get("counters") or {}) if k.startswith("cpu_cycles_")})
        for key in uses:
            row["%s_%s_per_byte" % (role, key)] = per(_sum(hosts, nodes, _counter(key)))
    row["wall_time_s"] = summary.get("wall_time_s")
    row["events"] = summary.get("events")
    return row


def _read_folder(out_dir: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(summary.json, the scenario's workloads by name) of a results folder; an older summary format is refused."""
    import yaml

    from ._core import SUMMARY_FORMAT

    with open(os.path.join(out_dir, "summary.json")) as f:
        summary = json.load(f)
    if summary.get("format") != SUMMARY_FORMAT:
        raise ValueError("%s: summary.json format %r, this iwarpsim reads format %d"
                         % (out_dir, summary.get("format"), SUMMARY_FORMAT))
    scenario: dict[str, Any] = {}
    p = os.path.join(out_dir, "scenario.yaml")
    if os.path.exists(p):
        with open(p) as f:
            scenario = yaml.safe_load(f) or {}
    specs = {str(w.get("name") or "%s-%d" % (w.get("kind"), i)): w
             for i, w in enumerate(scenario.get("workloads") or [])}
    return summary, specs


def rows_from_results(out_dir: str) -> list[Row]:
    """Rows of one results folder (summary.json format SUMMARY_FORMAT), without the grid columns: one per
    workload, or per entry of a per-key metric its kind declares (a ping-pong: one per message size); every
    row with the same columns, NaN for a metric its kind does not declare (this module's docstring)."""
    summary, specs = _read_folder(out_dir)
    kinds = _kinds()
    by_name = {k["name"]: k for k in kinds}
    metrics = plan_metrics(metric_names(kinds), summary["workloads"])
    hosts = _host_index(summary)
    rows: list[Row] = []
    for w in summary["workloads"]:
        spec = specs.get(w["name"], {})
        kind = w.get("kind", spec.get("kind"))
        declared = [*(by_name.get(kind, {}).get("metrics") or []), *COMMON_METRICS]
        own, per_key = metric_rows(w, declared, metrics)
        row = {**_identity(w, spec, kind), **own, **_run_columns(w, summary, hosts)}
        rows.extend([dict(row, **e) for e in per_key] or [row])
    return rows
