"""Predicates explaining a field an update changed without sending it (seeds: "Updates.").

Context ``update-change``: one field of one recorded update call, with the entity as held just
before the call and as observed after it. A match's evidence carries ``params`` shaped for the
serving op its rule names (``serving/ops/params.py``), so the plan stores them as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .create_values import token_shape
from .update_values import (
    any_index, aware, has_markup, holds, is_opaque_token, is_uuid, leaves, name_words, parse_instant,
    plain_text, same_shape, same_value, slugify,
)

_ABSENT = object()


@context_model("update-change")
class UpdateChangeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    id_field: str = "id"
    is_action: bool = False
    before: dict[str, Any] | None = None
    """The entity as held just before the call (None: unknown)."""
    after: dict[str, Any]
    """The entity as the call's observation shows it."""
    body: dict[str, Any] = Field(default_factory=dict)
    started_at: datetime
    other_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's other entities as last seen before the call."""
    later_read: dict[str, Any] | None = None
    """The first later read of the entity, when the observation is the call's own response."""

    @property
    def old(self) -> Any:
        return self.before.get(self.field, _ABSENT) if self.before is not None else _ABSENT

    @property
    def new(self) -> Any:
        return self.after.get(self.field, _ABSENT)


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClockWindowParams(_Params):
    window_seconds: int = Field(default=600, ge=0)
    """How far from the call's start a stamped instant may lie."""


class NestedClockWindowParams(ClockWindowParams):
    later_read_tolerance_seconds: float = Field(default=2, ge=0)
    """How far a later read's stored instant may lie from the one the write answered with."""


class StepParams(_Params):
    by: int = 1


class TokenParams(_Params):
    min_token_length: int = Field(default=16, ge=1)
    max_token_length: int = Field(default=64, ge=1)


class StampNameParams(_Params):
    change_words: list[str] = Field(min_length=1)
    """First words of a stamp field's name (modified, updated, …), before a later ``by``."""
    leading_words: list[str] = Field(default_factory=list)
    """Words that may come first (last: lastModifiedBy)."""
    by_word: str = "by"
    created_word: str = "created"
    """The word that names the counterpart (modifiedByName -> createdByName)."""


class TextParams(_Params):
    min_length: int = Field(default=8, ge=1)


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


