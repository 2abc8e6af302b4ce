"""Copies through a reference (``WritePlan.reference_copies``, ``WritePlan.copied_by``, learned by
``interpreter/plans/reference_copies``).

A member one type's entities hold as a copy of a member of the entity their reference names (an
item's ``tax_rate``, the ``rate`` of the tax rule its ``tax_rule`` names):

* a create or update writing the reference takes the copy from the named entity as the state holds
  it now, never the exemplar's value; a reference naming no held entity, or entities of one id
  holding different values, is refused, state unchanged. An unproven copy (one value throughout:
  a copy or a constant, the capture cannot tell) is served only where the named entity holds the
  value the plan would answer, and refused elsewhere. The gate replays the recorded calls
  through this too, so the plan is served only when the capture's own reads agree;
* an update of the named type changing the copied member while held entities name the entity is
  refused, state unchanged: the application rewrites their copies, which this environment does
  not model. The gate does not run this check (``WriteEnv.checks_references``): it replays the
  calls the application accepted.
"""

from __future__ import annotations

import copy
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.serving.state.index import StateIndex, key_of

from .calls import WriteRefusal

SHOWN = 3


def copy_referenced(plan: WritePlan, state: StateIndex, entity: dict[str, Any], *, creating: bool) -> dict[str, Any]:
    """The copied fields' values for ``entity`` (the values the write computed, merged over what it
    held), each read from the entity its reference names; an update whose entity names nothing
    keeps its copy."""
    values: dict[str, Any] = {}
    for rule in plan.reference_copies:
        named = entity.get(rule.member)
        if isinstance(named, bool) or not isinstance(named, (str, int)):
            if creating:
                raise WriteRefusal(f"field {rule.field!r} copies the {rule.source!r} of the {rule.source_type} entity "
                                   f"{rule.member!r} names, and this call names none "
                                   f"({dumps(named).decode() if named is not None else 'no value'}): send "
                                   f"{rule.member!r} as the id of a held {rule.source_type} entity")
            continue
        held = [c.entities[key_of(named)] for c in state.collections_of(rule.source_type)
                if key_of(named) in c.entities]
        copies = [h[rule.source] for h in held if rule.source in h]
        if not copies:
            raise WriteRefusal(f"field {rule.field!r} copies the {rule.source!r} of the {rule.source_type} entity "
                               f"{rule.member!r} names, and the state holds no {rule.source_type} entity "
                               f"{named!r} holding it: send {rule.member!r} as the id of a held one")
        if any(not same_json(c, copies[0]) for c in copies[1:]):
            raise WriteRefusal(f"{len(copies)} {rule.source_type} entities {named!r} hold different "
                               f"{rule.source!r} values, which field {rule.field!r} copies: {rule.member!r} "
                               "names no one of them")
        if not rule.proven and not same_json(copies[0], entity.get(rule.field)):
            answered = dumps(entity[rule.field]).decode() if rule.field in entity else "nothing"
            raise WriteRefusal(f"field {rule.field!r} would be answered {answered}, and every entity the capture "
                               f"shows naming a {rule.source_type} entity by {rule.member!r} holds that entity's "
                               f"{rule.source!r} there, always one value: a copy or a constant, the capture cannot "
                               f"tell; the {rule.source_type} entity {named!r} holds {dumps(copies[0]).decode()}, so "
                               f"either answer may be wrong: send {rule.member!r} naming a {rule.source_type} entity "
                               f"whose {rule.source!r} is {answered}")
        values[rule.field] = copy.deepcopy(copies[0])
    return values


def rewrite_copies(plan: WritePlan, state: StateIndex, before: dict[str, Any], values: dict[str, Any],
                   updated: dict[str, Any]) -> dict[str, Any]:
    """An update's copies, where the call writes the reference (``values``: what its rules wrote):
    read from the entity the reference names now; one its rules do not write refused if it would change."""
    rewritten = tuple(r for r in plan.reference_copies if r.member in values)
    if not rewritten:
        return {}
    copies = copy_referenced(plan.model_copy(update={"reference_copies": rewritten}), state, updated, creating=False)
    refuse_unwritten_copies(plan, before, copies)
    return copies


def refuse_unwritten_copies(plan: WritePlan, before: dict[str, Any], copies: dict[str, Any]) -> None:
    """Refuse an update re-pointing a reference so that a copy its rules do not write would change:
    no recorded call of the tool shows the application rewriting it."""
    written = {f.field for f in plan.fields}
    for rule in plan.reference_copies:
        if rule.field in copies and rule.field not in written and not same_json(copies[rule.field],
                                                                                 before.get(rule.field)):
            held = dumps(before[rule.field]).decode() if rule.field in before else "nothing"
            raise WriteRefusal(f"field {rule.field!r} copies the {rule.source!r} of the {rule.source_type} entity "
                               f"{rule.member!r} names, and this call would change it from {held} to "
                               f"{dumps(copies[rule.field]).decode()}, which no recorded call of this tool shows: "
                               f"send {rule.member!r} naming a {rule.source_type} entity whose {rule.source!r} is "
                               f"{held}")


def refuse_stale_copies(plan: WritePlan, state: StateIndex, key: str, before: dict[str, Any],
                        after: dict[str, Any]) -> None:
    """Refuse an update changing a member held entities copy while they name this entity."""
    for rule in plan.copied_by:
        if rule.source not in after or (rule.source in before and same_json(before[rule.source], after[rule.source])):
            continue
        naming = [(c, k) for c in state.collections_of(rule.holder) for k, held in c.entities.items()
                  if _names(held.get(rule.member), key)]
        if not naming:
            continue
        shown = ", ".join(repr(c.ids.get(k, k)) for c, k in naming[:SHOWN])
        more = f" and {len(naming) - SHOWN} more" if len(naming) > SHOWN else ""
        held_value = dumps(before[rule.source]).decode() if rule.source in before else "nothing"
        raise WriteRefusal(f"{len(naming)} held {rule.holder} entit{'y' if len(naming) == 1 else 'ies'} ({shown}{more}) "
                           f"name{'s' if len(naming) == 1 else ''} this {plan.type} entity by {rule.member!r} and "
                           f"hold{'s' if len(naming) == 1 else ''} a copy of its {rule.source!r} as "
                           f"{rule.field!r}; the application rewrites those copies, which this environment does not "
                           f"model: send {rule.source!r} as it holds it ({held_value}), or first point those "
                           f"entities' {rule.member!r} elsewhere")


def _names(value: Any, key: str) -> bool:
    if isinstance(value, (dict, list, bool)) or value is None:
        return False
    return key_of(value) == key
