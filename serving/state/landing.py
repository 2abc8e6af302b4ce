"""A data/add committed beside the runtime's thread, taken up by it at its next call.

On a store other processes share (SQLite, PostgreSQL), a replace's commit is a transaction the
size of the state, and readers need not wait for it: they read the store's position first and
hold the state before it until it lands. So a data/add prepared aside may also be committed aside
(``StoreStateHolder.commit_aside``): expecting meta at the position the store holds then, and
retrying on a race as any install does. The mirror it installed is left here (``Landing``); the
runtime's thread takes it up at its next refresh when it is ahead of the copy it holds (no state
is read back), and catches up from it with what was committed after, as from any copy.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .mirror import StateMirror


@dataclass(frozen=True)
class Landed:
    """An install committed aside: the mirror to hold, and what data/get writes for it."""

    mirror: StateMirror
    encoded: bytes | None


class Landing:
    """The one slot a committed-aside install waits in for the runtime's thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._landed: Landed | None = None

    def put(self, landed: Landed) -> None:
        with self._lock:
            if self._landed is None or landed.mirror.position > self._landed.mirror.position:
                self._landed = landed

    def waiting(self) -> bool:
        """Whether an install landed and waits to be taken up (read without the lock: a landing
        meanwhile is seen by the next call, as ``take`` sees it)."""
        return self._landed is not None

    def take(self, position: int | None) -> Landed | None:
        """The landed install when it is ahead of ``position`` (the copy held; None: no copy);
        the slot is emptied either way."""
        if self._landed is None:  # the usual call: nothing landed (one landing meanwhile is taken next call)
            return None
        with self._lock:
            landed, self._landed = self._landed, None
        if landed is None or (position is not None and landed.mirror.position <= position):
            return None
        return landed
