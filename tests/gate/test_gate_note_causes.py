"""The gate's notes name their cause (verdict audit D5; the standard that every refusal tells the
caller what it would accept): a call the plan does not explain carries serving's refusal, and an
update of an unknown entity names the unmodelled write that made it unknown and how it reached it."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan


def _calls(write) -> list[str]:
    events = [e for e in write.traces if e.table == "verdicts" and e.outcome == "match"]
    return list(events[0].evidence["calls"])


def test_an_unexplained_call_carries_servings_refusal():
    # serving refuses an update of an entity the state does not hold, and says so
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "a"}, response={"id": 1, "title": "a"})   # 4
                        .call("PATCH", "/items/3", body={"title": "b"}, response={"id": 3, "title": "b"}))  # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert not update.served
    note = next(n for n in _calls(update) if n.startswith("record 5:"))
    assert note.startswith("record 5: the plan does not explain this call (serving refuses it: ") and "3" in note, note


def test_an_update_of_an_entity_no_held_path_made_unknown_names_that_write():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/name/x", body={"title": "q"}, status=204)                    # 4
                        .call("PATCH", "/items/2", body={"title": "z"}, response={"id": 2, "title": "z"})   # 5
                        .call("GET", "/items/2", response={"id": 2, "title": "z"}))                         # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert _calls(update) == [
        "record 5: an update of an unknown entity, since record 4 (PATCH /items/name/x), a write no built plan "
        "models, reaches below an item path naming no held items ('name'): every entity of /items is unknown until "
        "a read shows it again (2 held); the collection is still checked"]


def test_an_unexplained_call_is_marked_as_such_in_its_trace():
    # `capenv verify` reads the mark to tell an endpoint served from one whose calls the plan refuses
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "a"}, response={"id": 1, "title": "a"})   # 4
                        .call("PATCH", "/items/3", body={"title": "b"}, response={"id": 3, "title": "b"}))  # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    marked = {e.evidence["record"] for e in update.traces if e.table == "gate" and e.evidence.get("unexplained")}
    assert marked == {5}
