"""The ``afterhack`` command line."""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from afterhack.cli import console as show
from afterhack.client import DEFAULT_URL, ApiError, Client
from afterhack.cluster.cli import cluster_app
from afterhack.config import Settings, SettingsError, load_settings
from afterhack.model.vocab import ConflictStatusFilter, CorrectionKind
from afterhack.wire.request_id import RequestIdFilter

STATUSES_HELP = """afterhack: agent memory that keeps the chain of because.

Statuses you will see: a claim is proposed (extracted, current), accepted (a reviewer's
word, current), superseded (replaced by a correction) or rejected (retracted); a decision
is draft or accepted (in good standing), needs_review (it lost support, or its sources
disagree) or rejected; an action is proposed, approved, held (a decision it requires was
flagged), done or cancelled."""

app = typer.Typer(add_completion=False, no_args_is_help=True, help=STATUSES_HELP)

app.add_typer(cluster_app, name="cluster")

DataDirOpt = Annotated[Path | None, typer.Option(
    help="Where the embedded FalkorDB keeps its data (default ./.afterhack).")]
UrlOpt = Annotated[str, typer.Option("--url", envvar="AFTERHACK_URL",
                                     help="The running afterhack server.")]
WorkspaceOpt = Annotated[str | None, typer.Option(
    "--workspace", "-w", envvar="AFTERHACK_WORKSPACE", help="Workspace id.")]
KeyOpt = Annotated[str | None, typer.Option("--key", envvar="AFTERHACK_API_KEY",
                                            help="API key (sent as a bearer token).",
                                            show_default=False)]


@app.callback(help=STATUSES_HELP)
def _root() -> None:
    pass


def _settings(**overrides: object) -> Settings:
    """The settings, or exit 2 naming each one the environment gives a value it cannot take."""
    try:
        return load_settings(**overrides)
    except SettingsError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.")] = 8000,
    data_dir: DataDirOpt = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the API, the UI and MCP at /mcp (embedded FalkorDB unless AFTERHACK_FALKORDB_URL)."""
    overrides: dict[str, object] = {"host": host, "port": port}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    settings = _settings(**overrides)

    import uvicorn

    from afterhack.access import keys_required, refuse_to_serve
    from afterhack.api.headers import http_protocol
    from afterhack.app import create_app
    from afterhack.runtime.embedded import DataDirInUse

    refusal = refuse_to_serve(settings)
    if refusal:
        typer.echo(refusal, err=True)
        raise typer.Exit(2)
    if keys_required(settings) and settings.admin_key is None:
        typer.echo("Keys are on without AFTERHACK_ADMIN_KEY: only keys made earlier work, "
                   "and nobody can make new ones.", err=True)
    # A line written while serving a request names it, as an internal error's answer does.
    logging.basicConfig(level=log_level.upper(),
                        format="%(levelname)s %(name)s%(request)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RequestIdFilter())
    # The HTTP clients log every request's full URL at INFO: the gateway's base URL (which
    # may carry credentials) stays out of the log.
    for name in ("httpx", "httpx2"):
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLogger().level))
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level,
                    proxy_headers=False,
                    http=http_protocol(settings))
    except DataDirInUse as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(3) from None


def _client(url: str, key: str | None, workspace: str | None,
            need_workspace: bool = True) -> Client:
    if need_workspace and not workspace:
        typer.echo("No workspace: pass --workspace or set AFTERHACK_WORKSPACE "
                   "(`afterhack workspace create NAME` makes one).", err=True)
        raise typer.Exit(2)
    return Client(url, key=key, workspace=workspace)


@contextmanager
def _api_errors() -> Iterator[None]:
    try:
        yield
    except ApiError as exc:
        typer.echo(f"error: {exc.code}: {exc.message}", err=True)
        raise typer.Exit(1) from None


def _console() -> Console:
    return Console()


workspace_app = typer.Typer(no_args_is_help=True,
                            help="Create, list or delete workspaces (one graph each).")
app.add_typer(workspace_app, name="workspace")


@workspace_app.command("create")
def workspace_create(
    name: Annotated[str, typer.Argument(help="A name for people; the id is made for you.")],
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """Create a workspace; print its id (and the export line that makes it the default)."""
    with _api_errors(), _client(url, key, None, need_workspace=False) as c:
        ws = c.create_workspace(name)
    typer.echo(ws["id"])
    typer.echo(f"export AFTERHACK_WORKSPACE={ws['id']}", err=True)


@workspace_app.command("list")
def workspace_list(url: UrlOpt = DEFAULT_URL, key: KeyOpt = None) -> None:
    """List every workspace this key can see: id and name."""
    with _api_errors(), _client(url, key, None, need_workspace=False) as c:
        found = list(c.items(c.list_workspaces, limit=200))
    if not found:
        typer.echo("(none)")
    for w in found:
        typer.echo(f"{w['id']}  {w['name']}")


@workspace_app.command("delete")
def workspace_delete(
    workspace_id: Annotated[str, typer.Argument(help="The workspace to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, key: KeyOpt = None,
) -> None:
    """Delete a workspace with everything in it (its keys are revoked)."""
    with _api_errors(), _client(url, key, workspace_id) as c:
        ws = c.get_workspace()
        if not yes and not typer.confirm(f"Delete workspace {ws['name']!r} and everything in "
                                         "it?", default=False):
            typer.echo("Not deleted.")
            raise typer.Exit(1)
        c.delete_workspace()
    typer.echo(f"deleted {workspace_id}")


@app.command()
def ingest(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                         help="A UTF-8 text file; its name is the title.")],
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Add a document as a source and print the claims kept (each with an exact quote). A file
    ingested before (same file name) becomes a new version of its source, or is reported
    unchanged."""
    text = file.read_text(encoding="utf-8")
    with _api_errors(), _client(url, key, workspace) as c:
        earlier = next((s for s in c.items(c.list_sources, limit=200)
                        if s.get("origin_name") == file.name), None)
        result = c.add_source(text, title=file.stem or file.name, origin_name=file.name,
                              source_id=earlier["id"] if earlier else None)
    _console().print(show.source_summary(result))


