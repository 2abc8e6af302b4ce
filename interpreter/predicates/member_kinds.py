"""Predicates on the JSON kinds a write tool's successful calls sent one body member as.

Context ``member-kind``: the member and the kind of each value the tool's successful calls sent
for it (the exemplar's first: the kind of the field it lands in when one shows it).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("member-kind")
class MemberKindContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    sent_kinds: tuple[str, ...]
    """The JSON kind of each value a successful call sent (``json_kind``), the exemplar's first."""


@predicate("sent_kinds_one_beside_null", context="member-kind")
def sent_kinds_one_beside_null(ctx: MemberKindContext, params: BaseModel) -> Outcome:
    """The calls sent the member as null and as values of exactly one other JSON kind (integer
    beside number is number, as serving takes an integer for a number)."""
    kinds = set(ctx.sent_kinds)
    if "null" not in kinds:
        return Miss(f"{ctx.member} was sent never as null")
    others = kinds - {"null"}
    if {"integer", "number"} <= others:
        others -= {"integer"}
    if not others:
        return Miss(f"{ctx.member} was sent only as null")
    if len(others) > 1:
        return Miss(f"{ctx.member} was sent as {', '.join(sorted(others))} besides null: no one kind")
    return Match({"kind": next(iter(others))})
