"""Texts the tests feed the memory: the offline model reads one claim from each sentence.

The two memos disagree on the launch date: March says June 12 and names the venue, April
moves the launch to June 19 and names the keynote speaker.
"""

from __future__ import annotations

JUNE = "The product launch is planned for June 12."
JULY = "The product launch is planned for July 15."
KEYNOTE = "The keynote speaker is Dana Reyes."

JUNE12 = JUNE
JUNE19 = "The launch moves to June 19."
VENUE = "The launch venue is the Grand Hotel."
MARCH = f"{JUNE12} {VENUE}"
APRIL = f"{JUNE19} The keynote speaker is Maria Lopez."
