"""Files are read in a worker process with limits on CPU time, wall time and memory.

Each file gets a fresh Python process of its own (runtime/readfile.py), which sets its own
limits with setrlimit, reads the file within the budgets of pages, elements and paragraphs
(files/budget.py) and answers in JSON. Once a file has been read, another such process is
started ahead, its imports done, so the next file does not wait for them (an app that reads
no file starts none). The app talks to a worker through pipes, without
blocking its event loop. Past the wall-time budget, or when the request that asked is
cancelled (its client went away: api/disconnect.py), the worker is killed by its pid.

How many files are read at once, what a caller waiting in line gets, and why a fresh
process rather than a fork: docs/decisions/0042-reading-in-a-sandbox.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import signal
import sys
from asyncio.subprocess import Process
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import Field, TypeAdapter

import afterhack
from afterhack.config import Settings
from afterhack.errors import (
    AfterhackError,
    FileOverBudget,
    ReadersBusy,
    UnreadableFile,
    UnsupportedMediaType,
)
from afterhack.files import ReadDocument
from afterhack.files.budget import Budget
from afterhack.runtime.readfile import Answer, Header

log = logging.getLogger("afterhack.files")

_ANSWER: TypeAdapter[Answer] = TypeAdapter(Annotated[Answer, Field(discriminator="outcome")])
_REFUSALS: dict[str, type[AfterhackError]] = {
    "UnreadableFile": UnreadableFile,
    "UnsupportedMediaType": UnsupportedMediaType,
    "FileOverBudget": FileOverBudget,
}
# The worker runs isolated (-I: no environment variables, no user site, not the working
# directory on its path), with the directory this package was imported from on its path.
_ROOT = str(Path(afterhack.__file__).resolve().parent.parent)
_WORKER = ("import sys; sys.path.insert(0, sys.argv[1]); "
           "from afterhack.runtime.readfile import main; main()")
# How long a killed worker is waited for before the app goes on without reaping it.
_REAP_S = 10.0


@dataclass(frozen=True)
class Limits:
    """What one file's reading may take."""

    cpu_s: int
    wall_s: float
    memory_bytes: int
    budget: Budget

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(cpu_s=settings.file_read_cpu_s, wall_s=settings.file_read_wall_s,
                   memory_bytes=settings.file_read_memory_bytes,
                   budget=Budget(pages=settings.file_max_pages,
                                 elements=settings.file_max_elements,
                                 paragraphs=settings.file_max_paragraphs))

    def header(self, filename: str | None, declared_type: str | None) -> Header:
        return {"filename": filename, "declared_type": declared_type, "cpu_s": self.cpu_s,
                "memory_bytes": self.memory_bytes, "pages": self.budget.pages,
                "elements": self.budget.elements, "paragraphs": self.budget.paragraphs}

    def cpu_over(self) -> FileOverBudget:
        return FileOverBudget(
            f"Reading this file took more than the {self.cpu_s} s of CPU time a file may "
            "take (its cpu_s budget).", budget="cpu_s", limit=self.cpu_s)

    def wall_over(self) -> FileOverBudget:
        return FileOverBudget(
            f"Reading this file took longer than the {self.wall_s:g} s a file may take "
            "(its wall_s budget).", budget="wall_s", limit=self.wall_s)

    def memory_over(self) -> FileOverBudget:
        return FileOverBudget(
            f"Reading this file needs more than the {self.memory_bytes >> 20} MiB of memory "
            "a file may take (its memory_bytes budget).", budget="memory_bytes",
            limit=self.memory_bytes)


