"""The decisions a write flags needs_review, each with why (its review_reason, as JSON)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from afterhack.model.writes import Flag


def flags(reasons: Mapping[str, object], **why: object) -> list[Flag]:
    """One flag per decision of ``reasons`` (decision id -> the reasons the relabel gave),
    its review_reason ``why`` with those reasons last."""
    return [{"id": i, "reason": json.dumps({**why, "reasons": r})} for i, r in reasons.items()]
