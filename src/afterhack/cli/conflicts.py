"""`afterhack conflicts`: sources that disagree, listed and resolved."""

from __future__ import annotations

from typing import Annotated

import typer

from afterhack.cli import console as show
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
from afterhack.client import DEFAULT_URL, Client
from afterhack.model.vocab import CONFLICT_STATUS_FILTERS, as_word

conflicts_app = typer.Typer(no_args_is_help=False, add_completion=False,
                            help="Sources that disagree: list them, resolve one.")


@conflicts_app.callback(invoke_without_command=True)
def conflicts(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(
        help="open, resolved, dismissed or all.")] = "open",
    limit: LimitOpt = 20, cursor: CursorOpt = None, every: AllOpt = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """List conflicts, newest first: each a dispute over one fact, each value a side with
    its claims' quotes, sources and dates, the newest value first. One page (--limit) at a
    time; when there are more, it says how many and the --cursor that shows the next page.
    --all shows every one."""
    if ctx.invoked_subcommand is not None:
        return
    if status not in CONFLICT_STATUS_FILTERS:
        raise typer.BadParameter("open, resolved, dismissed or all", param_hint="--status")
    wanted = as_word(CONFLICT_STATUS_FILTERS, status)
    with api_errors(), client_for(url, key, workspace) as c:
        if every:
            items = list(c.items(c.list_conflicts, status=wanted, limit=max(limit, 200)))
            console().print(show.conflicts_view({"items": items}))
            return
        page = c.list_conflicts(status=wanted, limit=limit, cursor=cursor)
    console().print(show.conflicts_view(page))
    say_more(page, again=["conflicts", "--status", status], cursor=cursor)


@conflicts_app.command("resolve")
def resolve_conflict(
    conflict_id: Annotated[str | None, typer.Argument(
        help="The conflict to resolve; with --keep it may be left out: the one open conflict "
             "the kept claim is in.", show_default=False)] = None,
    keep: Annotated[str | None, typer.Option(
        help="The claim to keep (its id, or words that find exactly one current claim): the "
             "claims of every other value (and their copies) are superseded by it.")] = None,
    dismiss: Annotated[bool, typer.Option(
        "--dismiss", help="Every value holds (another scope); never raise a pair of these "
        "claims again.")
    ] = False,
    reason: Annotated[str | None, typer.Option(help="Why (kept on the resolution).")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply without asking.")] = False,
    url: UrlOpt = DEFAULT_URL, workspace: WorkspaceOpt = None, key: KeyOpt = None,
) -> None:
    """Preview a resolution, confirm, apply it with the preview's revisions."""
    if (keep is None) == (not dismiss):
        raise typer.BadParameter("give either --keep CLAIM_ID or --dismiss")
    out = console()
    with api_errors(), client_for(url, key, workspace) as c:
        kept = one_claim(c, keep) if keep is not None else None
        if conflict_id is None:
            if kept is None:
                raise typer.BadParameter("name the conflict to dismiss",
                                         param_hint="CONFLICT_ID")
            conflict_id = _the_conflict_of(c, kept)
        preview = c.preview_conflict_resolution(conflict_id, keep=kept, dismiss=dismiss)
        out.print(show.resolution_preview_view(preview))
        if not yes and not typer.confirm("Apply this resolution?", default=False):
            typer.echo("Not applied.")
            raise typer.Exit(1)
        result = c.apply_resolution(preview, reason=reason)
    out.print(show.resolution_view(result))


def _the_conflict_of(c: Client, claim_id: str) -> str:
    """The one open conflict a claim is in (exit 2, listing them, when it is in none or in
    several)."""
    found = [k for k in c.get_claim(claim_id).get("conflicts") or [] if k["status"] == "open"]
    if len(found) == 1:
        return found[0]["id"]
    if not found:
        typer.echo("That claim is in no open conflict; `afterhack conflicts` lists them.",
                   err=True)
    else:
        typer.echo(f"That claim is in {len(found)} open conflicts; name one:", err=True)
        for k in found:
            typer.echo(f"  {k['id']}  {k['reason']}", err=True)
    raise typer.Exit(2)
