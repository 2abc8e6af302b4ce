"""Predicates on a create's recorded call that answered an entity already held (issue 16 item 4):
whether the members it sent name that entity (a key), and what the call did to it.

Context ``create-key``: the accepted members the call sent, the entity as held just before the
call and as the call answered it, and per sent member how many other held entities of the type
hold the same value (a key names one entity).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("create-key")
class CreateKeyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sent: dict[str, Any]
    """The accepted members the call sent, with their values."""
    held: dict[str, Any]
    """The entity as held just before the call."""
    answered: dict[str, Any]
    """The entity the call answered."""
    shared: dict[str, int] = Field(default_factory=dict)
    """Per sent member: how many other held entities of the type hold the value it sent."""
    status: int = 200
    """The call's status."""


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int]


@predicate("call_status_in", context="create-key", params=StatusParams)
def call_status_in(ctx: CreateKeyContext, params: StatusParams) -> Outcome:
    """The call was answered with one of some statuses (a conflict)."""
    if ctx.status in params.statuses:
        return Match({"status": ctx.status})
    return Miss(f"answered {ctx.status}")


def key_members(ctx: CreateKeyContext) -> list[str]:
    """The sent members equal to the held entity's same-named field, held by no other entity."""
    return sorted(m for m, v in ctx.sent.items() if m in ctx.held and ctx.held[m] == v and not ctx.shared.get(m))


def _changed(ctx: CreateKeyContext) -> list[str]:
    names = set(ctx.held) | set(ctx.answered)
    return sorted(n for n in names if ctx.held.get(n, _ABSENT) != ctx.answered.get(n, _ABSENT))


_ABSENT = object()


@predicate("key_members_name_held", context="create-key")
def key_members_name_held(ctx: CreateKeyContext, params: BaseModel) -> Outcome:
    """Some sent members equal the held entity's same-named fields and no other held entity's:
    together they name the entity the call answered."""
    members = key_members(ctx)
    if members:
        return Match({"members": members})
    same = sorted(m for m, v in ctx.sent.items() if m in ctx.held and ctx.held[m] == v)
    if same:
        return Miss(f"{', '.join(same)} equal the held entity's, but other held entities share them")
    return Miss("no sent member equals the held entity's same-named field")


@predicate("answer_is_held_unchanged", context="create-key")
def answer_is_held_unchanged(ctx: CreateKeyContext, params: BaseModel) -> Outcome:
    """The call answered the held entity exactly as it was held: it changed nothing."""
    changed = _changed(ctx)
    if not changed:
        return Match({"unchanged": True})
    return Miss(f"the answer differs from the held entity at {', '.join(changed)}")


@predicate("answer_writes_sent_members", context="create-key")
def answer_writes_sent_members(ctx: CreateKeyContext, params: BaseModel) -> Outcome:
    """The answer shows the held entity with some sent member's value written into it."""
    written = sorted(m for m in _changed(ctx) if m in ctx.sent and ctx.answered.get(m, _ABSENT) == ctx.sent[m])
    if written:
        return Match({"written": written})
    return Miss("no sent member's value was written into the held entity")
