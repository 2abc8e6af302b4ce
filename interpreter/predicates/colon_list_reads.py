"""Predicates on a list read whose last path segment glues a method after a colon to the word of a
collection the capture reads alone (``/api/authors:list`` beside ``/api/authors`` and
``/api/authors/{id}``: the resourcer convention of ``resource:action`` paths).

Context ``colon-list-read``: one such list tool, the verb after the colon, and what the capture
shows of the collection its stem names (``interpreter/view/colon_list_reads``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("colon-list-read")
class ColonListReadContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    template: str
    """The list tool's template (``/api/authors:list``)."""
    verb: str
    """The text after the last colon of its last segment (``list``)."""
    stem_template: str = ""
    """The template with the colon and the verb left off (``/api/authors``)."""
    stem_read: bool = False
    """A list or item view of the capture reads the stem's collection."""
    stem_id_field: str | None = None
    """The identity field of the stem's collection's views."""
    id_field: str | None = None
    """The identity field the colon list's answers list their members by."""


class WordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """Verbs naming a listing of the collection (compared ignoring case)."""


@predicate("colon_list_verb_lists", context="colon-list-read", params=WordsParams)
def colon_list_verb_lists(ctx: ColonListReadContext, params: WordsParams) -> Outcome:
    """The verb after the colon names a listing of the collection the stem names."""
    if ctx.verb.lower() in {w.lower() for w in params.words}:
        return Match({"verb": ctx.verb})
    return Miss(f"{ctx.verb!r} is none of {params.words}")


@predicate("colon_list_stem_read_alike", context="colon-list-read")
def colon_list_stem_read_alike(ctx: ColonListReadContext, params: BaseModel) -> Outcome:
    """The capture reads the stem's collection alone (a list or an item view), its entities named by
    the same identity field as the colon list names its members."""
    if not ctx.stem_read:
        return Miss(f"no list or item view reads {ctx.stem_template or 'the stem'}")
    if ctx.stem_id_field not in (None, ctx.id_field):
        return Miss(f"the stem's views name entities by {ctx.stem_id_field!r}, the colon list by {ctx.id_field!r}")
    return Match({"stem": ctx.stem_template, "id_field": ctx.id_field})