LimitOpt = Annotated[int, typer.Option(min=1, max=1000, help="How many to show on a page.")]
CursorOpt = Annotated[str | None, typer.Option(
    help="Start after the page that printed this cursor.", show_default=False)]
AllOpt = Annotated[bool, typer.Option("--all", help="Show every one, page after page.")]


def _print_list(c: Client, list_page: Callable[..., dict[str, Any]], line: Callable[[Any], str],
                *, again: list[str], limit: int, cursor: str | None, every: bool,
                **params: Any) -> None:
    """One page of a list (or, with ``every``, all of them); then, on stderr, how many are
    left and the command (``again`` with a cursor) that shows the next page."""
    if every:
        shown = 0
        for item in c.items(list_page, limit=max(limit, 200), **params):
            typer.echo(line(item))
            shown += 1
        if not shown:
            typer.echo("(none)")
        return
    page = list_page(limit=limit, cursor=cursor, **params)
    for item in page["items"]:
        typer.echo(line(item))
    if not page["items"]:
        typer.echo("(none)")
    nxt, total = page["next_cursor"], page.get("total")
    if nxt is None:
        return
    if total is None:
        more = "more"
    elif cursor is None:
        more = f"{total - len(page['items'])} more of {total}"
    else:
        more = f"more of {total}"
    typer.echo(f"\u2026 {more}: `afterhack {shlex.join([*again, '--cursor', nxt])}` shows the "
               "next page, --all every one.", err=True)


_PAGED = ("One page (--limit) at a time; when there are more, it says how many and the "
          "--cursor that shows the next page. --all shows every one.")


@app.command(help=f"List the workspace's sources, oldest first: id, title, latest version. "
                  f"{_PAGED}")
def sources(limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
            url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None,
            key: KeyOpt = None) -> None:
    with _api_errors(), _client(url, key, workspace) as c:
        _print_list(c, c.list_sources, lambda s: f"{s['id']}  v{s['latest_version']}  "
                    f"{s['title'] or '(untitled)'}", again=["sources"], limit=limit,
                    cursor=cursor, every=every)


