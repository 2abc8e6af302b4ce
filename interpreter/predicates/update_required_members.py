"""Predicates on whether an update's call must send a member its exemplar sent (seeds: "Body
members of a create", which updates reuse; "Refusals": a missing required member).

Context ``update-required-member``: one member the exemplar sent and serving accepts, with the
update's method and every later successful call of the tool that left the member out, as the
entity was held before that call and observed after it. A PUT may replace what it leaves out, so
serving requires what the exemplar sent unless a recorded call shows the application merging:
the entity kept, through a call that left the member out, a value an earlier call of the tool had
changed it to (a replace would have put its default back).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .update_values import brief, same_value


class Omission(BaseModel):
    """One later successful call of the tool that left the member out."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    held: Any = None
    held_shown: bool = False
    """The entity as held just before the call showed the member (and was not stale)."""
    stored: Any = None
    stored_shown: bool = False
    """The call's observation showed the member."""
    set_by: int | None = None
    """An earlier call of the tool, on the same entity, that changed the member to ``held``."""


@context_model("update-required-member")
class UpdateRequiredContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    method: str
    exemplar_sent: bool = True
    omissions: list[Omission] = Field(default_factory=list)


class RequiredMethodsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)


@predicate("update_required_method_in", context="update-required-member", params=RequiredMethodsParams)
def update_required_method_in(ctx: UpdateRequiredContext, params: RequiredMethodsParams) -> Outcome:
    """The update's method is one of some methods (a PUT may replace what it leaves out)."""
    if ctx.method.upper() in {m.upper() for m in params.methods}:
        return Match({"method": ctx.method})
    return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")


@predicate("update_member_sent_by_exemplar", context="update-required-member")
def update_member_sent_by_exemplar(ctx: UpdateRequiredContext, params: BaseModel) -> Outcome:
    """The exemplar sent the member."""
    return Match({"member": ctx.member}) if ctx.exemplar_sent else Miss("the exemplar did not send it")


@predicate("update_member_left_out_kept", context="update-required-member")
def update_member_left_out_kept(ctx: UpdateRequiredContext, params: BaseModel) -> Outcome:
    """A later successful call left the member out and its observation shows the entity keeping
    the value an earlier call of the tool had changed it to: the application merged the body (a
    replace would have put the member's default back, which the earlier change shows it is not)."""
    if not ctx.omissions:
        return Miss("every recorded call sent it")
    why = "no call leaving it out was observed"
    for omission in ctx.omissions:
        if not (omission.held_shown and omission.stored_shown):
            continue
        if not same_value(omission.held, omission.stored):
            why = f"call {omission.ordinal} left it out and the entity's value changed ({brief(omission.held)} " \
                  f"to {brief(omission.stored)})"
            continue
        if omission.set_by is None:
            why = f"call {omission.ordinal} left it out and kept {brief(omission.held)}, which no earlier call " \
                  "of the tool had changed it to (it may be the value a replace puts back)"
            continue
        return Match({"ordinal": omission.ordinal, "kept": omission.held, "set_by": omission.set_by})
    return Miss(why)
