"""Forgetting through the CLI (`afterhack forget`) and the Python client, against a running
app and its FalkorDB (docs/rules.md, rule 22): a preview that asks, an apply that leaves the
words in no string of the graph, and a speaker's request listed, applied or declined."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from afterhack.cli.main import app as cli
from afterhack.client import (
    AsyncClient,
    Client,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    StaleErasurePreviewError,
)
from tests.support.cli import WIDE
from tests.support.erasure import holders
from tests.support.procs import AppProcess

NUMBER = "0170 4455667"
EMAIL = "ana.lopez@example.org"


class Cli:
    """The CLI on one workspace of the running app."""

    def __init__(self, app: AppProcess, name: str) -> None:
        self.runner = CliRunner()
        self.url = ["--url", app.base_url]
        made = self.runner.invoke(cli, ["workspace", "create", name, *self.url], env=WIDE)
        assert made.exit_code == 0, made.output
        self.ws = made.stdout.strip().splitlines()[0]
        self.env = {**WIDE, "AFTERHACK_WORKSPACE": self.ws}

    def __call__(self, *args: str, answer: str | None = None) -> Result:
        return self.runner.invoke(cli, [*args, *self.url], env=self.env, input=answer)

    def ok(self, *args: str) -> str:
        out = self(*args)
        assert out.exit_code == 0, out.output
        return out.output


def _launch_chat(run: Cli) -> None:
    for speaker, text in (("Ana", "Hello everyone, I will lead the launch."),
                          ("Ana", f"My phone number is {NUMBER}."),
                          ("Ben", "The launch budget is 40,000 euros.")):
        run.ok("say", "--speaker", speaker, "--conversation", "Launch chat", text)


def test_forget_a_string_previews_asks_then_erases_it_everywhere(
        running_app: AppProcess, falkordb: str, tmp_path: Path) -> None:
    run = Cli(running_app, "forget a string")
    _launch_chat(run)
    contacts = tmp_path / "contacts.txt"
    contacts.write_text(f"Contacts for the launch. Ana can be reached at {NUMBER}. "
                        "The venue is the Harbour Hall.\n", encoding="utf-8")
    run.ok("ingest", str(contacts))
    asked = run.ok("ask", "What is Ana's phone number?")
    assert NUMBER in asked and "[draft]" in asked, asked

    out = run("forget", "--text", NUMBER, answer="n\n")
    assert out.exit_code == 1 and "Not applied." in out.output, out.output
    shown = out.output
    assert f"Erase the words \u201c{NUMBER}\u201d" in shown
    assert "\u201cLaunch chat\u201d, version 2: 1 span" in shown, shown
    assert "\u201ccontacts\u201d, version 1: 1 span" in shown, shown
    assert f"[proposed] My phone number is {NUMBER}." in shown
    assert "cited by 1 decision" in shown and "decisions flagged needs_review" in shown
    assert "other records that repeat the words" in shown
    assert holders(falkordb, run.ws, NUMBER) != []

    out = run("forget", "--text", NUMBER, "--yes", "--reason", "Said by mistake.",
              "--wait-disk")
    assert out.exit_code == 0, out.output
    assert "Erasure applied" in out.output and "2 spans in 2 versions" in out.output
    assert "flagged decisions: 1" in out.output
    assert "disk: clean since" in out.output, out.output
    assert holders(falkordb, run.ws, NUMBER) == []
    decisions = run.ok("decisions")
    assert "needs_review" in decisions and NUMBER not in decisions
    graph = run.ok("graph")
    assert "[erased] Erased on " in graph and NUMBER not in graph
    # The document's other claim still stands, its quote exact.
    assert "[proposed] The venue is the Harbour Hall." in graph, graph

    out = run("forget", "--text", NUMBER, "--yes")
    assert out.exit_code == 1 and "nothing_to_erase" in out.output, out.output


def test_forget_a_message_found_by_its_words_and_a_source_by_its_title(
        running_app: AppProcess, falkordb: str) -> None:
    run = Cli(running_app, "forget a message")
    _launch_chat(run)
    out = run("forget", "--source", "Launch chat", "--message", "launch", answer="n\n")
    assert out.exit_code == 2 and "2 messages of \u201cLaunch chat\u201d hold" in out.output
    out = run("forget", "--source", "Launch chat", "--message", "phone number", "--yes")
    assert out.exit_code == 0, out.output
    assert f"message 1 of \u201cLaunch chat\u201d: Ana: \u201cMy phone number is {NUMBER}.\u201d" \
        in out.output
    assert "Erasure applied" in out.output and "1 message" in out.output
    assert holders(falkordb, run.ws, NUMBER) == []
    assert holders(falkordb, run.ws, "40,000 euros") != []

    out = run("forget", "--source", "No such chat", "--yes")
    assert out.exit_code == 2 and "No source is titled" in out.output
    out = run("forget", "--source", "Launch chat", "--version", "7", "--yes")
    assert out.exit_code == 2 and "has no version 7" in out.output
    out = run("forget", "--source", "launch chat", "--yes")
    assert out.exit_code == 0 and "every version" in out.output, out.output
    assert holders(falkordb, run.ws, "40,000 euros") == []


def test_forget_names_exactly_one_thing(running_app: AppProcess) -> None:
    run = Cli(running_app, "forget args")
    for args in ((), ("--claim", "x", "--text", "abcd"), ("--message", "1"),
                 ("--source", "s", "--version", "1", "--message", "1")):
        out = run("forget", *args)
        assert out.exit_code == 2, (args, out.output)
    out = run("forget", "--text", "abc", "--yes")
    assert out.exit_code == 1 and "invalid_request" in out.output, out.output
    out = run("forget", "--claim", "no claim says this", "--yes")
    assert out.exit_code == 2 and "No current claim says" in out.output


def test_requests_are_listed_then_applied_or_declined(running_app: AppProcess,
                                                      falkordb: str) -> None:
    run = Cli(running_app, "forget requests")
    _launch_chat(run)
    run.ok("say", "--speaker", "Ana", "--conversation", "Launch chat",
           f"My email address is {EMAIL}.")
    said = run.ok("say", "--speaker", "Ana", "--conversation", "Launch chat",
                  "Please forget my email address.")
    assert "Ana asked to forget something they said: 1 claim(s) withheld" in said, said
    listed = run.ok("forget", "requests")
    assert "[requested]" in listed and "asked by Ana" in listed
    assert "in \u201cLaunch chat\u201d message 4" in listed, listed
    assert f"withholds [withheld] My email address is {EMAIL}." in listed, listed
    request_id = listed.split()[0]
    assert EMAIL not in run.ok("claims")

    out = run("forget", "requests", "apply", request_id, answer="n\n")
    assert out.exit_code == 1 and f"[withheld] My email address is {EMAIL}." in out.output
    out = run("forget", "requests", "apply", request_id, "--yes")
    assert out.exit_code == 0 and "Erasure applied" in out.output, out.output
    assert holders(falkordb, run.ws, EMAIL) == []
    assert "(none)" in run.ok("forget", "requests")
    applied = run.ok("forget", "requests", "--status", "applied")
    assert request_id in applied and "[applied]" in applied, applied

    said = run.ok("say", "--speaker", "Ana", "--conversation", "Launch chat",
                  "Vergiss bitte meine Telefonnummer.")
    request_id = run.ok("forget", "requests").split()[0]
    out = run("forget", "requests", "decline", request_id, "--reason", "Needed for the launch.")
    assert out.exit_code == 0 and "[declined]" in out.output, out.output
    assert f"named [proposed] My phone number is {NUMBER}." in out.output
    assert NUMBER in run.ok("claims")
    out = run("forget", "requests", "decline", request_id)
    assert out.exit_code == 1 and "erasure_closed" in out.output
    out = run("forget", "requests", "--status", "maybe")
    assert out.exit_code == 2


def test_the_client_previews_applies_lists_reads_and_declines(running_app: AppProcess,
                                                              falkordb: str) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("client erasures")["id"]
        chat = c.add_conversation([
            {"speaker": "Ana", "text": f"My phone number is {NUMBER}."},
            {"speaker": "Ben", "text": "The launch budget is 40,000 euros."}],
            title="Launch chat")
        assert chat["source"] is not None
        sid = chat["source"]["id"]
        preview = c.preview_erasure(source_id=sid, message_index=0)
        assert preview["target"]["kind"] == "message"
        assert [m["speaker"] for m in preview["goes"]["messages"]] == ["Ana"]
        assert preview["counts"]["claims"] == 1
        c.add_conversation([{"speaker": "Ana", "text": "Another chat."}], title="Other")
        applied = c.apply_erasure(source_id=sid, message_index=0,
                                  impact_token=preview["impact_token"], reason="By mistake.")
        assert applied["status"] == "applied"
        record = applied["erasure"]
        assert record["target"]["message_index"] == 0 and record["disk"] in ("pending", "clean")
        again = c.apply_erasure(source_id=sid, message_index=0,
                                impact_token=preview["impact_token"])
        assert again["status"] == "already_applied" and again["erasure"]["id"] == record["id"]
        assert c.get_erasure(record["id"])["reason"] == "By mistake."
        assert holders(falkordb, c.workspace, NUMBER) == []

        stale = c.preview_erasure(speaker="Ben")
        c.append_messages(sid, [{"speaker": "Ben", "text": "The venue is the Harbour Hall."}])
        with pytest.raises(StaleErasurePreviewError) as err:
            c.apply_erasure(speaker="Ben", impact_token=stale["impact_token"])
        assert err.value.code == "stale_erasure_preview" and err.value.status == 409
        with pytest.raises(InvalidRequestError):
            c.preview_erasure(source_id=sid, claim_id=sid)
        with pytest.raises(NotFoundError) as missing:
            c.get_erasure(sid)
        assert missing.value.code == "erasure_not_found"

        for n in range(3):
            c.append_messages(sid, [{"speaker": "Ben", "text": f"My locker code is 90{n}1."},
                                    {"speaker": "Ben", "text": "Please forget my locker "
                                                               "code."}])
        waiting = c.list_erasures(status="requested", limit=2)
        assert len(waiting["items"]) == 2 and waiting["total"] == 3
        assert waiting["next_cursor"] is not None
        every = list(c.items(c.list_erasures, status="requested", limit=2))
        assert len(every) == 3 and all(e["status"] == "requested" for e in every)
        assert [e["id"] for e in every[:2]] == [e["id"] for e in waiting["items"]]
        declined = c.decline_erasure(every[0]["id"], reason="Still needed.")
        assert declined["status"] == "declined" and declined["declined_by"]
        with pytest.raises(ConflictError) as closed:
            c.decline_erasure(every[0]["id"])
        assert closed.value.code == "erasure_closed"
        assert c.set_forget_requests("apply")["forget_requests"] == "apply"
        assert c.list_erasures(status="all")["total"] == 4


async def test_the_async_client_erases_too(running_app: AppProcess, falkordb: str) -> None:
    async with AsyncClient(running_app.base_url) as c:
        c.workspace = (await c.create_workspace("async erasures"))["id"]
        added = await c.add_source(f"Ana can be reached at {NUMBER}. The venue is the "
                                   "Harbour Hall.", title="Contacts")
        claim = next(x for x in added["claims"] if NUMBER in x["statement"])
        preview = await c.preview_erasure(claim_id=claim["id"])
        applied = await c.apply_erasure(claim_id=claim["id"],
                                        impact_token=preview["impact_token"])
        assert applied["erasure"]["claim_ids"] == [claim["id"]]
        listed = [e async for e in c.items(c.list_erasures, limit=1)]
        assert [e["id"] for e in listed] == [applied["erasure"]["id"]]
    assert await asyncio.to_thread(holders, falkordb, str(c.workspace), NUMBER) == []
