"""The runtime's own memory store keeps the last ``memory_store_commits`` commits (budgets.yaml;
issue 15: 10,000 create+delete pairs grew it by 89 MiB, never released), a SQLite file or a
PostgreSQL schema the last ``store_commits`` (their history and record tables grew with every
write). Counted: past the bound the store holds that many history and log entries at most, and a
key whose record it forgot is refused on reuse with a message naming the budget, the state
unchanged, never served again as a new write; a key within the bound still answers its recorded
result."""

from __future__ import annotations

import pytest
from serving_store_support import POST_BODY

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.history import HistoryForgotten, verify_history
from capenv.serving.state.subjects import Subjects

KEPT = 6
STORES = [pytest.param("memory", id="memory"), pytest.param("sqlite", id="sqlite"),
          pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest) -> str | None:
    """None: the runtime's own memory store."""
    if request.param == "memory":
        return None
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_store_url")


def bounded(bundle, kept: int = KEPT):
    budgets = bundle.view.budgets.model_copy(update={"memory_store_commits": kept, "store_commits": kept})
    return bundle.model_copy(update={"view": bundle.view.model_copy(update={"budgets": budgets})})


def create(runtime: EnvironmentRuntime, key: str | None = None):
    return runtime.call_tool("post_posts", {"body": POST_BODY}, idempotency_key=key)


def test_a_key_past_the_bound_is_refused_and_one_within_it_replays(bundle, store_url) -> None:
    small = bounded(bundle)
    runtime = EnvironmentRuntime(small, store=store_url)
    first = create(runtime, "early")
    assert not first.is_error
    for _ in range(3 * KEPT):
        assert not create(runtime).is_error
    recent = create(runtime, "recent")
    before = runtime.data_get()
    refused = create(runtime, "early")
    budget = runtime._holder.store.records_budget  # noqa: SLF001
    assert refused.is_error and budget in refused.structured["message"], refused.structured
    assert runtime.data_get() == before  # nothing written, nothing served as a new create
    assert create(runtime, "recent").structured == recent.structured
    assert runtime.data_get() == before
    store, subjects = runtime._holder.store, Subjects(small.view.evidence_id)  # noqa: SLF001
    assert len(store.list_ids(subjects.write)) <= KEPT + 1  # the install's own record stays too
    assert len(store.list_ids(subjects.log)) <= KEPT + 1
    assert len(store.history(subjects.meta, "meta")) <= KEPT
    runtime.close()


def test_the_budget_bounds_a_long_episode_and_history_verify_refuses_its_cut(bundle, store_url) -> None:
    small = bounded(bundle)
    runtime = EnvironmentRuntime(small, store=store_url)
    for _ in range(KEPT - 2):
        assert not create(runtime).is_error
    assert verify_history(small, runtime._holder.store).agrees  # noqa: SLF001 - within the bound: whole
    for _ in range(3 * KEPT):
        assert not create(runtime).is_error
    with pytest.raises(HistoryForgotten, match=runtime._holder.store.records_budget):  # noqa: SLF001
        verify_history(small, runtime._holder.store)  # noqa: SLF001
    runtime.data_reset()  # a new episode: whole again
    assert not create(runtime, "early").is_error
    assert verify_history(small, runtime._holder.store).agrees  # noqa: SLF001
    runtime.close()


def test_a_key_forgotten_in_an_episode_is_free_after_a_reset(bundle, store_url) -> None:
    runtime = EnvironmentRuntime(bounded(bundle), store=store_url)
    assert not create(runtime, "k").is_error
    for _ in range(2 * KEPT):
        assert not create(runtime).is_error
    assert create(runtime, "k").is_error
    runtime.data_reset()
    again = create(runtime, "k")  # as any key of a replaced episode: a new request
    assert not again.is_error and again.structured["status"] == 201
    runtime.close()


def test_zero_keeps_every_commit(bundle, store_url) -> None:
    small = bounded(bundle, 0)
    runtime = EnvironmentRuntime(small, store=store_url)
    assert not create(runtime, "early").is_error
    for _ in range(2 * KEPT):
        assert not create(runtime).is_error
    assert create(runtime, "early").structured["status"] == 201
    assert verify_history(small, runtime._holder.store).writes == 2 * KEPT + 1  # noqa: SLF001
    runtime.close()
