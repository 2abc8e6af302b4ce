"""The ``update-change`` context: one field of one recorded update call, with the entity as held
just before the call and as observed after it (seeds: "Updates."), and the id field's guard.

A match's evidence carries ``params`` shaped for the serving op its rule names
(``interpreter/bundle/op_params.py``), so the plan stores them as they are. The predicates explaining a
change live beside this module by family: ``update_change_clocks``, ``update_change_generated``,
``update_change_derived`` and ``update_change_set``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

ABSENT = object()
"""What ``old`` and ``new`` give for a field the entity does not hold."""


@context_model("update-change")
class UpdateChangeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    id_field: str = "id"
    is_action: bool = False
    before: dict[str, Any] | None = None
    """The entity as held just before the call (None: unknown)."""
    after: dict[str, Any]
    """The entity as the call's observation shows it."""
    body: dict[str, Any] = Field(default_factory=dict)
    started_at: datetime
    other_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's other entities as last seen before the call."""
    later_read: dict[str, Any] | None = None
    """The first later read of the entity, when the observation is the call's own response."""

    @property
    def old(self) -> Any:
        return self.before.get(self.field, ABSENT) if self.before is not None else ABSENT

    @property
    def new(self) -> Any:
        return self.after.get(self.field, ABSENT)


class ChangeParams(BaseModel):
    """The params of an update-change predicate: closed and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@predicate("changed_field_is_id_field", context="update-change")
def changed_field_is_id_field(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field is the type's id field, which never takes a rule."""
    if ctx.field == ctx.id_field:
        return Match({"old": None if ctx.old is ABSENT else ctx.old, "new": ctx.new})
    return Miss(f"not the id field {ctx.id_field!r}")
