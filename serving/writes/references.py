"""Refuse a create or update whose body names another type's entity the state does not hold
(``WritePlan.references``, learned by ``interpreter/plans/references``).

A reference whose dangling values the capture shows the application accepting is not checked; any
other is: a value naming no held entity (a blank one too, unless a recorded success sent it) is
refused with the state unchanged, since the application refuses it (a recorded refusal shows it)
or may (nothing recorded shows it accepting one), and answering a write the application would
refuse is a wrong answer. The gate does not run this check (``WriteEnv.checks_references``): it
replays the calls the application accepted, each naming what the capture showed it holding, or
the plan would not check the member.

A referenced type whose collection lies under the parent the write's own collection names (a
submission's ``track`` at /events/{event_id}/tracks/, the submission at /events/{event_id}/submissions/)
is looked up under that parent alone: an entity another parent holds (another event's track) is
no entity this call may name (pretalx answers 400 'Invalid pk'), and is refused as a missing one.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import ReferenceRule, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.rule_data import setting_value
from capenv.interpreter.bundle.values import decode_once, same_json
from capenv.serving.state.index import HeldCollection, StateIndex, key_of

from .calls import WriteRefusal


def check_references(plan: WritePlan, body: dict[str, Any], state: StateIndex,
                     parent_args: dict[str, str] | None = None) -> None:
    """Refuse the call when a checked reference it sends names no entity the state holds (under
    the parent ``parent_args``, the decoded path arguments of the write's own collection, name)."""
    for reference in plan.references:
        if not reference.checked or reference.member not in body:
            continue
        value = body[reference.member]
        if any(same_json(value, blank) for blank in reference.blanks):
            continue
        collections, at = _referable(reference, state, parent_args or {})
        # a list of ids is judged element by element (any other value whole); the first naming none is refused
        named = value if reference.many and isinstance(value, list) else [value]
        unheld = [e for e in named if not _names_held(e, collections)]
        if unheld:
            raise WriteRefusal(refusal_message(reference, unheld[0], _held_ids(collections), at=at))


def _referable(reference: ReferenceRule, state: StateIndex,
               parent_args: dict[str, str]) -> tuple[list[HeldCollection], str]:
    """The collections of the referenced type a value may name, and where (for a refusal): those
    under the write's parent when every path parameter of the type's collection is one the
    write's collection names too, else every one."""
    segments = split_path(reference.collection_template)
    names = [s.strip("{}") for s in segments if s.startswith("{")]
    collections = list(state.collections_of(reference.type))
    if not names or any(name not in parent_args for name in names):
        return collections, reference.collection_template
    wanted = {name: decode_once(parent_args[name]) for name in names}
    at = "/" + "/".join(wanted[s.strip("{}")] if s.startswith("{") else s for s in segments) \
        + ("/" if reference.collection_template.endswith("/") else "")
    return [c for c in collections if all(decode_once(c.args.get(name, "")) == wanted[name] for name in names)], at


def _names_held(value: Any, collections: list[HeldCollection]) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return False
    key = key_of(value)
    return any(key in collection.entities for collection in collections)


def _held_ids(collections: list[HeldCollection]) -> list[str]:
    """The ids those collections hold, when few enough to name in a refusal (else none)."""
    ids = list(dict.fromkeys(key for collection in collections for key in collection.entities))
    return ids if len(ids) <= int(setting_value("plans", "reference_refusal_listed_ids")) else []


def refusal_message(reference: ReferenceRule, value: Any, held: list[str] | None = None, *,
                    at: str | None = None) -> str:
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
    named = f"member {reference.member!r} holds" if reference.many else f"member {reference.member!r} is"
    return (f"{named} {dumps(value).decode()}: the state holds no {reference.type} entity "
            f"with that id (at {at or reference.collection_template}); {accepted}; {why}")
