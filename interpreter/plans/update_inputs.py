"""What explaining an update reads and gives (seeds: "Updates."): each recorded call with the
entity before and after it, the plan's inputs, its explanation and the problems that make it
unexplained-change. The update modules (``update_calls``, ``update_members``,
``update_call_checks``, ``update_changes``) all read these, so they live below them."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from capenv.interpreter.bundle.models import FieldRule, MemberRule
from capenv.interpreter.rules_engine import TraceEvent


class UpdateProblem(BaseModel):
    """One reason the plan is unexplained-change: the check that failed, where, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: str
    subject: str
    """The field or member."""
    ordinal: int
    """The recorded call the check failed on."""
    detail: str


class UpdateCall(BaseModel):
    """One successful recorded call of the tool (the first is the exemplar)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    body: dict[str, Any] = Field(default_factory=dict)
    """The request body, envelope unwrapped (``{}`` for an action sending none)."""
    before: dict[str, Any] | None = None
    """The entity as held just before the call (None: unknown)."""
    after: dict[str, Any] | None = None
    """The entity as observed after the call: its response or a later read (None: unobserved)."""
    observed_by: Literal["response", "read"] = "response"
    started_at: datetime
    ordinal: int
    path_id: str | None = None
    """The id the call's path names (default: the entity's own id, or the plan's path id)."""
    later_read: dict[str, Any] | None = None
    """The first later item read of the entity when ``after`` is the call's own response: the
    read a dropped field shows in (a write's own response may leave fields out)."""
    observed_view_showed_entity: bool = True
    """The view that observed the call had shown the entity before, so a field it lacked before
    and shows now is a change (one the application fills in on update)."""
    before_stale_by: list[int] = Field(default_factory=list)
    """Writes answered without the entity since it was last shown (``held_before``): ``before``
    holds the members they sent, and any other field may have changed unseen."""
    before_sure: list[str] = Field(default_factory=list)
    """The members those writes sent (brought forward, so not stale)."""
    body_usable: bool = True
    """The call's body is one serving takes (a JSON object, unwrapped as the exemplar's was)."""
    unshown: list[str] = Field(default_factory=list)
    """Fields the entity held that no item read of its type ever shows (a list's own columns):
    an item read after the call cannot show them dropped."""

    def stale(self, name: str) -> bool:
        """Whether ``before`` may be out of date at ``name``: a change there may be another
        write's, so no rule is learned or checked from it."""
        return bool(self.before_stale_by) and name not in self.before_sure


class UpdateInputs(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    method: Literal["PUT", "PATCH", "POST"]
    is_action: bool = False
    """An item action (``/{type}/{id}/archive``)."""
    id_field: str
    path_id: str
    """The id the exemplar's path names."""
    calls: list[UpdateCall] = Field(min_length=1)
    """Every successful recorded call of the tool, in order; the first is the exemplar."""
    type_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's entities as last seen before the exemplar (the updated one is left out)."""
    max_nesting: int | None = None
    """The view's nesting budget, which serving holds a call's body to (None: no limit)."""

    @model_validator(mode="after")
    def _exemplar_observed(self) -> UpdateInputs:
        if self.calls[0].after is None:
            raise ValueError("the exemplar (the first call) must be observed: after is None")
        return self

    def path_id_of(self, call: UpdateCall) -> str:
        if call.path_id is not None:
            return call.path_id
        if call is self.calls[0]:
            return self.path_id
        for seen in (call.before, call.after):
            if seen is not None and self.id_field in seen:
                return str(seen[self.id_field])
        return self.path_id

    def others_for(self, call: UpdateCall) -> list[dict[str, Any]]:
        """The type's other entities: all but the one ``call`` updates."""
        key = self.path_id_of(call)
        if key not in self._others:
            self._others[key] = [e for e in self.type_entities if str(e.get(self.id_field)) != key]
        return self._others[key]

    @cached_property
    def _others(self) -> dict[str, list[dict[str, Any]]]:
        return {}

    def sent_by_others(self, member: str, call: UpdateCall) -> list[Any]:
        """What the tool's other calls sent for ``member``, in call order: one list per member,
        sliced per call (a comprehension over every call, per call, made judging quadratic)."""
        senders = self._senders.get(member)
        if senders is None:
            sending = [c for c in self.calls if member in c.body]
            senders = self._senders[member] = ({id(c): i for i, c in enumerate(sending)},
                                               [c.body[member] for c in sending])
        positions, values = senders
        at = positions.get(id(call))
        return list(values) if at is None else values[:at] + values[at + 1:]

    @cached_property
    def _senders(self) -> dict[str, tuple[dict[int, int], list[Any]]]:
        return {}


class UpdateExplanation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    fields: list[FieldRule] = Field(default_factory=list)
    """One per field the exemplar sent or changed (and per member a later call first stored)."""
    members: list[MemberRule] = Field(default_factory=list)
    min_members: int = 0
    """How many accepted members a call must send at least: one, unless the plan requires some
    members (a PUT's, ``update-required-members``: ``MemberRule.required``) or is an action,
    which may send none."""
    build_reason: Literal["unexplained-change", "unconfirmed"] | None = None
    problems: list[UpdateProblem] = Field(default_factory=list)
    """Why the plan is unexplained-change."""
    unconfirmed: list[str] = Field(default_factory=list)
    """Why the plan stays unconfirmed (when nothing is unexplained)."""
    events: list[TraceEvent] = Field(default_factory=list)


def exemplar_subject(inputs: UpdateInputs) -> str:
    return f"update @{inputs.calls[0].ordinal}"


def subject_of(name: str, call: UpdateCall, inputs: UpdateInputs) -> str:
    """The exemplar's decisions name the field; a later call's add its ordinal."""
    return name if call is inputs.calls[0] else f"{name} @{call.ordinal}"
