"""Predicates on a failed read of the gate and what it blames.

Context ``absence-blame`` (the ``gate-absence-blame`` table): one modelled write in between the
read and the last check of its target, the read showing an absence or not: its method, and whether
its path lies above the read's (a proper prefix of its segments).

Context ``reidentified-object`` (the ``gate-reidentified`` table): an object a whole list shows
under an id the copy does not hold, where a held entity it lacks was listed: whether every other
member is the held entity's (the held id's text in a string read as the new id), and how many are
equal as they are.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("absence-blame")
class AbsenceBlameContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    """The write's method."""
    above_read: bool = False
    """The write's path is a proper prefix of the read's (``/entry_list/2/`` above
    ``/entry_list/2/entries/4/``)."""
    read_absent: bool = False
    """The read shows an absence (a 404 of an item, say)."""


class MethodParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: tuple[str, ...] = Field(min_length=1)


@predicate("blamed_write_method_is", context="absence-blame", params=MethodParams)
def blamed_write_method_is(ctx: AbsenceBlameContext, params: MethodParams) -> Outcome:
    """The write in between is a call of one of ``methods``."""
    if ctx.method not in params.methods:
        return Miss(f"a {ctx.method}, not {'/'.join(params.methods)}")
    return Match({"method": ctx.method})


@predicate("blamed_write_above_absence", context="absence-blame", params=NoParams)
def blamed_write_above_absence(ctx: AbsenceBlameContext, params: NoParams) -> Outcome:
    """The read shows an absence, and the write's path lies above the read's: what it acted on
    holds what the read asked for."""
    if not ctx.read_absent:
        return Miss("the read shows no absence")
    if not ctx.above_read:
        return Miss("its path lies not above the read's")
    return Match({})


@context_model("reidentified-object")
class ReidentifiedContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    alike: bool
    """The object shows exactly the held entity's members, each equal to it once the held id's
    text in a string is read as the new id."""
    plain_equal: int = Field(ge=0)
    """Members equal as they are, not counting those holding the held id as text."""


class MinMembersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=0)


@predicate("object_alike_but_identity", context="reidentified-object", params=MinMembersParams)
def object_alike_but_identity(ctx: ReidentifiedContext, params: MinMembersParams) -> Outcome:
    """Every member but the identity is the held entity's, and at least ``min_members`` of them
    are equal as they are: fewer may agree by chance."""
    if not ctx.alike:
        return Miss("a member differs from the held entity's")
    if ctx.plain_equal < params.min_members:
        return Miss(f"{ctx.plain_equal} members equal as they are, fewer than {params.min_members}")
    return Match({"plain_equal": ctx.plain_equal})
