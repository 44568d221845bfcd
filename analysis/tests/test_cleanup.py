"""Issue 12, item 6: run() without out_dir leaves no /tmp/iwarpsim-* folders behind; Ctrl-C stops a sweep
with one line on stderr, no workers left and a cache of complete points only."""
import gc
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import iwarpsim


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """tempfile's folder for this test only, so that the folders run() creates can be counted."""
    d = tmp_path / "tmp"
    d.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(d))
    return d


def test_scenario_error_leaves_no_temporary_folder(tiny, private_tmp):
    tiny["stopp"] = "1ms"
    with pytest.raises(iwarpsim.ScenarioError):
        iwarpsim.run(tiny)
    assert os.listdir(private_tmp) == []


def test_temporary_folder_lives_as_long_as_the_result(tiny, private_tmp, tmp_path):
    r = iwarpsim.run(tiny)
    assert r.temporary and os.path.isdir(r.out_dir)
    assert os.path.dirname(os.path.dirname(r.out_dir)) == str(private_tmp)
    kept = r.save(tmp_path / "kept")
    assert not kept.temporary
    assert sorted(os.listdir(kept.out_dir)) == sorted(os.listdir(r.out_dir))
    assert kept.summary == r.summary
    with pytest.raises(FileExistsError):
        r.save(tmp_path / "kept")
    del r
    gc.collect()
    assert os.listdir(private_tmp) == []
    assert os.path.isfile(os.path.join(kept.out_dir, "summary.json"))  # the copy stays


def test_temporary_folder_removed_at_exit(tiny, tmp_path):
    """A Result still alive when the interpreter exits: its folder goes too."""
    code = ("import iwarpsim, sys; r = iwarpsim.run(%r); print(r.out_dir)" % (tiny,))
    env = dict(os.environ, TMPDIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith(str(tmp_path))
    assert glob.glob(str(tmp_path / "iwarpsim-*")) == []


def test_explicit_out_dir_is_never_removed(tiny, tmp_path):
    r = iwarpsim.run(tiny, out_dir=tmp_path / "out")
    assert not r.temporary
    del r
    gc.collect()
    assert (tmp_path / "out" / "summary.json").exists()


# A sweep whose first point is short and the others long (~1.5-4 s each): interrupted just after the
# first point is in the cache, two simulations are running.
SWEEP_SCRIPT = r'''
import sys
import iwarpsim
base = {"stop": "1s", "topology": {"kind": "two-hosts"}, "links": {"rate": "10Gbps", "delay": "2us"},
        "workloads": [{"kind": "stream", "from": "h0", "to": "h1", "op": "write", "size": "64KiB",
                       "outstanding": 8, "count": 100}]}
if __name__ == "__main__":
    iwarpsim.sweep(base, grid={"workloads.0.count": [300, 4000, 4001, 4002, 4003, 4004]}, jobs=2,
                   cache_dir=sys.argv[1], dask=sys.argv[2] == "dask", progress=True)
'''


def _session_processes(sid):
    """Live (not zombie) processes of a session."""
    out = subprocess.run(["ps", "-s", str(sid), "-o", "pid=,stat=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.split()[1][0] != "Z"]


def _interrupt_sweep(mode, tmp_path, sig, group):
    """Start SWEEP_SCRIPT in a session of its own, send `sig` once its first point is in the cache (to
    the whole process group, as a terminal's Ctrl-C does, or to the script's process alone, as `kill PID`
    does), and return (returncode, stderr lines without the progress bar's, seconds it took to stop,
    cache folder)."""
    script = tmp_path / "sweep_script.py"
    script.write_text(SWEEP_SCRIPT)
    cache = tmp_path / "cache"
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(iwarpsim.__file__)))
    env = dict(os.environ, PYTHONPATH=pkg)
    # SIGINT at its default, as in a terminal: a harness that started this run in the background of a
    # non-interactive shell passes SIGINT on ignored, and Python then installs no KeyboardInterrupt handler
    # (the sweep would run to its end).
    p = subprocess.Popen([sys.executable, str(script), str(cache), mode], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 60
        while not glob.glob(str(cache / "*" / "rows.json")) and p.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        assert p.poll() is None, p.communicate()
        if group:
            os.killpg(p.pid, sig)
        else:
            os.kill(p.pid, sig)
        t0 = time.time()
        _, err = p.communicate(timeout=30)
        stopped_after = time.time() - t0
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    # the lines on stderr, without the progress bar's (tqdm redraws its line with \r)
    lines = [line for line in err.replace("\r", "\n").splitlines()
             if line.strip() and not re.match(r"sweep: +\d+%\|", line)]
    time.sleep(0.2)
    assert _session_processes(p.pid) == [], err  # no worker left running
    return p.returncode, lines, err, stopped_after, cache


def _assert_complete_points_only(cache):
    points = sorted(set(os.listdir(cache)) - {"costs"})
    assert len(points) == 1  # the half-done points were removed
    assert len(os.listdir(cache / "costs")) == 1  # and only the finished one recorded its cost
    with open(cache / points[0] / "rows.json") as f:
        assert json.load(f)[0]["workload"]
    assert (cache / points[0] / "results" / "summary.json").exists()


@pytest.mark.parametrize("mode", ["processes", "dask"])
def test_ctrl_c_stops_the_sweep_quietly(mode, tmp_path):
    rc, lines, err, stopped_after, cache = _interrupt_sweep(mode, tmp_path, signal.SIGINT, group=True)
    assert rc != 0
    assert sum("sweep interrupted: 1 of 6 points done, kept in the cache" in line for line in lines) == 1, err
    assert len(lines) <= 8, err  # that line and the script's own KeyboardInterrupt traceback, nothing from workers
    assert err.count("Traceback") <= 1 and "distributed" not in err and "concurrent" not in err, err
    assert stopped_after < 3, stopped_after  # the running simulations were stopped, not waited for
    _assert_complete_points_only(cache)


@pytest.mark.parametrize("mode", ["processes", "dask"])
def test_sigterm_to_the_sweep_ends_its_workers(mode, tmp_path):
    """Reproduced on 0de3e0e: SIGTERM to the sweep's process alone ended it and left its workers running."""
    rc, lines, err, stopped_after, cache = _interrupt_sweep(mode, tmp_path, signal.SIGTERM, group=False)
    assert rc == -signal.SIGTERM  # it still ends as SIGTERM ends a process
    assert sum("sweep terminated: 1 of 6 points done, kept in the cache" in line for line in lines) == 1, err
    assert "Traceback" not in err and "distributed" not in err and "concurrent" not in err, err
    assert stopped_after < 3, stopped_after
    _assert_complete_points_only(cache)
