"""Predicates on a member of one type's entities that may count the entities of another type naming
each of them (context ``referrer-count``).

A project's ``task_number`` is how many tasks name the project in their ``project`` member; a
task's ``total_annotations`` how many annotations the application holds under the task's path.
A create or delete of a task changes what the project answers, which serving, writing the tasks
alone, would not do. What the initial state shows of it is, per entity of the counting type, the
member's value beside the number of entities naming it: a count is told by every one being equal,
with a member named as a count or counts too varied to agree by chance.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("referrer-count")
class ReferrerCountContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    """The type whose entities may hold the count."""
    member: str
    """Its member (``task_number``, or ``count.posts`` one object deep) that may be the count."""
    referrer_type: str
    """The type whose entities name them."""
    reference: str
    """How a referrer names its entity: its member holding the entity's id, or ``{arg}``, the path
    parameter of the referrers' collection below the entity's item path."""
    counts: list[tuple[int, int]] = Field(default_factory=list)
    """Per initial entity of the type: the member's value and how many initial referrers name it."""
    unchanged_after: int | None = None
    """A read (its record) showing an entity's member as it was just before a recorded create or
    delete of a referrer naming it, with no other write between: the application did not count it."""


class CountParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_entities: int = Field(ge=1)
    """Fewer entities show too little to tell a count from a coincidence."""
    min_distinct: int = Field(ge=1)
    """How many distinct counts the entities must show."""
    words: list[str] | None = None
    """Words one of which the member's name must hold (letter case aside); none: any name."""


@predicate("member_counts_referrers", context="referrer-count", params=CountParams)
def member_counts_referrers(ctx: ReferrerCountContext, params: CountParams) -> Outcome:
    """Every entity's member equals the number of referrers naming it, one at least naming some, over
    min_entities entities and min_distinct distinct counts, the member named by one of the words, and
    no read showed it unchanged just after a recorded write of a referrer naming its entity."""
    if len(ctx.counts) < params.min_entities:
        return Miss(f"{len(ctx.counts)} entities of {ctx.type_name}, fewer than {params.min_entities}")
    unequal = [(value, count) for value, count in ctx.counts if value != count]
    if unequal:
        return Miss(f"{ctx.member} {unequal[0][0]} where {unequal[0][1]} {ctx.referrer_type} name the entity")
    if not any(count for _, count in ctx.counts):
        return Miss(f"no {ctx.referrer_type} entity names one")
    distinct = len({count for _, count in ctx.counts})
    if distinct < params.min_distinct:
        return Miss(f"{distinct} distinct count(s), fewer than {params.min_distinct}")
    if ctx.unchanged_after is not None:
        return Miss(f"record {ctx.unchanged_after} showed {ctx.member} unchanged just after a recorded write "
                    f"made or removed a {ctx.referrer_type} entity naming the entity")
    if params.words is not None and not any(word in ctx.member.lower() for word in params.words):
        return Miss(f"{ctx.member!r} holds none of the words {params.words}")
    return Match({"member": ctx.member, "referrers": ctx.referrer_type, "by": ctx.reference,
                  "entities": len(ctx.counts)})
