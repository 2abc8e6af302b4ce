"""Refuse a write whose entity another state type holds a copy of (``WritePlan.copy_holders``).

The capture shows another type's entities copying the written type's under the same id (a group's
member list holding its users as ``{id, name, login}``). The application changes or drops that copy
with the entity; this environment changes one type alone (write-effects, Not modelled: copies of
entities in other collections), so a served write would leave the copy answering stale. A call is
refused, state unchanged, while a held entity of such a type copies the entity: for an update, one
showing a member the update changes (a copy of other members stays right), for a delete, any. The
rest are served, and the tool's description says which calls are refused.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.values import same_json
from capenv.serving.read_call import quoted
from capenv.serving.state.index import StateIndex

from .calls import WriteRefusal


def refuse_held_copies(holders: tuple[str, ...], state: StateIndex, key: str, entity: dict[str, Any],
                       updated: dict[str, Any] | None, id_field: str, type_name: str, listed: int) -> None:
    """``holders``: the types whose entities copy the written type's; ``entity``: the written entity
    as held; ``updated``: as the update would leave it (None: a delete); ``listed``: the members and
    places the refusal names at most (the budget ``values_quoted``)."""
    identity = entity.get(id_field)
    if updated is None:
        changed = None
    else:
        changed = [f for f, v in updated.items()
                   if f != id_field and (f not in entity or not same_json(entity[f], v))]
        if not changed:
            return
    places: list[str] = []
    shown: list[str] = []
    for holder in holders:
        for held in state.collections_of(holder):
            copy = held.entities.get(key)
            if not isinstance(copy, dict) or not same_json(copy.get(id_field), identity):
                continue
            copied = [f for f in (changed if changed is not None else ()) if f in copy]
            if changed is not None and not copied:
                continue
            places.append(held.path)
            shown.extend(f for f in copied if f not in shown)
    if not places:
        return
    what = ("a delete is not served" if updated is None else
            f"an update changing {quoted(shown, listed)} is not served; an update of other members is")
    raise WriteRefusal(
        f"the {type_name} entity {identity!r} is copied by held {', '.join(holders)} entities under its "
        f"{id_field} ({quoted(places, listed)}): the application changes or drops that copy with it, which this "
        f"environment does not model, so {what}")
