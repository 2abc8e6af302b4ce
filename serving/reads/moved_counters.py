"""Which replayed recordings show a counter the capture's own writes moved (DESIGN.md §5 "Replay").

Answers of one shape (a status and a set of top-level members) that the capture made before its
first write may all hold one number in a member: a count of the whole store's writes that etcd puts
in every error body (``index``), a server's change counter. A later answer of that shape holding
another number there shows the counter as the capture's writes left it, whichever entity it names:
replaying it would answer with a state this environment never made (a fresh environment answers a
missing key with the initial count), so replay refuses it. A member whose initial answers hold
several values (each entity's own number) proves nothing.
"""

from __future__ import annotations

from typing import Iterable

from capenv.interpreter.bundle.models import RecordedCall
from capenv.interpreter.bundle.rule_data import setting_value
from capenv.interpreter.bundle.jsonvalue import JsonNumber

Shape = tuple[int, frozenset[str]]


def moved_counters(calls: Iterable[RecordedCall]) -> dict[int, str]:
    """Ordinal of each later (not initial) recording -> the member whose number differs from the one
    every initial answer of its shape held."""
    ordered = sorted(calls, key=lambda call: call.ordinal)
    seen: dict[Shape, int] = {}
    values: dict[Shape, dict[str, set[str]]] = {}
    for call in ordered:
        shape = _shape(call)
        if shape is None or not call.initial:
            continue
        seen[shape] = seen.get(shape, 0) + 1
        for name, number in _numbers(call):
            values.setdefault(shape, {}).setdefault(name, set()).add(number)
    fewest = int(setting_value("readonly-settings", "min_counter_answers"))
    constant = {shape: {name: next(iter(found)) for name, found in members.items() if len(found) == 1}
                for shape, members in values.items() if seen[shape] >= fewest}
    moved: dict[int, str] = {}
    for call in ordered:
        shape = _shape(call)
        if call.initial or shape not in constant:
            continue
        held = constant[shape]
        changed = sorted(name for name, number in _numbers(call) if name in held and held[name] != number)
        if changed:
            moved[call.ordinal] = changed[0]
    return moved


def _shape(call: RecordedCall) -> Shape | None:
    body = call.response.body if call.response.is_json else None
    return (call.response.status, frozenset(body)) if isinstance(body, dict) and body else None


def _numbers(call: RecordedCall) -> Iterable[tuple[str, str]]:
    for name, value in call.response.body.items():
        if isinstance(value, JsonNumber):
            yield name, value.text
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            yield name, repr(value)
