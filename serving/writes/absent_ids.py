"""A recorded absence answered for another id: an update or delete of an entity the state does
not hold answers with a recorded 400/404/410 (``execute``), whose message may name the id the
recorded call sent (Datasette: ``Record not found: ['6']``); each string carrying that id as a
delimited token carries the call's instead, so the answer never names another entity."""

from __future__ import annotations

import re
from typing import Any


def with_id(body: Any, recorded_id: str, call_id: str) -> Any:
    """A copy of ``body`` whose strings name ``call_id`` wherever they named ``recorded_id``."""
    if not recorded_id or recorded_id == call_id:
        return body
    pattern = re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(recorded_id)}(?![A-Za-z0-9_-])")

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda _: call_id, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    return swap(body)