class FileReaders:
    """At most ``readers`` files read at once, each by a worker process of its own; up to
    ``queue`` more callers wait in line, each for at most the wall-time budget, and any
    other gets 503 ``file_readers_busy`` with ``Retry-After`` at once."""

    def __init__(self, limits: Limits, *, readers: int, queue: int) -> None:
        self.limits = limits
        self.readers = readers
        self.queue = queue
        self._free = asyncio.Semaphore(readers)
        self._waiting = 0
        # A worker started ahead of the next file, its imports done (or on their way).
        self._spare: asyncio.Task[Process] | None = None
        # The pids of the workers reading now.
        self.running: set[int] = set()

    @classmethod
    def of(cls, settings: Settings) -> FileReaders:
        return cls(Limits.of(settings), readers=settings.file_readers,
                   queue=settings.file_read_queue)

    def _busy(self) -> ReadersBusy:
        return ReadersBusy(
            f"All {self.readers} file readers are busy and {self._waiting} more files wait "
            "for one; send the file again shortly.",
            retry_after_s=math.ceil(self.limits.wall_s))

    async def read(self, data: bytes, filename: str | None,
                   declared_type: str | None) -> ReadDocument:
        """The file read by a worker process within the limits. Raises as read_file does,
        FileOverBudget for time and memory too, and ReadersBusy when no reader is free in
        time."""
        if self._free.locked():
            if self._waiting >= self.queue:
                raise self._busy()
            self._waiting += 1
            try:
                async with asyncio.timeout(self.limits.wall_s):
                    await self._free.acquire()
            except TimeoutError:
                raise self._busy() from None
            finally:
                self._waiting -= 1
        else:
            await self._free.acquire()
        try:
            return await self._read(data, filename, declared_type)
        finally:
            self._free.release()
            # The next spare starts once this file is read, not while: its imports would
            # take the CPU this read needs.
            self.start_spare()

    async def _read(self, data: bytes, filename: str | None,
                    declared_type: str | None) -> ReadDocument:
        limits = self.limits
        worker = await self._worker()
        self.running.add(worker.pid)
        try:
            try:
                async with asyncio.timeout(limits.wall_s):
                    payload = await _exchange(worker, limits.header(filename, declared_type),
                                              data)
                    code = await worker.wait()
            except TimeoutError:
                raise limits.wall_over() from None
            if not payload:
                raise _died(code, limits)
            return _document(_ANSWER.validate_json(payload), limits)
        finally:
            self.running.discard(worker.pid)
            await _stop(worker)

    def start_spare(self) -> asyncio.Task[Process]:
        """Start a spare worker if there is none, so the next file does not wait for its
        imports; the task ends when it is started."""
        if self._spare is None:
            self._spare = asyncio.ensure_future(_spawn())
        return self._spare

    async def _worker(self) -> Process:
        """The spare worker if it is still alive, else a new one."""
        spare, self._spare = self._spare, None
        if spare is not None:
            try:
                # Shielded: a request cancelled meanwhile leaves the start to end, and the
                # worker it started is killed then.
                worker = await asyncio.shield(spare)
            except asyncio.CancelledError:
                spare.add_done_callback(_kill_started)
                raise
            except OSError:
                pass
            else:
                if worker.returncode is None:
                    return worker
        return await _spawn()

    async def aclose(self) -> None:
        """Stop the spare worker (a worker reading stops with its request)."""
        spare, self._spare = self._spare, None
        if spare is None:
            return
        with contextlib.suppress(OSError):
            await _stop(await spare, quiet=True)


def _kill_started(spawning: asyncio.Task[Process]) -> None:
    """Kill the worker a spawn that nobody waits for any more started (its exit is reaped
    by asyncio's child watcher)."""
    if spawning.cancelled() or spawning.exception() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        spawning.result().kill()


async def _spawn() -> Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-c", _WORKER, _ROOT, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)


async def _exchange(worker: Process, header: Header, data: bytes) -> bytes:
    """Send the worker its header and the file; everything it answers, up to its end."""
    assert worker.stdin is not None and worker.stdout is not None
    answer = asyncio.ensure_future(worker.stdout.read())
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            # A worker that stopped early (a refusal from the first bytes, its limits) has
            # closed its end: what it answered is what counts.
            worker.stdin.write(json.dumps(header).encode() + b"\n")
            worker.stdin.write(data)
            await worker.stdin.drain()
            worker.stdin.close()
        return await answer
    finally:
        answer.cancel()


async def _stop(worker: Process, *, quiet: bool = False) -> None:
    """Kill the worker by its pid if it still runs, and reap it."""
    if worker.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            worker.kill()
        try:
            async with asyncio.timeout(_REAP_S):
                await worker.wait()
        except TimeoutError:
            log.warning("file reader (pid %s) did not exit after SIGKILL", worker.pid)
            return
        if not quiet:
            log.info("file reader (pid %s) killed before it answered", worker.pid)


def _died(code: int | None, limits: Limits) -> AfterhackError:
    """Why a worker that answered nothing ended, as the caller's answer."""
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        # The soft CPU limit sends SIGXCPU, the hard one a second later SIGKILL; the app
        # kills only past the wall budget, which is answered before this is asked.
        return limits.cpu_over()
    return UnreadableFile(
        f"The reader stopped on this file without an answer (exit {code}); it is not read.")


def _document(answer: Answer, limits: Limits) -> ReadDocument:
    if answer["outcome"] == "read":
        return answer["document"]
    if answer["outcome"] == "refused":
        raise _REFUSALS[answer["error"]](answer["message"], **answer["details"])
    if answer["outcome"] == "out_of_memory":
        raise limits.memory_over()
    raise RuntimeError(f"the file reader failed:\n{answer['trace']}")
