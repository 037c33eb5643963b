"""Valid time (docs/rules.md, rule 10): when what a claim says holds, where its statement says
so or a reviewer dismissed a conflict as "both hold, at different times"; searches and agent
runs at a time use the claims valid then."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from afterhack.records.clock import now_ms
from afterhack.temporal import validity
from afterhack.temporal.validity import valid_time
from tests.support.api import HttpResponse, add_source, resolve_conflict
from tests.support.graphs import violations

DAY = 86_400_000
GRAND = "The launch venue is the Grand Hotel."
PARK = "The launch venue is the Park Pavilion."


def _ms(y: int, m: int, d: int) -> int:
    return int(datetime(y, m, d, tzinfo=UTC).timestamp() * 1000)


def test_explicit_forms_of_a_statement() -> None:
    ref = _ms(2026, 1, 5)
    assert valid_time("The venue is the Grand Hotel until June 1.", ref) == (
        None, _ms(2026, 6, 1))
    assert valid_time("From March 3 the venue is the Park Pavilion.", ref) == (
        _ms(2026, 3, 3), None)
    assert valid_time("The office is closed from March 3 to March 10, 2027.", ref) == (
        _ms(2027, 3, 3), _ms(2027, 3, 10))
    assert valid_time("Prices apply through 2026-06-30.", ref) == (None, _ms(2026, 7, 1))
    assert valid_time("Since 3rd March 2025 the CEO is Ana.", ref) == (_ms(2025, 3, 3), None)
    assert valid_time("Effective Sept. 1 the fee is 5 dollars.", ref) == (_ms(2026, 9, 1), None)
    # Not one of the forms: open-ended.
    for s in ("The launch moves to June 19.", "The launch is planned for June 12.",
              "From June 10 until June 1 nothing holds.", "As of Feb 30 the fee is 3 dollars."):
        assert valid_time(s, ref) == (None, None), s


def test_extraction_keeps_what_the_statement_says(client: TestClient, ws: str) -> None:
    body = add_source(client, ws, "The launch venue is the Grand Hotel until June 1.",
                      title="Venue memo")
    [claim] = body["claims"]
    assert claim["valid_from"] is None and claim["valid_until"] is not None
    read = client.get(f"/api/workspaces/{ws}/claims/{claim['id']}").json()
    assert read["valid_until"] == claim["valid_until"]
    assert datetime.fromtimestamp(read["valid_until"] / 1000, UTC).strftime("%m-%d") == "06-01"


def _dismiss(client: TestClient, ws: str, conflict_id: str, **resolution: Any) -> HttpResponse:
    """Both claims hold, at different times; the answer, unchecked."""
    return resolve_conflict(client, ws, conflict_id, dismiss=True,
                            reason="The venue changes in the summer.", resolution=resolution)[1]


def test_dismissed_as_both_hold_at_different_times(client: TestClient, ws: str,
                                                   falkordb: str) -> None:
    base = f"/api/workspaces/{ws}"
    grand = add_source(client, ws, GRAND, title="March memo")["claims"][0]
    park_memo = add_source(client, ws, PARK, title="April memo")
    park = park_memo["claims"][0]
    [conflict] = park_memo["conflicts"]
    split = now_ms() + 30 * DAY
    # Bad input first: nothing changes.
    for bad, code in (
            ({"valid_times": [{"claim_id": "nope", "valid_until": split}]},
             "claim_not_in_conflict"),
            ({"valid_times": [{"claim_id": grand["id"], "valid_from": split,
                               "valid_until": split}]}, "invalid_request"),
            ({"valid_times": [{"claim_id": grand["id"], "valid_until": "soon"}]},
             "invalid_request"),
            ({"valid_times": [{"claim_id": grand["id"], "valid_until": split},
                              {"claim_id": grand["id"], "valid_from": split}]},
             "invalid_request")):
        r = _dismiss(client, ws, conflict["id"], **bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == code, (bad, r.text)
    assert client.get(f"{base}/conflicts/{conflict['id']}").json()["status"] == "open"
    r = _dismiss(client, ws, conflict["id"], valid_times=[
        {"claim_id": grand["id"], "valid_until": split},
        {"claim_id": park["id"], "valid_from": split}])
    assert r.status_code == 201, r.text
    g = client.get(f"{base}/claims/{grand['id']}").json()
    p = client.get(f"{base}/claims/{park['id']}").json()
    assert (g["valid_from"], g["valid_until"]) == (None, split)
    assert (p["valid_from"], p["valid_until"]) == (split, None)

    # A search at a time finds the claim valid then; without a time, both.
    def venues(**params: Any) -> set[str]:
        items = client.get(f"{base}/claims", params={"q": "launch venue", **params}).json()
        return {c["statement"] for c in items["items"]}

    assert venues() == {GRAND, PARK}
    assert venues(as_of=split - DAY) == {GRAND}
    assert venues(as_of=split + DAY) == {PARK}
    # An agent run about a time uses the claims valid then.
    for when, want in ((split - DAY, grand["id"]), (split + DAY, park["id"])):
        run = client.post(f"{base}/agent-runs",
                          json={"task": "Where is the launch venue?", "as_of": when})
        assert run.status_code == 201, run.text
        cited = {c["id"] for p_ in run.json()["decision"]["premises"] for c in p_["claims"]}
        assert cited == {want}, run.json()["decision"]
        assert run.json()["run"]["valid_at"] == when
    assert client.post(f"{base}/agent-runs", json={"task": "x", "as_of": "later"}
                       ).status_code == 422
    assert violations(falkordb, ws) == []


def test_valid_times_only_with_dismiss(client: TestClient, ws: str) -> None:
    grand = add_source(client, ws, GRAND, title="March memo")["claims"][0]
    [conflict] = add_source(client, ws, PARK, title="April memo")["conflicts"]
    base = f"/api/workspaces/{ws}/conflicts/{conflict['id']}"
    p = client.post(base + "/preview", json={"keep": grand["id"]}).json()
    r = client.post(base + "/resolve", json={
        "keep": grand["id"], "valid_times": [{"claim_id": grand["id"], "valid_until": 5}],
        "conflict_revision": p["revisions"]["conflict_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert r.status_code == 422 and "dismiss" in r.json()["error"]["message"], r.text


_CUES = ["from", "since", "starting", "starting on", "effective", "as of", "until", "till",
         "through"]
_DATES = ["March 3", "3rd Mar.", "Sept 9, 2027", "2026-03-03", "9 june 2026"]
_GAPS = [" ", "  ", "\t", "\n", "\u00a0"]


def test_every_form_valid_time_reads_holds_a_cue_word() -> None:
    # valid_time reads only statements its one cue search finds: exact only if every
    # form it reads contains a cue word, in any case and spacing.
    readers = (validity._RANGE, validity._BEGIN, validity._END)
    for cue, day, gap in itertools.product(_CUES, _DATES, _GAPS):
        for form in (cue, cue.upper(), cue.title()):
            form = form.replace(" ", gap)
            for statement in (f"The fair runs {form}{gap}{day}.",
                              f"Open from{gap}{day} {form}{gap}{day}"):
                assert any(rx.search(statement) for rx in readers), statement
                assert validity._CUE.search(statement) is not None, statement


_CUES = ["from", "since", "starting", "effective", "as of", "as\tof", "until", "till",
         "through", "FROM", "Since", "As  Of", "UNTIL", "tHrough", "ſince", "AS\nOF"]


_PIECES = st.lists(st.sampled_from([" ", "x", "ab", "3", "March 3", ".", "é", "\n", "of"]),
                   max_size=6).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PIECES, st.sampled_from(_CUES), st.sampled_from([" ", "\t", "\n"]), _PIECES)
def test_the_cue_prefilter_never_hides_what_the_search_finds(
        before: str, cue: str, space: str, after: str) -> None:
    statement = before + cue + space + after
    if validity._CUE.search(statement) is not None:
        assert validity.may_cue(statement)
