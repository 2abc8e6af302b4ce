"""Predicates on a body's declared media type: whether it is JSON-like (parsed as JSON).

Context ``body-media-type``: the media type, lower case, without parameters
(``application/problem+json``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import SuffixParams, ends_with


@context_model("body-media-type")
class BodyMediaTypeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    media_type: str
    """Lower case, no parameters: ``application/vnd.api+json``."""


class MediaTypesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    types: list[str] = Field(min_length=1)


class SubtypeWordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    separators: str = Field(min_length=1)
    """The characters that split a subtype into words."""


@predicate("media_type_is", context="body-media-type", params=MediaTypesParams)
def media_type_is(ctx: BodyMediaTypeContext, params: MediaTypesParams) -> Outcome:
    """The media type is one of ``types``."""
    if ctx.media_type in params.types:
        return Match({"media_type": ctx.media_type})
    return Miss(f"{ctx.media_type!r} is none of {params.types}")


@predicate("media_type_ends", context="body-media-type", params=SuffixParams)
def media_type_ends(ctx: BodyMediaTypeContext, params: SuffixParams) -> Outcome:
    """The media type ends with one of ``suffixes`` (a structured-syntax suffix such as ``+json``)."""
    return ends_with(ctx.media_type, params)


@predicate("media_subtype_has_word", context="body-media-type", params=SubtypeWordsParams)
def media_subtype_has_word(ctx: BodyMediaTypeContext, params: SubtypeWordsParams) -> Outcome:
    """The subtype, split on any of ``separators``, has one of ``words`` as a word of its own
    (``openstack-images-v2.1-json-patch`` has json; ``jsonl`` or ``geojson`` does not)."""
    _, _, subtype = ctx.media_type.partition("/")
    words = [subtype]
    for separator in params.separators:
        words = [piece for word in words for piece in word.split(separator)]
    found = sorted(set(words) & set(params.words))
    if found:
        return Match({"word": found[0]})
    return Miss(f"the subtype {subtype!r} has none of {params.words} as a word")
