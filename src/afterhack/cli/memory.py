"""The commands on a workspace's memory, over HTTP to a running server."""

from __future__ import annotations

import io
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from afterhack.cli import console as show
from afterhack.cli.common import (
    PAGED,
    AllOpt,
    CursorOpt,
    KeyOpt,
    LimitOpt,
    UrlOpt,
    WorkspaceOpt,
    api_errors,
    client_for,
    console,
    one_claim,
    print_list,
)
from afterhack.client import DEFAULT_URL
from afterhack.model.vocab import CorrectionKind, ForgetRequests, UpdatesPolicy
from afterhack.wire.sizes import size_words

memory = typer.Typer()


workspace_app = typer.Typer(no_args_is_help=True,
                            help="Create, list or delete workspaces (one graph each).")


@workspace_app.command("create")
def workspace_create(
    name: Annotated[str, typer.Argument(help="A name for people; the id is made for you.")],
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """Create a workspace; print its id (and the export line that makes it the default)."""
    with api_errors(), client_for(url, key, None, need_workspace=False) as c:
        ws = c.create_workspace(name)
    typer.echo(ws["id"])
    typer.echo(f"export AFTERHACK_WORKSPACE={ws['id']}", err=True)


@workspace_app.command("list")
def workspace_list(url: UrlOpt = DEFAULT_URL, key: KeyOpt = None) -> None:
    """List every workspace this key can see: id and name."""
    with api_errors(), client_for(url, key, None, need_workspace=False) as c:
        found = list(c.items(c.list_workspaces, limit=200))
    if not found:
        typer.echo("(none)")
    for w in found:
        typer.echo(f"{w['id']}  {w['name']}")


@workspace_app.command("updates")
def workspace_updates(
    policy: Annotated[UpdatesPolicy, typer.Argument(
        help="review: a newer statement by the same speaker raises a conflict for a "
             "reviewer; latest_wins: it supersedes the older one at once.")],
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Choose how the workspace takes a speaker's newer statement that contradicts an older
    one."""
    with api_errors(), client_for(url, key, workspace) as c:
        ws = c.set_updates(policy)
    typer.echo(f"{ws['id']}  updates: {ws['updates']}")


@workspace_app.command("forget-requests")
def workspace_forget_requests(
    policy: Annotated[ForgetRequests, typer.Argument(
        help="review: a speaker's request to forget withholds its claims and waits for a "
             "reviewer (`afterhack forget requests`); apply: it is applied at once.")],
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Choose how the workspace takes a speaker's request to forget something they said."""
    with api_errors(), client_for(url, key, workspace) as c:
        ws = c.set_forget_requests(policy)
    typer.echo(f"{ws['id']}  forget requests: {ws['forget_requests']}")


@workspace_app.command("delete")
def workspace_delete(
    workspace_id: Annotated[str, typer.Argument(help="The workspace to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    wait: Annotated[bool, typer.Option(
        "--wait", help="Return once FalkorDB's files no longer hold the workspace.")] = False,
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """Delete a workspace with everything in it (its keys are revoked); FalkorDB's files
    are then rewritten so they no longer hold it ("disk: clean")."""
    with api_errors(), client_for(url, key, workspace_id) as c:
        ws = c.get_workspace()
        if not yes and not typer.confirm(f"Delete workspace {ws['name']!r} and everything in "
                                         "it?", default=False):
            typer.echo("Not deleted.")
            raise typer.Exit(1)
        deleted = c.delete_workspace(wait_for_disk=wait)
    if deleted["disk"] == "clean":
        typer.echo(f"deleted {workspace_id} (disk: clean)")
    else:
        typer.echo(f"deleted {workspace_id} (disk: pending; `afterhack workspace deletion "
                   f"{workspace_id}` says when FalkorDB's files no longer hold it)")


@workspace_app.command("deletion")
def workspace_deletion(
    workspace_id: Annotated[str, typer.Argument(help="A deleted workspace.")],
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """When a workspace was deleted, and whether FalkorDB's files are clean of it yet."""
    with api_errors(), client_for(url, key, workspace_id) as c:
        d = c.workspace_deletion()
    clean = d["disk_clean_at"]
    since = "" if clean is None else f" since {show.decided_at(clean)}"
    typer.echo(f"{d['id']}  deleted {show.decided_at(d['deleted_at'] or d['requested_at'])}  "
               f"disk: {d['disk']}{since}")


# How long an ingest waits for the server's answer: a large file on a busy server is read for
# minutes, and the work goes on there whether or not the command is still waiting.
INGEST_TIMEOUT_S = 900.0


class _Sent(io.BytesIO):
    """A file's bytes as the upload reads them, a chunk at a time, each read once the one
    before was handed to the connection: the read that finds the end says the file is sent."""

    def __init__(self, data: bytes, on_sent: Callable[[], None]) -> None:
        super().__init__(data)
        self.on_sent = on_sent
        self.told = False

    def read(self, size: int | None = -1, /) -> bytes:
        chunk = super().read(size)
        if not chunk and size != 0 and not self.told:
            self.told = True
            self.on_sent()
        return chunk


@contextmanager
def _first_ctrl_c_waits(said: str) -> Iterator[None]:
    """While the server works on a request, a first Ctrl-C says ``said`` and goes on waiting
    with the connection open: closing it before the server has read the whole body would
    drop the request, so the message could not be kept. A second Ctrl-C stops waiting
    (docs/decisions/0039-ctrl-c-waits.md)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = False

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        nonlocal pressed
        if pressed:
            raise KeyboardInterrupt
        pressed = True
        typer.echo(said, err=True)

    before = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@memory.command()
def ingest(
    file: Annotated[Path, typer.Argument(
        exists=True, dir_okay=False, readable=True,
        help="Plain text, Markdown, HTML, PDF or DOCX; its name is the title.")],
    every: Annotated[bool, typer.Option(
        "--all", help="Print every claim kept (by default the totals and the first few).")
    ] = False,
    source: Annotated[str | None, typer.Option(
        "--source", help="A source's id: the file becomes a new version of that source "
                         "(or is reported unchanged).")] = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Add a file as a source and say what happened: how many claims were kept (each with an
    exact quote), how many were dropped and why, the conflicts raised and the claims retired,
    then the first few claims (--all prints every one). A file is a new source unless
    --source names the one it is a new version of; the very same bytes as a file already
    read are reported unchanged, with what the memory holds of them. A file of a kind
    that is not read, or that cannot be read, is refused in one line, and nothing is kept.
    Ctrl-C does not cancel the work: the server goes on, the command says so and waits for
    what it kept; a second Ctrl-C stops waiting."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        typer.echo(f"error: cannot read {file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None

    def sent() -> None:
        # Said to a person at a terminal only: a script reads one line for a refused file.
        if sys.stderr.isatty():
            typer.echo(f"Sent {file.name} ({size_words(len(data))}); the server is reading "
                       "it\u2026", err=True)

    again = f"afterhack ingest {shlex.quote(str(file))}"
    goes_on = (f"Ctrl-C does not cancel: the server goes on reading {file.name} and keeps the "
               "claims it reads. Waiting for what it kept (Ctrl-C again stops waiting; "
               "`afterhack sources` lists it once it is kept).")
    try:
        with api_errors(), client_for(url, key, workspace, timeout=INGEST_TIMEOUT_S) as c:
            with _first_ctrl_c_waits(goes_on):
                result = c.add_file(_Sent(data, sent), file.name,
                                    title=file.stem or file.name, source_id=source)
            # Nothing new was read: say what the memory already holds of the file instead.
            held = show.source_claims(c.graph(), result["source"]["id"]) \
                if result["status"] == "unchanged" else None
    except KeyboardInterrupt:
        typer.echo(f"Stopped waiting. Whether the server keeps {file.name} depends on whether "
                   "it had read all of it: `afterhack sources` says, and "
                   f"`{again}` adds it (or says it is unchanged).", err=True)
        raise typer.Exit(130) from None
    console().print(show.source_summary(result, held, every=every, again=again))


@memory.command()
def say(
    text: Annotated[str, typer.Argument(help="What was said (one message).")],
    speaker: Annotated[str, typer.Option("--speaker", "-s", help="Who said it.")],
    conversation: Annotated[str, typer.Option(
        "--conversation", "-c", help="The conversation's title: appended to the oldest "
                                     "conversation with this title, made if there is none.")],
    at: Annotated[str | None, typer.Option(
        "--at", help="When it was said (ISO 8601 or epoch ms); by default, now.")] = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Record a message in a named conversation and print the claims it gave, each with who
    said it and when, and any conflict with what was said before (marked newer, and
    whether the same speaker said both)."""
    message: dict[str, str | int] = {"speaker": speaker, "text": text}
    if at is not None:
        message["at"] = int(at) if at.isascii() and at.isdigit() else at
    with api_errors(), client_for(url, key, workspace) as c:
        found = next((s for s in c.items(c.list_sources, limit=200)
                      if s.get("kind") == "conversation" and s.get("title") == conversation),
                     None)
        if found is None:
            result = c.add_conversation([message], title=conversation)
        else:
            result = c.append_messages(found["id"], [message])
    console().print(show.source_summary(result))


def _held(source: Mapping[str, Any]) -> str:
    """A file's or a text's latest version; a conversation, which takes a version per append,
    by how many messages it holds."""
    if source.get("kind") == "conversation":
        n = source.get("message_count")
        return f"{n} message{'' if n == 1 else 's'}" if isinstance(n, int) else "conversation"
    return f"v{source['latest_version']}"


@memory.command(help=f"List the workspace's sources, oldest first: id, latest version (a "
                     f"conversation: its messages), title. {PAGED}")
def sources(limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
            url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None,
            key: KeyOpt = None) -> None:
    with api_errors(), client_for(url, key, workspace) as c:
        print_list(c, c.list_sources, lambda s: f"{s['id']}  {_held(s)}  "
                    f"{s['title'] or '(untitled)'}", again=["sources"], limit=limit,
                    cursor=cursor, every=every)


@memory.command(help=f"List claims: id, status, statement; with words, the claims that match "
                  f"them best first, each saying how it was found (by its words, its "
                  f"meaning, both, or next to a hit in its source; a search pages through "
                  f"its best 2000). {PAGED}")
def claims(
    words: Annotated[str | None, typer.Argument(
        help="Find claims by these words and their meaning; without, every claim in order "
             "of creation.")] = None,
    status: Annotated[str | None, typer.Option(
        help="proposed, accepted, superseded, rejected or all, comma-separated (default: "
             "the current ones, proposed and accepted).")] = None,
    limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    again = ["claims", *([words] if words else []), *(["--status", status] if status else [])]
    with api_errors(), client_for(url, key, workspace) as c:
        print_list(c, c.search_claims, show.claim_line, again=again, limit=limit,
                   cursor=cursor, every=every, q=words,
                   status=status.split(",") if status else None)


@memory.command(help=f"List agent runs, newest first: id, status, task. {PAGED}")
def runs(limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
         url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None,
         key: KeyOpt = None) -> None:
    with api_errors(), client_for(url, key, workspace) as c:
        print_list(c, c.list_runs, lambda r: f"{r['id']}  {r['status']:<10}  {r['task']}",
                    again=["runs"], limit=limit, cursor=cursor, every=every)


@memory.command(help=f"List decisions, newest first: id, status, when, the run that made it, "
                     f"title. {PAGED}")
def decisions(
    status: Annotated[list[str] | None, typer.Option(
        help="draft, accepted, needs_review or rejected (repeat for several).")] = None,
    limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    again = ["decisions", *(f"--status={x}" for x in status or [])]
    with api_errors(), client_for(url, key, workspace) as c:
        print_list(c, c.list_decisions, lambda d: f"{d['id']}  {d['status']:<12}  "
                   f"{show.decided_at(d['created_at'])}  run {d['run_id'] or '-'}  "
                   f"{d['title']}", again=again, limit=limit, cursor=cursor, every=every,
                   status=status)


@memory.command()
def embeddings(
    reembed: Annotated[bool, typer.Option(
        "--reembed", help="Drop the workspace's vectors and embed every claim again with the "
                          "server's model (after the model changed).")] = False,
    wait: Annotated[bool, typer.Option(help="Follow the progress until no vector is "
                                            "pending.")] = True,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Show (and follow) how far the workspace's claim vectors are; --reembed starts over."""
    with api_errors(), client_for(url, key, workspace) as c:
        p = c.reembed() if reembed else c.embedding_progress()
        typer.echo(f"vectors: {p['state']}; model {p['model'] or '-'} ({p['dim'] or '-'} "
                   f"dimensions), server's model {p['configured_model'] or 'none'}; "
                   f"{p['claims'] - p['pending']} of {p['claims']} claims embedded")
        if p["state"] == "stale":
            typer.echo("The workspace's vectors come from another model: search by meaning "
                       "is off until `afterhack embeddings --reembed`.", err=True)
        if not wait or p["pending"] == 0 or p["state"] in ("off", "stale"):
            return
        with Progress("embedding", BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn()) as bar:
            task = bar.add_task("claims", total=p["claims"],
                                completed=p["claims"] - p["pending"])
            while p["pending"] > 0:
                time.sleep(1.0)
                p = c.embedding_progress()
                bar.update(task, total=p["claims"], completed=p["claims"] - p["pending"])
        typer.echo(f"done: {p['claims']} claims embedded with {p['model']}")


@memory.command()
def ask(
    task: Annotated[str, typer.Argument(help="The question or task for the agent.")],
    builds_on: Annotated[list[str] | None, typer.Option(
        "--builds-on", help="A decision (in good standing) this one depends on.")] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="The time the task is about (ISO 8601 or epoch ms): the agent "
                        "searches only the claims valid then.")] = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Run the agent on a task: a decision citing only claims it found and read, each with
    where it was read (its source, and a file's page or heading). In a workspace with no
    sources yet, it says so (and how to add one) and runs nothing."""
    with api_errors(), client_for(url, key, workspace) as c:
        if c.list_sources(limit=1)["total"] == 0:
            typer.echo("The workspace holds no sources yet, so there is nothing to answer "
                       "from: add one with `afterhack ingest FILE` (a text, Markdown, HTML, "
                       "PDF or DOCX file) or `afterhack say --speaker NAME --conversation "
                       "TITLE \"what was said\"`, then ask again.", err=True)
            raise typer.Exit(1)
        view = c.run_agent(task, builds_on=builds_on or [], as_of=as_of)
        places = {cid: show.claim_place(c.get_claim(cid)) for cid in show.cited_ids(view)}
    console().print(show.run_view(view, places))


@memory.command()
def correct(
    claim: Annotated[str, typer.Argument(
        help="The claim that is wrong: its id, or words that find exactly one current claim "
             "(e.g. \"June 12\").")],
    statement: Annotated[str | None, typer.Argument(
        help="The corrected statement (leave out with --retract).")] = None,
    retract: Annotated[bool, typer.Option("--retract", help="Retract, no replacement.")] = False,
    reason: Annotated[str | None, typer.Option(help="Why (kept on the correction).")] = None,
    leave: Annotated[list[str] | None, typer.Option(
        "--leave", help="A claim the preview lists as saying this in other words, left out "
                        "of the correction (it then stands in an open conflict with the "
                        "correction); repeat for several.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Preview a correction, confirm, apply it with the preview's revisions, show before/after."""
    out = console()
    with api_errors(), client_for(url, key, workspace) as c:
        claim_id = one_claim(c, claim)
        kind: CorrectionKind = "retract" if retract else "replace"
        preview = c.preview_correction(claim_id, statement, kind=kind, leave=leave)
        out.print(show.claim_card(c.get_claim(claim_id), "Claim to correct", "red"))
        also = show.also_states_view(preview)
        if also is not None:
            out.print(also)
        out.print(show.impact_view(preview))
        if not yes and not typer.confirm("Apply this correction?", default=False):
            typer.echo("Not applied.")
            raise typer.Exit(1)
        result = c.apply_preview(preview, reason=reason)
    out.print(show.correction_view(result))


@memory.command()
def graph(
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Show it as the memory held it then (ISO 8601 or epoch ms; a date "
                        "alone is the end of that day, UTC).")] = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Show the workspace: sources -> claims -> decisions -> actions, with statuses."""
    with api_errors(), client_for(url, key, workspace) as c:
        view = c.graph(as_of=as_of)
    title = f"Workspace {workspace}" + (f" as of {as_of}" if as_of else "")
    console().print(show.graph_tree(view, title))
