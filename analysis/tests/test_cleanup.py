"""Issue 12, item 6: run() without out_dir leaves no /tmp/iwarpsim-* folders behind; Ctrl-C stops a sweep
with one line on stderr, no workers left and a cache of complete points only."""
import gc
import glob
import json
import os
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
