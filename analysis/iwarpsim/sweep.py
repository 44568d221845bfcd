"""sweep(): a scenario over a grid of --set overrides and repeats, in parallel, cached, as one DataFrame.

Every (grid point, repeat) is one simulation in a worker process (a local ProcessPoolExecutor, or the
workers of a Dask cluster), each process running one simulation at a time (ns-3's simulator is a
singleton).  Its results folder and its rows are kept under cache_dir/<hash>/, the hash being that of
the base scenario's text, the overrides and the seed: a later call with the same point reads the rows
back instead of simulating again.
"""
import concurrent.futures as cf
import contextlib
import hashlib
import itertools
import json
import multiprocessing
import os
import shutil
import sys
import time

CACHE_FORMAT = 1  # bump when the rows computed from a results folder change


def _value_text(v):
    """A grid value as --set text (the value part of key=value, parsed as YAML by the runner)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v)  # JSON is YAML flow syntax
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _base_source(base):
    """(what a worker passes to _iwarpsim.run, canonical text for the cache key)."""
    if isinstance(base, dict):
        return base, json.dumps(base, sort_keys=True, default=str)
    s = os.fspath(base)
    if "\n" not in s and os.path.isfile(s):
        with open(s) as f:
            # The path (not only the text) so that relative graphml files resolve as with iwarp-sim.
            return os.path.abspath(s), "file:" + os.path.abspath(s) + "\n" + f.read()
    return s, s


def _host_index(summary):
    return {h["node"]: h for h in summary.get("hosts", [])}


def _sum(hosts, nodes, f):
    vals = [f(hosts[n]) for n in nodes if n in hosts]
    return float(sum(vals)) if vals else float("nan")


def rows_from_results(out_dir):
    """Per-workload rows of one results folder (without the grid columns)."""
    import yaml

    with open(os.path.join(out_dir, "summary.json")) as f:
        summary = json.load(f)
    scenario = {}
    p = os.path.join(out_dir, "scenario.yaml")
    if os.path.exists(p):
        with open(p) as f:
            scenario = yaml.safe_load(f) or {}
    specs = {}
    for i, w in enumerate(scenario.get("workloads") or []):
        specs[str(w.get("name") or "%s-%d" % (w.get("kind"), i))] = w
    hosts = _host_index(summary)
    rows = []
    for w in summary["workloads"]:
        spec = specs.get(w["name"], {})
        kind = w.get("kind", spec.get("kind"))
        if kind == "incast":
            src, dst = list(spec.get("senders") or []), [spec.get("to")]
        elif kind == "read":  # data flows from the responder to the initiator
            src, dst = [spec.get("to")], [spec.get("from")]
        else:
            src, dst = [spec.get("from")], [spec.get("to")]
        lat = w.get("latency_ns") or {}
        nbytes = float(w.get("bytes") or 0)
        per = (lambda x: x / nbytes) if nbytes > 0 else (lambda x: float("nan"))
        row = {
            "workload": w["name"],
            "kind": kind,
            "op": spec.get("op", "read" if kind == "read" else ("sockets" if str(kind).startswith("sockets") else "write")),
            "size": spec.get("size"),
            "messages": w.get("messages"),
            "bytes": w.get("bytes"),
            "throughput_bps": w.get("throughput_bps"),
            "latency_p50_ns": lat.get("p50"),
            "latency_p99_ns": lat.get("p99"),
            "latency_mean_ns": lat.get("mean"),
            "retransmissions": w.get("retransmissions"),
            "terminates": len(w.get("terminates") or []),
            "src_hosts": ",".join(str(x) for x in src),
            "dst_hosts": ",".join(str(x) for x in dst),
        }
        for role, nodes in (("src", src), ("dst", dst)):
            row[role + "_cpu_busy_ns_per_byte"] = per(_sum(hosts, nodes, lambda h: sum(h.get("cpu_busy_ns") or [0])))
            row[role + "_cpu_cycles_per_byte"] = per(
                _sum(hosts, nodes, lambda h: (h.get("counters") or {}).get("cpu_cycles", 0)))
            row[role + "_bus_bytes_per_byte"] = per(_sum(hosts, nodes, lambda h: h.get("bus_bytes", 0)))
        row["wall_time_s"] = summary.get("wall_time_s")
        row["events"] = summary.get("events")
        rows.append(row)
    return rows


def _run_point(task):
    """Worker: simulate one point unless its rows are cached; returns (rows, simulated?)."""
    cached = os.path.join(task["dir"], "rows.json")
    if os.path.exists(cached):
        with open(cached) as f:
            return json.load(f), False
    from . import _iwarpsim

    out_dir = os.path.join(task["dir"], "results")
    if os.path.exists(out_dir):  # left by a run that died before writing its rows
        shutil.rmtree(out_dir)
    os.makedirs(task["dir"], exist_ok=True)
    _iwarpsim.run(task["scenario"], task["overrides"], out_dir, False)
    rows = rows_from_results(out_dir)
    for r in rows:
        r["out_dir"] = out_dir
    tmp = cached + ".tmp-%d" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(rows, f)
    os.replace(tmp, cached)  # the point counts as done only once its rows are complete
    with open(os.path.join(task["dir"], "point.json"), "w") as f:
        json.dump({"overrides": task["overrides"], "grid": task["grid"]}, f, indent=1)
    return rows, True


class _TinyBar:
    """A progress line on stderr for when tqdm is missing."""

    def __init__(self, total, desc):
        self.total, self.n, self.desc, self.t0 = total, 0, desc, time.time()
        self._draw()

    def update(self, k=1):
        self.n += k
        self._draw()

    def _draw(self):
        w = 30
        done = int(w * self.n / self.total) if self.total else w
        sys.stderr.write("\r%s [%s%s] %d/%d %.0fs" % (self.desc, "#" * done, "." * (w - done), self.n,
                                                     self.total, time.time() - self.t0))
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")


def _bar(total, desc, enabled):
    if not enabled:
        class _Null:
            def update(self, k=1):
                pass

            def close(self):
                pass
        return _Null()
    try:
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, file=sys.stderr, unit="run")
    except ImportError:
        return _TinyBar(total, desc)


def default_cache_dir():
    return os.environ.get("IWARPSIM_CACHE") or os.path.join(os.getcwd(), "iwarpsim-cache")


@contextlib.contextmanager
def _spawnable_main():
    """Spawned workers re-run the caller's __main__ from its file; a script read from stdin
    (python3 - < script.py, a paste) has the file '<stdin>', which does not exist and kills every
    worker.  Hide such a name while workers start: they then skip re-running __main__."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    bogus = (path is not None and getattr(main, "__spec__", None) is None and not os.path.exists(path))
    if bogus:
        del main.__file__
    try:
        yield
    finally:
        if bogus:
            main.__file__ = path


