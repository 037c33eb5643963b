"""What keeps two statements with differing values apart (facts/scope.py), what makes two
names one (facts/places.py), and the values read as people say them: each guard holds with a
model that finds every two words the same, so it is the reading that keeps them apart."""

from __future__ import annotations

import pytest

from afterhack.facts import Bar, judge_statements, read
from afterhack.facts.places import same_name
from afterhack_tools.bench.meaning import for_pairs


class Alike:
    """A model that finds every two texts the same: nothing is kept apart by meaning."""

    bar = Bar(same_language=0.9, across_languages=0.9)

    def similarity(self, a: str, b: str) -> float | None:
        return 1.0


@pytest.mark.parametrize(("a", "b", "why"), [
    # Another period.
    ("Last season the club sold 900 memberships.", "This season the club sold 1,100 "
     "memberships.", "about another period"),
    ("三季度利润为200万元。", "四季度利润为260万元。", "about another period"),
    ("Membership fees in 2022 came to $40,000.", "This year membership fees are $52,000.",
     "about another period"),
    ("The winter schedule has the bus leaving at 7:10.", "On the summer schedule the bus "
     "leaves at 6:50.", "about another period"),
    # A plan against what came of it.
    ("We planned 10 days for the office move.", "The office move took 14 days in the end.",
     "a plan against what came of it"),
    ("我们预计有80人参加培训。", "培训实际来了65人。", "a plan against what came of it"),
    # Two German compounds on one head, with another first part.
    ("Das Wartungsbudget beträgt 8.000 Euro.", "Das Schulungsbudget beträgt 5.000 Euro.",
     "another one in the same place"),
    # Another name, a first name opening the sentence among them.
    ("Mia pays €700 a month in rent.", "Leo's rent is €650 a month.", "about another one"),
    # Two sides of one attribute; a rate against a total.
    ("The fair opens on 2 June.", "The fair closes on 9 June.", "another attribute"),
    ("The bike rental costs €15 per day.", "The bike rental for the week costs €80.",
     "a rate against a total"),
])
def test_a_scope_keeps_them_apart_whatever_the_model_says(a: str, b: str, why: str) -> None:
    j = judge_statements(a, b, Alike())
    assert j.verdict == "compatible" and j.reason.startswith(why), j.reason


class Unlike:
    """A model that finds two different texts unlike, and its own vectors nearest."""

    bar = Bar(same_language=0.9, across_languages=0.85)

    def similarity(self, a: str, b: str) -> float | None:
        return 1.0 if a == b else 0.5


@pytest.mark.parametrize(("a", "b", "why"), [
    ("The minimum deposit is €200.", "The maximum deposit is €900.",
     "another one in the same place"),
    ("The night shift starts at 22:00.", "The early shift starts at 06:00.",
     "another one in the same place"),
    ("The studio has 4 cameras.", "The studio has 6 microphones.", "another thing counted"),
    ("仓库有30台叉车。", "仓库有12个货架。", "another thing counted"),
])
def test_another_word_in_the_same_place_unless_it_means_the_same(a: str, b: str,
                                                                   why: str) -> None:
    """A word of each side between the same words, or after a count, that the model finds
    unlike keeps them apart; one the model finds the same is a rewording."""
    j = judge_statements(a, b, Unlike())
    assert j.verdict == "compatible" and j.reason.startswith(why), j.reason
    assert judge_statements(a, b, Alike()).verdict == "contradicts"


@pytest.mark.parametrize(("a", "b"), [
    ("The launch is planned for May 2.", "The launch will be on May 9."),
    ("The bus seats 40 people.", "The bus has room for 45 passengers."),
    ("The hearing in the Meyer case is set for 3 May.", "The Meyer hearing is on 10 May."),
    ("Das Betriebsfest ist am 4. Juli.", "Das Betriebsfest findet am 11. Juli statt."),
])
def test_one_fact_said_twice_still_conflicts(a: str, b: str) -> None:
    assert judge_statements(a, b, Alike()).verdict == "contradicts"


