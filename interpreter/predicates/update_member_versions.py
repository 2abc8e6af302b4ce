"""A version an update call sent back as the entity held it, which the application bumped
(context ``update-member``, seeds: "Updates."; optimistic concurrency): the member a client must
send as it read it, and the application checks and stores one greater.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_member_kinds import ABSENT, MemberParams, UpdateMemberContext, not_sent
from .update_values import brief


class VersionParams(MemberParams):
    by: int = Field(default=1, ge=1)
    """How much the application adds to the version on every update."""


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@predicate("sent_version_held", context="update-member", params=VersionParams)
def sent_version_held(ctx: UpdateMemberContext, params: VersionParams) -> Outcome:
    """A sent integer the call sent as the entity held it and stored ``by`` greater: a version the
    application bumps on every update and checks against the one the client read."""
    miss = not_sent(ctx)
    if miss:
        return miss
    sent, held, stored = ctx.sent_value, ctx.held, ctx.stored
    if not _integer(sent):
        return Miss(f"{brief(sent)} is no integer")
    if held is ABSENT or not _integer(held) or held != sent:
        return Miss("not sent as the entity held it")
    if stored is ABSENT or not _integer(stored) or stored != sent + params.by:
        return Miss(f"stored {'nothing' if stored is ABSENT else brief(stored)}, not the sent value plus {params.by}")
    return Match({"params": {"member": ctx.member, "by": params.by}})


@predicate("sent_held_string_replaced", context="update-member", params=MemberParams)
def sent_held_string_replaced(ctx: UpdateMemberContext, params: MemberParams) -> Outcome:
    """A sent string the call sent as the entity held it, which the application stored as another
    value: a version it computes (CouchDB's ``_rev``, ``1-<md5>`` becoming ``2-<md5>``) and checks
    against the one the client read, refusing a stale one."""
    miss = not_sent(ctx)
    if miss:
        return miss
    sent, held, stored = ctx.sent_value, ctx.held, ctx.stored
    if not isinstance(sent, str):
        return Miss(f"{brief(sent)} is no string")
    if held is ABSENT or held != sent:
        return Miss("not sent as the entity held it")
    if stored is ABSENT or stored == sent:
        return Miss("stored as sent" if stored == sent else "not stored")
    return Match({"params": {"member": ctx.member}, "held": sent, "stored": stored})