def local_executor(jobs=None):
    """A process pool as sweep() makes one: `jobs` spawned processes.  Pass it to several sweep() calls
    (executor=) to pay the workers' start-up (importing ns-3, pandas) once; close it with shutdown()."""
    return cf.ProcessPoolExecutor(max_workers=max(1, int(jobs or os.cpu_count() or 1)),
                                  mp_context=multiprocessing.get_context("spawn"))


def sweep(base, grid=None, repeats=1, jobs=None, cache_dir=None, scheduler=None, dask=False, seed=1,
          progress=True, desc="sweep", executor=None):
    """Run `base` at every point of `grid` (`repeats` times each) and return one row per workload and run.

    base:      scenario dict, YAML text or file path.
    grid:      {"dot.path": [values]} (iwarp-sim --set keys: "workloads.0.size", "links.loss", ...);
               the points are the cartesian product, in the order given.
    repeats:   runs per point; repeat r runs with seed = seed + r (the scenario's seed is overridden).
    jobs:      worker processes (default: os.cpu_count()); each runs one simulation at a time.
    cache_dir: where points are kept (default $IWARPSIM_CACHE or ./iwarpsim-cache); a point already
               there is read back, not simulated.
    dask:      run on a local Dask cluster (LocalCluster, `jobs` worker processes, 1 thread each);
    scheduler: or on the Dask cluster at this address (or a distributed.Client); implies dask.
    executor:  a concurrent.futures executor to use instead of a new process pool (local_executor());
               it must run each task in a process of its own at a time (not threads: one ns-3 each).
    Columns: the grid keys, repeat, seed, workload, kind, op, messages, bytes, throughput_bps,
    latency_p50_ns, latency_p99_ns, latency_mean_ns, retransmissions, terminates, src/dst hosts and
    src_/dst_ cpu_busy_ns_per_byte, cpu_cycles_per_byte, bus_bytes_per_byte (host counters divided by
    the workload's delivered bytes: exact only when those hosts run nothing else), cached, out_dir.
    df.attrs["simulated"] / ["cached"] count the runs done now and the points read from the cache.
    """
    import pandas as pd

    grid = dict(grid or {})
    if "seed" in grid:
        raise ValueError("sweep: 'seed' is set per repeat (seed + repeat); use the seed argument")
    keys = list(grid)
    values = [list(v) if isinstance(v, (list, tuple, range)) else [v] for v in grid.values()]
    source, canon = _base_source(base)
    cache_dir = os.path.abspath(os.fspath(cache_dir) if cache_dir else default_cache_dir())
    tasks = []
    for combo in itertools.product(*values) if keys else [()]:
        for rep in range(repeats):
            s = seed + rep
            overrides = ["%s=%s" % (k, _value_text(v)) for k, v in zip(keys, combo)] + ["seed=%d" % s]
            key = hashlib.sha256(json.dumps({"format": CACHE_FORMAT, "scenario": canon,
                                             "overrides": overrides}).encode()).hexdigest()[:24]
            grid_values = dict(zip(keys, combo))
            tasks.append({"scenario": source, "overrides": overrides, "dir": os.path.join(cache_dir, key),
                          "grid": {k: _value_text(v) for k, v in grid_values.items()},
                          "extra": dict(grid_values, repeat=rep, seed=s)})
    os.makedirs(cache_dir, exist_ok=True)

    results = [None] * len(tasks)
    todo = []
    for i, t in enumerate(tasks):  # cached points are read here: no worker is started for a finished sweep
        if os.path.exists(os.path.join(t["dir"], "rows.json")):
            results[i] = _run_point(t)
        else:
            todo.append(i)
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    bar = _bar(len(tasks), desc, progress)
    bar.update(len(tasks) - len(todo))
    try:
        if todo and (dask or scheduler is not None):
            with _spawnable_main():  # Dask's nannies spawn (and restart) workers while the cluster lives
                _run_dask(tasks, todo, results, jobs, scheduler, bar)
        elif todo:
            # spawn: workers start clean (no copy of this process's threads or ns-3 state)
            ex = executor or local_executor(min(jobs, len(todo)))
            try:
                with _spawnable_main():  # the pool starts its workers as tasks are submitted
                    futs = {ex.submit(_run_point, tasks[i]): i for i in todo}
                for fut in cf.as_completed(futs):
                    results[futs[fut]] = fut.result()
                    bar.update()
            finally:
                if executor is None:
                    ex.shutdown(cancel_futures=True)
    finally:
        bar.close()

    rows = []
    simulated = 0
    for t, (rws, ran) in zip(tasks, results):
        simulated += int(ran)
        for r in rws:
            rows.append(dict(t["extra"], **r, cached=not ran))
    df = pd.DataFrame(rows)
    df.attrs["simulated"] = simulated
    df.attrs["cached"] = len(tasks) - simulated
    return df


def _run_dask(tasks, todo, results, jobs, scheduler, bar):
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    own_client = True
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    elif isinstance(scheduler, Client):
        client, own_client = scheduler, False
    else:
        client = Client(scheduler)
    try:
        futs = client.map(_run_point, [tasks[i] for i in todo], pure=False)
        where = {f.key: i for f, i in zip(futs, todo)}
        for fut in as_completed(futs):
            results[where[fut.key]] = fut.result()
            bar.update()
    finally:
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()
