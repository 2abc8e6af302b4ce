"""Each fleet instance keeps the last commits of its own (``memory_store_commits`` over the fleet's
memory store, ``store_commits`` over SQLite or PostgreSQL): the fleet's store is shared, and before,
no instance bounded anything, so every write of every live instance kept its history entries and
idempotency record for the instance's life (in the grader's process, on the memory store). Counted:
past the bound the fleet's store holds that many of an instance's history and write entries, an old
key of that instance is refused naming the budget, the state unchanged, and another instance's
records are untouched by its writes: its early key still replays."""

from __future__ import annotations

import pytest
from support.fleets import STORES, open_fleet_store

from capenv.serving.instances.fleet import InstanceFleet
from capenv.serving.runtime import EnvironmentRuntime

KEPT = 4


@pytest.fixture
def small_template(json_server) -> EnvironmentRuntime:
    budgets = json_server.view.budgets.model_copy(update={"memory_store_commits": KEPT, "store_commits": KEPT})
    return EnvironmentRuntime(json_server.model_copy(update={
        "view": json_server.view.model_copy(update={"budgets": budgets})}))


def create(runtime: EnvironmentRuntime, n: int, key: str | None = None):
    return runtime.call_tool("post_posts", {"body": {"title": f"post {n}", "author": "a", "views": n,
                                                     "published": True, "tags": []}}, idempotency_key=key)


@pytest.mark.parametrize("store_url", STORES, indirect=True)
def test_each_instance_keeps_its_own_last_commits(small_template, store_url) -> None:
    fleet = InstanceFleet(small_template, open_fleet_store(store_url))
    try:
        busy_id, quiet_id = fleet.create(), fleet.create()
        busy, quiet = fleet.runtime(busy_id), fleet.runtime(quiet_id)
        early = create(quiet, 0, "quiet-early")
        assert not early.is_error and not create(busy, 1, "busy-early").is_error
        for n in range(2, 3 * KEPT + 2):
            assert not create(busy, n).is_error
        recent = create(busy, 99, "busy-recent")
        before = busy.data_get()
        refused = create(busy, 1, "busy-early")
        budget = fleet.store.records_budget
        assert refused.is_error and budget in refused.structured["message"], refused.structured
        assert busy.data_get() == before  # nothing written, nothing served as a new create
        assert create(busy, 99, "busy-recent").structured == recent.structured
        # the busy instance's writes forgot none of the quiet one's records
        assert create(quiet, 0, "quiet-early").structured == early.structured
        subjects = fleet.instance_subjects(busy_id)
        assert len(fleet.store.list_ids(subjects.write)) <= KEPT
        assert len(fleet.store.list_ids(subjects.log)) <= KEPT
        assert len(fleet.store.history(subjects.meta, "meta")) <= KEPT
        quiet_subjects = fleet.instance_subjects(quiet_id)
        assert len(fleet.store.list_ids(quiet_subjects.write)) == 1
        # a reset ends the busy instance's episode: its keys are free again
        busy.data_reset()
        again = create(busy, 1, "busy-early")
        assert not again.is_error and again.structured["status"] == 201
    finally:
        fleet.close()
