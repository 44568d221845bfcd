"""Shared fixtures: tiny scenarios (a few ms simulated, well under a second of wall time each).

The tests import the built package from build/python (the Makefile's pytest target sets PYTHONPATH);
run them by hand with:  PYTHONPATH=build/python /usr/bin/python3 -m pytest -q analysis/tests
"""
import copy
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

TINY = {
    "name": "tiny",
    "stop": "5ms",
    "topology": {"kind": "two-hosts"},
    "links": {"rate": "10Gbps", "delay": "2us"},
    "workloads": [{"kind": "ping-pong", "from": "h0", "to": "h1", "op": "send", "size": "4KiB", "count": 5}],
}


@pytest.fixture
def tiny():
    return copy.deepcopy(TINY)


@pytest.fixture
def root():
    return ROOT
