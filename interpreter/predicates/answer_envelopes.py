"""Predicates on a write's answers (``write-answer-envelopes``): whether every recorded answer
splits the entity's identity from the entity, as Flask-AppBuilder's ``{"id": 7, "result": {…}}``.

Context ``answer-envelope``: per successful call of one write tool, its JSON answer, the body it
sent, the identity of the entity it wrote, that entity as the first later item read with no other
write between shows it (None where none does), and its path segments percent-decoded.

The split answer holds the identity at one root member (or none, for an update whose path names
the entity) and a projection of the entity under another: either the members the call sent
(``sent``) or one set of fields whatever was sent (``fixed``). A member of the projection the
entity does not explain may repeat a path value of the call (the parent a Superset annotation's
answer names as ``layer``) at one segment in every call.

An acknowledging answer holds a few of the entity's fields at its root (Parse's create answers
``{"objectId", "createdAt"}``, its update answers ``{"updatedAt"}``): the same fields in every
answer, for a create its identity among them, none a member a call sent, each as the later read
shows the entity, and fewer than the entity holds; a member some answers show beside them is one their call sent, as the
entity holds it after the call.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .item_members import path_value_form

_NONE = object()
"""A field the entity does not hold (equal to no answered value)."""


class EnvelopeCall(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int = 0
    answer: Any = None
    sent: dict[str, Any] = {}
    entity_id: Any = None
    after: dict[str, Any] | None = None
    path_values: tuple[str, ...] = ()


@context_model("answer-envelope")
class AnswerEnvelopeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    effect: Literal["create", "update"]
    id_field: str
    calls: tuple[EnvelopeCall, ...] = ()


class SplitParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    projection: Literal["sent", "fixed"]
    min_observed: int = Field(default=1, ge=1)
    transformed: bool = False
    """With ``sent``: a sent member some answer shows otherwise than its entity holds it (a date
    answered in another format) is named in the evidence instead of missing the rule."""


def _is_identity(value: Any, entity_id: Any) -> bool:
    """The root member names the entity: its identity, or the integer its text spells."""
    if entity_id is None or isinstance(value, (dict, list, bool)) or value is None:
        return False
    return same_json(value, entity_id) or path_value_form(value, str(entity_id)) == "number"


def _root_split(ctx: AnswerEnvelopeContext) -> tuple[tuple[str | None, str] | None, str]:
    """The (identity member, entity member) every call's answer is made of, and why not."""
    options: set[tuple[str | None, str]] | None = None
    for call in ctx.calls:
        answer = call.answer
        if not isinstance(answer, dict) or not 1 <= len(answer) <= 2:
            return None, f"record {call.ordinal}'s answer is not an object of one or two members"
        mine: set[tuple[str | None, str]] = set()
        for name, value in answer.items():
            if not isinstance(value, dict):
                continue
            others = [other for other in answer if other != name]
            if not others and ctx.effect == "update":
                mine.add((None, name))  # the path names the entity: the answer need not
            elif len(others) == 1 and _is_identity(answer[others[0]], call.entity_id):
                mine.add((others[0], name))
        options = mine if options is None else options & mine
        if not options:
            return None, f"record {call.ordinal}'s answer holds no identity beside one object member"
    chosen = sorted(options or (), key=lambda pair: (pair[0] or "", pair[1]))
    if len(chosen) != 1:
        return None, "no call shows the answer's shape" if not chosen else "the answer splits more than one way"
    entity_member = chosen[0][1]
    inside = next((call.ordinal for call in ctx.calls if ctx.id_field in call.answer[entity_member]), None)
    if inside is not None:
        return None, (f"record {inside}'s {entity_member} holds the identity field {ctx.id_field!r}: the entity "
                      "itself, in an envelope")
    held = next((call.ordinal for call in ctx.calls
                 if call.after is not None and entity_member in call.after), None)
    if held is not None:
        return None, f"the entity holds a field {entity_member!r} (record {held}): the answer is the entity"
    return chosen[0], ""


def _path_segments(name: str, calls: list[EnvelopeCall], projected: Any) -> tuple[int, str] | None:
    """The one segment index whose value every call's ``name`` repeats (in one form), or None."""
    indexes: set[tuple[int, str]] | None = None
    for call in calls:
        value = projected(call).get(name)
        found = {(i, form) for i, segment in enumerate(call.path_values)
                 if (form := path_value_form(value, segment)) in ("scalar", "number")}
        indexes = found if indexes is None else indexes & found
        if not indexes:
            return None
    return min(indexes) if indexes and len({form for _, form in indexes}) == 1 else None


