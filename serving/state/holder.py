"""Where the served state lives: one holder per runtime, behind a small interface (DESIGN.md §7
"One state").

* ``load(initial)``: take the state the store holds, or install ``initial`` when it holds none;
* ``working()``: the ``StateIndex`` reads render from, brought up to date with what other
  processes sharing the store committed (callers must not change it);
* ``caught_up()`` / ``as_held()``: whether the copy held is the store's state now, by the head
  check alone, and a block in which ``working()`` answers that copy without refreshing it (a
  read answered on a transport's event loop: ``EnvironmentRuntime.http_on_loop``);
* ``encoded()``: what data/get writes for the current state;
* ``write(plan, tool, call, key)``: serve one write call as one recorded commit, ``key`` (an
  idempotency key) being its record id;
* ``reset(initial)`` / ``replace(snapshot, encoded, adopt=False)``: data/reset and data/add,
  each one atomic batch that also restarts the clock, the counter and the sequences.
  ``encoded`` is what data/get writes for the snapshot, kept so data/get need not re-encode;
  ``adopt`` hands the snapshot's values over to the holder (nothing else keeps them, as for a
  freshly parsed data/add document), which saves copying them. ``replace`` is
  ``prepare_replace`` (the new state built apart: nothing read or changed, any thread) then
  ``install_prepared`` (the commit), so a large data/add can prepare off the runtime's lock;
  ``commit_aside`` between them commits it off the lock too where the store is shared
  (``landing.py``), leaving ``install_prepared`` only to take it up.
* ``reset_ahead(initial)``: make the next data/reset's state now, before a data/add builds a
  large one (what a cycle keeps must not be made among what it frees: ``stored.py``).
* ``take_replaced()``: what the calls since the last take replaced (the copies held before, the
  store rows a replace swapped out), kept rather than freed under the runtime's lock; the
  runtime frees them after it (``memory_release.LockThenRelease``).

There is one implementation, ``StoreStateHolder`` (``stored.py``): without a store URL
the runtime keeps its state in a ``MemoryStore``, so idempotency keys and the history work
the same in every mode.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import StateSnapshot, WritePlan
from capenv.serving.read_call import ReadCall, Served
from capenv.serving.writes.generator_state import WriteState

from .index import StateIndex

Encoder = Callable[[StateSnapshot], bytes]


class StateHolder(Protocol):
    def load(self, initial: StateSnapshot) -> None: ...

    def working(self) -> StateIndex: ...

    def caught_up(self) -> bool: ...

    def as_held(self) -> AbstractContextManager[None]: ...

    def encoded(self) -> bytes: ...

    def write(self, plan: WritePlan | None, tool: str, call: ReadCall, key: str | None = None) -> Served: ...

    def reset(self, initial: StateSnapshot) -> None: ...

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None: ...

    def prepare_replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *,
                        adopt: bool = False) -> Any: ...

    def prepare_reset(self, initial: StateSnapshot) -> Any: ...

    def reset_ahead(self, initial: StateSnapshot) -> None: ...

    def commit_aside(self, prepared: Any) -> None: ...

    def install_prepared(self, prepared: Any) -> None: ...

    def take_replaced(self) -> list[Any]: ...

    def close(self) -> None: ...


def open_holder(store: Any, bundle: Bundle, writes: WriteState, encode: Encoder) -> StateHolder:
    """The holder of ``bundle``'s state in ``store`` (a Store, a store URL, or None for a new
    ``MemoryStore``)."""
    from capenv.serving.store import MemoryStore, open_store

    from .stored import StoreStateHolder

    if store is None:  # made here, so no one else can write to it
        return StoreStateHolder(MemoryStore(), bundle, writes, encode, shared=False)
    if isinstance(store, str):
        store = open_store(store)
        # ``memory:`` names a new MemoryStore, made here as the default is: no one else can write
        # to it, so reads and writes skip the head check (a lock and lookups per call)
        return StoreStateHolder(store, bundle, writes, encode, shared=not isinstance(store, MemoryStore))
    return StoreStateHolder(store, bundle, writes, encode)
