"""Predicates proposing that a read's query parameter names the members its answer holds (a
projection: ``fields=id,title``, ``fields[]=id``, ``fields[0]=title``, ``fields[articles]=title``).

Context ``projection-candidate``: one query parameter of a recorded item or list read (name and
value decoded), with the words that name the read's entity type (for JSON:API's typed spelling).
A match is only a proposal: the view keeps it when every recorded answer sent with it holds
exactly the members named, and those the application keeps (``interpreter/view/projections.py``).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

BRACKETED = re.compile(r"^([^\[\]]+)\[([^\[\]]*)\]$")
INDEX = re.compile(r"^(?:0|[1-9][0-9]{0,3})$")


@context_model("projection-candidate")
class ProjectionCandidateContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    param: str
    value: str = ""
    type_words: list[str] = []
    """Words naming the read's entity type: its name and its collection's last literal segment."""


class SpelledParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """The parameter's name, or its name before the bracket (``fields``)."""
    form: Literal["plain", "appended", "indexed", "typed"]
    """``plain``: the name alone; ``appended``: followed by ``[]``; ``indexed``: by one bracketed
    index; ``typed``: by one bracketed word naming the read's entity type."""


@predicate("projection_param_spelled", context="projection-candidate", params=SpelledParams)
def projection_param_spelled(ctx: ProjectionCandidateContext, params: SpelledParams) -> Outcome:
    """The name is one of the words, spelled in the given form."""
    words = {w.lower() for w in params.words}
    if params.form == "plain":
        if ctx.param.lower() in words:
            return Match({"root": ctx.param, "param": ctx.param})
        return Miss(f"{ctx.param!r} is not one of {sorted(params.words)}")
    found = BRACKETED.match(ctx.param)
    if found is None or found.group(1).lower() not in words:
        return Miss(f"{ctx.param!r} is none of {sorted(params.words)} followed by one bracket")
    root, inside = found.group(1), found.group(2)
    if params.form == "appended":
        return Match({"root": root, "param": ctx.param}) if inside == "" else Miss(f"{ctx.param!r} is not {root}[]")
    if params.form == "indexed":
        if INDEX.match(inside):
            return Match({"root": root, "param": root})
        return Miss(f"{ctx.param!r} carries no index after {root!r}")
    if inside and inside.lower() in {w.lower() for w in ctx.type_words}:
        return Match({"root": root, "param": ctx.param})
    return Miss(f"{inside!r} in {ctx.param!r} names none of the read's type words {ctx.type_words}")
