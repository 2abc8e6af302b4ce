"""Refuse a read whose Accept header takes none of the media types its tool was recorded answering.

An application answering one path in several representations (HTML to a browser, JSON to a
client asking for it) shows in a capture only the ones the recording client asked for. A call
whose Accept rules out every one of those (``text/html`` where every recording answered
``application/json``) asks for a representation the capture never shows, and a JSON answer
would be one the application does not give, so it is refused. A tool whose recordings sent
several Accept values is answered per value instead (``view-variant-headers``, ``reads/replay``).
"""

from __future__ import annotations

from typing import Iterable

from capenv.interpreter.bundle.models import RecordedCall
from capenv.serving.read_call import CallRefused, ReadCall


def answered_types(recorded: Iterable[RecordedCall]) -> tuple[str, ...]:
    """The media types a tool's recordings answered with, sorted."""
    return tuple(sorted({media_type(r.response.content_type) for r in recorded if r.response.content_type}))


def refuse_unacceptable(call: ReadCall, answered: tuple[str, ...]) -> None:
    """``answered``: the tool's ``answered_types``."""
    if not call.accept:
        return
    ranges = media_ranges(call.accept)
    if ranges is None:
        return
    if not answered or any(acceptable(ranges, media) for media in answered):
        return
    shown = ", ".join(answered[:5])
    raise CallRefused(f"Accept {call.accept.strip()!r} takes none of the media types the capture shows this path "
                      f"answering ({shown}): the application may answer another representation, or refuse, which "
                      f"the capture does not show; send Accept: {answered[0]} (or */*)", http_status=406)


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def media_ranges(accept: str) -> list[tuple[str, float]] | None:
    """The header's media ranges with their weights; None when it says nothing to check (empty,
    or not parsed as media ranges: then nothing is refused for it)."""
    ranges = []
    for part in accept.split(","):
        if not part.strip():
            continue
        media, *params = part.split(";")
        media = media.strip().lower()
        if media.count("/") != 1:
            return None
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value.strip())
                except ValueError:
                    return None
        ranges.append((media, weight))
    return ranges or None


def acceptable(ranges: list[tuple[str, float]], media: str) -> bool:
    """Whether the most specific range matching ``media`` gives it a weight above zero (RFC 9110 §12.5.1)."""
    kind = media.split("/", 1)[0]
    best: tuple[int, float] | None = None
    for pattern, weight in ranges:
        if pattern == media:
            rank = 2
        elif pattern == f"{kind}/*":
            rank = 1
        elif pattern == "*/*":
            rank = 0
        else:
            continue
        if best is None or rank > best[0]:
            best = (rank, weight)
    return best is not None and best[1] > 0
