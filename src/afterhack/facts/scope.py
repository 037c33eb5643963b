"""What keeps two statements with differing values apart: the scope each value is given in.

Two statements that give another value of one kind may still be about two things, and the
reason is nearly always one of a few kinds, read here by kind rather than word by word:

- another period: each names a period and the periods differ ("last year" and "this year",
  "Q1" and "Q2", "in summer" and "in winter", "一季度" and "二季度");
- a plan against what happened: one states what was planned, expected, budgeted or quoted,
  the other what came of it ("in the end", "ended up", "actual", a verb in the past);
- another one of a kind in the same place of the sentence: a word of each side stands
  between the same words ("the Berlin team's standup" and "the Paris team's standup",
  "the minimum order" and "the maximum order", "the rent for the flat" and "the deposit for
  the flat"): a substitution, not a rewording, unless the two words mean the same;
- another name: each side names someone or something the other does not (a place, a
  person, an identifier such as a flight or a quarter).

Each guard is read from the two readings alone (and, for the substitution, from the vectors
the caller embedded): no pair is ever looked up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from afterhack.facts.frames import SPEAKER_WORDS, Unit, holds
from afterhack.facts.meaning import Meaning, lexical

# Periods, by kind: a unit of the calendar qualified by "last", "this" or "next"; a quarter
# or a half of a year; a season. Each is read into a label ("-1 year", "q2", "summer") so two
# wordings of one period are equal (reading.py keeps the labels).
_OFFSETS = {"last": -1, "previous": -1, "past": -1, "prior": -1, "this": 0, "current": 0,
            "next": 1, "coming": 1, "upcoming": 1, "letzte": -1, "letzten": -1,
            "letzter": -1, "letztes": -1, "vorige": -1, "vorigen": -1, "voriges": -1,
            "vergangene": -1, "vergangenen": -1, "diese": 0, "diesen": 0, "dieses": 0,
            "dieser": 0, "nächste": 1, "nächsten": 1, "nächstes": 1, "kommende": 1,
            "kommenden": 1}
_UNITS = {"week": "week", "month": "month", "year": "year", "quarter": "quarter",
          "sprint": "sprint", "term": "term", "semester": "term", "season": "season",
          "cycle": "cycle", "iteration": "sprint", "weekend": "weekend", "woche": "week",
          "monat": "month", "monats": "month", "jahr": "year", "jahres": "year",
          "quartal": "quarter", "quartals": "quarter", "saison": "season",
          "wochenende": "weekend", "halbjahr": "half"}
_RELATIVE = re.compile(r"\b(?P<q>" + "|".join(sorted(_OFFSETS, key=len, reverse=True))
                       + r")(?:\s+|-)(?P<u>" + "|".join(sorted(_UNITS, key=len, reverse=True))
                       + r")(?:'s|s|es)?\b", re.IGNORECASE)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3,
             "4th": 4, "erste": 1, "ersten": 1, "erstes": 1, "zweite": 2, "zweiten": 2,
             "dritte": 3, "dritten": 3, "vierte": 4, "vierten": 4, "1.": 1, "2.": 2, "3.": 3,
             "4.": 4}
_QUARTER = re.compile(
    r"\b(?:Q(?P<q>[1-4])|(?P<o>first|second|third|fourth|1st|2nd|3rd|4th|erste[nrs]?|"
    r"zweiten?|dritten?|vierten?|[1-4]\.)\s+(?P<u>quarter|quartal|half|halbjahr|"
    r"hälfte)|H(?P<h>[12]))\b", re.IGNORECASE)
_ZH_QUARTER = re.compile(r"第?(?P<q>[1-4一二三四])(?:季度|季)")
_ZH_RELATIVE = {"去年": "-1 year", "今年": "0 year", "明年": "1 year", "前年": "-2 year",
                "上个月": "-1 month", "上月": "-1 month", "本月": "0 month", "这个月": "0 month",
                "下个月": "1 month", "下月": "1 month", "上周": "-1 week", "本周": "0 week",
                "这周": "0 week", "下周": "1 week", "上季度": "-1 quarter",
                "本季度": "0 quarter", "下季度": "1 quarter", "上半年": "h1", "下半年": "h2"}
_SEASONS = {"spring": "spring", "summer": "summer", "autumn": "autumn", "winter": "winter",
            "frühling": "spring", "frühjahr": "spring", "sommer": "summer", "herbst": "autumn",
            "春季": "spring", "春天": "spring", "夏季": "summer", "夏天": "summer",
            "秋季": "autumn", "秋天": "autumn", "冬季": "winter", "冬天": "winter"}
_SEASON = re.compile(r"(?:\b|(?<=[\u4e00-\u9fff]))(?P<s>spring|summer|autumn|winter|"
                     r"(?<=the )fall|frühling|frühjahr|sommer|herbst|春季|春天|夏季|夏天|秋季|"
                     r"秋天|冬季|冬天)", re.IGNORECASE)
_ZH_DIGIT = {"一": 1, "二": 2, "三": 3, "四": 4}


def periods(text: str) -> frozenset[str]:
    """The periods a statement names, as labels: "-1 year", "q2", "h1", "summer"."""
    out: set[str] = set()
    low = text.lower()
    for m in _RELATIVE.finditer(text):
        out.add(f"{_OFFSETS[m.group('q').lower()]} {_UNITS[m.group('u').lower()]}")
    for m in _QUARTER.finditer(text):
        if m.group("q"):
            out.add("q" + m.group("q"))
        elif m.group("h"):
            out.add("h" + m.group("h"))
        else:
            n = _ORDINALS[m.group("o").lower()]
            unit = m.group("u").lower()
            out.add(("q" if unit in ("quarter", "quartal") else "h") + str(n))
    for m in _ZH_QUARTER.finditer(text):
        q = m.group("q")
        out.add("q" + str(_ZH_DIGIT.get(q, q)))
    for word, label in _ZH_RELATIVE.items():
        if word in text:
            out.add(label)
    for m in _SEASON.finditer(low):
        s = m.group("s")
        out.add(_SEASONS.get(s, "autumn"))
    # Compounds: "Sommerfahrplan", "Winterreifen", "summer-timetable".
    for w in re.findall(r"[a-zäöüß]{7,}", low):
        for head in ("frühjahr", "frühling", "sommer", "herbst", "winter"):
            if w.startswith(head) and w != head:
                out.add(_SEASONS.get(head, head))
    return frozenset(out)


# What was planned, expected, budgeted or quoted, against what came of it.
_PLAN = re.compile(
    r"\b(?:plan|plans|planned|planning|expect|expects|expected|expecting|expectation|"
    r"forecast|forecasts|forecasted|projected|projection|target|targets|targeted|estimate|"
    r"estimates|estimated|budgeted|quote|quoted|anticipated|intended|aimed|goal|"
    r"geplant|plan|planten|erwartet|erwarteten|gerechnet|prognose|prognostiziert|ziel|"
    r"veranschlagt|kalkuliert|vorgesehen)\b"
    r"|计划|预计|预期|预估|预测|目标|估计",
    re.IGNORECASE)
_OUTCOME = re.compile(
    r"\b(?:in\s+the\s+end|ended\s+up|turned\s+out|actual|actually|came\s+in\s+at|wound\s+up|"
    r"in\s+fact|eventually|am\s+ende|tatsächlich|letztlich|schließlich|im\s+endeffekt|"
    r"unterm\s+strich|effektiv)\b"
    r"|实际|最终|结果|最后|用了|花了|来了",
    re.IGNORECASE)
# A finite verb in the past: an irregular past form, or "-ed" that no form of "be" (a
# passive: "will be delivered") or "to" stands before.
_IRREGULAR_PAST = frozenset("""
came went took sold bought paid cost spent made got gave grew fell rose ran brought kept
left met saw found won lost sent built drove flew wrote told held stood became began
""".split())
_PAST_ED = re.compile(r"\b(?P<before>\w+)\s+(?P<w>[a-z]{3,}ed)\b", re.IGNORECASE)
_NOT_PAST_BEFORE = frozenset("is are be will to being am the a an our their this".split())


def mood(text: str) -> str:
    """"plan" when a statement says what was planned or expected, "outcome" when it says
    what came of something, "" when it says neither."""
    if _PLAN.search(text):
        return "plan"
    if _OUTCOME.search(text):
        return "outcome"
    low = text.lower()
    if not _IRREGULAR_PAST.isdisjoint(re.findall(r"[a-z]+", low)):
        return "outcome"
    for m in _PAST_ED.finditer(low):
        if m.group("before") not in _NOT_PAST_BEFORE and m.group("w") not in SPEAKER_WORDS:
            return "outcome"
    return ""


def another_period(a: frozenset[str], b: frozenset[str]) -> bool:
    """Both name a period of one kind (a year, a quarter, a season...), and not the same."""
    for family in {_family(p) for p in a} & {_family(p) for p in b}:
        if {p for p in a if _family(p) == family}.isdisjoint(
                {p for p in b if _family(p) == family}):
            return True
    return False


def _family(label: str) -> str:
    """What kind of period a label names: "-1 year" and "year 2023" are both years."""
    if label[:1] in "qh" and label[1:].isdigit():
        return label[0]
    if label in _SEASONS.values():
        return "season"
    return label.split()[-1] if " " in label else label


def plan_and_outcome(a: str, b: str) -> bool:
    return {a, b} == {"plan", "outcome"}


def _neighbours(seq: Sequence[str], i: int) -> tuple[str, str]:
    before = seq[i - 1] if i > 0 else "^"
    after = seq[i + 1] if i + 1 < len(seq) else "$"
    return before, after


def _same_word(x: str, y: str) -> bool:
    x, y = x.removeprefix("~"), y.removeprefix("~")
    if x == y:
        return True
    if x[:1] in "@§^$" or y[:1] in "@§^$" or "#" in x or "#" in y:
        return False
    return holds(x, y)


# Attribute tokens that say what happens rather than name a thing: a word standing before
# one of these is the end of a subject, not a modifier of a shared noun.
_PREDICATES = frozenset(("@start", "@end", "@depart", "@arrive", "@pay", "@capacity",
                         "@attend"))


def _head(t: str) -> bool:
    """Whether a word of ``Frame.seq`` can be the noun a modifier stands before."""
    return t[:1] not in "§^$~" and t not in _PREDICATES


def _compound_modifiers(x: str, y: str) -> bool:
    """Two compounds on one head with another first part: "Marketingbudget" and
    "Vertriebsbudget", "Sommerfahrplan" and "Winterfahrplan"."""
    if min(len(x), len(y)) < 9 or x[:1] in "@~§#" or y[:1] in "@~§#":
        return False
    n = 0
    while n < min(len(x), len(y)) and x[-1 - n] == y[-1 - n]:
        n += 1
    return n >= 5 and len(x) - n >= 4 and len(y) - n >= 4


def substituted(a: Sequence[str], b: Sequence[str], meaning: Meaning | None,
                written: dict[str, str], *, across: bool, langs: tuple[str, str] = ("en", "en")
                ) -> tuple[str, str] | None:
    """A word of each side in the same place of the sentence that is not the same word, nor
    (by ``meaning``) one of the same meaning: "berlin" and "paris" before "team", "minimum"
    and "maximum" before "order", "rent" and "deposit" between the start and "apartment".
    ``written`` gives each token's written word, for the meaning."""
    if across or "zh" in langs:
        return None
    for i, x in enumerate(a):
        if x[:1] == "§" or any(_same_word(x, y) for y in b):
            continue
        nx = _neighbours(a, i)
        for j, y in enumerate(b):
            if y[:1] == "§" or any(_same_word(y, z) for z in a):
                continue
            if x.lstrip("~")[:1] == "@" and y.lstrip("~")[:1] == "@":
                continue  # two attributes of the lexicon: another guard's (opposites)
            if langs[0] == "de" and _compound_modifiers(x, y):
                return x, y
            if (x[:1] == "~") != (y[:1] == "~"):
                continue  # a verb against a noun: one thing said two ways
            if not _same_place(nx, _neighbours(b, j), verbal=x[:1] == "~"):
                continue
            if meaning is not None:
                s = meaning.similarity(written.get(x, x), written.get(y, y))
                if s is not None and s >= meaning.bar.same_language:
                    continue
            return x, y
    return None


