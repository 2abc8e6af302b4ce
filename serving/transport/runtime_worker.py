"""Run runtime calls off the event loop, on one dedicated thread, one at a time.

The runtime is synchronous and may block (SQLite, PostgreSQL, a 32 MiB parse). Running
it on the event loop would stall every other connection; running it on a pool of
threads would make it concurrent and move it between threads, which SQLite
connections refuse. One thread gives neither problem, and serialises every call from
every transport, which is what "one state, one atomic commit per write" needs anyway.

Work that reads nothing the runtime holds (data/add's parse and checks of a 32 MiB document,
``Runtime.prepare_add``) runs ``aside``, on a second thread, so it does not hold up the calls
queued behind it; one at a time there too, which bounds the memory documents being prepared take.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class RuntimeWorker:
    """One worker thread shared by every transport serving the same runtime."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="capenv-runtime")
        self._aside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="capenv-prepare")

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function(*args, **kwargs)`` on the worker thread and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(function, *args, **kwargs))

    async def aside(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function`` on the second thread: only for work that reads and changes nothing
        the runtime holds, so it may run while the worker thread runs a call."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._aside, functools.partial(function, *args, **kwargs))

    def close(self) -> None:
        """Stop taking calls; a call already running finishes on its own."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._aside.shutdown(wait=False, cancel_futures=True)
