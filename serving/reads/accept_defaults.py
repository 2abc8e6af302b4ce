"""Refuse an HTTP read sending an Accept header its tool's recordings never sent, where every one
sent specific media types (``ReplayTable.required_accept``, ``view-accept-defaults``).

The capture shows only the answer to what the recording client asked for. Node-RED answers
``GET /nodes`` with JSON to ``Accept: application/json`` and with its HTML editor list to a call
sending none; a capture recorded with the first alone cannot tell, so a call sending no Accept
(or ``*/*``, or another list of ranges) is refused, saying which value to send. An MCP call names
no representation: it takes the tool's recorded one and is not checked here.
"""

from __future__ import annotations

from capenv.interpreter.bundle.paths import normalised_accept
from capenv.serving.read_call import CallRefused, ReadCall


def refuse_unrecorded_accept(call: ReadCall, recorded: tuple[str, ...]) -> None:
    """``recorded``: the normalised Accept values every recording of the tool sent (empty: none required)."""
    if not recorded or not call.over_http or normalised_accept(call.accept) in recorded:
        return
    sent = "no Accept header" if not (call.accept or "").strip() else f"Accept {call.accept.strip()!r}"
    shown = " or ".join(recorded[:3])
    raise CallRefused(f"this call sends {sent}, and every recording of {call.tool.method} "
                      f"{call.tool.spelled_template} sent Accept {shown}: the capture never shows what the "
                      f"application answers otherwise (it may answer another representation, as an HTML page); "
                      f"send Accept: {recorded[0]}", http_status=406)
