"""Files are sources too (docs/rules.md, rule 11): a file is read to text, its original is
kept with its media type, size and hash, and each fragment knows its page or heading.

A source is what the caller says it is: a file becomes a new version of a source only when
the caller names that source (``source_id``). Otherwise it is a new source, whatever its
name, unless its very bytes are already the latest version of a file source: then that
source is answered ``unchanged`` and nothing is read or written.

Reading is CPU work on bytes nobody vouches for: it is the process's file readers' (the
scope's ``read_file``: each file in a worker process within limits of time and memory,
runtime/sandbox.py), or a caller's own (a request's, stopped when its client goes away). A
file that is refused (a kind that is not read, one that cannot be, one over a budget) raises
before anything is written; a text over the source limit gets the same 413 as pasted text.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath

from afterhack.errors import FileNotFound
from afterhack.memory.extraction import Extraction, extraction_outcome
from afterhack.memory.ingest import Document, add_document, check_length, no_checks
from afterhack.memory.scope import ReadFile, Scope
from afterhack.model.sources import IngestResult
from afterhack.store import sources as store_sources
from afterhack.store.client import Graph
from afterhack.store.source_params import FileFields


def base_name(filename: str | None) -> str | None:
    """A file's name without the folders a client may have sent with it."""
    if not filename:
        return None
    name = PureWindowsPath(PurePosixPath(filename).name).name.strip()
    return name or None


# As long as a source's title (or origin name) may be when it is given (wire/inputs.py).
NAME_MAX = 500


def cut(name: str) -> str:
    """``name`` within NAME_MAX code points: cut at the limit, with an ellipsis."""
    return name if len(name) <= NAME_MAX else name[: NAME_MAX - 1].rstrip() + "…"


def title_of(filename: str | None) -> str | None:
    """A title from a file's name: the name without its last extension, cut to NAME_MAX."""
    if filename is None:
        return None
    stem = PurePosixPath(filename).stem
    return cut(stem or filename)


@dataclass(frozen=True)
class Upload:
    """A file as it was sent: its bytes, the name and the media type the client gave."""

    data: bytes
    filename: str | None = None
    declared_type: str | None = None


async def add_file(ws: Scope, upload: Upload, *, title: str | None = None,
                   source_id: str | None = None, extract: bool = True,
                   read: ReadFile | None = None) -> IngestResult:
    """A source read from a file (or, with ``source_id``, a new version of one: unchanged
    when the text read is the latest version's). Without ``source_id``, the same bytes as
    a file source's latest version are that source, unchanged. ``read``: how to read it,
    when not by the process's file readers."""
    name = base_name(upload.filename)
    file_hash = "sha256:" + hashlib.sha256(upload.data).hexdigest()
    if source_id is None:
        same = await store_sources.find_file_source(ws.graph, file_hash)
        if same is not None:
            return {"status": "unchanged",
                    "source": await store_sources.get_source(ws.graph, same),
                    **extraction_outcome(Extraction(), [], []), **no_checks()}
    doc = await (read or ws.parts.read_file)(upload.data, name, upload.declared_type)
    check_length(ws.settings, doc.text)
    kept: FileFields = {
        "media_type": doc.media_type, "file_size": doc.size, "file_hash": file_hash,
        "file_name": name, "file_data": base64.b64encode(upload.data).decode("ascii")}
    return await add_document(
        ws, Document(text=doc.text, title=title or title_of(name),
                     origin_name=None if name is None else cut(name), kind="file",
                     places=doc.places, file=kept),
        source_id=source_id, extract=extract)


async def original(g: Graph, source_id: str,
                   version_id: str) -> tuple[bytes, str, str | None]:
    """The bytes a version was read from, their media type and the file's name."""
    found = await store_sources.version_file(g, source_id, version_id)
    if found is None:
        raise FileNotFound(version_id, "No version of this source with that id holds a file.")
    data = base64.b64decode(found["file_data"])
    return data, found["media_type"], found["file_name"]
