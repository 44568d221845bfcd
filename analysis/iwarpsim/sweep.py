"""sweep(): a scenario over a grid of --set overrides and repeats, in parallel, cached, as one DataFrame.

Every (grid point, repeat) is one simulation in a process of its own, started by a worker (of a local
ProcessPoolExecutor, or of a Dask cluster) that runs one at a time: a simulation after another in one process
would draw other random numbers (_run_point_in_child says why), so a point's figures are those `iwarp-sim run`
gives, whatever ran before it.  Its results folder and its rows are kept under cache_dir/<hash>/, the hash being that of
the base scenario's text, the overrides, the seed and the simulator's build (build_id.py): a later call
with the same point on the same build reads the rows back instead of simulating again.  A point that finishes also leaves its wall time in
cache_dir/costs/ (keyed without the seed): a later sweep starts the points it can estimate from there
longest first, so that a long point does not start last and leave the other workers idle at the end.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from ._rows import Row, rows_from_results
from ._rows import size_octets as size_octets  # noqa: F401  (re-exported: sweep.size_octets predates _rows.py)
from ._stopping import (
    _children_start_without_sigint,
    _kill_dask_workers,
    _quiet_logger,
    _sigterm_stops_the_sweep,
    _stop_processes,
    _Terminated,
    _worker_ignores_sigint,
)
from .build_id import build_id

if TYPE_CHECKING:  # pandas and distributed are imported where they are used, not with the package
    import pandas as pd
    from distributed import Client

    from ._core import Scenario, StrPath

# One point of a sweep as its worker gets it (sweep() builds them): scenario, overrides, dir, grid, extra, cost.
Task: TypeAlias = dict[str, Any]
PointResult: TypeAlias = tuple[list[Row], bool]  # what _run_point returns: (rows, simulated?)

# bump when the rows computed from a results folder change (3: summary.json format 3; 4: every row has every
# column, from the kinds' declared metrics, _rows.py; 5: each point in a process of its own, where points run
# before in the same worker had changed its random numbers)
CACHE_FORMAT = 5
COST_FORMAT = 1  # the cost records in cache_dir/costs/ (_record_cost)


def _value_text(v: Any) -> str:
    """A grid value as --set text (the value part of key=value, parsed as YAML by the runner)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v)  # JSON is YAML flow syntax
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _base_source(base: Scenario) -> tuple[Scenario, str]:
    """(what a worker passes to _iwarpsim.run, canonical text for the cache key)."""
    if isinstance(base, dict):
        return base, json.dumps(base, sort_keys=True, default=str)
    s = os.fspath(base)
    if "\n" not in s and os.path.isfile(s):
        with open(s) as f:
            # The path (not only the text) so that relative graphml files resolve as with iwarp-sim.
            return os.path.abspath(s), "file:" + os.path.abspath(s) + "\n" + f.read()
    return s, s


def _hash(value: Any) -> str:
    """A cache name: the first 24 hex digits of the SHA-256 of `value` as JSON (a str is hashed as such)."""
    return hashlib.sha256(json.dumps(value).encode()).hexdigest()[:24]


def _cached_rows(task: Task) -> PointResult | None:
    """The point's rows if a finished run left them in its cache folder, else None."""
    cached = os.path.join(task["dir"], "rows.json")
    if not os.path.exists(cached):
        return None
    with open(cached) as f:
        return json.load(f), False


def _run_point(task: Task) -> PointResult:
    """Worker: simulate one point unless its rows are cached; returns (rows, simulated?)."""
    known = _cached_rows(task)
    if known is not None:
        return known
    from . import _iwarpsim

    cached = os.path.join(task["dir"], "rows.json")

    out_dir = os.path.join(task["dir"], "results")
    if os.path.exists(task["dir"]):  # left by a run that died before writing its rows
        shutil.rmtree(task["dir"])
    os.makedirs(task["dir"])
    with open(os.path.join(task["dir"], "point.json"), "w") as f:
        json.dump({"overrides": task["overrides"], "grid": task["grid"]}, f, indent=1)
    t0 = time.perf_counter()  # after the import: a worker's first point would pay ns-3's loading
    _iwarpsim.run(task["scenario"], task["overrides"], out_dir, False)
    rows = rows_from_results(out_dir)
    for r in rows:
        r["out_dir"] = out_dir
    _write_json_atomically(cached, rows)  # the point counts as done only once its rows are complete
    _record_cost(task, time.perf_counter() - t0)
    return rows, True


