"""Refuse a delete of an entity the state holds a reference to (``WritePlan.referrers``, learned by
``interpreter/plans/referrers``).

A delete models the entity alone. An application deleting an entity others name may delete them
along (Redmine drops a project's issues), clear their reference or refuse, so serving such a
delete would leave every later read of the referring entities answering what the application no
longer would. Deletes of entities nothing names are served as before. The gate does not run this
check (``WriteEnv.checks_references``): it replays the calls the application accepted.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import Referrer, WritePlan
from capenv.serving.state.index import StateIndex, key_of

from .calls import WriteRefusal

SHOWN = 3


def refuse_referenced(plan: WritePlan, state: StateIndex, key: str, entity: dict[str, Any], id_field: str,
                      deleted: frozenset[str] = frozenset()) -> None:
    """Refuse the delete when an entity the state holds names this one by a referrer member; the
    entities of ``plan.type`` keyed in ``deleted`` (a bulk delete's others) go with it and count not."""
    target = entity.get(id_field, key)
    if isinstance(target, (dict, list, bool)) or target is None:
        return
    wanted = key_of(target)
    found: list[tuple[Referrer, Any]] = []
    for referrer in plan.referrers:
        for collection in state.collections_of(referrer.type):
            for held_key, held in collection.entities.items():
                if referrer.type == plan.type and (held_key == key or held_key in deleted):
                    continue  # the entity itself, or one deleted with it
                if _names(held, referrer, wanted):
                    found.append((referrer, collection.ids.get(held_key, held_key)))
    if found:
        shown = ", ".join(f"{r.type} {i!r} ({r.spelled})" for r, i in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise WriteRefusal(f"{len(found)} held entit{'y names' if len(found) == 1 else 'ies name'} this "
                           f"{plan.type} entity: {shown}{more}; the application may delete them with it, clear "
                           "their reference or refuse the delete, which this environment does not model (a delete "
                           "removes the entity alone): delete or change those first, then this one")


def _names(held: dict[str, Any], referrer: Referrer, wanted: str) -> bool:
    """Any value of the referrer's member in ``held`` (through the objects ``within`` leads to) names ``wanted``."""
    for value in referrer.holders(held):
        if referrer.many:
            if isinstance(value, list) and any(_named(element, referrer, wanted) for element in value):
                return True
        elif _named(value, referrer, wanted):
            return True
    return False


def _named(value: Any, referrer: Referrer, wanted: str) -> bool:
    if referrer.id_member is not None:
        value = value.get(referrer.id_member) if isinstance(value, dict) else None
    if isinstance(value, (dict, list, bool)) or value is None:
        return False
    return key_of(value) == wanted
