"""The JSON kind a write plan accepts a body member as, by the ``member-kinds`` table: the
exemplar's, or that of the values the tool's successful calls sent besides null, null too
(``MemberRule.nullable``). One exemplar sending null says nothing of the member's kind."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import MemberRule
from capenv.interpreter.predicates.member_kinds import MemberKindContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "member-kinds"


def with_sent_kinds(rule: MemberRule, other_values: list[Any], ruleset: RuleSet, subject: str,
                    events: list[TraceEvent]) -> MemberRule:
    """``rule`` accepting the one kind besides null the successful calls sent (its ``kind``
    being the exemplar's, first), when the table says so; as it was otherwise."""
    if rule.kind is None or not other_values or TABLE not in ruleset.tables:
        return rule
    context = MemberKindContext(member=rule.member, sent_kinds=(rule.kind, *(json_kind(v) for v in other_values)))
    decision = evaluate(ruleset, TABLE, context, subject=subject)
    events.extend(decision.events)
    if decision.yields.get("nullable") is not True:
        return rule
    return rule.model_copy(update={"kind": str(decision.evidence["kind"]), "nullable": True})
