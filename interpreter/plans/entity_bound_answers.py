"""Whether a write's answer gives, as recorded, a value the capture shows bound to the entity its
exemplar wrote (seeds: "Responses"): answered for another entity it would give the first one's.

Serving answers a write with its exemplar's recorded body, the entity rendered from the state where
the body carries it (``ResponseRule``): what lies outside the rendered entity (an envelope, a report's
other members, an answer that carries no entity) is answered as recorded for every call. A value
there is the exemplar entity's own when the capture shows each entity named answered a value of its
own at that place (no two entities one value, as a status or a count repeats; none two), either

- by the successful calls of the same tool, on entities held before them (a call on one already
  gone answers its absence), member names read with each call's entity name put aside, or
- by the writes of one kind (the same method and path, another entity named in one segment), an
  earlier one naming this entity having answered the same value (Privacy IDEA's ``{"setPolicy
  lockout-admins": 4}``, the policy's database id, which its delete and its enable and disable
  actions answer again as ``value: 4``; ``{"setPolicy user-self-service": 5}``).

No read shows such a value, so serving cannot give the entity's own: the write is body-unusable,
whatever its kind (a create's envelope, an update's or action's acknowledgement, a delete's). A
text differing only by naming the call's own entity (``user 'dave' deleted``) is left to
``verdict.answer-names-call``. A recorded header naming the entity by its key is left out of the
answer (``ResponseRule.entity_headers``): a missing header answers nothing wrong.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

from capenv.interpreter.bundle.models import ResponseRule, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import escape_token, spell
from capenv.interpreter.bundle.values import MISSING, locate, same_json
from capenv.interpreter.evidence.records import Record

from .context import PlanContext, note
from .held_before import held_before
from .item_keys import call_key

Bound = tuple[str, Any, int, int]
"""(pointer, value, the call answering it for the exemplar's entity, a call answering another
value there for another entity)."""


def with_entity_bound_answers(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each plan still built whose answer gives, as recorded, a value bound to its exemplar's
    entity, body-unusable (traced: why, and what the answer would have to show instead); a
    recorded header naming that entity is left out of the answer (``entity_headers``)."""
    tools = {tool.name: tool for tool in ctx.manifest.tools}
    min_length = int(ctx.ruleset.setting("plans", "min_linked_id_length"))
    # a member two answers of one read differ at (a time, a signature) changes with every answer, not with the entity
    per_response = {name if name.startswith("/") else spell((name,))
                    for view in ctx.view.views for name in view.per_response_members}
    judged = []
    for plan in plans:
        tool = tools.get(plan.tool)
        if plan.build_reason is not None or plan.exemplar is None or tool is None or plan.response is None:
            judged.append(plan)
            continue
        exemplar = ctx.records[plan.exemplar]
        key = _entity_key(plan, exemplar, ctx)
        if key is None:
            judged.append(plan)
            continue
        calls = [ctx.records[o] for o in tool.record_ordinals]
        key_of = lambda call: _entity_key(plan, call, ctx)  # noqa: E731 - one plan's reading of its calls
        named = entity_headers(plan.response.headers, key, exemplar, calls, key_of, min_length)
        if named:
            plan = plan.model_copy(update={
                "response": plan.response.model_copy(update={"entity_headers": tuple(sorted(named))}),
                "traces": (*plan.traces, note(plan.tool, "answer-headers", (
                    f"record {exemplar.ordinal}'s header(s) {', '.join(sorted(named))} name the entity it "
                    f"{_verb(plan.effect)} ({key!r}): left out of the answer, which would name it for any entity")))})
        literal = {pointer: value for pointer, value in recorded_literals(plan.response).items()
                   if not any(_within(pointer, place) for place in per_response)}
        own = names_entity(literal, key, min_length) \
            if plan.effect == "create" or plan.response.carries_entity else None
        if own is None and plan.key is not None and plan.key.branch == "get":
            plan, own = _key_answer_judged(plan, ctx, min_length, per_response)
        if own is not None:
            pointer, value, named = own
            event = note(plan.tool, "body-unusable",
                         f"record {exemplar.ordinal if named == key else plan.key.learned_from} answered {value!r} at "
                         f"{pointer}, outside the entity serving renders, which names the entity it "
                         f"{'found' if named != key else _verb(plan.effect)} ({named!r}): answered as recorded, every "
                         "call would name that entity, never its own")
            judged.append(plan.model_copy(update={"build_reason": "body-unusable", "traces": (*plan.traces, event)}))
            continue
        bound = (own_calls_bound(literal, key, exemplar, calls, key_of,
                                 lambda entity_key, call: _held(plan, entity_key, call, ctx))
                 or entity_bound_value(literal, key, exemplar, ctx.writes)) if literal else None
        if bound is None:
            judged.append(plan)
            continue
        pointer, value, own, other = bound
        event = note(plan.tool, "body-unusable",
                     f"record {exemplar.ordinal} answered {value!r} at {pointer}, a value of the entity it "
                     f"{_verb(plan.effect)} ({key!r}): record {own} answered it for that entity, and record {other}, "
                     f"a call of the same kind naming another entity, another value there; no read shows it, so "
                     f"answered as recorded it would give another entity's value (served once a read of the entity "
                     f"shows it, or the recorded answers agree there)")
        judged.append(plan.model_copy(update={"build_reason": "body-unusable", "traces": (*plan.traces, event)}))
    return judged


