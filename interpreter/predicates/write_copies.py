"""Predicates on where else the capture shows an entity a write changes: an object at another
path (outside the type's collection) carrying the entity's identity at the same identity field
is a copy of it in another collection, which an update or delete of the entity would leave as it
was (write-effects, "Not modelled": side effects on copies of entities in other collections).

Context ``write-copy``: one entity a successful call wrote, its identity, and the reads of other
paths whose answers hold an object carrying that identity.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-copy")
class WriteCopyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id_field: str
    identity: Any
    """The written entity's identity value."""
    shown_at: list[str] = Field(default_factory=list)
    """Records (``#ordinal path``) outside the type's collection whose answer holds an object with
    that identity at ``id_field``."""
    effect: str = "update"
    """The write's effect: ``update``, ``action`` or ``delete``."""
    kept: dict[str, str] = Field(default_factory=dict)
    """Those of ``shown_at`` that serving keeps from answering the copy stale, each with how
    (``plans/copies._kept``): a replayed read refused once the type is written, a document the state
    holds (summarising the type, refused once it is written; or else one a write showing its entity
    is refused by per call), a list of the type's own the state answers."""
    kept_beneath: dict[str, str] = Field(default_factory=dict)
    """Those of ``kept`` whose path lies below another type's item path (a list's roster beneath
    ``/lists/{id}``), each with that path: the copy belongs to that entity, whose own reads may count
    it (a list's ``member_count``), which a delete changes and serving leaves as it was."""
    nested_in: list[str] = Field(default_factory=list)
    """Records (``#ordinal path (id_field value)``, inside the type's collection or not) whose answer
    holds an object of the type (a string identity at ``id_field``, most of its members fields of the
    type; for an update, one showing a field it writes) nested inside another object carrying
    ``id_field`` with another value: the type's entities have copies inside one another (a folder's
    ``children`` holding its files), so the written one may have one too."""
    embedded_in: list[dict[str, Any]] = Field(default_factory=list)
    """Objects of the type embedded inside an entity another type's read answered (``{"at": "#ordinal
    path (id_field value inside outer)", "members": n}``): the identity one of the type's own plain
    reads shows, every other member (``n`` of them) equal to what such a read showed of it; for an
    update, one showing a field it writes."""
    referencing: list[str] = Field(default_factory=list)
    """Those of ``shown_at`` whose object is another entity naming this one: it carries an identity
    member of its own with another value, and fewer than ``type_share`` of its members are fields
    of the written type (a list naming its domain by ``mail_host``)."""
    sharing: list[str] = Field(default_factory=list)
    """Those of ``shown_at`` whose object is another entity carrying the same identity: it disagrees
    with the written entity on a member every one of the type's own reads of the entity showed with
    one unchanged value (a credential keyed by its consumer's id, created at another instant)."""


class MinLengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    references_exempt: list[str] = Field(default_factory=list)
    """Effects a referencing object, or another entity sharing the identity, cannot go stale under:
    an update leaves the identity it names as it was (a delete may take the referencing entity with
    it, so it stays a copy there)."""
    kept_exempt: list[str] = Field(default_factory=list)
    """Effects whose copies serving keeps from answering stale where a read showing them is
    ``kept`` (refused after the write, or the write refused per call where the state holds the copy)."""
    kept_beneath_exempt: list[str] = Field(default_factory=list)
    """Of those, the effects a kept read below another entity's item path is exempt under too: an
    update leaves that entity's membership as it was, a delete removes a member of it (a count its
    own reads show would go stale)."""


@predicate("identity_shown_elsewhere", context="write-copy", params=MinLengthParams)
def identity_shown_elsewhere(ctx: WriteCopyContext, params: MinLengthParams) -> Outcome:
    """A read of another path answered an object carrying the entity's identity (a string of at
    least ``min_length`` characters, so a shared small number or word is no evidence), other than
    an entity naming it where the write's effect leaves such a reference as it was."""
    if not isinstance(ctx.identity, str) or len(ctx.identity) < params.min_length:
        return Miss(f"the identity {ctx.identity!r} is no string of {params.min_length} or more characters")
    if not ctx.shown_at:
        return Miss(f"no read outside the type's collection shows an object with {ctx.id_field} {ctx.identity!r}")
    places = ctx.shown_at
    if ctx.effect in params.references_exempt:
        places = [p for p in ctx.shown_at if p not in ctx.referencing and p not in ctx.sharing]
        if not places:
            others = [p for p in ctx.shown_at if p in ctx.referencing or p in ctx.sharing]
            return Miss(f"every object elsewhere with {ctx.id_field} {ctx.identity!r} is another entity naming it "
                        f"or sharing its identity ({', '.join(others[:3])}), which an {ctx.effect} leaves as it was")
    if ctx.effect in params.kept_exempt:
        exempt = {p for p in ctx.kept if ctx.effect in params.kept_beneath_exempt or p not in ctx.kept_beneath}
        kept = [p for p in places if p in exempt]
        places = [p for p in places if p not in exempt]
        if not places:
            return Miss(f"every read elsewhere showing {ctx.id_field} {ctx.identity!r} is one serving keeps from "
                        "answering it stale: " + "; ".join(f"{p} ({ctx.kept[p]})" for p in kept[:3]))
    beneath = [f"{p} ({ctx.kept_beneath[p]})" for p in places if p in ctx.kept_beneath]
    return Match({"identity": ctx.identity, "shown_at": places[:3], **({"beneath": beneath[:3]} if beneath else {})})


@predicate("type_nested_in_entity", context="write-copy", params=MinLengthParams)
def type_nested_in_entity(ctx: WriteCopyContext, params: MinLengthParams) -> Outcome:
    """Reads answered entities of the written type (identities of strings of at least
    ``min_length`` characters) nested inside another entity of it: the written entity may have such
    a copy, which a write of the entity alone would leave as it was."""
    if not isinstance(ctx.identity, str) or len(ctx.identity) < params.min_length:
        return Miss(f"the identity {ctx.identity!r} is no string of {params.min_length} or more characters")
    if not ctx.nested_in:
        return Miss(f"no read shows an entity of the type nested inside another carrying {ctx.id_field}")
    return Match({"identity": ctx.identity, "shown_at": ctx.nested_in[:3]})


class MinMembersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """How many members besides the identity an embedded object must show, all equal to the
    entity's, to be a copy and not a coincidence of a small identity."""


@predicate("type_embedded_in_other_entity", context="write-copy", params=MinMembersParams)
def type_embedded_in_other_entity(ctx: WriteCopyContext, params: MinMembersParams) -> Outcome:
    """Another type's read answered an entity of the written type embedded whole inside its own
    (at least ``min_members`` members besides the identity, all equal to what the type's reads
    show): the type's creates, updates and deletes change that other entity's read too."""
    places = [e["at"] for e in ctx.embedded_in if e["members"] >= params.min_members]
    if not places:
        return Miss(f"no read of the entity the collection lies beneath embeds one of this type with {params.min_members} or more "
                    "members equal to its own")
    return Match({"identity": ctx.identity, "shown_at": places[:3]})
