"""What commands FalkorDB received, as its MONITOR feed shows them: a test that counts the
queries a request sends."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import redis

from tests.support.timing import until


@contextmanager
def received(url: str) -> Iterator[list[str]]:
    """The commands the server receives inside the block, each as MONITOR writes it (name
    first, then its arguments). Each end is marked by a command of this helper's own and
    waited for, so nothing sent inside is missed and nothing after is counted."""
    seen: list[str] = []
    start, end = f"afterhack-start-{uuid.uuid4().hex}", f"afterhack-end-{uuid.uuid4().hex}"
    feed = redis.Redis.from_url(url)
    marker = redis.Redis.from_url(url)
    lock = threading.Lock()
    ended = threading.Event()

    def watch() -> None:
        with feed.monitor() as m:  # type: ignore[no-untyped-call]
            for cmd in m.listen():
                text = str(cmd["command"])
                with lock:
                    seen.append(text)
                if end in text:
                    ended.set()
                    return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()

    def started() -> bool:
        marker.echo(start)
        with lock:
            return any(start in c for c in seen)

    inside: list[str] = []
    try:
        until(started, timeout_s=60, what="the monitor feed started", every_s=0.05)
        with lock:
            seen.clear()
        yield inside
    finally:
        marker.echo(end)
        ended.wait(timeout=60)
        watcher.join(timeout=60)
        marker.close()
        feed.close()
    assert ended.is_set(), "the monitor feed never reached the end marker"
    with lock:
        inside += [c for c in seen if end not in c and start not in c]