@predicate("answer_splits_entity", context="answer-envelope", params=SplitParams)
def answer_splits_entity(ctx: AnswerEnvelopeContext, params: SplitParams) -> Outcome:
    """Every call answered an object of the entity's identity (or, for an update, nothing else)
    and one object member holding the ``projection`` of the entity the later read shows: the
    members the call sent, or one set of fields in every answer; a member the entity does not
    explain repeats the call's path value at one segment throughout. At least ``min_observed``
    calls are checked against a later read of their entity."""
    if not ctx.calls:
        return Miss("no successful call answered JSON")
    split, why = _root_split(ctx)
    if split is None:
        return Miss(why)
    id_member, entity_member = split
    calls = list(ctx.calls)
    projected = lambda call: call.answer[entity_member]  # noqa: E731 - one lookup, named
    shown = {frozenset(projected(call)) for call in calls}
    fields = sorted(next(iter(shown))) if len(shown) == 1 else []
    if params.projection == "fixed" and not fields:
        return Miss(f"the answers' {entity_member} show {len(shown)} sets of members")
    extra: dict[str, None] = {}
    transformed: dict[str, int] = {}
    if params.projection == "sent":
        for call in calls:
            names = set(projected(call))
            unsent = set(call.sent) - names
            if unsent:
                return Miss(f"record {call.ordinal} sent {', '.join(sorted(unsent))} its answer does not show")
            for name in sorted(names):
                if name not in call.sent:
                    extra[name] = None
                elif call.after is not None and not same_json(call.after.get(name, _NONE), projected(call)[name]):
                    if not params.transformed:
                        return Miss(f"record {call.ordinal} answered {name} otherwise than its entity holds it")
                    transformed.setdefault(name, call.ordinal)
        sent_somewhere = sorted(name for name in extra if any(name in call.sent for call in calls))
        if sent_somewhere:
            return Miss(f"{entity_member}/{sent_somewhere[0]} is shown unsent by one call and sent by another")
    else:
        checked = [call for call in calls if call.after is not None]
        for name in fields:
            if not checked or not all(same_json(call.after.get(name, _NONE), projected(call)[name])
                                      for call in checked):
                extra[name] = None
    path_members: dict[str, list[Any]] = {}
    for name in extra:
        if any(name not in projected(call) for call in calls):
            return Miss(f"{entity_member}/{name} is shown by some answers only, and is no field sent")
        segment = _path_segments(name, calls, projected)
        if segment is None:
            return Miss(f"{entity_member}/{name} is neither the entity's field nor one path value of every call")
        path_members[name] = [segment[0], segment[1]]
    observed = sum(1 for call in calls if call.after is not None)
    if observed < params.min_observed:
        return Miss(f"{observed} call(s) are checked against a later read of their entity, fewer than "
                    f"{params.min_observed}")
    if params.transformed and not transformed:
        return Miss("every answer shows the members sent as their entities hold them")
    if transformed and len(transformed) == len({name for call in calls for name in call.sent}):
        return Miss("every member sent is answered otherwise than its entity holds it")
    return Match({"id_member": id_member, "entity_member": entity_member, "transformed": transformed,
                  "fields": [name for name in fields if name not in path_members]
                  if params.projection == "fixed" else [],
                  "path_members": path_members, "observed": observed})


class AcknowledgedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_observed: int = Field(ge=1)
    """Calls whose answer is checked against a later read of their entity."""
    sent_fields: bool = False
    """A create's answer fields are the members its call sent instead of none of them: every
    call sent the same members, and every answer shows exactly those (an echo of the body beside
    the identity), each as the later read shows the entity, which holds more."""
    made_fields: bool = False
    """With ``sent_fields``: the answer shows, beside the members every call sent, at least one
    field no call sent (one the application made: a clock the call moved), each as the later read
    shows the entity, which holds more; an update's answer may be read so too."""
    identity_only: bool = False
    """A create's answer is its entity's identity alone (``{"uuid": …}``): every answer is an object
    whose one member is the identity field, naming the entity the call made, and the later read
    shows that entity holding more than it."""
    in_envelope: bool = False
    """Every answer is an object of one member, the same in every answer, holding the acknowledging
    object (Roundup's ``{"data": {"id", "link"}}``); the rule reads that object as the answer."""


def _echoes_sent(ctx: AnswerEnvelopeContext, common: list[str], made_fields: bool) -> str | None:
    """Why the answers are no echo of one set of sent members (None when they are); with
    ``made_fields``, of those members beside fields no call sent."""
    if ctx.effect != "create" and not made_fields:
        return f"an {ctx.effect}: only a create's answer is read as an echo of its body alone"
    members = {frozenset(call.sent) for call in ctx.calls}
    if len(members) != 1:
        return "the calls sent different members"
    sent = next(iter(members)) - {ctx.id_field}
    if not made_fields and set(common) != sent:
        return f"the answers show {sorted(common)}, not exactly the members every call sent {sorted(sent)}"
    if made_fields and (not sent or not sent < set(common)):
        return (f"the answers show {sorted(common)}, not the members every call sent {sorted(sent)} beside "
                "fields no call sent")
    return None


