"""Reading a message as a request to forget (docs/rules.md, rule 22), in English, German and
Chinese: pure, from the form of the sentence, not from a list of example requests.

A request is an imperative of one of the verbs that ask for something to be forgotten
(English forget, delete, erase, remove; German vergessen, löschen, entfernen, tilgen;
Chinese 忘记, 忘掉, 删除, 删掉, 抹去, 清除, 移除, 去掉), said to the memory, whose object
names what is to go: the verb opens its clause, with nothing before it but words of
politeness ("please", "bitte", "请") or a question that asks the listener to do it ("can
you", "kannst du ... vergessen", "你能"). A negated verb ("don't forget", "vergiss nicht",
"别忘了") asks the opposite, and a sentence with a subject of its own ("I forgot my keys")
is no imperative. Deleting or removing is asked of many things besides memory ("remove the
old banner"), so with those verbs the object must name something of the speaker's own
("my", "mein", "我"); forgetting is asked only of a listener who remembers.

What the reader returns is the object, and the object's words without the words that only
point at the speaker or at their saying ("my", "what I said about", "meine", "我说的"): those
are the words the speaker's own claims are searched for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Language = Literal["en", "de", "zh"]


@dataclass(frozen=True)
class ForgetRequest:
    language: Language
    verb: str  # as written
    object: str  # what is to be forgotten, as written
    words: str  # the object's words that name it (what the search looks for)


# Sentences end at these, clauses at these; a request is one clause.
_SENTENCE = re.compile(r"[.!?。！？;；\n]+")
_CLAUSE = re.compile(r"[,，、:：]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)

# English. Words of politeness that may stand before an imperative, and the questions that
# ask the listener to do something ("could you [please] ..."), by their closed words.
_EN_VERBS = frozenset({"forget", "delete", "erase", "remove"})
_EN_POLITE = frozenset({"please", "pls", "kindly", "just"})
_EN_MODALS = frozenset({"can", "could", "would", "will"})
_EN_NOT = frozenset({"don't", "dont", "do", "not", "never", "didn't", "won't", "cannot"})
_EN_MINE = frozenset({"my", "mine", "me", "i", "i've", "i'd", "myself", "we", "our", "us"})
# Words that point at the speaker or at what they said, not at what it was about.
_EN_POINTERS = frozenset({
    "my", "mine", "me", "i", "i've", "i'd", "myself", "what", "that", "which", "everything",
    "all", "about", "regarding", "on", "of", "the", "a", "an", "you", "said", "say", "told",
    "tell", "wrote", "write", "mentioned", "mention", "gave", "give", "shared", "share",
    "just", "earlier", "before", "previously", "ever", "have", "had", "it", "this"})

# German. The imperative (du, ihr) and the polite infinitive with "Sie" of each verb, the
# infinitives a question ends on ("Kannst du meine Nummer vergessen?"), and the questions.
_DE_IMPERATIVES = {
    "vergiss": "vergessen", "vergesst": "vergessen", "vergessen": "vergessen",
    "lösch": "löschen", "lösche": "löschen", "löscht": "löschen", "löschen": "löschen",
    "entfern": "entfernen", "entferne": "entfernen", "entfernt": "entfernen",
    "entfernen": "entfernen", "tilge": "tilgen", "tilgt": "tilgen", "tilgen": "tilgen"}
_DE_INFINITIVES = frozenset({"vergessen", "löschen", "entfernen", "tilgen"})
_DE_QUESTIONS = {"kannst": "du", "könntest": "du", "würdest": "du", "kannst du": "du",
                 "können": "sie", "könnten": "sie", "würden": "sie", "könnt": "ihr"}
_DE_POLITE = frozenset({"bitte", "doch", "mal", "einfach", "jetzt", "gleich"})
_DE_NOT = frozenset({"nicht", "nie", "niemals", "keinesfalls"})
_DE_MINE = frozenset({"mein", "meine", "meinen", "meinem", "meiner", "meines", "mich",
                      "mir", "ich", "unser", "unsere", "unseren", "unserem", "unserer",
                      "uns", "wir"})
_DE_POINTERS = frozenset({
    *_DE_MINE, *_DE_POLITE, "sie", "du", "ihr", "was", "alles", "das", "dass", "der", "die",
    "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "über", "von",
    "zu", "gesagt", "erzählt", "geschrieben", "erwähnt", "genannt", "habe", "hab", "hatte",
    "vorhin", "eben", "gerade", "wieder"})

# Chinese. What may stand before the verb (politeness, a question to the listener, "for
# me"), the verbs (longest first), the negations, and the words that point at the speaker.
_ZH_BEFORE = ("麻烦你", "麻烦您", "麻烦", "请你", "请您", "请", "能不能", "可不可以", "你能",
              "您能", "你可以", "您可以", "可以", "帮我", "给我", "替我")
# The object may come first, after 把, with the verb ending the clause (and a particle).
_ZH_OBJECT_FIRST = "把"
_ZH_ENDINGS = "吧吗啊呀哦 "
_ZH_VERBS = ("忘记", "忘掉", "忘了", "删除", "删掉", "删去", "删了", "抹去", "抹掉", "清除",
             "移除", "去掉")
_ZH_NOT = ("别", "不要", "不用", "不", "没", "勿")
_ZH_POINTERS = ("我说过的", "我说的", "我告诉你的", "我提到的", "关于", "我们的", "我的",
                "我", "吧", "吗", "呢", "啊", "哦", "一下")


# Every verb above, by the part all its forms share: a message holding none of them is no
# request, and is not read further (a conversation of thousands of messages is read whole).
_VERB_PARTS = ("forget", "delete", "erase", "remove", "vergiss", "vergesst", "vergessen",
               "lösch", "entfern", "tilg", "忘", "删", "抹", "清除", "移除", "去掉")


def read_request(text: str) -> ForgetRequest | None:
    """The first clause of ``text`` that asks for something to be forgotten, read; None
    when no clause does."""
    folded = text.casefold()
    if not any(v in folded for v in _VERB_PARTS):
        return None
    for sentence in _SENTENCE.split(text):
        for clause in _CLAUSE.split(sentence):
            found = (_english(clause) or _german(clause) or _chinese(clause))
            if found is not None:
                return found
    return None


def _tokens(clause: str) -> list[re.Match[str]]:
    return list(_WORD.finditer(clause))


def _fold(word: str) -> str:
    return word.casefold().replace("’", "'")


def _object(clause: str, words: list[re.Match[str]], start: int, end: int) -> str:
    if start >= end:
        return ""
    return clause[words[start].start():words[end - 1].end()].strip()


def _english(clause: str) -> ForgetRequest | None:
    words = _tokens(clause)
    folded = [_fold(w.group()) for w in words]
    i = 0
    while i < len(folded) and folded[i] in _EN_POLITE:
        i += 1
    if i + 1 < len(folded) and folded[i] in _EN_MODALS and folded[i + 1] == "you":
        i += 2
        while i < len(folded) and folded[i] in _EN_POLITE:
            i += 1
    if i >= len(folded) or folded[i] not in _EN_VERBS:
        return None
    if any(w in _EN_NOT for w in folded[:i]):
        return None
    verb = folded[i]
    start = i + 1
    rest = folded[start:]
    if not rest or (verb != "forget" and not _EN_MINE & set(rest)):
        return None
    named = " ".join(words[start + k].group() for k, w in enumerate(rest)
                     if w not in _EN_POINTERS)
    if not named:
        return None
    return ForgetRequest("en", verb, _object(clause, words, start, len(words)), named)


def _german(clause: str) -> ForgetRequest | None:
    words = _tokens(clause)
    folded = [_fold(w.group()) for w in words]
    i = 0
    while i < len(folded) and folded[i] in _DE_POLITE:
        i += 1
    if i >= len(folded):
        return None
    verb: str | None = None
    start, end = i, len(folded)
    if folded[i] in _DE_IMPERATIVES:
        verb = _DE_IMPERATIVES[folded[i]]
        start = i + 1
        # "Vergessen Sie ...", "Löschen Sie ...": the polite imperative names its listener.
        if folded[i] in _DE_INFINITIVES and (start >= len(folded) or folded[start] != "sie"):
            return None
    elif (folded[i] in _DE_QUESTIONS and i + 1 < len(folded)
          and folded[i + 1] == _DE_QUESTIONS[folded[i]] and folded[-1] in _DE_INFINITIVES):
        verb = folded[-1]
        start, end = i + 2, len(folded) - 1
    if verb is None:
        return None
    # "Vergiss bitte ...", "Löschen Sie bitte ...": the listener and politeness are no object.
    while start < end and (folded[start] in _DE_POLITE or folded[start] == "sie"):
        start += 1
    rest = folded[start:end]
    if any(w in _DE_NOT for w in rest[:3]):
        return None
    if verb != "vergessen" and not _DE_MINE & set(rest):
        return None
    named = " ".join(words[start + k].group() for k, w in enumerate(rest)
                     if w not in _DE_POINTERS)
    if not named:
        return None
    return ForgetRequest("de", verb, _object(clause, words, start, end), named)


def _chinese(clause: str) -> ForgetRequest | None:
    rest = clause.strip()
    moved = True
    while moved:
        moved = False
        for w in _ZH_BEFORE:
            if rest.startswith(w):
                rest, moved = rest[len(w):].lstrip(), True
                break
    if rest.startswith(_ZH_NOT):
        return None
    verb = next((v for v in _ZH_VERBS if rest.startswith(v)), None)
    if verb is not None:
        obj = rest[len(verb):].strip()
    elif rest.startswith(_ZH_OBJECT_FIRST):
        # "把我的电话号码删掉": the object stands between 把 and the verb that ends the clause.
        body = rest[1:].rstrip(_ZH_ENDINGS)
        verb = next((v for v in _ZH_VERBS if body.endswith(v)), None)
        if verb is None and body.endswith("了"):
            body = body[:-1]
            verb = next((v for v in _ZH_VERBS if body.endswith(v)), None)
        if verb is None:
            return None
        obj = body[:-len(verb)].strip()
    else:
        return None
    if not obj or obj.startswith(_ZH_NOT):
        return None
    if not verb.startswith("忘") and "我" not in obj:
        return None
    named = obj
    for w in _ZH_POINTERS:
        named = named.replace(w, " ")
    named = " ".join(named.split())
    if not named:
        return None
    return ForgetRequest("zh", verb, obj, named)
