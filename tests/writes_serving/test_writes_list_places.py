"""An update's place in its collection's lists (``update-list-places``, ``WritePlan.list_place``):
serving keeps an updated entity where it stood, which the capture must prove, since an application
listing an unsorted table in storage order (PostgreSQL) lists an updated row last, and one listing
newest first lists it first. Lists here are in insertion order with no sort key: a capture whose
one update was of the last row proves only that the last row stays last, so a list after an update
of a middle row is refused (item reads still answer; a reset brings the list back); a capture that
showed a middle row updated and listed in place serves it; one that listed nothing after its
update proves no place at all."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ROWS = [{"id": 1, "name": "alpha"}, {"id": 2, "name": "beta"}, {"id": 3, "name": "gamma"}]


def capture(updated: int | None, *, listed_after: bool = True) -> HarBuilder:
    """Items 1-3 listed in insertion order; ``updated``'s name changed by a PUT, read back, and
    (``listed_after``) the whole list read again, showing every row where it stood."""
    har = HarBuilder().call("GET", "/items", response=ROWS)
    for row in ROWS:
        har.call("GET", f"/items/{row['id']}", response=row)
    if updated is not None:
        changed = {"id": updated, "name": "renamed"}
        har.call("PUT", f"/items/{updated}", body={"name": "renamed"}, response=changed)
        har.call("GET", f"/items/{updated}", response=changed)
        if listed_after:
            har.call("GET", "/items", response=[changed if r["id"] == updated else r for r in ROWS])
    return har


def put(runtime: EnvironmentRuntime, item: int, name: str) -> None:
    answer = runtime.call_tool("put_items_by_item_id", {"item_id": str(item), "body": {"name": name}})
    assert not answer.is_error, answer.structured


def listed(runtime: EnvironmentRuntime):
    return runtime.call_tool("get_items", {})


def test_an_update_of_the_last_row_proves_only_that_the_last_row_stays_last():
    bundle = build_from(capture(updated=3))
    assert plan(bundle, "put_items_by_item_id").served
    assert plan(bundle, "put_items_by_item_id").list_place == "last-kept"
    runtime = EnvironmentRuntime(bundle)
    put(runtime, 3, "last again")
    assert [r["id"] for r in listed(runtime).structured["body"]] == [1, 2, 3]  # the last stays last: proven
    put(runtime, 2, "middle")
    refused = listed(runtime)
    assert refused.is_error and "a served create or update placed 2" in refused.structured["message"]
    assert "never showed where the application lists" in refused.structured["message"]
    item = runtime.call_tool("get_items_by_item_id", {"item_id": "2"})
    assert not item.is_error and item.structured["body"]["name"] == "middle"
    runtime.data_reset()
    assert not listed(runtime).is_error


def test_a_middle_row_listed_in_place_after_its_update_proves_the_place():
    bundle = build_from(capture(updated=2))
    assert plan(bundle, "put_items_by_item_id").list_place == "kept"
    runtime = EnvironmentRuntime(bundle)
    put(runtime, 1, "first renamed")
    answer = listed(runtime)
    assert not answer.is_error
    assert [(r["id"], r["name"]) for r in answer.structured["body"]] == [(1, "first renamed"), (2, "beta"), (3, "gamma")]


def test_an_update_no_list_followed_proves_no_place_not_even_the_last():
    bundle = build_from(capture(updated=3, listed_after=False))
    assert plan(bundle, "put_items_by_item_id").list_place == "unproven"
    runtime = EnvironmentRuntime(bundle)
    put(runtime, 3, "last")  # a list newest first would now show it first
    assert listed(runtime).is_error


def test_a_loaded_state_defines_the_order_anew():
    runtime = EnvironmentRuntime(build_from(capture(updated=3)))
    put(runtime, 1, "moved?")
    assert listed(runtime).is_error
    held = runtime.data_get()
    runtime.data_add(held)  # data/get keeps no mark: the loaded document's order is the state's
    assert [r["id"] for r in listed(runtime).structured["body"]] == [1, 2, 3]


def storage_order_capture(*, second_list: list[int], names: tuple[str, str] = ("aardvark", "abacus")) -> HarBuilder:
    """Items 1-3; item 1 renamed (``names``) and the whole list read (2, 3, 1: PostgreSQL writes an
    updated row anew at the end); then item 2 renamed and the list read again, showing ``second_list``."""
    har = HarBuilder().call("GET", "/items", response=ROWS)
    for row in ROWS:
        har.call("GET", f"/items/{row['id']}", response=row)
    rows = {r["id"]: dict(r) for r in ROWS}
    for (item, order), name in zip(((1, [2, 3, 1]), (2, second_list)), names):
        rows[item] = {"id": item, "name": name}
        har.call("PUT", f"/items/{item}", body={"name": name}, response=rows[item])
        har.call("GET", f"/items/{item}", response=rows[item])
        har.call("GET", "/items", response=[rows[i] for i in order])
    return har


def test_rows_listed_moved_last_after_their_updates_move_last():
    bundle = build_from(storage_order_capture(second_list=[3, 1, 2]))
    written = plan(bundle, "put_items_by_item_id")
    assert written.list_place == "moved-last"
    assert written.served and written.contradicted_by is None
    runtime = EnvironmentRuntime(bundle)
    put(runtime, 2, "middle")
    answer = listed(runtime)
    assert not answer.is_error
    assert [(r["id"], r["name"]) for r in answer.structured["body"]] == [(1, "alpha"), (3, "gamma"), (2, "middle")]
    put(runtime, 3, "last anyway")  # already last: it stays there
    assert [r["id"] for r in listed(runtime).structured["body"]] == [1, 2, 3]


def test_a_list_in_another_order_proves_no_moving_last():
    bundle = build_from(storage_order_capture(second_list=[2, 3, 1]))
    written = plan(bundle, "put_items_by_item_id")
    assert written.list_place == "unproven"  # the second list keeps item 2 where it stood
    assert not written.served


def test_lists_a_name_sorts_as_well_prove_no_moving_last():
    # beta, gamma, renamed 1 / gamma, renamed 1, renamed 2: sorted by name as much as moved last
    bundle = build_from(storage_order_capture(second_list=[3, 1, 2], names=("renamed 1", "renamed 2")))
    written = plan(bundle, "put_items_by_item_id")
    assert written.list_place == "unproven"
    assert any("sorts both lists alike" in (e.reason or "") for e in written.traces)
