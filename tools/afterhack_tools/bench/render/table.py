"""Markdown tables and the cells every section writes: a latency with its ratios, a size's
name."""

from __future__ import annotations

from afterhack_tools.bench.records import Spread


def label(n: int) -> str:
    """A size's name: 1000 claims is "1k"."""
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def row(name: str, cells: list[str]) -> str:
    return "| " + " | ".join([name, *cells]) + " |"


def table(head: list[str], rows: list[str]) -> list[str]:
    """The table's lines and a blank line after it."""
    return [row(head[0], head[1:]), "|" + "---|" * len(head), *rows, ""]


def lat(s: Spread, r: dict[str, float]) -> str:
    """p50 / p95, and in brackets the p50 over the tight and the interleaved floor."""
    return f"{s['p50']:.2f} / {s['p95']:.2f} ms ({r['tight']}x \\| {r['interleaved']}x)"


def ms(s: Spread) -> str:
    return f"{s['p50']:.3f} / {s['p95']:.3f} ms"


def pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value}%"


def size_head(claims: list[int]) -> list[str]:
    """The head of a table with a column per size."""
    return ["figure", *(f"{label(n)} claims" for n in claims)]
