"""A LangGraph store over the memory: ``AfterhackStore``.

What an agent puts is kept the afterhack way. Each (namespace, key) is one text source of
the workspace (origin ``langgraph``, its name the namespace and key as JSON), whose text is
the value written for reading (itemtext.py): its claims are read from it, each with an
exact quote, so they can be searched, disputed, corrected and traced like any other. A new
value is a new version of that source (the claims it no longer holds are retired, and what
rested on them is flagged); the same value again is ``unchanged``. ``put(..., index=False)``
keeps the value without reading claims from it.

``search`` with a query finds items by their claims (words and meaning, ranked by the
memory); a filter compares the values' fields (``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``,
``$lte``). ``delete`` erases the item's source: previewed, then applied, as any erasure is,
so its words leave every version, claim and quote, and what rested on its claims is
re-checked. The source stays as its erasure left it (each version's text a marker), which
reads as no item; a later ``put`` of the key is a new version of it.

Which source holds which item is read from the workspace's list of sources and remembered
(an item's source never changes); a key not known yet is looked for again, so items put by
another process are found. Install with ``pip install 'afterhack[langgraph]'``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("AfterhackStore needs LangGraph: pip install 'afterhack[langgraph]'"
                      ) from exc

from afterhack.client import DEFAULT_URL, Client, StaleCorrectionPreviewError
from afterhack.integrations.itemtext import item_text, item_value
from afterhack.model.sources import SourceRow

ORIGIN = "langgraph"
# Claims are ranked by the memory a page at a time; an item is as high as its best claim.
_SEARCH_PAGE = 100
_SEARCH_PAGES = 5
# An erasure previewed, then applied: another write between the two makes the preview stale,
# and it is previewed again, this many times at most.
_ERASE_TRIES = 3
DELETED = "deleted from a LangGraph store"

Path = tuple[str, ...]


def _when(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _origin_name(namespace: Path, key: str) -> str:
    return json.dumps([*namespace, key], ensure_ascii=False)


def _path(row: SourceRow) -> tuple[Path, str] | None:
    """The namespace and key a source of this store holds; None for any other source."""
    if row["origin_type"] != ORIGIN or row["origin_name"] is None:
        return None
    try:
        parts = json.loads(row["origin_name"])
    except ValueError:
        return None
    if not isinstance(parts, list) or len(parts) < 2 or not all(
            isinstance(p, str) for p in parts):
        return None
    return tuple(parts[:-1]), parts[-1]


_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _holds(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict) and wanted and all(k.startswith("$") for k in wanted):
        for op, operand in wanted.items():
            if op not in _OPS:
                raise ValueError(f"unknown filter operator {op!r}; use {', '.join(_OPS)}")
            try:
                if not _OPS[op](actual, operand):
                    return False
            except TypeError:  # values that do not compare (a number and a string)
                return False
        return True
    return bool(actual == wanted)


def matches(value: Mapping[str, Any], where: Mapping[str, Any] | None) -> bool:
    """Whether an item's value passes a search's filter: each field as given."""
    return all(_holds(value.get(k), w) for k, w in (where or {}).items())


def _fits(namespace: Path, condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" else \
        namespace[len(namespace) - len(path):]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))


class AfterhackStore(BaseStore):
    """A LangGraph ``BaseStore`` that keeps items as sources of a workspace.

        store = AfterhackStore(url="http://127.0.0.1:8000", workspace=ws)
        store.put(("memories", "ana"), "coffee", {"text": "Ana drinks her coffee black."})
        [hit] = store.search(("memories", "ana"), query="coffee")

    Every operation is synchronous underneath (``batch``); the async ones run it in a worker
    thread, so they never block the event loop.
    """

    supports_ttl = False

    def __init__(self, *, url: str = DEFAULT_URL, workspace: str,
                 api_key: str | None = None, timeout: float = 120.0) -> None:
        self.url = url
        self.workspace = workspace
        self._key = api_key
        self._timeout = timeout
        self._sources: dict[tuple[Path, str], SourceRow] = {}
        self._lock = threading.Lock()

    def _client(self) -> Client:
        return Client(self.url, key=self._key, workspace=self.workspace, timeout=self._timeout)

    # Which source holds which item

    def _refresh(self, c: Client) -> dict[tuple[Path, str], SourceRow]:
        found: dict[tuple[Path, str], SourceRow] = {}
        for row in c.items(c.list_sources, limit=1000):
            path = _path(row)
            if path is not None:
                found.setdefault(path, row)  # the oldest, were two ever made at once
        with self._lock:
            self._sources.update({p: r for p, r in found.items() if p not in self._sources})
            return dict(self._sources)

    def _source(self, c: Client, namespace: Path, key: str) -> SourceRow | None:
        with self._lock:
            row = self._sources.get((namespace, key))
        return row if row is not None else self._refresh(c).get((namespace, key))

    def source_id(self, namespace: tuple[str, ...], key: str) -> str | None:
        """The id of the source that keeps this item (to read its claims, correct one, or
        trace what rests on it), or None if nothing was put there."""
        with self._client() as c:
            row = self._source(c, tuple(namespace), key)
        return row["id"] if row is not None else None

    # Operations

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        with self._client() as c:
            return [self._run(c, op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, c: Client, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(c, tuple(op.namespace), op.key)
        if isinstance(op, PutOp):
            self._put(c, op)
            return None
        if isinstance(op, SearchOp):
            return self._search(c, op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(c, op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    def _item(self, c: Client, row: SourceRow
              ) -> tuple[dict[str, Any], datetime, datetime] | None:
        """The item's value, when it was first put and last changed; None once deleted
        (its latest text erased)."""
        latest = c.get_source(row["id"])["versions"][-1]
        try:
            value = item_value(latest["text"])
        except ValueError:
            return None
        return value, _when(row["created_at"]), _when(latest["created_at"])

    def _live(self, c: Client) -> dict[tuple[Path, str], SourceRow]:
        """Every item there is: the sources of this store but those deleted. Only a source
        an erasure reached is read to tell."""
        known = self._refresh(c)
        reached = {e["target"]["source_id"] for e in c.items(c.list_erasures, status="applied",
                                                             limit=1000)}
        return {p: r for p, r in known.items()
                if r["id"] not in reached or self._item(c, r) is not None}

    def _get(self, c: Client, namespace: Path, key: str) -> Item | None:
        row = self._source(c, namespace, key)
        read = None if row is None else self._item(c, row)
        if read is None:
            return None
        value, created, updated = read
        return Item(value=value, key=key, namespace=namespace, created_at=created,
                    updated_at=updated)

    def _put(self, c: Client, op: PutOp) -> None:
        namespace = tuple(op.namespace)
        if op.value is None:
            self._delete(c, namespace, op.key)
            return
        text = item_text(op.value)
        extract = op.index is not False
        row = self._source(c, namespace, op.key)
        if row is not None:
            c.add_source(text, source_id=row["id"], extract=extract)
            return
        added = c.add_source(text, title=" / ".join([*namespace, op.key])[:500],
                             origin_type=ORIGIN, origin_name=_origin_name(namespace, op.key),
                             extract=extract)
        if added["source"] is not None:
            with self._lock:
                self._sources.setdefault((namespace, op.key), added["source"])

    def _delete(self, c: Client, namespace: Path, key: str) -> None:
        row = self._source(c, namespace, key)
        if row is None or self._item(c, row) is None:
            return  # nothing there, or deleted already
        for tries in range(1, _ERASE_TRIES + 1):
            preview = c.preview_erasure(source_id=row["id"])
            try:
                c.apply_erasure(source_id=row["id"], impact_token=preview["impact_token"],
                                reason=DELETED)
                return
            except StaleCorrectionPreviewError:
                if tries == _ERASE_TRIES:
                    raise

    def _search(self, c: Client, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        known = {p: r for p, r in self._live(c).items() if p[0][:len(prefix)] == prefix}
        by_source = {r["id"]: p for p, r in known.items()}
        ranked: list[tuple[tuple[Path, str], float | None]] = []
        if op.query:
            seen: set[str] = set()
            cursor: str | None = None
            for _ in range(_SEARCH_PAGES):
                page = c.search_claims(op.query, limit=_SEARCH_PAGE, neighbours=False,
                                       cursor=cursor)
                for claim in page["items"]:
                    sid = claim["source_id"]
                    if sid in by_source and sid not in seen:
                        seen.add(sid)
                        found = claim.get("found_by")
                        distance = found["vector_distance"] if found else None
                        ranked.append((by_source[sid],
                                       None if distance is None else 1.0 - distance))
                cursor = page["next_cursor"]
                if cursor is None or (len(ranked) >= op.offset + op.limit and not op.filter):
                    break
        else:
            ranked = [(p, None) for p in sorted(known, key=lambda p: known[p]["created_at"])]
        out: list[SearchItem] = []
        skipped = 0
        for (namespace, key), score in ranked:
            read = self._item(c, known[(namespace, key)])
            if read is None:  # deleted since it was listed
                continue
            value, created, updated = read
            if not matches(value, op.filter):
                continue
            if skipped < op.offset:
                skipped += 1
                continue
            out.append(SearchItem(namespace=namespace, key=key, value=value,
                                  created_at=created, updated_at=updated, score=score))
            if len(out) >= op.limit:
                break
        return out

    def _namespaces(self, c: Client, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = {ns for ns, _ in self._live(c)}
        if op.match_conditions:
            spaces = {ns for ns in spaces if all(_fits(ns, m) for m in op.match_conditions)}
        if op.max_depth is not None:
            spaces = {ns[:op.max_depth] for ns in spaces}
        return sorted(spaces)[op.offset:op.offset + op.limit]


__all__ = ["DELETED", "ORIGIN", "AfterhackStore", "matches"]
