"""`afterhack forget`: erase words from everywhere the memory wrote them (docs/rules.md,
rule 22), previewed and confirmed as a correction is; and the speakers' requests to forget,
listed, applied or declined."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from contextlib import suppress
from typing import Annotated, Any

import typer

from afterhack.cli import erasure_view as show
from afterhack.cli.common import (
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
    say_more,
)
from afterhack.client import DEFAULT_URL, ApiError, Client
from afterhack.model.erasures import ErasurePreview, ErasureRecord
from afterhack.model.sources import SourceView
from afterhack.model.vocab import ERASURE_STATUS_FILTERS, ErasureStatusFilter, as_word

# A client waiting for the disk waits as long as the server may (its ?wait=disk gives up
# after AFTERHACK_DISK_WAIT_S, at most an hour), and a little more.
DISK_WAIT_TIMEOUT_S = 3660.0

ReasonOpt = Annotated[str | None, typer.Option(
    help="Why (kept on the erasure's record, with any erased words in it replaced).")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")]
WaitDiskOpt = Annotated[bool, typer.Option(
    "--wait-disk", help="Answer only once FalkorDB's files no longer hold the words (or the "
                        "server's AFTERHACK_DISK_WAIT_S has passed); without it the files are "
                        "rewritten in the background.")]

forget_app = typer.Typer(no_args_is_help=False, add_completion=False, help="""Erase words
from everywhere the memory wrote them: texts keep an \\[erased] marker where they stood, a claim
that quoted them reads "Erased on ..., by ...", and what rested on it is re-checked as after
a retraction. Name exactly one thing: --source (every version), --source with --version or
--message, --claim, --speaker, --text or --request. It shows what goes and what is repaired,
and asks before applying unless --yes. `afterhack forget requests` lists the speakers'
requests to forget that wait for a reviewer.""")

requests_app = typer.Typer(no_args_is_help=False, add_completion=False, help="""A speaker's
request to forget ("Please forget my phone number."): its claims are withheld at once and it
waits for a reviewer. List them; apply or decline one.""")
forget_app.add_typer(requests_app, name="requests")


@forget_app.callback(invoke_without_command=True)
def forget(
    ctx: typer.Context,
    source: Annotated[str | None, typer.Option(
        help="A source: its id, or the title (or file name) of exactly one source. Alone, "
             "every version of it goes, its original files with them.",
        show_default=False)] = None,
    version: Annotated[str | None, typer.Option(
        help="One version of --source: its id or its number (1, 2, ...).",
        show_default=False)] = None,
    message: Annotated[str | None, typer.Option(
        help="One message of the conversation --source: its index (from 0), or words that "
             "exactly one of its messages holds.", show_default=False)] = None,
    claim: Annotated[str | None, typer.Option(
        help="A claim: its id, or words that find exactly one current claim. The span its "
             "quote covers goes.", show_default=False)] = None,
    speaker: Annotated[str | None, typer.Option(
        help="Everything this speaker said in the workspace's conversations.",
        show_default=False)] = None,
    text: Annotated[str | None, typer.Option(
        help="An exact string (4 characters or more), wherever it was written: texts, "
             "quotes, titles, runs, decisions, audit.", show_default=False)] = None,
    request: Annotated[str | None, typer.Option(
        help="A speaker's request to forget (`afterhack forget requests` lists them): the "
             "claims it withholds go.", show_default=False)] = None,
    reason: ReasonOpt = None, yes: YesOpt = False, wait_disk: WaitDiskOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    named = [n for n, v in (("--source", source), ("--claim", claim), ("--speaker", speaker),
                            ("--text", text), ("--request", request)) if v is not None]
    if len(named) != 1:
        raise typer.BadParameter(
            "name exactly one thing to forget: --source (with --version or --message, or "
            "alone), --claim, --speaker, --text or --request"
            + (f"; got {', '.join(named)}" if named else ""))
    if (version is not None or message is not None) and source is None:
        raise typer.BadParameter("--version and --message name a part of a --source")
    if version is not None and message is not None:
        raise typer.BadParameter("name either --version or --message, not both")
    with api_errors(), _client(url, key, workspace, wait_disk) as c:
        target: dict[str, Any]
        if source is not None:
            target, what = _source_target(c, source, version, message)
        elif claim is not None:
            claim_id = one_claim(c, claim)
            statement = c.get_claim(claim_id)["statement"]
            target, what = {"claim_id": claim_id}, f"the claim \u201c{statement}\u201d"
        elif speaker is not None:
            target, what = {"speaker": speaker}, f"everything {speaker} said"
        elif text is not None:
            target, what = {"text": text}, f"the words \u201c{text}\u201d, wherever written"
        else:
            assert request is not None
            target, what = {"request_id": request}, f"what request {request} names"
        _preview_and_apply(c, target, what, reason=reason, yes=yes, wait_disk=wait_disk)


def _client(url: str, key: str | None, workspace: str | None, wait_disk: bool) -> Client:
    if wait_disk:
        return client_for(url, key, workspace, timeout=DISK_WAIT_TIMEOUT_S)
    return client_for(url, key, workspace)


def _preview_and_apply(c: Client, target: dict[str, Any], what: str, *, reason: str | None,
                       yes: bool, wait_disk: bool) -> None:
    out = console()
    preview: ErasurePreview = c.preview_erasure(**target)
    out.print(show.erasure_preview_view(preview, what, _titles(c, _sources_of(preview))))
    if not yes and not typer.confirm("Erase this? The words cannot be brought back.",
                                     default=False):
        typer.echo("Not applied.")
        raise typer.Exit(1)
    result = c.apply_erasure(**target, impact_token=preview["impact_token"], reason=reason,
                             wait_for_disk=wait_disk)
    out.print(show.erasure_view(result, waited=wait_disk))


def _sources_of(preview: ErasurePreview) -> set[str]:
    goes = preview["goes"]
    return ({v["source_id"] for v in goes["versions"]}
            | {m["source_id"] for m in goes["messages"]})


def _titles(c: Client, source_ids: Iterable[str | None]) -> dict[str, str]:
    """Each source's title by id (for what the answers name by id only)."""
    out: dict[str, str] = {}
    for sid in {s for s in source_ids if s is not None}:
        with suppress(ApiError):
            out[sid] = c.get_source(sid)["title"] or "(untitled)"
    return out


