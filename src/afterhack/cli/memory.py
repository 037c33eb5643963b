"""The commands on a workspace's memory, over HTTP to a running server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

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
from afterhack.model.vocab import CorrectionKind, UpdatesPolicy

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


@workspace_app.command("delete")
def workspace_delete(
    workspace_id: Annotated[str, typer.Argument(help="The workspace to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """Delete a workspace with everything in it (its keys are revoked)."""
    with api_errors(), client_for(url, key, workspace_id) as c:
        ws = c.get_workspace()
        if not yes and not typer.confirm(f"Delete workspace {ws['name']!r} and everything in "
                                         "it?", default=False):
            typer.echo("Not deleted.")
            raise typer.Exit(1)
        c.delete_workspace()
    typer.echo(f"deleted {workspace_id}")


@memory.command()
def ingest(
    file: Annotated[Path, typer.Argument(
        exists=True, dir_okay=False, readable=True,
        help="Plain text, Markdown, HTML, PDF or DOCX; its name is the title.")],
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Add a file as a source and print the claims kept (each with an exact quote). A file
    ingested before (same file name) becomes a new version of its source, or is reported
    unchanged. A file of a kind that is not read, or that cannot be read, is refused in one
    line, and nothing is kept."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        typer.echo(f"error: cannot read {file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    with api_errors(), client_for(url, key, workspace) as c:
        earlier = next((s for s in c.items(c.list_sources, limit=200)
                        if s.get("origin_name") == file.name
                        and s.get("kind") != "conversation"), None)
        result = c.add_file(data, file.name, title=file.stem or file.name,
                            source_id=earlier["id"] if earlier else None)
        # Nothing new was read: say what the memory already holds of the file instead.
        held = show.source_claims(c.graph(), result["source"]["id"]) \
            if result["status"] == "unchanged" else None
    console().print(show.source_summary(result, held))


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


@memory.command(help=f"List the workspace's sources, oldest first: id, title, latest version. "
                  f"{PAGED}")
def sources(limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
            url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None,
            key: KeyOpt = None) -> None:
    with api_errors(), client_for(url, key, workspace) as c:
        print_list(c, c.list_sources, lambda s: f"{s['id']}  v{s['latest_version']}  "
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
    """Run the agent on a task: a decision citing only claims it found and read."""
    with api_errors(), client_for(url, key, workspace) as c:
        view = c.run_agent(task, builds_on=builds_on or [], as_of=as_of)
    console().print(show.run_view(view))


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
