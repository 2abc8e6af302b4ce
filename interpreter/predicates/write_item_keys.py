"""Predicates on a write whose path names its entity by a key member other than the identity,
under a literal sub-path of the collection (``/variables/name/{name}``, ``/users/by-email/{email}``,
``/posts/slug/{slug}``): whether the capture proves that member is what the path value names.

Context ``write-item-key``: the candidate member, the keyed item read view at the write's path (if
any) and how many of its reads answered the entity holding the path value there, and how the
write's own successful calls named entities (each call's path value against the entities held,
as the reads before it showed them).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-item-key")
class WriteItemKeyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str | None = None
    """The candidate key member: a keyed read view's at this path, else the one member every
    successful call's path value named exactly one held entity by (None: no candidate)."""
    id_field: str
    read_view: str | None = None
    """The item read tool at the same path template that names its entity by ``member``."""
    reads: int = 0
    """That view's successful reads whose answered entity holds the path value at ``member``."""
    calls: int = 0
    """The write's successful recorded calls."""
    named_one: int = 0
    """Those whose path value is ``member`` of exactly one entity held before the call."""
    named_many: list[int] = Field(default_factory=list)
    """Ordinals of calls whose path value two or more held entities hold at ``member``."""
    named_none: list[int] = Field(default_factory=list)
    """Ordinals of calls whose path value no entity held before the call holds at ``member``."""
    named_identity: list[int] = Field(default_factory=list)
    """Ordinals of calls whose path value is a held entity's identity (not a key of another member)."""


class MinReadsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_reads: int = Field(ge=1)


class MinCallsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_calls: int = Field(ge=1)


@predicate("key_read_view_at_path", context="write-item-key", params=MinReadsParams)
def key_read_view_at_path(ctx: WriteItemKeyContext, params: MinReadsParams) -> Outcome:
    """An item read tool at the write's own path template names its entity by the member: at least
    ``min_reads`` of its successful reads answered the entity holding the path value there."""
    if ctx.read_view is None or ctx.member is None:
        return Miss("no item read at this path names its entity by a key member")
    if ctx.reads < params.min_reads:
        return Miss(f"{ctx.read_view} answered {ctx.reads} entit{'y' if ctx.reads == 1 else 'ies'} holding the "
                    f"path value at {ctx.member!r}, fewer than {params.min_reads}")
    return Match({"read_view": ctx.read_view, "member": ctx.member, "reads": ctx.reads})


@predicate("calls_name_one_holder", context="write-item-key", params=MinCallsParams)
def calls_name_one_holder(ctx: WriteItemKeyContext, params: MinCallsParams) -> Outcome:
    """Every successful call's path value is the member of exactly one entity held before it (as
    the reads showed them), and no such value is an identity: the path value names that entity."""
    if ctx.member is None:
        return Miss("no member holds every call's path value")
    if ctx.member == ctx.id_field:
        return Miss(f"{ctx.member!r} is the identity field: the path is an item path")
    if ctx.named_many:
        return Miss(f"record {ctx.named_many[0]}: two or more held entities hold its path value at {ctx.member!r}")
    if ctx.named_none:
        return Miss(f"record {ctx.named_none[0]}: no entity held before it holds its path value at {ctx.member!r}")
    if ctx.named_identity:
        return Miss(f"record {ctx.named_identity[0]}: its path value is a held entity's identity")
    if ctx.named_one < params.min_calls:
        return Miss(f"{ctx.named_one} successful call{'' if ctx.named_one == 1 else 's'} named an entity by "
                    f"{ctx.member!r}, fewer than {params.min_calls}")
    return Match({"member": ctx.member, "calls": ctx.named_one})
