"""Predicates on the shape of one string: patterns, lengths, character classes.

Context ``segment``: one path segment of a recorded call, as the manifest sees it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import token_shape
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("segment")
class SegmentContext(BaseModel):
    """A path segment: its raw text, and whether the application returned it as an identity."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: str
    under_span: bool = False
    """The segment sits where a parameter spanning segments begins (``manifest-path-spans``): the
    recorded path's rest, folded into this one segment."""
    returned_as_identity: bool = False
    read_back: bool = False
    """The successful read of the path ending in this segment answered the value as a member's
    (an item read naming its entity by a value it holds)."""
    array_element: bool = False
    """A successful read of the path two segments above answered the value as a string element of
    the array member the segment between names (a tag at /images/{id}/tags/{tag}, held in ``tags``)."""
    spells_identity_otherwise: bool = False
    """The value is no identity the application returned, but spells one otherwise: another letter
    case, without or with a final dot or dashes (``loose_spelling``)."""
    sibling_identity_shapes: list[str] = []
    """Shape classes (see ``shape_class``) of sibling values the application returned as identities."""
    sibling_token_shapes: list[str] = []
    """Token shapes (see ``token_shape``) of the sibling values a token rule took (``token_model``)
    that the application returned as identities, one per value."""
    sibling_kind_values: int = 0
    """How many identifier-shaped sibling values (this one among them) have reads showing entities."""
    sibling_kind_overlap: float | None = None
    """The largest share of entity members two of those values' reads have in common (None with
    fewer than two): low when each value leads to a different kind of entity."""
    lists_siblings: int = 0
    """How many sibling values (the other values at this path position) the successful reads of
    this value's own path list as members of the objects of an array (``listings.listed_siblings``):
    a listing of the entities its siblings name."""
    read_itself: bool = False
    """A record's path ends in this segment (the value was read or written as an item itself)."""
    read_back_below: int = 0
    """How many distinct values one segment below this one a successful read answered as a member
    of its entity (``read_back``): /notes/slug/{slug} reads notes by their slug."""


def shape_class(value: str) -> str:
    """Letter case and separators of a value, digits ignored: ``pool-r1-0`` -> ``lower:-``."""
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    case = "mixed" if has_lower and has_upper else "lower" if has_lower else "upper" if has_upper else "none"
    separators = "".join(sorted({c for c in value if not c.isalnum()}))
    return f"{case}:{separators}"


class PatternParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A Python regular expression the whole value must match."""
    ignore_case: bool = False
    min_length: int = Field(default=1, ge=0)
    max_length: int | None = Field(default=None, ge=1)


@lru_cache(maxsize=256)
def _compiled(pattern: str, ignore_case: bool) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


@predicate("segment_matches", context="segment", params=PatternParams)
def segment_matches(ctx: SegmentContext, params: PatternParams) -> Outcome:
    """The whole segment matches a regular expression, within a length range."""
    value = ctx.value
    if len(value) < params.min_length:
        return Miss(f"{len(value)} characters, fewer than {params.min_length}")
    if params.max_length is not None and len(value) > params.max_length:
        return Miss(f"{len(value)} characters, more than {params.max_length}")
    if not _compiled(params.pattern, params.ignore_case).fullmatch(value):
        return Miss(f"{value!r} does not match {params.pattern}")
    return Match({"value": value})


class ClassesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    letters: bool = False
    """At least one letter is required."""
    digits: bool = False
    """At least one digit is required."""


@predicate("segment_has_classes", context="segment", params=ClassesParams)
def segment_has_classes(ctx: SegmentContext, params: ClassesParams) -> Outcome:
    """The segment holds the required character classes (letters, digits)."""
    if params.letters and not any(c.isalpha() for c in ctx.value):
        return Miss("holds no letter")
    if params.digits and not any(c.isdigit() for c in ctx.value):
        return Miss("holds no digit")
    return Match()


@predicate("segment_under_span", context="segment")
def segment_under_span(ctx: SegmentContext, params: BaseModel) -> Outcome:
    """The segment is where a parameter spanning segments begins (the prefix's answers proved it)."""
    if ctx.under_span:
        return Match({"value": ctx.value})
    return Miss("no spanning parameter begins here")


@predicate("segment_returned_as_identity", context="segment")
def segment_returned_as_identity(ctx: SegmentContext, params: BaseModel) -> Outcome:
    """The application returned this value as an identity elsewhere in the capture."""
    if ctx.returned_as_identity:
        return Match({"value": ctx.value})
    return Miss("never returned as an identity")


class MinLengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)


@predicate("segment_spells_returned_identity", context="segment", params=MinLengthParams)
def segment_spells_returned_identity(ctx: SegmentContext, params: MinLengthParams) -> Outcome:
    """The value spells an identity the application returned otherwise (at least ``min_length``
    characters, so a short word is no evidence): Syncthing's device id in lower case."""
    if len(ctx.value) < params.min_length:
        return Miss(f"{len(ctx.value)} characters, fewer than {params.min_length}")
    if ctx.spells_identity_otherwise:
        return Match({"value": ctx.value})
    return Miss("spells no returned identity otherwise")


