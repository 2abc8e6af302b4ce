"""Predicates on a verb glued to the last path segment after a colon (``/notes/5:archive``).

Context ``path-colon-action``: one candidate verb, the calls spelled with it, their stems (the text
before the colon) and which of them the capture also shows as a whole path segment in the same
place (``/notes/5`` beside ``/notes/5:archive``), and the glued segments an answer returned whole.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("path-colon-action")
class PathColonActionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    verb: str
    """The text after the last colon of the last segment (``archive``)."""
    calls: int = 0
    """Primary-origin records whose last segment ends with ``:verb``."""
    stems: tuple[str, ...] = ()
    """The distinct texts before the colon (``5``, ``notes``)."""
    stems_alone: tuple[str, ...] = ()
    """Of those, the ones another recorded path holds as a whole segment in the same place."""
    read_back: tuple[str, ...] = ()
    """Glued segments (``5:archive``) some record's answer holds whole as a string value."""


class PatternParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression the whole verb must match."""


class ShareParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_share: float = Field(gt=0, le=1)


@predicate("colon_verb_shaped", context="path-colon-action", params=PatternParams)
def colon_verb_shaped(ctx: PathColonActionContext, params: PatternParams) -> Outcome:
    """The verb is shaped as a method name (a word, not a time, a port or a version)."""
    if re.fullmatch(params.pattern, ctx.verb):
        return Match({"verb": ctx.verb})
    return Miss(f"{ctx.verb!r} is not shaped as {params.pattern}")


@predicate("colon_stems_recorded_alone", context="path-colon-action", params=ShareParams)
def colon_stems_recorded_alone(ctx: PathColonActionContext, params: ShareParams) -> Outcome:
    """At least ``min_share`` of the stems are whole segments of other recorded paths in the same
    place: the text before the colon names an entity or a collection the capture addresses."""
    if not ctx.stems:
        return Miss("no call is spelled with it")
    shown = f"{len(ctx.stems_alone)} of {len(ctx.stems)} stems before :{ctx.verb} are recorded as whole segments"
    if len(ctx.stems_alone) / len(ctx.stems) < params.min_share:
        return Miss(f"{shown} (under {params.min_share:.0%})")
    return Match({"stems": shown})


@predicate("colon_segment_never_read_back", context="path-colon-action")
def colon_segment_never_read_back(ctx: PathColonActionContext, params: BaseModel) -> Outcome:
    """No answer returns a glued segment whole as a value (then the colon is part of a name, as in
    ``urn:isbn:…`` or ``ns:key``)."""
    if ctx.read_back:
        return Miss(f"answers return {', '.join(repr(v) for v in ctx.read_back[:3])} whole, colon included")
    return Match({})
