"""Predicates on where else the capture shows an entity a write changes: an object at another
path (outside the type's collection) carrying the entity's identity at the same identity field
is a copy of it in another collection, which an update or delete of the entity would leave as it
was (write-effects, "Not modelled": side effects on copies of entities in other collections).

Context ``write-copy``: one entity a successful call wrote, its identity, and the reads of other
paths whose answers hold an object carrying that identity.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-copy")
class WriteCopyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id_field: str
    identity: Any
    """The written entity's identity value."""
    shown_at: list[str] = Field(default_factory=list)
    """Records (``#ordinal path``) outside the type's collection whose answer holds an object with
    that identity at ``id_field``."""


class MinLengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)


@predicate("identity_shown_elsewhere", context="write-copy", params=MinLengthParams)
def identity_shown_elsewhere(ctx: WriteCopyContext, params: MinLengthParams) -> Outcome:
    """A read of another path answered an object carrying the entity's identity (a string of at
    least ``min_length`` characters, so a shared small number or word is no evidence)."""
    if not isinstance(ctx.identity, str) or len(ctx.identity) < params.min_length:
        return Miss(f"the identity {ctx.identity!r} is no string of {params.min_length} or more characters")
    if not ctx.shown_at:
        return Miss(f"no read outside the type's collection shows an object with {ctx.id_field} {ctx.identity!r}")
    return Match({"identity": ctx.identity, "shown_at": ctx.shown_at[:3]})
