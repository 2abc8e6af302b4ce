"""Whether a create's or update's answers split the entity's identity from the entity
(``write-answer-envelopes``): Flask-AppBuilder answers ``{"id": 7, "result": {…the members
sent…}}``, the identity at the root and a projection of the entity, without its id, under one
member. Read as an entity, that answer holds an opaque ``result`` and shows none of the members
sent; read as a split, the entity is observed by the later read and serving renders the answer
from the state (``serving/writes/answers.py``), which the gate compares with every recorded answer.

The evidence is every successful call: its answer, the body it sent, and the entity it wrote as
the first later item read with no other tool's write between shows it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import AnswerPathMember, EntityType, MemberRule, SplitAnswer
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import member_through, spell
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.answer_envelopes import AnswerEnvelopeContext, EnvelopeCall, envelope_member
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext, note
from .exemplar import admit_body
from .item_keys import call_key
from .timeline import own_collection

TABLE = "write-answer-envelopes"


def split_answer(tool: str, effect: str, entity_type: EntityType, calls: list[Record], ctx: PlanContext,
                 events: list[TraceEvent], depth: int = 0) -> SplitAnswer | None:
    """The split answer every successful call of ``tool`` gave, or None (``depth``: the literal
    segments after an update's item path)."""
    if effect not in ("create", "update") or TABLE not in ctx.ruleset.tables:
        return None
    answered = [call for call in calls if call.succeeded and call.response.is_json]
    within: tuple[str, ...] = ()
    while True:  # at the answers' root, else inside the envelope every answer wraps them in
        evidence = [_call(tool, effect, entity_type, call, ctx, depth, within) for call in answered]
        context = AnswerEnvelopeContext(effect=effect, id_field=entity_type.id_field, calls=tuple(evidence))
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{tool} answer" + (
            f" inside {spell(within)}" if within else ""))
        events.extend(decision.events)
        projection = decision.yields.get("projection")
        if projection in ("sent", "fixed", "either", "acknowledged"):
            break
        member = _envelope_member([call.answer for call in evidence], ctx.is_identity_member)
        if member is None:
            return None
        within = (*within, *member)
    found = decision.evidence
    transformed = tuple(sorted(found.get("transformed") or {}))
    required = [name for name in transformed if evidence and name in evidence[0].sent]
    if required:  # the exemplar's members are required: no call could be served
        events.append(note(f"{tool} answer", "split-answer", (
            f"the exemplar (record {evidence[0].ordinal}) sent {', '.join(required)}, which an answer shows "
            "otherwise than the entity holds it: no call could be answered"), "interpreter/plans/answer_envelopes.py"))
        return None
    members = tuple(AnswerPathMember(member=name, segment=int(where[0]), form=str(where[1]))
                    for name, where in sorted(found.get("path_members", {}).items()))
    entity_member = found.get("entity_member")
    if projection == "acknowledged":
        return SplitAnswer(id_member=found.get("id_member"), entity_member=entity_member, projection=projection,
                           fields=tuple(found.get("fields") or ()),
                           sent_members=tuple(found.get("sent_members") or ()), within=within, rule_id=decision.rule_id)
    entity_member = str(entity_member)
    return SplitAnswer(id_member=found.get("id_member"), entity_member=entity_member, projection=projection,
                       fields=tuple(found.get("fields") or ()), path_members=members,
                       sorted_members=all(list(c.answer[entity_member]) == sorted(c.answer[entity_member])
                                          for c in evidence),
                       transformed=transformed, within=within, rule_id=decision.rule_id)


def _envelope_member(answers: list[Any], is_identity_member: Any) -> tuple[str, ...] | None:
    """The one member every answer is an object of, the same in every answer, holding an object
    and no identity (``{"data": {"result": {…}}}``), or one object as a one-element array
    (``{"posts": [{…}]}``: the member and ``0``, ``pointers.member_through``); else None. Scalars
    beside it are not taken for an envelope: beside the values sent (``{"ok": true, "result": {…}}``)
    they are what the table refuses at the root, as ``answer-envelope.acknowledged-in-envelope`` asks
    one member too."""
    names = set()
    for answer in answers:
        if not isinstance(answer, dict) or len(answer) != 1 or any(is_identity_member(k) for k in answer):
            return None
        name, inner = next(iter(answer.items()))
        if isinstance(inner, dict):
            names.add((name,))
        elif isinstance(inner, list) and len(inner) == 1 and isinstance(inner[0], dict):
            names.add((name, "0"))
        else:
            return None
    return names.pop() if len(names) == 1 else None


def without_transformed(members: tuple[MemberRule, ...], split: SplitAnswer | None) -> tuple[MemberRule, ...]:
    """The plan's members, those a split answer showed transformed not accepted: serving refuses a
    call sending one rather than answer it as the state holds it."""
    if split is None or not split.transformed:
        return members
    return tuple(member.model_copy(update={
        "admission": "not-accepted", "required": False, "rule_id": split.rule_id or TABLE,
        "reason": "an answer showed it otherwise than the entity holds it"})
        if member.member in split.transformed else member for member in members)


def _call(tool: str, effect: str, entity_type: EntityType, call: Record, ctx: PlanContext,
          depth: int, within: tuple[str, ...] = ()) -> EnvelopeCall:
    answer = member_through(call.response.json_value, spell(within))
    verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True, envelope=ctx.envelopes.get(tool),
                         patch_ops=ctx.patch_ops.get(tool, ()))
    sent = verdict.body if isinstance(verdict.body, dict) else {}
    if effect == "update":
        keys = [call_key(ctx.timeline, call, depth)]
    else:  # a create's id: a root scalar of its answer (or of the object its one member holds) that a later item read names
        member = envelope_member(answer)
        scalars = answer[member] if member is not None else answer
        keys = [str(v) for v in scalars.values() if isinstance(v, (str, int)) and not isinstance(v, bool)] \
            if isinstance(scalars, dict) else []
    entity_id, after = None, None
    own = own_collection(call.path, entity_type)  # ids repeat across the type's collections
    for key in keys:
        sighting = ctx.timeline.first_after(entity_type.name, key, call.ordinal, via=("item",), collection=own)
        if sighting is None or sighting.value is None or ctx.other_write_between(tool, call.ordinal, sighting.ordinal):
            continue
        if effect == "create" and ctx.timeline.seen_before(entity_type.name, key, call.ordinal, own):
            continue  # an entity held before the call is not the one it made
        entity_id, after = sighting.value.get(entity_type.id_field, key), sighting.value
        break
    if entity_id is None and effect == "update":
        entity_id = keys[0]
    elif entity_id is None and isinstance(answer, dict) and isinstance(answer.get(entity_type.id_field), (str, int)):
        entity_id = answer[entity_type.id_field]  # unobserved: its identity field names it, unchecked
    return EnvelopeCall(ordinal=call.ordinal, answer=answer, sent=sent, entity_id=entity_id, after=after,
                        path_values=tuple(unquote(part) for part in split_path(call.path)))
