"""Predicates on two state types that may hold copies of one another's entities (seeds: "Not
modelled": side effects on copies of entities in other collections).

Context ``type-copy``: a state type, another one, and the pairs of initial entities the two hold
under one id. A content API beside an admin API shows each entity again, whole or as a subset of
its members: a write through one changes what the other answers, which serving would not do. A
second API of one application (a compatibility API beside the native one) may spell the same
entity's members in another letter case (``Name`` and ``name``), key it by another of its
identities (its name in one, its id in the other: the pair is then found by the other type's value
at a member spelled as the type's identity field) and show a clock at a coarser precision (the same
instant in whole seconds): still one entity.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .clock_formats import learn_clock_format
from .update_values import same_value


@context_model("type-copy")
class TypeCopyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    other_type: str
    id_field: str = "id"
    other_id_field: str = "id"
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = Field(default_factory=list)
    """The initial entities of the type and of the other type held under one id, in pairs; or, when
    the two hold none under one id, those whose identity the other's entity shows at a member spelled
    as the type's identity field in another letter case or with underscores (``Name``, ``name``)."""


class ProjectionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_shared: int = Field(ge=1)
    """How many entities the two types must both hold."""
    min_fields: int = Field(ge=1)
    """How many members besides the identity each pair must show alike."""


class NamedCopyParams(ProjectionParams):
    min_string: int = Field(ge=1)
    """How long a text (not an instant) one of the members shown alike must be, in each pair: a name
    names its entity where a number or a flag may agree by chance."""


_ISO_INSTANT = re.compile(r"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$")


def coarser_instant(a: Any, b: Any) -> bool:
    """Two ISO-8601 readings of one instant, one at a coarser precision: the same second and zone,
    one fraction the start of the other (``16:29:46Z`` and ``16:29:46.562209355Z``)."""
    if not isinstance(a, str) or not isinstance(b, str) or a == b:
        return False
    ma, mb = _ISO_INSTANT.match(a), _ISO_INSTANT.match(b)
    if ma is None or mb is None or (ma[1], ma[3]) != (mb[1], mb[3]):
        return False
    fa, fb = ma[2] or "", mb[2] or ""
    return fa.startswith(fb) or fb.startswith(fa)


def alike(a: Any, b: Any) -> bool:
    """One value as two views show it: equal, or one instant at two precisions."""
    return same_value(a, b) or coarser_instant(a, b)


def fold(name: str) -> str:
    """A member name without its letter case and underscores (``EnableIPv6``, ``enable_ipv6``)."""
    return name.replace("_", "").lower()


def _projection(mine: dict[str, Any], theirs: dict[str, Any], skip: set[str]) -> set[str] | None:
    """The members the smaller entity shows, when the larger shows every one of them alike."""
    small, large = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    if any(name not in large or not alike(value, large[name]) for name, value in small.items()):
        return None
    return set(small) - skip


@predicate("entities_projected", context="type-copy", params=ProjectionParams)
def entities_projected(ctx: TypeCopyContext, params: ProjectionParams) -> Outcome:
    """Every entity the two types hold under one id shows, in one of them, only members the other
    shows alike (a copy, whole or projected), with enough members besides the identity."""
    if len(ctx.pairs) < params.min_shared:
        return Miss(f"{len(ctx.pairs)} entities held by both, fewer than {params.min_shared}")
    skip = {ctx.id_field, ctx.other_id_field}
    for mine, theirs in ctx.pairs:
        shown = _projection(mine, theirs, skip)
        key = mine.get(ctx.id_field)
        if shown is None:
            return Miss(f"{ctx.type_name} {key!r}: neither entity shows only members the other shows alike")
        if len(shown) < params.min_fields:
            return Miss(f"{ctx.type_name} {key!r}: {len(shown)} member(s) alike besides the identity, "
                        f"fewer than {params.min_fields}")
    return Match({"other": ctx.other_type, "entities": len(ctx.pairs)})


