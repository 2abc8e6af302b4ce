"""Whether a delete's recorded answer can be given for any entity (seeds: "Deletes"), and which
members of its entity it leaves out.

A delete answers with its exemplar's response. An answer naming other entities the state holds
(a room delete answering ``{"kicked_users": ["@alice:example.org", ...]}``, the members it found)
describes the state the call met: given again for another entity it would name the first one's
members, so such a delete's body is unusable.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import strings_in
from capenv.interpreter.bundle.models import EntityType, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import escape_token
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.answer_omissions import AnswerOmissionContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .timeline import own_collection

OMISSIONS = "write-answer-omissions"


def held_ids_named(answer: Any, view: ViewResult, own_id: Any, min_length: int) -> list[tuple[str, str]]:
    """(type, id) of each held entity other than ``own_id`` whose string identity, ``min_length``
    characters or more, is a string of ``answer`` (at any depth). Integers are left out: a count or
    a status code spells one as often as an id does."""
    held: dict[str, str] = {}
    for collection in view.state.collections:
        for entity in collection.entities:
            if isinstance(entity.id, str) and len(entity.id) >= min_length and entity.id != str(own_id):
                held.setdefault(entity.id, collection.type)
    named: list[tuple[str, str]] = []
    for text in strings_in(answer):
        if text in held and (held[text], text) not in named:
            named.append((held[text], text))
    return named


def omitted_members(tool: str, entity_type: EntityType, key: str, exemplar: Record, answered: dict[str, Any],
                    ctx: Any, events: list[TraceEvent], effect: str = "delete",
                    sent: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The members of the entity held just before the exemplar's call that its answer left out,
    when ``write-answer-omissions`` says the answer is the entity without them (relations or links
    the application loads for reads only); serving then renders the answer without them.
    ``effect``: the write's (a delete's or an update's); ``sent``: the members an update sent."""
    if OMISSIONS not in ctx.ruleset.tables:
        return ()
    # its latest item read shows every member the type's reads hold (a list may show fewer)
    held = ctx.timeline.before(entity_type.name, key, exemplar.ordinal, via=("item",),
                               collection=own_collection(exemplar.path, entity_type))
    return answer_omissions(tool, answered, held.value if held is not None else None, ctx.ruleset, events,
                            effect=effect, sent=sent)


def answer_omissions(tool: str, answered: Any, held: Any, ruleset: Any, events: list[TraceEvent],
                     effect: str = "delete", sent: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The members of ``held`` (the entity or document object before the call) the answer's
    object leaves out, when ``write-answer-omissions`` says it is that object without them."""
    if OMISSIONS not in ruleset.tables or not isinstance(answered, dict):
        return ()
    context = AnswerOmissionContext(answered=list(answered), held=list(held) if isinstance(held, dict) else [],
                                    effect=effect, sent=list(sent))
    decision = evaluate(ruleset, OMISSIONS, context, subject=f"{tool} answer")
    events.extend(decision.events)
    if not decision.yields.get("omits"):
        return ()
    return tuple(decision.evidence.get("left_out") or ())


def entity_bound_value(answer: Any, key: str, exemplar: Record, writes: list[Record]) -> tuple[str, Any, int, int] | None:
    """A value of the delete's answer the capture shows bound to the entity it deletes, which the
    answer would give for any entity: (pointer, value, the earlier write answering it for this
    entity, a write of that call's kind answering another value for another entity), or None.

    An earlier successful write naming the entity in its path (its create, an action) answered the
    same value (Privacy IDEA's ``{"setPolicy lockout-admins": 4}``, the policy's id, which its delete
    answers again as ``value: 4``), and a write of that kind (the same method and path, another entity
    named where this one was) answered another value at the same place, member names read with the
    entity's name put aside (``{"setPolicy user-self-service": 5}``): the value is the entity's own,
    and no read shows it, so another entity's delete would be answered another entity's value."""
    bound = _scalars(answer, "")
    if not bound:
        return None
    for record in writes:
        if record.ordinal >= exemplar.ordinal or not record.succeeded or not record.response.is_json:
            continue
        segments = [unquote(s) for s in split_path(record.path)]
        if key not in segments:
            continue
        at = segments.index(key)
        theirs = {_put_aside(p, key): v for p, v in _scalars(record.response.json_value, "").items()}
        for pointer, value in bound.items():
            place = next((p for p, v in theirs.items() if _same(v, value)), None)
            if place is None:
                continue
            for other in writes:
                other_segments = [unquote(s) for s in split_path(other.path)]
                if (other.method != record.method or not other.succeeded or not other.response.is_json
                        or len(other_segments) != len(segments) or other_segments[at] == key
                        or any(a != b for i, (a, b) in enumerate(zip(segments, other_segments)) if i != at)):
                    continue
                found = {_put_aside(p, other_segments[at]): v
                         for p, v in _scalars(other.response.json_value, "").items()}
                if place in found and not _same(found[place], value):
                    return pointer, value, record.ordinal, other.ordinal
    return None


def _scalars(value: Any, pointer: str) -> dict[str, Any]:
    """Every number or string of ``value`` by its JSON pointer (booleans and null tell no entity apart)."""
    if isinstance(value, dict):
        found: dict[str, Any] = {}
        for name, member in value.items():
            found.update(_scalars(member, f"{pointer}/{escape_token(str(name))}"))
        return found
    if isinstance(value, list):
        found = {}
        for index, item in enumerate(value):
            found.update(_scalars(item, f"{pointer}/{index}"))
        return found
    if isinstance(value, bool) or value is None:
        return {}
    return {pointer: value}


def _put_aside(pointer: str, key: str) -> str:
    """``pointer`` with the entity's name put aside in its member names (``setPolicy {}``)."""
    return "/".join(part.replace(escape_token(key), "{}") if key else part for part in pointer.split("/"))


def _same(one: Any, other: Any) -> bool:
    return type(one) is type(other) and one == other
