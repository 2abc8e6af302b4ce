"""A small pool of backend connections shared by the threads of one store.

Why a pool rather than one connection per thread: the serving runtime may run a thread per
request, and connections tied to threads would pile up; a single connection behind a lock would
serialise reads that SQLite (WAL) and PostgreSQL can run side by side. Connections are made on
demand and kept for reuse, so a commit never pays for reconnecting.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from capenv.serving.store.contract import StoreClosed

Connection = TypeVar("Connection")


class ConnectionPool(Generic[Connection]):
    def __init__(self, connect: Callable[[], Connection], disconnect: Callable[[Connection], None],
                 healthy: Callable[[Connection], bool], *, name: str, max_idle: int = 8) -> None:
        self._connect = connect
        self._disconnect = disconnect
        self._healthy = healthy
        self._name = name
        self._max_idle = max_idle
        self._idle: list[Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """A connection for the duration of the block; afterwards it is kept for reuse if it is
        still healthy (a refused commit leaves it so), else closed."""
        conn = self.checkout()
        try:
            yield conn
        finally:
            self.checkin(conn, broken=not self._healthy(conn))

    def checkout(self) -> Connection:
        with self._lock:
            if self._closed:
                raise StoreClosed(f"the {self._name} store is closed")
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def checkin(self, conn: Connection, *, broken: bool = False) -> None:
        with self._lock:
            if not broken and not self._closed and len(self._idle) < self._max_idle:
                self._idle.append(conn)
                return
        self._disconnect(conn)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            self._disconnect(conn)