def _write_json_atomically(path: str, value: Any) -> None:
    """Readers see the old file or the whole new one, never a part (a worker may die while writing)."""
    tmp = "%s.tmp-%d-%d" % (path, os.getpid(), threading.get_ident())
    with open(tmp, "w") as f:
        json.dump(value, f)
    os.replace(tmp, path)


def _warn(text: str) -> None:
    sys.stderr.write("sweep: %s\n" % text)
    sys.stderr.flush()


def _record_cost(task: Task, wall_time_s: float) -> None:
    """Keep what the point cost (its simulation and its rows) for the next sweep's ordering.  One file per
    point without its seed: every repeat of a point costs about the same, and the last one run is kept.
    The point is already in the cache: failing to write its cost only loses an estimate, so it warns."""
    cost = task["cost"]
    record = {"format": COST_FORMAT, "scenario": cost["scenario"], "overrides": cost["overrides"],
              "wall_time_s": wall_time_s}
    try:
        os.makedirs(os.path.dirname(cost["file"]), exist_ok=True)
        _write_json_atomically(cost["file"], record)
    except OSError as e:
        _warn("could not record the cost of %s: %s" % (" ".join(cost["overrides"]) or "the point", e))


def _read_cost(cost: dict[str, Any]) -> float | None:
    """The wall time a cost record gives the point, or None: no record, or one that is not ours or not
    whole (it is ignored with a warning; an estimate is never worth failing a sweep for)."""
    try:
        with open(cost["file"]) as f:
            record = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:  # ValueError: not JSON, or not UTF-8
        _warn("ignoring the cost record %s: %s" % (cost["file"], e))
        return None
    wall = record.get("wall_time_s") if isinstance(record, dict) else None
    if not (isinstance(record, dict) and record.get("format") == COST_FORMAT
            and record.get("scenario") == cost["scenario"] and record.get("overrides") == cost["overrides"]):
        _warn("ignoring the cost record %s: not one of format %d for this point" % (cost["file"], COST_FORMAT))
        return None
    if isinstance(wall, bool) or not isinstance(wall, (int, float)) or not 0 <= wall < float("inf"):
        _warn("ignoring the cost record %s: wall_time_s %r is not a time" % (cost["file"], wall))
        return None
    return float(wall)


def _longest_first(tasks: Sequence[Task], todo: list[int]) -> list[int]:
    """The order to start the points `todo` (indices into tasks) in: those with a cost record, most
    expensive first, then those without one in grid order.  Equal estimates keep grid order too."""
    estimate: dict[str, float | None] = {}
    for i in todo:
        f = tasks[i]["cost"]["file"]
        if f not in estimate:  # the repeats of a point share one record: read (and warn) once
            estimate[f] = _read_cost(tasks[i]["cost"])
    known = sorted((i for i in todo if estimate[tasks[i]["cost"]["file"]] is not None),
                   key=lambda i: -cast(float, estimate[tasks[i]["cost"]["file"]]))  # not None: filtered
    return known + [i for i in todo if estimate[tasks[i]["cost"]["file"]] is None]


class _Bar(Protocol):
    """What sweep() asks of a progress bar: tqdm's, _TinyBar or none."""

    def update(self, k: int = 1) -> object: ...

    def close(self) -> None: ...


class _TinyBar:
    """A progress line on stderr for when tqdm is missing."""

    def __init__(self, total: int, desc: str) -> None:
        self.total, self.n, self.desc, self.t0 = total, 0, desc, time.time()
        self._draw()

    def update(self, k: int = 1) -> None:
        self.n += k
        self._draw()

    def _draw(self) -> None:
        w = 30
        done = int(w * self.n / self.total) if self.total else w
        sys.stderr.write("\r%s [%s%s] %d/%d %.0fs" % (self.desc, "#" * done, "." * (w - done), self.n,
                                                     self.total, time.time() - self.t0))
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")


def _bar(total: int, desc: str, enabled: bool) -> _Bar:
    if not enabled:
        class _Null:
            def update(self, k: int = 1) -> None:
                pass

            def close(self) -> None:
                pass
        return _Null()
    try:
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, file=sys.stderr, unit="run")
    except ImportError:
        return _TinyBar(total, desc)


