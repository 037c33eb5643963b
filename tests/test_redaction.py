"""What an erasure does to a text and its offsets (rules/redaction.py), and how a message is
read as a request to forget (rules/forget_request.py): pure, without a database."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from afterhack.rules.forget_request import read_request
from afterhack.rules.redaction import (
    MARKER,
    Span,
    clip,
    needles,
    occurrences,
    redact,
    rename_apart,
    scrub,
    scrub_json,
)

TEXT = "Hi. My number is 0170 1234567. Bye."


def test_a_span_becomes_the_marker_and_what_follows_moves_by_the_difference() -> None:
    r = redact(TEXT, [Span(17, 29)])
    assert r.text == "Hi. My number is [erased]. Bye."
    assert r.range(31, 35) == (27, 31) and r.text[27:31] == "Bye."  # untouched, moved
    assert r.range(0, 3) == (0, 3)
    # A range that reached into the span reaches over its marker.
    assert r.text[slice(*r.range(4, 30))] == "My number is [erased]."
    assert r.touches(4, 30) and not r.touches(0, 3) and not r.touches(29, 30)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab 🚀é.", min_size=1, max_size=60), st.data())
def test_every_range_apart_from_the_spans_slices_the_same_words(text: str,
                                                                data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    spans = [Span(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if b > a]
    spans = [s for i, s in enumerate(spans) if i == 0 or s.start >= spans[i - 1].end]
    r = redact(text, spans)
    assert r.text.count(MARKER) >= len(spans)
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    start, end = r.range(a, b)
    if not r.touches(a, b):
        assert r.text[start:end] == text[a:b]
    elif b > a:
        assert MARKER in r.text[start:end]
    # Whatever was erased is not in what the range now slices.
    for gone in r.erased():
        if len(gone) >= 3 and gone not in r.text.replace(MARKER, ""):
            assert gone not in r.text[start:end]


def test_a_span_across_two_fragments_is_cut_at_their_bound_and_the_gap_stays() -> None:
    text = "One two.\n\nThree four."
    frags = [Span(0, 8), Span(10, 21)]
    pieces = clip([Span(4, 15)], frags)
    assert pieces == [Span(4, 8), Span(10, 15)]
    assert redact(text, pieces).text == "One [erased]\n\n[erased] four."
    assert occurrences("aaaa", "aa") == [Span(0, 2), Span(1, 3), Span(2, 4)]


def test_a_string_is_found_as_json_writes_it() -> None:
    secret = 'Ana "Bee" Müller'
    found = needles([secret, "abc"])
    doc = json.dumps({"note": f"call {secret}"})
    ascii_doc = json.dumps({"note": f"call {secret}"}, ensure_ascii=True)
    inner = json.dumps({"args": json.dumps({"q": secret})})
    for d in (doc, ascii_doc, inner):
        assert secret not in json.loads(scrub(d, found)).__repr__()
        json.loads(scrub(d, found))  # still JSON
    assert scrub("abc and Ana", found) == "abc and Ana"  # shorter than 4: left
    assert scrub_json(doc, found) == json.dumps({"note": f"call {MARKER}"})


def test_premises_that_would_read_alike_are_kept_apart() -> None:
    found = needles(["0170 1234567", "0170 7654321"])
    renames = rename_apart(["Call 0170 1234567", "Call 0170 7654321", "Call [erased]",
                            "Budget"], found)
    assert renames == {"Call 0170 1234567": "Call [erased] (2)",
                       "Call 0170 7654321": "Call [erased] (3)"}


REQUESTS = {
    "Please forget my phone number.": ("en", "phone number"),
    "Could you please delete my address?": ("en", "address"),
    "Forget what I said about the budget.": ("en", "budget"),
    "Actually, please forget my social security number, it was a mistake.":
        ("en", "social security number"),
    "Vergiss bitte meine Telefonnummer.": ("de", "Telefonnummer"),
    "Bitte lösche meine Adresse.": ("de", "Adresse"),
    "Kannst du bitte meine Nummer vergessen?": ("de", "Nummer"),
    "Löschen Sie meine Telefonnummer.": ("de", "Telefonnummer"),
    "请忘记我的电话号码。": ("zh", "电话号码"),
    "请把我的电话号码删掉吧": ("zh", "电话号码"),
    "你能忘记我说的预算吗？": ("zh", "预算"),
}
NOT_REQUESTS = [
    "Don't forget my number.", "I forgot my keys.", "Remove the old banner from the website.",
    "The launch is planned for June 12.", "Forget it.", "Vergiss nicht meine Nummer.",
    "Ich habe meine Nummer vergessen.", "别忘了我的电话号码", "删除旧的横幅", "我忘了钥匙",
    "We never delete customer records.",
]


def test_a_request_to_forget_is_read_from_its_form_in_three_languages() -> None:
    for text, (language, words) in REQUESTS.items():
        found = read_request(text)
        assert found is not None, text
        assert (found.language, found.words) == (language, words), text
    for text in NOT_REQUESTS:
        assert read_request(text) is None, text