@predicate("entities_overlap_by_name", context="type-copy", params=NamedCopyParams)
def entities_overlap_by_name(ctx: TypeCopyContext, params: NamedCopyParams) -> Outcome:
    """Every entity the two types hold under one id shows alike every member both show, one of them a
    name, each side showing members of its own besides (a search hit's ``{id, title, score}`` beside
    the item ``{id, title, done}``)."""
    if len(ctx.pairs) < params.min_shared:
        return Miss(f"{len(ctx.pairs)} entities held by both, fewer than {params.min_shared}")
    skip = {ctx.id_field, ctx.other_id_field}
    for mine, theirs in ctx.pairs:
        shared = (set(mine) & set(theirs)) - skip
        unlike = sorted(name for name in shared if not alike(mine[name], theirs[name]))
        if unlike:
            return Miss(f"{ctx.type_name} {mine.get(ctx.id_field)!r}: {', '.join(unlike[:3])} shown otherwise by "
                        f"{ctx.other_type}")
    return _named(ctx, params) or Match({"other": ctx.other_type, "entities": len(ctx.pairs)})


def _named(ctx: TypeCopyContext, params: NamedCopyParams) -> Miss | None:
    """None where a member both types show in every pair holds a name there: a text of ``min_string``
    characters or more, not an instant, another in each pair (a value every pair shares, an owner's
    name or id on every entity, names no entity), else why not."""
    skip = {ctx.id_field, ctx.other_id_field}
    common = set.intersection(*((set(mine) & set(theirs)) - skip for mine, theirs in ctx.pairs))
    for name in sorted(common):
        values = [mine[name] for mine, _ in ctx.pairs]
        if all(isinstance(v, str) and len(v) >= params.min_string and learn_clock_format(v) is None for v in values) \
                and len(set(values)) == len(values):
            return None
    return Miss(f"no member shown alike in every pair holds a name (a text of {params.min_string} characters or more, "
                "not an instant, another in each pair)")


@predicate("entities_alike_in_other_spelling", context="type-copy", params=ProjectionParams)
def entities_alike_in_other_spelling(ctx: TypeCopyContext, params: ProjectionParams) -> Outcome:
    """Every entity the two types hold under one identity shows alike every member the other shows
    under the same name once letter case and underscores are set aside (``Driver`` and ``driver``),
    with enough such members besides the identities, and at least one of them (or of the
    identities) spelled otherwise: the same entity in another API's spelling, each side showing
    members of its own besides."""
    if len(ctx.pairs) < params.min_shared:
        return Miss(f"{len(ctx.pairs)} entities held by both, fewer than {params.min_shared}")
    skip = {fold(ctx.id_field), fold(ctx.other_id_field)}
    for mine, theirs in ctx.pairs:
        key = mine.get(ctx.id_field)
        folded = [{fold(name): name for name in entity} for entity in (mine, theirs)]
        if len(folded[0]) < len(mine) or len(folded[1]) < len(theirs):
            return Miss(f"{ctx.type_name} {key!r}: two members spelled alike once case is set aside")
        common = set(folded[0]) & set(folded[1])
        shared = common - skip
        unlike = [folded[0][n] for n in shared if not alike(mine[folded[0][n]], theirs[folded[1][n]])]
        if unlike:
            return Miss(f"{ctx.type_name} {key!r}: {', '.join(sorted(unlike)[:3])} shown otherwise by {ctx.other_type}")
        if len(shared) < params.min_fields:
            return Miss(f"{ctx.type_name} {key!r}: {len(shared)} member(s) alike besides the identity, "
                        f"fewer than {params.min_fields}")
        if all(folded[0][n] == folded[1][n] for n in common):
            return Miss(f"{ctx.type_name} {key!r}: every member both show is spelled alike (no other spelling)")
    return Match({"other": ctx.other_type, "entities": len(ctx.pairs)})