def _same_place(nx: tuple[str, str], ny: tuple[str, str], *, verbal: bool) -> bool:
    """Whether two words stand in the same place: before the same noun ("the Berlin team"
    / "the Paris team"), or between the same two words with a noun among them ("the rent
    for the flat" / "the deposit for the flat", "12 engineers" / "3 designers"). A word
    that may be a verb counts only between the same words and before a noun ("the booking
    fee" / "the ticket price"): "covers 25 stores" / "runs in 40 stores" is a rewording."""
    before = _same_word(nx[0], ny[0])
    after = _same_word(nx[1], ny[1])
    noun_after = after and _head(nx[1]) and nx[1][:1] != "~"
    if verbal:
        return before and noun_after
    if noun_after:
        return True
    return before and after and nx != ("^", "$") and (
        _head(nx[0]) or _head(nx[1]) or nx[0][:1] == "§")


# Attributes that are two ends or two sides of one thing: a statement of one is not a
# statement of the other, whatever their words' vectors say.
_OPPOSED = (frozenset(("@start", "@end")), frozenset(("@depart", "@arrive")),
            frozenset(("@budget", "@cost")), frozenset(("@capacity", "@attend")))


# Nouns any count of people, things or occurrences may be said with: "42 people signed up"
# and "38 registrations", "1,000 units" and "1,200 widgets" count one thing.
_GENERIC_COUNTS = frozenset("""
people person persons folk folks individual individuals time times unit units piece pieces
item items leut person personen mensch menschen mal stück einheit einheiten
人 人次 次 个 名 件 个人 人员
""".split())


