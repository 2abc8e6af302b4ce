"""Predicates on an item path lying outside the one list that lists its entities (shallow
nesting: ``GET /projects/{p}/versions`` lists and creates, ``GET /versions/{id}`` reads one):
whether the item reads and the nested list's reads show one kind of entity.

Context ``shallow-item``: an item tool with no list at its own collection path, and the one list
under a parent whose last literal is the same word, with the entities each one's successful reads
answered.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import InflectionParams, is_plural_of
from .update_values import same_value


@context_model("shallow-item")
class ShallowItemContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    item_template: str
    list_template: str
    id_field: str = "id"
    """The identity the item reads carry their path value in."""
    list_id_field: str = "id"
    """The identity of the list's entities."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = Field(default_factory=list)
    """An entity an item read answered beside the one a list read listed under the same identity
    value, the two read with no write between them."""
    moving: list[str] = Field(default_factory=list)
    """Members one read line showed changing with no write between (a clock, a counter the
    application moves by itself): no evidence either way, so left out of the comparison."""


class SharedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_shared: int = Field(ge=1)
    """How many identity values both must show."""


class AlikeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_fields: int = Field(ge=1)
    """How many members besides the identity an item read and a list read of one id must show alike."""


def _segments(template: str) -> list[str]:
    return [part for part in template.strip("/").split("/") if part]


def _param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


@predicate("shallow_list_under_parent", context="shallow-item")
def shallow_list_under_parent(ctx: ShallowItemContext, params: BaseModel) -> Outcome:
    """The list's path is the item's collection path with a parent's item path put before its last
    word (``/api/versions/{id}`` beside ``/api/projects/{project}/versions``): the same literal
    segments before, the same last word, and between them segments ending in a parameter."""
    item, listed = _segments(ctx.item_template), _segments(ctx.list_template)
    if len(item) < 2 or not _param(item[-1]) or _param(item[-2]):
        return Miss(f"{ctx.item_template} does not end in a literal word and one parameter")
    before, word = item[:-2], item[-2]
    if len(listed) < len(before) + 3 or listed[-1] != word or listed[:len(before)] != before:
        return Miss(f"{ctx.list_template} is not {'/'.join(before) or '(root)'}/.../{word}")
    between = listed[len(before):-1]
    if not _param(between[-1]) or _param(between[0]):
        return Miss(f"{ctx.list_template} does not name a parent's item ({'/'.join(between)}) before {word!r}")
    return Match({"word": word, "parent": "/".join(between)})


def _key(entity: dict[str, Any], field: str) -> str | None:
    value = entity.get(field)
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _by_id(ctx: ShallowItemContext) -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    found: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for item, listed in ctx.pairs:
        key = _key(item, ctx.id_field)
        if key is not None and key == _key(listed, ctx.list_id_field):
            found.setdefault(key, []).append((item, listed))
    return found


@predicate("shallow_ids_shared", context="shallow-item", params=SharedParams)
def shallow_ids_shared(ctx: ShallowItemContext, params: SharedParams) -> Outcome:
    """Both carry the identity in the same member, and at least ``min_shared`` of its values are
    answered by an item read and listed by the list with no write between."""
    if ctx.id_field != ctx.list_id_field:
        return Miss(f"the item reads' identity {ctx.id_field!r} is not the list's {ctx.list_id_field!r}")
    shared = _by_id(ctx)
    if len(shared) < params.min_shared:
        return Miss(f"{len(shared)} {ctx.id_field!r} value(s) both show with no write between, "
                    f"fewer than {params.min_shared}")
    return Match({"shared": len(shared)})


def _alike(item: dict[str, Any], listed: dict[str, Any], skip: str, moving: frozenset[str] = frozenset()
           ) -> set[str] | None:
    """The members both show, when every one of them is alike and one entity's members are all the
    other's; members that move by themselves are neither compared nor counted."""
    if not (set(item) <= set(listed) or set(listed) <= set(item)):
        return None
    common = (set(item) & set(listed)) - moving
    if any(not same_value(item[name], listed[name]) for name in common):
        return None
    return common - {skip}


@predicate("shallow_entities_alike", context="shallow-item", params=AlikeParams)
def shallow_entities_alike(ctx: ShallowItemContext, params: AlikeParams) -> Outcome:
    """Every item read and list read of one identity value with no write between show the same
    entity: one's members are all the other's (the whole entity or a projection of it), every member
    both show is alike, and at least ``min_fields`` besides the identity are. Ids numbered per parent
    (another entity under each) show otherwise."""
    shared = _by_id(ctx)
    if not shared:
        return Miss("no identity value both show with no write between")
    fewest: int | None = None
    for key in sorted(shared):
        for item, listed in shared[key]:
            common = _alike(item, listed, ctx.id_field, frozenset(ctx.moving))
            if common is None:
                return Miss(f"{ctx.id_field} {key}: an item read and a list read show members of another entity")
            if len(common) < params.min_fields:
                return Miss(f"{ctx.id_field} {key}: {len(common)} member(s) alike besides the identity, "
                            f"fewer than {params.min_fields}")
            fewest = len(common) if fewest is None else min(fewest, len(common))
    return Match({"ids": len(shared), "fewest_alike": fewest})


@predicate("item_word_singular_of_list_word", context="shallow-item", params=InflectionParams)
def item_word_singular_of_list_word(ctx: ShallowItemContext, params: InflectionParams) -> Outcome:
    """The item path is the list's path with its last word in the singular and one parameter after
    (``/alert/{id}`` beside ``/alerts``): the same segments before, the word the list word's singular."""
    item, listed = _segments(ctx.item_template), _segments(ctx.list_template)
    if len(item) < 2 or not _param(item[-1]) or _param(item[-2]):
        return Miss(f"{ctx.item_template} does not end in a literal word and one parameter")
    if len(listed) != len(item) - 1 or not listed or _param(listed[-1]) or listed[:-1] != item[:-2]:
        return Miss(f"{ctx.list_template} is not {ctx.item_template} but for its last word and parameter")
    if not is_plural_of(listed[-1], item[-2], params):
        return Miss(f"{listed[-1]!r} is no plural of {item[-2]!r}")
    return Match({"word": item[-2], "list_word": listed[-1]})
