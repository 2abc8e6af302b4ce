"""Whether a write tool's calls carried a precondition the application checks (the
``write-preconditions`` table: a conditional header, or a body member carrying the entity's
version): a tool every successful call of which sent one gets no plan
(``precondition-header``), since serving cannot check an ETag it does not hold and would apply a
stale call the application refuses (412), or one without it that it may refuse (428); every other
plan lists the headers serving refuses a call for carrying (``WritePlan.unchecked_headers``)."""

from __future__ import annotations

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.write_preconditions import WritePreconditionContext
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

TABLE = "write-preconditions"


def precondition_decision(tool_name: str, calls: list[Record], ruleset: RuleSet) -> Decision | None:
    """The table's decision on the headers the tool's successful calls sent (None without the table)."""
    if TABLE not in ruleset.tables:
        return None
    sent: dict[str, list[int]] = {}
    members: dict[str, list[int]] = {}
    succeeded = [call for call in calls if call.succeeded]
    for call in succeeded:
        for name, _ in call.request_headers:
            sent.setdefault(name.lower(), []).append(call.ordinal)
        body = call.request.json_value if call.request.is_json else None
        for name in body if isinstance(body, dict) else ():
            members.setdefault(name, []).append(call.ordinal)
    return evaluate(ruleset, TABLE, WritePreconditionContext(calls=len(succeeded), sent=sent, members=members),
                    subject=f"{tool_name} headers")