def counted(a: Sequence[str], b: Sequence[str], meaning: Meaning | None,
            written: dict[str, str], *, across: bool) -> tuple[str, str] | None:
    """What each side counts, when both say and it is not one thing: "12 engineers" and "3
    designers", "200名员工" and "15个部门", "60 desks" and "45 Mitarbeiter". Within one
    language and across two: the nouns after the count are the thing counted."""
    def things(seq: Sequence[str]) -> list[list[str]]:
        out = []
        for i, t in enumerate(seq):
            if t != "§number":
                continue
            nouns = []
            for u in seq[i + 1:]:
                if u[:1] in "§~@#^$":
                    break
                nouns.append(u)
            if nouns:
                out.append(nouns)
        return out

    def generic(word: str) -> bool:
        return word in _GENERIC_COUNTS or written.get(word, word).lower() in _GENERIC_COUNTS

    left, right = things(a), things(b)
    if not left or not right:
        return None
    for xs in left:
        for ys in right:
            for x in xs:
                for y in ys:
                    if _same_word(x, y) or generic(x) or generic(y):
                        return None
                    if meaning is not None:
                        s = meaning.similarity(written.get(x, x), written.get(y, y))
                        bar = (meaning.bar.across_languages if across
                               else meaning.bar.same_language)
                        if s is None or s >= bar:
                            return None
    return left[0][0], right[0][0]


