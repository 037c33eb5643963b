"""Start and stop real processes for tests: the app on a free loopback port, by pid."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from afterhack.runtime.embedded import free_loopback_port, stop_orphan


def falkordb_pid(data_dir: Path) -> int:
    """The pid of the FalkorDB an app runs embedded on ``data_dir``, from its pid file."""
    return int((data_dir / "falkordb.pid").read_text().strip())


class AppProcess:
    """``afterhack serve``; with ``http``, the app under plain uvicorn with that HTTP parser
    instead (``h11`` or ``httptools``), as an operator running their own uvicorn would."""

    def __init__(self, env: dict[str, str], *, data_dir: Path, log_path: Path,
                 http: str | None = None, log_level: str = "warning") -> None:
        self.port = free_loopback_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **env, "AFTERHACK_DATA_DIR": str(data_dir)}
        self.data_dir = data_dir
        self.log_path = log_path
        self.http = http
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        where = ["--host", "127.0.0.1", "--port", str(self.port), "--log-level", self.log_level]
        if self.http is None:
            return [sys.executable, "-m", "afterhack.cli", "serve", *where]
        return [sys.executable, "-m", "uvicorn", "afterhack.app:create_app", "--factory",
                "--http", self.http, *where]

    # A start on a busy host is mostly imports and can take most of a minute
    # (docs/decisions/0011-restart-after-a-crash.md); a start that stalls names its step in
    # the log.
    def start(self, timeout_s: float = 180.0) -> AppProcess:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(self.command(), env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app exited ({self.proc.returncode}): {self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base_url + "/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"app did not come up: {self.log_tail()}")

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        if not self.env.get("AFTERHACK_FALKORDB_URL"):
            # An app stopped while it was still starting once left its embedded FalkorDB
            # running, with parent 1: stopped by its pid here, so no test leaves one behind.
            stop_orphan(self.data_dir)

    def __enter__(self) -> AppProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
