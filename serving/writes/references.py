"""Refuse a create or update whose body names another type's entity the state does not hold
(``WritePlan.references``, learned by ``interpreter/plans/references``).

A reference whose dangling values the capture shows the application accepting is not checked; any
other is: a value naming no held entity (a blank one too, unless a recorded success sent it) is
refused with the state unchanged, since the application refuses it (a recorded refusal shows it)
or may (nothing recorded shows it accepting one), and answering a write the application would
refuse is a wrong answer. The gate does not run this check (``WriteEnv.checks_references``): it
replays the calls the application accepted, each naming what the capture showed it holding, or
the plan would not check the member.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import ReferenceRule, WritePlan
from capenv.interpreter.bundle.rule_data import setting_value
from capenv.interpreter.bundle.values import same_json
from capenv.serving.state.index import StateIndex, key_of

from .calls import WriteRefusal


def check_references(plan: WritePlan, body: dict[str, Any], state: StateIndex) -> None:
    """Refuse the call when a checked reference it sends names no entity the state holds."""
    for reference in plan.references:
        if not reference.checked or reference.member not in body:
            continue
        value = body[reference.member]
        if any(same_json(value, blank) for blank in reference.blanks):
            continue
        if not _names_held(value, reference.type, state):
            raise WriteRefusal(refusal_message(reference, value, _held_ids(reference.type, state)))


def _names_held(value: Any, type_name: str, state: StateIndex) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return False
    key = key_of(value)
    return any(key in collection.entities for collection in state.collections_of(type_name))


def _held_ids(type_name: str, state: StateIndex) -> list[str]:
    """The ids the state holds of the type, when few enough to name in a refusal (else none)."""
    ids = list(dict.fromkeys(key for collection in state.collections_of(type_name) for key in collection.entities))
    return ids if len(ids) <= int(setting_value("plans", "reference_refusal_listed_ids")) else []


def refusal_message(reference: ReferenceRule, value: Any, held: list[str] | None = None) -> str:
    """What was refused, what would be accepted (the held ids, when few), and why this environment refuses it."""
    accepted = "send the id of one it holds" + (f" ({', '.join(held)})" if held else "")
    if reference.blanks:
        accepted += ", or " + " or ".join(dumps(b).decode() for b in reference.blanks)
    if reference.dangling == "refused":
        why = (f"the application refuses a {reference.member!r} naming none"
               + (f" (recorded call {reference.record})" if reference.record is not None else ""))
    else:
        why = (f"no recorded call shows the application accepting a {reference.member!r} naming none, so this "
               "environment does not assume it would")
    return (f"member {reference.member!r} is {dumps(value).decode()}: the state holds no {reference.type} entity "
            f"with that id (at {reference.collection_template}); {accepted}; {why}")
