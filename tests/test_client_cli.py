"""afterhack.client and the CLI journey against a real running app (AppProcess)."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.routing import APIRoute
from typer.testing import CliRunner

from afterhack.api.app import ROUTERS
from afterhack.cli import console as show
from afterhack.cli.main import app as cli
from afterhack.client import (
    ApiConnectionError,
    ApiError,
    AsyncClient,
    Client,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    StaleCorrectionPreviewError,
    UnavailableError,
    UnexpectedAnswerError,
)
from afterhack.client._client import _Endpoints, endpoint
from afterhack.runtime.embedded import free_loopback_port
from tests.support.cli import WIDE
from tests.support.procs import AppProcess
from tests.support.texts import JUNE

ROOT = Path(__file__).resolve().parent.parent
FIXED = "The product launch is planned for June 19."


@pytest.fixture
def api(running_app: AppProcess) -> Iterator[Client]:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("client")["id"]
        yield c


def test_client_journey_and_errors(api: Client) -> None:
    assert api.health()["status"] == "ok"
    ws = api.get_workspace()
    assert ws["id"] == api.workspace and ws["name"] == "client"
    added = api.add_source(JUNE, title="Launch plan")
    claim = added["claims"][0]
    assert added["status"] == "created" and claim["statement"] == JUNE
    assert api.get_source(added["source"]["id"])["title"] == "Launch plan"
    assert [s["id"] for s in api.list_sources()["items"]] == [added["source"]["id"]]
    assert [c["id"] for c in api.search_claims("launch")["items"]] == [claim["id"]]

    view = api.run_agent("Plan the launch event")
    assert api.get_run(view["run"]["id"]) == view
    assert [r["id"] for r in api.list_runs()["items"]] == [view["run"]["id"]]
    decision, action = view["decision"], view["actions"][0]
    assert decision is not None
    assert [d["id"] for d in api.list_decisions(status=["draft"])["items"]] == [decision["id"]]

    preview = api.preview_correction(claim["id"], FIXED)
    applied = api.apply_preview(preview, reason="The venue moved it.")
    assert applied["status"] == "applied"
    assert api.apply_preview(preview)["status"] == "already_applied"
    assert api.get_correction(applied["correction"]["id"])["statement"] == FIXED
    assert api.get_decision(decision["id"])["status"] == "needs_review"
    assert api.get_action(action["id"])["status"] == "held"
    assert api.search_claims(status=["superseded"])["items"][0]["id"] == claim["id"]
    kinds = [e["kind"] for e in api.audit()["items"]]
    assert "correction.applied" in kinds

    # Errors are exceptions built from the canonical body.
    with pytest.raises(NotFoundError) as nf:
        api.get_claim(str(uuid.uuid4()))
    assert (nf.value.status, nf.value.code) == (404, "claim_not_found")
    with pytest.raises(NotFoundError) as nf:
        api.get_workspace(workspace=str(uuid.uuid4()))
    assert nf.value.code == "workspace_not_found"
    with pytest.raises(InvalidRequestError) as bad:
        api.run_agent("   ")
    assert bad.value.status == 422 and bad.value.details["errors"]
    with pytest.raises(ConflictError) as superseded:
        api.preview_correction(claim["id"], "Another date.")
    assert superseded.value.code == "claim_superseded"

    assert applied["replacement"] is not None
    replacement = applied["replacement"]["id"]
    stale = api.preview_correction(replacement, "The product launch is planned for June 20.")
    api.run_agent("When is the launch?")  # a new decision now rests on it
    with pytest.raises(StaleCorrectionPreviewError) as err:
        api.apply_preview(stale)
    assert err.value.status == 409 and err.value.code == "stale_correction_preview"
    assert err.value.details["seen"]["impact_token"] == stale["revisions"]["impact_token"]
    assert isinstance(err.value, ConflictError) and isinstance(err.value, ApiError)

    held = api.get_action(action["id"])
    assert api.change_action(action["id"], "cancel", revision=held["revision"])["status"] \
        == "cancelled"
    graph = api.graph()
    assert {n["type"] for n in graph["nodes"]} == {"source", "claim", "decision", "action",
                                                   "correction"}


async def test_async_client(running_app: AppProcess) -> None:
    async with AsyncClient(running_app.base_url) as c:
        ws = await c.create_workspace("async")
        assert (await c.get_workspace(workspace=ws["id"]))["name"] == "async"
        with pytest.raises(NotFoundError):
            await c.get_run(str(uuid.uuid4()), workspace=ws["id"])


def test_unreachable_server_is_a_connection_error() -> None:
    with Client(f"http://127.0.0.1:{free_loopback_port()}", timeout=2) as c, \
            pytest.raises(ApiConnectionError) as err:
        c.health()
    assert isinstance(err.value, UnavailableError) and err.value.code == "connection_failed"


def test_cli_ingest_ask_correct_graph(running_app: AppProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    made = runner.invoke(cli, ["workspace", "create", "cli journey", *url], env=WIDE)
    assert made.exit_code == 0, made.output
    ws = made.stdout.strip().splitlines()[0]
    env = {**WIDE, "AFTERHACK_WORKSPACE": ws}

    doc = tmp_path / "launch-plan.txt"
    doc.write_text(JUNE + " The keynote speaker is Dana Reyes.\n", encoding="utf-8")
    out = runner.invoke(cli, ["ingest", str(doc), *url], env=env)
    assert out.exit_code == 0, out.output
    assert "launch-plan" in out.output and JUNE in out.output

    with Client(running_app.base_url, workspace=ws) as api:
        claim = next(c for c in api.search_claims("launch")["items"] if c["statement"] == JUNE)
        origin = api.get_claim(claim["id"])["origin"]
        assert origin is not None and origin["source_title"] == "launch-plan"

        out = runner.invoke(cli, ["ask", "Plan the launch event", *url], env=env)
        assert out.exit_code == 0, out.output
        assert "[draft] Plan the launch event" in out.output
        assert "action [proposed] Plan the launch event" in out.output

        # Without --yes it asks, and "no" changes nothing.
        out = runner.invoke(cli, ["correct", claim["id"], FIXED, *url], env=env, input="n\n")
        assert out.exit_code == 1 and "Not applied." in out.output
        assert api.get_claim(claim["id"])["status"] == "proposed"

        out = runner.invoke(cli, ["correct", claim["id"], FIXED, "--yes", *url], env=env)
        assert out.exit_code == 0, out.output
        for text in ("decisions flagged needs_review", "actions held", "Correction applied",
                     f"\u201c{JUNE}\u201d", "document: launch-plan", FIXED,
                     "Workspace reviewer correction (human_correction)"):
            assert text in out.output, text
        corrected = api.get_claim(claim["id"])
        assert corrected["status"] == "superseded"
        decision = api.list_decisions()["items"][0]
        assert decision["status"] == "needs_review"
        assert decision["actions"][0]["status"] == "held"

        out = runner.invoke(cli, ["graph", *url], env=env)
        assert out.exit_code == 0, out.output
        for text in ("source launch-plan", f"claim [superseded] {JUNE}",
                     "decision [needs_review] Plan the launch event",
                     "action [held] Plan the launch event",
                     f"Workspace reviewer correction: {FIXED}",
                     f"claim [accepted] {FIXED}"):
            assert text in out.output, text

    out = runner.invoke(cli, ["correct", str(uuid.uuid4()), FIXED, "--yes", *url], env=env)
    assert out.exit_code == 1 and "claim_not_found" in out.output
    out = runner.invoke(cli, ["ask", "x", *url], env=WIDE)
    assert out.exit_code == 2 and "No workspace" in out.output


def test_cli_workspace_subcommands_never_make_a_workspace_of_a_word(
        running_app: AppProcess) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    name = "words-" + uuid.uuid4().hex[:8]
    made = runner.invoke(cli, ["workspace", "create", name, *url], env=WIDE)
    assert made.exit_code == 0, made.output
    ws = made.stdout.strip().splitlines()[0]
    listed = runner.invoke(cli, ["workspace", "list", *url], env=WIDE)
    assert listed.exit_code == 0 and f"{ws}  {name}" in listed.output
    for word in ("list-me", "launch"):
        out = runner.invoke(cli, ["workspace", word, *url], env=WIDE)
        assert out.exit_code == 2, out.output
    with Client(running_app.base_url) as c:
        names = [w["name"] for w in c.list_workspaces(limit=1000)["items"]]
    assert "list-me" not in names and "launch" not in names
    out = runner.invoke(cli, ["workspace", "delete", ws, *url], env=WIDE, input="n\n")
    assert out.exit_code == 1 and "Not deleted." in out.output
    out = runner.invoke(cli, ["workspace", "delete", ws, "--yes", "--wait", *url], env=WIDE)
    assert out.exit_code == 0, out.output
    assert f"deleted {ws} (disk: clean)" in out.output
    assert f"{ws}  {name}" not in runner.invoke(cli, ["workspace", "list", *url],
                                                env=WIDE).output
    out = runner.invoke(cli, ["workspace", "deletion", ws, *url], env=WIDE)
    assert out.exit_code == 0 and f"{ws}  deleted " in out.output, out.output
    assert "disk: clean since " in out.output


def test_cli_ingesting_the_same_file_is_unchanged_and_a_version_only_with_source(
        running_app: AppProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("versions")["id"]
    env = {**WIDE, "AFTERHACK_WORKSPACE": ws}
    doc = tmp_path / "launch-plan.txt"
    doc.write_text(JUNE, encoding="utf-8")
    assert runner.invoke(cli, ["ingest", str(doc), *url], env=env).exit_code == 0
    again = runner.invoke(cli, ["ingest", str(doc), *url], env=env)
    assert again.exit_code == 0 and "unchanged" in again.output
    # Not an empty table: what the memory already holds of the file.
    assert "already holds this text (version 1 of the source) and 1 current claim" \
        in again.output, again.output
    assert JUNE in again.output
    with Client(running_app.base_url, workspace=ws) as c:
        (first,) = c.list_sources()["items"]
    # Other words under the same name are another file: a new source, unless --source
    # names the one it is a new version of.
    doc.write_text(FIXED, encoding="utf-8")
    other = runner.invoke(cli, ["ingest", str(doc), *url], env=env)
    assert other.exit_code == 0 and "created" in other.output, other.output
    changed = runner.invoke(cli, ["ingest", str(doc), "--source", first["id"], *url], env=env)
    assert changed.exit_code == 0 and "versioned" in changed.output, changed.output
    with Client(running_app.base_url, workspace=ws) as c:
        sources = c.list_sources()["items"]
        assert len(sources) == 2
        assert len(c.get_source(first["id"])["versions"]) == 2


def test_cli_correct_finds_a_claim_by_its_words(running_app: AppProcess) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("words")["id"]
        c.add_source(JUNE + " The venue is the Harbour Hall in Lisbon.", title="plan")
    env = {**WIDE, "AFTERHACK_WORKSPACE": c.workspace}
    out = runner.invoke(cli, ["correct", "no such words", FIXED, "--yes", *url], env=env)
    assert out.exit_code == 2 and "No current claim" in out.output
    out = runner.invoke(cli, ["correct", "June 12", FIXED, "--yes", *url], env=env)
    assert out.exit_code == 0, out.output
    assert "Nothing depended on this claim" in out.output
    with Client(running_app.base_url, workspace=c.workspace) as api:
        assert [x["statement"] for x in api.search_claims("launch")["items"]] == [FIXED]


def test_demo_runs_the_whole_journey(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **WIDE}
    done = subprocess.run([sys.executable, "-m", "afterhack.cli", "demo"], env=env,
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for text in (f"\u201c{JUNE}\u201d", "document: Launch plan", FIXED,
                 "Workspace reviewer correction", "human_correction",
                 "decision is needs_review; action is held",
                 "action [held] Plan the launch event", "Impact of correcting this claim",
                 "The chain of because was repaired",
                 # The two-memo story: the conflict, the run that does not pick a side, the
                 # resolution and what it flagged.
                 "1 conflict raised or joined and open", "The run does not pick a side",
                 "Keep The launch moves to June 19.", "Resolution applied",
                 "plan decision is needs_review; its action is held",
                 "memory said when its sources disagreed"):
        assert text in out, text


def test_cli_tells_two_decisions_from_one_question_apart(api: Client,
                                                          running_app: AppProcess) -> None:
    api.add_source(JUNE, title="Launch plan")
    question = "When is the launch, and when should the press release go out?"
    runs = [api.run_agent(question) for _ in range(2)]
    runner = CliRunner()
    env = {**WIDE, "AFTERHACK_WORKSPACE": str(api.workspace)}
    out = runner.invoke(cli, ["decisions", "--url", running_app.base_url], env=env)
    assert out.exit_code == 0, out.output
    lines = [line for line in out.output.splitlines() if question in line]
    assert len(lines) == 2, out.output
    for view, line in zip(reversed(runs), lines, strict=True):  # newest first
        assert view["decision"] is not None
        assert line.startswith(view["decision"]["id"]) and line.endswith(question)
        assert f"run {view['run']['id']}" in line
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", line), line
    out = runner.invoke(cli, ["graph", "--url", running_app.base_url], env=env)
    assert out.exit_code == 0, out.output
    shown = [line for line in out.output.splitlines() if question in line]
    assert len(shown) == 2 and shown[0] != shown[1], out.output


def test_cli_claims_lists_what_holds_the_words_first_and_says_how_each_was_found(
        api: Client, running_app: AppProcess) -> None:
    api.add_source((ROOT / "examples" / "launch-plan.txt").read_text(encoding="utf-8"),
                   title="launch-plan")
    api.add_source("Steering committee minutes, 10 March.\n\nThe committee moved the press "
                   "day to 5 June. Marketing owns the press kit.", title="minutes")
    runner = CliRunner()
    env = {**WIDE, "AFTERHACK_WORKSPACE": str(api.workspace)}

    def listed(*words: str) -> list[str]:
        out = runner.invoke(cli, ["claims", *words, "--url", running_app.base_url], env=env)
        assert out.exit_code == 0, out.output
        return out.stdout.splitlines()

    press = listed("press kit")
    assert "Marketing owns the press kit." in press[0], press
    assert not any("Steering committee minutes" in line for line in press), press
    launch = listed("launch")
    date = next(i for i, line in enumerate(launch)
                if "The product launch is planned for June 12." in line)
    assert all("The event budget is 40,000 euros." not in line for line in launch[:date]), launch
    # Each hit says how it was found: here by its words (and meaning, once its vector is in).
    assert re.search(r"  (words|words\+meaning) +The product launch is planned", launch[date])
    # A question no claim holds a word of: each hit found by meaning, or next to one.
    asked = listed("When do we ship?")
    assert asked and all(re.search(r"  (meaning|next to [0-9a-f]{8}) +\S", line)
                         for line in asked), asked
    assert re.search(r"  meaning +\S", asked[0]), asked
    assert show.found_text({"match": "neighbour", "text": False, "vector_distance": None,
                            "neighbour_of": "1a2b3c4d-0000"}) == "next to 1a2b3c4d"
    assert show.found_text({"match": "both", "text": True, "vector_distance": 0.1,
                            "neighbour_of": None}) == "words+meaning"


def test_each_client_method_answers_its_routes_record() -> None:
    # The clients' answers are the API's own records: each endpoint method names its route,
    # and that route's response model is the record the method reads.
    routes = {(m, r.path): r for router in ROUTERS for r in router.routes
              if isinstance(r, APIRoute) for m in r.methods or ()}
    declared = {name: e for name, e in vars(_Endpoints).items() if isinstance(e, endpoint)}
    assert len(declared) >= 33
    for name, e in declared.items():
        method, path = e.route.split(" ", 1)
        assert (method, path) in routes, (name, e.route)
        assert routes[method, path].response_model == e.answer.record, name


def test_an_answer_that_is_not_its_record_is_an_error() -> None:
    # A server answering another shape than the record (an older or foreign one): the
    # client says so instead of handing on a dict its caller would trip over later.
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/health"):
            return httpx.Response(200, json={"status": "ok"})
        return httpx.Response(200, json={"id": "w1", "name": "n", "created_at": 1,
                                         "revision": 1, "extra": "dropped"})

    with Client("http://test", transport=httpx.MockTransport(answer)) as c:
        with pytest.raises(UnexpectedAnswerError) as err:
            c.health()
        assert err.value.code == "unexpected_answer" and err.value.details["errors"]
        assert isinstance(err.value, ApiError)


def test_the_readme_python_example_runs(running_app: AppProcess) -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Script it from Python", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    code = block.group(1).replace("http://127.0.0.1:8000", running_app.base_url)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert "Plan the launch event" in printed.getvalue()
