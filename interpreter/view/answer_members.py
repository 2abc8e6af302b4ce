"""Members of a capture's answers that are values of each answer, not state (table
``view-answer-members``): privacyIDEA answers every call in one envelope whose ``time`` (an epoch
clock) and ``signature`` (RSA-PSS over the answer) are new in each. A view proves such a member
only when one of its own calls was answered twice with no write between (``views._per_response``,
``envelope_members``); an envelope every answer of the application shares is proven once for all.
"""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.models import ReadView
from capenv.interpreter.bundle.pointers import parse
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.answer_members import AnswerMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-answer-members"


def per_answer_members(records: list[Record], tool_of: dict[int, str], writes: Callable[[Record], bool],
                       ruleset: RuleSet, traces: list[TraceEvent]) -> frozenset[str]:
    """The top-level members the table takes as each answer's own, over the JSON object answers of
    the records a tool holds (the primary origin's), in ordinal order."""
    if TABLE not in ruleset.tables:
        return frozenset()
    answers = [r for r in sorted(records, key=lambda r: r.ordinal)
               if r.ordinal in tool_of and r.response.is_json and isinstance(r.response.json_value, dict)]
    if len(answers) < 2:
        return frozenset()
    carried: dict[str, list[str]] = {}
    for record in answers:
        for name, value in record.response.json_value.items():
            carried.setdefault(name, []).append(_canonical(value))
    common = [name for name, values in carried.items() if len(values) >= 2]
    changed = _changed_without_write(sorted(records, key=lambda r: r.ordinal), tool_of, writes, set(common))
    found = set()
    for name in common:
        values = carried[name]
        context = AnswerMemberContext(member=name, answers=len(answers), carried=len(values),
                                      distinct=len(set(values)), changed_without_write=name in changed)
        decision = evaluate(ruleset, TABLE, context, subject=f"answer member {name!r}")
        if decision.yields.get("per_answer"):
            traces.extend(decision.events)
            found.add(name)
    return frozenset(found)


def with_per_answer(view: ReadView, members: frozenset[str]) -> ReadView:
    """The view leaving each answer's own members out of comparisons, and out of the list envelope
    members serving renders from the state (kept from the base recording, as a member seen to change
    per response is): item and list views reading inside an envelope, and documents."""
    if not members or view.kind not in ("item", "list", "document"):
        return view
    if view.kind != "document" and (view.locator is None or view.locator.kind == "root"):
        return view  # a bare entity's members are its own
    kept = tuple(m for m in view.envelope_members if _top(m.pointer) not in members)
    per_response = tuple(sorted(set(view.per_response_members) | members))
    if kept == view.envelope_members and per_response == view.per_response_members:
        return view
    return view.model_copy(update={"envelope_members": kept, "per_response_members": per_response})


def _changed_without_write(records: list[Record], tool_of: dict[int, str], writes: Callable[[Record], bool],
                           names: set[str]) -> set[str]:
    """The members two successive answers of one GET (path and query) show otherwise, no write
    recorded between them."""
    last: dict[tuple, tuple[int, dict[str, Any]]] = {}
    written = 0
    changed: set[str] = set()
    for record in records:
        if record.ordinal not in tool_of:
            continue
        if writes(record):
            written += 1
            continue
        body = record.response.json_value if record.response.is_json else None
        if record.method != "GET" or not isinstance(body, dict):
            continue
        key = (record.path, record.query)
        if key in last and last[key][0] == written:
            before = last[key][1]
            changed |= {n for n in names if n in body and n in before and _canonical(body[n]) != _canonical(before[n])}
        last[key] = (written, body)
    return changed


def _canonical(value: Any) -> str:
    return jsonvalue.canonical(value).decode("utf-8")


def _top(pointer: str) -> str:
    parts = parse(pointer)
    return parts[0] if parts else ""
