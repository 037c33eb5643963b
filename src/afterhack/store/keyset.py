"""The parameters of a keyset page (paging.py): a list's query reads the items after the
position ``$at_after, $id_after`` in its order, and every item when both are null."""

from __future__ import annotations

from afterhack.model.pages import After


def after_params(after: After | None) -> dict[str, object]:
    return {"at_after": after.at if after else None, "id_after": after.id if after else None}
