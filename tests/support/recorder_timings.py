"""Write one sequential scenario's HAR timings the way each recorder writes them, for tests.

A sequential client sends each call a little after the previous answer ended. Each call opens a
new connection (dns 2 ms, connect 5 ms with TLS 3 ms inside it), sends for 1 ms, waits 8 ms,
receives for 1 ms. The recorders place those phases differently:

* ``mitmproxy`` (savehar): the entry starts when the request starts; ``time`` adds the server
  connection's connect and ssl (opened before the request) to send, wait and receive.
* ``playwright`` (harTracer): the entry starts when the request is issued; ``send`` is 0 and
  ``wait`` runs from the request's start; ``time`` adds ``ssl`` although it lies inside ``connect``.
* ``devtools`` (Chrome's WebInspector): the entry starts when the request is issued; ``time`` is
  blocked + dns + connect (ssl inside) + send + wait + receive, as HAR 1.2 says.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from dateutil.parser import isoparse

from .har_builder import HarBuilder

RECORDERS = {"mitmproxy": "mitmproxy", "playwright": "Playwright", "devtools": "WebInspector"}
DNS, CONNECT, SSL, SEND, WAIT, RECEIVE, BLOCKED = 2.0, 5.0, 3.0, 1.0, 8.0, 1.0, 1.0
GAP_MS = 0.5
"""Between one answer's end and the next call: less than every phase a recorder may misplace."""


def _phases(recorder: str) -> tuple[dict[str, float], float, float]:
    """(timings, time, how long after the entry's start the answer ended)."""
    if recorder == "mitmproxy":
        timings = {"connect": CONNECT, "ssl": SSL, "send": SEND, "receive": RECEIVE, "wait": WAIT}
        return timings, sum(timings.values()), SEND + WAIT + RECEIVE
    if recorder == "playwright":
        timings = {"dns": DNS, "connect": CONNECT, "ssl": SSL, "send": 0, "wait": SEND + WAIT, "receive": RECEIVE}
        time = DNS + CONNECT + SSL + SEND + WAIT + RECEIVE
        return timings, time, DNS + CONNECT + SEND + WAIT + RECEIVE
    if recorder == "devtools":
        timings = {"blocked": BLOCKED, "dns": DNS, "connect": CONNECT, "ssl": SSL, "send": SEND, "wait": WAIT,
                   "receive": RECEIVE, "_blocked_queueing": BLOCKED}
        time = BLOCKED + DNS + CONNECT + SEND + WAIT + RECEIVE
        return timings, time, time
    raise ValueError(recorder)


def as_recorded_by(builder: HarBuilder, recorder: str) -> HarBuilder:
    """A copy of ``builder``'s calls, sequential, with ``recorder``'s timings and creator."""
    timings, time, answer_ends = _phases(recorder)
    copy = HarBuilder(origin=builder.origin)
    start = isoparse(builder.entries[0]["startedDateTime"])
    for entry in builder.entries:
        written: dict[str, Any] = dict(entry)
        written["startedDateTime"] = start.isoformat(timespec="microseconds").replace("+00:00", "Z")
        written["time"] = time
        written["timings"] = dict(timings)
        copy.entries.append(written)
        start += timedelta(milliseconds=answer_ends + GAP_MS)
    copy.creator = {"name": RECORDERS[recorder], "version": "1"}
    return copy
