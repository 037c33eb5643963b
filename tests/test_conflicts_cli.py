"""The two-memo story through the CLI (and so the Python client) against a running app."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import Client
from tests.support.conflicts import claims_of
from tests.support.procs import AppProcess
from tests.support.texts import JUNE12, JUNE19

WIDE = {"COLUMNS": "220", "NO_COLOR": "1"}


def test_two_memos_through_the_cli(running_app: AppProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    made = runner.invoke(cli, ["workspace", "create", "two memos", *url], env=WIDE)
    assert made.exit_code == 0, made.output
    env = {**WIDE, "AFTERHACK_WORKSPACE": made.stdout.strip().splitlines()[0]}
    march, april = tmp_path / "march-memo.txt", tmp_path / "april-memo.txt"
    march.write_text(JUNE12 + " The launch venue is the Grand Hotel.\n", encoding="utf-8")
    april.write_text(JUNE19 + " The keynote speaker is Maria Lopez.\n", encoding="utf-8")

    out = runner.invoke(cli, ["ingest", str(march), *url], env=env)
    assert out.exit_code == 0 and "conflict" not in out.output, out.output
    out = runner.invoke(cli, ["ask", "Plan the launch event", *url], env=env)
    assert out.exit_code == 0 and "[draft]" in out.output, out.output
    out = runner.invoke(cli, ["ingest", str(april), *url], env=env)
    assert out.exit_code == 0, out.output
    assert "1 conflict raised or joined and open" in out.output and "march-memo" in out.output

    out = runner.invoke(cli, ["ask", "When is the launch?", *url], env=env)
    assert out.exit_code == 0, out.output
    assert "[needs_review]" in out.output and "Sources disagree" in out.output
    assert "action [" not in out.output

    out = runner.invoke(cli, ["conflicts", *url], env=env)
    assert out.exit_code == 0, out.output
    assert JUNE12 in out.output and JUNE19 in out.output and "april-memo" in out.output

    with Client(running_app.base_url, workspace=env["AFTERHACK_WORKSPACE"]) as api:
        (k,) = api.list_conflicts()["items"]
        keep = next(c["id"] for c in claims_of(k) if c["statement"] == JUNE19)
        lose = next(c["id"] for c in claims_of(k) if c["statement"] == JUNE12)
        plan = next(d for d in api.list_decisions()["items"] if d["status"] == "draft")

        out = runner.invoke(cli, ["conflicts", "resolve", k["id"], "--keep", keep, *url],
                            env=env, input="n\n")
        assert out.exit_code == 1 and "Not applied." in out.output
        assert "Supersede" in out.output and "decisions flagged needs_review" in out.output
        assert api.get_conflict(k["id"])["status"] == "open"

        out = runner.invoke(cli, ["conflicts", "resolve", k["id"], "--keep", keep, "--yes",
                                  "--reason", "April is the latest word.", *url], env=env)
        assert out.exit_code == 0, out.output
        assert "Resolution applied" in out.output and "[resolved]" in out.output
        assert api.get_claim(lose)["status"] == "superseded"
        assert api.get_decision(plan["id"])["status"] == "needs_review"
        assert all(a["status"] == "held" for a in api.get_decision(plan["id"])["actions"])

        out = runner.invoke(cli, ["ask", "When is the launch?", *url], env=env)
        assert out.exit_code == 0, out.output
        assert "[draft]" in out.output and JUNE19 in out.output and JUNE12 not in out.output

        out = runner.invoke(cli, ["conflicts", "--status", "resolved", *url], env=env)
        assert out.exit_code == 0 and k["id"] in out.output, out.output
        out = runner.invoke(cli, ["conflicts", "resolve", k["id"], "--dismiss", "--yes", *url],
                            env=env)
        assert out.exit_code == 1 and "conflict_closed" in out.output


def test_a_reviewers_claim_in_a_conflict_comes_from_its_correction(
        running_app: AppProcess) -> None:
    # A reviewer corrected the date; a memo added later says another: the reviewer's claim
    # is one side, and it comes from the correction, which is no source.
    with Client(running_app.base_url) as api:
        api.workspace = api.create_workspace("reviewer side")["id"]
        claim = api.add_source(JUNE12, title="march-memo")["claims"][0]
        fix = api.apply_preview(api.preview_correction(claim["id"], JUNE19))
        assert fix["replacement"] is not None
        api.add_source("Launch update. The product launch is planned for June 26.",
                       title="press-memo")
        (k,) = api.list_conflicts()["items"]
        side = next(c for c in claims_of(k) if c["statement"] == JUNE19)
        assert side["source_id"] is None and side["source_title"] is None
        assert side["correction_id"] == fix["correction"]["id"]
        other = next(c for c in claims_of(k) if c["id"] != side["id"])
        assert other["correction_id"] is None and other["source_title"] == "press-memo"
        preview = api.preview_conflict_resolution(k["id"], keep=other["id"])
        assert [(x["claim_id"], x["source_id"], x["correction_id"]) for x in
                preview["supersede"]] == [(side["id"], None, fix["correction"]["id"])]
        env = {**WIDE, "AFTERHACK_WORKSPACE": str(api.workspace)}

    runner = CliRunner()
    url = ["--url", running_app.base_url]
    out = runner.invoke(cli, ["conflicts", *url], env=env)
    assert out.exit_code == 0, out.output
    row = next(line for line in out.output.splitlines() if JUNE19 in line)
    assert "Workspace reviewer correction" in row and "?" not in row, out.output
    out = runner.invoke(cli, ["conflicts", "resolve", k["id"], "--keep", other["id"], *url],
                        env=env, input="n\n")
    gone = next(line for line in out.output.splitlines() if line.startswith("Supersede"))
    assert f"from Workspace reviewer correction  ({side['id']})" in gone, out.output
    assert fix["correction"]["id"] not in out.output


ALICE = "Alice says the launch is on September 15."
BOB = "Bob says the launch is on October 1."
MINUTES = "The steering committee confirmed the launch for September 15."


def _workspace(runner: CliRunner, url: list[str], name: str) -> dict[str, str]:
    made = runner.invoke(cli, ["workspace", "create", name, *url], env=WIDE)
    assert made.exit_code == 0, made.output
    return {**WIDE, "AFTERHACK_WORKSPACE": made.stdout.strip().splitlines()[0]}


def test_three_memos_through_the_cli(running_app: AppProcess, tmp_path: Path) -> None:
    """Three memos on one fact are one conflict: the CLI lists each value with its claims,
    and keeping one value supersedes the other in one resolution."""
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    env = _workspace(runner, url, "three memos")
    for name, text in (("alice", ALICE), ("bob", BOB), ("minutes", MINUTES)):
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
        out = runner.invoke(cli, ["ingest", str(tmp_path / f"{name}.txt"), *url], env=env)
        assert out.exit_code == 0, out.output
    with Client(running_app.base_url, workspace=env["AFTERHACK_WORKSPACE"]) as api:
        (dispute,) = api.list_conflicts()["items"]
        assert [(s["value"], {c["statement"] for c in s["claims"]})
                for s in sorted(dispute["sides"], key=lambda s: s["value"])] == [
            ("October 1", {BOB}), ("September 15", {ALICE, MINUTES})]
    out = runner.invoke(cli, ["conflicts", *url], env=env)
    assert out.exit_code == 0 and "2 values for one fact." in out.output, out.output
    out = runner.invoke(cli, ["conflicts", "resolve", dispute["id"], "--keep", ALICE,
                              "--yes", *url], env=env)
    assert out.exit_code == 0, out.output
    assert "superseded claims: 1" in out.output
    out = runner.invoke(cli, ["conflicts", *url], env=env)
    assert out.exit_code == 0 and "No conflicts." in out.output, out.output
    out = runner.invoke(cli, ["conflicts", "--status", "resolved", *url], env=env)
    assert out.exit_code == 0 and dispute["id"] in out.output, out.output


def test_correct_shows_and_leaves_out_the_fact_in_other_words(running_app: AppProcess,
                                                               tmp_path: Path) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    env = _workspace(runner, url, "in other words")
    notes = "Marketing confirmed the launch on June 12."
    for name, text in (("memo-a", JUNE12), ("notes-b", notes)):
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
        assert runner.invoke(cli, ["ingest", str(tmp_path / f"{name}.txt"), *url],
                             env=env).exit_code == 0
    fixed = "The product launch is planned for June 19."
    out = runner.invoke(cli, ["correct", "planned for June 12", fixed, *url], env=env,
                        input="n\n")
    assert out.exit_code == 1, out.output
    assert "also says this, in other words" in out.output
    assert f"\u201c{notes}\u201d" in out.output and "notes-b; says June 12" in out.output
    with Client(running_app.base_url, workspace=env["AFTERHACK_WORKSPACE"]) as api:
        b = next(h["id"] for h in api.search_claims("Marketing")["items"]
                 if h["statement"] == notes)
        out = runner.invoke(cli, ["correct", "planned for June 12", fixed, "--leave", b,
                                  "--yes", *url], env=env)
        assert out.exit_code == 0, out.output
        assert "left out:" in out.output
        assert "open conflict with the correction (date)" in out.output
        assert api.get_claim(b)["status"] == "proposed"
        (k,) = api.list_conflicts()["items"]
        assert {c["statement"] for c in claims_of(k)} == {fixed, notes}
