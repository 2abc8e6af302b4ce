"""Predicates on the ids an item view's recorded absence covers: context ``absence-id-shape``,
table ``view-absence-id-shapes``.

An application may refuse an id as malformed before looking it up (PowerDNS answers 422 to a
TSIG key name with an empty label, ``seed-key..``, and 404 to a missing well-formed name). The
capture shows the learned absence only for ids laid out as the ids it recorded: an id holding a
feature of layout (two separators side by side, a separator first or last) that none of them
held may be refused otherwise, so the absence is not given for it. The feature is the rule's
``pattern``; a match's evidence is what serving checks (``pattern``, ``described``).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-id-shape")
class AbsenceIdShapeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ids: list[str] = Field(default_factory=list)
    """Every id (percent-decoded) the capture shows for the view: the type's held ids, the ids
    its reads answered with success and those it answered as missing."""


class IdFeatureParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression an id holds when it has the feature (searched, not fitted whole)."""
    described: str
    """How a refusal names the feature (``two separators side by side``)."""


@predicate("known_ids_never_hold", context="absence-id-shape", params=IdFeatureParams)
def known_ids_never_hold(ctx: AbsenceIdShapeContext, params: IdFeatureParams) -> Outcome:
    """No id the capture shows holds the feature (at least one id is known): how the application
    answers an id holding it is unproven."""
    if not ctx.ids:
        return Miss("the capture shows no id of the view to compare with")
    compiled = re.compile(params.pattern)
    held = next((value for value in ctx.ids if compiled.search(value)), None)
    if held is not None:
        return Miss(f"the capture shows the id {held!r}, which holds it")
    return Match({"pattern": params.pattern, "described": params.described})
