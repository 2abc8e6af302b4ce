"""Predicates on a member of one type's entities that may name an entity of a deleted type
(context ``delete-referrer``).

An issue's ``"project": {"id": 2, "name": "Gemini"}``, a comment's ``postId`` or ``post``: an
application deleting the entity they name may delete them with it (Redmine drops a project's
issues), clear the reference (PocketBase) or refuse the delete, and none of these is modelled
(a delete removes the entity alone). Which members name the deleted type is read from the
entities the capture shows: the member's name names the type's own path word and its values are
ids the type holds, its object values repeat, member for member, the entity they name, or their
other values are made of that entity's words (Redmine's ``"assigned_to": {"id": 5, "name": "Ada
Lovelace"}`` beside user 5's firstname and lastname). Where ids of several types collide (small
integers), a member all of whose ids the type holds and that no other type explains is taken for a
reference too: refusing such a delete is honest, serving it may be a wrong answer.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import Inflection, InflectionParams, is_plural_of
from .create_values import alnum_lower, reference_suffix, without_reference


@context_model("delete-referrer")
class DeleteReferrerContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    """A member of the referring type's entities: top-level, or inside the objects ``within`` leads to."""
    within: list[str] = Field(default_factory=list)
    """The members leading from the entity to the objects holding ``member`` (a JSON:API
    resource's ``relationships``, ``author`` before ``data``); empty: ``member`` is top-level."""
    id_member: str | None = None
    """Where the member holds objects: the member of each object compared with the deleted type's
    ids (its identity field). None: the member's value itself is compared."""
    type_words: list[str] = Field(default_factory=list)
    """The deleted type's own words: the literal segments of its collection path that no parameter
    follows (``versions`` of ``/projects/{project_id}/versions``; ``projects`` there names a parent)."""
    referring_words: list[str] = Field(default_factory=list)
    """The referring type's own words, alike (``hosts`` of ``/v1/objects/hosts``)."""
    values: list[str] = Field(default_factory=list)
    """The distinct ids the member names across the referring type's entities, as text."""
    held: list[str] = Field(default_factory=list)
    """Those of ``values`` the deleted type's entities hold as their ids."""
    objects: int = 0
    """Object values naming a held entity."""
    projections: int = 0
    """Of those, objects with at least two members, every one of which the named entity holds with
    the same value (``{"id": 1, "name": "Bug"}`` beside tracker 1 ``{"id": 1, "name": "Bug", ...}``)."""
    composed: int = 0
    """Of ``objects``, those with at least two members, each of the others the named entity's value
    under that name or text made only of the words of the entity's text values (``"name": "Ada
    Lovelace"`` beside user 5's ``firstname`` Ada and ``lastname`` Lovelace), where not every
    other entity the type holds composes it alike."""
    bare: int = 0
    """Of ``objects``, those holding the id alone (``{"id": 5}``), which show nothing of what they name."""
    dangling_refusals: int = 0
    """Recorded writes to the referring type's collection sending the member (top-level) a value no
    entity of any type holds, refused (4xx) with an answer naming the member: the application
    checks it as a reference (doccano's category ``label`` 999: 'Invalid pk "999" - object does
    not exist.')."""
    many: bool = False
    """The member holds an array of such values (``coaches: [7, 8]``), not one."""
    explained_by: list[str] = Field(default_factory=list)
    """Other types the member names by this table's explaining rules (its name, projected or
    composed objects): computed only when the deleted type holds every value, where ids of
    several types may collide."""


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


@predicate("referrer_member_completes_type_word", context="delete-referrer", params=NamedMemberParams)
def referrer_member_completes_type_word(ctx: DeleteReferrerContext, params: NamedMemberParams) -> Outcome:
    """One of the deleted type's path words is one of the referring type's words (or its singular)
    followed by the member's name (or its plural), its reference suffix left off: a host's groups
    name the hostgroups, a user's role_ids the userroles."""
    word = alnum_lower(without_reference(ctx.member, params.reference_suffixes))
    if len(word) < params.min_word_length:
        return Miss(f"{ctx.member!r} is too short to name a type")
    inflected = InflectionParams(inflections=params.inflections)
    for segment in ctx.type_words:
        folded = alnum_lower(segment)
        for split in range(params.min_word_length, len(folded) - params.min_word_length + 1):
            head, tail = folded[:split], folded[split:]
            if tail != word and not is_plural_of(tail, word, inflected):
                continue
            for referring in ctx.referring_words:
                own = alnum_lower(referring)
                if head == own or is_plural_of(own, head, inflected):
                    return Match({"member": ctx.member, "named_by": segment, "referring_word": referring})
    return Miss(f"no word of the type ({', '.join(ctx.type_words) or 'none'}) is a word of the referring type "
                f"({', '.join(ctx.referring_words) or 'none'}) followed by {word!r}")


class HeldParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_held: int = Field(ge=1)


@predicate("referrer_values_held", context="delete-referrer", params=HeldParams)
def referrer_values_held(ctx: DeleteReferrerContext, params: HeldParams) -> Outcome:
    """At least min_held of the ids the member names are ids the deleted type's entities hold."""
    if len(ctx.held) >= params.min_held:
        return Match({"held": len(ctx.held), "values": len(ctx.values)})
    return Miss(f"{len(ctx.held)} of its {len(ctx.values)} values are ids the type holds")


