"""The ``afterhack`` command line: every command group on one app."""

from __future__ import annotations

import inspect
import os
import sys
from importlib.metadata import entry_points

import typer

from afterhack.cli.common import settings_or_exit
from afterhack.cli.conflicts import conflicts_app
from afterhack.cli.forget import forget_app
from afterhack.cli.memory import memory, workspace_app
from afterhack.cli.server import server
from afterhack.cluster.cli import cluster_app
from afterhack.config import unknown_in_environment

STATUSES_HELP = """afterhack: agent memory that keeps the chain of because.

Statuses you will see: a claim is proposed (extracted, current), accepted (a reviewer's
word, current), superseded (replaced by a correction), rejected (retracted), withheld (a
speaker asked to forget it; found nowhere until a reviewer decides) or erased (its words are
gone: `afterhack forget`); a decision
is draft or accepted (in good standing), needs_review (it lost support, or its sources
disagree) or rejected; an action is proposed, approved, held (a decision it requires was
flagged), done or cancelled."""


app = typer.Typer(add_completion=False, no_args_is_help=True, help=STATUSES_HELP)


@app.callback(help=STATUSES_HELP)
def _root() -> None:
    # An AFTERHACK_ name nothing reads is a typo whatever the command (docs/rules.md, rule
    # 20): a client's mistyped AFTERHACK_URL would talk to another server in silence. The
    # settings say it, with any bad value beside it.
    if unknown_in_environment():
        settings_or_exit()


# Development tools (``afterhack bench``, ``afterhack loadtest``) live outside this package,
# in ``tools/``; a development install registers them under this entry-point group.
TOOL_COMMANDS = "afterhack.commands"


def _add_tool_commands() -> None:
    for ep in entry_points(group=TOOL_COMMANDS):
        ep.load()(app)
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    known = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    if wanted in ("bench", "loadtest", "model-server") and wanted not in known:
        typer.echo(f"`afterhack {wanted}` is a development tool and is not installed here: "
                   "run scripts/bootstrap --dev in a clone of the repository (it installs "
                   "tools/ beside the app).", err=True)
        raise SystemExit(2)


def prose(text: str) -> str:
    """Help written wrapped in the source, as paragraphs of one line each: the terminal's
    width decides where a line breaks, never the source's."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def reflow_help(typer_app: typer.Typer) -> None:
    """Every help text of the app, its commands and its groups (a command's docstring where
    it has no help of its own) as prose()."""
    for info in typer_app.registered_commands:
        text = info.help if isinstance(info.help, str) else (
            inspect.getdoc(info.callback) if info.callback else None)
        if text:
            info.help = prose(text)
    for owner in (typer_app.info, typer_app.registered_callback):
        if owner is not None and isinstance(owner.help, str):
            owner.help = prose(owner.help)
    for group in typer_app.registered_groups:
        if isinstance(group.help, str):
            group.help = prose(group.help)
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)


def main() -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _add_tool_commands()
    reflow_help(app)
    app()


app.add_typer(server)
app.add_typer(workspace_app, name="workspace")
app.add_typer(memory)
app.add_typer(conflicts_app, name="conflicts")
app.add_typer(forget_app, name="forget")
app.add_typer(cluster_app, name="cluster")
reflow_help(app)


if __name__ == "__main__":
    main()