@pytest.mark.parametrize(("a", "b"), [
    ("Cologne", "Köln"), ("Munich", "München"), ("Beijing", "北京"), ("Peking", "北京"),
    ("Shenzhen", "深圳"), ("刘洋", "Liu Yang"), ("Vienna", "Wien"),
])
def test_one_name_in_two_languages(a: str, b: str) -> None:
    assert same_name(a, b)


@pytest.mark.parametrize(("a", "b"), [("Cologne", "Bonn"), ("北京", "Shanghai"),
                                      ("刘洋", "Wang Lei")])
def test_two_names_stay_two(a: str, b: str) -> None:
    assert not same_name(a, b)


def test_a_place_restated_in_another_language_raises_nothing() -> None:
    for a, b in [("The trade show is in Cologne.", "Die Fachmesse findet in Köln statt."),
                 ("Our warehouse is in Shenzhen.", "我们的仓库位于深圳。")]:
        assert judge_statements(a, b, Alike()).verdict != "contradicts", (a, b)


@pytest.mark.parametrize(("statement", "kind", "norms"), [
    ("The ferry leaves at half past four.", "time", {(270, True)}),
    ("The ferry leaves at ten to three in the afternoon.", "time", {(890, False)}),
    ("Der Bus fährt um halb acht.", "time", {(450, True)}),
    ("Der Bus fährt um Viertel nach sieben.", "time", {(435, True)}),
    ("Die Sitzung beginnt um drei Uhr nachmittags.", "time", {(900, False)}),
    ("The audit is on the twelfth of June.", "date", {(None, 6, 12, None)}),
    ("The fair runs from 8 to 10 October.", "date", {(None, 10, 8, None), (None, 10, 10, None)}),
    ("The shop is closed on 24, 25 and 26 December.", "date",
     {(None, 12, 24, None), (None, 12, 25, None), (None, 12, 26, None)}),
    ("The group has about 1.5k members.", "number", {("", 1500.0)}),
])
def test_values_as_people_say_them(statement: str, kind: str, norms: set[object]) -> None:
    assert {v.norm for v in read(statement).values.get(kind, ())} == norms  # type: ignore[call-overload]


def test_a_range_holds_the_day_it_starts_on() -> None:
    j = judge_statements("The fair runs from 8 to 10 October.", "The fair opens on 8 October.")
    assert j.verdict != "contradicts"


def test_chinese_names_are_values_or_the_subjects() -> None:
    r = read("这个项目由张伟负责。")
    assert [v.text for v in r.values["person"]] == ["张伟"]
    branch = read("北京分公司九点上班。")
    assert "person" not in branch.values and "place" not in branch.values


@pytest.mark.xfail(strict=True, reason=(
    "the offline embedding finds co-hyponyms alike ('alpha' and 'beta' before 'launch'), "
    "so a word in the same place that names another one of a kind is taken for a "
    "rewording; a known miss of the meaning guard, kept visible until it is read apart"))
def test_labels_of_one_kind_in_the_same_place_stay_apart() -> None:
    a, b = "The alpha launch is planned for June 12.", "The beta launch is planned for June 19."
    meaning = for_pairs([(a, b)])
    if meaning is None:
        pytest.skip("the offline embedding model is not installed")
    assert judge_statements(a, b, meaning).verdict == "compatible"


def test_two_things_timed_from_one_event_are_two_facts() -> None:
    """The event a relative time is measured from is not the statement's subject: the
    campaign's start and the partners' briefing, each some weeks before the launch, are two
    facts; the campaign's start said twice is one."""
    a = "The campaign starts two weeks before the launch."
    b = "Partners receive a briefing one week before the launch."
    again = "The campaign starts one week before the launch."
    meaning = for_pairs([(a, b), (a, again)])
    if meaning is None:
        pytest.skip("the offline embedding model is not installed")
    assert judge_statements(a, b, meaning).verdict == "compatible"
    assert judge_statements(a, again, meaning).verdict == "contradicts"
