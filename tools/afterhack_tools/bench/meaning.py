"""The offline detector's meaning for labelled pairs, as the app's judge has it.

The app's offline judge embeds the words two statements do not share with the offline model
before it judges them (llm/meaning.py); the labelled sets are scored the same way: every
text the pairs may compare is embedded once, by that model, and the detector reads the
vectors from memory. Where the model cannot load, figures are by words alone and say so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from afterhack import facts
from afterhack.llm.embeddings import OfflineEmbedder
from afterhack.llm.meaning import word_meaning


def for_pairs(pairs: Iterable[tuple[str, str]]) -> facts.Meaning | None:
    """Meaning for these pairs of statements, or None when the offline model is not here."""
    wm = word_meaning(OfflineEmbedder())
    if wm is None:
        return None
    texts = [t for a, b in pairs for t in facts.meaning_texts(facts.read(a), facts.read(b))]
    # A thread of its own: the bench calls this from inside its event loop.
    with ThreadPoolExecutor(max_workers=1) as pool:
        known, calls = pool.submit(asyncio.run, wm.known(texts)).result()
    if any(not c.ok for c in calls):
        return None
    return known
