"""Reading files in worker processes: what a worker costs a file, what the app's event loop
sees while costly files are read, and how many files to read at once.

``python -m afterhack_tools.bench.sandbox`` prints three tables:

1. A small text file read ``--repeats`` times: in a thread of the app's process (how files
   were read before), by a worker started for it (cold), and by the spare worker started
   ahead (warm): the median milliseconds from the request to the document.
2. The three costly small files (afterhack_tools.costlyfiles), read with the counted budgets
   lifted so that only time and memory stop them: in a thread of the app's process, and in
   the sandbox. For each, the seconds to the answer, and the event loop's worst lag
   meanwhile: a coroutine asks to sleep 10 ms over and over, and each time it wakes late is
   time the loop could not answer a request such as /api/health.
3. ``--files`` reads of the 1 MB bench PDF (bench/filereading.py) sent at once, with 1, 2
   and 4 readers: seconds until the last answer, the median and slowest answer, the loop's
   worst lag, and how many were answered 503 (none: the line is long enough for them).

The machine's load moves every figure: run it on a quiet machine, or read the figures of one
run against each other.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from afterhack.errors import AfterhackError, ReadersBusy
from afterhack.files import ReadDocument, read_file
from afterhack.files.budget import Budget
from afterhack.runtime.sandbox import FileReaders, Limits
from afterhack_tools.bench.filereading import sample_files
from afterhack_tools.costlyfiles import content_stream_pdf, empty_paragraphs_docx, page_tree_pdf

COSTLY: dict[str, Callable[[], bytes]] = {
    "empty-paragraphs.docx": empty_paragraphs_docx,
    "page-tree.pdf": page_tree_pdf,
    "content-stream.pdf": content_stream_pdf,
}
NO_COUNT = Budget(pages=10**9, elements=10**9, paragraphs=10**9)
TICK_S = 0.01
# Long enough for a spare worker's imports on a busy machine: a warm worker is what is timed.
WARM_UP_S = 3.0


class LoopLag:
    """The longest a 10 ms sleep overslept while it ran: the loop's worst stall."""

    def __init__(self) -> None:
        self.worst_s = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK_S)
            self.worst_s = max(self.worst_s, time.perf_counter() - t0 - TICK_S)

    async def __aenter__(self) -> LoopLag:
        self._task = asyncio.ensure_future(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


def _limits(budget: Budget = NO_COUNT, cpu_s: int = 120) -> Limits:
    return Limits(cpu_s=cpu_s, wall_s=300.0, memory_bytes=1 << 30, budget=budget)


async def _in_thread(data: bytes, name: str, budget: Budget) -> ReadDocument:
    return await asyncio.to_thread(read_file, data, name, None, budget)


async def _timed(read: Awaitable[ReadDocument]) -> tuple[float, str]:
    t0 = time.perf_counter()
    try:
        await read
        outcome = "read"
    except AfterhackError as exc:
        outcome = f"{exc.status} {exc.details.get('budget', exc.code)}"
    return time.perf_counter() - t0, outcome


async def overhead(repeats: int) -> dict[str, float]:
    data = b"The depot opens at nine."
    thread = [(await _timed(_in_thread(data, "a.txt", Budget())))[0] for _ in range(repeats)]
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(repeats):
        readers = FileReaders(_limits(), readers=1, queue=0)
        cold.append((await _timed(readers.read(data, "a.txt", None)))[0])
        await readers.start_spare()
        await asyncio.sleep(WARM_UP_S)
        warm.append((await _timed(readers.read(data, "a.txt", None)))[0])
        await readers.aclose()
    return {"in a thread": statistics.median(thread) * 1000,
            "cold worker": statistics.median(cold) * 1000,
            "warm spare": statistics.median(warm) * 1000}


@dataclass(frozen=True)
class Costly:
    name: str
    where: str
    seconds: float
    outcome: str
    worst_lag_s: float


async def costly() -> list[Costly]:
    rows: list[Costly] = []
    for name, make in COSTLY.items():
        data = make()
        async with LoopLag() as lag:
            seconds, outcome = await _timed(_in_thread(data, name, NO_COUNT))
        rows.append(Costly(name, "thread", seconds, outcome, lag.worst_s))
        readers = FileReaders(_limits(), readers=1, queue=0)
        await readers.start_spare()
        await asyncio.sleep(WARM_UP_S)
        async with LoopLag() as lag:
            seconds, outcome = await _timed(readers.read(data, name, None))
        await readers.aclose()
        rows.append(Costly(name, "sandbox", seconds, outcome, lag.worst_s))
    return rows


@dataclass(frozen=True)
class PoolRun:
    readers: int
    total_s: float
    median_s: float
    slowest_s: float
    worst_lag_s: float
    busy: int


async def pool(files: int, sizes: tuple[int, ...]) -> list[PoolRun]:
    report = next(s for s in sample_files() if s.kind == "PDF")
    runs: list[PoolRun] = []
    for size in sizes:
        readers = FileReaders(_limits(Budget()), readers=size, queue=files)
        await readers.start_spare()
        await asyncio.sleep(WARM_UP_S)
        async with LoopLag() as lag:
            t0 = time.perf_counter()
            answers = await asyncio.gather(*(
                _timed(readers.read(report.data, "bench.pdf", None)) for _ in range(files)))
            total = time.perf_counter() - t0
        await readers.aclose()
        seconds = [s for s, _ in answers]
        runs.append(PoolRun(size, total, statistics.median(seconds), max(seconds),
                            lag.worst_s,
                            sum(o == f"503 {ReadersBusy.code}" for _, o in answers)))
    return runs


async def run(repeats: int, files: int) -> None:
    print(f"CPUs: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}\n")
    print("A small text file, median ms from request to document:")
    for where, ms in (await overhead(repeats)).items():
        print(f"  {where:<14}{ms:>9.1f}")
    print("\nThe costly small files, counted budgets lifted (CPU 120 s, memory 1 GiB):")
    print(f"  {'file':<24}{'read':<9}{'seconds':>9}  {'answer':<22}{'loop worst lag s':>17}")
    for c in await costly():
        print(f"  {c.name:<24}{c.where:<9}{c.seconds:>9.2f}  {c.outcome:<22}"
              f"{c.worst_lag_s:>17.3f}")
    print(f"\n{files} reads of the 1 MB bench PDF at once:")
    print(f"  {'readers':>7}{'total s':>9}{'median s':>10}{'slowest s':>11}"
          f"{'loop worst lag s':>18}{'503':>5}")
    for r in await pool(files, (1, 2, 4)):
        print(f"  {r.readers:>7}{r.total_s:>9.2f}{r.median_s:>10.2f}{r.slowest_s:>11.2f}"
              f"{r.worst_lag_s:>18.3f}{r.busy:>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--files", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(run(args.repeats, args.files))


if __name__ == "__main__":
    main()
