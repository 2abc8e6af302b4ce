"""How messages, traces and reports quote a text that may be long: one cut, one ellipsis."""

from __future__ import annotations


def excerpt(text: str, characters: int) -> str:
    """``text`` whole when it is ``characters`` long at most, else its start and "…", that long in all."""
    return text if len(text) <= characters else text[:characters - 1] + "…"