@predicate("segment_read_back", context="segment")
def segment_read_back(ctx: SegmentContext, params: BaseModel) -> Outcome:
    """The read of the path this segment ends answered the value as a member of its entity."""
    if ctx.read_back:
        return Match({"value": ctx.value})
    return Miss("no read of its path answers it as a member")


@predicate("segment_held_in_parent_array", context="segment")
def segment_held_in_parent_array(ctx: SegmentContext, params: BaseModel) -> Outcome:
    """The parent entity's read holds the value in the array member the segment before names."""
    if ctx.array_element:
        return Match({"value": ctx.value})
    return Miss("no read of the parent path holds it in the array the segment before names")


@predicate("segment_shares_sibling_identity_shape", context="segment")
def segment_shares_sibling_identity_shape(ctx: SegmentContext, params: BaseModel) -> Outcome:
    """The segment is spelled like a sibling the application returned as an identity (case, separators)."""
    if not ctx.sibling_identity_shapes:
        return Miss("no sibling was returned as an identity")
    mine = shape_class(ctx.value)
    if mine in ctx.sibling_identity_shapes:
        return Match({"shape_class": mine})
    return Miss(f"spelled {mine}, siblings {sorted(set(ctx.sibling_identity_shapes))}")


class ListsSiblingsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=1)
    """How many sibling values the value's read must list."""


@predicate("segment_lists_siblings", context="segment", params=ListsSiblingsParams)
def segment_lists_siblings(ctx: SegmentContext, params: ListsSiblingsParams) -> Outcome:
    """The read of the value's own path lists entities its sibling values name: a view of their
    collection (/ports/detail beside /ports/{uuid}), not one of them."""
    if ctx.lists_siblings < params.min_values:
        return Miss(f"its read lists {ctx.lists_siblings} sibling values, fewer than {params.min_values}")
    return Match({"listed_siblings": ctx.lists_siblings})


@predicate("segment_leads_read_backs", context="segment", params=ListsSiblingsParams)
def segment_leads_read_backs(ctx: SegmentContext, params: ListsSiblingsParams) -> Outcome:
    """The value is never a path's last segment, and at least ``min_values`` distinct values under
    it are read back as a member of the entity their read answers: a word naming the key those
    reads look an entity up by (/notes/slug/{slug}, /notes/by-name/{name}), not an entity."""
    if ctx.read_itself:
        return Miss("a record's path ends in it: it is read or written as an item itself")
    if ctx.read_back_below < params.min_values:
        return Miss(f"{ctx.read_back_below} values under it are read back as their entity's member, "
                    f"fewer than {params.min_values}")
    return Match({"read_back_below": ctx.read_back_below})


class KindParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_overlap: float = Field(ge=0, le=1)
    """The largest share of members two values' entities may have in common."""
    max_values: int = Field(ge=2)
    """More sibling values than this are records of one kind, not a few kinds."""


@predicate("segment_siblings_differ_in_kind", context="segment", params=KindParams)
def segment_siblings_differ_in_kind(ctx: SegmentContext, params: KindParams) -> Outcome:
    """The few sibling values each lead to a different kind of entity (their reads share few members)."""
    if ctx.sibling_kind_overlap is None:
        return Miss("fewer than two sibling values have reads showing entities")
    if ctx.sibling_kind_values > params.max_values:
        return Miss(f"{ctx.sibling_kind_values} values, more than {params.max_values}")
    if ctx.sibling_kind_overlap > params.max_overlap:
        return Miss(f"sibling values' entities share {ctx.sibling_kind_overlap} of their members, "
                    f"more than {params.max_overlap}")
    return Match({"values": ctx.sibling_kind_values, "overlap": ctx.sibling_kind_overlap})


class TokenSiblingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_siblings: int = Field(ge=1)
    """How many sibling tokens, all of one length, make that length the identities' own."""


@predicate("segment_fits_sibling_tokens", context="segment", params=TokenSiblingParams)
def segment_fits_sibling_tokens(ctx: SegmentContext, params: TokenSiblingParams) -> Outcome:
    """The segment has the one length of the sibling tokens returned as identities, and only
    characters of their alphabet (a missing id of a fixed-length generated id space)."""
    shapes = ctx.sibling_token_shapes
    if len(shapes) < params.min_siblings:
        return Miss(f"{len(shapes)} sibling tokens returned as identities, fewer than {params.min_siblings}")
    lengths = {shape.split(":", 1)[0] for shape in shapes}
    if len(lengths) != 1:
        return Miss(f"sibling tokens of several lengths ({', '.join(sorted(lengths, key=int))})")
    length, classes = token_shape(ctx.value).split(":", 1)
    if length not in lengths:
        return Miss(f"{length} characters, sibling tokens have {next(iter(lengths))}")
    alphabet = {c for shape in shapes for c in shape.split(":", 1)[1]}
    if not set(classes) <= alphabet:
        return Miss(f"characters {classes!r} outside the sibling tokens' alphabet {''.join(sorted(alphabet))!r}")
    return Match({"length": int(length), "alphabet": "".join(sorted(alphabet)), "siblings": len(shapes)})
