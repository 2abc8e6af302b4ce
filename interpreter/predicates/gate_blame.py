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

from typing import Literal

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


@context_model("linked-blame")
class LinkedBlameContext(BaseModel):
    """An item read showing its entity changed where modelled writes linked to it by id ran since its
    last check, and writes no plan models (calls brought to their recorded outcome, writes of
    unknown reach) reached the entity, or may have, in that window."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    beside_unmodelled: bool
    """A write no plan models reached the entity since its last check."""
    changed: tuple[str, ...] = ()
    """The members the read shows otherwise than the copy holds (less volatile ones and those the
    entity's own pending writes changed)."""
    sent_beside: tuple[str, ...] = ()
    """The member names those writes sent (their JSON bodies' members and an envelope's, their query
    names)."""
    planned_beside: tuple[tuple[str, str], ...] = ()
    """(field, op) of each field the plans of those writes' tools write (a plan not served still
    learned them): a fresh token or clock each call (``unique``, ``clock``) stamps the entity."""
    clocks: tuple[str, ...] = ()
    """The changed members holding an instant in the copy and a later one in the read."""


@predicate("linked_change_beside_unmodelled", context="linked-blame", params=NoParams)
def linked_change_beside_unmodelled(ctx: LinkedBlameContext, params: NoParams) -> Outcome:
    """A write no plan models reached the changed entity since its last check."""
    if not ctx.beside_unmodelled:
        return Miss("no write no plan models reached the entity since its last check")
    return Match({})


class ExplainedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    by: tuple[Literal["sent", "planned", "clock"], ...] = Field(min_length=1)
    """What explains a changed member: the writes beside sent it by name (``sent``), their tool's
    plan (served or not) writes it by one of ``planned_ops`` (``planned``), or it is a clock the read
    shows later (``clock``)."""
    planned_ops: tuple[str, ...] = ()
    """The plan field ops that explain a member (a plan learned from the same window may take a
    linked write's counter for its own increment: only stamps explain)."""


@predicate("linked_change_explained_beside", context="linked-blame", params=ExplainedParams)
def linked_change_explained_beside(ctx: LinkedBlameContext, params: ExplainedParams) -> Outcome:
    """Every member the read shows changed is explained by the writes no plan models beside the
    linked writes, in one of the ways ``by`` names: they explain the change."""
    if not ctx.changed:
        return Miss("the difference names no member")
    explained: set[str] = set()
    if "sent" in params.by:
        explained |= set(ctx.sent_beside)
    if "planned" in params.by:
        explained |= {field for field, op in ctx.planned_beside if op in params.planned_ops}
    if "clock" in params.by:
        explained |= set(ctx.clocks)
    unexplained = [m for m in ctx.changed if m not in explained]
    if unexplained:
        return Miss(f"changed {', '.join(unexplained)}, which no write beside sent, plans or stamped")
    return Match({"changed": list(ctx.changed)})
