"""Predicates relating a bulk write's last path segment to a type's collection word (seeds:
"Bulk writes": a path whose last segment is the type's singular or plural, /messages for
/message, writes that type).

Context ``bulk-path-word``: the write's last literal segment and the last literal segment of a
type's collection path, the two paths otherwise alike. The singular/plural suffix pairs are the
rule's params, so a maintainer adds an inflection without touching Python.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("bulk-path-word")
class BulkPathWordContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    segment: str
    """The write's last literal path segment."""
    type_word: str
    """The last literal segment of the type's collection path."""


class Inflection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    singular: str = ""
    """The singular's ending the plural replaces ("" for message → messages, y for entry → entries)."""
    plural: str = Field(min_length=1)


class InflectionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    inflections: list[Inflection] = Field(min_length=1)
    ignore_case: bool = True


def _plurals(word: str, params: InflectionParams) -> list[str]:
    return [word[: len(word) - len(i.singular)] + i.plural for i in params.inflections
            if word.endswith(i.singular) and len(word) > len(i.singular)]


def is_plural_of(plural: str, singular: str, params: InflectionParams) -> bool:
    fold = (lambda w: w.lower()) if params.ignore_case else (lambda w: w)
    return fold(plural) in {fold(p) for p in _plurals(singular, params)}


@predicate("segment_is_plural_of_type_word", context="bulk-path-word", params=InflectionParams)
def segment_is_plural_of_type_word(ctx: BulkPathWordContext, params: InflectionParams) -> Outcome:
    """The segment is the type word's plural (/messages for a type at /message)."""
    if is_plural_of(ctx.segment, ctx.type_word, params):
        return Match({"segment": ctx.segment, "type_word": ctx.type_word})
    return Miss(f"{ctx.segment!r} is no plural of {ctx.type_word!r}")


@predicate("segment_is_singular_of_type_word", context="bulk-path-word", params=InflectionParams)
def segment_is_singular_of_type_word(ctx: BulkPathWordContext, params: InflectionParams) -> Outcome:
    """The segment is the type word's singular (/message for a type at /messages)."""
    if is_plural_of(ctx.type_word, ctx.segment, params):
        return Match({"segment": ctx.segment, "type_word": ctx.type_word})
    return Miss(f"{ctx.segment!r} is no singular of {ctx.type_word!r}")
