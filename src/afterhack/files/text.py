"""Plain text: UTF-8, with or without its byte order mark (or UTF-16 with its mark).

The text is kept as it was written; only line ends become ``\\n``. Bytes that are not valid
UTF-8 are refused rather than guessed at: a wrong guess would put words in a quote that the
file never held.
"""

from __future__ import annotations

import hashlib

from afterhack.errors import UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Place, ReadDocument
from afterhack.files.kinds import PLAIN

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode(data: bytes) -> str:
    if data.startswith(_UTF8_BOM):
        codec = "utf-8-sig"
    elif data.startswith(_UTF16_BOMS):
        codec = "utf-16"
    else:
        codec = "utf-8"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise UnreadableFile(
            f"The text is not valid UTF-8 (byte {exc.start} is not); save it as UTF-8 and "
            "send it again.") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(data: bytes, tally: Tally | None = None) -> ReadDocument:
    """Plain text has nothing to count: its length meets the source limit once read."""
    text = decode(data)
    if not text.strip():
        raise UnreadableFile("The file has no text to read.", media_type=PLAIN)
    return ReadDocument(
        media_type=PLAIN,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        text=text,
        places=(Place(0, len(text), None, None),),
    )
