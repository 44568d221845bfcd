"""Built-in base scenarios for the plot commands: small, so that a whole figure takes a minute or two."""
from __future__ import annotations

import copy
from typing import Any

LINK = {"rate": "10Gbps", "delay": "2us"}
# Full-size TCP segments for a 1500-octet MTU (ns-3's default is 536), for MPA/TCP and the sockets baseline alike.
HOST = {"TcpSocket::SegmentSize": "1448"}


def _two_hosts(workload: dict[str, Any], stop: str = "1s") -> dict[str, Any]:
    return {"name": "py-" + workload["kind"], "stop": stop, "topology": {"kind": "two-hosts"},
            "links": dict(LINK), "host": dict(HOST), "workloads": [workload]}


def latency(variant: str, count: int = 20) -> dict[str, Any]:
    """One request/response workload between h0 and h1: send, write, read or sockets."""
    if variant in ("send", "write"):
        w = {"kind": "ping-pong", "from": "h0", "to": "h1", "op": variant, "size": "64", "count": count}
    elif variant == "read":
        w = {"kind": "read", "from": "h0", "to": "h1", "size": "64", "count": count, "outstanding": 1}
    elif variant == "sockets":
        w = {"kind": "sockets-ping-pong", "from": "h0", "to": "h1", "size": "64", "count": count}
    else:
        raise ValueError("latency variant: send, write, read or sockets")
    return _two_hosts(w)


def stream(variant: str, size: str = "64KiB", count: int | None = None, duration: str | None = None,
           stop: str = "20ms") -> dict[str, Any]:
    """A bulk transfer h0 -> h1: an RDMA Write stream (8 outstanding) or the sockets stream."""
    if variant == "rdma":
        w = {"kind": "stream", "from": "h0", "to": "h1", "op": "write", "size": size, "outstanding": 8}
    elif variant == "sockets":
        w = {"kind": "sockets-stream", "from": "h0", "to": "h1", "size": size}
    else:
        raise ValueError("stream variant: rdma or sockets")
    if count is not None:
        w["count"] = count
    else:
        w["duration"] = duration or stop
    return _two_hosts(w, stop=stop)


IMPAIRED_DURATION_S = 0.008


def impaired_stream(variant: str, impairment: str) -> dict[str, Any]:
    """stream() with an impairment on the link ("loss" or "reorder"), to be swept."""
    s = stream(variant, size="64KiB", duration="%gms" % (IMPAIRED_DURATION_S * 1e3), stop="10ms")
    # goodput_window_bps over the posting window (doc/metrics.md), the loss plot's quantity
    s["measure"] = {"from": "0ms", "to": "%gms" % (IMPAIRED_DURATION_S * 1e3)}
    if impairment == "reorder":
        s["links"]["reorder"] = {"fraction": 0, "delay": "20us"}
    elif impairment == "loss":
        s["links"]["loss"] = 0
    return s


def incast(senders: int = 4, size: str = "64KiB", count: int = 10) -> dict[str, Any]:
    """A dumbbell with 8 hosts a side: `senders` left hosts each write `count` messages to h8."""
    return {"name": "py-incast", "stop": "50ms",
            "topology": {"kind": "dumbbell", "hosts-per-side": 8,
                         "bottleneck": {"rate": "10Gbps", "delay": "5us", "queue": "100p"}},
            "links": {"rate": "10Gbps", "delay": "1us"}, "host": dict(HOST),
            "workloads": [{"name": "incast", "kind": "incast", "senders": ["h%d" % i for i in range(senders)],
                           "to": "h8", "op": "write", "size": size, "count": count, "outstanding": 1}]}


def incast_sockets(senders: int = 4, size: str = "64KiB", count: int = 10) -> dict[str, Any]:
    """incast()'s network and load on the sockets baseline: one sockets stream from each sender to h8."""
    s = incast(senders, size, count)
    s["name"] = "py-incast-sockets"
    s["workloads"] = [{"name": "incast-h%d" % i, "kind": "sockets-stream", "from": "h%d" % i, "to": "h8",
                       "size": size, "count": count} for i in range(senders)]
    return s


def copy_of(s: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(s)
