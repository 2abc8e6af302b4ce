"""Predicates on one unconfirmed per-value plan beside its served siblings: context
``collection-value-proof``, table ``write-collection-value-proofs``.

A tool split on a generic collection segment (``plans/collection_split``) is proven per value, and a
value the capture wrote only once (a class made mid-capture, its one update read back once) has no
later read the gate checks: the read that shows its call supplied the plan's observation. The same
tool proven on another value (a read the gate checked confirmed that value's plan) shows how the
tool writes; when this value's plan writes the same way (the same effect, answer and generated
fields, its members by the same rules) and the read its call was learned from is answered from the
copy as recorded, the capture shows this value written that way too.

The context gives signatures the gate module built (``gate/value_proofs``); the predicate only
compares them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ValuePlanShape(BaseModel):
    """How one value's plan writes, as comparable signatures."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: str
    """The values it dispatches on, spelled (``class_id 'Author'``)."""
    effect: str
    answer: str
    """The recorded answer's status and shape (its top-level members, or its kind)."""
    generated: list[str] = Field(default_factory=list)
    """Rules of fields no sent member names (a clock, an identity): field, rule id and params."""
    member_rules: list[str] = Field(default_factory=list)
    """Rule ids of the members it accepts and of the fields they write."""
    confirmations: list[int] = Field(default_factory=list)
    """Reads the gate checked that confirmed it (a served sibling's)."""


@context_model("collection-value-proof")
class CollectionValueProofContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    plan: ValuePlanShape
    reason: str | None = None
    """The value's own verdict reason."""
    calls: list[int] = Field(default_factory=list)
    """Its successful recorded calls."""
    reproduced: list[int] = Field(default_factory=list)
    """Reads that supplied a call's observation and that the copy answered as recorded, the call applied."""
    siblings: list[ValuePlanShape] = Field(default_factory=list)
    """The tool's served plans for other values."""


class ProofParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reasons: list[str] = Field(min_length=1)
    """The verdict reasons a sibling's proof may lift (only a lack of checks, never a contradiction)."""
    min_confirmations: int = Field(ge=1)
    """Checked reads the sibling's own plan needs."""


@predicate("value_written_as_proven_sibling", context="collection-value-proof", params=ProofParams)
def value_written_as_proven_sibling(ctx: CollectionValueProofContext, params: ProofParams) -> Outcome:
    """The value's plan is unserved only for a reason in ``reasons``; each of its successful calls
    supplied the observation of a read the copy answered as recorded (so a single call at most: a
    later call has no observation of its own); and a served sibling, confirmed by at least
    ``min_confirmations`` checked reads, has the same effect and answer shape, the same generated
    fields with the same rules and parameters, and uses every member and field rule this one does."""
    if ctx.reason not in params.reasons:
        return Miss(f"its verdict is {ctx.reason or 'served'}, none of {params.reasons}")
    if not ctx.calls:
        return Miss("no successful recorded call")
    if len(ctx.reproduced) < len(ctx.calls):
        return Miss(f"{len(ctx.calls)} call(s), and {len(ctx.reproduced)} read(s) the gate answered from the copy "
                    "showed a call's effect (a later item read of the entity, or a list serving answers from the "
                    "state, would check it)")
    misses = []
    for sibling in ctx.siblings:
        why = _unlike(ctx.plan, sibling, params.min_confirmations)
        if why is None:
            return Match({"sibling": sibling.value, "confirmed_by": sibling.confirmations,
                          "reproduced": ctx.reproduced})
        misses.append(f"{sibling.value}: {why}")
    if not misses:
        return Miss("no other value of the tool is served")
    return Miss("; ".join(misses))


def _unlike(plan: ValuePlanShape, sibling: ValuePlanShape, min_confirmations: int) -> str | None:
    if len(sibling.confirmations) < min_confirmations:
        return f"{len(sibling.confirmations)} checked read(s) confirm it, fewer than {min_confirmations}"
    if sibling.effect != plan.effect:
        return f"a {sibling.effect}, not a {plan.effect}"
    if sibling.answer != plan.answer:
        return f"answers {sibling.answer}, not {plan.answer}"
    if sorted(sibling.generated) != sorted(plan.generated):
        return f"generates {sorted(sibling.generated)}, not {sorted(plan.generated)}"
    unused = sorted(set(plan.member_rules) - set(sibling.member_rules))
    if unused:
        return f"uses no member rule {unused}"
    return None
