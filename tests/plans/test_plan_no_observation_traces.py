"""A plan refused as no-observation says why in its trace (the standard that every refusal says
what would have been accepted): the exemplar answered without the entity, and no later item read
shows it, or the read that would is taken by another write."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "archived": False}, {"id": 2, "title": "t2", "archived": False}]


def _why(write) -> list[str]:
    return [e.reason for e in write.traces if e.table == "plans" and (e.reason or "").startswith("no-observation:")]


def test_an_update_no_read_shows_says_so():
    bundle = build_from(items_app().call("PATCH", "/items/1", body={"title": "x"}, status=204))   # 4
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason == "no-observation"
    assert _why(update) == ["no-observation: record 4 (the exemplar) answered without the entity, and no later "
                            "item read of items '1' shows it"]


def test_an_update_whose_read_follows_another_tools_write_says_so():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, status=204)             # 4
                        .call("PUT", "/items/1", body={"title": "y"}, status=204)               # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "y"}))             # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason == "no-observation"
    assert _why(update) and "another tool's write comes between it and read 6" in _why(update)[0]


def test_an_action_whose_read_checks_a_waiting_write_says_so():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items/1", body={"title": "T"}, status=204)                # 4 awaits a check
                        .call("POST", "/items/1/archive", status=204)                              # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "T", "archived": True}))  # 6
    action = plan(bundle, "POST", "/items/{item_id}/archive")
    assert action.build_reason == "no-observation"
    assert _why(action) and "read 6 checks another tool's write" in _why(action)[0]


def test_an_observed_update_has_no_such_note():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, status=204)             # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "x"}))             # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.observation == 5 and _why(update) == []
