"""An item path whose one parameter takes either the entity's identity or one other key member
(Prefect's ``/api/v2/concurrency_limits/{id_or_name}``), decided by ``view-either-keys`` from the
item tool's own reads: some answered the entity holding the path value at its identity, the others
at one other member, and the identity's values have a shape no member value has. Serving then names
the entity by the identity for a value of that shape, by the member for any other
(``EitherKey.names_identity``); where the capture shows one spelling only, the path stays a document
read, and its writes unserved."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EitherKey, Locator
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.predicates.either_keys import EitherKeyContext
from capenv.interpreter.rules_engine import evaluate

from .shapes import ShapeReader, lookup_words

TABLE = "view-either-keys"


def either_key_shape(tool: Tool, answers: list[Record], reader: ShapeReader, word: str | None
                     ) -> tuple[Locator, str, EitherKey] | None:
    """(locator, identity field, either key) when the table proves the tool's parameter takes either
    (decided once per tool: the type inference asks twice)."""
    memo = reader.__dict__.setdefault("either_keys", {})
    if tool.name not in memo:
        memo[tool.name] = _decide(tool, answers, reader, word)
    return memo[tool.name]


def _decide(tool: Tool, answers: list[Record], reader: ShapeReader, word: str | None
            ) -> tuple[Locator, str, EitherKey] | None:
    per_answer: list[tuple[str, dict[tuple[Locator, str], Any]]] = []
    for record in answers:
        path_value = tool.match(record.path)[tool.segments[-1].param]
        options: dict[tuple[Locator, str], Any] = {}
        for locator, obj in reader.item_locators(record.response.json_value, word, lookup_words(tool.segments)):
            for field, decision in reader.identity_candidates([[obj]], path_value, subject=tool.name):
                options.setdefault((locator, field), decision)
        if not options:
            return None
        per_answer.append((path_value, options))
    seen = list(dict.fromkeys(key for _, options in per_answer for key in options))
    for locator, identity in seen:
        for other_locator, member in seen:
            if other_locator != locator or member == identity:
                continue
            by_identity = [v for v, o in per_answer if (locator, identity) in o]
            by_member = [v for v, o in per_answer if (locator, identity) not in o and (locator, member) in o]
            if len(by_identity) + len(by_member) != len(per_answer):
                continue
            context = EitherKeyContext(identity=identity, member=member, identity_values=by_identity,
                                       member_values=by_member)
            decision = evaluate(reader.ruleset, TABLE, context, subject=f"{tool.name} {identity} or {member}")
            reader.traces.extend(decision.events)
            if decision.ok and decision.yields.get("either"):
                key = EitherKey(member=member, pattern=str(decision.evidence["pattern"]),
                                ignore_case=bool(decision.evidence.get("ignore_case")),
                                base64_of=decision.evidence.get("base64_of"), rule_id=decision.rule_id)
                return locator, identity, key
    return None