def names_entity(literal: dict[str, Any], key: str, min_length: int) -> tuple[str, Any, str] | None:
    """A recorded value naming the entity ``key``: the key itself, or a text holding it as a whole
    word, when it is ``min_length`` characters or more (a shorter one may be any number), or a text
    holding it as a path segment (``/flows/7``) at any length; as (pointer, value, key)."""
    for pointer, value in literal.items():
        text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if text is None or key not in text:
            continue
        if len(key) >= min_length and (text == key or _naming(text, key) is not None) \
                or re.search(rf"/{re.escape(key)}(?![A-Za-z0-9])", text):
            return pointer, value, key
    return None


def _key_answer_judged(plan: WritePlan, ctx: PlanContext, min_length: int,
                       per_response: set[str]) -> tuple[WritePlan, tuple[str, Any, str] | None]:
    """A get-or-create's key answer (``CreateKey.response``), answered for whichever held entity a
    call's key names: a value naming the entity the recorded call found (``names_entity``), and the
    plan with the headers naming it left out of that answer (``entity_headers``)."""
    key_rule = plan.key
    call = ctx.records.get(key_rule.learned_from)
    type_ = next((t for t in ctx.view.types if t.name == plan.type), None)
    if call is None or type_ is None or not call.response.is_json:
        return plan, None
    entity = locate(call.response.json_value, key_rule.response.locator) \
        if key_rule.response.locator is not None else call.response.json_value
    found = entity.get(type_.id_field) if isinstance(entity, dict) else None
    if not isinstance(found, (str, int)) or isinstance(found, bool):
        return plan, None
    found = str(found)
    named = entity_headers(key_rule.response.headers, found, call, [call], lambda _: None, min_length)
    if named:
        response = key_rule.response.model_copy(update={"entity_headers": tuple(sorted(named))})
        plan = plan.model_copy(update={
            "key": key_rule.model_copy(update={"response": response}),
            "traces": (*plan.traces, note(plan.tool, "answer-headers", (
                f"record {call.ordinal}'s header(s) {', '.join(sorted(named))} name the entity it found "
                f"({found!r}): left out of the key's answer, which would name it for any entity")))})
    literal = {pointer: value for pointer, value in recorded_literals(key_rule.response).items()
               if not any(_within(pointer, place) for place in per_response)}
    return plan, names_entity(literal, found, min_length)


def entity_headers(headers: Any, key: str, exemplar: Record, calls: list[Record], key_of: Any,
                   min_length: int) -> frozenset[str]:
    """The names (lower case) of the recorded headers whose value names the exemplar's entity by
    its key, as a whole word or path segment: a key ``min_length`` characters or more, or one
    another call of the tool answered the same header naming its own entity in the same place
    (``X-Rule: 7`` and ``X-Rule: 8``; a short number alone may be a count's digits)."""
    named: set[str] = set()
    for name, value in headers:
        spelled = _naming(value, key)
        if spelled is None:
            continue
        if len(key) >= min_length:
            named.add(name.lower())
            continue
        for call in calls:
            other_key = key_of(call) if call.ordinal != exemplar.ordinal else None
            theirs = call.header(name) if other_key not in (None, key) else None
            if theirs is not None and _naming(theirs, other_key) == spelled:
                named.add(name.lower())
                break
    return frozenset(named)


