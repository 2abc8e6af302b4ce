"""Predicates on one member of an entity type: does it change with no write (volatile)?

Context ``volatile-member``: what the capture shows of the member between two sightings of one
entity with no write between them: two reads, or a write's own answer and the next read of the
entity. A volatile member shows nothing of a write: checks and the read gate take its observed
value (``server-maintained`` clocks and states such as a kernel's ``last_activity``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("volatile-member")
class VolatileMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    name: str
    read_changes: int = 0
    """Pairs of reads of one entity, no write between, that show the member with different values,
    both answered on one request line (the same read tool, the same query)."""
    other_line_changes: dict[str, int] = Field(default_factory=dict)
    """Such pairs answered on two request lines (a list and an item read, or two queries), which may
    show the entity otherwise by what they ask, counted by the values' JSON kind (``str``, ``int``,
    ``float``, ``bool``, ``null``, ``list``, ``dict``; ``mixed`` when the two differ;
    ``dict-values`` or ``list-values`` for containers of one structure whose scalars changed)."""
    query_selected_changes: dict[str, int] = Field(default_factory=dict)
    """Of ``other_line_changes``, by kind, those a query parameter accounts for: both lines answered
    by one read tool, which send a parameter differently that no two of its lines showing the
    member alike send differently (``?plain=1`` showing a text as stored where every other query
    shows it rendered): what the line asks, not a change."""
    answer_changes: int = 0
    """Write calls whose own answer showed the member (not null, not sent by the call) with a value
    the next read of the entity, no write between, shows otherwise (not null, the same JSON kind)."""
    answer_examples: list[int] = Field(default_factory=list)
    """The ordinals of those write calls (evidence for the trace)."""


class BetweenReadsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds_across_lines: list[str]
    """The JSON kinds whose change between reads of two request lines counts as a change too."""


@predicate("volatile_changed_between_reads", context="volatile-member", params=BetweenReadsParams)
def volatile_changed_between_reads(ctx: VolatileMemberContext, params: BetweenReadsParams) -> Outcome:
    """Two reads of one entity with no write between show the member with different values: on
    one request line, or on two with values of one of the kinds named, unless a query parameter
    the two lines send otherwise accounts for the change (``query_selected_changes``)."""
    if ctx.read_changes:
        return Match({"read_changes": ctx.read_changes})
    across = {kind: left for kind, n in ctx.other_line_changes.items() if kind in params.kinds_across_lines
              and (left := n - ctx.query_selected_changes.get(kind, 0)) > 0}
    if across:
        return Match({"across_lines": across})
    if ctx.query_selected_changes and not any(n > ctx.query_selected_changes.get(kind, 0)
                                              for kind, n in ctx.other_line_changes.items()):
        return Miss(f"only reads of one tool with a query parameter sent otherwise show it with different "
                    f"values, as {', '.join(sorted(ctx.query_selected_changes))} (the parameter selects it)")
    if ctx.other_line_changes:
        return Miss(f"only reads on different request lines show it with different values, as "
                    f"{', '.join(sorted(ctx.other_line_changes))} (what a line asks may show it otherwise)")
    return Miss("no two reads of one entity with no write between show it with different values")


class AnswerChangeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_calls: int = Field(ge=1)
    """How many write calls must show the change (one could be a write answered before it settled)."""


@predicate("volatile_changed_after_answer", context="volatile-member", params=AnswerChangeParams)
def volatile_changed_after_answer(ctx: VolatileMemberContext, params: AnswerChangeParams) -> Outcome:
    """Write calls' own answers show the member with a value the next read of the entity, with no
    write between, shows otherwise (the call did not send it; both values present, one kind)."""
    if ctx.answer_changes >= params.min_calls:
        return Match({"write_calls": ctx.answer_changes, "examples": ctx.answer_examples[:3]})
    return Miss(f"{ctx.answer_changes} write call{'s' if ctx.answer_changes != 1 else ''} showed it change "
                f"before the next read, fewer than {params.min_calls}")
