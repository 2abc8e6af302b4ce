"""A recorded absence answered for another id: an update or delete of an entity the state does
not hold answers with a recorded 400/404/410 (``execute``), whose message may name the id the
recorded call sent (Datasette: ``Record not found: ['6']``) and the other values of its path
(JupyterHub: ``No such token a99 for user ada``), in a JSON body or a text one; each string carrying one of them as a delimited
token carries the call's value there instead, so the answer never names another entity."""

from __future__ import annotations

import re
from typing import Any


def names_token(body: Any, value: str) -> bool:
    """Whether a string of ``body`` (a JSON value, or a text) carries ``value`` as a delimited token,
    as ``with_values`` would swap it."""
    if not value:
        return False
    pattern = re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(value)}(?![A-Za-z0-9_-])")

    def carries(found: Any) -> bool:
        if isinstance(found, str):
            return bool(pattern.search(found))
        if isinstance(found, list):
            return any(carries(v) for v in found)
        if isinstance(found, dict):
            return any(carries(v) for v in found.values())
        return False

    return carries(body)


def with_values(body: Any, swaps: dict[str, str]) -> Any:
    """A copy of ``body`` whose strings name each call value wherever they named the recorded
    value it replaces (all at once, so one swap's result is never swapped again)."""
    swaps = {recorded: call for recorded, call in swaps.items() if recorded and recorded != call}
    if not swaps:
        return body
    alternatives = "|".join(re.escape(r) for r in sorted(swaps, key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9_-])(?:{alternatives})(?![A-Za-z0-9_-])")

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda match: swaps[match.group(0)], value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    return swap(body)
