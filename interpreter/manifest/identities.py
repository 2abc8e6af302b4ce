"""Values the application returned as identities (for segments that are not id-shaped)."""

from __future__ import annotations

from typing import Any, Iterable

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.names import MemberNameContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "manifest-identity-members"


def returned_identities(records: Iterable[Record], ruleset: RuleSet) -> set[str]:
    """Every string or integer value of an identity member in a successful JSON response."""
    verdicts: dict[str, bool] = {}

    def is_identity(name: str) -> bool:
        if name not in verdicts:
            decision = evaluate(ruleset, TABLE, MemberNameContext(name=name), subject=name)
            verdicts[name] = bool(decision.yields.get("identity"))
        return verdicts[name]

    found: set[str] = set()
    for record in records:
        if record.succeeded and record.response.is_json:
            _collect(record.response.json_value, is_identity, found)
    return found


def _collect(value: Any, is_identity: Any, found: set[str]) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, member in item.items():
                if isinstance(member, (dict, list)):
                    stack.append(member)
                elif isinstance(member, (str, int)) and not isinstance(member, bool) and is_identity(key):
                    found.add(str(member))
        elif isinstance(item, list):
            stack.extend(item)
