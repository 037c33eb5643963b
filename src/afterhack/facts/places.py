"""When two names are one: the same city in two languages or spellings, a Chinese name and
its pinyin.

"Cologne" and "Köln", "Beijing", "Peking" and "北京" name one city: the larger cities' names
in Latin and Han script come from GeoNames (data/places.tsv, written by
``python -m afterhack_tools.gazetteer``). A Chinese name is also compared by its pinyin
(pypinyin, its tables in the wheel), so "刘洋" is "Liu Yang" and "深圳" is "Shenzhen".
Names are compared folded, without spaces, hyphens or apostrophes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

_DATA = Path(__file__).resolve().parent / "data" / "places.tsv"
_JUNK = re.compile(r"[\s'’.\-]+")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def key(name: str) -> str:
    """A name folded: case, width, spaces and hyphens aside ("New York" = "new-york")."""
    return _JUNK.sub("", unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=1)
def _places() -> dict[str, frozenset[int]]:
    """Each spelling of a city's name, folded, to the cities it names."""
    out: dict[str, set[int]] = {}
    for line in _DATA.read_text(encoding="utf-8").splitlines():
        ident, _, names = line.partition("\t")
        for n in names.split("|"):
            out.setdefault(key(n), set()).add(int(ident))
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=16384)
def _pinyin(name: str) -> str:
    from pypinyin import lazy_pinyin

    return "".join(lazy_pinyin(name))


@lru_cache(maxsize=65536)
def same_name(a: str, b: str) -> bool:
    """Whether two names name one place or person by their spelling in another language."""
    ka, kb = key(a), key(b)
    if not ka or not kb:
        return False
    if ka == kb:
        return True
    places = _places()
    if not places.get(ka, frozenset()).isdisjoint(places.get(kb, frozenset())):
        return True
    han_a, han_b = _HAN.search(a) is not None, _HAN.search(b) is not None
    if han_a != han_b:
        han, latin = (ka, kb) if han_a else (kb, ka)
        return _pinyin(han) == latin
    return False
