"""One sweep point in a process of its own: python3 -m iwarpsim._point reads the task (JSON) on stdin, simulates it
(sweep._run_point) and prints {"rows": ..., "simulated": ...} as JSON, or {"error": <the _iwarpsim exception's
name>, "message": ...} for a ScenarioError or ResultsError.  sweep._run_point_in_child starts it.
"""
from __future__ import annotations

import json
import sys


def main() -> int:
    from . import _iwarpsim
    from .sweep import _run_point

    task = json.load(sys.stdin)
    try:
        rows, simulated = _run_point(task)
    except (_iwarpsim.ScenarioError, _iwarpsim.ResultsError) as e:
        json.dump({"error": type(e).__name__, "message": str(e)}, sys.stdout)
        return 0
    json.dump({"rows": rows, "simulated": simulated}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
