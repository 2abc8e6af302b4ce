"""Whether a delete's recorded answer can be given for any entity (seeds: "Deletes"), and which
members of its entity it leaves out.

A delete answers with its exemplar's response. An answer naming other entities the state holds
(a room delete answering ``{"kicked_users": ["@alice:example.org", ...]}``, the members it found)
describes the state the call met: given again for another entity it would name the first one's
members, so such a delete's body is unusable.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import strings_in
from capenv.interpreter.bundle.models import EntityType, ViewResult
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
