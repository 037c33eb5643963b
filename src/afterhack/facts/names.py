"""Names as values: places, people and organisations.

A capitalised name is a value when it answers where or who: after a preposition of place
("in Lisbon", "at the Grand Hotel"), after an agent's preposition ("by Omar Haddad"), with
a title ("Dr. Anna Schmidt"), with a company's suffix ("Northwind Foods Ltd", "Müller Bau
GmbH"), or as a run of capitalised words ("Priya Nair chairs ..."). German capitalises
every noun, so there a run needs no article in front; Chinese names a place where
something is held (在上海举行) and a company by its suffix (华为公司).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from afterhack.facts import chinese, lexicon, months
from afterhack.facts.values import Scanner, ValueKind, fold

_UP = "A-ZÀ-ÖØ-Þ"
_LOW = "a-zß-öø-ÿ"
_TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "Sir", "Dame", "Herr", "Frau")
# These open a sentence or a phrase; they never start a name. (Dropped after a match: a
# pattern that opens on a capital letter is found fast, one that opens on a look-ahead not.)
_NOT_NAME = frozenset("""
The A An Our Their This That These Those Each Every Its We It There Der Die Das Den Dem Des
Ein Eine Einen Im Am Es Unser Unsere Laut Für Mit Bei Nach Von Zum Zur Ich Mein Meine Meinen
Meinem Meiner Dein Deine Sein Seine Ihr Ihre
""".split())
_NAME_TOKEN = (rf"[{_UP}](?:[{_LOW}]+(?:['’][{_LOW}]+)?(?:-[{_UP}][{_LOW}]+)?|"
               rf"[{_UP}]+(?![{_LOW}]))")
_LEADING_WORD = re.compile(r"(\S+)\s+")
_NAME_SEQ = (rf"{_NAME_TOKEN}(?:\s+(?:(?:van|von|de|da|del|der|di|du|la|le|of|bin|al)\s+)?"
             rf"(?:{_NAME_TOKEN}|\d+[A-Za-z]?\b|[{_UP}]\b))*")
_ORG_SUFFIX = (r"(?:Inc\.?|Ltd\.?|LLC|L\.L\.C\.|GmbH|AG|SE|KG|Corp\.?|Corporation|Co\.|"
               r"Company|Group|plc|PLC|S\.A\.|SA|BV|NV|Holdings?|Industries|Enterprises|"
               r"Labs?|Systems|Technologies|Partners|Logistics|Services|Bank|Freight|"
               r"Consulting|Solutions|Software|Motors|Airlines|"
               r"Insurance|Capital|Ventures|Media|Pharma|Energy|Foundation|Institute|"
               r"University|Agency|Ministry)(?![\w])")
_ORG = re.compile(rf"(?P<name>(?:{_NAME_TOKEN}\s+){{1,4}}{_ORG_SUFFIX})")
ORG_SUFFIX_WORDS = frozenset("""
inc ltd llc gmbh ag se kg corp corporation co company group plc sa bv nv holding holdings
industries enterprises lab labs systems technologies partners logistics services bank
freight consulting solutions software motors airlines insurance
capital ventures media pharma energy foundation institute university agency ministry
""".split())
# An acronym at the start of a statement is its actor ("KPMG conducts ..."), unless it is
# one of these, which name a thing.
_ACRONYM_START = re.compile(rf"^(?P<name>[{_UP}]{{2,5}})\s+[{_LOW}]")
_NOT_ORG_ACRONYMS = frozenset("""
VAT API CEO CFO CTO COO HR IT QA UI UX SLA KPI ROI GDP CPU GPU RAM SSD USB PDF FAQ OKR ETA
VIP PR EU US UK USA UN AI ML SEO CRM ERP MVP TV DNS VPN SQL AWS IPO ESG NDA RFP PO
""".split())
_PLACE = re.compile(
    r"\b(?:in|at|to|from|near|inside|into|outside|nach)\s+(?:the\s+|The\s+)?(?P<name>"
    + _NAME_SEQ + r")")
# A name that completes "is": "Our auditor is Mazars.", "The venue is the Ritz."
_COPULA_NAME = re.compile(
    r"\b(?:is|are|was|were|be|ist|sind|war)\s+(?:the\s+)?(?P<name>" + _NAME_SEQ
    + r")\s*(?:[.,;!]|$)")
_COPULAS = frozenset(("is", "are", "was", "were", "be", "ist", "sind", "war"))
_WHERE_WORDS = frozenset(("venue", "location", "site", "place", "ort", "standort",
                          "veranstaltungsort"))
_PERSON_TITLED = re.compile(r"\b(?:" + "|".join(_TITLES) + r")\.?\s+(?P<name>" + _NAME_SEQ
                            + r")")
_PERSON_BY = re.compile(r"\b(?:by|with|from|to|for|von)\s+(?P<name>" + _NAME_SEQ + r")")
_PERSON_SEQ = re.compile(r"(?P<name>" + _NAME_TOKEN + r"(?:\s+" + _NAME_TOKEN + r")+)")
# Capitalised names that end like these name a place or a building, not a person.
_PLACE_HEADS = frozenset("hotel pavilion center centre hall park street road avenue square "
                         "room office tower building station airport campus arena stadium "
                         "theatre theater museum gallery club bar cafe restaurant trattoria "
                         "bistro door house inn lodge court plaza bridge harbour harbor "
                         "port bay beach island city town village".split())
_MONTHS = frozenset(months.MONTHS)
_WEEKDAYS = frozenset(months.WEEKDAYS)
TITLE_WORDS = frozenset(t.lower() for t in _TITLES)

_HAN = r"\u4e00-\u9fff"
_ZH_ORG = re.compile(r"(?:^|(?<=[由是为与和向给被，,、]))(?P<name>[^由是被与和，,、。\W\d]{1,8}?"
                     r"(?:有限公司|公司|集团|银行|大学|研究院|事务所))")
_ZH_PLACE = re.compile(
    rf"(?:在|于|位于|设在)(?P<a>[{_HAN}]{{2,4}}?)(?=举行|召开|举办|进行|开会|办公|落户)"
    rf"|(?:地点|地址)(?:是|为|在|：|:)(?P<b>[{_HAN}]{{2,6}}?)(?=[。，,；;！!]|$)"
    rf"|(?:位于|设在|坐落于|落户)(?P<c>[{_HAN}]{{2,6}}?)(?=[。，,；;！!]|$)")


def _after_noun(text: str, pos: int) -> bool:
    """Whether the word before ``pos`` is a noun: not a verb, nor a function word, nor the
    word after a subject pronoun ("I live in Berlin": a verb)."""
    m = re.search(r"(?:(?P<before>[^\W\d_]+)\s+)?(?P<w>[^\W\d_]+)\W*$", text[:pos])
    if m is None:
        return False
    w = m.group("w").lower()
    before = (m.group("before") or "").lower()
    return not (w in lexicon.NEUTRAL or w in lexicon.VERBS or w in lexicon.CANON_WORDS
                or before in lexicon.PRONOUNS
                or w.endswith(("ed", "ing")) or (w.endswith("s") and not w.endswith("ss")))


def _names(sc: Scanner, pattern: re.Pattern[str], least: int = 1
           ) -> Iterator[tuple[re.Match[str], int, int, str]]:
    """Each free match's name, without the words that never start one, and its span."""
    for m in sc.each(pattern, "name"):
        start, end = m.span("name")
        name = m.group("name")
        while (lead := _LEADING_WORD.match(name)) is not None and lead.group(1) in _NOT_NAME:
            start += lead.end()
            name = name[lead.end():]
        if name.split()[0] in _NOT_NAME or len(name.split()) < least:
            continue
        yield m, start, end, name


