"""Member predicates for members a create accepts only with their recorded value (context ``create-member``).

Each one names a reason serving could not honour another value: the entity nests the object
the member refers to (kept as recorded); a constant derives from the member without holding
its text (parentId and parentName, dateEnd and dateEndDate); a state word other fields go
with (Ghost's status "draft" beside published_at null); or the value also sits in text that
no template rebuilds around it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .clock_formats import parse_date_or_time, seconds_between
from .create_contexts import CreateMemberContext, HeldType
from .create_member_uses import copied_whole_by, echoed_by
from .create_values import (alnum_lower, fullmatch, json_text, leaf_texts, reference_suffix, same_json,
                            token_spans, without_reference)


class NestingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reference_suffixes: list[str]
    """How a member reads as a reference: ``collection_id``, ``collectionId``."""
    identity_members: list[str]
    """The members of a nested object that name it."""


@predicate("create_member_names_nesting_object", context="create-member", params=NestingParams)
def create_member_names_nesting_object(ctx: CreateMemberContext, params: NestingParams) -> Outcome:
    """An echoed reference (collection_id) naming the object the entity nests under the field it refers to (collection)."""
    if echoed_by(ctx) is None:
        return Miss("not echoed")
    if reference_suffix(ctx.member, params.reference_suffixes) is None:
        return Miss("its name does not read as a reference")
    wanted = alnum_lower(without_reference(ctx.member, params.reference_suffixes))
    for name, nested in ctx.entity.items():
        if name == ctx.member or alnum_lower(name) != wanted or not isinstance(nested, dict):
            continue
        for key in params.identity_members:
            if key in nested and _same_id(nested[key], ctx.value):
                return Match({"field": ctx.member, "object_field": name, "object_id_member": key})
        return Miss(f"the object under {name!r} is another entity")
    return Miss(f"the entity nests no object under a field named {wanted!r}")


def _same_id(a: Any, b: Any) -> bool:
    return same_json(a, b) or (json_text(a) is not None and json_text(a) == json_text(b))


class NamedConstantParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reference_suffixes: list[str]
    """Left off before names are compared (a reference's Id or _id)."""
    min_common_characters: int = Field(ge=1)
    """How many letters and digits of one name must begin the other."""
    min_id_length: int = Field(ge=1)
    """A shorter id names another entity only under a member named as a reference."""
    min_text_length: int = Field(ge=1)
    """The length of the named entity's string the constant repeats."""
    max_days: float = Field(gt=0)
    """How far the constant's instant may lie from a sent date or time."""


@predicate("create_member_names_constant", context="create-member", params=NamedConstantParams)
def create_member_names_constant(ctx: CreateMemberContext, params: NamedConstantParams) -> Outcome:
    """A constant named after the member derives from it without holding its text: a string of the entity it names by id, or an instant near the date or time it sends."""
    related = [f for f in ctx.fields_by("constant") if f.field != ctx.member
               and _names_related(ctx.member, f.field, params)]
    if not related:
        return Miss("no constant field is named after it")
    reasons = []
    for field in related:
        constant = field.params.get("value")
        found = _named_entity_repeated(ctx, field.field, constant, params)
        if found:
            return Match({"constant_field": field.field, "via": "named-entity", **found})
        instant = _instant_near(ctx.value, constant, params)
        if instant is not None:
            return Match({"constant_field": field.field, "via": "date", "hours_apart": instant})
        reasons.append(field.field)
    return Miss(f"the constant {', '.join(map(repr, reasons))} neither repeats a string of the entity it names "
                f"nor lies within {params.max_days:g} days of it")


def _names_related(member: str, field: str, params: NamedConstantParams) -> bool:
    """One name's letters and digits begin the other's, a reference's Id left off (parentId and parentName)."""
    a = alnum_lower(without_reference(member, params.reference_suffixes))
    b = alnum_lower(without_reference(field, params.reference_suffixes))
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= params.min_common_characters and longer.startswith(shorter)


def _named_entity_repeated(ctx: CreateMemberContext, field: str, constant: Any,
                           params: NamedConstantParams) -> dict[str, Any] | None:
    """The entity the member names by id whose own long string the constant repeats under another name."""
    text = json_text(ctx.value)
    if text is None or not isinstance(constant, str) or len(constant) < params.min_text_length:
        return None
    if len(text) < params.min_id_length and reference_suffix(ctx.member, params.reference_suffixes) is None:
        return None
    if reference_suffix(field, params.reference_suffixes) is not None:
        return None
    for held in _types_named_by(ctx.member, ctx.held_types, params):
        for entity in held.entities:
            if json_text(entity.get(held.id_field)) != text:
                continue
            for name, value in entity.items():
                if name != field and value == constant and isinstance(value, str) \
                        and reference_suffix(name, params.reference_suffixes) is None:
                    return {"named_type": held.name, "repeats": name}
    return None


def _types_named_by(member: str, types: list[HeldType], params: NamedConstantParams) -> list[HeldType]:
    """The types whose paths hold the member's name when any does, else every type."""
    word = alnum_lower(without_reference(member, params.reference_suffixes))
    named = [t for t in types if any(word and word in alnum_lower(p) for p in t.paths)]
    return named or list(types)


def _instant_near(sent: Any, constant: Any, params: NamedConstantParams) -> float | None:
    """Hours between a sent date or time and the constant's instant, when within max_days (an end date
    stored as a time in another zone)."""
    if not isinstance(sent, str):
        return None
    sent_at, held_at = parse_date_or_time(sent), parse_date_or_time(constant)
    if sent_at is None or held_at is None:
        return None
    apart = abs(seconds_between(held_at, sent_at))
    return round(apart / 3600, 3) if apart <= params.max_days * 86400 else None


class StateWordParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    word_pattern: str
    """What a state word looks like (a lowercase word)."""
    min_sharing_entities: int = Field(ge=1)
    """How many entities, the new one included, must hold the word."""


@predicate("create_member_is_state_word", context="create-member", params=StateWordParams)
def create_member_is_state_word(ctx: CreateMemberContext, params: StateWordParams) -> Outcome:
    """An echoed lowercase word several entities share, where every entity in another state holds a field the new one leaves null (or the reverse), and no recorded call sent another value."""
    word = ctx.value
    if not isinstance(word, str) or not fullmatch(params.word_pattern, word):
        return Miss("not a lowercase word")
    if echoed_by(ctx) is None:
        return Miss("not echoed")
    for body in ctx.other_calls:
        if ctx.member in body and not same_json(body[ctx.member], word):
            return Miss(f"a recorded call sent it as {body[ctx.member]!r}")
    holders = [e for e in ctx.type_entities if ctx.member in e]
    sharing = 1 + sum(1 for e in holders if same_json(e[ctx.member], word))
    if sharing < params.min_sharing_entities:
        return Miss(f"{sharing} entities hold {word!r}, fewer than {params.min_sharing_entities}")
    elsewhere = [e for e in holders if not same_json(e[ctx.member], word)]
    if not elsewhere:
        return Miss("no entity is in another state")
    for name, value in ctx.entity.items():
        if name == ctx.member:
            continue
        if value is None and all(e.get(name) is not None for e in elsewhere):
            return Match({"field": ctx.member, "word": word, "goes_with": name, "new_leaves_null": True,
                          "sharing": sharing})
        if value is not None and all(name in e and e[name] is None for e in elsewhere):
            return Match({"field": ctx.member, "word": word, "goes_with": name, "new_leaves_null": False,
                          "sharing": sharing})
    return Miss("no field is null on one side of the state and held on the other")


class KeptTextParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    delimiters: str = Field(min_length=1)
    """Characters that may border the value inside the text (as in ``field.template``)."""


_NOT_A_DELIMITER = "\x00"


@predicate("create_member_sits_in_kept_text", context="create-member", params=KeptTextParams)
def create_member_sits_in_kept_text(ctx: CreateMemberContext, params: KeptTextParams) -> Outcome:
    """An echoed or wholly copied member whose value also sits, as a token, in a constant or in the text a template keeps."""
    lands = echoed_by(ctx) or copied_whole_by(ctx)
    if lands is None:
        return Miss("neither echoed nor copied whole")
    text = json_text(ctx.value)
    if not text:
        return Miss("not a string or number")
    for field in ctx.fields:
        for kept in _kept_texts(field.op, field.params):
            if token_spans(kept, text, params.delimiters):
                return Match({"field": lands.field, "kept_in": field.field})
    return Miss("no constant or template text keeps its value")


def _kept_texts(op: str, op_params: dict[str, Any]) -> list[str]:
    """The texts a field keeps as recorded: a constant's strings and numbers, a template's literal
    parts (each bordered by a non-delimiter where a rebuilt source adjoins it)."""
    if op == "constant":
        return list(leaf_texts(op_params.get("value")))
    if op != "template":
        return []
    parts = op_params.get("parts", [])
    texts = []
    for index, part in enumerate(parts):
        if isinstance(part, str):
            before = _NOT_A_DELIMITER if index > 0 else ""
            after = _NOT_A_DELIMITER if index < len(parts) - 1 else ""
            texts.append(before + part + after)
    return texts
