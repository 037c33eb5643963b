"""Markdown to text: the words a reader of the rendered page sees, none of the syntax.

Parsed by markdown-it-py (CommonMark, with tables and strikethrough). Each heading, paragraph,
list item, table row and code block is one block; emphasis, link and image syntax go and
their words stay (a link's text, an image's alt text), a soft line break is a space so a
sentence wrapped over lines reads whole, a code block keeps its lines without its fences.
Raw HTML blocks are read as HTML. A YAML front matter block is not text and is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token

from afterhack.files.document import Blocks, ReadDocument
from afterhack.files.html import walk_html
from afterhack.files.kinds import MARKDOWN
from afterhack.files.text import decode

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_TASK_BOX = re.compile(r"\A\[[ xX]\]\s+")
_LINE_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_CELL_SEPARATOR = " | "


def read_markdown(data: bytes) -> ReadDocument:
    source = _FRONT_MATTER.sub("", decode(data), count=1)
    blocks = Blocks()
    section: str | None = None
    cells: list[str] = []
    tokens = _PARSER.parse(source)
    for i, token in enumerate(tokens):
        kind = token.type
        if kind == "inline":
            text = _inline(token.children or ())
            opener = tokens[i - 1].type
            if opener == "heading_open":
                section = text or section
                blocks.add(text, section=section)
            elif opener in ("th_open", "td_open"):
                cells.append(text)
            else:
                if i >= 2 and tokens[i - 2].type == "list_item_open":
                    text = _TASK_BOX.sub("", text)
                blocks.add(text, section=section)
        elif kind == "tr_close":
            blocks.add(_CELL_SEPARATOR.join(c for c in cells if c), section=section)
            cells = []
        elif kind in ("fence", "code_block"):
            blocks.add(token.content, section=section)
        elif kind == "html_block":
            section = walk_html(token.content, blocks, section)
    return blocks.document(MARKDOWN, data)


def _inline(children: Sequence[Token]) -> str:
    out: list[str] = []
    for child in children:
        kind = child.type
        if kind in ("text", "code_inline"):
            out.append(child.content)
        elif kind == "softbreak":
            out.append(" ")
        elif kind == "hardbreak":
            out.append("\n")
        elif kind == "image":
            out.append(_inline(child.children or ()))
        elif kind == "html_inline" and _LINE_BREAK_TAG.fullmatch(child.content):
            out.append("\n")
        # Everything else is markup: emphasis, links and inline tags open and close.
    return "".join(out).strip()