def default_cache_dir() -> str:
    """$IWARPSIM_CACHE, else iwarpsim/ in the user's cache folder ($XDG_CACHE_HOME, else ~/.cache): not the
    current directory, which would scatter caches wherever a sweep happened to start."""
    if os.environ.get("IWARPSIM_CACHE"):
        return os.environ["IWARPSIM_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "iwarpsim")


@contextlib.contextmanager
def _spawnable_main() -> Iterator[None]:
    """Spawned workers re-run the caller's __main__ from its file; a script read from stdin
    (python3 - < script.py, a paste) has the file '<stdin>', which does not exist and kills every
    worker.  Hide such a name while workers start: they then skip re-running __main__."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    bogus = (path is not None and getattr(main, "__spec__", None) is None and not os.path.exists(path))
    if bogus:
        delattr(main, "__file__")
    try:
        yield
    finally:
        if bogus:
            setattr(main, "__file__", path)


def local_executor(jobs: int | None = None) -> cf.ProcessPoolExecutor:
    """A process pool as sweep() makes one: `jobs` spawned processes.  Pass it to several sweep() calls
    (executor=) to pay the workers' start-up (importing pandas) once; close it with shutdown().  Each point
    still runs in a new process of its own, started by its worker (_run_point_in_child)."""
    return cf.ProcessPoolExecutor(max_workers=max(1, int(jobs or os.cpu_count() or 1)),
                                  mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_worker_ignores_sigint)


def _dies_with_parent() -> None:
    """In a child about to run a point: SIGKILL it should its parent die (a stopped sweep kills Dask's workers,
    which cannot pass a signal on while they wait; Linux's PR_SET_PDEATHSIG, elsewhere nothing)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG = 1


def _run_point_in_child(task: Task) -> PointResult:
    """_run_point in a new Python process of its own (python3 -m iwarpsim._point), what every worker runs: a
    simulation after another in the same process draws other random numbers than in a fresh one (ns-3 numbers
    the random streams it assigns itself per process, and cannot restart the count), so a point's figures would
    depend on which points its worker ran before; alone in its process, a point gives what `iwarp-sim run`
    gives."""
    import subprocess

    known = _cached_rows(task)
    if known is not None:  # no process to start for a finished point
        return known
    done = subprocess.run([sys.executable, "-m", "iwarpsim._point"], input=json.dumps(task), text=True,
                          capture_output=True, preexec_fn=_dies_with_parent)
    if done.stderr:  # its warnings (a cost it could not record, ...), where the worker's own would go
        sys.stderr.write(done.stderr)
        sys.stderr.flush()
    answer = json.loads(done.stdout) if done.returncode == 0 and done.stdout else None
    if answer is None:
        raise RuntimeError("the simulation of %s failed (exit %d): %s" % (task["dir"], done.returncode,
                                                                        done.stderr.strip()[-2000:]))
    if "error" in answer:
        from . import _iwarpsim

        raise getattr(_iwarpsim, answer["error"], RuntimeError)(answer["message"])
    return answer["rows"], answer["simulated"]


def sweep(base: Scenario, grid: Mapping[str, Any] | None = None, repeats: int = 1, jobs: int | None = None,
          cache_dir: StrPath | None = None, scheduler: str | Client | None = None, dask: bool = False, seed: int = 1,
          progress: bool = True, desc: str = "sweep", executor: cf.Executor | None = None) -> pd.DataFrame:
    """Run `base` at every point of `grid` (`repeats` times each) and return one row per workload and run.

    base:      scenario dict, YAML text or file path.
    grid:      {"dot.path": [values]} (iwarp-sim --set keys: "workloads.0.size", "links.loss", ...);
               the points are the cartesian product, in the order given.
    repeats:   runs per point; repeat r runs with seed = seed + r (the scenario's seed is overridden).
    jobs:      worker processes (default: os.cpu_count()); each runs one simulation at a time.
    cache_dir: where points are kept (default_cache_dir(): $IWARPSIM_CACHE or ~/.cache/iwarpsim); a point already
               there, computed by this build of the simulator (build_id.py), is read back, not simulated.
    Order:     the points to simulate are started longest first as far as their cost is known: each
               point that finishes records its wall time in cache_dir/costs/ under the scenario and
               its grid values (not the seed, so the other repeats, or a later sweep with other seeds,
               use it).  Points with a record start first, the most expensive first; points without one
               follow in grid order.  A record that cannot be read or is not ours is ignored with a
               warning on stderr.  The order changes only when points start, never their rows.
    dask:      run on a local Dask cluster (LocalCluster, `jobs` worker processes, 1 thread each);
    scheduler: or on the Dask cluster at this address (or a distributed.Client); implies dask.
    executor:  a concurrent.futures executor to use instead of a new process pool (local_executor());
               it must run each task in a process of its own at a time (not threads: one ns-3 each).
    Rows: one tidy table, a row per workload and run; a kind that declares a per-key metric (a ping-pong
    kind's latency_by_size) gives a row per entry instead, one per message size.  Every row has every
    column, whatever its kind.  Columns: the grid keys, repeat, seed, workload, kind, op, llp, size
    (octets; empty for a workload of several sizes), messages_posted, messages_delivered,
    octets_delivered, completed (every message the workload was to post was posted and delivered),
    then the metric columns, then retransmissions, retransmissions_fast, retransmissions_timeout,
    rto_expirations, terminates, checks_failed (the run's failed physics checks), src_hosts,
    dst_hosts, src_/dst_ cpu_busy_ns_per_byte, cpu_cycles_per_byte, bus_bytes_per_byte, ddio_bytes_per_byte and
    cpu_cycles_<use>_per_byte for each use the hosts' counters name (stack, copy, crc, verbs,
    registration, checksum) (the hosts' counters over octets_delivered: exact only when those hosts run nothing
    else), wall_time_s,
    events, cached, out_dir; message and octet counts are the workload's, over all its sizes.
    The metric columns are the summary.json metrics the workload kinds declare (workload_kinds(),
    "metrics"; the union over all kinds) and sender_completion_ns, which every workload reports,
    flattened by one rule (_rows.py): a scalar is a column of its name (goodput_bps,
    goodput_window_bps); a dict of statistics a column per statistic, put before the unit suffix
    (fct_ns: fct_p50_ns, fct_p99_ns, fct_mean_ns, fct_max_ns, fct_count; sender_completion_p50_ns
    ...); a list <quantity>_by_<key> a row per entry with <key> in its column and the statistics
    named the same way (latency_by_size: size, latency_p50_ns, latency_p99_ns, latency_mean_ns,
    latency_max_ns, latency_count: half a round trip, for that size).  A metric the row's kind does
    not declare is NaN (a ping-pong row's goodput and FCT, a stream row's latency); doc/metrics.md
    defines each metric.
    df.attrs["simulated"] / ["cached"] count the runs done now and the points read from the cache.

    SIGTERM to the calling process does the same as Ctrl-C, then ends it as SIGTERM would (or runs the
    handler the caller had installed, then raises KeyboardInterrupt).
    Ctrl-C (KeyboardInterrupt in the calling thread) stops the sweep: points not started are cancelled,
    the worker processes are ended (their simulations cannot be interrupted; an executor passed in is
    shut down), the folders of the points they were running are removed, one line on stderr says how
    many points are done, and KeyboardInterrupt is raised.  The workers ignore SIGINT themselves (a
    terminal's Ctrl-C reaches them too) and print nothing.  A point in the cache is always complete.
    """
    import pandas as pd

    grid = dict(grid or {})
    if "seed" in grid:
        raise ValueError("sweep: 'seed' is set per repeat (seed + repeat); use the seed argument")
    keys = list(grid)
    values = [list(v) if isinstance(v, (list, tuple, range)) else [v] for v in grid.values()]
    source, canon = _base_source(base)
    cache_dir = os.path.abspath(os.fspath(cache_dir) if cache_dir else default_cache_dir())
    scenario_key = _hash(canon)
    build = build_id()
    tasks: list[Task] = []
    for combo in itertools.product(*values) if keys else [()]:
        point = ["%s=%s" % (k, _value_text(v)) for k, v in zip(keys, combo)]
        cost = {"scenario": scenario_key, "overrides": point,
                "file": os.path.join(cache_dir, "costs", _hash({"scenario": canon, "overrides": point}) + ".json")}
        for rep in range(repeats):
            s = seed + rep
            overrides = point + ["seed=%d" % s]
            key = _hash({"format": CACHE_FORMAT, "build": build, "scenario": canon, "overrides": overrides})
            grid_values = dict(zip(keys, combo))
            tasks.append({"scenario": source, "overrides": overrides, "dir": os.path.join(cache_dir, key),
                          "grid": {k: _value_text(v) for k, v in grid_values.items()},
                          "extra": dict(grid_values, repeat=rep, seed=s), "cost": cost})
    os.makedirs(cache_dir, exist_ok=True)

    results: list[PointResult | None] = [None] * len(tasks)
    todo: list[int] = []
    for i, t in enumerate(tasks):  # cached points are read here: no worker is started for a finished sweep
        if os.path.exists(os.path.join(t["dir"], "rows.json")):
            results[i] = _run_point(t)
        else:
            todo.append(i)
    todo = _longest_first(tasks, todo)
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    bar: _Bar | None  # None once closed
    bar = _bar(len(tasks), desc, progress)
    bar.update(len(tasks) - len(todo))
    try:
        with _sigterm_stops_the_sweep():
            if todo and (dask or scheduler is not None):
                _run_dask(tasks, todo, results, jobs, scheduler, bar)
            elif todo:
                _run_local(tasks, todo, results, jobs, executor, bar)
    except KeyboardInterrupt as stop:
        bar.close()
        bar = None
        how = "terminated" if isinstance(stop, _Terminated) else "interrupted"
        done = sum(os.path.exists(os.path.join(t["dir"], "rows.json")) for t in tasks)
        sys.stderr.write("%s %s: %d of %d points done, kept in the cache %s\n"
                         % (desc, how, done, len(tasks), cache_dir))
        sys.stderr.flush()
        if isinstance(stop, _Terminated):
            os.kill(os.getpid(), signal.SIGTERM)  # the caller's handler is back: by default, the end
        raise KeyboardInterrupt("%s %s" % (desc, how)) from None
    finally:
        if bar is not None:
            bar.close()

    rows = []
    simulated = 0
    for t, (rws, ran) in zip(tasks, cast(list[PointResult], results)):  # every point is done by now
        simulated += int(ran)
        for r in rws:
            rows.append(dict(t["extra"], **r, cached=not ran))
    df = pd.DataFrame(rows)
    df.attrs["simulated"] = simulated
    df.attrs["cached"] = len(tasks) - simulated
    return df


def _forget_unfinished(tasks: Sequence[Task], todo: Iterable[int]) -> None:
    """Remove the folders of points that did not finish (their workers are gone): a point in the
    cache is complete (rows.json) or absent."""
    for i in todo:
        d = tasks[i]["dir"]
        if os.path.isdir(d) and not os.path.exists(os.path.join(d, "rows.json")):
            shutil.rmtree(d, ignore_errors=True)


def _run_local(tasks: Sequence[Task], todo: list[int], results: list[PointResult | None], jobs: int,
               executor: cf.Executor | None, bar: _Bar) -> None:
    # spawn: workers start clean (no copy of this process's threads or ns-3 state)
    ex = executor or local_executor(min(jobs, len(todo)))
    try:
        # the pool starts its workers (and its manager thread) as tasks are submitted
        with _spawnable_main(), _children_start_without_sigint():
            futs = {ex.submit(_run_point_in_child, tasks[i]): i for i in todo}
        for fut in cf.as_completed(futs):
            results[futs[fut]] = fut.result()
            bar.update()
    except KeyboardInterrupt:
        # Stop now: cancel what has not started, end the simulations running (they cannot be
        # interrupted), forget their half-written points.  The pool, even one passed in, is shut down.
        for f in futs if "futs" in locals() else ():
            f.cancel()
        procs = list((getattr(ex, "_processes", None) or {}).values())
        ex.shutdown(wait=False, cancel_futures=True)
        _stop_processes(procs)
        if procs or not isinstance(ex, cf.ProcessPoolExecutor):
            _forget_unfinished(tasks, todo)
        raise
    finally:
        if executor is None:
            ex.shutdown(cancel_futures=True)


def _run_dask(tasks: Sequence[Task], todo: list[int], results: list[PointResult | None], jobs: int,
              scheduler: str | Client | None, bar: _Bar) -> None:
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    own_client = True
    # Dask's nannies spawn (and restart) workers from the cluster's thread while it lives: that thread,
    # and so every worker, starts with SIGINT blocked; Ctrl-C reaches only this process.
    with _spawnable_main(), _children_start_without_sigint():
        if scheduler is None:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        elif isinstance(scheduler, Client):
            client, own_client = scheduler, False
        else:
            client = Client(scheduler)
    futs = []
    interrupted = False
    try:
        with _spawnable_main():
            futs = client.map(_run_point_in_child, [tasks[i] for i in todo], pure=False)
            where = {f.key: i for f, i in zip(futs, todo)}
            for fut in as_completed(futs):
                results[where[fut.key]] = fut.result()
                bar.update()
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        with contextlib.ExitStack() as quiet:
            if interrupted:
                quiet.enter_context(_quiet_logger("distributed"))
                if cluster is not None:  # kill our workers now rather than wait for their simulations
                    _kill_dask_workers(cluster)
                else:  # a cluster not ours: what runs there finishes (its rows are written whole)
                    with contextlib.suppress(Exception):
                        client.cancel(futs)
            if own_client:
                client.close()
            if cluster is not None:
                cluster.close()
                if interrupted:
                    _forget_unfinished(tasks, todo)
