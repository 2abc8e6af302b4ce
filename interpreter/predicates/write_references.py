"""Predicates on a write's body member that may name another type's entity by its id (contexts
``write-reference`` and ``write-reference-dangling``).

A comment's ``post``, ``postId`` or ``post_id`` names a post: an application that checks it
refuses a comment naming no post (PocketBase answers 400), one that does not stores it as sent
(json-server). Which members are references is read from evidence: the values the tool's
successful calls sent are ids the capture shows entities of one other type holding, that type
being the one the member's name names when a type's path agrees with it (``write-references``).
What a value naming no entity does is read from the tool's recorded calls
(``write-reference-dangling``): a success sending one shows the application accepts it.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import Inflection, InflectionParams, is_plural_of
from .create_values import alnum_lower, reference_suffix, without_reference


class ReferenceCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """A state type other than the written one."""
    words: list[str] = Field(default_factory=list)
    """The literal segments of its collection path (what a member's name may agree with)."""
    holds: list[str] = Field(default_factory=list)
    """Which of the member's values (as text) the capture shows an entity of this type holding as its id."""
    ids: list[str] = Field(default_factory=list)
    """Every id (as text) the capture shows an entity of this type holding, sorted (how the type is keyed)."""
    made: list[str] = Field(default_factory=list)
    """Which of the member's values name the entity of this type the capture's own writes made last
    (an id the initial state did not hold, first shown by a write's answer) before the first
    successful call sending the value."""


@context_model("write-reference")
class WriteReferenceContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    values: list[str] = Field(default_factory=list)
    """The distinct values the tool's successful calls sent under the member, as text (a string
    itself, a number its JSON spelling), blanks left out."""
    types: list[ReferenceCandidate] = Field(default_factory=list)
    """Every other state type."""


class NamedTypeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reference_suffixes: list[str]
    """Left off the member's name before it is compared (``postId``, ``post_id`` -> ``post``)."""
    inflections: list[Inflection] = Field(min_length=1)
    """How a path word may be the plural of the member's word (post and posts)."""
    min_word_length: int = Field(ge=1)
    """A shorter word names no type (``x``, ``id``)."""


def _member_word(member: str, params: NamedTypeParams) -> str:
    return alnum_lower(without_reference(member, params.reference_suffixes))


def named_types(ctx: WriteReferenceContext, params: NamedTypeParams) -> list[tuple[ReferenceCandidate, str]]:
    """The types one of whose path words is the member's word, its plural or its singular, with that word."""
    word = _member_word(ctx.member, params)
    if len(word) < params.min_word_length:
        return []
    inflected = InflectionParams(inflections=params.inflections)
    found = []
    for candidate in ctx.types:
        for segment in candidate.words:
            folded = alnum_lower(segment)
            if folded == word or is_plural_of(folded, word, inflected) or is_plural_of(word, folded, inflected):
                found.append((candidate, segment))
                break
    return found


@predicate("reference_held_by_named_type", context="write-reference", params=NamedTypeParams)
def reference_held_by_named_type(ctx: WriteReferenceContext, params: NamedTypeParams) -> Outcome:
    """A type whose path the member's name names (post, postId or post_id and /posts) holds values the tool's successful calls sent as ids of its entities (the values it does not hold are dangling ones the application accepted)."""
    if not ctx.values:
        return Miss("no successful call sent a value")
    named = named_types(ctx, params)
    if not named:
        return Miss(f"no type's path agrees with the name {ctx.member!r}")
    holding = [(c, w) for c, w in named if c.holds]
    if len(holding) == 1:
        candidate, word = holding[0]
        return Match({"type": candidate.name, "named_by": word, "held": len(candidate.holds),
                      "values": len(ctx.values)})
    if holding:
        return Miss(f"several types named {ctx.member!r} hold its values: {', '.join(c.name for c, _ in holding)}")
    candidate, word = named[0]
    return Miss(f"{candidate.name} (its path names {word!r}) holds none of its values as an id")


@predicate("reference_name_agrees_with_a_type", context="write-reference", params=NamedTypeParams)
def reference_name_agrees_with_a_type(ctx: WriteReferenceContext, params: NamedTypeParams) -> Outcome:
    """The member's name agrees with some type's path: the view says which type it names."""
    named = named_types(ctx, params)
    if named:
        return Match({"named_type": named[0][0].name, "named_by": named[0][1]})
    return Miss(f"no type's path agrees with the name {ctx.member!r}")


class OneTypeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """A value at least this long cannot be an id of another type by chance (a short integer may)."""
    reference_suffixes: list[str]
    """A member named as a reference (``ownerId``) may send shorter values."""


@predicate("reference_held_by_one_type", context="write-reference", params=OneTypeParams)
def reference_held_by_one_type(ctx: WriteReferenceContext, params: OneTypeParams) -> Outcome:
    """Exactly one other type holds every value the tool's successful calls sent as ids of its entities, each value long enough not to be one by chance unless the member is named as a reference."""
    if not ctx.values:
        return Miss("no successful call sent a value")
    named_as_reference = reference_suffix(ctx.member, params.reference_suffixes) is not None
    short = [v for v in ctx.values if len(v) < params.min_length]
    if short and not named_as_reference:
        return Miss(f"{short[0]!r} is shorter than {params.min_length} characters and {ctx.member!r} is not named as "
                    "a reference: it may be another type's id by chance")
    holding = [c for c in ctx.types if set(ctx.values) <= set(c.holds)]
    if len(holding) == 1:
        return Match({"type": holding[0].name, "values": len(ctx.values)})
    if holding:
        return Miss(f"several types hold every value: {', '.join(c.name for c in holding)}")
    return Miss("no other type holds every value as an id")


@predicate("reference_made_by_one_type", context="write-reference")
def reference_made_by_one_type(ctx: WriteReferenceContext, params: BaseModel) -> Outcome:
    """Exactly one other type's entities were made by the capture's own writes with every value the tool's successful calls sent as their ids, each the entity made last before the calls sending it: the client named the entity it had just been answered (a day naming the workout made just before it)."""
    if not ctx.values:
        return Miss("no successful call sent a value")
    making = [c for c in ctx.types if set(ctx.values) <= set(c.made)]
    if len(making) == 1:
        return Match({"type": making[0].name, "values": len(ctx.values)})
    if making:
        return Miss(f"several types made every value: {', '.join(c.name for c in making)}")
    return Miss("no other type's entities were made with every value as their id before the calls sending it")


class NamedKeysParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key_pattern: str
    """A regular expression every sent value and every id of the type fits whole: a name chosen as a
    key (``python3``, ``guest``), with a letter, so no counter or generated number."""
    min_length: int = Field(ge=1)
    """A shorter name (``en``) may equal another type's key by chance."""


@predicate("reference_held_as_named_keys", context="write-reference", params=NamedKeysParams)
def reference_held_as_named_keys(ctx: WriteReferenceContext, params: NamedKeysParams) -> Outcome:
    """Exactly one other type holds every value the tool's successful calls sent as ids of its
    entities, and that type is keyed by names (every id the capture shows it holding is a name of
    the pattern, as every sent value is): a kernel's ``name`` naming one of the kernel specs keyed
    ``python3``. A name matching another type's key by chance is unlikely where the type's every key
    is a chosen name, which a counter or a generated id is not."""
    if not ctx.values:
        return Miss("no successful call sent a value")
    compiled = re.compile(params.key_pattern)
    other = next((v for v in ctx.values if len(v) < params.min_length or not compiled.fullmatch(v)), None)
    if other is not None:
        return Miss(f"{other!r} is no name of the pattern {params.key_pattern} and {params.min_length} or more "
                    "characters")
    holding = [c for c in ctx.types if set(ctx.values) <= set(c.holds)]
    if len(holding) != 1:
        return Miss(f"several types hold every value: {', '.join(c.name for c in holding)}" if holding
                    else "no other type holds every value as an id")
    keyed = holding[0]
    unnamed = next((i for i in keyed.ids if not compiled.fullmatch(i)), None)
    if unnamed is not None:
        return Miss(f"{keyed.name} holds the id {unnamed!r}, no name of the pattern: it is not keyed by names")
    return Match({"type": keyed.name, "values": len(ctx.values), "keys": len(keyed.ids)})


class DanglingCall(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    status: int
    value: Any = None
    """The value the call sent under the member."""
    blank: bool = False
    """A value naming nothing (null, ""), whatever the state holds."""
    held: bool = False
    """The referenced type held an entity with that id when the call began, as far as the capture shows."""
    shown_after: int | None = None
    """A successful call naming no held entity: the read after it that first shows the referenced type
    holding one with that id, no write at that type's collection between (the call made it)."""


@context_model("write-reference-dangling")
class WriteReferenceDanglingContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    type: str
    """The type the member names entities of."""
    calls: list[DanglingCall] = Field(default_factory=list)
    """The tool's recorded calls that sent the member, in ordinal order."""


def _dangling(call: DanglingCall) -> bool:
    return not call.blank and not call.held


@predicate("reference_dangling_materialized", context="write-reference-dangling")
def reference_dangling_materialized(ctx: WriteReferenceDanglingContext, params: BaseModel) -> Outcome:
    """A successful call sent a value naming no entity of the type the capture showed held when it
    began, and a read after it shows the type holding one with that id, with no write of that type
    between: the application made the referenced entity (a tag that exists while a link names it)."""
    for call in ctx.calls:
        if 200 <= call.status < 300 and _dangling(call) and call.shown_after is not None:
            return Match({"record": call.ordinal, "value": call.value, "shown_by": call.shown_after})
    return Miss(f"no read after a call naming no held {ctx.type} entity shows one with that id")


@predicate("reference_dangling_accepted", context="write-reference-dangling")
def reference_dangling_accepted(ctx: WriteReferenceDanglingContext, params: BaseModel) -> Outcome:
    """A successful call sent a value naming no entity of the type the capture showed held when it began: the application accepts such values."""
    for call in ctx.calls:
        if 200 <= call.status < 300 and _dangling(call):
            return Match({"record": call.ordinal, "value": call.value})
    return Miss(f"every successful call named a {ctx.type} entity the capture showed held")


class RefusalParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses an application refuses a write's body with."""


@predicate("reference_dangling_refused", context="write-reference-dangling", params=RefusalParams)
def reference_dangling_refused(ctx: WriteReferenceDanglingContext, params: RefusalParams) -> Outcome:
    """A call answered with a refusal sent a value naming no entity of the type the capture showed held when it began."""
    for call in reversed(ctx.calls):
        if call.status in params.statuses and _dangling(call):
            return Match({"record": call.ordinal, "status": call.status, "value": call.value})
    return Miss(f"no call answered {', '.join(map(str, params.statuses))} sent a value naming no {ctx.type} entity")
