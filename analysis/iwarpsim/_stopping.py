"""Stopping a sweep: the signals (Ctrl-C, SIGTERM) and the worker processes and Dask workers they end.

sweep.py runs the points; this module keeps a stopped sweep from leaving a worker running or printing
tracebacks of its own.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only; distributed (Dask) is optional, imported by a sweep that uses it
    from multiprocessing.process import BaseProcess
    from types import FrameType

    from distributed import LocalCluster


def _worker_ignores_sigint() -> None:
    """Process-pool initializer: Ctrl-C is for the sweep's process, which stops the workers itself
    (a worker interrupted on its own would print its traceback and leave a half-written point)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # discards a SIGINT that came while blocked
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _children_start_without_sigint() -> Iterator[None]:
    """Processes (and threads) started in here begin with SIGINT blocked: the signal mask is
    inherited through fork, exec and thread creation.  Ctrl-C in a terminal signals the whole
    process group, the workers included; blocked, it cannot interrupt a worker that is still
    starting (before _worker_ignores_sigint runs, or a Dask worker).  The caller gets it at exit."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # Started now, not while SIGINT is blocked: starting multiprocessing's resource tracker (the first
    # spawn or semaphore does) unblocks SIGINT and SIGTERM in the calling thread when it is done.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class _Terminated(KeyboardInterrupt):
    """SIGTERM during a sweep: the sweep stops as on Ctrl-C, then the process ends by SIGTERM."""


@contextlib.contextmanager
def _sigterm_stops_the_sweep() -> Iterator[None]:
    """SIGTERM to the sweep's process (a scheduler's or `kill PID`'s, which reaches this process only) is
    turned into the Ctrl-C path, which ends the workers; by default it would end this process alone and
    leave them running."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise _Terminated()

    old = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _stop_processes(procs: Iterable[BaseProcess | None], grace: float = 2.0) -> None:
    """SIGTERM, then SIGKILL after `grace` seconds, the processes still alive; wait for them."""
    alive = [p for p in procs if p is not None and p.is_alive()]
    for p in alive:
        p.terminate()
    deadline = time.time() + grace
    for p in alive:
        p.join(max(0.0, deadline - time.time()))
    for p in alive:
        if p.is_alive():
            p.kill()
            p.join(5)


@contextlib.contextmanager
def _quiet_logger(name: str) -> Iterator[None]:
    """Silence a logger (Dask's, while an interrupted cluster is torn down: its warnings about killed
    workers are expected then)."""
    import logging

    log = logging.getLogger(name)
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        log.setLevel(level)


def _kill_dask_workers(cluster: LocalCluster) -> None:
    """SIGKILL the worker processes of a LocalCluster.  Their nannies are marked failed first: a nanny
    restarts a worker that dies while it runs (and a worker closed while starting prints tracebacks),
    a failed one does nothing until cluster.close() closes it."""
    from distributed.core import Status

    nannies = list(cluster.workers.values())
    for nanny in nannies:
        with contextlib.suppress(Exception):
            nanny.status = Status.failed
    for nanny in nannies:
        pid = getattr(nanny, "pid", None)
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
