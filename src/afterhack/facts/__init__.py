"""Facts read from statements, and the offline contradiction detector that compares them.

A statement is read into what it says, not how: its subject and attribute (a frame of
words in one spelling) and its typed values (date, time, duration, number, amount,
percentage, place, person, organisation) in a normal form, in English, German and
Chinese. Pure and deterministic (the dictionaries it reads ship with it or its packages).

- ``numerals``: number words and Chinese numerals as digits;
- ``values``: the typed value, how two compare, the scanner readers share;
- ``calendar``, ``quantities``, ``names``: the readers of each kind of value;
- ``lexicon``: function words, synonyms and stems;
- ``said``: the first person, a correction's opening words, a value denied;
- ``chinese``: Chinese as words (jieba), its names tagged;
- ``places``: when two names are one (a city in another language, a Chinese name's pinyin);
- ``frames``: subject and attribute, and when two are the same by their words;
- ``meaning``: when two are the same by what the words they do not share mean, or share a
  subject by word or meaning;
- ``scope``: what keeps two statements with differing values apart (another period, a plan
  against an outcome, another one in the same place, another thing counted, another name);
- ``reading``: one statement read, cached;
- ``detector``: the judge of two statements.

Why readers of its own and no library, with the figures: 0022-detector-reads-facts.md.
"""

from afterhack.facts.detector import (
    NOBODY,
    Judgement,
    Speakers,
    ValueRead,
    checkable,
    conflict_kind,
    judge,
    judge_statements,
    meaning_texts,
    other_value,
    same_fact,
)
from afterhack.facts.frames import same_subject
from afterhack.facts.lexicon import stem
from afterhack.facts.meaning import Bar, Known, Meaning
from afterhack.facts.reading import Reading, read
from afterhack.facts.said import speaks_of_self
from afterhack.facts.values import Value, ValueKind

__all__ = ["NOBODY", "Bar", "Judgement", "Known", "Meaning", "Reading", "Speakers", "Value",
           "ValueKind", "ValueRead", "checkable", "conflict_kind", "judge", "judge_statements",
           "meaning_texts", "other_value", "read", "same_fact", "same_subject",
           "speaks_of_self", "stem"]
