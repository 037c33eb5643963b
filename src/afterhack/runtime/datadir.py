"""The embedded FalkorDB's data dir, looked at after a rewrite: no file may be left that
holds data from before it.

After ``BGREWRITEAOF`` the append-only directory holds its manifest and the files it lists
(one base, one increment); Redis unlinks the files it replaced before it reports the
rewrite done (docs/falkordb.md, "Rewriting the files"): that is checked here, never helped
along, since a file not listed yet may be one Redis is about to rename into place. What
else could hold old data is removed: an RDB snapshot (the embedded server saves none and
loads only its append-only file, so a ``dump.rdb`` is a copy nothing reads), and the
temporary file of a rewrite or a save whose process is gone (a child killed half-way
leaves its file). FalkorDB's log keeps no data, except a crash report, which names the
query that was running: that line is cut down to the command's name.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

from afterhack.runtime.embedded import QUERY_LEFT_OUT, QUERY_LINE, pid_alive

AOF_DIR = "appendonlydir"
MANIFEST = "appendonly.aof.manifest"
LOG = "falkordb.log"
# temp-<pid>.rdb, temp-rewriteaof-bg-<pid>.aof, temp-<time>.<pid>.rdb (a replica's sync).
_TEMP = re.compile(r"^temp-(?:rewriteaof-(?:bg-)?)?(?:\d+\.)?(\d+)\.(?:rdb|aof)$")


def listed(aof_dir: Path) -> set[str]:
    """The files the manifest lists as the current base and increments."""
    try:
        text = (aof_dir / MANIFEST).read_text()
    except OSError:
        return set()
    out = set()
    for line in text.splitlines():
        words = line.split()
        fields = dict(zip(words[::2], words[1::2], strict=False))
        if "file" in fields and fields.get("type") in ("b", "i"):
            out.add(fields["file"])
    return out


class NotSettled(RuntimeError):
    """The append-only directory still holds a file its manifest does not list."""


def unlisted(data_dir: Path) -> list[Path]:
    """Files of the append-only directory that its manifest does not list: replaced ones
    that Redis has not unlinked."""
    aof_dir = data_dir / AOF_DIR
    keep = listed(aof_dir) | {MANIFEST}
    try:
        return [p for p in sorted(aof_dir.iterdir()) if p.name not in keep]
    except OSError:
        return []


def strays(data_dir: Path) -> list[Path]:
    """Copies of the data nothing will read: an RDB snapshot, and the temporary file of a
    rewrite or a save whose process is gone."""
    found = []
    for p in sorted(data_dir.iterdir()):
        m = _TEMP.match(p.name)
        if (m is None and p.suffix == ".rdb") or (m is not None and not pid_alive(int(m[1]))):
            found.append(p)
    return found


def settle(data_dir: Path, *, wait_s: float = 5.0, poll_s: float = 0.02) -> list[str]:
    """After a rewrite: wait until the append-only directory holds only what its manifest
    lists (NotSettled after ``wait_s``; a file Redis may still rename into place is never
    removed here), then remove the strays; returns the names removed."""
    deadline = time.monotonic() + wait_s
    while left := unlisted(data_dir):
        if time.monotonic() > deadline:
            raise NotSettled(f"{[str(p) for p in left]} still there after a rewrite")
        time.sleep(poll_s)
    removed = []
    for p in strays(data_dir):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
            removed.append(p.name)
    redact_log(data_dir / LOG)
    return removed


def redact_log(path: Path) -> bool:
    """Cut the query of a crash report's ``graph_command`` line down to the command's name;
    the log is written anew and renamed over the old one (the server opens it by name for
    each line it writes). Returns whether there was anything to cut."""
    try:
        text = path.read_text(errors="surrogateescape")
    except OSError:
        return False
    redacted, n = QUERY_LINE.subn(QUERY_LEFT_OUT, text)
    if not n or redacted == text:
        return False
    tmp = path.with_name(path.name + ".redacting")
    tmp.write_text(redacted, errors="surrogateescape")
    os.replace(tmp, path)
    return True
