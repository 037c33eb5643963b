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
    """The data dir still holds a file that may hold data from before the rewrite, and
    that cannot be removed yet."""


def unlisted(data_dir: Path) -> list[Path]:
    """Files of the append-only directory that its manifest does not list: replaced ones
    that Redis has not unlinked."""
    aof_dir = data_dir / AOF_DIR
    keep = listed(aof_dir) | {MANIFEST}
    try:
        return [p for p in sorted(aof_dir.iterdir()) if p.name not in keep]
    except OSError:
        return []


def _parent(pid: int) -> int | None:
    try:
        # The field after the parenthesised name (which may hold spaces) is the state,
        # then the parent's pid.
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def strays(data_dir: Path, server_pid: int | None) -> tuple[list[Path], list[Path]]:
    """Copies of the data nothing will read, and those still being written by a process
    that is not the server's child: the temporary file of a rewrite or a save whose server
    was killed goes on being written by its orphaned child, from data as it was at its
    fork, until the child ends. The first can go now; the second once its writer is gone.
    A file the running server's own child writes is left alone (it forked after the
    rewrite that was waited for)."""
    gone, orphaned = [], []
    for p in sorted(data_dir.iterdir()):
        m = _TEMP.match(p.name)
        if m is None:
            if p.suffix == ".rdb":
                gone.append(p)
            continue
        pid = int(m[1])
        if not pid_alive(pid):
            gone.append(p)
        elif server_pid is None or _parent(pid) != server_pid:
            orphaned.append(p)
    return gone, orphaned


def settle(data_dir: Path, *, server_pid: int | None, wait_s: float = 10.0,
           poll_s: float = 0.02) -> list[str]:
    """After a rewrite: wait until the append-only directory holds only what its manifest
    lists (a file Redis may still rename into place is never removed here) and no orphaned
    child is still writing, then remove the strays; returns the names removed. NotSettled
    after ``wait_s`` (the rewrite is tried again later)."""
    deadline = time.monotonic() + wait_s
    while True:
        left = unlisted(data_dir)
        gone, orphaned = strays(data_dir, server_pid)
        if not left and not orphaned:
            break
        if time.monotonic() > deadline:
            raise NotSettled(f"{[str(p) for p in left + orphaned]} still there after a "
                             "rewrite")
        time.sleep(poll_s)
    removed = []
    for p in gone:
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
