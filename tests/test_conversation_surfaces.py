"""Conversations and files everywhere a user or an agent reaches them (docs/rules.md, rule
11): the Python client, the CLI (``say``, ``ingest FILE``, ``workspace updates``) and MCP's
``remember``, against a real running app."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from mcp import Client as McpClient
from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import Client, InvalidRequestError, UnsupportedMediaTypeError
from afterhack.model.sources import IngestResult, KeptClaim, NewVersion
from tests.support.files import MARKDOWN_FILE, PNG, docx_file, pdf_file
from tests.support.procs import AppProcess

WIDE = {"COLUMNS": "220", "NO_COLOR": "1"}
T0 = 1_780_000_000_000
MINUTE = 60_000


def _written(result: IngestResult) -> NewVersion:
    """An answer that wrote a version (created or versioned), as that record."""
    if result["status"] == "created" or result["status"] == "versioned":
        return result
    raise AssertionError(f"nothing was written: {result['status']}")


def _claim(body: NewVersion, statement: str) -> KeptClaim:
    return next(c for c in body["claims"] if c["statement"] == statement)


def _extractions(body: Mapping[str, Any]) -> int:
    return [m["role"] for m in body["model_calls"]].count("extractor")


def test_client_three_messages_then_a_moved_date(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("client chat")["id"]
        made = _written(c.add_conversation([
            {"speaker": "Ana", "text": "The launch is on June 12.", "at": T0},
            {"speaker": "Ben", "text": "The venue is the Grand Hotel.", "at": T0 + MINUTE},
            {"speaker": "Ana", "text": "The budget is 12,000 euros.",
             "at": "2026-05-28T20:28:00Z"}], title="Launch chat"))
        assert _extractions(made) == 3
        text = made["source"]["versions"][0]["text"]
        for claim, speaker in zip(made["claims"], ("Ana", "Ben", "Ana"), strict=True):
            assert claim["said_by"] == speaker
            assert text[claim["quote_start"]:claim["quote_end"]] == claim["evidence_quote"]
        assert _claim(made, "The budget is 12,000 euros.")["said_at"] == 1_780_000_080_000
        moved = _written(c.append_messages(made["source"]["id"], [
            {"speaker": "Ana", "text": "The launch is on June 19.", "at": T0 + 5 * MINUTE}]))
        assert _extractions(moved) == 1  # the earlier messages are not read again
        [conflict] = moved["conflicts"]
        assert conflict["same_speaker"] is True
        assert conflict["newer_claim_id"] == moved["claims"][0]["id"]
        assert c.set_updates("latest_wins")["updates"] == "latest_wins"
        assert c.get_workspace()["updates"] == "latest_wins"
        with pytest.raises(InvalidRequestError):
            c.add_conversation([], title="empty")


def test_client_files(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("client files")["id"]
        report = _written(c.add_file(pdf_file(), "report.pdf"))
        assert report["source"]["kind"] == "file"
        assert report["source"]["versions"][0]["media_type"] == "application/pdf"
        assert {f["page"] for f in report["source"]["versions"][0]["fragments"]} == {1, 2}
        again = c.add_file(pdf_file(), "report.pdf", source_id=report["source"]["id"])
        assert again["status"] == "unchanged"
        with pytest.raises(UnsupportedMediaTypeError) as refused:
            c.add_file(PNG, "report.pdf")
        assert refused.value.status == 415 and refused.value.code == "unsupported_media_type"
        assert [s["id"] for s in c.list_sources()["items"]] == [report["source"]["id"]]


def test_cli_say_appends_to_a_named_conversation_and_marks_the_conflict(
        running_app: AppProcess) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("cli say")["id"]
    env = {**WIDE, "AFTERHACK_WORKSPACE": ws}
    said = [("Ana", "The launch is on June 12.", "2026-05-28T09:00:00Z"),
            ("Ben", "The venue is the Grand Hotel.", "2026-05-28T09:01:00Z"),
            ("Ana", "The budget is 12,000 euros.", "2026-05-28T09:02:00Z")]
    for speaker, text, at in said:
        out = runner.invoke(cli, ["say", "--speaker", speaker, "--conversation", "Standup",
                                  "--at", at, text, *url], env=env)
        assert out.exit_code == 0, out.output
        assert text in out.output and f"{speaker}, 2026-05-28 09:0" in out.output
    out = runner.invoke(cli, ["say", "-s", "Ana", "-c", "Standup", "--at",
                              "2026-05-28T09:30:00Z", "The launch is on June 19.", *url],
                        env=env)
    assert out.exit_code == 0, out.output
    assert "1 conflict raised or joined and open" in out.output
    assert "One speaker said both." in out.output and "(newest)" in out.output
    with Client(running_app.base_url, workspace=ws) as c:
        [chat] = c.list_sources()["items"]
        assert chat["kind"] == "conversation" and chat["message_count"] == 4
        whole = c.get_source(chat["id"])
        assert [f["speaker"] for v in whole["versions"] for f in v["fragments"]] == [
            "Ana", "Ben", "Ana", "Ana"]
    out = runner.invoke(cli, ["workspace", "updates", "latest_wins", *url], env=env)
    assert out.exit_code == 0 and f"{ws}  updates: latest_wins" in out.output
    out = runner.invoke(cli, ["say", "-s", "Ana", "-c", "Standup",
                              "The launch is on June 26.", *url], env=env)
    assert out.exit_code == 0 and "retired [superseded] The launch is on June 19." in \
        out.output, out.output


def test_cli_ingests_every_kind_and_refuses_the_rest_in_one_line(
        running_app: AppProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("cli files")["id"]
    env = {**WIDE, "AFTERHACK_WORKSPACE": ws}
    files = {"plan.md": MARKDOWN_FILE, "report.pdf": pdf_file(), "offices.docx": docx_file(),
             "page.html": b"<h1>Budget</h1><p>The budget is 12,000 euros.</p>",
             "notes.txt": b"The keynote speaker is Maria Lopez."}
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        out = runner.invoke(cli, ["ingest", str(path), *url], env=env)
        assert out.exit_code == 0, (name, out.output)
        assert f"file {name}: " in out.output
        if name == "report.pdf":
            assert "page 2" in out.output
        if name == "offices.docx":
            assert "under \u201cHiring\u201d" in out.output
    refused = {"photo.png": (PNG, "unsupported_media_type"),
               "renamed.docx": (PNG, "unsupported_media_type"),
               "empty.md": (b"", "unreadable_file")}
    for name, (data, code) in refused.items():
        path = tmp_path / name
        path.write_bytes(data)
        # A real process: exit status and stderr as a user's shell sees them.
        done = subprocess.run([sys.executable, "-m", "afterhack.cli", "ingest", str(path), *url],
                              env={**env, "PATH": ""}, capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {code}: "), done.stderr
        assert "Traceback" not in done.stderr + done.stdout
    with Client(running_app.base_url, workspace=ws) as c:
        titles = sorted(str(s["origin_name"]) for s in c.list_sources()["items"])
    assert titles == sorted(files)


async def test_mcp_remember_three_messages_then_a_moved_date(
        running_app: AppProcess) -> None:
    with Client(running_app.base_url) as api:
        ws = api.create_workspace("mcp remember")["id"]
    async with McpClient(running_app.base_url + "/mcp") as mcp:
        tools = {t.name for t in (await mcp.list_tools()).tools}
        assert "remember" in tools
        bodies = []
        for speaker, text, at in (("user", "The launch is on June 12.", str(T0)),
                                  ("Ben", "The venue is the Grand Hotel.", str(T0 + MINUTE)),
                                  ("user", "The budget is 12,000 euros.", None)):
            r = await mcp.call_tool("remember", {
                "workspace_id": ws, "conversation": "Support chat", "speaker": speaker,
                "text": text, **({"at": at} if at else {})})
            assert not r.is_error, r.content
            assert r.structured_content is not None
            bodies.append(r.structured_content)
        assert [b["status"] for b in bodies] == ["created", "versioned", "versioned"]
        assert len({b["source"]["id"] for b in bodies}) == 1
        first = bodies[0]["claims"][0]
        assert first["said_by"] == "user" and first["said_at"] == T0
        text = bodies[0]["source"]["versions"][0]["text"]
        assert text[first["quote_start"]:first["quote_end"]] == first["evidence_quote"]
        r = await mcp.call_tool("remember", {
            "workspace_id": ws, "conversation": "Support chat", "speaker": "user",
            "text": "The launch is on June 19.", "at": "2026-05-28T21:00:00Z"})
        assert not r.is_error
        moved = r.structured_content
        assert moved is not None and _extractions(moved) == 1
        [conflict] = moved["conflicts"]
        assert conflict["same_speaker"] is True
        assert conflict["newer_claim_id"] == moved["claims"][0]["id"]
        bad = await mcp.call_tool("remember", {
            "workspace_id": ws, "conversation": "Support chat", "speaker": "user",
            "text": "The launch is on June 19.", "at": "tomorrow"})
        assert bad.is_error and "invalid_request" in bad.content[0].text  # type: ignore[union-attr]
