"""Lists refused while an updated or created entity's place in them is unknown
(``HeldCollection.unplaced``; ``WritePlan.list_place``, table ``update-list-places``; an
``InsertRule.unproven``, table ``insert-candidates``).

Serving keeps an updated entity where its collection held it. Where the capture never showed a
list read after an update of an entity that was not last, the application may list it elsewhere
(PostgreSQL's storage order puts an updated row last: Unleash lists ``squad`` before ``simple``
once ``simple`` was updated), so once a served update changed such an entity, a list of its
collection showing it beside another is refused, saying why and what is answered.
"""

from __future__ import annotations

from typing import Any

from capenv.serving.read_call import CallRefused
from capenv.serving.state.index import HeldCollection


def refuse_unplaced(held: HeldCollection | None, type_name: str) -> None:
    """Refuse a list of ``held`` while it holds an entity an update left unplaced, beside another."""
    if held is None or len(held.order) < 2 or not held.unplaced:
        return
    moved = [key for key in held.order if key in held.unplaced]
    if not moved:
        return
    shown = ", ".join(repr(_id(held, key)) for key in moved[:3]) + (" and more" if len(moved) > 3 else "")
    raise CallRefused(
        f"this {type_name} list is not modelled over the current state: a served create or update placed {shown}, "
        f"and the capture never showed where the application lists such a {type_name} (an update may keep its place "
        "or move it last, as an unsorted table's storage order does, or first, as a list newest first does; a create "
        "listed first may be ordered by another of its members, which the recorded list orders alike; a create sorted "
        "by a name may be listed last instead, in the order the entities were made, which the recorded lists follow "
        "alike); "
        "an item read of it, where the capture shows one, answers it, and the list answers again after data/reset "
        "or data/add", http_status=409)


def _id(held: HeldCollection, key: str) -> Any:
    return held.ids.get(key, key)
