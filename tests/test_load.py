"""The load script at full size, inside the suite: 50 clients for 60 s against two app
processes sharing one FalkorDB, four workspaces (half the clients on one), then the checks:
invariants on every workspace, every 2xx write present, every 409 a real conflict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from afterhack_tools.load.run import Options, run, table

pytestmark = pytest.mark.slow


def test_fifty_clients_for_a_minute_leave_a_consistent_graph(artifacts: Path) -> None:
    out = artifacts / "load.json"
    report = run(Options(clients=50, duration_s=60, workspaces=4, apps=2, json_out=out))
    print("\n" + table(report))
    assert report["problems"] == {}, json.dumps(report["problems"], indent=1)[:5000]
    routes = report["routes"]
    for route in ("POST /workspaces/{ws}/sources", "POST /workspaces/{ws}/agent-runs",
                  "POST /workspaces/{ws}/claims/{id}/corrections", "GET /workspaces/{ws}/graph"):
        assert routes[route]["requests"] > 20, route
    assert not [r for r, v in routes.items() if any(s.startswith("5") for s in v["statuses"])]
    writes = report["writes_acknowledged"]
    assert writes["sources"] > 100 and writes["runs"] > 50 and writes["corrections"] > 20
    assert report["conflicts"], "no 409 at all: the workload did not contend"
    assert json.loads(out.read_text())["requests"] == report["requests"]


def test_the_load_test_refuses_anything_but_loopback() -> None:
    for url in ("http://10.0.0.1:8000", "http://example.org"):
        with pytest.raises(ValueError, match="loopback"):
            run(Options(url=url, falkordb_url="redis://127.0.0.1:1"))
    with pytest.raises(ValueError, match="at most"):
        run(Options(duration_s=10_000))