class ObjectsParams(BaseModel):
    """How many object values must name a held entity (both object predicates)."""
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_objects: int = Field(ge=1)


@predicate("referrer_objects_projected", context="delete-referrer", params=ObjectsParams)
def referrer_objects_projected(ctx: DeleteReferrerContext, params: ObjectsParams) -> Outcome:
    """Every object value naming a held entity repeats that entity, member for member (two or more), and there are at least min_objects of them: a reference whatever the member is called (an issue's tracker, a project's parent)."""
    if ctx.id_member is None:
        return Miss("the member holds no objects")
    if ctx.objects < params.min_objects:
        return Miss(f"{ctx.objects} of its objects name an entity the type holds")
    if ctx.projections < ctx.objects:
        return Miss(f"{ctx.objects - ctx.projections} of its {ctx.objects} objects differ from the entity they name")
    return Match({"member": ctx.member, "objects": ctx.objects})


@predicate("referrer_objects_composed", context="delete-referrer", params=ObjectsParams)
def referrer_objects_composed(ctx: DeleteReferrerContext, params: ObjectsParams) -> Outcome:
    """Every object value naming a held entity shows, beside its id, only that entity's values or text made of its words, and there are at least min_objects of them: a summary of the entity whatever the member is called (an issue's assigned_to {id, name} beside a user's firstname and lastname)."""
    if ctx.id_member is None:
        return Miss("the member holds no objects")
    if ctx.objects < params.min_objects:
        return Miss(f"{ctx.objects} of its objects name an entity the type holds")
    if ctx.composed < ctx.objects:
        return Miss(f"{ctx.objects - ctx.composed} of its {ctx.objects} objects show values "
                    "the entity they name does not hold")
    return Match({"member": ctx.member, "objects": ctx.objects})


class UnexplainedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reference_suffixes: list[str]
    """A scalar member must end in one to be taken for an id (``assigned_to_id``; ``position`` is no reference)."""
    min_values: int = Field(ge=1)
    min_key_length: int = Field(ge=1)
    """A scalar ending in no suffix qualifies when every value is text this long, not all digits
    (a UUID, a hex or a slug key): ids of other types do not collide with those as small integers do."""
    min_array_values: int | None = Field(default=None, ge=1)
    """An array of scalars ending in no suffix qualifies when it names at least this many distinct
    values, every one an id the type holds (a classroom's ``coaches: [7]`` beside ``[8, 9]``): a
    list of that many of one type's ids and no other's is a list of references. None: never."""


def _generated_key(value: str, min_length: int) -> bool:
    return len(value) >= min_length and not value.isdigit()


@predicate("referrer_ids_unexplained", context="delete-referrer", params=UnexplainedParams)
def referrer_ids_unexplained(ctx: DeleteReferrerContext, params: UnexplainedParams) -> Outcome:
    """Every id the member names (at least min_values) is an id the type holds, the member holds objects of the id alone, ends in a reference suffix or holds only long keys (a user_created UUID), and no other type explains it: the member may name this type, so a delete is refused rather than served wrong."""
    if (ctx.id_member is None and reference_suffix(ctx.member, params.reference_suffixes) is None
            and not all(_generated_key(v, params.min_key_length) for v in ctx.values)
            and not (ctx.many and params.min_array_values is not None and len(ctx.values) >= params.min_array_values)):
        return Miss(f"{ctx.member!r} holds scalars, ends in no reference suffix and not only keys of "
                    f"{params.min_key_length} or more characters"
                    + (f", nor is it an array of {params.min_array_values} or more values"
                       if params.min_array_values is not None else ""))
    if ctx.id_member is not None and ctx.bare < ctx.objects:
        return Miss(f"{ctx.objects - ctx.bare} of its {ctx.objects} objects show more than the id, "
                    "and neither repeat nor summarise the entity they would name")
    if len(ctx.values) < params.min_values or len(ctx.held) < len(ctx.values):
        return Miss(f"{len(ctx.held)} of its {len(ctx.values)} values are ids the type holds")
    if ctx.explained_by:
        return Miss(f"{ctx.member!r} names {', '.join(ctx.explained_by)}")
    return Match({"member": ctx.member, "values": len(ctx.values)})


class RefusedDanglingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_refusals: int = Field(ge=1)
    """How many recorded refusals of a dangling value show the member checked as a reference."""


@predicate("referrer_refused_when_dangling", context="delete-referrer", params=RefusedDanglingParams)
def referrer_refused_when_dangling(ctx: DeleteReferrerContext, params: RefusedDanglingParams) -> Outcome:
    """Every id the member names is one the type holds, and the application refused a recorded write
    sending it a value no type holds, naming the member: a checked reference, which may name this
    type whatever it is called (doccano's category ``label``, a category type's id), so a delete is
    refused rather than served wrong (doccano deletes a category type's categories with it)."""
    if ctx.dangling_refusals < params.min_refusals:
        return Miss(f"{ctx.dangling_refusals} recorded refusal(s) of a value naming no entity in {ctx.member!r}, "
                    f"fewer than {params.min_refusals}")
    if not ctx.values or len(ctx.held) < len(ctx.values):
        return Miss(f"{len(ctx.held)} of its {len(ctx.values)} values are ids the type holds")
    if ctx.explained_by:
        return Miss(f"{ctx.member!r} names {', '.join(ctx.explained_by)}")
    return Match({"member": ctx.member, "refusals": ctx.dangling_refusals})
