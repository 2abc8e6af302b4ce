"""An update that moves the entity it changed first in its collection's lists (an application listing
the most recently written first: ``update-place.moved-first``): proven by recorded lists, served by
moving the entity first; never when a member the update does not stamp with its clock (a name it
changed) sorts the lists as well, since another call's name would sort elsewhere."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

SEEDED_AT = ["2025-12-31T09:00:00.000Z", "2025-12-31T09:30:00.000Z", "2025-12-31T10:00:00.000Z"]


def recent_first_capture(*, names: tuple[str, str] = ("apple", "kiwi"), stamped: bool = False) -> HarBuilder:
    """Items 1-3 listed most recently written first (3, 2, 1); item 1 renamed, read back and the list
    read (1, 3, 2); then item 2 renamed and the list read again (2, 1, 3). ``stamped``: each entity
    shows when it was last written as ``updated_at``, the update's clock (the lists sorted by it)."""
    rows = {i: {"id": i, "name": n} for i, n in ((1, "alpha"), (2, "beta"), (3, "gamma"))}
    if stamped:
        for i in rows:
            rows[i]["updated_at"] = SEEDED_AT[i - 1]
    har = HarBuilder(step_ms=1000).call("GET", "/items", response=[rows[3], rows[2], rows[1]])
    for i in (1, 2, 3):
        har.call("GET", f"/items/{i}", response=rows[i])
    minute = 0
    for item, name, order in ((1, names[0], [1, 3, 2]), (2, names[1], [2, 1, 3])):
        minute += 1
        started = f"2026-01-01T00:{minute:02d}:00.000Z"
        rows[item] = {**rows[item], "name": name}
        if stamped:
            rows[item]["updated_at"] = started
        har.call("PATCH", f"/items/{item}", body={"name": name}, response=rows[item], started=started)
        har.call("GET", f"/items/{item}", response=rows[item], started=f"2026-01-01T00:{minute:02d}:01.000Z")
        har.call("GET", "/items", response=[rows[i] for i in order], started=f"2026-01-01T00:{minute:02d}:02.000Z")
    return har


def rename(runtime: EnvironmentRuntime, item: int, name: str) -> None:
    answer = runtime.call_tool("patch_items_by_item_id", {"item_id": str(item), "body": {"name": name}})
    assert not answer.is_error, answer.structured


def listed_ids(runtime: EnvironmentRuntime) -> list[int]:
    answer = runtime.call_tool("get_items", {})
    assert not answer.is_error, answer.structured
    return [row["id"] for row in answer.structured["body"]]


def test_rows_listed_first_after_their_updates_move_first():
    bundle = build_from(recent_first_capture())
    written = plan(bundle, "patch_items_by_item_id")
    assert written.list_place == "moved-first", [e.reason for e in written.traces if e.table == "update-list-places"]
    assert written.served, (written.reason, written.contradicted_by)
    runtime = EnvironmentRuntime(bundle)
    assert listed_ids(runtime) == [3, 2, 1]
    rename(runtime, 2, "middle")
    assert listed_ids(runtime) == [2, 3, 1]
    rename(runtime, 1, "oldest")
    assert listed_ids(runtime) == [1, 2, 3]
    rename(runtime, 1, "again")  # already first: it stays there
    assert listed_ids(runtime) == [1, 2, 3]
    described = next(t for t in runtime.tools() if t.name == "patch_items_by_item_id").description
    assert "first in its collection's lists" in described and "does not reorder" not in described


def test_lists_a_changed_name_sorts_as_well_prove_no_moving_first():
    # alpha < ... : renamed "zulu" then "zz" -- listed first and also sorted by name descending
    bundle = build_from(recent_first_capture(names=("zulu", "zz")))
    written = plan(bundle, "patch_items_by_item_id")
    assert written.list_place == "unproven"
    assert any("do not stamp" in (e.reason or "") for e in written.traces)
    assert not written.served


def test_lists_sorted_by_the_clock_every_update_stamps_move_first():
    """updated_at sorts both lists (newest first) and the update stamps it with its write's clock:
    sorting by it and moving the written entity first are one order, so the place is proven."""
    bundle = build_from(recent_first_capture(stamped=True))
    written = plan(bundle, "patch_items_by_item_id")
    assert {f.field: f.op for f in written.fields}.get("updated_at") == "clock"
    assert written.list_place == "moved-first"
    assert written.served, (written.reason, written.contradicted_by)
    runtime = EnvironmentRuntime(bundle)
    rename(runtime, 1, "oldest")
    assert listed_ids(runtime) == [1, 3, 2]
