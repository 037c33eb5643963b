"""Property-based fuzzing of every operation in /api/openapi.json with Schemathesis.

The app runs as a real process (keys on, the admin key sent) on the test FalkorDB. Each
operation gets valid-looking and invalid requests, with real ids of a seeded workspace in
its path (and, for the invalid ones, whatever Schemathesis makes of the other ids), then
valid-looking requests under foreign, loopback, odd and malformed ``Host`` values (each
foreign or malformed one must be answered 421) and ``Origin`` headers, and invalid ones
where every id, the workspace's included, is Schemathesis's own. No
answer may be a 5xx, use an undocumented status or content type, or break the response
schema the OpenAPI document gives. The budget is bounded: a fixed number of examples per
operation and mode, no example database, and a time budget for the whole run: every
operation gets each pass before any gets the next, and reaching the budget ends the run
with what it sent (its line in the output says how far it got), not a failure.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.hosts import MALFORMED_HOSTS
from tests.support.procs import AppProcess

pytestmark = pytest.mark.slow

ADMIN = "fuzz-admin-" + uuid.uuid4().hex
EXAMPLES = 40  # per operation and mode
EXAMPLES_VARIED = 12  # per operation, for the Host/Origin and all-ids passes
TIME_LIMIT_S = 210.0
# Not negative_data_rejection: it counts an unknown query parameter as invalid input that
# must be refused, while the API (like most) ignores query parameters it does not know.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]


def _seed(base: str) -> dict[str, str]:
    h = {"Authorization": f"Bearer {ADMIN}"}
    with httpx.Client(base_url=base + "/api", headers=h, timeout=60) as c:
        ws = c.post("/workspaces", json={"name": "fuzz"}).json()["id"]
        src = c.post(f"/workspaces/{ws}/sources", json={
            "title": "Plan", "text": "The launch is planned for June 12. The caterer is "
                                     "Bella Foods."}).json()
        claim = src["claims"][0]["id"]
        run = c.post(f"/workspaces/{ws}/agent-runs", json={"task": "Plan the launch"}).json()
        other = src["claims"][1]["id"]
        p = c.post(f"/workspaces/{ws}/claims/{other}/corrections/preview",
                   json={"statement": "The caterer is Nordic Bites."}).json()
        corr = c.post(f"/workspaces/{ws}/claims/{other}/corrections", json={
            "statement": "The caterer is Nordic Bites.",
            "claim_revision": p["revisions"]["claim_revision"],
            "impact_token": p["revisions"]["impact_token"]}).json()
        key = c.post(f"/workspaces/{ws}/keys", json={"role": "reader", "name": "k"}).json()
        doomed = c.post("/workspaces", json={"name": "to delete"}).json()["id"]
        return {"ws": ws, "source_id": src["source"]["id"], "claim_id": claim,
                "run_id": run["run"]["id"], "decision_id": run["decision"]["id"],
                "action_id": run["actions"][0]["id"], "correction_id": corr["correction"]["id"],
                "key_id": key["id"], "doomed": doomed}


def test_schemathesis_finds_no_5xx_and_no_schema_violation(
    falkordb: str, tmp_path: Path
) -> None:
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "AFTERHACK_ADMIN_KEY": ADMIN,
           "AFTERHACK_RATE_LIMIT_PER_MINUTE": "1000000"}
    app = AppProcess(env, data_dir=tmp_path / "app", log_path=tmp_path / "app.log").start()
    try:
        ids = _seed(app.base_url)
        schema = schemathesis.openapi.from_url(app.base_url + "/api/openapi.json")
        failures = _fuzz(schema, app.base_url, ids)
        assert app.proc is not None and app.proc.poll() is None, app.log_tail()
    finally:
        app.stop()
    assert not failures, "\n\n".join(failures)


def _fuzz(schema: Any, base: str, ids: dict[str, str]) -> list[str]:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {ADMIN}"
    failures: list[str] = []
    started = time.monotonic()
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 25
    calls = 0
    port = httpx.URL(base).port
    # Headers a rebinding page, another site, or an odd client would send (None: as is).
    variants = [{"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"},
                {"Host": f"127.0.0.1:{port}", "Origin": "http://evil.example"},
                {"Host": f"localhost:{port}", "Origin": "null"},
                {"Host": f"[::1]:{port}"}, {"Host": "127.0.0.1.nip.io"},
                {"Origin": base}, {"Host": f"LOCALHOST.:{port}"}, None,
                *({"Host": host} for host in MALFORMED_HOSTS)]
    refused = {f"evil.example:{port}", "127.0.0.1.nip.io", *MALFORMED_HOSTS}

    def fixed_ids(op: Any) -> dict[str, str]:
        fixed = {p.name: ids[p.name] for p in op.path_parameters if p.name in ids}
        if op.method.upper() == "DELETE" and op.path == "/api/workspaces/{ws}":
            fixed["ws"] = ids["doomed"]  # deleting the seeded workspace would end the run
        return fixed

    # Every operation gets one pass before any gets the next, so a slow machine that reaches
    # the time budget has still sent every operation the earlier passes' requests.
    passes: list[tuple[str, GenerationMode, Any, list[dict[str, str] | None], int]] = [
        ("valid", GenerationMode.POSITIVE, fixed_ids, [None], EXAMPLES),
        ("foreign Host/Origin", GenerationMode.POSITIVE, fixed_ids, variants, EXAMPLES_VARIED),
        # keep only the workspace fixed, so the other ids get fuzzed as well
        ("invalid, ids fuzzed", GenerationMode.NEGATIVE,
         lambda op: {k: v for k, v in fixed_ids(op).items() if k == "ws"}, [None], EXAMPLES),
        ("invalid, every id fuzzed", GenerationMode.NEGATIVE, lambda op: {}, [None],
         EXAMPLES_VARIED),
    ]
    done: list[str] = []
    for name, mode, path_of, headers, examples in passes:
        for op in operations:
            if time.monotonic() - started > TIME_LIMIT_S:
                print(f"schemathesis: time budget reached during the pass '{name}' "
                      f"(passes done: {', '.join(done) or 'none'})")
                return _checked(failures, calls, operations)
            if name == "invalid, every id fuzzed" and op.method.upper() == "DELETE":
                continue
            strategy = op.as_strategy(mode, path_parameters=path_of(op))

            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate, Phase.shrink],
                      suppress_health_check=list(HealthCheck))
            @given(case=strategy, extra=st.sampled_from(headers))
            def run(case: Any, extra: dict[str, str] | None) -> None:
                nonlocal calls
                calls += 1
                response = case.call(base_url=base, session=session, timeout=60,
                                     headers=extra)
                case.validate_response(response, checks=CHECKS,
                                       headers={**session.headers, **(extra or {})})
                if extra and extra.get("Host") in refused:
                    assert response.status_code == 421, (extra, response.text[:300])

            try:
                run()
            except Unsatisfiable:
                # Nothing to make invalid: no parameters and no body (health, ping).
                assert mode is GenerationMode.NEGATIVE
                assert op.path in ("/api/health", "/api/ping")
            except (Exception, BaseExceptionGroup) as exc:  # report every operation's failure
                failures.append(f"{op.method.upper()} {op.path} ({name}): {exc}"[:3000])
        done.append(name)
    return _checked(failures, calls, operations)


def _checked(failures: list[str], calls: int, operations: list[Any]) -> list[str]:
    print(f"schemathesis: {calls} requests over {len(operations)} operations")
    # At the least, every operation's valid pass and a share of the next.
    assert calls >= len(operations) * 2 * 5, failures[:3]
    return failures
