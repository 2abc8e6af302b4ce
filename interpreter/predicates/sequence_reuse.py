"""Predicates on what the recorded creates drew after the delete of the entity holding their
sequence's largest value: context ``sequence-reuse``, table ``sequence-reuse``.

The spec's sequence draws one more than the largest value its scope holds, started with or drew,
so a deleted entity's value is not reused. SQLite (an INTEGER PRIMARY KEY without AUTOINCREMENT)
and json-server 0.17 (``createId``: max + 1) give the next row the deleted largest value again. A
create after such a delete drew one more than the deleted value only where the application does
not reuse it: reusing, it would give the largest value still held plus one, and the deleted value
is not held. A value further past proves nothing (a failed insert may have drawn those between,
or an entity the capture never showed holds them).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class CreateAfterDelete(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    record: int
    """The recorded create."""
    field: str
    deleted: int
    """The largest value the scope had held (at the last reset or load, or drawn since), no entity holding it."""
    drawn: int
    """The value the create's recorded answer shows."""


@context_model("sequence-reuse")
class SequenceReuseContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    after_deletes: list[CreateAfterDelete] = Field(default_factory=list)
    """Every recorded create of the plan that drew a sequence value while no entity held its scope's
    largest value, in timeline order."""


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _evidence(create: CreateAfterDelete) -> dict[str, int | str]:
    return {"record": create.record, "field": create.field, "deleted": create.deleted, "drawn": create.drawn}


@predicate("create_drew_deleted_largest", context="sequence-reuse", params=NoParams)
def create_drew_deleted_largest(ctx: SequenceReuseContext, params: NoParams) -> Outcome:
    """A create after such a delete drew a value not past the deleted one: the application reuses it."""
    if not ctx.after_deletes:
        return Miss("no recorded create followed the delete of the entity holding the largest value")
    taken = next((c for c in ctx.after_deletes if c.drawn <= c.deleted), None)
    if taken is None:
        first = ctx.after_deletes[0]
        return Miss(f"record {first.record} drew {first.field} {first.drawn}, past the deleted {first.deleted}")
    return Match(_evidence(taken))


@predicate("create_drew_past_deleted_largest", context="sequence-reuse", params=NoParams)
def create_drew_past_deleted_largest(ctx: SequenceReuseContext, params: NoParams) -> Outcome:
    """A create after such a delete drew exactly one more than the deleted value: no reuse."""
    if not ctx.after_deletes:
        return Miss("no recorded create followed the delete of the entity holding the largest value")
    fresh = next((c for c in ctx.after_deletes if c.drawn == c.deleted + 1), None)
    if fresh is not None:
        return Match(_evidence(fresh))
    first = ctx.after_deletes[0]
    if first.drawn <= first.deleted:
        return Miss(f"record {first.record} drew {first.field} {first.drawn}, not past the deleted {first.deleted}")
    return Miss(f"record {first.record} drew {first.field} {first.drawn}, which skipped past {first.deleted + 1}: "
                "a failed insert or an entity the capture never showed may hold those between")
