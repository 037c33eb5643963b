"""The CLI says what happened, in words a person reads, against a real running app: an ingest's
totals and its first claims (every one with --all), Ctrl-C during an ingest (a real SIGINT to
the CLI process) doing what its message says, `ask` naming where each premise was read (a
PDF's page), `ask` in an empty workspace, a file over the size limit refused in MiB with the
setting named, and the wording of `say` and `sources`."""

from __future__ import annotations

import os
import pty
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import Client
from tests.support.cli import WIDE
from tests.support.files import pdf_file
from tests.support.procs import AppProcess

# Wider than any line an ingest prints would need, so a line is a line, not a wrapped cell.
COLUMNS = "250"


@pytest.fixture(scope="module")
def own_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """The app as `scripts/run` serves it (its embedded FalkorDB, vectors filled after the
    write), for the ingests of thousands of sentences: with vectors embedded in the write (as
    the session's shared app does) they take minutes on a busy machine."""
    base = tmp_path_factory.mktemp("cli-says")
    env = {"AFTERHACK_FALKORDB_URL": "", "OPENAI_BASE_URL": "", "AFTERHACK_ADMIN_KEY": "",
           "AFTERHACK_REQUIRE_KEYS": "false"}
    with AppProcess(env, data_dir=base / "data", log_path=base / "app.log") as app:
        yield app


def _sentences(n: int) -> str:
    """A Markdown file of ``n`` sentences, each a different fact, under a heading per 40."""
    lines: list[str] = []
    for i in range(n):
        if i % 40 == 0:
            lines.append(f"\n## Shelf {i // 40}\n")
        lines.append(f"Crate {i} of the northern depot holds {i * 3 + 7} spare valves.")
    return "\n".join(lines) + "\n"


def _workspace(app: AppProcess, name: str) -> tuple[list[str], dict[str, str], str]:
    with Client(app.base_url) as c:
        ws = c.create_workspace(name)["id"]
    return (["--url", app.base_url], {**WIDE, "COLUMNS": COLUMNS, "AFTERHACK_WORKSPACE": ws},
            ws)


def test_ingest_prints_the_totals_and_the_first_claims(own_app: AppProcess,
                                                       tmp_path: Path) -> None:
    runner = CliRunner()
    url, env, ws = _workspace(own_app, "summary")
    doc = tmp_path / "depot.md"
    doc.write_text(_sentences(2000), encoding="utf-8")
    out = runner.invoke(cli, ["ingest", str(doc), *url], env=env)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert len(lines) <= 40, out.stdout
    assert "2,000 claims kept, each with an exact quote" in out.stdout
    assert "Crate 0 of the northern depot holds 7 spare valves." in out.stdout
    assert "Crate 1999 " not in out.stdout
    assert "1,995 more claims" in out.stdout and "--all" in out.stdout
    assert "under \u201cShelf 0\u201d" in out.stdout
    with Client(own_app.base_url, workspace=ws) as c:
        assert c.search_claims()["total"] == 2000

    # --all prints every one: the same file again is unchanged, and lists all it holds.
    every = runner.invoke(cli, ["ingest", str(doc), "--all", *url], env=env)
    assert every.exit_code == 0, every.output
    assert "unchanged" in every.stdout and "2000 current claims" in every.stdout
    assert "Crate 1999 of the northern depot holds 6004 spare valves." in every.stdout
    assert len(every.stdout.splitlines()) > 2000


