"""Which replayed recordings show what the capture's own writes sent (DESIGN.md §5 "Replay").

A recording made after the capture's first write may show the state as those writes left it.
When its answer holds a string that a successful write sent before it, and no recording of the
state the capture began from showed, it shows that write (Synapse's admin API answering the
account data a client API PUT had just set): replaying it would answer with a state this
environment never made, so replay refuses it as it refuses a type-reading read's later recording.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from capenv.interpreter.bundle.models import RecordedCall
from capenv.interpreter.bundle.rule_data import setting_value

READ_METHODS = ("GET", "HEAD", "OPTIONS")


def showing_writes(calls: Iterable[RecordedCall], read_only_tools: set[str], tool_of: dict[int, str]) -> set[int]:
    """Ordinals of the later (not initial) recorded reads whose answers hold a string some earlier
    successful write sent in its body and no initial recording showed."""
    ordered = sorted(calls, key=lambda call: call.ordinal)
    initial: set[str] = set()
    for call in ordered:
        if call.initial and call.response.is_json:
            initial.update(_strings(call.response.body))
    shortest = int(setting_value("readonly-settings", "min_written_text"))  # shorter recur by chance
    written: set[str] = set()
    showing: set[int] = set()
    for call in ordered:
        is_read = call.method in READ_METHODS or tool_of.get(call.ordinal) in read_only_tools
        if not is_read:
            if 200 <= call.response.status < 300 and call.request_is_json:
                written.update(t for t in _strings(call.request_body) if len(t) >= shortest and t not in initial)
            continue
        if not call.initial and written and call.response.is_json \
                and any(text in written for text in _strings(call.response.body)):
            showing.add(call.ordinal)
    return showing


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            yield current
        elif isinstance(current, dict):
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
