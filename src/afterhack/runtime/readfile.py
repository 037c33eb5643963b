"""One file read in a process of its own, within its limits: the worker runtime/sandbox.py
starts for each file.

It reads a header line (JSON: the file's name and declared type, the limits) and then the
file's bytes from stdin, sets its own limits with setrlimit (CPU seconds; the address space,
the interpreter and the readers' libraries included; no core file), reads the file with the
budgets of pages, elements and paragraphs, and writes one answer to stdout as JSON: data,
never code, so a worker that a hostile file took over has nothing to hand the app but JSON.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import os
import resource
import signal
import sys
import traceback
from typing import Literal

from typing_extensions import TypedDict

from afterhack.errors import AfterhackError, FileOverBudget, UnreadableFile, UnsupportedMediaType
from afterhack.files import ReadDocument, read_file
from afterhack.files.budget import Budget

RefusalName = Literal["UnreadableFile", "UnsupportedMediaType", "FileOverBudget"]


class Header(TypedDict):
    filename: str | None
    declared_type: str | None
    cpu_s: int
    memory_bytes: int
    pages: int
    elements: int
    paragraphs: int


class Read(TypedDict):
    outcome: Literal["read"]
    document: ReadDocument


class Refused(TypedDict):
    outcome: Literal["refused"]
    error: RefusalName
    message: str
    details: dict[str, int | str | None]


class OutOfMemory(TypedDict):
    outcome: Literal["out_of_memory"]


class Failed(TypedDict):
    """A reader's own failure (a bug, not the file's fault): the app answers 500."""

    outcome: Literal["failed"]
    trace: str


Answer = Read | Refused | OutOfMemory | Failed


def _die_with_parent() -> None:
    """SIGKILL when the app that started this worker dies: a read in progress does not
    outlive a killed app."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def limit(header: Header) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # Past the soft limit the kernel sends SIGXCPU, which ends the process; the hard limit
    # (a second later) sends SIGKILL to one that is busy in C meanwhile.
    resource.setrlimit(resource.RLIMIT_CPU, (header["cpu_s"], header["cpu_s"] + 1))
    resource.setrlimit(resource.RLIMIT_AS, (header["memory_bytes"], header["memory_bytes"]))


def _peak_bytes() -> int:
    """The most address space this process has held (VmPeak)."""
    with open("/proc/self/status", "rb") as status:
        for line in status:
            if line.startswith(b"VmPeak:"):
                return int(line.split()[1]) << 10
    return 0


def _out_of_memory(exc: BaseException, memory_bytes: int) -> bool:
    """Whether a refusal was the memory limit in disguise: a library that met a failed
    allocation and reported the file as damaged (lxml raises a syntax error, "unknown
    error"). Told by a MemoryError behind it, or by an address space that came within a
    sixteenth of the limit."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, MemoryError):
            return True
        seen = seen.__cause__ or seen.__context__
    return _peak_bytes() >= memory_bytes - max(8 << 20, memory_bytes // 16)


def _refusal_name(exc: AfterhackError) -> RefusalName:
    if isinstance(exc, FileOverBudget):
        return "FileOverBudget"
    if isinstance(exc, UnsupportedMediaType):
        return "UnsupportedMediaType"
    return "UnreadableFile"


def answer(header: Header, data: bytes) -> Answer:
    budget = Budget(pages=header["pages"], elements=header["elements"],
                    paragraphs=header["paragraphs"])
    try:
        return {"outcome": "read",
                "document": read_file(data, header["filename"], header["declared_type"],
                                      budget)}
    except MemoryError:
        return {"outcome": "out_of_memory"}
    except (UnreadableFile, UnsupportedMediaType, FileOverBudget) as exc:
        if _out_of_memory(exc, header["memory_bytes"]):
            return {"outcome": "out_of_memory"}
        return {"outcome": "refused", "error": _refusal_name(exc), "message": exc.message,
                "details": exc.details}
    except Exception:
        return {"outcome": "failed", "trace": traceback.format_exc()}


def _encode(found: Answer) -> bytes:
    if found["outcome"] == "read":
        return json.dumps({"outcome": "read",
                           "document": dataclasses.asdict(found["document"])}).encode()
    return json.dumps(found).encode()


def main() -> None:
    _die_with_parent()
    header: Header = json.loads(sys.stdin.buffer.readline())
    limit(header)
    data = sys.stdin.buffer.read()
    found = answer(header, data)
    del data
    try:
        payload = _encode(found)
    except MemoryError:
        del found
        payload = _encode({"outcome": "out_of_memory"})
    sys.stdout.buffer.write(payload)
    sys.stdout.buffer.flush()
    # Nothing is left to clean up: leaving now spares the interpreter's shutdown (freeing
    # every module and object), which takes longer than a small file's reading.
    os._exit(0)


if __name__ == "__main__":
    main()