@predicate("changed_field_is_id_field", context="update-change")
def changed_field_is_id_field(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field is the type's id field, which never takes a rule."""
    if ctx.field == ctx.id_field:
        return Match({"old": None if ctx.old is _ABSENT else ctx.old, "new": ctx.new})
    return Miss(f"not the id field {ctx.id_field!r}")


@predicate("changed_to_clock", context="update-change", params=ClockWindowParams)
def changed_to_clock(ctx: UpdateChangeContext, params: ClockWindowParams) -> Outcome:
    """The field now holds a timestamp within a window of the call's start; its format is kept."""
    parsed = parse_instant(ctx.new)
    if parsed is None:
        return Miss(f"{_brief(ctx.new)} is no timestamp")
    distance = abs((parsed[0] - aware(ctx.started_at)).total_seconds())
    if distance > params.window_seconds:
        return Miss(f"{distance:.0f} s from the call's start, more than {params.window_seconds}")
    return Match({"params": {"format": parsed[1]}, "seconds_from_start": round(distance, 3)})


@predicate("changed_nested_clocks", context="update-change", params=NestedClockWindowParams)
def changed_nested_clocks(ctx: UpdateChangeContext, params: NestedClockWindowParams) -> Outcome:
    """An object the entity held whose only changes are clocks near the start, in one format, where
    the type's other entities hold the field as objects agreeing in every other member; a later
    read may store those clocks a little apart (Metabase)."""
    old, new = ctx.old, ctx.new
    if not isinstance(old, dict) or not isinstance(new, dict):
        return Miss("not an object the entity held")
    if not same_shape(old, new):
        return Miss("its members changed, not only their values")
    old_leaves, new_leaves = dict(leaves(old)), dict(leaves(new))
    changed = [p for p in new_leaves if not same_value(old_leaves[p], new_leaves[p])]
    if not changed:
        return Miss("unchanged")
    clocks: dict[str, dict[str, Any]] = {}
    for pointer in changed:
        parsed = parse_instant(new_leaves[pointer])
        if parsed is None:
            return Miss(f"{pointer} changed to {_brief(new_leaves[pointer])}, no timestamp")
        if abs((parsed[0] - aware(ctx.started_at)).total_seconds()) > params.window_seconds:
            return Miss(f"{pointer} lies more than {params.window_seconds} s from the call's start")
        clocks[pointer] = parsed[1]
    if len({tuple(sorted(f.items())) for f in clocks.values()}) > 1:
        return Miss("its clocks are written in more than one format")
    problem = _others_disagree(ctx, new_leaves, set(changed))
    if problem:
        return Miss(problem)
    problem = _later_read_apart(ctx, new_leaves, set(changed), params.later_read_tolerance_seconds)
    if problem:
        return Miss(problem)
    return Match({"params": {"clocks": clocks}})


def _others_disagree(ctx: UpdateChangeContext, new_leaves: dict[str, Any], clocks: set[str]) -> str | None:
    others = [e[ctx.field] for e in ctx.other_entities if ctx.field in e]
    if not others:
        return "no other entity of the type holds the field"
    for other in others:
        if not isinstance(other, dict):
            return f"another entity holds {_brief(other)} there, not an object"
        other_leaves = dict(leaves(other))
        if other_leaves.keys() != new_leaves.keys():
            return "another entity's object has other members"
        for pointer, value in new_leaves.items():
            if pointer not in clocks and not same_value(other_leaves[pointer], value):
                return f"another entity's object differs at {pointer}"
    return None


def _later_read_apart(ctx: UpdateChangeContext, new_leaves: dict[str, Any], clocks: set[str],
                      tolerance: float) -> str | None:
    if ctx.later_read is None or ctx.field not in ctx.later_read:
        return None
    stored = ctx.later_read[ctx.field]
    stored_leaves = dict(leaves(stored)) if isinstance(stored, dict) else {}
    if stored_leaves.keys() != new_leaves.keys():
        return "the later read stores another object"
    for pointer, value in new_leaves.items():
        if same_value(stored_leaves[pointer], value):
            continue
        answered, kept = parse_instant(value), parse_instant(stored_leaves[pointer])
        if pointer not in clocks or answered is None or kept is None:
            return f"the later read stores another value at {pointer}"
        if abs((kept[0] - answered[0]).total_seconds()) > tolerance:
            return f"the later read stores {pointer} more than {tolerance:g} s from the answer"
    return None


@predicate("changed_by_increment", context="update-change", params=StepParams)
def changed_by_increment(ctx: UpdateChangeContext, params: StepParams) -> Outcome:
    """An integer the entity held, now greater by one."""
    old, new = ctx.old, ctx.new
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (old, new)):
        return Miss("not an integer the entity held")
    if new - old != params.by:
        return Miss(f"{old} -> {new}, not +{params.by}")
    return Match({"params": {"by": params.by}})


