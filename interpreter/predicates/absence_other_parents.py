"""Predicates on an item view's recorded absences of ids the state held under another parent:
context ``absence-other-parent``, table ``view-absence-other-parents``.

Where a type's ids are unique across parents (one numbering for every project's members), an
application may look a child up by its id alone and answer it whatever parent the path names, or
answer it missing: one absence recorded for an id nobody holds does not tell which, so serving
refuses such a read (``serving/reads/parents.refuse_held_elsewhere``). A read recorded before the
capture's first write that named an id the state held under another parent, answered missing, shows
which: the application scopes the child to the parent the path names.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class OtherParentAbsence(BaseModel):
    """A recorded absence (its record and status) of an id the state held under another parent."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    status: int
    id: str
    held_under: str
    """The collection path holding the id (not the one the read named)."""


@context_model("absence-other-parent")
class AbsenceOtherParentContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    absences: list[OtherParentAbsence] = Field(default_factory=list)
    """The view's reads recorded before the capture's first write that answered an absence for an
    id its type's initial state held in another collection only."""


class MinRecordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_records: int = Field(ge=1)
    statuses: list[int] = Field(min_length=1)


@predicate("absent_under_another_parent", context="absence-other-parent", params=MinRecordsParams)
def absent_under_another_parent(ctx: AbsenceOtherParentContext, params: MinRecordsParams) -> Outcome:
    """At least ``min_records`` reads answered one of ``statuses`` for an id another parent held."""
    found = [a for a in ctx.absences if a.status in params.statuses]
    if len(found) < params.min_records:
        return Miss(f"{len(found)} recorded absence(s) of an id held under another parent answered "
                    f"{params.statuses}, fewer than {params.min_records}")
    first = found[0]
    return Match({"record": first.ordinal, "id": first.id, "held_under": first.held_under})