def _naming(value: str, key: str) -> str | None:
    """``value`` with ``key`` (as sent, or percent-encoded) put aside where it stands as a whole
    word, or None when it does not stand there."""
    for spelling in dict.fromkeys((key, quote(key, safe=""))):
        pattern = rf"(?<![A-Za-z0-9]){re.escape(spelling)}(?![A-Za-z0-9])"
        if re.search(pattern, value):
            return re.sub(pattern, "{}", value)
    return None


def recorded_literals(response: ResponseRule) -> dict[str, Any]:
    """Every number or string of the recorded body serving answers as recorded, by JSON pointer:
    the body less the entity it renders from the state (``carries_entity``), the members of its
    envelope that repeat the entity's (rendered too), a report's entity fields, a split answer's
    identity and entity."""
    if not response.is_json or response.body is None:
        return {}
    rendered: list[str] = []
    if response.carries_entity and response.locator is not None:
        locator = response.locator
        rendered.append(_place(locator))
        entity = locate(response.body, locator)
        if locator.kind != "root" and not locator.within and isinstance(response.body, dict) \
                and isinstance(entity, dict):  # the envelope members repeating the entity's (serving renders them)
            rendered += [spell((name,)) for name, value in response.body.items()
                         if name in entity and same_json(value, entity[name])]
    elif response.carries_entity:
        return {}
    if response.report is not None:
        at = _place(response.report.locator)
        rendered += [at + spell((name,)) for name in response.report.fields]
    split = response.split
    if split is not None:
        if split.projection == "acknowledged" and not split.within and split.entity_member is None:
            return {}
        around = spell(split.within)
        rendered += [around + spell((name,)) for name in (split.id_member, split.entity_member) if name]
        if split.projection == "acknowledged" and split.entity_member is None:
            rendered.append(around)
    return {pointer: value for pointer, value in scalars(response.body, "").items()
            if not any(_within(pointer, place) for place in rendered)}


def own_calls_bound(literal: dict[str, Any], key: str, exemplar: Record, calls: list[Record],
                    key_of: Any, held: Any) -> Bound | None:
    """A recorded value the successful calls of the tool answered apart for each entity they named
    (``distinct_per_entity``), the calls counted only on an entity held before them (``held``: a
    call on one already gone answers its absence)."""
    answered = [(key, exemplar)] + [(other_key, call) for call in calls if call.ordinal != exemplar.ordinal
                                    and call.succeeded and call.response.is_json
                                    and (other_key := key_of(call)) is not None and held(other_key, call)]
    for pointer, value in literal.items():
        place = _put_aside(pointer, key)
        values = []
        for entity_key, call in answered:
            found = {_put_aside(p, entity_key): v for p, v in scalars(call.response.json_value, "").items()}
            if place in found:
                values.append((entity_key, call.ordinal, _named_aside(found[place], entity_key)))
        other = distinct_per_entity(values, key)
        if other is not None:
            return pointer, value, exemplar.ordinal, other
    return None


def distinct_per_entity(values: list[tuple[str, int, Any]], key: str) -> int | None:
    """The call answering another value than ``key``'s entity, where each entity named (two or
    more) was answered one value of its own there: no two entities the same (a status or a count
    repeats), no entity two. ``values``: (entity, call, value at the place, its name put aside)."""
    by_entity: dict[str, set[str]] = {}
    first: dict[str, int] = {}
    for entity_key, ordinal, value in values:
        by_entity.setdefault(entity_key, set()).add(repr((type(value).__name__, value)))
        first.setdefault(entity_key, ordinal)
    if len(by_entity) < 2 or any(len(seen) != 1 for seen in by_entity.values()):
        return None
    answered = [next(iter(seen)) for seen in by_entity.values()]
    if len(set(answered)) != len(answered):
        return None
    return next(ordinal for entity_key, ordinal in first.items() if entity_key != key)