def opposites(a: Sequence[Unit], b: Sequence[Unit]) -> tuple[str, str] | None:
    """Two sides of one thing the lexicon names, one on each side and not on the other: a
    start and an end, a departure and an arrival, a budget and a cost, a rate per month and
    per year."""
    left = [u for u in a if u.token[:1] == "@" and not any(lexical(u, v) for v in b)]
    right = [v for v in b if v.token[:1] == "@" and not any(lexical(u, v) for u in a)]
    for u in left:
        for v in right:
            pair = frozenset((u.token, v.token))
            if any(pair == o for o in _OPPOSED) or (
                    u.token.startswith("@per_") and v.token.startswith("@per_")):
                return u.written, v.written
    return None


def rate_and_total(a: Sequence[Unit], b: Sequence[Unit]) -> bool:
    """One side gives a rate ("per night", "a month") the other does not: a rate against a
    total ("€140 per night" / "€560 for four nights")."""
    def rates(units: Sequence[Unit]) -> tuple[bool, bool]:
        return (any(_rate(u) for u in units), any(u.token.startswith("@per_") for u in units))

    (rate_a, per_a), (rate_b, per_b) = rates(a), rates(b)
    return (rate_a and not per_b) or (rate_b and not per_a)


def _rate(u: Unit) -> bool:
    # "per night", "a month", "nightly", "每月": a rate; "the annual meeting" names a thing.
    return u.token.startswith("@per_") and (
        u.written.split()[0] in ("per", "a", "an", "each", "every", "pro", "im")
        or u.written.endswith("ly") or not u.written.isascii())


def names_apart(a: Sequence[Unit], b: Sequence[Unit]) -> tuple[str, str] | None:
    """A name or identifier on each side that the other does not give: "berlin" and
    "munich", "flight#ba117" and "flight#ba119", two speakers."""
    left = [u for u in a if (u.name or "#" in u.token) and not any(lexical(u, v) for v in b)]
    right = [v for v in b if (v.name or "#" in v.token) and not any(lexical(u, v) for u in a)]
    if left and right:
        return left[0].written, right[0].written
    return None
