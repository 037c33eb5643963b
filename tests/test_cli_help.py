"""`afterhack --help` and a command's help read as prose at any terminal width: a line breaks
where the next word would not fit, never where the help's source happened to break it."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import pairwise

import pytest

from afterhack.cli.main import prose

BOX = "│"


def _help(*args: str, columns: int) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run([sys.executable, "-m", "afterhack.cli", *args, "--help"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _prose_lines(out: str) -> list[str]:
    """The lines of the help's paragraphs and of its Commands box, each without the box's
    borders (the options' boxes are laid out by the library: metadata on lines of its own)."""
    lines: list[str] = []
    in_commands = False
    for line in out.splitlines():
        if line.startswith("╭"):
            in_commands = "Commands" in line
            lines.append("")
        elif line.startswith("╰"):
            in_commands = False
            lines.append("")
        elif line.startswith(BOX):
            # A command's name starts the line; its description goes on further in.
            lines.append(line.strip(BOX)[1:] if in_commands else "")
        else:
            lines.append(line)
    return lines


def _early_breaks(out: str) -> list[str]:
    """Each line that ends although the next line's first word would have fit on it."""
    lines = _prose_lines(out)
    bad: list[str] = []
    for a, b in pairwise(lines):
        if not a.strip() or not b.strip():
            continue
        start = len(b) - len(b.lstrip())
        # b goes on with a's text when it starts at the column a's text (after its name, in
        # the Commands box) starts at.
        if start == 0 or start >= len(a) or a[start - 1] != " " or a[start] == " ":
            continue
        room = len(a) - 1  # rich pads each line to the width, leaving a space at its end
        if len(a.rstrip()) + 1 + len(b.split()[0]) <= room:
            bad.append(f"{a.rstrip()!r} / {b.strip()!r}")
    return bad


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("command", [(), ("ingest",), ("claims",), ("conflicts",), ("forget",),
                                     ("forget", "requests")])
def test_help_wraps_at_the_terminal_width(columns: int, command: tuple[str, ...]) -> None:
    out = _help(*command, columns=columns)
    assert all(len(line) <= columns for line in out.splitlines()), out
    assert _early_breaks(out) == [], out


def test_the_statuses_read_as_one_paragraph() -> None:
    out = _help(columns=120)
    assert "Statuses you will see: a claim is proposed (extracted, current), accepted (a " \
           "reviewer's word, current)" in out, out


def test_prose_keeps_paragraphs_and_drops_the_source_line_breaks() -> None:
    assert prose("""First line
        goes on.

        Second   paragraph
        here.""") == "First line goes on.\n\nSecond paragraph here."
