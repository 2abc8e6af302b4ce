"""Predicates on a write's request body: whether its one member wraps the object written.

Context ``body-envelope``: the body's only member, what it holds, and the member the call's
answer shows the written entity under (if any).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .bulk_path_words import InflectionParams, is_plural_of


@context_model("body-envelope")
class BodyEnvelopeContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    holds: str
    """object, singleton-object (an array of one object), or another kind."""
    members: int
    """How many members the body has."""
    answer_member: str | None = None
    """The member the call's answer shows the entity under (``data``), if any."""
    echoed_under: str | None = None
    """The member of an answer with no identity member at its top under which the answer shows
    every member the body's object sent, with the values sent (a settings document answered as
    ``{"data": {…}}`` for a body ``{"data": {"theme": …}}``), if any."""
    answer_singleton_member: str | None = None
    """The member of the call's answer holding the entity as an array's one element (``rows``)."""
    type_fields: tuple[str, ...] = ()
    """The fields the written type's held entities carry (empty: no entity of it is held)."""
    inner_members: tuple[str, ...] = ()
    """The members of the object the only member holds."""


class HoldsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: list[str]


@predicate("body_only_member_holds", context="body-envelope", params=HoldsParams)
def body_only_member_holds(ctx: BodyEnvelopeContext, params: HoldsParams) -> Outcome:
    """The body's only member holds one of some kinds (an object, an array of one object)."""
    if ctx.members != 1:
        return Miss(f"the body has {ctx.members} members, not one")
    if ctx.holds in params.kinds:
        return Match({"member": ctx.member, "holds": ctx.holds})
    return Miss(f"its only member holds {ctx.holds}")


@predicate("body_member_is_answer_member", context="body-envelope")
def body_member_is_answer_member(ctx: BodyEnvelopeContext, params: BaseModel) -> Outcome:
    """The call's answer shows the entity under the same member the body wraps it in."""
    if ctx.answer_member and ctx.answer_member == ctx.member:
        return Match({"answer_member": ctx.answer_member})
    return Miss(f"the answer shows the entity under {ctx.answer_member!r}, not {ctx.member!r}")


@predicate("body_member_echoed_in_answer", context="body-envelope")
def body_member_echoed_in_answer(ctx: BodyEnvelopeContext, params: BaseModel) -> Outcome:
    """The answer (no entity at its top) shows, under the same member, every member the body's
    object sent with its value: the member wraps what the write changed."""
    if ctx.echoed_under and ctx.echoed_under == ctx.member:
        return Match({"answer_member": ctx.echoed_under})
    return Miss(f"the answer does not show what {ctx.member!r} holds under {ctx.member!r} (with no entity at its top)")


@predicate("body_member_plural_is_answer_singleton", context="body-envelope", params=InflectionParams)
def body_member_plural_is_answer_singleton(ctx: BodyEnvelopeContext, params: InflectionParams) -> Outcome:
    """The call's answer shows the entity as the one element of an array under the plural of the
    member the body wraps it in (``{"row": {…}}`` answered ``{"rows": [{…}]}``)."""
    found = ctx.answer_singleton_member
    if found and is_plural_of(found, ctx.member, params):
        return Match({"answer_member": found})
    return Miss(f"the answer shows no one-element array under a plural of {ctx.member!r}"
                + (f" (it has {found!r})" if found else ""))


@predicate("body_member_wraps_type_fields", context="body-envelope")
def body_member_wraps_type_fields(ctx: BodyEnvelopeContext, params: BaseModel) -> Outcome:
    """The member is no field of the written type, and the object it holds sends only fields the
    type's held entities carry (``{"update": {"views": 121}}``)."""
    if not ctx.type_fields:
        return Miss("no entity of the written type is held to show its fields")
    if ctx.member in ctx.type_fields:
        return Miss(f"{ctx.member!r} is a field of the written type")
    if not ctx.inner_members:
        return Miss(f"{ctx.member!r} holds no member")
    unknown = [m for m in ctx.inner_members if m not in ctx.type_fields]
    if unknown:
        return Miss(f"{ctx.member!r} holds {', '.join(repr(m) for m in unknown[:3])}, no field of the written type")
    return Match({"fields": len(ctx.inner_members)})
