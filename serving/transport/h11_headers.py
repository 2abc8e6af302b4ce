"""An answer's headers checked by h11 once per distinct header, not once per answer.

uvicorn builds each answer's ``h11.Response`` from the ASGI start message's header list, and h11
validates every header of it with its regular expressions (name, value, the framing headers'
forms): ~10 µs an answer of json-server's fourteen recorded headers, where the runtime answers the
same recorded headers call after call (``http_exchange._encoded_headers`` already encodes each set
once). ``send_checked_once`` is uvicorn's ``RequestResponseCycle.send`` for the start message with
the header list made by ``checked_headers``: h11's own ``normalize_and_validate`` of each header
alone, kept (a memo of a pure function), and joined into the ``h11.Headers`` h11 would have made of
the whole list. Every other message, and a start message uvicorn would treat otherwise (an access
log, a paused or closed connection, a second start), goes to uvicorn's ``send`` unchanged.

The join is h11's answer exactly: its loop judges each header alone except two framing headers of
the same name (``content-length`` twice must agree, ``transfer-encoding`` twice is refused); a list
holding more than one of them, or any header h11 refuses, is judged by ``normalize_and_validate``
whole, which raises h11's own error for it.
"""

from __future__ import annotations

import functools
from typing import Any

import h11
from h11._headers import Headers, normalize_and_validate
from uvicorn.protocols.http.flow_control import CLOSE_HEADER
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, RequestResponseCycle

CHECKED_HEADERS_KEPT = 4096
"""How many distinct headers are kept checked. Not a budget: the size of a memo of a pure function,
shared by every server the process runs and sized at import; no answer depends on it, only how often
h11 checks the same header again."""
_FRAMING = (b"content-length", b"transfer-encoding")


@functools.lru_cache(maxsize=CHECKED_HEADERS_KEPT)
def _checked(name: Any, value: Any) -> tuple[bytes, bytes, bytes]:
    """h11's entry for one header alone: (name as sent, name lower case, value as h11 sends it)."""
    return normalize_and_validate([(name, value)])._full_items[0]


def checked_headers(headers: list[Any]) -> Headers:
    """``normalize_and_validate(headers)``, each header's check looked up once made."""
    items = []
    framing = 0
    try:
        for name, value in headers:
            item = _checked(name, value)
            if item[1] in _FRAMING:
                framing += 1
            items.append(item)
    except Exception:  # a header h11 refuses, or one that cannot be a key: h11 judges the list whole
        return normalize_and_validate(headers)
    if framing > 1:
        return normalize_and_validate(headers)
    return Headers(items)


async def send_checked_once(cycle: RequestResponseCycle, message: Any) -> None:
    """``cycle.send`` (uvicorn's), the start of an answer made with ``checked_headers``."""
    if message["type"] != "http.response.start" or cycle.response_started or cycle.disconnected \
            or cycle.flow.write_paused or cycle.access_log:
        await RequestResponseCycle.send(cycle, message)
        return
    # uvicorn's own steps for the start message (h11_impl.RequestResponseCycle.send)
    cycle.response_started = True
    cycle.waiting_for_100_continue = False
    status = message["status"]
    headers = cycle.default_headers + list(message.get("headers", []))
    if CLOSE_HEADER in cycle.scope["headers"] and CLOSE_HEADER not in headers:
        headers = headers + [CLOSE_HEADER]
    reason = STATUS_PHRASES[status]
    response = h11.Response(status_code=status, headers=checked_headers(headers), reason=reason)
    cycle.transport.write(cycle.conn.send(event=response))