def _before_noun(text: str, pos: int) -> bool:
    """Whether an English noun follows ``pos``: a lowercase word that is no verb."""
    m = re.match(r"\s+([a-z]+)\b", text[pos:])
    if m is None:
        return False
    w = m.group(1)
    return not (w in lexicon.NEUTRAL or w in lexicon.VERBS or w in lexicon.CANON_WORDS
                or w.endswith(("ed", "ing")) or (w.endswith("s") and not w.endswith("ss")))


def _is_calendar(name: str) -> bool:
    first = name.split()[0].lower().rstrip(".")
    return first in _MONTHS or first.rstrip("s") in _WEEKDAYS


def organisations(sc: Scanner) -> None:
    if not sc.words.isdisjoint(ORG_SUFFIX_WORDS):
        for _, start, end, name in _names(sc, _ORG):
            sc.add_span(start, end, "organisation", (fold(name.rstrip(".")),))
    first = _ACRONYM_START.match(sc.text)
    if (first is not None and first.group("name") not in _NOT_ORG_ACRONYMS
            and sc.free(first, "name")):
        sc.add(first, "organisation", (fold(first.group("name")),), "name")


def places_and_people(sc: Scanner, *, english: bool) -> None:
    if not sc.words.isdisjoint(TITLE_WORDS):
        for m, start, end, name in _names(sc, _PERSON_TITLED):
            sc.take(m)  # the title too: "Dr" is no name of its own
            sc.add_span(start, end, "person", (fold(name),))
    for m, start, end, name in _names(sc, _PLACE):
        if _is_calendar(name):
            continue
        words = name.split()
        last = words[-1].lower()
        prep = m.group(0).split()[0].lower()
        if (prep in ("to", "from") and len(words) >= 2
                and last not in _PLACE_HEADS and not any(w[0].isdigit() for w in words)):
            continue  # "to Maria Lopez", "from Tom Becker": a person, read below
        if english and _after_noun(sc.text, m.start()):
            # "the train to Paris", "the pilot in Lisbon": the place names the subject.
            sc.spans.append((start, end))
            sc.idents += [(start, lexicon.stem(w)) for w in fold(name).split()]
            continue
        sc.add_span(start, end, "place", (fold(name),))
    for m, start, end, name in _names(sc, _PERSON_BY):
        words = name.split()
        if _is_calendar(name):
            continue
        # "by Peter Hall" is a person; "for Grand Hotel" names a place.
        if words[-1].lower() in _PLACE_HEADS and not (
                m.group(0).split()[0].lower() in ("by", "von") and len(words) == 2):
            continue
        who: ValueKind = "organisation" if len(words) == 1 and name.isupper() else "person"
        sc.add_span(start, end, who, (fold(name),))
    if not sc.words.isdisjoint(_COPULAS):
        for _, start, end, name in _names(sc, _COPULA_NAME):
            words = name.split()
            if _is_calendar(name) or any(w[0].isdigit() for w in words):
                continue
            kind: ValueKind
            if words[-1].lower() in _PLACE_HEADS or not sc.words.isdisjoint(_WHERE_WORDS):
                kind = "place"
            elif len(words) == 1 and (name.isupper() or not name[1:].islower()):
                kind = "organisation"  # "ADP", "PwC"
            else:
                kind = "person"
            sc.add_span(start, end, kind, (fold(name),))
    for _, start, end, name in _names(sc, _PERSON_SEQ, least=2):
        words = name.split()
        if _is_calendar(name) or any(w.isupper() for w in words):
            continue
        if english and _before_noun(sc.text, end):
            continue  # "our New York office": the name says which office, it is subject
        kind = "place" if words[-1].lower() in _PLACE_HEADS else "person"
        sc.add_span(start, end, kind, (fold(name),))