@app.command(help=f"List claims: id, status, statement; with words, the claims that match "
                  f"them best first (a search pages through its best 2000). {_PAGED}")
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
    with _api_errors(), _client(url, key, workspace) as c:
        _print_list(c, c.search_claims, lambda h: f"{h['id']}  {h['status']:<10}  "
                    f"{h['statement']}", again=again, limit=limit, cursor=cursor, every=every,
                    q=words, status=status.split(",") if status else None)


@app.command(help=f"List agent runs, newest first: id, status, task. {_PAGED}")
def runs(limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
         url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None,
         key: KeyOpt = None) -> None:
    with _api_errors(), _client(url, key, workspace) as c:
        _print_list(c, c.list_runs, lambda r: f"{r['id']}  {r['status']:<10}  {r['task']}",
                    again=["runs"], limit=limit, cursor=cursor, every=every)


@app.command(help=f"List decisions, newest first: id, status, title. {_PAGED}")
def decisions(
    status: Annotated[list[str] | None, typer.Option(
        help="draft, accepted, needs_review or rejected (repeat for several).")] = None,
    limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    again = ["decisions", *(f"--status={x}" for x in status or [])]
    with _api_errors(), _client(url, key, workspace) as c:
        _print_list(c, c.list_decisions, lambda d: f"{d['id']}  {d['status']:<12}  "
                    f"{d['title']}", again=again, limit=limit, cursor=cursor, every=every,
                    status=status)


@app.command()
def embeddings(
    reembed: Annotated[bool, typer.Option(
        "--reembed", help="Drop the workspace's vectors and embed every claim again with the "
                          "server's model (after the model changed).")] = False,
    wait: Annotated[bool, typer.Option(help="Follow the progress until no vector is "
                                            "pending.")] = True,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Show (and follow) how far the workspace's claim vectors are; --reembed starts over."""
    with _api_errors(), _client(url, key, workspace) as c:
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


@app.command()
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
    with _api_errors(), _client(url, key, workspace) as c:
        view = c.run_agent(task, builds_on=builds_on or [], as_of=as_of)
    _console().print(show.run_view(view))


@app.command()
def correct(
    claim: Annotated[str, typer.Argument(
        help="The claim that is wrong: its id, or words that find exactly one current claim "
             "(e.g. \"June 12\").")],
    statement: Annotated[str | None, typer.Argument(
        help="The corrected statement (leave out with --retract).")] = None,
    retract: Annotated[bool, typer.Option("--retract", help="Retract, no replacement.")] = False,
    reason: Annotated[str | None, typer.Option(help="Why (kept on the correction).")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Preview a correction, confirm, apply it with the preview's revisions, show before/after."""
    out = _console()
    with _api_errors(), _client(url, key, workspace) as c:
        claim_id = _one_claim(c, claim)
        kind: CorrectionKind = "retract" if retract else "replace"
        preview = c.preview_correction(claim_id, statement, kind=kind)
        out.print(show.claim_card(c.get_claim(claim_id), "Claim to correct", "red"))
        out.print(show.impact_view(preview))
        if not yes and not typer.confirm("Apply this correction?", default=False):
            typer.echo("Not applied.")
            raise typer.Exit(1)
        result = c.apply_preview(preview, reason=reason)
    out.print(show.correction_view(result))


def _one_claim(c: Client, words_or_id: str) -> str:
    """The claim an argument names: an id as is, otherwise the one current claim whose
    statement holds every one of the words (refused, listing candidates, if not exactly one)."""
    with suppress(ValueError):
        if str(uuid.UUID(words_or_id)) == words_or_id:
            return words_or_id
    wanted = words_or_id.lower()
    hits = [h for h in c.search_claims(words_or_id, limit=50)["items"]
            if wanted in str(h["statement"]).lower()]
    if len(hits) == 1:
        return str(hits[0]["id"])
    if not hits:
        typer.echo(f"No current claim says \u201c{words_or_id}\u201d; `afterhack graph` lists "
                   "them with their ids.", err=True)
    else:
        typer.echo(f"{len(hits)} current claims say \u201c{words_or_id}\u201d; name one by id:",
                   err=True)
        for h in hits:
            typer.echo(f"  {h['id']}  {h['statement']}", err=True)
    raise typer.Exit(2)


conflicts_app = typer.Typer(no_args_is_help=False, add_completion=False,
                            help="Sources that disagree: list them, resolve one.")
app.add_typer(conflicts_app, name="conflicts")


@conflicts_app.callback(invoke_without_command=True)
def conflicts(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(
        help="open, resolved, dismissed or all.")] = "open",
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """List conflicts, both sides with their quotes, sources and dates."""
    if ctx.invoked_subcommand is not None:
        return
    if status not in ("open", "resolved", "dismissed", "all"):
        raise typer.BadParameter("open, resolved, dismissed or all", param_hint="--status")
    with _api_errors(), _client(url, key, workspace) as c:
        listed = c.list_conflicts(status=cast(ConflictStatusFilter, status))
    _console().print(show.conflicts_view(listed))


@conflicts_app.command("resolve")
def resolve_conflict(
    conflict_id: Annotated[str, typer.Argument(help="The conflict to resolve.")],
    keep: Annotated[str | None, typer.Option(
        help="The claim to keep (its id, or words that find exactly one current claim): the "
             "other side (and its copies) is superseded by it.")] = None,
    dismiss: Annotated[bool, typer.Option(
        "--dismiss", help="Both sides hold (another scope); never raise this pair again.")
    ] = False,
    reason: Annotated[str | None, typer.Option(help="Why (kept on the resolution).")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Preview a resolution, confirm, apply it with the preview's revisions."""
    if (keep is None) == (not dismiss):
        raise typer.BadParameter("give either --keep CLAIM_ID or --dismiss")
    out = _console()
    with _api_errors(), _client(url, key, workspace) as c:
        kept = _one_claim(c, keep) if keep is not None else None
        preview = c.preview_conflict_resolution(conflict_id, keep=kept, dismiss=dismiss)
        out.print(show.resolution_preview_view(preview))
        if not yes and not typer.confirm("Apply this resolution?", default=False):
            typer.echo("Not applied.")
            raise typer.Exit(1)
        result = c.apply_resolution(preview, reason=reason)
    out.print(show.resolution_view(result))


@app.command()
def graph(
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Show it as the memory held it then (ISO 8601 or epoch ms; a date "
                        "alone is the end of that day, UTC).")] = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Show the workspace: sources -> claims -> decisions -> actions, with statuses."""
    with _api_errors(), _client(url, key, workspace) as c:
        view = c.graph(as_of=as_of)
    title = f"Workspace {workspace}" + (f" as of {as_of}" if as_of else "")
    _console().print(show.graph_tree(view, title))


@app.command()
def mcp(data_dir: DataDirOpt = None) -> None:
    """Serve the MCP tools over stdio (set AFTERHACK_FALKORDB_URL next to a running serve)."""
    settings = _settings(**({} if data_dir is None else {"data_dir": data_dir}))

    from afterhack.mcpserver.stdio import serve_stdio
    from afterhack.runtime.embedded import DataDirInUse

    # stdout is the protocol: every log line goes to stderr.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve_stdio(settings))
    except DataDirInUse as exc:
        typer.echo(f"{exc}\nOr use the running server's MCP endpoint at /mcp.", err=True)
        raise typer.Exit(3) from None
    except KeyboardInterrupt:
        pass


@app.command()
def demo(data_dir: Annotated[Path | None, typer.Option(
        help="Keep the demo's FalkorDB data here (default: a fresh temporary dir).")] = None,
         ) -> None:
    """Run the whole journey on a fresh workspace and print it: source, claim, decision,
    correction preview, before/after, flag and hold, and a fresh run citing the correction."""
    from afterhack.cli.demo import run_demo

    raise typer.Exit(run_demo(data_dir))


# Development tools (``afterhack bench``, ``afterhack loadtest``) live outside this package,
# in ``tools/``; a development install registers them under this entry-point group.
TOOL_COMMANDS = "afterhack.commands"


def _add_tool_commands() -> None:
    for ep in entry_points(group=TOOL_COMMANDS):
        ep.load()(app)
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    known = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    if wanted in ("bench", "loadtest") and wanted not in known:
        typer.echo(f"`afterhack {wanted}` is a development tool and is not installed here: "
                   "run scripts/bootstrap --dev in a clone of the repository (it installs "
                   "tools/ beside the app).", err=True)
        raise SystemExit(2)


def main() -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _add_tool_commands()
    app()


if __name__ == "__main__":
    main()
