"""``afterhack serve`` as the benchmarks run it: a real process with its embedded FalkorDB on
one data dir, started on a free loopback port and stopped by its pid."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from afterhack.runtime.embedded import exit_with_parent, free_loopback_port
from afterhack_tools.bench.harness import SCRUBBED_ENV


class ServeProcess:
    """``afterhack serve`` with its embedded FalkorDB on one data dir, stopped by pid."""

    def __init__(self, data_dir: Path, log_path: Path,
                 env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        self.base_url = ""

    def start(self) -> None:
        port = free_loopback_port()
        self.base_url = f"http://127.0.0.1:{port}"
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
        env.update(AFTERHACK_DATA_DIR=str(self.data_dir), PYTHONUNBUFFERED="1")
        env.update(self.extra_env)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "afterhack.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--log-level", "info"],
                env=env, cwd=self.data_dir.parent, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, preexec_fn=exit_with_parent)

    async def wait_healthy(self, http: httpx.AsyncClient, timeout_s: float) -> float:
        """Seconds from the start until /api/health says FalkorDB is reachable."""
        assert self.proc is not None
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timeout_s:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited ({self.proc.returncode}):\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError, ValueError):
                r = await http.get(self.base_url + "/api/health", timeout=2)
                if r.status_code == 200 and r.json()["falkordb"]["reachable"]:
                    return time.perf_counter() - t0
            await asyncio.sleep(0.05)
        raise RuntimeError(f"serve did not come up in {timeout_s:.0f} s:\n{self.log_tail()}")

    def falkordb_pid(self) -> int | None:
        try:
            return int((self.data_dir / "falkordb.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=60)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""
