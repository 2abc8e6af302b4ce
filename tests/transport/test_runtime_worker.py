"""The runtime worker: calls one at a time, on its thread, and a quick call answered on the event loop
only where the runtime says no call blocks and nothing is queued or running on the thread. No
timings: the tests hold a call on the thread with an event and look at where and in which order
the others ran."""

from __future__ import annotations

import threading

import anyio
import pytest

from support.capture_runs import build_from, items_app

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.runtime_worker import RuntimeWorker

WAIT = 30  # seconds before a held call fails the test (a hang, not a timing)


def run(test) -> None:
    async def main() -> None:
        with anyio.fail_after(WAIT):
            await test()

    anyio.run(main)


def test_a_quick_call_runs_on_the_loop_only_while_the_thread_is_idle() -> None:
    worker = RuntimeWorker(inline=True)
    loop_thread = threading.current_thread()
    order: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def held() -> None:
        holding.set()
        release.wait(WAIT)
        order.append("held")

    def quick() -> threading.Thread:
        order.append("quick")
        return threading.current_thread()

    async def test() -> None:
        assert await worker.quick(threading.current_thread) is loop_thread
        ran_on: list[threading.Thread] = []
        async with anyio.create_task_group() as group:
            group.start_soon(worker.call, held)
            await anyio.to_thread.run_sync(holding.wait, WAIT)

            async def then_quick() -> None:
                ran_on.append(await worker.quick(quick))

            group.start_soon(then_quick)
            await anyio.sleep(0)
            assert order == []  # queued behind the held call, not run beside it
            release.set()
        assert order == ["held", "quick"]
        assert ran_on[0] is not loop_thread and ran_on[0].name.startswith("capenv-runtime")
        assert await worker.quick(threading.current_thread) is loop_thread  # idle again

    try:
        run(test)
    finally:
        worker.close()


def test_a_cancelled_caller_leaves_its_call_counted_until_the_thread_finishes_it() -> None:
    worker = RuntimeWorker(inline=True)
    loop_thread = threading.current_thread()
    holding, release = threading.Event(), threading.Event()

    def held() -> None:
        holding.set()
        release.wait(WAIT)

    async def test() -> None:
        with anyio.move_on_after(WAIT) as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(worker.call, held)
                await anyio.to_thread.run_sync(holding.wait, WAIT)
                group.cancel_scope.cancel()  # the caller gives up; the thread still runs the call
        assert not scope.cancelled_caught
        async with anyio.create_task_group() as group:
            ran_on: list[threading.Thread] = []

            async def then_quick() -> None:
                ran_on.append(await worker.quick(threading.current_thread))

            group.start_soon(then_quick)
            await anyio.sleep(0)
            assert ran_on == []  # not beside the call still running
            release.set()
        assert ran_on[0] is not loop_thread

    try:
        run(test)
    finally:
        worker.close()


def test_without_inline_every_call_runs_on_the_thread() -> None:
    worker = RuntimeWorker()
    loop_thread = threading.current_thread()

    async def test() -> None:
        assert await worker.quick(threading.current_thread) is not loop_thread
        assert await worker.call(threading.current_thread) is not loop_thread

    try:
        run(test)
    finally:
        worker.close()


def test_on_loop_answers_on_the_loop_while_the_thread_is_idle_and_its_none_goes_to_the_thread() -> None:
    worker = RuntimeWorker()  # a runtime whose calls may block: nothing inline
    loop_thread = threading.current_thread()
    tried: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def on_loop(kind: str) -> threading.Thread | None:
        tried.append(kind)
        return threading.current_thread() if kind == "read" else None

    def on_thread(kind: str) -> threading.Thread:
        return threading.current_thread()

    def held() -> None:
        holding.set()
        release.wait(WAIT)

    async def test() -> None:
        assert await worker.quick(on_thread, "read", on_loop=on_loop) is loop_thread
        assert await worker.quick(on_thread, "write", on_loop=on_loop) is not loop_thread
        assert tried == ["read", "write"]
        ran_on: list[threading.Thread] = []
        async with anyio.create_task_group() as group:
            group.start_soon(worker.call, held)
            await anyio.to_thread.run_sync(holding.wait, WAIT)

            async def then_read() -> None:
                ran_on.append(await worker.quick(on_thread, "read", on_loop=on_loop))

            group.start_soon(then_read)
            await anyio.sleep(0)
            assert tried == ["read", "write"]  # not tried beside the call running on the thread
            release.set()
        assert ran_on[0] is not loop_thread

    try:
        run(test)
    finally:
        worker.close()


def test_a_failing_quick_call_raises_and_leaves_the_worker_usable() -> None:
    worker = RuntimeWorker(inline=True)

    def fails() -> None:
        raise ValueError("runtime bug")

    async def test() -> None:
        with pytest.raises(ValueError):
            await worker.quick(fails)
        with pytest.raises(ValueError):
            await worker.call(fails)
        assert await worker.quick(threading.current_thread) is threading.current_thread()

    try:
        run(test)
    finally:
        worker.close()


@pytest.mark.parametrize(("store", "inline"), [(None, True), ("memory:", True), ("sqlite", False)])
def test_only_a_runtime_holding_its_state_in_memory_runs_calls_inline(tmp_path, store, inline: bool) -> None:
    url = f"sqlite:{tmp_path / 's.db'}" if store == "sqlite" else store
    runtime = EnvironmentRuntime(build_from(items_app()), store=url)
    try:
        assert runtime.nonblocking_calls() is inline
        assert RuntimeWorker.for_runtime(runtime).inline is inline
    finally:
        runtime.close()


def test_a_closed_worker_refuses_new_calls_and_lets_the_running_one_finish() -> None:
    worker = RuntimeWorker()
    holding, release = threading.Event(), threading.Event()

    def held() -> str:
        holding.set()
        release.wait(WAIT)
        return "finished"

    async def test() -> None:
        answers: list[str] = []

        async def held_call() -> None:
            answers.append(await worker.call(held))

        async with anyio.create_task_group() as group:
            group.start_soon(held_call)
            await anyio.to_thread.run_sync(holding.wait, WAIT)
            worker.close()
            with pytest.raises(RuntimeError):
                await worker.call(threading.current_thread)
            release.set()
        assert answers == ["finished"]

    run(test)
