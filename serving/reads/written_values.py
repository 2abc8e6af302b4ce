"""Which replayed recordings show what the capture's own writes sent (DESIGN.md §5 "Replay").

A recording made after the capture's first write may show the state as those writes left it.
When its answer holds a string that a successful write sent before it, and no recording of the
state the capture began from showed, it shows that write (Synapse's admin API answering the
account data a client API PUT had just set): replaying it would answer with a state this
environment never made, so replay refuses it as it refuses a type-reading read's later recording.
A write sends strings in a JSON body, or as the values of a form body (``value=eu-west``: etcd's keys,
an HTML form's fields), which an answer shows decoded.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator
from urllib.parse import parse_qsl

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
            if 200 <= call.response.status < 300:
                written.update(t for t in _sent(call) if len(t) >= shortest and t not in initial)
            continue
        if not call.initial and written and call.response.is_json \
                and any(text in written for text in _strings(call.response.body)):
            showing.add(call.ordinal)
    return showing


def _sent(call: RecordedCall) -> Iterator[str]:
    """The strings a write sent: in its JSON body, or the values of a body that parses whole as a form
    (name=value pairs joined by &; a text that does not is no form and sends nothing here)."""
    if call.request_is_json:
        yield from _strings(call.request_body)
    elif call.request_text:
        try:
            pairs = parse_qsl(call.request_text, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            return
        yield from (value for _, value in pairs)


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
