"""Give back to the operating system the memory a replaced state freed.

A data/add or data/reset drops a whole state (tens of MB of small objects and strings). Python
frees them, but the C library keeps the freed heap pages for later allocations: the process's
resident memory stays at its highest, and grows by the fragments each cycle leaves (the soak
benchmark, issue 11: ~520 MiB resident after a cycle whose Python objects hold ~90 MiB, +2 MiB a
cycle). With glibc, ``malloc_trim(0)`` returns every free page; the transports call this beside
the other calls (``RuntimeWorker.aside``) after an install. Under another C library it does
nothing.

The replaced state itself is not freed under the runtime's lock either: an install keeps it and
its ``release`` lets go of it (``EnvironmentRuntime._in_steps``); ``release_replaced`` does that
on the thread it runs on (the transports' aside thread), then trims.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable


def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


_MALLOC_TRIM = _trim()


def release_freed_memory() -> None:
    """Return the free heap pages to the operating system, where the C library can."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def release_replaced(install: object) -> None:
    """Let go of the state ``install`` (a prepared data/add or data/reset, after it ran) replaced,
    here, through its ``release`` if it has one; then return the freed pages."""
    release = getattr(install, "release", None)
    if release is not None:
        release()
    release_freed_memory()