@predicate("changed_to_slug_of_echo", context="update-change")
def changed_to_slug_of_echo(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The slug of a string member the call sent and the entity stores as sent."""
    if not isinstance(ctx.new, str) or not ctx.new:
        return Miss("not a string")
    for member, value in ctx.body.items():
        if (member != ctx.field and isinstance(value, str) and member in ctx.after
                and same_value(ctx.after[member], value) and slugify(value) == ctx.new):
            return Match({"params": {"member": member}})
    return Miss("the slug of no echoed string member")


@predicate("changed_to_fresh_unique", context="update-change", params=TokenParams)
def changed_to_fresh_unique(ctx: UpdateChangeContext, params: TokenParams) -> Outcome:
    """A UUID in place of a UUID, or an opaque token in place of one of the same length, that no
    other entity of the type holds and the call sent nowhere (a version assigned on every update)."""
    old, new = ctx.old, ctx.new
    if is_uuid(old) and is_uuid(new):
        if same_value(old, new):
            return Miss("the same UUID")
        shape: dict[str, Any] = {"format": "uuid", "uppercase": new == new.upper()}
    elif (is_opaque_token(old, params.min_token_length, params.max_token_length)
          and is_opaque_token(new, params.min_token_length, params.max_token_length) and len(old) == len(new)):
        if old == new:
            return Miss("the same token")
        if any(holds(value, new) for name, value in ctx.after.items() if name != ctx.field):
            return Miss("another field of the entity repeats the token")
        shape = {"format": "token", **token_shape(new, [old])}
    else:
        return Miss("not a UUID or opaque token in place of another of the same length")
    if any(holds(entity, new) for entity in ctx.other_entities):
        return Miss("another entity of the type holds it")
    if holds(ctx.body, new):
        return Miss("the call sent it")
    return Match({"params": shape})


def stamp_name(name: str, params: StampNameParams) -> tuple[str, str] | None:
    """(stem, counterpart) of a stamp field's name: ``modifiedByName`` -> (``modifiedby``,
    ``createdByName``); ``last_edited_by`` -> (``lasteditedby``, ``created_by``)."""
    words = name_words(name)
    first = 1 if words and words[0][2] in {w.lower() for w in params.leading_words} else 0
    if len(words) <= first + 1 or words[first][2] not in {w.lower() for w in params.change_words}:
        return None
    by = next((w for w in words[first + 1:] if w[2] == params.by_word.lower()), None)
    if by is None:
        return None
    start = words[0][0]
    created = params.created_word.capitalize() if name[start].isupper() else params.created_word
    stem = "".join(c for c in name[:by[1]].lower() if c.isalnum())
    return stem, name[:start] + created + name[words[first][1]:]


def _stem(name: str, params: StampNameParams) -> str | None:
    named = stamp_name(name, params)
    return named[0] if named else None


@predicate("changed_to_stamp", context="update-change", params=StampNameParams)
def changed_to_stamp(ctx: UpdateChangeContext, params: StampNameParams) -> Outcome:
    """The acting user on a modified…by field: the value the entity held under its created…by
    counterpart, the call sending nothing naming the same thing; a sibling …by field naming the
    same user takes its own counterpart's value, even where the entity lacked it."""
    named = stamp_name(ctx.field, params)
    if named is None:
        return Miss("not named modified…by, updated…by, edited…by or changed…by")
    stem, counterpart = named
    for member in ctx.body:
        if "".join(c for c in member.lower() if c.isalnum()).startswith(stem):
            return Miss(f"the call sent {member}, naming the same thing")
    before = ctx.before or {}
    if counterpart in before and same_value(before[counterpart], ctx.new):
        return Match({"params": {"from_field": counterpart}})
    held = ctx.after.get(counterpart, before.get(counterpart, _ABSENT))
    for sibling, value in ctx.after.items():
        sibling_named = stamp_name(sibling, params) if sibling != ctx.field else None
        if (sibling_named and sibling_named[0] == stem and sibling_named[1] in before
                and same_value(before[sibling_named[1]], value) and held is not _ABSENT
                and same_value(held, ctx.new)):
            return Match({"params": {"from_field": counterpart}, "beside": sibling})
    return Miss(f"the entity held another value under {counterpart}")


