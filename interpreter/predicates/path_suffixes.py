"""Predicates on a suffix glued to the last path segment of a capture's reads (``.json``).

Context ``path-format-suffix``: one candidate suffix, how many of the application's successful
JSON reads end with it, and the suffixed segments an answer returned as a value (with the suffix).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import WordsParams


@context_model("path-format-suffix")
class PathFormatSuffixContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    suffix: str
    """The candidate, with its dot (``.json``)."""
    json_reads: int = 0
    """Successful GETs of the primary origin answered with JSON."""
    suffixed_reads: int = 0
    """Of those, the ones whose last path segment ends with the suffix (and is longer)."""
    read_back: tuple[str, ...] = ()
    """Suffixed last segments (suffix included) some record's answer holds as a string value."""
    suffixed_with_items: int = 0
    """Of the suffixed reads, those whose path without the suffix some other successful JSON read
    continues by one more segment (``/tiddlers.json`` beside ``/tiddlers/Welcome``): a collection
    read beside the reads of its items."""


class ShareParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_share: float = Field(gt=0, le=1)
    min_reads: int = Field(ge=1)


@predicate("suffix_is_format", context="path-format-suffix", params=WordsParams)
def suffix_is_format(ctx: PathFormatSuffixContext, params: WordsParams) -> Outcome:
    """The suffix, less its dot, is one of the format words."""
    word = ctx.suffix.lstrip(".")
    pool = {w.lower() for w in params.words} if params.ignore_case else set(params.words)
    if (word.lower() if params.ignore_case else word) in pool:
        return Match({"suffix": ctx.suffix})
    return Miss(f"{ctx.suffix!r} names no format of {sorted(params.words)}")


@predicate("suffix_ends_json_reads", context="path-format-suffix", params=ShareParams)
def suffix_ends_json_reads(ctx: PathFormatSuffixContext, params: ShareParams) -> Outcome:
    """At least ``min_share`` of (at least ``min_reads``) successful JSON reads end with it."""
    shown = f"{ctx.suffixed_reads} of {ctx.json_reads} successful JSON reads end with {ctx.suffix}"
    if ctx.suffixed_reads < params.min_reads or ctx.json_reads == 0:
        return Miss(f"{shown} (fewer than {params.min_reads})")
    if ctx.suffixed_reads / ctx.json_reads < params.min_share:
        return Miss(f"{shown} (under {params.min_share:.0%})")
    return Match({"reads": shown})


@predicate("suffix_never_read_back", context="path-format-suffix")
def suffix_never_read_back(ctx: PathFormatSuffixContext, params: BaseModel) -> Outcome:
    """No answer returns a suffixed segment whole as a value (then the suffix is part of a name)."""
    if ctx.read_back:
        return Miss(f"answers return {', '.join(repr(v) for v in ctx.read_back[:3])} whole, suffix included")
    return Match({})


@predicate("suffix_marks_item_collections", context="path-format-suffix")
def suffix_marks_item_collections(ctx: PathFormatSuffixContext, params: BaseModel) -> Outcome:
    """Every suffixed read names a collection whose items other reads address one segment below
    its unsuffixed path (``/recipes/default/tiddlers.json`` beside ``/recipes/default/tiddlers/Welcome``)."""
    shown = f"{ctx.suffixed_with_items} of {ctx.suffixed_reads} reads ending with {ctx.suffix}"
    if ctx.suffixed_reads == 0 or ctx.suffixed_with_items < ctx.suffixed_reads:
        return Miss(f"{shown} have item reads one segment below their unsuffixed path")
    return Match({"reads": f"{shown} have item reads one segment below their unsuffixed path"})
