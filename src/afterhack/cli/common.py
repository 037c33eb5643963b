"""What every command shares: its options, the settings, a client, the console, and
how a failure is said."""

from __future__ import annotations

import shlex
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from afterhack.client import ApiError, Client
from afterhack.config import Settings, SettingsError, load_settings

DataDirOpt = Annotated[Path | None, typer.Option(
    help="Where the embedded FalkorDB keeps its data (default ./.afterhack, or "
         "AFTERHACK_DATA_DIR).", show_default=False)]


UrlOpt = Annotated[str, typer.Option("--url", envvar="AFTERHACK_URL",
                                     help="The running afterhack server.")]


WorkspaceOpt = Annotated[str | None, typer.Option(
    "--workspace", "-w", envvar="AFTERHACK_WORKSPACE", help="Workspace id.")]


KeyOpt = Annotated[str | None, typer.Option("--key", envvar="AFTERHACK_API_KEY",
                                            help="API key (sent as a bearer token).",
                                            show_default=False)]


LimitOpt = Annotated[int, typer.Option(min=1, max=1000, help="How many to show on a page.")]


CursorOpt = Annotated[str | None, typer.Option(
    help="Start after the page that printed this cursor.", show_default=False)]


AllOpt = Annotated[bool, typer.Option("--all", help="Show every one, page after page.")]


PAGED = ("One page (--limit) at a time; when there are more, it says how many and the "
          "--cursor that shows the next page. --all shows every one.")


def settings_or_exit(**overrides: object) -> Settings:
    """The settings, or exit 2 naming each one the environment gives a value it cannot take."""
    try:
        return load_settings(**overrides)
    except SettingsError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None


def client_for(url: str, key: str | None, workspace: str | None,
               need_workspace: bool = True, timeout: float = 120.0) -> Client:
    if need_workspace and not workspace:
        typer.echo("No workspace: pass --workspace or set AFTERHACK_WORKSPACE "
                   "(`afterhack workspace create NAME` makes one).", err=True)
        raise typer.Exit(2)
    return Client(url, key=key, workspace=workspace, timeout=timeout)


@contextmanager
def api_errors() -> Iterator[None]:
    try:
        yield
    except ApiError as exc:
        typer.echo(f"error: {exc.code}: {exc.message}", err=True)
        raise typer.Exit(1) from None


def console() -> Console:
    return Console()


def one_claim(c: Client, words_or_id: str) -> str:
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


def print_list(c: Client, list_page: Callable[..., Mapping[str, Any]],
               line: Callable[[Any], str], *, again: list[str], limit: int,
               cursor: str | None, every: bool, **params: Any) -> None:
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
    say_more(page, again=again, cursor=cursor)


def say_more(page: Mapping[str, Any], *, again: list[str], cursor: str | None) -> None:
    """On stderr, when a page has a next one: how many are left and the command (``again``
    with the cursor) that shows it."""
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
