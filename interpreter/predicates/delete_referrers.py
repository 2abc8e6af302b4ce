"""Predicates on a member of one type's entities that may name an entity of a deleted type
(context ``delete-referrer``).

An issue's ``"project": {"id": 2, "name": "Gemini"}``, a comment's ``postId`` or ``post``: an
application deleting the entity they name may delete them with it (Redmine drops a project's
issues), clear the reference (PocketBase) or refuse the delete, and none of these is modelled
(a delete removes the entity alone). Which members name the deleted type is read from the
entities the capture shows: the member's name names the type's own path word and its values are
ids the type holds, or its object values repeat, member for member, the entity they name.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import Inflection, InflectionParams, is_plural_of
from .create_values import alnum_lower, without_reference


@context_model("delete-referrer")
class DeleteReferrerContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    """A top-level member of the referring type's entities."""
    id_member: str | None = None
    """Where the member holds objects: the member of each object compared with the deleted type's
    ids (its identity field). None: the member's value itself is compared."""
    type_words: list[str] = Field(default_factory=list)
    """The deleted type's own words: the literal segments of its collection path that no parameter
    follows (``versions`` of ``/projects/{project_id}/versions``; ``projects`` there names a parent)."""
    values: list[str] = Field(default_factory=list)
    """The distinct ids the member names across the referring type's entities, as text."""
    held: list[str] = Field(default_factory=list)
    """Those of ``values`` the deleted type's entities hold as their ids."""
    objects: int = 0
    """Object values naming a held entity."""
    projections: int = 0
    """Of those, objects with at least two members, every one of which the named entity holds with
    the same value (``{"id": 1, "name": "Bug"}`` beside tracker 1 ``{"id": 1, "name": "Bug", ...}``)."""


class NamedMemberParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reference_suffixes: list[str]
    """Left off the member's name before it is compared (``postId``, ``post_id`` -> ``post``)."""
    inflections: list[Inflection] = Field(min_length=1)
    """How a path word may be the plural of the member's word (post and posts)."""
    min_word_length: int = Field(ge=1)
    """A shorter word names no type (``x``, ``id``)."""


@predicate("referrer_member_names_type", context="delete-referrer", params=NamedMemberParams)
def referrer_member_names_type(ctx: DeleteReferrerContext, params: NamedMemberParams) -> Outcome:
    """The member's name, its reference suffix left off, is one of the deleted type's own path words, its singular or its plural (project and /projects, post_id and /posts)."""
    word = alnum_lower(without_reference(ctx.member, params.reference_suffixes))
    if len(word) < params.min_word_length:
        return Miss(f"{ctx.member!r} is too short to name a type")
    inflected = InflectionParams(inflections=params.inflections)
    for segment in ctx.type_words:
        folded = alnum_lower(segment)
        if folded == word or is_plural_of(folded, word, inflected) or is_plural_of(word, folded, inflected):
            return Match({"member": ctx.member, "named_by": segment})
    return Miss(f"{ctx.member!r} names none of the type's words ({', '.join(ctx.type_words) or 'none'})")


class HeldParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_held: int = Field(ge=1)


@predicate("referrer_values_held", context="delete-referrer", params=HeldParams)
def referrer_values_held(ctx: DeleteReferrerContext, params: HeldParams) -> Outcome:
    """At least min_held of the ids the member names are ids the deleted type's entities hold."""
    if len(ctx.held) >= params.min_held:
        return Match({"held": len(ctx.held), "values": len(ctx.values)})
    return Miss(f"{len(ctx.held)} of its {len(ctx.values)} values are ids the type holds")


class ProjectedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_objects: int = Field(ge=1)


@predicate("referrer_objects_projected", context="delete-referrer", params=ProjectedParams)
def referrer_objects_projected(ctx: DeleteReferrerContext, params: ProjectedParams) -> Outcome:
    """Every object value naming a held entity repeats that entity, member for member (two or more), and there are at least min_objects of them: a reference whatever the member is called (an issue's tracker, a project's parent)."""
    if ctx.id_member is None:
        return Miss("the member holds no objects")
    if ctx.objects < params.min_objects:
        return Miss(f"{ctx.objects} of its objects name an entity the type holds")
    if ctx.projections < ctx.objects:
        return Miss(f"{ctx.objects - ctx.projections} of its {ctx.objects} objects differ from the entity they name")
    return Match({"member": ctx.member, "objects": ctx.objects})
