"""What the store tests know about a provider under test (built by the fixtures in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from capenv.serving.store import Store


@dataclass
class Provider:
    """One backing store; ``open()`` gives a new handle on it (a second process would use ``url``)."""

    name: str
    open: Callable[[], Store]
    url: str  # an open_store URL naming the same backend (memory: names a new, empty store)
    schema: str | None = None
