"""The two-memo story through the CLI (and so the Python client) against a running app."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import Client
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
    assert "1 conflict(s) raised" in out.output and "march-memo" in out.output

    out = runner.invoke(cli, ["ask", "When is the launch?", *url], env=env)
    assert out.exit_code == 0, out.output
    assert "[needs_review]" in out.output and "Sources disagree" in out.output
    assert "action [" not in out.output

    out = runner.invoke(cli, ["conflicts", *url], env=env)
    assert out.exit_code == 0, out.output
    assert JUNE12 in out.output and JUNE19 in out.output and "april-memo" in out.output

    with Client(running_app.base_url, workspace=env["AFTERHACK_WORKSPACE"]) as api:
        (k,) = api.list_conflicts()["items"]
        keep = next(c["id"] for c in k["claims"] if c["statement"] == JUNE19)
        lose = next(c["id"] for c in k["claims"] if c["statement"] == JUNE12)
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
