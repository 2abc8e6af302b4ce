"""Predicates on the clocks of one update call (context ``update-member``, seeds: "Updates."):
a sent clock the call left as held, an unsent one kept in the call's second, and a member whose
name says when the entity was made. The context and the other member predicates are in
``update_member_kinds``.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_member_kinds import ABSENT, MemberParams, UpdateMemberContext, not_sent
from .update_values import aware, brief, instant_and_format, name_words, names_call_second, same_value


class CallSecondParams(MemberParams):
    slack_seconds: int = Field(default=1, ge=0)
    """A call may run across a second boundary: the instant may name up to this many seconds later."""


class ClockWindowParams(MemberParams):
    window_seconds: int = Field(default=600, ge=0)
    """How far from the call's start the clock it stored may lie."""


class WordsParams(MemberParams):
    words: list[str] = Field(min_length=1)


@predicate("sent_clock_held", context="update-member", params=CallSecondParams)
def sent_clock_held(ctx: UpdateMemberContext, params: CallSecondParams) -> Outcome:
    """A sent clock the call left as the entity held it, in whole seconds naming the second the
    call ran in, and the only such member the call sent (Ghost's updated_at)."""
    miss = _the_only_such_member(ctx, lambda member: _held_clock_problem(ctx, member, params.slack_seconds))
    if miss:
        return miss
    return Match({"params": {"member": ctx.member, "format": instant_and_format(ctx.sent_value)[1]}})


def _the_only_such_member(ctx: UpdateMemberContext, problem: Callable[[str], str | None]) -> Outcome | None:
    """A miss unless the member was sent, has no problem, and no other sent member is without one."""
    miss = not_sent(ctx)
    if miss:
        return miss
    found = problem(ctx.member)
    if found:
        return Miss(found)
    others = [m for m in ctx.body if m != ctx.member and problem(m) is None]
    if others:
        return Miss(f"not the only such member ({', '.join(others)})")
    return None


def _held_clock_problem(ctx: UpdateMemberContext, member: str, slack: int) -> str | None:
    sent = ctx.body[member]
    held = ctx.before.get(member, ABSENT) if ctx.before is not None else ABSENT
    stored = ctx.after.get(member, ABSENT) if ctx.after is not None else ABSENT
    if held is ABSENT or not same_value(held, sent):
        return "not sent as the entity held it"
    if stored is ABSENT or not same_value(stored, sent):
        return "the call did not leave it as it was"
    if not names_call_second(sent, ctx.started_at, slack):
        return f"{brief(sent)} is no whole-second instant naming the call's second"
    return None


@predicate("sent_clock_held_stamped", context="update-member", params=ClockWindowParams)
def sent_clock_held_stamped(ctx: UpdateMemberContext, params: ClockWindowParams) -> Outcome:
    """A sent clock the call sent as the entity held it and stored as a clock of its own (near
    its start, in the same format), the only such member sent: the application checks the clock
    a client read and stamps it anew (optimistic concurrency on updated_at)."""
    miss = _the_only_such_member(ctx, lambda member: _stamped_problem(ctx, member, params.window_seconds))
    if miss:
        return miss
    return Match({"params": {"member": ctx.member, "format": instant_and_format(ctx.stored)[1]}})


def _stamped_problem(ctx: UpdateMemberContext, member: str, window: int) -> str | None:
    sent = ctx.body[member]
    held = ctx.before.get(member, ABSENT) if ctx.before is not None else ABSENT
    stored = ctx.after.get(member, ABSENT) if ctx.after is not None else ABSENT
    if held is ABSENT or not same_value(held, sent):
        return "not sent as the entity held it"
    if stored is ABSENT or same_value(stored, sent):
        return "the call did not stamp it anew"
    was, now = instant_and_format(sent), instant_and_format(stored)
    if was is None or now is None:
        return f"{brief(stored)} is no timestamp"
    if was[1] != now[1]:
        return "stored in another format than it was sent"
    distance = abs((now[0] - aware(ctx.started_at)).total_seconds())
    if distance > window:
        return f"stored {distance:.0f} s from the call's start, more than {window}"
    return None


@predicate("unsent_clock_kept_in_call_second", context="update-member", params=CallSecondParams)
def unsent_clock_kept_in_call_second(ctx: UpdateMemberContext, params: CallSecondParams) -> Outcome:
    """A clock the call did not send and left as it was, in whole seconds naming the second the
    call ran in: it cannot show whether the update stamps it."""
    if ctx.sent and ctx.member in ctx.body:
        return Miss("sent")
    if ctx.held is ABSENT or ctx.stored is ABSENT or not same_value(ctx.held, ctx.stored):
        return Miss("not left as it was")
    if not names_call_second(ctx.stored, ctx.started_at, params.slack_seconds):
        return Miss(f"{brief(ctx.stored)} is no whole-second instant naming the call's second")
    return Match({"instant": ctx.stored})


@predicate("member_names_creation", context="update-member", params=WordsParams)
def member_names_creation(ctx: UpdateMemberContext, params: WordsParams) -> Outcome:
    """The name says when the entity was made (createdAt, row_created_timestamp)."""
    words = {w.lower() for w in params.words}
    found = [w for _, _, w in name_words(ctx.member) if w in words]
    return Match({"word": found[0]}) if found else Miss(f"names none of {sorted(words)}")