def test_ctrl_c_during_an_ingest_says_the_server_goes_on_and_it_does(
        own_app: AppProcess, tmp_path: Path) -> None:
    url, env, ws = _workspace(own_app, "interrupted")
    doc = tmp_path / "depot.md"
    doc.write_text(_sentences(2000), encoding="utf-8")
    # Its messages go to a terminal, as a person pressing Ctrl-C has one.
    terminal, stderr = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "afterhack.cli", "ingest", str(doc), *url],
                            env={**os.environ, **env}, stdout=subprocess.PIPE,
                            stderr=stderr, text=True)
    os.close(stderr)
    err_lines: queue.Queue[str] = queue.Queue()

    def read_err() -> None:
        with open(terminal, encoding="utf-8", errors="replace") as said:
            try:
                for line in said:
                    err_lines.put(line.replace("\r", ""))
            except OSError:  # the terminal closes with the process
                return

    reader = threading.Thread(target=read_err, daemon=True)
    reader.start()
    # Once the CLI says the file is sent (the server then reads it for seconds), Ctrl-C.
    first = err_lines.get(timeout=120)
    assert first.startswith("Sent depot.md"), first
    proc.send_signal(signal.SIGINT)
    assert proc.stdout is not None
    with proc.stdout:
        stdout = proc.stdout.read()
    proc.wait(timeout=900)
    reader.join(timeout=30)
    assert not reader.is_alive(), "the terminal reader never saw the CLI's terminal close"
    said = "".join(list(err_lines.queue))
    # It said the server goes on, and waited for it: the answer is what the server kept.
    assert "Ctrl-C does not cancel: the server goes on reading depot.md" in said, said
    assert proc.returncode == 0, (stdout, said)
    assert "2,000 claims kept" in stdout, stdout
    with Client(own_app.base_url, workspace=ws) as c:
        assert c.search_claims()["total"] == 2000
        assert [s["title"] for s in c.list_sources()["items"]] == ["depot"]


def test_ask_names_each_premises_source_and_pdf_page(running_app: AppProcess,
                                                     tmp_path: Path) -> None:
    runner = CliRunner()
    url, env, _ = _workspace(running_app, "pages")
    doc = tmp_path / "offices.pdf"
    doc.write_bytes(pdf_file())
    assert runner.invoke(cli, ["ingest", str(doc), *url], env=env).exit_code == 0
    out = runner.invoke(cli, ["ask", "When does the Lisbon office open?", *url], env=env)
    assert out.exit_code == 0, out.output
    line = next(x for x in out.stdout.splitlines()
                if "The Lisbon office opens in June 2026." in x and "cites" in x)
    assert "offices, page 2" in line, out.stdout


def test_ask_in_an_empty_workspace_says_it_holds_no_sources(running_app: AppProcess) -> None:
    runner = CliRunner()
    url, env, ws = _workspace(running_app, "empty")
    out = runner.invoke(cli, ["ask", "Plan the launch event", *url], env=env)
    assert out.exit_code == 1, out.output
    assert "The workspace holds no sources yet" in out.output
    assert "afterhack ingest FILE" in out.output
    with Client(running_app.base_url, workspace=ws) as c:
        assert c.list_runs()["items"] == []  # nothing was run, nothing stored


def test_a_file_over_the_limit_is_refused_in_mib_naming_the_setting(
        running_app: AppProcess, tmp_path: Path) -> None:
    runner = CliRunner()
    url, env, ws = _workspace(running_app, "too big")
    doc = tmp_path / "huge.txt"
    doc.write_bytes(b"The crate holds valves. " * (9 * 1024 * 1024 // 24))
    out = runner.invoke(cli, ["ingest", str(doc), *url], env=env)
    assert out.exit_code == 1, out.output
    assert "over the limit of 8 MiB" in out.output, out.output
    assert "AFTERHACK_MAX_FILE_BYTES" in out.output
    assert "8388608 bytes" not in out.output.replace("(8388608 bytes)", "")
    with Client(running_app.base_url, workspace=ws) as c:
        assert c.list_sources()["total"] == 0


def test_say_and_sources_speak_of_messages_and_a_question_keeps_no_claim(
        running_app: AppProcess) -> None:
    runner = CliRunner()
    url, env, _ = _workspace(running_app, "chat words")
    chat = ["say", "--speaker", "Ana", "--conversation", "Launch chat"]
    question = runner.invoke(cli, [*chat, "When is the launch?", *url], env=env)
    assert question.exit_code == 0, question.output
    assert "No claim: nothing in what was said states a fact" in question.stdout
    assert "\u250f" not in question.stdout  # no empty table
    assert runner.invoke(cli, [*chat, "The event budget is 45,000 euros.", *url],
                         env=env).exit_code == 0
    assert runner.invoke(cli, ["workspace", "updates", "latest_wins", *url],
                         env=env).exit_code == 0
    newer = runner.invoke(cli, [*chat, "The event budget is 50,000 euros.", *url], env=env)
    assert newer.exit_code == 0, newer.output
    assert "conflict raised and settled at once" in newer.stdout, newer.stdout
    assert "the sources disagree" not in newer.stdout
    assert "version" not in newer.stdout
    listed = runner.invoke(cli, ["sources", *url], env=env)
    assert "3 messages  Launch chat" in listed.stdout, listed.stdout
