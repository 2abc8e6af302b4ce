"""Predicates on an item view the initial window never read (``view-replay-proven-items``).

Context ``replay-item-proof``: for one item view with no read in the initial window, what the
gate's replay showed when it answered the view's later reads from the replayed state: how many
it compared, how many of those failed, how many passed for an entity the initial state held (its
values came from list reads only), and whether a list view of the type is answered from the state.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("replay-item-proof")
class ReplayItemProofContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    compared: int
    failed: int
    failed_records: list[int] = []
    """The reads that did not reproduce (what the gate's notes on them say, why)."""
    passed_initial: int
    """Passing reads of an entity the initial state held, showing a member no write set since."""
    listed_from_state: bool
    """A list view of the type is answered from the state (its entities came from it)."""


class CountParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_reads: int = Field(ge=1)


@predicate("replay_item_reads_all_reproduce", context="replay-item-proof")
def replay_item_reads_all_reproduce(ctx: ReplayItemProofContext, params: BaseModel) -> Outcome:
    """Every read of the view the replay compared reproduced."""
    if not ctx.compared:
        return Miss("the replay compared no read of the view")
    if ctx.failed:
        named = f" (records {', '.join(map(str, ctx.failed_records))})" if ctx.failed_records else ""
        return Miss(f"{ctx.failed} of the {ctx.compared} reads the replay compared did not reproduce{named}")
    return Match({"compared": ctx.compared})


@predicate("replay_item_reads_of_initial_entities", context="replay-item-proof", params=CountParams)
def replay_item_reads_of_initial_entities(ctx: ReplayItemProofContext, params: CountParams) -> Outcome:
    """Enough passing reads showed an entity the initial state held, with a member no write set
    since: the values lists gave it render as the item view shows them."""
    if ctx.passed_initial < params.min_reads:
        return Miss(f"{ctx.passed_initial} passing read(s) showing a value of the initial state, fewer than "
                    f"{params.min_reads}: nothing shows the listed values render as this view shows them")
    return Match({"passed_initial": ctx.passed_initial})


@predicate("replay_item_type_listed_from_state", context="replay-item-proof")
def replay_item_type_listed_from_state(ctx: ReplayItemProofContext, params: BaseModel) -> Outcome:
    """A list view of the type is answered from the state."""
    if not ctx.listed_from_state:
        return Miss("no list view of the type is answered from the state")
    return Match({})
