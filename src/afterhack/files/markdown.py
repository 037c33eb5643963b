"""Markdown to text: the words a reader of the rendered page sees, none of the syntax.

Parsed by markdown-it-py (CommonMark, with tables and strikethrough). Each heading, paragraph,
list item, table row and code block is one block; emphasis, link and image syntax go and
their words stay (a link's text, an image's alt text), a soft line break is a space so a
sentence wrapped over lines reads whole, a code block keeps its lines without its fences.
Raw HTML blocks are read as HTML. A YAML front matter block is not text and is skipped.

Lists and quotes are read up to 100 levels deep; markdown-it skips what is nested deeper
(and the text after it in the same list), so such a file is refused rather than read in part.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from afterhack.errors import UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Blocks, ReadDocument
from afterhack.files.html import walk_html
from afterhack.files.kinds import MARKDOWN
from afterhack.files.text import decode

# How deep lists and quotes nest before markdown-it stops reading them (CommonMark's preset
# says 20, which a list nested nine levels deep reaches); each level is a few Python frames.
MAX_NESTING = 100
_TOO_DEEP = "nested_too_deep"


class _Block(ParserBlock):
    """markdown-it's block parser, noting when it skips lines nested past the limit (it
    skips them without a word: see the check at the top of ParserBlock.tokenize)."""

    def tokenize(self, state: StateBlock, startLine: int, endLine: int) -> None:
        if state.level >= state.md.options.maxNesting:
            line = state.skipEmptyLines(startLine)
            if line < endLine and state.sCount[line] >= state.blkIndent:
                state.env[_TOO_DEEP] = True
        super().tokenize(state, startLine, endLine)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable(
        ["table", "strikethrough"])
    block = _Block()
    block.ruler = md.block.ruler  # the rules the preset and enable() chose
    md.block = block
    return md


_PARSER = _parser()
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_TASK_BOX = re.compile(r"\A\[[ xX]\]\s+")
_LINE_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_CELL_SEPARATOR = " | "


def read_markdown(data: bytes, tally: Tally) -> ReadDocument:
    source = _FRONT_MATTER.sub("", decode(data), count=1)
    blocks = Blocks(tally)
    section: str | None = None
    cells: list[str] = []
    env: dict[str, bool] = {}
    tokens = _PARSER.parse(source, env)
    if env.get(_TOO_DEEP):
        raise UnreadableFile(
            f"This Markdown nests its lists or quotes deeper than the {MAX_NESTING} levels "
            "that are read (a list item counts two); what is nested deeper would be lost, so "
            "the file is not read. Flatten the nesting and send it again.",
            media_type=MARKDOWN, limit=MAX_NESTING)
    tally.add("elements", len(tokens) + sum(len(t.children or ()) for t in tokens))
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
            section = walk_html(token.content, blocks, tally, section)
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
