"""The commands that run the service itself: the HTTP server, MCP over stdio, the demo."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from afterhack.cli.common import (
    DataDirOpt,
    settings_or_exit,
)
from afterhack.wire.request_id import RequestIdFilter

server = typer.Typer()


@server.command()
def serve(
    host: Annotated[str | None, typer.Option(
        help="Address to bind (default 127.0.0.1, or AFTERHACK_HOST).",
        show_default=False)] = None,
    port: Annotated[int | None, typer.Option(
        help="Port to bind (default 8000, or AFTERHACK_PORT).", show_default=False)] = None,
    data_dir: DataDirOpt = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the API, the UI and MCP at /mcp (embedded FalkorDB unless AFTERHACK_FALKORDB_URL)."""
    # An option given wins; otherwise the setting (the environment, .env, the default).
    given = {"host": host, "port": port, "data_dir": data_dir}
    settings = settings_or_exit(**{k: v for k, v in given.items() if v is not None})

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
        # The app writes its own access log, without query strings (api/accesslog.py).
        uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                    log_level=log_level, access_log=False,
                    proxy_headers=False,
                    http=http_protocol(settings))
    except DataDirInUse as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(3) from None


@server.command()
def mcp(data_dir: DataDirOpt = None) -> None:
    """Serve the MCP tools over stdio (set AFTERHACK_FALKORDB_URL next to a running serve)."""
    settings = settings_or_exit(**({} if data_dir is None else {"data_dir": data_dir}))

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


@server.command()
def demo(data_dir: Annotated[Path | None, typer.Option(
        help="Keep the demo's FalkorDB data here (default: a fresh temporary dir).")] = None,
         ) -> None:
    """Run the whole journey on a fresh workspace and print it: source, claim, decision,
    correction preview, before/after, flag and hold, and a fresh run citing the correction."""
    from afterhack.cli.demo import run_demo

    raise typer.Exit(run_demo(data_dir))