def members_stored_nowhere(body: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Body members whose value no field of the observed entity holds."""
    return [m for m, v in body.items() if not any(holds(stored, v) for stored in after.values())]


def derived_text_matches(source: str, value: Any, min_length: int) -> str | None:
    """None when ``value`` shows ``source``'s text, markup aside; else why not."""
    text = plain_text(source)
    if len(text) < min_length:
        return f"the sent text has {len(text)} characters, fewer than {min_length}"
    if not isinstance(value, str) or plain_text(value) != text:
        return "does not show the sent member's text"
    return None


@predicate("changed_to_derived_text", context="update-change", params=TextParams)
def changed_to_derived_text(ctx: UpdateChangeContext, params: TextParams) -> Outcome:
    """The call sent exactly one member the entity stores nowhere, and the field shows that
    member's text, markup aside (Ghost's plaintext from html)."""
    unstored = members_stored_nowhere(ctx.body, ctx.after)
    if len(unstored) != 1:
        return Miss(f"the call sent {len(unstored)} members the entity stores nowhere, not one")
    member = unstored[0]
    source = ctx.body[member]
    if not isinstance(source, str):
        return Miss(f"{member} is not a string")
    problem = derived_text_matches(source, ctx.new, params.min_length)
    if problem:
        return Miss(problem)
    # The member is accepted only as recorded, so the text is fixed: serving stores the recorded
    # value, and only on an entity holding what the recorded call found there.
    held = ctx.old is not _ABSENT
    return Match({"params": {"member": member, "markup": "html" if has_markup(source) else "none",
                             "requires_from": held, "from_value": ctx.old if held else None, "value": ctx.new}})


@predicate("changed_by_renewed_uuids", context="update-change")
def changed_by_renewed_uuids(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """An array or object whose only changes are UUIDs replaced by ones neither it nor another
    entity held: every UUID at the renewed pointers new, one new for each old, alike everywhere."""
    old, new = ctx.old, ctx.new
    if not isinstance(old, (dict, list)) or not isinstance(new, (dict, list)):
        return Miss("not an array or object the entity held")
    if not same_shape(old, new):
        return Miss("its members or rows changed, not only values")
    old_leaves, new_leaves = dict(leaves(old)), dict(leaves(new))
    changed = [p for p in new_leaves if not same_value(old_leaves[p], new_leaves[p])]
    if not changed:
        return Miss("unchanged")
    for pointer in changed:
        if not (is_uuid(old_leaves[pointer]) and is_uuid(new_leaves[pointer])):
            return Miss(f"{pointer} changed to {_brief(new_leaves[pointer])}, not a UUID in place of a UUID")
    pointers = sorted({any_index(p) for p in changed})
    kept = [p for p, v in new_leaves.items() if any_index(p) in pointers and is_uuid(v) and p not in changed]
    if kept:
        return Miss(f"{kept[0]} kept its UUID, though the rows beside it were renewed")
    problem = _renewal_mapping_problem(ctx, old_leaves, new_leaves, changed)
    if problem:
        return Miss(problem)
    return Match({"params": {"pointers": pointers}, "renewed": len(changed)})


def _renewal_mapping_problem(ctx: UpdateChangeContext, old_leaves: dict[str, Any], new_leaves: dict[str, Any],
                             changed: list[str]) -> str | None:
    mapping: dict[str, str] = {}
    for pointer in changed:
        was, now = old_leaves[pointer].lower(), new_leaves[pointer].lower()
        if mapping.setdefault(was, now) != now:
            return f"one UUID renewed into two ({old_leaves[pointer]})"
    if len(set(mapping.values())) != len(mapping):
        return "two UUIDs renewed into one"
    for now in mapping.values():
        if holds(ctx.old, now):
            return f"{now} was already held by the field"
        if any(holds(entity, now) for entity in ctx.other_entities):
            return f"{now} is held by another entity of the type"
    for name, value in ctx.after.items():  # a renewed UUID is renewed alike in every field
        held = (ctx.before or {}).get(name, _ABSENT)
        if name == ctx.field or held is _ABSENT or not same_shape(held, value):
            continue
        after_leaves = dict(leaves(value))
        for pointer, was in leaves(held):
            if is_uuid(was) and was.lower() in mapping and not same_value(after_leaves[pointer], mapping[was.lower()]):
                return f"{name} keeps or renews {was} otherwise"
    return None


@predicate("call_is_action", context="update-change")
def call_is_action(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The call is an item action (/{type}/{id}/archive)."""
    return Match() if ctx.is_action else Miss("not an item action")


@predicate("changed_to_scalar", context="update-change")
def changed_to_scalar(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field holds a scalar (no object or array): the value a set rule gives it."""
    if isinstance(ctx.new, (dict, list)) or ctx.new is _ABSENT:
        return Miss("an object or array")
    return Match({"params": {"value": ctx.new}})


@predicate("changed_to_instant", context="update-change")
def changed_to_instant(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field holds an instant (an ISO-8601 timestamp or epoch seconds or milliseconds)."""
    parsed = parse_instant(ctx.new)
    if parsed is None:
        return Miss(f"{_brief(ctx.new)} is no instant")
    return Match({"instant": ctx.new})
