"""The ``afterhack`` command line."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="afterhack: agent memory that keeps the chain of because.")


@app.callback()
def _root() -> None:
    """afterhack: agent memory that keeps the chain of because."""


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.")] = 8000,
    data_dir: Annotated[Path | None,
                        typer.Option(help="Where the embedded FalkorDB keeps its data.")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the API and the UI (and the embedded FalkorDB unless AFTERHACK_FALKORDB_URL is set)."""
    import uvicorn

    from afterhack.api.app import create_app
    from afterhack.api.security import keys_required, refuse_to_serve
    from afterhack.config import Settings
    from afterhack.embedded import DataDirInUse

    overrides: dict[str, object] = {"host": host, "port": port}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    settings = Settings(**overrides)  # type: ignore[arg-type]
    refusal = refuse_to_serve(settings)
    if refusal:
        typer.echo(refusal, err=True)
        raise typer.Exit(2)
    if keys_required(settings) and settings.admin_key is None:
        typer.echo("Keys are on without AFTERHACK_ADMIN_KEY: only keys made earlier work, "
                   "and nobody can make new ones.", err=True)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    # The HTTP clients log every request's full URL at INFO: the gateway's base URL (which
    # may carry credentials) stays out of the log.
    for name in ("httpx", "httpx2"):
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLogger().level))
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level,
                    proxy_headers=False)
    except DataDirInUse as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(3) from None


@app.command()
def loadtest(
    clients: Annotated[int, typer.Option(help="Concurrent clients (at most 500).")] = 50,
    duration: Annotated[float, typer.Option(help="Seconds of load (at most 600).")] = 60.0,
    workspaces: Annotated[int, typer.Option(help="Workspaces; half the clients share "
                                                 "the first one.")] = 4,
    apps: Annotated[int, typer.Option(help="App processes sharing one FalkorDB.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the clients' choices.")] = 1,
    url: Annotated[str | None, typer.Option(help="An app already running on loopback "
                                                 "(instead of starting one).")] = None,
    falkordb_url: Annotated[str | None, typer.Option(help="Its FalkorDB, for the checks.")]
    = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the report here.")]
    = None,
) -> None:
    """Load the API on loopback (reads, ingests, agent runs, corrections), then check that
    the invariants hold, every 2xx write is there and every 409 was a real conflict."""
    from afterhack.load.run import Options, run, table

    key = os.environ.get("AFTERHACK_ADMIN_KEY") if url else None
    report = run(Options(clients=clients, duration_s=duration, workspaces=workspaces,
                         apps=apps, seed=seed, url=url, falkordb_url=falkordb_url,
                         admin_key=key, json_out=json_out))
    typer.echo(table(report))
    typer.echo(f"acknowledged writes: {report['writes_acknowledged']}; "
               f"conflicts (409): {report['conflicts']}; checks took {report['verify_s']} s")
    if report["problems"]:
        for kind, items in report["problems"].items():
            typer.echo(f"PROBLEM {kind} ({len(items)}): " + "; ".join(items[:10]), err=True)
        raise typer.Exit(1)
    typer.echo("all checks passed")


def main() -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    app()


if __name__ == "__main__":
    main()
