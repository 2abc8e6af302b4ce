"""Request headers every recorded call of a tool sent with one value (a pinned API version, a value
the application checks): which of them a call sends otherwise."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def first_sent_otherwise(expected: Iterable[tuple[str, str]], header: Callable[[str], str | None]
                         ) -> tuple[str, str, str] | None:
    """(header, value sent or "", value recorded) for the first expected (header, value) the call,
    looked up with ``header``, sends otherwise than recorded; None when it sends them all so."""
    for name, value in expected:
        sent = (header(name) or "").strip()
        if sent != value:
            return name, sent, value
    return None
