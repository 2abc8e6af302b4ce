"""Run runtime calls off the event loop, on one dedicated thread, one at a time.

The runtime is synchronous and may block (SQLite, PostgreSQL, a 32 MiB parse). Running
it on the event loop would stall every other connection; running it on a pool of
threads would make it concurrent and move it between threads, which SQLite
connections refuse. One thread gives neither problem, and serialises every call from
every transport, which is what "one state, one atomic commit per write" needs anyway.

A runtime whose calls never block (``Runtime.nonblocking_calls``: its state in this process's
memory) has its short calls (a tool call, a request to the application's paths: ``quick``)
answered on the event loop itself while nothing runs on the worker thread: the hop there and
back (a queue, a wake-up of each thread, the GIL handed over twice) costs more than an item
read (over HTTP, ~65 µs of the server's CPU a read and ~165 µs a write, most of it waking a
thread on the other CPU: docs/benchmarks.md). Calls stay one at a time: a
quick call waits its turn on the thread when a call is running or queued there, and nothing is
queued while one runs on the loop. A runtime whose writes may block but whose reads need not
(SQLite: ``EnvironmentRuntime.http_on_loop``) has those reads answered on the loop the same way,
and the rest sent to the thread.

Work that reads nothing the runtime holds (data/add's parse and checks of a 32 MiB document,
``Runtime.prepare_add``) runs ``aside``, on a second thread, so it does not hold up the calls
queued behind it; one at a time there too, which bounds the memory documents being prepared take.
"""

from __future__ import annotations

import asyncio
import functools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class RuntimeWorker:
    """One worker thread shared by every transport serving the same runtime (on one event loop).

    ``inline``: answer ``quick`` calls on the event loop when the worker thread is idle (set it
    only for a runtime whose ``nonblocking_calls()`` is true).

    The thread takes calls from a queue and hands each result to the awaiting loop itself
    (``call_soon_threadsafe``): an executor's future, chained to an asyncio one, cost a call on a
    store that blocks (SQLite, PostgreSQL) ~40 us of CPU there and back, this ~25.
    """

    def __init__(self, *, inline: bool = False) -> None:
        self.inline = inline
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None  # started at the first call
        self._closed = False
        self._aside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="capenv-prepare")
        self._pending = 0  # calls queued or running on the worker thread
        self._pending_lock = threading.Lock()

    @classmethod
    def for_runtime(cls, runtime: Any) -> RuntimeWorker:
        """A worker for ``runtime``: ``inline`` when it says its calls never block."""
        nonblocking = getattr(runtime, "nonblocking_calls", None)
        return cls(inline=bool(nonblocking is not None and nonblocking()))

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function(*args, **kwargs)`` on the worker thread and await its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._pending_lock:
            if self._closed:
                raise RuntimeError("the runtime worker is closed")
            # Counted until the thread has finished it, even when the awaiting task is cancelled.
            self._pending += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="capenv-runtime", daemon=True)
                self._thread.start()
            self._calls.put((loop, future, function, args, kwargs))  # under the lock: never after close()'s end
        return await future

    async def quick(self, function: Callable[..., T], *args: Any,
                    on_loop: Callable[..., T | None] | None = None, **kwargs: Any) -> T:
        """A call that computes briefly: on the event loop when ``inline`` and nothing is queued or
        running on the worker thread, else on the thread (``call``). ``on_loop``: for a runtime
        whose calls may block but some answers need not (``EnvironmentRuntime.http_on_loop``), tried
        on the event loop with the same arguments when nothing is queued or running on the thread;
        its None sends the call to the thread."""
        if self._pending == 0:
            if self.inline:
                return function(*args, **kwargs)
            if on_loop is not None:
                answer = on_loop(*args, **kwargs)
                if answer is not None:
                    return answer
        return await self.call(function, *args, **kwargs)

    async def aside(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function`` on the second thread: only for work that reads and changes nothing
        the runtime holds, so it may run while the worker thread runs a call."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._aside, functools.partial(function, *args, **kwargs))

    def close(self) -> None:
        """Stop taking calls; a call already running finishes on its own, the queued ones are
        cancelled."""
        with self._pending_lock:
            self._closed = True
        while True:
            try:
                queued = self._calls.get_nowait()
            except queue.Empty:
                break
            if queued is not None:
                self._done()
                _settle_soon(queued[0], queued[1], cancel=True)
        self._calls.put(None)  # the thread ends once the call it runs is over
        self._aside.shutdown(wait=False, cancel_futures=True)

    def _run(self) -> None:
        while (taken := self._calls.get()) is not None:
            loop, future, function, args, kwargs = taken
            try:
                result, error = function(*args, **kwargs), None
            except BaseException as exc:  # handed to the awaiting task, as an executor does
                result, error = None, exc
            finally:
                self._done()
            _settle_soon(loop, future, result, error)
            del taken, function, args, kwargs, result, error  # nothing of the call kept while idle

    def _done(self) -> None:
        with self._pending_lock:
            self._pending -= 1


def _settle_soon(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: Any = None,
                 error: BaseException | None = None, *, cancel: bool = False) -> None:
    """Give ``future`` its outcome on its loop (from any thread); nothing when the loop is closed."""
    try:
        loop.call_soon_threadsafe(_settle, future, result, error, cancel)
    except RuntimeError:  # the loop is closed: nobody awaits the call any more
        pass


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None, cancel: bool) -> None:
    if future.done():  # the awaiting task was cancelled meanwhile
        return
    if cancel:
        future.cancel()
    elif error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