@lru_cache(maxsize=1)
def _first_names() -> object:
    import gender_guesser.detector as detector

    return detector.Detector(case_sensitive=True)


@lru_cache(maxsize=16384)
def first_name(word: str) -> bool:
    """Whether a capitalised word is a person's first name ("Ben", "Nadia"), by the list of
    first names the gender-guesser package ships; a month or a weekday is none."""
    w = word.removesuffix("'s").removesuffix("’s")
    if not w[:1].isupper() or not w[1:].islower() or _is_calendar(w):
        return False
    if w.lower() in lexicon.NEUTRAL or w.lower() in lexicon.VERBS:
        return False
    found = _first_names().get_gender(w)  # type: ignore[attr-defined]
    return isinstance(found, str) and found != "unknown"


def chinese_names(sc: Scanner) -> None:
    ws = chinese.words(sc.text)
    for i, w in enumerate(ws):
        kind = chinese.name_kind(w)
        if kind is None or not sc.free_span(w.at, w.at + len(w.word)):
            continue
        if chinese.before_noun(ws, i):
            continue  # "北京分公司": the name says which branch, it is the subject
        sc.add_span(w.at, w.at + len(w.word), kind, (w.word,))
    for m in sc.each(_ZH_ORG, "name"):
        sc.add(m, "organisation", (m.group("name"),), "name")
    for m in _ZH_PLACE.finditer(sc.text):
        group_ = "a" if m.group("a") else ("b" if m.group("b") else "c")
        if sc.free(m, group_):
            sc.add(m, "place", (m.group(group_),), group_)