def entity_bound_value(literal: dict[str, Any], key: str, exemplar: Record, writes: list[Record]) -> Bound | None:
    """A recorded value an earlier successful write naming the entity in its path answered too,
    where the writes of that kind (the same method and path, another entity named where this one
    was) answered each entity a value of its own at the same place (``distinct_per_entity``)."""
    if not literal:
        return None
    for record in writes:
        if record.ordinal >= exemplar.ordinal or not record.succeeded or not record.response.is_json:
            continue
        segments = [unquote(s) for s in split_path(record.path)]
        if key not in segments:
            continue
        at = segments.index(key)
        theirs = {_put_aside(p, key): v for p, v in scalars(record.response.json_value, "").items()}
        for pointer, value in literal.items():
            place = next((p for p, v in theirs.items() if _same(v, value)), None)
            if place is None or not _same(_named_aside(value, key), value):
                continue  # a value naming the entity itself: answer-names-call judges it
            values = []
            for other in writes:
                other_segments = [unquote(s) for s in split_path(other.path)]
                if (other.method != record.method or not other.succeeded or not other.response.is_json
                        or len(other_segments) != len(segments)
                        or any(a != b for i, (a, b) in enumerate(zip(segments, other_segments)) if i != at)):
                    continue
                found = {_put_aside(p, other_segments[at]): v
                         for p, v in scalars(other.response.json_value, "").items()}
                if place in found:
                    values.append((other_segments[at], other.ordinal, _named_aside(found[place], other_segments[at])))
            other_ordinal = distinct_per_entity(values, key)
            if other_ordinal is not None:
                return pointer, value, record.ordinal, other_ordinal
    return None


def scalars(value: Any, pointer: str) -> dict[str, Any]:
    """Every number or string of ``value`` by its JSON pointer (booleans and null tell no entity apart)."""
    if isinstance(value, dict):
        found: dict[str, Any] = {}
        for name, member in value.items():
            found.update(scalars(member, f"{pointer}/{escape_token(str(name))}"))
        return found
    if isinstance(value, list):
        found = {}
        for index, item in enumerate(value):
            found.update(scalars(item, f"{pointer}/{index}"))
        return found
    if isinstance(value, bool) or value is None or value is MISSING:
        return {}
    return {pointer: value}


def _entity_key(plan: WritePlan, call: Record, ctx: PlanContext) -> str | None:
    """The entity a call of the plan wrote: the one its path names (an update, action or delete),
    or the one a create's answer shows where the plan renders it; None when the plan names none."""
    if plan.effect in ("update", "action", "delete") and plan.address is not None and plan.address.by != "ids":
        return call_key(ctx.timeline, call, plan.address.segments_after_item())
    response = plan.response
    type_ = next((t for t in ctx.view.types if t.name == plan.type), None)
    if plan.effect == "create" and response is not None and response.carries_entity and type_ is not None \
            and call.response.is_json:
        entity = locate(call.response.json_value, response.locator) if response.locator is not None \
            else call.response.json_value
        if isinstance(entity, dict) and isinstance(entity.get(type_.id_field), (str, int)) \
                and not isinstance(entity.get(type_.id_field), bool):
            return str(entity[type_.id_field])
    return None


def _place(locator: Any) -> str:
    """The pointer of the object a locator finds (a singleton's one element)."""
    return locator.pointer + ("/0" if locator.kind == "singleton" else "")


def _held(plan: WritePlan, key: str, call: Record, ctx: PlanContext) -> bool:
    """Whether the entity a call of the plan named was held before it (a create's always is new)."""
    if plan.effect == "create":
        return True
    entity_type = next((t for t in ctx.view.types if t.name == plan.type), None)
    if entity_type is None:
        return False
    before = held_before(ctx, entity_type, key, call.ordinal)
    return before is not None and before.value is not None


def _within(pointer: str, place: str) -> bool:
    return pointer == place or pointer.startswith(place + "/") or place == ""


def _named_aside(value: Any, key: str) -> Any:
    """A text with the entity's own name put aside where it stands as a whole word (``user {}
    deleted``): a value that differs only by naming the call's entity is ``answer-names-call``'s
    to judge, not another entity's value."""
    return _word_aside(value, key) if isinstance(value, str) and key else value


def _word_aside(text: str, word: str) -> str:
    return re.sub(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", "{}", text)


def _put_aside(pointer: str, key: str) -> str:
    """``pointer`` with the entity's name put aside in its member names (``setPolicy {}``)."""
    return "/".join(_word_aside(part, escape_token(key)) if key else part for part in pointer.split("/"))


def _same(one: Any, other: Any) -> bool:
    return type(one) is type(other) and one == other


def _verb(effect: str) -> str:
    return {"create": "made", "delete": "deleted"}.get(effect, "wrote")

