"""The read gate: render each initial-window read from the initial state and compare.

A view (or list line) whose every initial-window read reproduces is state-backed; the others
stay on replay with the reason (the first difference, as a JSON pointer, and the record).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, ReadView
from capenv.interpreter.evidence.records import Record
from capenv.serving.answers import Answer, answer_document, answer_item, answer_list
from capenv.serving.render import first_difference, with_observed, without_members
from capenv.serving.state_index import StateIndex

from .views import is_absence


def compare(answer: Answer | None, record: Record, view: ReadView, *, is_list: bool) -> str | None:
    """None when the answer reproduces the recording, else a short reason."""
    if answer is None:
        return None if is_absence(record) else f"record {record.ordinal}: the state does not hold what it shows"
    if is_absence(record):
        return f"record {record.ordinal}: recorded an absence ({record.status}), the state holds it"
    if answer.missing_field:
        return f"record {record.ordinal}: the entity lacks required field {answer.missing_field!r}"
    if answer.status != record.status:
        return f"record {record.ordinal}: status {answer.status} rendered, {record.status} recorded"
    if not record.response.is_json:
        return f"record {record.ordinal}: the recorded answer is not JSON"
    recorded = record.response.json_value
    rendered = with_observed(answer.body, recorded, view.locator, view.volatile_fields, is_list=is_list)
    difference = first_difference(without_members(rendered, view.per_response_members),
                                  without_members(recorded, view.per_response_members))
    return None if difference is None else f"record {record.ordinal}: differs at {difference}"


def answer_read(view: ReadView, record: Record, types: dict[str, EntityType], state: StateIndex
                ) -> tuple[Answer | None, bool, Any]:
    """What serving answers from state for a recorded read: (answer, is_list, line or None)."""
    if view.kind == "item":
        return answer_item(view, types[view.type], state, record.path), False, None
    if view.kind == "list":
        line = next((l for l in view.lines if l.path == record.path and l.query == record.query), None)
        if line is None:
            return None, True, None
        return answer_list(view, line, types[view.type], state), True, line
    if view.kind == "document":
        line = next((l for l in view.documents if l.path == record.path and l.query == record.query), None)
        if line is None:
            return None, False, None
        return answer_document(line, state), False, line
    return None, False, None


def run_read_gate(views: list[ReadView], records: dict[int, Record], window_reads: tuple[int, ...],
                  tool_of: dict[int, str], types: dict[str, EntityType], state: StateIndex) -> list[ReadView]:
    by_tool = {v.tool: v for v in views}
    failures: dict[str, list[str]] = {}
    checked: dict[str, list[int]] = {}
    line_failures: dict[tuple[str, tuple], list[str]] = {}
    line_checked: dict[tuple[str, tuple], list[int]] = {}
    for ordinal in window_reads:
        record = records[ordinal]
        view = by_tool.get(tool_of.get(ordinal, ""))
        if view is None or view.kind == "none":
            continue
        answer, is_list, _line = answer_read(view, record, types, state)
        reason = compare(answer, record, view, is_list=is_list)
        checked.setdefault(view.tool, []).append(ordinal)
        key = (view.tool, (record.path, record.query))
        line_checked.setdefault(key, []).append(ordinal)
        if reason:
            failures.setdefault(view.tool, []).append(reason)
            line_failures.setdefault(key, []).append(reason)
    result = []
    for view in views:
        if view.kind == "none":
            result.append(view)
            continue
        done = tuple(checked.get(view.tool, ()))
        failed = failures.get(view.tool, [])
        reason = failed[0] if failed else (None if done else "no read in the initial window to prove it")
        update: dict[str, Any] = {"state_backed": bool(done) and not failed, "reason": reason,
                                  "checked_record_ordinals": done}
        if view.kind == "list":
            update["lines"] = tuple(_line_verdict(view.tool, line, line_checked, line_failures) for line in view.lines)
        if view.kind == "document":
            update["documents"] = tuple(_line_verdict(view.tool, line, line_checked, line_failures)
                                        for line in view.documents)
        result.append(view.model_copy(update=update))
    return result


def _line_verdict(tool: str, line: Any, checked: dict, failures: dict) -> Any:
    key = (tool, (line.path, line.query))
    done, failed = checked.get(key, []), failures.get(key, [])
    reason = failed[0] if failed else (None if done else "no read in the initial window to prove it")
    return line.model_copy(update={"state_backed": bool(done) and not failed, "reason": reason})
