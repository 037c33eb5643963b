"""The ``afterhack`` command line."""

from __future__ import annotations

import ipaddress
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


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.")] = 8000,
    data_dir: Annotated[Path | None, typer.Option(help="Where the embedded FalkorDB keeps its data.")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the API and the UI (starting the embedded FalkorDB unless AFTERHACK_FALKORDB_URL is set)."""
    import uvicorn

    from afterhack.api.app import create_app
    from afterhack.config import Settings
    from afterhack.embedded import DataDirInUse

    overrides: dict[str, object] = {"host": host, "port": port}
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    settings = Settings(**overrides)  # type: ignore[arg-type]
    if not is_loopback(host) and not _keys_on(settings):
        typer.echo(
            f"Refusing to serve on {host} without keys: set AFTERHACK_ADMIN_KEY "
            "(and AFTERHACK_REQUIRE_KEYS=true), or bind to 127.0.0.1.", err=True)
        raise typer.Exit(2)
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
def bench(
    sizes: Annotated[str | None, typer.Option(
        help="Workspace sizes in claims, comma-separated (default 1000,10000,100000).")] = None,
    out: Annotated[Path, typer.Option(help="Where latest.json and latest.md go.")] = Path(
        "bench-results"),
    quick: Annotated[bool, typer.Option(
        help="A tiny run (200 claims, few samples) that checks the suite works.")] = False,
    workspaces: Annotated[int | None, typer.Option(
        help="Empty workspaces for the many-tenants figures (default 1000; 20 with --quick).",
        min=2)] = None,
) -> None:
    """Measure the product against its floors at each size (own FalkorDB and app, offline model)."""
    import asyncio
    import sys

    from afterhack.bench.runner import BenchConfig, run_bench

    parsed: tuple[int, ...] = ()
    if sizes is not None:
        try:
            parsed = tuple(int(x) for x in sizes.split(",") if x.strip())
        except ValueError:
            raise typer.BadParameter("sizes are whole numbers, e.g. 1000,10000") from None
        if not parsed or min(parsed) < 50:
            raise typer.BadParameter("each size must be at least 50 claims")
    cfg = BenchConfig.quick_config() if quick else BenchConfig()
    cfg.out = out
    cfg.command = " ".join(["afterhack", *sys.argv[1:]])
    if parsed:
        cfg.sizes = parsed
    if workspaces is not None:
        cfg.tenants = workspaces
    result = asyncio.run(run_bench(cfg, log=lambda line: typer.echo(line, err=True)))
    typer.echo((out / "latest.md").read_text())
    typer.echo(f"wrote {out / 'latest.json'} and {out / 'latest.md'} "
               f"in {result['meta']['duration_s']} s", err=True)


def _keys_on(settings: object) -> bool:
    require = getattr(settings, "require_keys", None)
    admin = getattr(settings, "admin_key", None)
    return bool(admin) and require is not False


def main() -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    app()


if __name__ == "__main__":
    main()
