"""How a person says a fact: in the first person, as a correction, denying a value.

- "I", "my" and "me" (German "ich", "mein", "mir", "mich"; Chinese "我", "我的") stand for
  whoever says the statement: read with its speaker, "my flight" is that speaker's flight, so
  two speakers' flights are two flights, and a document's "Ana's flight" is Ana's.
- A statement that opens by taking something back ("Correction:", "Actually,", "No wait,",
  "Sorry,"; German "Korrektur:", "Eigentlich", "Nein, warte"; Chinese "更正：", "其实",
  "不对，") replaces what its speaker said before: those words say nothing of the subject and
  are set aside, and the reading remembers that the statement is a correction.
- A value after "not", "instead of" or "rather than" (German "nicht", "statt", "anstatt";
  Chinese "而不是", "不是") is the value denied: "on March 21, not March 14" gives March 21.
"""

from __future__ import annotations

import re

# First-person singular words, by language (Chinese is matched in the text).
FIRST_PERSON = frozenset("i my me mine myself i'm i've i'll i'd".split())
FIRST_PERSON_DE = frozenset("ich mein meine meinen meinem meiner meines mir mich".split())
ZH_FIRST_PERSON = ("我的", "我")

_TAKE_BACK = re.compile(
    r"^\s*(?:(?:correction|update|berichtigung|korrektur)\s*[:：,-]"
    r"|(?:actually|no\s+wait|wait|sorry|oops|scratch\s+that|my\s+mistake|my\s+bad"
    r"|eigentlich|nein\s*,?\s*warte|warte|entschuldigung)\b\s*[:,-]?"
    r"|no\s*,\s*(?=\S))"
    r"(?:\s*(?:actually|sorry|wait|eigentlich)\b\s*[:,-]?)*",
    re.IGNORECASE)
_ZH_TAKE_BACK = re.compile(r"^\s*(?:更正|纠正|修正|其实|不对|抱歉|对不起|等等|说错了)[，,:：\s]*")
# What a statement says with a correction's words: the words alone, for the cheap look.
TAKE_BACK_WORDS = frozenset("correction update berichtigung korrektur actually wait sorry oops "
                            "scratch mistake bad eigentlich warte entschuldigung no nein"
                            .split())

_DENIED = re.compile(
    r"(?:\bnot|\binstead\s+of|\brather\s+than|\bnicht|\bstatt|\banstatt)"
    r"(?:\s+(?:on|at|in|for|to|by|from|am|um|im|auf|bei|the|der|die|das|den|dem|a|an))?\s*$",
    re.IGNORECASE)
_ZH_DENIED = re.compile(r"(?:而不是|不是|并非|而非)\s*$")
DENIAL_WORDS = frozenset("not instead rather nicht statt anstatt".split())


def take_back(text: str, words: frozenset[str], *, chinese: bool) -> tuple[int, int] | None:
    """Where a statement opens by taking back what was said before, or None."""
    if chinese:
        m = _ZH_TAKE_BACK.match(text)
    elif words.isdisjoint(TAKE_BACK_WORDS):
        return None
    else:
        m = _TAKE_BACK.match(text)
    if m is None or m.end() == m.start() or m.end() >= len(text.rstrip(" .。!")):
        return None
    return m.span()


def denial(text: str, start: int, *, chinese: bool) -> int | None:
    """Where the words denying a value written at ``start`` begin ("..., not March 14"), or
    None when the value is not denied."""
    lo = max(0, start - 24)
    before = text[lo:start]
    m = (_ZH_DENIED.search(before) if chinese else None) or _DENIED.search(before)
    return None if m is None else lo + m.start()


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def speaks_of_self(statement: str) -> bool:
    """Whether a statement speaks in the first person: who said it is part of what it says."""
    if any(w in statement for w in ZH_FIRST_PERSON):
        return True
    words = {w.lower().replace("’", "'") for w in _WORD.findall(statement)}
    return not (words.isdisjoint(FIRST_PERSON) and words.isdisjoint(FIRST_PERSON_DE))


# A sentence that opens on one of these leans on what was said before for its subject.
# ("This" and "That" only before a verb: "This launch ..." names its own subject.)
FOLLOW_UP = re.compile(r"(?:(?:It|They|He|She|Es|Er)\b|(?:This|That|Das|Dies)(?=\s+(?:is|was|"
                       r"will|has|ist|war|wird|hat)\b)|[它他她])")
_SPLIT = re.compile(r"\S+")
# Words that may stand in a subject before its verb (English: articles and possessives).
_DETERMINERS = frozenset("the a an my our your their his her its this that these those "
                         "der die das den dem des ein eine einen einem mein meine meinen "
                         "meinem unser unsere".split())


def subject_phrase(sentence: str, *, verbs: frozenset[str]) -> str | None:
    """The words a sentence opens with before its verb ("My flight" of "My flight lands at
    7:40."): what a pronoun in the next sentence stands for. None when no short subject is
    found (a German one ends at its first lowercase word after a noun)."""
    words = _SPLIT.findall(sentence)
    for i, raw in enumerate(words[:7]):
        w = raw.lower().strip(",.;:!?")
        if i == 0 or w in _DETERMINERS:
            continue
        if (w in verbs or (len(w) >= 4 and w.endswith(("s", "ed")) and not w.endswith("ss"))
                or (raw[:1].islower() and words[i - 1][:1].isupper()
                    and words[i - 1].lower() not in _DETERMINERS)):
            return " ".join(words[:i])
    return None
