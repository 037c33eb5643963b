"""What an erasure asks of the disk (docs/rules.md, rule 22): that FalkorDB's files be
rewritten, so the words the graph no longer holds leave its append-only file and snapshots
on every node too, and that the Erasure records then say ``disk: "clean"``.

An apply asks with ``request()`` once its write is acknowledged (it never waits for the
rewrite unless the caller asked to, ``?wait=disk``: ``wait``). The service that does the
rewrite is the disk scrubber (runtime/scrub.py), which every app that ``open_services``
starts runs; ``NoDiskScrub`` stands in with the same calls where none runs (services built
on their own, as tests build them), and does nothing, so records stay ``pending``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ScrubTicket:
    """A request for a rewrite: served by a rewrite that starts after it was taken."""

    seq: int


class DiskScrub(Protocol):
    def request(self) -> ScrubTicket:
        """Ask for a rewrite (never blocks; requests that arrive together share one)."""
        ...

    async def wait(self, ticket: ScrubTicket, timeout_s: float) -> object:
        """Return once a rewrite that started after ``ticket`` was taken has finished on
        every node, or after ``timeout_s``."""
        ...


class NoDiskScrub:
    """Stands in for the disk scrubber: takes requests, rewrites nothing."""

    def __init__(self) -> None:
        self._seq = 0

    def request(self) -> ScrubTicket:
        self._seq += 1
        return ScrubTicket(self._seq)

    async def wait(self, ticket: ScrubTicket, timeout_s: float) -> bool:
        return False
