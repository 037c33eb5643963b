from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, File, Form, Query, Request, Response, UploadFile
from pydantic import TypeAdapter

from afterhack.api.deps import Cursor, WorkspaceDep
from afterhack.api.disconnect import ClientGone, until_gone
from afterhack.api.security import allow
from afterhack.memory.conversations import Conversation, Message, received
from afterhack.memory.files import Upload
from afterhack.memory.ingest import Document
from afterhack.model.pages import SourceList
from afterhack.model.sources import (
    IngestResult,
    NewVersion,
    SameVersion,
    SourcePreview,
    SourceView,
)
from afterhack.records.clock import now_ms
from afterhack.temporal.moments import parse_time
from afterhack.wire.errors import ErrorBody
from afterhack.wire.inputs import MessageIn, MessagesAppend, SourceCreate, clean

router = APIRouter(tags=["sources"])

# An ingest's answer lists every claim it kept, so it is encoded once by the schema its
# status names rather than validated again against the union (see encode_ingest).
_NEW = TypeAdapter(NewVersion)
_SAME = TypeAdapter(SameVersion)
_PREVIEW = TypeAdapter(SourcePreview)


def encode_ingest(result: IngestResult) -> bytes:
    """``result`` as JSON, by the one member of IngestResult its status names."""
    if result["status"] == "preview":
        return _PREVIEW.dump_json(result)
    if result["status"] == "unchanged" or result["status"] == "extracted":
        return _SAME.dump_json(result)
    return _NEW.dump_json(result)


@router.post("/workspaces/{ws}/sources", status_code=201, response_model=IngestResult,
             dependencies=[allow("add_source")],
             responses={200: {"model": SameVersion | SourcePreview,
                              "description": "A new version equal to the latest "
                                             "(unchanged), or a preview (nothing written)."}})
async def add_source(body: SourceCreate, ws: WorkspaceDep) -> Response:
    """A document (``text``), or a conversation (``messages``: rule 11)."""
    result: IngestResult
    if body.messages is not None:
        result = await ws.add_messages(
            _messages(body.messages),
            Conversation(title=body.title, origin_type=body.origin_type or "conversation",
                         origin_name=body.origin_name),
            extract=body.extract, preview=body.preview)
    else:
        assert body.text is not None
        result = await ws.add_text(
            Document(text=body.text, title=body.title,
                     origin_type=body.origin_type or "document", origin_name=body.origin_name),
            source_id=body.source_id, extract=body.extract, preview=body.preview)
    return _answer(result)


def _answer(result: IngestResult) -> Response:
    status = 200 if result["status"] in ("unchanged", "preview") else 201
    return Response(encode_ingest(result), status_code=status, media_type="application/json")


def _messages(given: list[MessageIn]) -> list[Message]:
    """The messages with their times: as given, or when they were received (now)."""
    now = now_ms()
    return [Message(speaker=m.speaker, text=m.text, at=received(parse_time(m.at, "at"), now))
            for m in given]


@router.post("/workspaces/{ws}/sources/{source_id}/messages", status_code=201,
             response_model=IngestResult, dependencies=[allow("add_source")],
             responses={200: {"model": SourcePreview,
                              "description": "A preview (nothing written)."}})
async def append_messages(source_id: str, body: MessagesAppend, ws: WorkspaceDep) -> Response:
    """Messages appended to a conversation: a new version of them alone; only they are
    read. ``source`` in the answer holds that version (GET the source for all of them)."""
    result = await ws.add_messages(_messages(body.messages), Conversation(source_id=source_id),
                                   extract=body.extract, preview=body.preview)
    return _answer(result)


@router.post("/workspaces/{ws}/sources/files", status_code=201, response_model=IngestResult,
             dependencies=[allow("add_source")],
             responses={200: {"model": SameVersion,
                              "description": "A new version whose text equals the latest "
                                             "(unchanged)."},
                        413: {"model": ErrorBody,
                              "description": "file_over_budget: more pages, elements or "
                                             "paragraphs than a file may have, or more CPU "
                                             "time, wall time or memory to read it "
                                             "(details: budget, limit); payload_too_large: "
                                             "over the upload or source limit."},
                        415: {"model": ErrorBody,
                              "description": "unsupported_media_type: a kind of file that "
                                             "is not read (its bytes decide)."},
                        503: {"model": ErrorBody,
                              "description": "file_readers_busy: every file reader is busy "
                                             "and the line is full (see Retry-After); or "
                                             "the graph store is unavailable."}})
async def add_file(
    request: Request, ws: WorkspaceDep,
    file: Annotated[UploadFile, File(description="Plain text, Markdown, HTML, PDF or DOCX.")],
    title: Annotated[str | None, Form(min_length=1, max_length=500)] = None,
    source_id: Annotated[str | None, Form(min_length=1, max_length=64)] = None,
    extract: Annotated[bool, Form()] = True,
) -> Response:
    """A file read to text (rule 11): its original is kept (media type, size, hash) and each
    fragment knows its page or heading. ``source_id`` makes it a new version of that
    source (``unchanged`` when the text read is the latest version's)."""
    for name, value in (("title", title), ("source_id", source_id),
                        ("file.filename", file.filename)):
        if value is not None:
            clean(name, value)
    try:
        result = await ws.add_file(Upload(await file.read(), file.filename, file.content_type),
                                   title=title, source_id=source_id, extract=extract,
                                   read=until_gone(request, ws.parts.read_file))
    except ClientGone:
        # Its reader was stopped; nobody is left to read an answer.
        return Response(status_code=499)
    return _answer(result)


@router.get("/workspaces/{ws}/sources/{source_id}/versions/{version_id}/file",
            dependencies=[allow("read")], response_class=Response,
            responses={200: {"content": {"application/octet-stream": {}},
                             "description": "The original file, as it was sent."}})
async def get_file(source_id: str, version_id: str, ws: WorkspaceDep) -> Response:
    """The original a file source's version was read from, byte for byte."""
    data, media_type, name = await ws.original_file(source_id, version_id)
    headers = {"Content-Disposition": "attachment; filename*=UTF-8''"
                                      + quote(name or "file", safe="")}
    return Response(data, media_type=media_type, headers=headers)


@router.get("/workspaces/{ws}/sources", dependencies=[allow("read")])
async def list_sources(
    ws: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    cursor: Cursor = None,
) -> SourceList:
    return await ws.sources(limit, offset, cursor)


@router.get("/workspaces/{ws}/sources/{source_id}", dependencies=[allow("read")])
async def get_source(source_id: str, ws: WorkspaceDep) -> SourceView:
    return await ws.source(source_id)


@router.post("/workspaces/{ws}/sources/{source_id}/extract",
             dependencies=[allow("add_source")])
async def extract_source(source_id: str, ws: WorkspaceDep) -> SameVersion:
    return await ws.extract_pending(source_id)
