"""Give back to the operating system the memory a replaced state freed.

A data/add or data/reset drops a whole state (tens of MB of small objects and strings). Python
frees them, but the C library keeps the freed heap pages for later allocations: the process's
resident memory stays at its highest, and grows by the fragments each cycle leaves (the soak
benchmark, issue 11: ~520 MiB resident after a cycle whose Python objects hold ~90 MiB, +2 MiB a
cycle). With glibc, ``malloc_trim(0)`` returns every free page; the transports call this beside
the other calls (``RuntimeWorker.aside``) after an install. Under another C library it does
nothing.

The replaced state itself is not freed under the runtime's lock either (CPython frees a
container where its last reference goes: ~90k objects for a large state): a prepared install
keeps it and its ``release`` lets go of it (``EnvironmentRuntime._in_steps``), which
``release_replaced`` does on the thread it runs on (the transports' aside thread), then trims.
What a call replaces with no aside thread of its own to free it on (a data/reset or data/add
called straight on the runtime, as over AgentEnv's JSON-RPC in process; a shared store's state
reloaded whole, or taken up from a commit aside, by whichever call refreshes) the holder keeps
until the call leaves the runtime's lock, ``LockThenRelease``, which hands it to the releasing
thread (``release_later``): freed there, then trimmed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any


def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_MALLOC_TRIM = _trim()

# CPython's method cache (4096 slots) keeps a reference to the name of each attribute looked up
# on a type. C code looking a method up by a C string makes that name afresh each time (the
# datetime module's ``utcoffset``, on every ``isoformat`` of an aware datetime), so the cache
# keeps a few small strings made while a state was being built, each in the middle of that
# state's memory: each pins the whole 1 MiB arena of Python's allocator it sits in after the
# state is freed, and resident memory rose 1-4 MiB every data/add and data/reset cycle (the soak
# benchmark, until ~cycle 40). Clearing the cache frees them; it refills as lookups happen.
_CLEAR_TYPE_CACHE: Callable[[], None] = getattr(sys, "_clear_type_cache", lambda: None)


def release_freed_memory() -> None:
    """Let go of what CPython's method cache keeps, then return the free heap pages to the
    operating system, where the C library can."""
    _CLEAR_TYPE_CACHE()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def release_replaced(install: object) -> None:
    """Let go of the state ``install`` (a prepared data/add or data/reset, after it ran) replaced,
    here, through its ``release`` if it has one; then return the freed pages."""
    release = getattr(install, "release", None)
    if release is not None:
        release()
    release_freed_memory()


_pending: queue.SimpleQueue[list[Any]] = queue.SimpleQueue()
_releaser: list[threading.Thread] = []  # the releasing thread, once started
_starting = threading.Lock()


def release_later(held: list[Any]) -> None:
    """Free the items of ``held`` (replaced states) on the releasing thread, then return the freed
    pages. The list is emptied there, item by item, so the caller may keep the list: what it held
    is freed on that thread as long as nothing else refers to it."""
    if not held:
        return
    with _starting:
        if not _releaser:
            _releaser.append(threading.Thread(target=_releasing, name="capenv-release", daemon=True))
            _releaser[0].start()
    _pending.put(held)


def _releasing() -> None:
    while True:
        held = _pending.get()
        while held:
            held.pop()  # the last reference: the item is freed here
        del held
        release_freed_memory()


class LockThenRelease:
    """A re-entrant lock (the runtime's) that frees what a call replaced after the call leaves it:
    on leaving, ``take()`` answers what the holder kept of the states it replaced meanwhile, under
    the lock, and the lock is released before ``release_later`` frees them aside."""

    __slots__ = ("_lock", "_take")

    def __init__(self, take: Callable[[], list[Any]]) -> None:
        self._lock = threading.RLock()
        self._take = take

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *exc_info: object) -> None:
        try:
            replaced = self._take()
        finally:
            self._lock.release()
        release_later(replaced)