def _is_id(text: str) -> bool:
    with suppress(ValueError):
        return str(uuid.UUID(text)) == text
    return False


def one_source(c: Client, id_or_title: str) -> str:
    """The source an argument names: an id as is, otherwise the one source whose title (or
    file name) it is; exit 2, listing them, when none or several are."""
    if _is_id(id_or_title):
        return id_or_title
    every = list(c.items(c.list_sources, limit=200))
    hits = [s for s in every if id_or_title in (s["title"], s["origin_name"])]
    if not hits:
        folded = id_or_title.casefold()
        hits = [s for s in every if folded in ((s["title"] or "").casefold(),
                                               (s["origin_name"] or "").casefold())]
    if len(hits) == 1:
        return hits[0]["id"]
    if not hits:
        typer.echo(f"No source is titled \u201c{id_or_title}\u201d; `afterhack sources` lists "
                   "them with their ids.", err=True)
    else:
        typer.echo(f"{len(hits)} sources are titled \u201c{id_or_title}\u201d; name one by "
                   "id:", err=True)
        for s in hits:
            typer.echo(f"  {s['id']}  v{s['latest_version']}  {s['title']}", err=True)
    raise typer.Exit(2)


def _source_target(c: Client, source: str, version: str | None, message: str | None
                   ) -> tuple[dict[str, Any], str]:
    source_id = one_source(c, source)
    view = c.get_source(source_id)
    title = f"\u201c{view['title'] or '(untitled)'}\u201d"
    if version is not None:
        found = next((v for v in view["versions"]
                      if version in (v["id"], str(v["version"]))), None)
        if found is None:
            typer.echo(f"{title} has no version {version}; it has "
                       + ", ".join(f"{v['version']} ({v['id']})" for v in view["versions"]),
                       err=True)
            raise typer.Exit(2)
        return ({"source_id": source_id, "version_id": found["id"]},
                f"version {found['version']} of {title}")
    if message is not None:
        index, said = _one_message(view, message, title)
        return ({"source_id": source_id, "message_index": index},
                f"message {index} of {title}: {said}")
    return {"source_id": source_id}, f"the source {title}, every version"


