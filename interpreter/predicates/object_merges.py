"""Predicates on the objects an update sends in a member, for what the capture shows the
application doing with the object it holds there: context ``update-object-merges``, table
``update-object-merges``.

An update is modelled as storing the sent object whole. Applications often merge it into the held
one instead (Medusa keeps the ``metadata`` keys a call leaves out, and drops a key sent as ""; a
JSON merge patch drops one sent as null). A recorded call proves replacement only where it left out
a key the held object held and the observation dropped it, and proves a value stored as sent only
where it sent one and the observation kept it; a match's evidence is what serving checks
(``check``, ``values``, ``described``), so serving judges no values of its own.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.object_keys import holding, left_out
from capenv.interpreter.bundle.pointers import MISSING, member_at
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class SentObject(BaseModel):
    """One successful recorded call of the update: what it sent in the member, and the member's
    value as held before and as observed after (absent when unknown)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int = 0
    sent: Any = None
    before: Any = None
    before_known: bool = False
    after: Any = None
    after_known: bool = False


@context_model("update-object-merges")
class ObjectMergesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    calls: list[SentObject] = Field(default_factory=list)


class StoredValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    empty_text: bool = False
    """Whether the empty string is judged."""
    null_value: bool = False
    """Whether JSON null is judged."""
    described: str
    """How a refusal names the values (``an empty text or null``)."""


def judged_values(params: StoredValuesParams) -> list[Any]:
    return ([""] if params.empty_text else []) + ([None] if params.null_value else [])


@predicate("sent_objects_never_shown_replacing", context="update-object-merges")
def sent_objects_never_shown_replacing(ctx: ObjectMergesContext, params: None = None) -> Outcome:
    """A call sent the member as an object, and none left out a key the held object held with the
    observation dropping it: nothing shows the application replacing the object rather than merging
    the sent one into it."""
    objects = [c for c in ctx.calls if isinstance(c.sent, dict)]
    if not objects:
        return Miss(f"no recorded call sent {ctx.member} as an object")
    for call in objects:
        if call.before_known and call.after_known and isinstance(call.after, dict):
            dropped = [p for p in left_out(call.before, call.sent) if member_at(call.after, p) is MISSING]
            if dropped:
                return Miss(f"record {call.ordinal} left out {dropped[0]}, which the object held, and the "
                            "observation dropped it: the application replaces the object")
    return Match({"check": "held-keys", "values": [],
                  "described": f"an object holding every key the held {ctx.member} holds"})


@predicate("sent_objects_never_shown_storing", context="update-object-merges", params=StoredValuesParams)
def sent_objects_never_shown_storing(ctx: ObjectMergesContext, params: StoredValuesParams) -> Outcome:
    """A call sent the member as an object, and none sent one of the values nested in it with the
    observation storing it there: nothing shows the application storing such a value rather than
    taking it as removing the key."""
    objects = [c for c in ctx.calls if isinstance(c.sent, dict)]
    if not objects:
        return Miss(f"no recorded call sent {ctx.member} as an object")
    values = judged_values(params)
    for call in objects:
        if not call.after_known:
            continue
        stored = [p for p in holding(call.sent, values) if type(member_at(call.after, p)) is type(member_at(call.sent, p))
                  and member_at(call.after, p) == member_at(call.sent, p)]
        if stored:
            return Miss(f"record {call.ordinal} sent {stored[0]} as {params.described}, and the observation stored it")
    return Match({"check": "values", "values": values,
                  "described": f"an object holding no member that is {params.described}"})