@predicate("answer_acknowledges_entity", context="answer-envelope", params=AcknowledgedParams)
def answer_acknowledges_entity(ctx: AnswerEnvelopeContext, params: AcknowledgedParams) -> Outcome:
    """Every call answered an object holding the same few fields of its entity at the root (a
    create's identity among them), none a member any call sent (values the application made: a
    clock), each as the later read of the entity shows it, leaving out some field the entity holds; a member only some answers show is one their call sent, shown as the
    entity holds it after the call. At least ``min_observed`` calls are checked against a later read."""
    if not ctx.calls:
        return Miss("no successful call answered JSON")
    if params.in_envelope:
        return _acknowledged_in_envelope(ctx, params)
    answers = [call.answer for call in ctx.calls]
    bad = next((call.ordinal for call in ctx.calls if not isinstance(call.answer, dict) or not call.answer), None)
    if bad is not None:
        return Miss(f"record {bad}'s answer is no object holding members")
    if ctx.effect == "create":
        unnamed = next((call.ordinal for call in ctx.calls if call.entity_id is None
                        or not same_json(call.answer.get(ctx.id_field, _NONE), call.entity_id)), None)
        if unnamed is not None:
            return Miss(f"record {unnamed}'s answer does not hold its entity's identity {ctx.id_field!r}")
    if params.identity_only:
        return _identity_alone(ctx, params)
    common = [name for name in answers[0] if name != ctx.id_field and all(name in a for a in answers)]
    if not common:
        return Miss("no field beside the identity is in every answer")
    if params.sent_fields:
        echo = _echoes_sent(ctx, common, params.made_fields)
        if echo is not None:
            return Miss(echo)
    else:
        sent = next((name for name in common if any(name in call.sent for call in ctx.calls)), None)
        if sent is not None:
            return Miss(f"every answer shows {sent!r}, which a call sent: the entity, not an acknowledgement")
    for call in ctx.calls:
        extra = [name for name in call.answer if name not in common and name != ctx.id_field]
        unsent = [name for name in extra if name not in call.sent]
        if unsent:
            return Miss(f"record {call.ordinal}'s answer shows {unsent[0]!r}, in no other answer and not sent")
        if call.after is None:
            continue
        differing = next((name for name, value in call.answer.items()
                          if not same_json(call.after.get(name, _NONE), value)), None)
        if differing is not None:
            return Miss(f"record {call.ordinal} answered {differing!r} otherwise than the later read shows its entity")
        if set(call.after) <= set(call.answer):
            return Miss(f"record {call.ordinal}'s answer holds every field its entity holds: the entity itself")
    observed = sum(1 for call in ctx.calls if call.after is not None)
    if observed < params.min_observed:
        return Miss(f"{observed} call(s) are checked against a later read of their entity, fewer than "
                    f"{params.min_observed}")
    id_member = ctx.id_field if all(ctx.id_field in a for a in answers) else None
    sent_members = sorted(next(iter(ctx.calls)).sent) if params.made_fields else []
    return Match({"id_member": id_member, "entity_member": None, "fields": common, "path_members": {},
                  "transformed": {}, "observed": observed, "sent_members": sent_members})


def envelope_member(answer: Any) -> str | None:
    """The one member of an answer holding nothing but one object (``{"data": {…}}``), or None."""
    if isinstance(answer, dict) and len(answer) == 1:
        name, value = next(iter(answer.items()))
        if isinstance(value, dict):
            return name
    return None


def _acknowledged_in_envelope(ctx: AnswerEnvelopeContext, params: AcknowledgedParams) -> Outcome:
    """``answer_acknowledges_entity`` on the object every answer holds under its one member, the
    same member in every answer."""
    members = {envelope_member(call.answer) for call in ctx.calls}
    if len(members) != 1 or None in members:
        return Miss("the answers are no objects of one and the same member holding an object")
    member = str(next(iter(members)))
    inner = ctx.model_copy(update={"calls": tuple(call.model_copy(update={"answer": call.answer[member]})
                                                 for call in ctx.calls)})
    outcome = answer_acknowledges_entity(inner, params.model_copy(update={"in_envelope": False}))
    if isinstance(outcome, Match):
        return Match({**outcome.evidence, "entity_member": member})
    return outcome


def _identity_alone(ctx: AnswerEnvelopeContext, params: AcknowledgedParams) -> Outcome:
    """Every create answered its entity's identity and nothing else, and at least
    ``min_observed`` later reads show that entity holding more."""
    if ctx.effect != "create":
        return Miss(f"an {ctx.effect}: only a create's answer names the entity it made")
    more = next((call.ordinal for call in ctx.calls if set(call.answer) != {ctx.id_field}), None)
    if more is not None:
        return Miss(f"record {more}'s answer holds more than the identity {ctx.id_field!r}")
    whole = next((call.ordinal for call in ctx.calls if call.after is not None and set(call.after) <= {ctx.id_field}), None)
    if whole is not None:
        return Miss(f"record {whole}'s entity holds nothing but its identity: the answer is the entity itself")
    observed = sum(1 for call in ctx.calls if call.after is not None)
    if observed < params.min_observed:
        return Miss(f"{observed} call(s) are checked against a later read of their entity, fewer than "
                    f"{params.min_observed}")
    return Match({"id_member": ctx.id_field, "entity_member": None, "fields": [], "path_members": {},
                  "transformed": {}, "observed": observed})