def _one_message(view: SourceView, message: str, title: str) -> tuple[int, str]:
    """A message of a conversation, by its index or by words only it holds: its index and
    who said what in it."""
    said: dict[int, tuple[str | None, list[str]]] = {}
    for v in view["versions"]:
        for f in v["fragments"]:
            i = f["message_index"]
            if i is not None:
                said.setdefault(i, (f["speaker"], []))[1].append(f["text"])
    if not said:
        typer.echo(f"{title} is not a conversation: it has no messages.", err=True)
        raise typer.Exit(2)
    if message.isdigit():
        hits = [int(message)] if int(message) in said else []
    else:
        folded = message.casefold()
        hits = [i for i, (_, texts) in said.items() if folded in " ".join(texts).casefold()]
    if len(hits) == 1:
        who, texts = said[hits[0]]
        return hits[0], f"{who or '?'}: \u201c{' '.join(texts)}\u201d"
    if not hits:
        typer.echo(f"No message of {title} is {message!r} (it has {len(said)}, from 0).",
                   err=True)
    else:
        typer.echo(f"{len(hits)} messages of {title} hold \u201c{message}\u201d; name one by "
                   "its index:", err=True)
        for i in sorted(hits):
            who, texts = said[i]
            typer.echo(f"  {i}  {who}: {' '.join(texts)}", err=True)
    raise typer.Exit(2)


@requests_app.callback(invoke_without_command=True)
def requests(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(
        help="requested (waiting for a reviewer), applied, declined, or all (every erasure "
             "and request).")] = "requested",
    limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """List the requests to forget that wait for a reviewer, newest first: who asked, when,
    in which message, and the claims each withholds. `afterhack forget requests apply ID`
    erases them, `... decline ID` gives them back. One page (--limit) at a time; when there
    are more, it says how many and the --cursor that shows the next page. --all shows every
    one."""
    if ctx.invoked_subcommand is not None:
        return
    wanted = _status(status)
    with api_errors(), client_for(url, key, workspace) as c:
        if every:
            items: list[ErasureRecord] = list(c.items(c.list_erasures, status=wanted,
                                                      limit=max(limit, 200)))
            page = None
        else:
            page = c.list_erasures(status=wanted, limit=limit, cursor=cursor)
            items = page["items"]
        titles = _titles(c, [e["target"]["source_id"] for e in items])
        out = console()
        for e in items:
            out.print(show.request_view(e, [_claim(c, i) for i in e["claim_ids"]], titles))
        if not items:
            typer.echo("(none)")
    if page is not None:
        say_more(page, again=["forget", "requests", "--status", status], cursor=cursor)


def _status(status: str) -> ErasureStatusFilter:
    try:
        return as_word(ERASURE_STATUS_FILTERS, status)
    except ValueError:
        raise typer.BadParameter("requested, applied, declined or all",
                                 param_hint="--status") from None


def _claim(c: Client, claim_id: str) -> dict[str, Any]:
    with suppress(ApiError):
        found = c.get_claim(claim_id)
        return {"id": claim_id, "status": found["status"], "statement": found["statement"]}
    return {"id": claim_id, "status": None, "statement": "?"}


@requests_app.command("apply")
def apply_request(
    request_id: Annotated[str, typer.Argument(help="The request to apply.")],
    reason: ReasonOpt = None, yes: YesOpt = False, wait_disk: WaitDiskOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Erase what a request withholds (as `afterhack forget --request ID`): preview, confirm,
    apply."""
    with api_errors(), _client(url, key, workspace, wait_disk) as c:
        _preview_and_apply(c, {"request_id": request_id}, f"what request {request_id} names",
                           reason=reason, yes=yes, wait_disk=wait_disk)


@requests_app.command("decline")
def decline_request(
    request_id: Annotated[str, typer.Argument(help="The request to decline.")],
    reason: ReasonOpt = None,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Decline a request: the claims it withheld are what they were before (found, listed
    and cited again)."""
    with api_errors(), client_for(url, key, workspace) as c:
        record = c.decline_erasure(request_id, reason=reason)
        claims = [_claim(c, i) for i in record["claim_ids"]]
    console().print(show.request_view(record, claims, {}))
