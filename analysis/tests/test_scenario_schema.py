"""The JSON Schema of a scenario (iwarpsim.scenario_schema(), doc/scenario.schema.json, `iwarp-sim keys
--json-schema`), printed from the loader's key declarations: editors check a file with it as one types. It
must take every scenario the loader takes and refuse, for the same reason, what the loader refuses for a
key's name, shape, kind or declared range."""
import copy
import glob
import json
import os

import jsonschema
import pytest
import yaml

import iwarpsim


@pytest.fixture(scope="module")
def validator():
    schema = iwarpsim.scenario_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def test_the_shipped_file_is_the_schema(root):
    with open(os.path.join(root, "doc", "scenario.schema.json")) as f:
        assert json.load(f) == iwarpsim.scenario_schema()


def test_every_shipped_scenario_is_valid(root, validator):
    files = sorted(glob.glob(os.path.join(root, "examples", "scenarios", "*.yaml")) +
                   glob.glob(os.path.join(root, "scenarios", "*.yaml")) +
                   [os.path.join(root, "test", "data", n) for n in ("series.yaml", "long-run.yaml")])
    assert len(files) >= 12
    for path in files:
        with open(path) as f:
            errors = [e.message for e in validator.iter_errors(yaml.safe_load(f))]
        assert errors == [], path


FULL = {
    "stop": "10ms",
    "seed": 3,
    "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts-per-leaf": 1},
    "links": {"rate": "10Gbps", "delay": "1us", "mtu": 9000, "queue": "100p",
              "queue-disc": {"kind": "red", "red": {"threshold": "20p", "weight": 1}},
              "reorder": {"fraction": 0.1, "delay": "10us"}},
    "host-nic": {"queue": "unlimited"},
    "workloads": [{"kind": "stream", "from": "h0", "to": "h1", "size": "64KiB", "count": 4, "llp": "sctp"},
                  {"kind": "inject", "target": 0, "from": "h0", "to": "h1", "at": "1ms",
                   "fields": {"tagged": True, "stag": 7}}],
    "tracing": {"pcap": "none", "series": {"interval": "1ms", "what": ["goodput", "queue"]}},
    "measure": {"from": 0, "to": "5ms"},
    "transport": {"tcp": {"min-rto": "1ms"}, "hosts": {"h0": {"buffers": {"send": "auto"}}}},
}

# Each: where, the value, and what the loader says (a part of its message).
REFUSED = [
    (("links", "rate"), "10 Gbit", "unknown unit"),
    (("links", "rate"), "10gbps", "unknown unit"),
    (("stop",), "10", "has no unit"),
    (("topology", "kind"), "ring", "unknown topology kind"),
    (("topology", "leaves"), 0, "leaves must be at least 1"),
    (("seed",), 0, "seed must be at least 1"),
    (("links", "mtu"), 40, "MTU below IPv4's minimum"),
    (("links", "mtu"), 70000, "above the largest allowed"),
    (("links", "queue-disc", "red", "weight"), 2, "outside [0, 1]"),
    (("links", "queue-disc", "kind"), "pie", "unknown queue-disc kind"),
    (("workloads", 0, "outstandnig"), 3, "unknown key"),
    (("workloads", 0, "kind"), "bulk", "unknown workload kind"),
    (("workloads", 1, "fields", "stagg"), 1, "unknown key"),
    (("workloads", 1, "fields", "dv"), 4, "above the largest allowed, 3"),
    (("workloads", 0, "outstanding"), 0, "outstanding must be at least 1"),
    (("workloads", 0, "outstanding"), 65536, "above the largest allowed, 65535"),
    (("workloads", 0, "count"), 0, "count must be at least 1"),
    (("workloads", 0, "op"), "fetch", "fetch"),
    (("workloads", 0, "payload"), "random", "random"),
    (("workloads", 0, "start"), "1 fortnight", "unknown unit"),
    (("workloads", 0, "senders"), ["h0"], "does not apply to workload kind 'stream'"),
    (("tracing", "series", "what"), ["goodput", "bogus"], "bogus"),
    (("measure", "to"), "5 parsecs", "unknown unit"),
    (("transport", "tcp", "min_rto"), "1ms", "unknown key"),
    (("ecmp",), True, "unknown key"),
]


def _set(scenario, where, value):
    cur = scenario
    for k in where[:-1]:
        cur = cur[k]
    cur[where[-1]] = value


def test_a_full_scenario_is_valid_for_both(validator, tmp_path):
    assert [e.message for e in validator.iter_errors(FULL)] == []
    result = iwarpsim.run(FULL, out_dir=str(tmp_path / "r"))
    assert result.summary["workloads"][0]["llp"] == "sctp"


@pytest.mark.parametrize("where,value,loader_says", REFUSED, ids=[".".join(map(str, c[0])) + "=" + str(c[1])
                                                                   for c in REFUSED])
def test_refused_by_schema_and_loader_alike(validator, tmp_path, where, value, loader_says):
    scenario = copy.deepcopy(FULL)
    _set(scenario, where, value)
    assert list(validator.iter_errors(scenario)), "the schema takes %r at %s" % (value, where)
    with pytest.raises(iwarpsim.ScenarioError) as e:
        iwarpsim.run(scenario, out_dir=str(tmp_path / "r"))
    assert loader_says in str(e.value)
    assert not (tmp_path / "r").exists()


# Each kind's own keys and ranges, which the shared node (every kind's keys, the loosest range) cannot say.
BY_KIND = [
    ({"kind": "ping-pong", "from": "h0", "to": "h1", "count": 2 ** 32}, "above the largest allowed, 4294967295"),
    ({"kind": "incast", "to": "h1", "count": 1}, "missing required key 'senders'"),
    ({"kind": "stream", "to": "h1", "count": 1}, "missing required key 'from'"),
    ({"kind": "stream", "from": "h0", "to": "h1", "count": 1, "poll": True}, "does not apply to workload kind"),
    ({"kind": "sockets-stream", "from": "h0", "to": "h1", "count": 1, "size": 8}, "smallest message"),
]


@pytest.mark.parametrize("workload,loader_says", BY_KIND, ids=[w["kind"] + ":" + says for w, says in BY_KIND])
def test_each_kind_is_held_to_its_own_keys(validator, tmp_path, workload, loader_says):
    scenario = {"stop": "1ms", "topology": {"kind": "two-hosts"}, "workloads": [workload]}
    if "size" in workload:
        # The JSON Schema has no size arithmetic ("8" and "8B" alike): the loader alone refuses this one.
        assert list(validator.iter_errors(scenario)) == []
    else:
        assert list(validator.iter_errors(scenario)), "the schema takes %r" % workload
    with pytest.raises(iwarpsim.ScenarioError) as e:
        iwarpsim.run(scenario, out_dir=str(tmp_path / "r"))
    assert loader_says in str(e.value)


def test_a_kind_s_keys_pass_its_own_branch(validator):
    ok = {"kind": "ping-pong", "from": "h0", "to": "h1", "count": 2 ** 32 - 1, "poll": True, "sizes": [64, "1KiB"]}
    scenario = {"stop": "1ms", "topology": {"kind": "two-hosts"}, "workloads": [ok]}
    assert [e.message for e in validator.iter_errors(scenario)] == []
