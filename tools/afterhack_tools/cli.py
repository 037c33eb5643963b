"""``afterhack bench`` and ``afterhack loadtest``: registered on the product's CLI through the
``afterhack.commands`` entry point when this package is installed (a development install)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command()(bench)
    app.command()(loadtest)
    app.command("model-server")(model_server)


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
    only: Annotated[str | None, typer.Option(
        help="Run one section alone: 'conflicts' (detector quality, ingest with and without "
             "conflict checks, collateral of resolutions), 'asof' (reads as of a time against "
             "reads now, reads now against a graph without histories, memory per status "
             "change), 'restart' (kill -9 of the app with claims on disk, then the time to "
             "come back), 'retrieval' (HaluEval QA search "
             "quality), 'embedding-ingest' (a 10,000-sentence document with and without the "
             "vector worker), 'conversations' (messages appended to a conversation of "
             "10,000 against plain text of the same sentences, and file reading per MB of "
             "each kind), 'real-model' (extraction, agent runs and the conflict judge "
             "against a real small model on loopback, on 40 HaluEval QA rows; its engine "
             "comes from scripts/install-real-model), 'disk-scrub' (the rewrite of "
             "FalkorDB's files after an erasure at 10,000 and 100,000 claims, against a "
             "plain BGREWRITEAOF of the same data), 'erasure' (one message of a "
             "10,000-message conversation and sources of 1,000 claims erased, preview and "
             "apply, beside writes of the same reach) or 'one-fact' (10,000 notes that each "
             "give one budget another value: open conflicts, the write rate as the dispute "
             "grows, memory, restart after kill -9; 800 with --quick). 'conflicts' and "
             "'asof' write "
             "latest.json and .md; the others "
             "write <section>.json and .md, never latest.*.")] = None,
    restart_sizes: Annotated[str | None, typer.Option(
        help="Claims on disk when the app is killed, comma-separated (default "
             "24000,240000; 1000 with --quick --only restart).")] = None,
    restart_aof: Annotated[str, typer.Option(
        help="AOF rewrite policy during the restart section's writes: afterhack, or "
             "redis-default (Redis's own, as before afterhack set one) to compare.")]
    = "afterhack",
    rows: Annotated[int | None, typer.Option(
        help="HaluEval QA rows for the retrieval section (default 1000; 30 with --quick), or "
             "for the real-model section (default 40; 6 with --quick).",
        min=10, max=10000)] = None,
    cluster: Annotated[bool, typer.Option(
        help="Also run the suite on a local 3-master, 3-replica FalkorDB cluster and write "
             "latest-cluster.json and .md (the two side by side).")] = False,
    cluster_workspaces: Annotated[int | None, typer.Option(
        help="Empty workspaces on the cluster (default 10000; 20 with --quick).", min=2)]
    = None,
) -> None:
    """Measure the product against its floors at each size (own FalkorDB and app, offline model)."""
    import asyncio
    import sys

    from afterhack_tools.bench.runner import (
        ALONE,
        SECTIONS,
        BenchConfig,
        run_bench,
        run_section,
    )

    parsed = _sizes(sizes, "sizes")
    if only is not None and only not in SECTIONS:
        raise typer.BadParameter(f"--only takes one of: {', '.join(SECTIONS)}")
    if restart_aof not in ("afterhack", "redis-default"):
        raise typer.BadParameter("--restart-aof is afterhack or redis-default")
    cfg = BenchConfig.quick_config() if quick else BenchConfig()
    cfg.only = only
    cfg.restart_aof_policy = "afterhack" if restart_aof == "afterhack" else "redis-default"
    if restart_sizes is not None:
        cfg.restart_sizes = _sizes(restart_sizes, "restart sizes")
    elif quick and only == "restart":
        cfg.restart_sizes = (1000,)
    cfg.out = out
    cfg.command = " ".join(["afterhack", *sys.argv[1:]])
    if parsed:
        cfg.sizes = parsed
    if workspaces is not None:
        cfg.tenants = workspaces
    if rows is not None:
        cfg.retrieval_rows = cfg.real_model_rows = rows
    if quick and only == "conversations":
        cfg.conversation_messages, cfg.conversation_batch = 400, 20
    if only in ALONE:
        res = asyncio.run(run_section(cfg, only, log=lambda line: typer.echo(line, err=True)))
        typer.echo((out / f"{only}.md").read_text())
        typer.echo(f"wrote {out / only}.json and .md in {res['meta']['duration_s']} s",
                   err=True)
        return
    cfg.cluster = cluster
    cfg.cluster_tenants = cluster_workspaces or (cfg.tenants if quick else 10_000)
    result = asyncio.run(run_bench(cfg, log=lambda line: typer.echo(line, err=True)))
    name = ("restart" if only == "restart" else "latest-cluster" if cluster else "latest")
    typer.echo((out / f"{name}.md").read_text())
    typer.echo(f"wrote {out / f'{name}.json'} and {out / f'{name}.md'} "
               f"in {result['meta']['duration_s']} s", err=True)


def _sizes(text: str | None, what: str) -> tuple[int, ...]:
    if text is None:
        return ()
    try:
        parsed = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"{what} are whole numbers, e.g. 1000,10000") from None
    if not parsed or min(parsed) < 50:
        raise typer.BadParameter(f"each of the {what} must be at least 50 claims")
    return parsed



def loadtest(
    clients: Annotated[int, typer.Option(help="Concurrent clients (at most 500).")] = 50,
    duration: Annotated[float, typer.Option(help="Seconds of load (at most 600).")] = 60.0,
    workspaces: Annotated[int, typer.Option(help="Workspaces; half the clients share "
                                                 "the first one.")] = 4,
    apps: Annotated[int | None, typer.Option(
        help="App processes sharing one FalkorDB (default 2; 3 with --cluster).")] = None,
    cluster: Annotated[bool, typer.Option(
        help="On a local 3-master, 3-replica FalkorDB cluster instead of one server.")]
    = False,
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
    from afterhack_tools.load.run import Options, run, table

    key = os.environ.get("AFTERHACK_ADMIN_KEY") if url else None
    report = run(Options(clients=clients, duration_s=duration, workspaces=workspaces,
                         apps=apps or (3 if cluster else 2), seed=seed, url=url,
                         falkordb_url=falkordb_url, admin_key=key, json_out=json_out,
                         cluster=cluster))
    typer.echo(table(report))
    typer.echo(f"acknowledged writes: {report['writes_acknowledged']}; "
               f"conflicts (409): {report['conflicts']}; checks took {report['verify_s']} s")
    if report["problems"]:
        for kind, items in report["problems"].items():
            typer.echo(f"PROBLEM {kind} ({len(items)}): " + "; ".join(items[:10]), err=True)
        raise typer.Exit(1)
    typer.echo("all checks passed")


def model_server(
    port: Annotated[int, typer.Option(help="Loopback port to serve on.", min=1, max=65535)]
    = 8081,
    threads: Annotated[int, typer.Option(help="Decoding threads.", min=1, max=64)] = 1,
) -> None:
    """Serve the real-model tier's small model (SmolLM2-135M-Instruct, from
    scripts/install-real-model) on 127.0.0.1 until Ctrl-C, and print the settings that
    point the app at it."""
    import tempfile
    import time

    from afterhack_tools.realmodel import MODEL_NAME, EngineUnavailable, RealModel, find_engine

    try:
        engine = find_engine()
    except EngineUnavailable as exc:
        raise typer.BadParameter(str(exc), param_hint="the real-model engine") from None
    log = Path(tempfile.mkdtemp(prefix="afterhack-model-")) / "server.log"
    typer.echo(f"starting the model server on 127.0.0.1:{port} (log: {log}) ...")
    with RealModel(engine, log, threads=threads, port=port) as server:
        typer.echo("serving; run the app against it with:\n\n"
                   f"  OPENAI_BASE_URL={server.base_url} AFTERHACK_MODEL={MODEL_NAME} "
                   "AFTERHACK_LLM_MAX_TOKENS=512 AFTERHACK_LLM_RESPONSE_FORMAT=json_object_schema "
                   "scripts/run\n\nCtrl-C stops it.")
        try:
            while server.alive():
                time.sleep(0.5)
        except KeyboardInterrupt:
            return
    typer.echo(f"the model server exited: {server.log_tail()}", err=True)
    raise typer.Exit(1)
