"""Where a string is written on disk: every byte of every file under a directory, read
whole, searched for the string's UTF-8 and UTF-16-LE encodings (the second is not what
FalkorDB writes, so a hit there would mean something else wrote the data).

A search of bytes sees a string only as written. Redis compresses the strings of an RDB
file (an append-only file's base, a ``dump.rdb``) with LZF unless ``rdbcompression`` is
off, and FalkorDB's graphs compressed so hide every word of them; a test that scans a
server's files turns compression off first (``CONFIG SET rdbcompression no``) and shows the
scan finds its string before it is erased."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Hit:
    path: Path
    encoding: str
    offset: int

    def __str__(self) -> str:
        return f"{self.path} ({self.encoding}, at byte {self.offset})"


def scan(root: Path, secret: str) -> list[Hit]:
    """Every file under ``root`` (symlinks not followed) that holds ``secret``."""
    needles = [("utf-8", secret.encode("utf-8")), ("utf-16-le", secret.encode("utf-16-le"))]
    hits = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            path = Path(folder) / name
            try:
                data = path.read_bytes()
            except OSError:
                continue  # a socket, or a file unlinked while walking
            for encoding, needle in needles:
                at = data.find(needle)
                if at != -1:
                    hits.append(Hit(path, encoding, at))
    return hits


def files(root: Path) -> list[Path]:
    """Every regular file under ``root``: what a scan reads (to show it read something)."""
    return sorted(Path(folder) / name for folder, _, names in os.walk(root) for name in names
                  if (Path(folder) / name).is_file())
