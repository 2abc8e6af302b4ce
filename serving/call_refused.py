"""The refusal of a call (a tool error), in a module of its own: the answers a refusal may come
from (``reads/answers``) and the calls it refuses (``read_call``) both raise it."""

from __future__ import annotations

from typing import Any


class CallRefused(Exception):
    """A tool error: the message names what would be accepted. ``http_status`` is what the
    HTTP surface answers with (400 for bad arguments, 404 for what the state does not hold)."""

    def __init__(self, message: str, *, http_status: int = 400, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status
        self.details = details
