"""A labelled set of sentence pairs for the offline contradiction detector.

Written before the detector was, as a reviewer would label them: half are contradictions of
every kind the detector names (date, time, number, amount, place, person), half are near
misses that share words or values but do not contradict (another attribute of the same
subject, another subject, the same value restated, start vs end, opens vs closes).

Every third pair is held out (``split == "held_out"``): the detector was tuned on the other
two thirds only, and the held-out figures say how far that tuning generalises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Split = Literal["dev", "held_out"]
Category = Literal["date", "time", "number", "amount", "place", "person", "other_attribute",
                   "other_subject", "restated", "start_vs_end", "opens_vs_closes"]
CONTRADICTION_KINDS: tuple[Category, ...] = ("date", "time", "number", "amount", "place",
                                             "person")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    category: Category
    split: Split

    @property
    def contradicts(self) -> bool:
        return self.category in CONTRADICTION_KINDS


_RAW: list[tuple[Category, str, str]] = [
    # Contradictions: same subject, another value of the same type.
    ("date", "The product launch is planned for June 12.", "The product launch moves to June 19."),
    ("date", "The board meeting is scheduled for March 3.",
     "The board meeting will take place on March 10."),
    ("date", "The contract expires on 31 December 2025.", "The contract expires on 30 June 2026."),
    ("date", "The office move happens on 2025-09-01.", "The office move is set for 2025-10-01."),
    ("date", "The migration cutover is on Saturday, May 17.",
     "The migration cutover is on Saturday, May 24."),
    ("date", "Registration closes on April 30.", "Registration closes on May 15."),
    ("date", "The audit starts on 4 November.", "The audit starts on 18 November."),
    ("date", "Our fiscal year ends on March 31.", "Our fiscal year ends on December 31."),
    ("date", "The beta release ships on Oct 2.", "The beta release ships on October 9."),
    ("time", "The all-hands meeting starts at 10:00.", "The all-hands meeting starts at 14:00."),
    ("time", "The keynote begins at 9 am.", "The keynote begins at 11 am."),
    ("time", "The store opens at 8:30 a.m.", "The store opens at 10 a.m."),
    ("time", "The daily standup is at 9:15.", "The daily standup is at 9:45."),
    ("time", "The shuttle leaves the hotel at 7pm.", "The shuttle leaves the hotel at 6:30pm."),
    ("time", "The maintenance window starts at 02:00 UTC.",
     "The maintenance window starts at 04:00 UTC."),
    ("time", "Check-in at the venue opens at noon.", "Check-in at the venue opens at 3 pm."),
    ("time", "The webinar is at 16:00 CET.", "The webinar is at 17:00 CET."),
    ("number", "The venue holds 300 guests.", "The venue holds 450 guests."),
    ("number", "The team has 12 engineers.", "The team has 9 engineers."),
    ("number", "We expect 2,000 attendees at the conference.",
     "We expect 3,500 attendees at the conference."),
    ("number", "The warehouse has 4 loading docks.", "The warehouse has 6 loading docks."),
    ("number", "The pilot runs in 25 stores.", "The pilot runs in 40 stores."),
    ("number", "The API allows 100 requests per minute.",
     "The API allows 500 requests per minute."),
    ("number", "The training course lasts 3 days.", "The training course lasts 5 days."),
    ("amount", "The launch budget is $50,000.", "The launch budget is $75,000."),
    ("amount", "The annual license costs €12,000.", "The annual license costs €9,500."),
    ("amount", "The catering quote came in at 4,200 USD.",
     "The catering quote came in at 5,100 USD."),
    ("amount", "The seed round raised $2 million.", "The seed round raised $3.5 million."),
    ("amount", "Each ticket is priced at £45.", "Each ticket is priced at £60."),
    ("amount", "The monthly hosting bill is $1,800.", "The monthly hosting bill is $2,400."),
    ("amount", "The project's total cost is 120k EUR.", "The project's total cost is 150k EUR."),
    ("place", "The offsite will be held in Lisbon.", "The offsite will be held in Porto."),
    ("place", "The launch event takes place at the Grand Hotel.",
     "The launch event takes place at the Riverside Pavilion."),
    ("place", "The conference is in Berlin.", "The conference moves to Munich."),
    ("place", "The new data center is located in Frankfurt.",
     "The new data center is located in Dublin."),
    ("place", "Our headquarters are in Austin.", "Our headquarters are in Denver."),
    ("place", "The workshop is in Room 204.", "The workshop is in Room 310."),
    ("place", "The team dinner is at Luigi's Trattoria.", "The team dinner is at The Blue Door."),
    ("person", "The project lead is Maria Lopez.", "The project lead is Tom Becker."),
    ("person", "The keynote will be given by Dr. Anna Schmidt.",
     "The keynote will be given by James Carter."),
    ("person", "Sarah Kim owns the vendor contract.", "David Ng owns the vendor contract."),
    ("person", "The release manager for 4.2 is Priya Patel.",
     "The release manager for 4.2 is Luis Romero."),
    ("person", "Payments are approved by Karen Wu.", "Payments are approved by Omar Haddad."),
    ("person", "The on-call engineer this week is Ben Ortiz.",
     "The on-call engineer this week is Lena Fischer."),
    ("person", "The contract was signed by Peter Hall.", "The contract was signed by Julia Meyer."),
    # Near misses: they share a subject, a value or a shape, and do not contradict.
    ("other_attribute", "The product launch is planned for June 12.",
     "The product launch venue is the Grand Hotel."),
    ("other_attribute", "The launch budget is $50,000.", "The launch is planned for June 12."),
    ("other_attribute", "The venue holds 300 guests.", "The venue is located in Lisbon."),
    ("other_attribute", "The conference is in Berlin.", "The conference has 2,000 attendees."),
    ("other_attribute", "The project lead is Maria Lopez.", "The project deadline is May 30."),
    ("other_attribute", "The annual license costs €12,000.",
     "The annual license covers 50 users."),
    ("other_attribute", "The keynote begins at 9 am.",
     "The keynote will be given by James Carter."),
    ("other_attribute", "The offsite will be held in Lisbon.", "The offsite lasts 3 days."),
    ("other_attribute", "The training course lasts 3 days.", "The training course costs $1,200."),
    ("other_subject", "The product launch is planned for June 12.",
     "The partner summit is planned for June 19."),
    ("other_subject", "The Berlin office opens on May 3.", "The Paris office opens on May 10."),
    ("other_subject", "The marketing budget is $50,000.", "The engineering budget is $75,000."),
    ("other_subject", "The backend team has 12 engineers.", "The mobile team has 9 engineers."),
    ("other_subject", "The keynote begins at 9 am.", "The closing panel begins at 4 pm."),
    ("other_subject", "Maria Lopez leads the design team.", "Tom Becker leads the data team."),
    ("other_subject", "Flight LH 402 departs at 10:15.", "Flight LH 408 departs at 13:40."),
    ("other_subject", "Invoice 1043 is due on March 3.", "Invoice 1057 is due on March 17."),
    ("other_subject", "The staging database runs in Frankfurt.",
     "The production database runs in Dublin."),
    ("restated", "The product launch is planned for June 12.", "The launch is on June 12."),
    ("restated", "The launch budget is $50,000.", "We have a budget of $50,000 for the launch."),
    ("restated", "The offsite will be held in Lisbon.", "The offsite takes place in Lisbon."),
    ("restated", "The project lead is Maria Lopez.", "Maria Lopez is the project lead."),
    ("restated", "The all-hands meeting starts at 10:00.",
     "The all-hands meeting starts at 10 am."),
    ("restated", "The venue holds 300 guests.", "The venue has a capacity of 300 guests."),
    ("restated", "The contract expires on 31 December 2025.",
     "The contract expires on December 31, 2025."),
    ("restated", "The seed round raised $2 million.", "The seed round raised $2,000,000."),
    ("restated", "The team has 12 engineers.", "There are twelve engineers on the team."),
    ("start_vs_end", "The conference starts on May 3.", "The conference ends on May 5."),
    ("start_vs_end", "The maintenance window starts at 02:00 UTC.",
     "The maintenance window ends at 04:00 UTC."),
    ("start_vs_end", "The promotion begins on November 1.",
     "The promotion finishes on November 30."),
    ("start_vs_end", "The sprint starts on Monday, March 3.",
     "The sprint ends on Friday, March 14."),
    ("start_vs_end", "The lease begins on 1 January 2025.",
     "The lease expires on 31 December 2027."),
    ("start_vs_end", "Boarding starts at 9:40.", "Boarding ends at 10:05."),
    ("start_vs_end", "The festival kicks off on July 4.", "The festival wraps up on July 7."),
    ("start_vs_end", "The shift starts at 6 am.", "The shift finishes at 2 pm."),
    ("start_vs_end", "The first session starts at 9:00.", "The last session ends at 17:30."),
    ("opens_vs_closes", "The store opens at 8:30 a.m.", "The store closes at 6 p.m."),
    ("opens_vs_closes", "Registration opens on March 1.", "Registration closes on April 30."),
    ("opens_vs_closes", "The call for papers opens on January 15.",
     "The call for papers closes on February 28."),
    ("opens_vs_closes", "The exhibition opens to the public on April 2.",
     "The exhibition closes to the public on June 30."),
    ("opens_vs_closes", "The museum opens at 10:00 on Sundays.",
     "The museum closes at 18:00 on Sundays."),
    ("opens_vs_closes", "The voting window opens at 9 am.", "The voting window closes at 8 pm."),
    ("opens_vs_closes", "The cafeteria opens at 7:00.", "The cafeteria closes at 15:00."),
    ("opens_vs_closes", "Applications open on 1 September.", "Applications close on 15 October."),
    ("opens_vs_closes", "The bridge opens to traffic on May 20.",
     "The bridge closes to traffic on May 27."),
]

PAIRS: tuple[Pair, ...] = tuple(
    Pair(a, b, cat, "held_out" if i % 3 == 2 else "dev") for i, (cat, a, b) in enumerate(_RAW))
